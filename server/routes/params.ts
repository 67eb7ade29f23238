/** Request pieces several route plugins check the same way. */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { MAX_SPEC_LENGTH } from '../catalogue.ts';
import * as S from '../schemas.ts';

/** A game's or a tournament's id in the path. */
export const idParams = z.object({ id: z.string().min(1).max(64) });

/** A route of one game that a seat token (or the watch token) opens. */
export const tokenRoute = { security: S.SEAT_TOKEN, params: idParams };

/** A bot spec (or 'remote', 'open') as a client writes it. */
export const specString = z.string().min(1).max(MAX_SPEC_LENGTH);

/** Whole numbers in a path or a query: decimal digits only (no 0x10, 1e1, +5 or empty), else a 400. */
export const decimal = z.string().regex(/^\d{1,15}$/, 'a whole number in decimal digits').transform(Number);

/** A fresh seed nobody can guess: a seat that knew the seed would know every hand and the draw pile. */
export const secretSeed = () => randomBytes(16).toString('base64url');
