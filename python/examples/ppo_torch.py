"""Masked-action PPO in PyTorch against the engine's bots, in the CleanRL manner: one file, the
learner plays one seat of `--num-envs` games through czech_pub.vector_env, the engine's own
`--opponents` the others. Prints the greedy policy's win rate against `random` and `heuristic`
before and after training.

    pip install ./python torch        # once, from the checkout (docs/python.md)
    python3 python/examples/ppo_torch.py --minutes 15 --players 4 --opponents random,cautious,heuristic
"""

import argparse
import os
import sys
import time

import numpy as np

try:
    import torch
    import torch.nn as nn
except ImportError:
    sys.exit("ppo_torch.py needs PyTorch, which is not installed here: `pip install torch` (or Debian's python3-torch), then run it again (docs/python.md)")

try:
    import czech_pub
except ImportError:
    # Not installed (`pip install ./python`): the package beside this folder, which runs the
    # checkout's TypeScript engine (so `npm ci` must have been run in the checkout).
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import czech_pub


def parse():
    p = argparse.ArgumentParser(description="masked PPO against czech_pub bots")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--opponents", default="heuristic", help="agent spec(s) of the other seats while training")
    p.add_argument("--reward", default="rank", help="win | rank | score: rank (+1 first ... -1 last) gives a signal before the first win")
    p.add_argument("--minutes", type=float, default=10.0)
    p.add_argument("--num-envs", type=int, default=64)
    p.add_argument("--num-steps", type=int, default=128, help="steps per env per rollout")
    p.add_argument("--lr", type=float, default=2.5e-4)
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--eval-games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--save", default="", help="write the trained weights here (torch.save)")
    return p.parse_args()


class Agent(nn.Module):
    def __init__(self, obs_size, num_actions):
        super().__init__()

        def layer(i, o, std=np.sqrt(2)):
            lin = nn.Linear(i, o)
            nn.init.orthogonal_(lin.weight, std)
            nn.init.constant_(lin.bias, 0.0)
            return lin

        self.body = nn.Sequential(layer(obs_size, 256), nn.Tanh(), layer(256, 256), nn.Tanh())
        self.actor = layer(256, num_actions, std=0.01)
        self.critic = layer(256, 1, std=1.0)

    def value(self, x):
        return self.critic(self.body(x)).squeeze(-1)

    def act(self, x, mask, action=None):
        h = self.body(x)
        logits = self.actor(h).masked_fill(~mask, -1e9)
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(h).squeeze(-1), logits


def win_rate(agent, players, opponents, games, seed):
    """The greedy policy's share of first places over `games` finished games, and its 95% interval."""
    env = czech_pub.vector_env(num_envs=min(64, games), players=players, opponents=opponents, seed=f"eval/{seed}")
    try:
        obs, mask, _ = env.reset()
        wins = []
        while len(wins) < games:
            with torch.no_grad():
                m = torch.from_numpy(mask).bool()
                logits = agent.actor(agent.body(torch.from_numpy(obs))).masked_fill(~m, -1e9)
            obs, mask, _, term, trunc, info = env.step(logits.argmax(1).numpy())
            for i in np.flatnonzero(term | trunc):
                wins.append(float(info["win"][i]))
        w = np.array(wins[:games])
        half = 1.96 * w.std(ddof=1) / np.sqrt(len(w))
        return w.mean(), max(0.0, w.mean() - half), min(1.0, w.mean() + half)
    finally:
        env.close()


def report(label, agent, a):
    for opp in ("random", "heuristic"):
        m, lo, hi = win_rate(agent, a.players, opp, a.eval_games, a.seed)
        print(f"{label}: win rate against {a.players - 1} x {opp}: {100 * m:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%) over {a.eval_games} games, par {100 / a.players:.1f}%", flush=True)


