/** Seed commitments: a game shows one from its start and reveals what it hashed in its replay. */
import { createHash, randomBytes } from 'node:crypto';

/**
 * A game's commitment to its seed: SHA-256 (hex) of a random salt followed by the seed, shown
 * from the start; the replay reveals both, so anyone can check that the deal was fixed before
 * the first card and not chosen later. `chosen`: the creator set the seed (a private table).
 */
export interface SeedCommitment {
  commitment: string;
  salt: string;
  chosen: boolean;
}

export function commitToSeed(seed: string, chosen: boolean, salt = randomBytes(16).toString('hex')): SeedCommitment {
  return { commitment: createHash('sha256').update(salt + seed).digest('hex'), salt, chosen };
}

/** What a seed commitment shows before the replay: never the salt. */
export const shownCommitment = (c: SeedCommitment) => ({ commitment: c.commitment, chosen: c.chosen });
