import { NUM_ACTIONS } from '../../env/actions.ts';
import { randInt, type seedRng } from '../../env/rng.ts';

/** One uniformly random legal action per game of a batch, read off its mask rows. */
export function randomActions(v: { numEnvs: number; masks: Uint8Array }, rng: ReturnType<typeof seedRng>): Int32Array {
  const acts = new Int32Array(v.numEnvs);
  for (let i = 0; i < v.numEnvs; i++) {
    const legal: number[] = [];
    for (let a = 0; a < NUM_ACTIONS; a++) if (v.masks[i * NUM_ACTIONS + a]) legal.push(a);
    acts[i] = legal[randInt(rng, legal.length)];
  }
  return acts;
}
