"""Many games stepped per message: the learner plays one seat of each, the engine's own agents
(any spec: heuristic, cautious, ppo, ...) the others. The fast path for training.

    v = czech_pub.vector_env(num_envs=64, players=4, opponents="heuristic", seed=1)
    obs, mask = v.reset()                      # float32[N, 569], int8[N, 198]
    obs, mask, reward, terminated, truncated, info = v.step(actions)   # int[N]

A game that ends restarts at once (same-step auto-reset): its row of `obs`/`mask` then holds
the new game's first observation; `reward`, `terminated`, `truncated` and `info["win"]` (the
learner's share of first place) describe the game that ended. Moves with one legal action are
made for the learner; the learner's seat rotates game by game unless `seat` fixes it.

The engine steps the games on `threads` threads ("auto": up to 4, one per core, at least 16
games each); the games and their seeds are the same on any number, so one seed gives the same
batches. `v.threads` says how many it got.
"""

from __future__ import annotations

import struct

import numpy as np

from . import _protocol as P
from ._bridge import Bridge, BridgedHandle

_HANDLE = struct.Struct("<I")
_NEW = struct.Struct("<II")


class CzechPubVectorEnv(BridgedHandle):
    def __init__(self, num_envs: int = 64, players: int = 4, opponents: str = "heuristic", seed=0,
                 seat: int | str = "rotate", ruleset: dict | str | None = None, reward: str = "win",
                 threads: int | str = "auto", bridge: Bridge | None = None, command: list[str] | None = None):
        self._own_bridge = bridge is None
        self._bridge = bridge if bridge is not None else Bridge(command)
        info = self._bridge.info()
        self.obs_size = int(info["observationSize"])
        self.num_actions = int(info["numActions"])
        self.num_envs = int(num_envs)
        self.players = int(players)
        body = {"numEnvs": self.num_envs, "players": self.players, "opponents": opponents, "seed": str(seed), "seat": seat, "reward": reward, "threads": threads}
        if ruleset is not None:
            body["ruleset"] = ruleset
        try:
            #: Threads the engine steps these games on (`threads`: "auto" or a number).
            self._handle, self.threads = _NEW.unpack(bytes(self._bridge.request_json(P.OP_VEC_NEW, body)))
        except Exception:
            if self._own_bridge:
                self._bridge.close()
            raise
        self._hb = _HANDLE.pack(self._handle)
        self._ticket = None
        self._closed = False

    def _batch(self, data: memoryview):
        n, o, a = self.num_envs, self.obs_size, self.num_actions
        at = 0

        def take(dtype, count):
            nonlocal at
            arr = np.frombuffer(data, dtype=dtype, count=count, offset=at).copy()
            at += arr.nbytes
            return arr

        obs = take(np.float32, n * o).reshape(n, o)
        mask = take(np.uint8, n * a).reshape(n, a).view(np.int8)
        reward = take(np.float32, n)
        win = take(np.float32, n)
        terminated = take(np.uint8, n).astype(bool)
        truncated = take(np.uint8, n).astype(bool)
        seat = take(np.uint8, n)
        (stepped,) = struct.unpack_from("<I", data, at)
        return obs, mask, reward, terminated, truncated, {"win": win, "seat": seat, "engine_decisions": stepped}

    def reset(self, seed=None):
        """Starts every game afresh; returns (observations, action masks, info)."""
        if seed is not None:
            raise ValueError("the vector env's seed is fixed at creation: make a new one for another seed")
        obs, mask, _, _, _, info = self._batch(self._bridge.request(P.OP_VEC_RESET, self._hb))
        return obs, mask, info

    def step(self, actions):
        """Steps every game with its action (int[num_envs]); an illegal action in any game raises
        naming it and the legal ones, and no game moves. Returns (obs, mask, reward, terminated,
        truncated, info)."""
        self.step_async(actions)
        return self.step_wait()

    def step_async(self, actions) -> None:
        """Sends the actions and returns at once; `step_wait` collects the result. Two vector envs
        on one bridge (`bridge=`) overlap: the engine steps one while Python works on the other."""
        if self._ticket is not None:
            raise RuntimeError("step_async called twice: call step_wait first")
        acts = np.ascontiguousarray(actions, dtype="<i4")
        if acts.shape != (self.num_envs,):
            raise ValueError(f"expected {self.num_envs} actions, got shape {acts.shape}")
        self._ticket = self._bridge.send(P.OP_VEC_STEP, self._hb + acts.tobytes())

    def step_wait(self):
        if self._ticket is None:
            raise RuntimeError("step_wait without step_async")
        ticket, self._ticket = self._ticket, None
        return self._batch(self._bridge.receive(ticket))