def main():
    a = parse()
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    env = czech_pub.vector_env(num_envs=a.num_envs, players=a.players, opponents=a.opponents, seed=a.seed, reward=a.reward)
    n, T = a.num_envs, a.num_steps
    agent = Agent(env.obs_size, env.num_actions)
    opt = torch.optim.Adam(agent.parameters(), lr=a.lr, eps=1e-5)
    report("before training", agent, a)

    obs_buf = torch.zeros((T, n, env.obs_size))
    mask_buf = torch.zeros((T, n, env.num_actions), dtype=torch.bool)
    act_buf = torch.zeros((T, n), dtype=torch.long)
    logp_buf = torch.zeros((T, n))
    rew_buf = torch.zeros((T, n))
    done_buf = torch.zeros((T, n))
    val_buf = torch.zeros((T, n))

    obs, mask, _ = env.reset()
    next_obs, next_mask = torch.from_numpy(obs), torch.from_numpy(mask).bool()
    next_done = torch.zeros(n)
    start = time.time()
    steps = updates = 0
    finished = []
    while time.time() - start < a.minutes * 60:
        for t in range(T):
            obs_buf[t], mask_buf[t], done_buf[t] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logp, _, value, _ = agent.act(next_obs, next_mask)
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value
            obs, mask, reward, term, trunc, info = env.step(action.numpy())
            rew_buf[t] = torch.from_numpy(reward)
            next_obs, next_mask = torch.from_numpy(obs), torch.from_numpy(mask).bool()
            next_done = torch.from_numpy((term | trunc).astype(np.float32))
            finished += info["win"][term | trunc].tolist()
        steps += n * T
        # GAE. A finished game's row already holds the next game (same-step auto-reset), so its
        # value is not bootstrapped across the boundary: done flags the step that ended it.
        with torch.no_grad():
            next_value = agent.value(next_obs)
            adv = torch.zeros_like(rew_buf)
            last = torch.zeros(n)
            for t in reversed(range(T)):
                ended = done_buf[t + 1] if t + 1 < T else next_done
                nv = val_buf[t + 1] if t + 1 < T else next_value
                delta = rew_buf[t] + a.gamma * nv * (1 - ended) - val_buf[t]
                last = delta + a.gamma * a.gae_lambda * (1 - ended) * last
                adv[t] = last
            ret = adv + val_buf
        b_obs, b_mask = obs_buf.reshape(-1, env.obs_size), mask_buf.reshape(-1, env.num_actions)
        b_act, b_logp, b_adv, b_ret = act_buf.reshape(-1), logp_buf.reshape(-1), adv.reshape(-1), ret.reshape(-1)
        size = n * T
        mb = size // a.minibatches
        for _ in range(a.epochs):
            order = torch.randperm(size)
            for s in range(0, size, mb):
                i = order[s : s + mb]
                _, logp, ent, value, _ = agent.act(b_obs[i], b_mask[i], b_act[i])
                ratio = (logp - b_logp[i]).exp()
                adv_i = (b_adv[i] - b_adv[i].mean()) / (b_adv[i].std() + 1e-8)
                pg = torch.max(-adv_i * ratio, -adv_i * ratio.clamp(1 - a.clip, 1 + a.clip)).mean()
                vloss = 0.5 * ((value - b_ret[i]) ** 2).mean()
                loss = pg - a.ent_coef * ent.mean() + a.vf_coef * vloss
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), a.max_grad_norm)
                opt.step()
        updates += 1
        if updates % 10 == 0:
            recent = finished[-500:]
            print(f"update {updates}: {steps} learner decisions, {steps / (time.time() - start):.0f}/s, "
                  f"win share in the last {len(recent)} training games {100 * np.mean(recent):.1f}%", flush=True)
    env.close()
    print(f"trained {steps} learner decisions in {time.time() - start:.0f} s ({updates} updates)")
    report("after training", agent, a)
    if a.save:
        torch.save(agent.state_dict(), a.save)


if __name__ == "__main__":
    main()
