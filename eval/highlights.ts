/**
 * A tournament's games worth watching, for its report: each a link to the web viewer.
 *
 * - **Upsets**: sole wins by an agent rated below the best-rated agent at the table (every
 *   agent of a tournament sits at every table), the biggest rating gap first, one per winning
 *   agent (its win by the widest margin), at most two. The rating is the tournament's final
 *   openskill μ, so an upset is measured against what the whole run says of the agents.
 * - **Longest game**: the most turns (then decisions).
 * - **Closest finish**: the smallest lead of the winner over the runner-up (a shared win is 0).
 *
 * Games cut off at the decision cap are left out. Ties go to the lowest game index, so the
 * picks do not depend on the order games finished in (the number of workers).
 */
import { encodeReplay } from './replay-record.ts';
import type { GameResult, Summary } from './summary.ts';

export interface Highlight {
  kind: 'upset' | 'longest' | 'closest';
  /** The game's index in the schedule (games.jsonl's `index`). */
  index: number;
  /** Why it is worth watching, one sentence. */
  why: string;
  /** The game's replay link (encodeReplay): the viewer opens `#replay=<link>`. */
  link: string;
}

/** What the web viewer is served at by default: `czech-pub serve`'s host and port. */
export const DEFAULT_VIEWER = 'http://127.0.0.1:8787/';

/** The viewer's address, checked: http(s), no credentials, no fragment (the link is the fragment). Throws RangeError saying why. */
export function checkViewerUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RangeError(`'${text}' is not a URL (e.g. ${DEFAULT_VIEWER})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RangeError(`'${text}' must be an http:// or https:// URL`);
  if (url.username || url.password) throw new RangeError(`'${text}' holds credentials, which the report would show to everyone who reads it`);
  if (url.hash) throw new RangeError(`'${text}' has a #fragment; the report adds its own (#replay=…)`);
  return url.href;
}

/** The viewer's address of a replay link. */
export const viewerHref = (viewer: string, link: string): string => `${viewer}#replay=${link}`;

/** A finished game kept with what the picks need (its strings and link are made only for the picks). */
interface Kept {
  g: GameResult;
  /** Held apart: the tournament drops a game's actions once its line is written. */
  actions: number[];
  /** The winner's lead over the runner-up (0 for a shared win). */
  lead: number;
}

const better = (a: Kept | undefined, b: Kept, key: (k: Kept) => number): boolean =>
  a === undefined || key(b) > key(a) || (key(b) === key(a) && b.g.index < a.g.index);

/** Gathers the candidates as games finish (keeping a few games' actions, not every game's). */
export class HighlightPicker {
  private longest?: Kept;
  private closest?: Kept;
  /** Per winning agent: its widest sole win. */
  private wins = new Map<string, Kept>();

  constructor(private readonly names: readonly string[], private readonly askForced: boolean, private readonly ruleset: string) {}

  offer(g: GameResult): void {
    if (g.truncated) return;
    const sorted = [...g.scores].sort((a, b) => b - a);
    const kept: Kept = { g, actions: g.actions, lead: sorted[0] - sorted[1] };
    if (better(this.longest, kept, (k) => k.g.turns * 1e6 + k.g.decisions)) this.longest = kept;
    if (better(this.closest, kept, (k) => -k.lead)) this.closest = kept;
    if (g.winners.length === 1) {
      const winner = this.names[g.seating[g.winners[0]]];
      if (better(this.wins.get(winner), kept, (k) => k.lead)) this.wins.set(winner, kept);
    }
  }

  private link(k: Kept): string {
    // The agents' labels ride along (an r2 link), so the viewer names the seats as the report does.
    const seats = k.g.seating.map((entry) => this.names[entry]);
    return encodeReplay({ players: k.g.seating.length, seed: k.g.seed, askForced: this.askForced, ruleset: this.ruleset, actions: k.actions, seats });
  }

  /** "heuristic 80, cautious 79, ...": the scores, best first, by agent name. */
  private scores(k: Kept): string {
    const { g } = k;
    const order = g.scores.map((_, seat) => seat).sort((a, b) => g.scores[b] - g.scores[a] || a - b);
    return order.map((seat) => `${this.names[g.seating[seat]]} ${g.scores[seat]}`).join(', ');
  }

  /** The picks, given the tournament's summary (its ratings). */
  pick(summary: Summary): Highlight[] {
    const rating = new Map(summary.agents.map((a) => [a.spec, a.rating]));
    const best = Math.max(...summary.agents.map((a) => a.rating));
    const top = summary.agents.find((a) => a.rating === best)?.spec;
    const upsets = [...this.wins.entries()]
      .map(([agent, k]) => ({ agent, k, gap: best - (rating.get(agent) ?? best) }))
      .filter((u) => u.gap > 0)
      .sort((a, b) => b.gap - a.gap || a.k.g.index - b.k.g.index)
      .slice(0, 2);
    const points = (n: number) => `${n} point${n === 1 ? '' : 's'}`;
    const out: Highlight[] = upsets.map(({ agent, k, gap }) => ({
      kind: 'upset', index: k.g.index, link: this.link(k),
      why: `An upset: ${agent}, rated ${gap.toFixed(1)} below ${top}, wins by ${points(k.lead)} (${this.scores(k)}).`,
    }));
    if (this.longest) {
      const k = this.longest;
      out.push({ kind: 'longest', index: k.g.index, link: this.link(k), why: `The longest game: ${k.g.turns} turns, ${k.g.decisions} decisions (${this.scores(k)}).` });
    }
    if (this.closest) {
      const k = this.closest;
      const how = k.lead === 0 ? 'a shared win' : `won by ${points(k.lead)}`;
      out.push({ kind: 'closest', index: k.g.index, link: this.link(k), why: `The closest finish, ${how} (${this.scores(k)}).` });
    }
    return out;
  }
}
