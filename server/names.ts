/**
 * What people and bots are called at a table: table metadata, not game facts. A person may
 * give a display name when creating a game or joining one from the lobby; it is trimmed,
 * bounded and free of control and invisible characters (nameFault: the one rule for every
 * name shown at a table), and clients show it as text only. Without one a seat is "Player N".
 * A bot is called by its catalogue entry's display name ("Regular"), numbered when several
 * seats share it ("Regular 1", "Regular 2").
 */
import { z } from 'zod';
import type { Catalogue } from './catalogue.ts';

/** Characters in a display name, at most (after trimming). */
export const MAX_NAME = 24;

/**
 * Characters a shown name may not hold anywhere: controls (C0, DEL, C1), format characters
 * (bidi embeddings, overrides and isolates, U+200E/F, U+061C, zero-width spaces and joiners,
 * U+2060, U+FEFF, soft hyphen, tags), surrogates, private use, unassigned code points, and
 * line and paragraph separators. Each hides or reorders text around it.
 */
const UNSHOWABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;

/**
 * Letters and symbols that draw nothing (the Hangul fillers, the blank braille pattern): a
 * name holding one can pass for another ("Anna" and "Anna" + U+3164 look alike), so they are
 * refused anywhere, as the characters above. Unicode gives them no property of their own.
 */
const BLANK_LOOKING = /[\u115F\u1160\u3164\uFFA0\u2800]/u;

/** A character that shows something: not a space, a combining mark or variation selector, nor any of the above. */
const VISIBLE = /[^\p{Z}\p{M}\p{C}\s\u115F\u1160\u3164\uFFA0\u2800]/u;

/**
 * Why `text` cannot be shown as a name, or null when it can: the one rule for every name a
 * person reads at a table (a display name, a replay's seat label, a name read back from the
 * state dir). Lengths are each caller's.
 */
export function nameFault(text: string): string | null {
  if (UNSHOWABLE.test(text) || BLANK_LOOKING.test(text)) return 'a name may not hold control or invisible characters';
  if (!VISIBLE.test(text)) return 'a name needs at least one visible character';
  return null;
}

/**
 * A person's display name as a client sends it: checked as sent (a tab or a line break is a
 * control character, refused, not made a space), then trimmed, inner runs of spaces made one.
 */
export const displayName = z.string().max(200)
  .superRefine((s, ctx) => {
    const fault = nameFault(s);
    if (fault) ctx.addIssue({ code: 'custom', message: fault });
  })
  .transform((s) => s.trim().replace(/\s+/g, ' '))
  .pipe(z.string()
    .min(1, 'a name needs at least one character besides spaces')
    .max(MAX_NAME, `a name is at most ${MAX_NAME} characters`))
  .describe(`A display name for the seat, shown to everyone at the table (1 to ${MAX_NAME} characters once trimmed). Default: "Player N".`);

/** Whether `name` is a display name exactly as this server keeps one (already trimmed and checked): what a name read back from the state dir must be. */
export const isKeptName = (name: string): boolean => {
  const r = displayName.safeParse(name);
  return r.success && r.data === name;
};

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
