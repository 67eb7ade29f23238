"""Decisions per second through the bridge, with uniformly random legal actions chosen in
Python: the vector env (learner decisions, and all decisions the engine stepped, bots' and
forced ones included) and the AEC env (every decision of every seat passes through Python).
Prints one JSON object. Run by `czech-pub bench bridge`."""

import argparse
import json
import os
import platform
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import czech_pub  # noqa: E402


def bench_vector(players, num_envs, opponents, seconds, threads="auto"):
    v = czech_pub.vector_env(num_envs=num_envs, players=players, opponents=opponents, seed=1, threads=threads)
    try:
        rng = np.random.default_rng(0)
        obs, mask, _ = v.reset()

        def loop(limit):
            nonlocal obs, mask
            learner = engine = games = 0
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < limit:
                actions = (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1)
                obs, mask, _, term, trunc, info = v.step(actions)
                learner += num_envs
                engine += info["engine_decisions"]
                games += int(term.sum() + trunc.sum())
            return learner, engine, games, time.perf_counter() - t0

        loop(min(1.0, seconds / 5))
        learner, engine, games, dt = loop(seconds)
        return {"learnerDecisionsPerSec": round(learner / dt), "engineDecisionsPerSec": round(engine / dt), "gamesPerSec": round(games / dt, 1), "numEnvs": num_envs, "opponents": opponents, "threads": v.threads}
    finally:
        v.close()


def bench_overlapped(players, num_envs, opponents, seconds, threads=1):
    """Two vector envs of num_envs/2 games on one bridge, stepped with step_async/step_wait so
    the engine steps one while Python picks the other's actions: one engine thread each by
    default, the engine's core and Python's then busy at once."""
    bridge = czech_pub.Bridge()
    try:
        half = max(1, num_envs // 2)
        envs = [czech_pub.vector_env(num_envs=half, players=players, opponents=opponents, seed=s, threads=threads, bridge=bridge) for s in (1, 2)]
        rng = np.random.default_rng(0)
        pick = lambda m: (rng.random(m.shape, dtype=np.float32) * m).argmax(axis=1)  # noqa: E731
        masks = [e.reset()[1] for e in envs]
        for e, m in zip(envs, masks):
            e.step_async(pick(m))

        def loop(limit):
            learner = engine = 0
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < limit:
                for e in envs:
                    _, mask, _, _, _, info = e.step_wait()
                    e.step_async(pick(mask))
                    learner += half
                    engine += info["engine_decisions"]
            return learner, engine, time.perf_counter() - t0

        loop(min(1.0, seconds / 5))
        learner, engine, dt = loop(seconds)
        for e in envs:
            e.step_wait()
        return {"learnerDecisionsPerSec": round(learner / dt), "engineDecisionsPerSec": round(engine / dt), "threads": [e.threads for e in envs]}
    finally:
        bridge.close()


def bench_aec(players, seconds):
    env = czech_pub.env(players=players, seed=1)
    try:
        # Python's own generator draws the index: numpy's costs ~1 µs a scalar call, and
        # bench_rlcard.py draws the same way.
        pick = random.Random(0).randrange

        def loop(limit):
            n = games = 0
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < limit:
                env.reset()
                for agent in env.agent_iter():
                    obs, _, term, trunc, _ = env.last()
                    if term or trunc:
                        env.step(None)
                        continue
                    legal = obs["action_mask"].nonzero()[0]
                    env.step(int(legal[pick(len(legal))]))
                    n += 1
                games += 1
            return n, games, time.perf_counter() - t0

        loop(min(1.0, seconds / 5))
        n, games, dt = loop(seconds)
        return {"decisionsPerSec": round(n / dt), "gamesPerSec": round(games / dt, 1)}
    finally:
        env.close()


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--num-envs", type=int, default=256)
    p.add_argument("--opponents", default="random")
    p.add_argument("--seconds", type=float, default=5)
    p.add_argument("--threads", default="auto", help="the vector envs' engine threads: auto or a number")
    a = p.parse_args()
    threads = a.threads if a.threads == "auto" else int(a.threads)
    out = {
        "players": a.players,
        "seconds": a.seconds,
        "vector": bench_vector(a.players, a.num_envs, a.opponents, a.seconds, threads),
        "vectorOverlapped": bench_overlapped(a.players, a.num_envs, a.opponents, a.seconds),
        "aec": bench_aec(a.players, a.seconds),
        "python": platform.python_version(),
        "numpy": np.__version__,
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
