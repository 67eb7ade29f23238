import { describe, expect, it } from 'vitest';
import { EnvObservation } from '../agents/observation.ts';
import { RandomAgent } from '../agents/random.ts';
import { agentSeed } from '../agents/seed.ts';
import { CzechPubEnv } from '../env/env.ts';
import { playGame } from './game.ts';

/** The same game as playGame plays with random agents, on an env that keeps its log. */
function endEvent(seed: string, players: number) {
  const env = new CzechPubEnv({ seed, players });
  const agents = Array.from({ length: players }, (_, seat) => {
    const a = new RandomAgent();
    a.reset({ seat, players, seed: agentSeed(seed, seat) });
    return a;
  });
  while (!env.done) env.step(agents[env.actor].act(new EnvObservation(env, env.actor)));
  const end = env.fullLog.find((e) => e.k === 'end');
  if (!end || end.k !== 'end') throw new Error('no end event');
  return { ...end, ended: env.endReason };
}

describe('playGame', () => {
  it("reports the engine's final scores, winners (tied winners included) and why the game ended", async () => {
    let ties = 0;
    for (let g = 0; g < 120; g++) {
      const players = 2 + (g % 5);
      const seed = `winners/${g}`;
      const r = await playGame(Array.from({ length: players }, () => new RandomAgent()), { seed });
      const end = endEvent(seed, players);
      expect(r.scores).toEqual(end.scores);
      expect(r.winners).toEqual(end.winners);
      expect(r.ended).toBe(end.ended);
      expect(r.winners.length).toBeGreaterThan(0);
      if (r.winners.length > 1) ties++;
    }
    // Random play ties often (everyone thrown out on 0), so ties were covered.
    expect(ties).toBeGreaterThan(0);
  });
});
