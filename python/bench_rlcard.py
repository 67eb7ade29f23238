"""RLCard's UNO env for comparison with bench.py: random legal actions, every player's decision
through env.step (which encodes the next state), decisions per second as one JSON object.
Needs rlcard importable (pip install rlcard, or its source on PYTHONPATH)."""

import argparse
import json
import random
import time

import rlcard


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seconds", type=float, default=5)
    a = p.parse_args()
    env = rlcard.make("uno", config={"seed": 1})
    # Drawn as bench.py's AEC loop draws: Python's own generator.
    pick = random.Random(0).randrange

    def loop(limit):
        n = games = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < limit:
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"].keys())
                state, _ = env.step(legal[pick(len(legal))])
                n += 1
            games += 1
        return n, games, time.perf_counter() - t0

    loop(min(1.0, a.seconds / 5))
    n, games, dt = loop(a.seconds)
    print(json.dumps({"decisionsPerSec": round(n / dt), "gamesPerSec": round(games / dt, 1), "decisionsPerGame": round(n / games, 1)}))


if __name__ == "__main__":
    main()
