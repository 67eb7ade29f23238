/**
 * The TypeScript side of python/tests/test_aec.py's trajectory check: reads a list of games
 * [{"players", "seed", "actions"}, ...] on stdin (one process for all: a start-up takes
 * seconds), plays each one's actions through the TypeScript env (env/env.ts) and prints, per
 * game, for the position before each action and after the last, the seat to act, a SHA-256 of
 * its float32 observation bytes, its legal actions and the step's rewards.
 */
import { createHash } from 'node:crypto';
import { CzechPubEnv } from '../../env/env.ts';

const games = JSON.parse(await new Promise<string>((resolve) => {
  let s = '';
  process.stdin.on('data', (d) => (s += d));
  process.stdin.on('end', () => resolve(s));
})) as { players: number; seed: string; actions: number[] }[];

function trajectory(input: { players: number; seed: string; actions: number[] }) {
  const env = new CzechPubEnv({ seed: input.seed, players: input.players });
  const rows = [];
  const record = () => {
    const seat = env.done ? -1 : env.actor;
    const obs = env.encode(seat < 0 ? 0 : seat);
    rows.push({
      seat,
      obs: seat < 0 ? null : createHash('sha256').update(Buffer.from(obs.buffer, obs.byteOffset, obs.byteLength)).digest('hex'),
      legal: env.done ? [] : env.legalActions(),
      rewards: env.rewards,
    });
  };
  record();
  for (const a of input.actions) {
    env.step(a);
    record();
  }
  return rows;
}

process.stdout.write(JSON.stringify(games.map(trajectory)));
