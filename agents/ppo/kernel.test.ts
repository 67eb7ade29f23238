import { describe, expect, it } from 'vitest';
import { playGame } from '../../eval/game.ts';
import { NUM_ACTIONS } from '../../env/index.ts';
import { JsNet } from '../../policy/index.ts';
import type { Agent, AgentObservation } from '../agent.ts';
import { createAgent } from '../default-registry.ts';
import { SeatInput } from './input.ts';
import { loadPolicy, shippedModel } from './ppo-agent.ts';

describe('the shipped nets in both kernels', { timeout: 120_000 }, () => {
  it('give the same logits and value, bit for bit, at every decision of seeded games at 2–6 players', async () => {
    for (let players = 2; players <= 6; players++) {
      const { weights } = loadPolicy(shippedModel(players));
      const wasm = new JsNet(weights, 'wasm');
      const js = new JsNet(weights, 'js');
      expect([wasm.kernel, js.kernel]).toEqual(['wasm', 'js']);
      const inputs = Array.from({ length: players }, () => new SeatInput(weights.shape));
      let compared = 0;
      // Heuristic seats play; at each of their decisions both nets read the seat's input.
      const seats: Agent[] = Array.from({ length: players }, (_, seat) => {
        const h = createAgent('heuristic');
        return {
          spec: 'heuristic',
          reset: (game) => {
            inputs[seat].reset(game.seat, game.players, game.seed, game.ruleset);
            h.reset?.(game);
          },
          act: (obs: AgentObservation) => {
            const x = inputs[seat].input(obs);
            const a = new Float32Array(NUM_ACTIONS);
            const b = new Float32Array(NUM_ACTIONS);
            const va = wasm.forward(x, obs.mask, a);
            const vb = js.forward(x, obs.mask, b);
            expect(Object.is(va, vb)).toBe(true);
            expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
            compared++;
            return h.act(obs);
          },
        };
      });
      await playGame(seats, { seed: `kernels/${players}` });
      expect(compared).toBeGreaterThan(20);
    }
  });
});
