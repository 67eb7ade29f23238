"""Czech Pub for Python: the czech-pub-gym engine (TypeScript, run as a Node subprocess) behind a
PettingZoo-style AEC env and a batched vector env.

    import czech_pub
    env = czech_pub.env(players=4, seed=1)          # PettingZoo AEC API
    vec = czech_pub.vector_env(num_envs=64, players=4, opponents="heuristic", seed=1)
"""

from ._version import __version__
from ._bridge import Bridge, BridgeClosed, BridgeError, EngineMismatch, default_command
from .aec import CzechPubAEC
from .vector import CzechPubVectorEnv

__all__ = ["__version__", "env", "vector_env", "Bridge", "BridgeError", "BridgeClosed", "EngineMismatch", "CzechPubAEC", "CzechPubVectorEnv", "default_command"]


def env(players: int = 4, seed=None, ruleset: dict | str | None = None, reward: str = "win", render_mode: str | None = None, **kw) -> CzechPubAEC:
    """A PettingZoo AEC env: one game, every seat played through it."""
    return CzechPubAEC(players=players, seed=seed, ruleset=ruleset, reward=reward, render_mode=render_mode, **kw)


def vector_env(num_envs: int = 64, players: int = 4, opponents: str = "heuristic", seed=0, **kw) -> CzechPubVectorEnv:
    """Many games, the learner in one seat of each and the engine's agents in the others."""
    return CzechPubVectorEnv(num_envs=num_envs, players=players, opponents=opponents, seed=seed, **kw)
