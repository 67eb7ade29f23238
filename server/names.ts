/**
 * What people and bots are called at a table: table metadata, not game facts. A person may
 * give a display name when creating a game or joining one from the lobby; it is trimmed,
 * bounded and free of control characters, and clients show it as text only. Without one a
 * seat is "Player N". A bot is called by its catalogue entry's display name ("Regular"),
 * numbered when several seats share it ("Regular 1", "Regular 2").
 */
import { z } from 'zod';
import type { Catalogue } from './catalogue.ts';

/** Characters in a display name, at most (after trimming). */
export const MAX_NAME = 24;

/** Control, format, surrogate and unassigned characters: nothing that hides or reorders text. */
const UNSHOWABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]/u;

/** A person's display name as a client sends it: trimmed, inner runs of spaces made one. */
export const displayName = z.string().max(200)
  .transform((s) => s.trim().replace(/\s+/g, ' '))
  .pipe(z.string()
    .min(1, 'a name needs at least one character besides spaces')
    .max(MAX_NAME, `a name is at most ${MAX_NAME} characters`)
    .refine((s) => !UNSHOWABLE.test(s), 'a name may not hold control or invisible characters'))
  .describe(`A display name for the seat, shown to everyone at the table (1 to ${MAX_NAME} characters once trimmed). Default: "Player N".`);

export const defaultName = (seat: number): string => `Player ${seat}`;

/**
 * Every seat's name: a person's as given (or "Player N"); a bot's label as its entry's
 * display name, numbered in seat order when several seats share one.
 * @param labels 'remote' or the bot's canonical label, per seat
 */
export function seatNames(labels: readonly string[], given: readonly (string | null | undefined)[], catalogue: Catalogue): string[] {
  const bot = labels.map((label) => (label === 'remote' ? null : botName(label, catalogue)));
  const count = new Map<string, number>();
  for (const b of bot) if (b !== null) count.set(b, (count.get(b) ?? 0) + 1);
  const nth = new Map<string, number>();
  return labels.map((_, seat) => {
    const b = bot[seat];
    if (b === null) return given[seat] ?? defaultName(seat);
    if (count.get(b) === 1) return b;
    const k = (nth.get(b) ?? 0) + 1;
    nth.set(b, k);
    return `${b} ${k}`;
  });
}

/** An entry's display name; a label the catalogue does not hold (a tournament's replay) stands as it is. */
function botName(label: string, catalogue: Catalogue): string {
  try {
    return catalogue.resolve(label).entry.displayName;
  } catch {
    return label;
  }
}
