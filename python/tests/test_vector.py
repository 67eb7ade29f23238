import unittest

import _util
import numpy as np

import czech_pub
from czech_pub import BridgeError


def random_actions(rng, mask):
    # One uniformly random legal action per row.
    noise = rng.random(mask.shape) * mask
    return noise.argmax(axis=1)


def run(steps, **kw):
    v = czech_pub.vector_env(**kw)
    try:
        rng = np.random.default_rng(0)
        obs, mask, info = v.reset()
        trace = [obs.sum(), mask.sum()]
        ended = wins = 0
        for _ in range(steps):
            obs, mask, reward, term, trunc, info = v.step(random_actions(rng, mask))
            trace += [obs.sum(), mask.sum(), reward.sum()]
            ended += int(term.sum() + trunc.sum())
            wins += float(info["win"].sum())
        return trace, ended, wins
    finally:
        v.close()


class VectorTest(_util.SharedEngineTest):
    """One engine process for the class (starting one takes seconds): each env is a handle of
    its own on it, freed when the env is closed."""

    def vec(self, **kw):
        return czech_pub.vector_env(bridge=self.bridge, **kw)

    def run_steps(self, steps, **kw):
        return run(steps, bridge=self.bridge, **kw)

    def test_batches_shapes_and_learner_seats(self):
        with self.vec(num_envs=6, players=3, opponents="heuristic", seed=4) as v:
            obs, mask, info = v.reset()
            self.assertEqual(obs.shape, (6, 569))
            self.assertEqual(obs.dtype, np.float32)
            self.assertEqual(mask.shape, (6, 198))
            self.assertEqual(mask.dtype, np.int8)
            self.assertEqual(info["seat"].tolist(), [0, 1, 2, 0, 1, 2])
            # The learner always has a real choice: moves with one legal action are made for it.
            self.assertTrue((mask.sum(axis=1) >= 2).all())

    def test_same_seed_same_run(self):
        a = self.run_steps(60, num_envs=8, players=4, opponents="heuristic", seed=3)
        b = self.run_steps(60, num_envs=8, players=4, opponents="heuristic", seed=3)
        c = self.run_steps(60, num_envs=8, players=4, opponents="heuristic", seed=4)
        self.assertEqual(a, b)
        self.assertNotEqual(a[0], c[0])

    def test_same_run_on_one_engine_thread_or_several(self):
        one = self.run_steps(40, num_envs=40, players=3, opponents="heuristic", seed=5, threads=1)
        two = self.run_steps(40, num_envs=40, players=3, opponents="heuristic", seed=5, threads=2)
        self.assertEqual(one, two)
        with self.vec(num_envs=40, players=3, opponents="random", seed=5, threads=2) as v:
            self.assertEqual(v.threads, 2)
        with self.vec(num_envs=8, players=3, opponents="random", seed=5) as v:
            self.assertEqual(v.threads, 1)  # 'auto': at least 16 games a thread
        with self.assertRaisesRegex(BridgeError, "threads must be 'auto' or a whole number"):
            self.vec(num_envs=8, players=3, opponents="random", threads=0)

    def test_games_end_restart_and_score(self):
        trace, ended, wins = self.run_steps(400, num_envs=8, players=2, opponents="random", seed=1)
        self.assertGreater(ended, 8)
        # Random against random: the learner wins about half.
        self.assertGreater(wins / ended, 0.25)
        self.assertLess(wins / ended, 0.75)

    def test_illegal_action_raises_and_no_game_moves(self):
        with self.vec(num_envs=4, players=4, opponents="cautious", seed=2) as v:
            obs, mask, _ = v.reset()
            acts = random_actions(np.random.default_rng(5), mask)
            bad = acts.copy()
            bad[2] = int(np.flatnonzero(mask[2] == 0)[0])
            with self.assertRaises(BridgeError) as cm:
                v.step(bad)
            self.assertIn(f"env 2: action {bad[2]} is not legal; legal actions: ", str(cm.exception))
            after = v.step(acts)
        with self.vec(num_envs=4, players=4, opponents="cautious", seed=2) as fresh:
            fresh.reset()
            expect = fresh.step(acts)
        for x, y in zip(after[:5], expect[:5]):
            self.assertTrue(np.array_equal(x, y))

    def test_per_seat_opponents_and_bad_specs(self):
        with self.vec(num_envs=2, players=3, opponents="ppo,heuristic", seed=1, seat=0) as v:
            obs, mask, info = v.reset()
            self.assertEqual(info["seat"].tolist(), [0, 0])
        with self.assertRaisesRegex(BridgeError, "unknown agent 'nobody'"):
            self.vec(num_envs=2, players=3, opponents="nobody")
        with self.assertRaisesRegex(BridgeError, "opponents must be one agent spec or 2"):
            self.vec(num_envs=2, players=3, opponents="random,random,random")
        with self.assertRaisesRegex(BridgeError, "players must be"):
            self.vec(num_envs=2, players=9)

    def test_two_envs_on_one_bridge_overlap_with_step_async(self):
        """Requests in flight are answered in order: the overlapped run equals the plain one."""
        def plain(seed):
            return self.run_steps(20, num_envs=4, players=3, opponents="heuristic", seed=seed)[0]

        bridge = self.bridge
        envs = []
        try:
            envs += [czech_pub.vector_env(num_envs=4, players=3, opponents="heuristic", seed=s, bridge=bridge) for s in (7, 8)]
            rngs = [np.random.default_rng(0), np.random.default_rng(0)]
            traces, masks = [], []
            for e in envs:
                obs, mask, _ = e.reset()
                traces.append([obs.sum(), mask.sum()])
                masks.append(mask)
            for e, r, m in zip(envs, rngs, masks):
                e.step_async(random_actions(r, m))
            for k in range(20):
                for j, e in enumerate(envs):
                    obs, mask, reward, *_ = e.step_wait()
                    traces[j] += [obs.sum(), mask.sum(), reward.sum()]
                    if k < 19:
                        e.step_async(random_actions(rngs[j], mask))
            with self.assertRaisesRegex(RuntimeError, "step_wait without step_async"):
                envs[0].step_wait()
        finally:
            for e in envs:
                e.close()
        self.assertEqual(traces[0], plain(7))
        self.assertEqual(traces[1], plain(8))


if __name__ == "__main__":
    unittest.main()
