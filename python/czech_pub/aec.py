"""Czech Pub as a PettingZoo AEC env, shaped as PettingZoo's classic card-game envs are.

| Import             | `import czech_pub; env = czech_pub.env(players=4)`                     |
|--------------------|-------------------------------------------------------------------------|
| Agents             | `player_0` ... `player_{P-1}`, P from 2 to 6                            |
| Actions            | Discrete(198): the engine's fixed action ids (docs/environment.md)       |
| Observation        | `{"observation": float32[569], "action_mask": int8[198]}`              |
| Observation values | the seat's own view only (env/observation/encode.ts's slice layout)     |
| Action mask        | 1 for the legal actions of the agent to act; all 0 for the others      |
| Rewards            | only at the end: win (1 shared by tied winners), rank (+1 ... -1), score |
| Seeds              | `reset(seed=s)` plays game `s`; later resets `s/1`, `s/2`, ...           |

One agent acts at a time; `last()` gives its observation, the reward gathered since it last
acted, and whether its game ended; after the end every agent is stepped once with `None`.
"""

from __future__ import annotations

import os
import struct

import numpy as np

from . import _protocol as P
from ._bridge import Bridge, BridgedHandle

try:  # pragma: no cover - depends on what is installed
    from pettingzoo.utils.env import AECEnv as _Base  # type: ignore
except Exception:  # pragma: no cover
    _Base = object

_I32 = struct.Struct("<i")
_HANDLE = struct.Struct("<I")
#: A whole ENV_STEP frame: payload length (9), op, handle, action.
_STEP = struct.Struct("<IBIi")


def _spaces(obs_size: int, num_actions: int):
    """Gymnasium spaces when gymnasium is importable, else plain descriptions."""
    try:
        from gymnasium import spaces  # type: ignore
    except Exception:
        return (
            {"observation": {"shape": (obs_size,), "dtype": "float32"}, "action_mask": {"shape": (num_actions,), "dtype": "int8"}},
            {"n": num_actions, "dtype": "int64"},
        )
    obs = spaces.Dict(
        {
            "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(obs_size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(num_actions,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(num_actions)


class CzechPubAEC(BridgedHandle, _Base):
    metadata = {"render_modes": ["human", "ansi"], "name": "czech_pub_v0", "is_parallelizable": False}

    def __init__(self, players: int = 4, seed=None, ruleset: dict | str | None = None, reward: str = "win",
                 render_mode: str | None = None, bridge: Bridge | None = None, command: list[str] | None = None):
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self._own_bridge = bridge is None
        self._bridge = bridge if bridge is not None else Bridge(command)
        info = self._bridge.info()
        self.obs_size = int(info["observationSize"])
        self.num_actions = int(info["numActions"])
        self._obs_bytes = 4 * self.obs_size
        self._record_bytes = self._obs_bytes + self.num_actions
        self.players = int(players)
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_space, self._act_space = _spaces(self.obs_size, self.num_actions)
        self._base_seed = seed if seed is not None else int.from_bytes(os.urandom(4), "little")
        self._episode = 0
        body = {"players": self.players, "seed": str(self._base_seed), "reward": reward}
        if ruleset is not None:
            body["ruleset"] = ruleset
        self._handle = _HANDLE.unpack(bytes(self._bridge.request_json(P.OP_ENV_NEW, body)))[0]
        self._hb = _HANDLE.pack(self._handle)
        self._no_rewards = bytes(4 * self.players)
        self._rewarded = False
        self.agents: list[str] = []
        self._closed = False

    # --- spaces -----------------------------------------------------------------------------
    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    @property
    def num_agents(self) -> int:
        return len(self.agents)

    @property
    def max_num_agents(self) -> int:
        return len(self.possible_agents)

    # --- the game ----------------------------------------------------------------------------
    def _take(self, data: memoryview) -> None:
        """Reads a turn record (bridge/protocol.ts): the observation and mask are copied out of
        the bridge's buffer (reused by the next request); observe() hands out copies of them."""
        seat, flags, players = data[0], data[1], data[2]
        off = 4 + 4 * players
        # One copy out of the buffer; the observation and the mask (its 0/1 bytes read as int8,
        # no conversion pass) are views of it.
        record = np.frombuffer(data, dtype=np.uint8, count=self._record_bytes, offset=off).copy()
        self._obs = record[: self._obs_bytes].view(np.float32)
        self._mask = record[self._obs_bytes :].view(np.int8)
        self._seat = seat
        self._over = seat == P.NO_SEAT
        rewarded = data[4:off] != self._no_rewards
        if rewarded:
            rewards = np.frombuffer(data, dtype=np.float32, count=players, offset=4)
            self.rewards = {a: float(rewards[self.agent_name_mapping[a]]) for a in self.agents}
            for a, r in self.rewards.items():
                self._cumulative_rewards[a] += r
        elif self._rewarded:
            # The last step handed out rewards; this one hands out none.
            self.rewards = {a: 0.0 for a in self.agents}
        self._rewarded = rewarded
        if self._over:
            for a in self.agents:
                self.terminations[a] = bool(flags & 1)
                self.truncations[a] = bool(flags & 2)
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[seat]

    def reset(self, seed=None, options=None) -> None:
        if seed is not None:
            self._base_seed = seed
            self._episode = 0
        # Episode k of a seed plays the game seeded "{seed}" (k = 0) or "{seed}/{k}".
        game_seed = str(self._base_seed) if self._episode == 0 else f"{self._base_seed}/{self._episode}"
        self._episode += 1
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._take(self._bridge.request_json(P.OP_ENV_RESET, {"seed": game_seed}, prefix=self._hb))

    def observe(self, agent: str) -> dict:
        seat = self.agent_name_mapping[agent]
        if not self._over and seat == self._seat:
            # Fresh arrays each time: an agent may write to what it is given.
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        data = self._bridge.request(P.OP_ENV_OBSERVE, self._hb + bytes((seat,)))
        obs = np.frombuffer(data, dtype=np.float32, count=self.obs_size, offset=0).copy()
        mask = np.frombuffer(data, dtype=np.uint8, count=self.num_actions, offset=4 * self.obs_size).astype(np.int8)
        return {"observation": obs, "action_mask": mask}

    def last(self, observe: bool = True):
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent], self.infos[agent]

    def agent_iter(self, max_iter: int = 2**63):
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent}'s game is over: step it with None, got {action!r}")
            # Remove the finished agent; the next one left takes its final step.
            self.agents.remove(agent)
            for d in (self.rewards, self.terminations, self.truncations, self.infos):
                d.pop(agent, None)
            self._cumulative_rewards.pop(agent, None)
            # As PettingZoo's own dead steps do: this step handed out nothing.
            for a in self.rewards:
                self.rewards[a] = 0.0
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        if action is None:
            raise ValueError(f"{agent} must act: step with one of its legal actions, not None")
        # An illegal action raises, changing nothing.
        bridge = self._bridge
        if bridge._pending:
            raise RuntimeError(f"{len(bridge._pending)} request(s) still in flight on this env's bridge: receive them first")
        data = bridge.receive(bridge.send_frame(_STEP.pack(9, P.OP_ENV_STEP, self._handle, int(action))))
        self._cumulative_rewards[agent] = 0.0
        self._take(data)
        if self.render_mode == "human":
            self.render()

    def render(self):
        seat = -1 if self._over else self._seat
        text = bytes(self._bridge.request(P.OP_ENV_RENDER, self._hb + _I32.pack(seat))).decode("utf-8")
        if self.render_mode == "human":
            print(text)
            return None
        return text
