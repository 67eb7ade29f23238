/**
 * `heuristic`: the strongest hand-written player.
 *
 * Own turn: it plans the rest of the turn as a whole. Each set of orders is worth its points
 * and shot-type bonus plus the expected value of the place the roll leaves the figure on,
 * read from a table of what each place on the chart is worth with T turns to go (future.ts),
 * averaged over the turns it expects before CLOSING TIME (horizon.ts). So it drinks hard
 * early on a low space, eases off (or adds tea) near the end of a row or on the last level,
 * and drinks everything in its last turn, where only points and the shot bonus count and
 * being wasted costs nothing. A new shot type is worth its bonus less the drunkenness it adds
 * to every later shot, so it collects types while turns remain to drink. Spare actions go to pub cards aimed at the leader (Insulted
 * bartender, Let's do a shot, That's my order, Shots everyone), to You don't want it anymore?
 * when the top discard helps, and to I'll get the same when it has little to drink. Cards in
 * hand are valued against a fresh draw (hand.ts), so a clogged hand is cleared by playing or
 * discarding its weakest cards.
 *
 * Others' turns: once the active player is done, it prices every X card as the points it
 * takes from them (weighted by how much that player threatens to win) against keeping the
 * card: knocking over a leader's shot or third beer, Mixed-up giving tea or coffee for a
 * leader's shot or beer, pouring a leader's own shot into their beer (no points, the
 * drunkenness stays), That beer is warm. Aimed at, it keeps Excuse me for the cards that hurt
 * (Insulted bartender, That's my order, Let's do a shot, I'll get the same by a leader) and
 * redirects them to the more dangerous neighbour when it may. In the shot choice it gives up
 * its least useful card, taking a new token where it can.
 *
 * Options (tuning knobs; nearby values measured no better): `turnPoints` (what Insulted bartender takes
 * from a player), `xMargin` (least gain to spend an X card), `future` and `keep` (weights of
 * the chart's future value and of hand management).
 */
import * as A from '../../env/index.ts';
import {
  BEER, DEFAULT_RULESET, DONT_WANT_IT, FLATTERY, RUM, SAME, SHOT_INTO_BEER, TEA, UTOPENEC, type PlayerView, type Ruleset,
} from '../../env/index.ts';
import type { AgentObservation, GameStart } from '../agent.ts';
import { decisionKind, handCounts, popcount, ScriptedAgent, threat, tokenMask, typeOf } from './common.ts';
import { numbers, tokenBonus, type Digestion, type Numbers } from './drink.ts';
import { afterAbstaining, afterRoll, futureTable, meanFuture, type FutureTable } from './future.ts';
import { averageDraw, keepTable, lastCopy, rankHand, shotKeep, type KeepTable } from './hand.ts';
import { cardsPerTurn, DEFAULT_CARDS_PER_TURN, turnsAfterNow } from './horizon.ts';
import { bestPlan, nextAction, turnInput, type Plan, type PubOption, type TurnInput } from './plan.ts';
import { reactionValue, responseValue, SHOT_CHOICE_DAMAGE } from './heuristic-others.ts';

export interface HeuristicOptions {
  [key: string]: number;
  /** Points a typical turn of another player is worth (what Insulted bartender takes). */
  turnPoints: number;
  /** Least value (points) an X card or Excuse me must gain to be spent. */
  xMargin: number;
  /** Weight of the chart's future value against this turn's points. */
  future: number;
  /** Weight of hand management (cards valued against a fresh draw). */
  keep: number;
}

export const HEURISTIC_DEFAULTS: HeuristicOptions = { turnPoints: 5.5, xMargin: 0.3, future: 1, keep: 1 };

/** Points per turn left that one more drunkenness on each later shot costs (about 0.6 shots a turn at 0.5 a point). */
const TOKEN_DRUNK_COST = 0.3;

export const HEURISTIC_KEEP: KeepTable = keepTable({
  beer: [2.2, 2.2, 2, 0.8],
  small_beer: [1.2, 0.3],
  rum: [3.5, 2.5, 1.2],
  fernet: [3.5, 2.5, 1.2],
  becherovka: [3.5, 2.5, 1.2],
  peppermint: [3.5, 2.5, 1.2],
  vodka: [3.5, 2.5, 1.2],
  tea: [1.5, 0.5],
  coffee: [1, 0.4],
  utopenec: [1.2, 0.4],
  same: [1.5, 0.5],
  flattery: [3, 2],
  shot_into_beer: [1.5, 0.4],
  lets_do_a_shot: [1.8, 1],
  shots_everyone: [1.8, 0.8],
  brawl: [0.3],
  dont_want_it: [1.2, 0.5],
  insulted_bartender: [2.8, 2],
  thats_my_order: [1.8, 1.2],
  excuse_me: [3, 2.2, 1.5],
  mixed_up: [3, 2],
  knocked_over: [3, 2.2, 1.5],
  warm_beer: [2.2, 1.5],
});

const NEW_SHOT = 0.6;

/** Per-decision context of the heuristic agent (what it reads once from the view). */
export interface HeuristicCtx {
  n: Numbers;
  v: PlayerView;
  keep: KeepTable;
  avgDraw: number;
  /** How much a card kept in hand still matters (0 when this seat has no turn left). */
  keepScale: number;
  hand: number[];
  opts: HeuristicOptions;
}

export class HeuristicAgent extends ScriptedAgent {
  readonly spec: string;
  private readonly n: Numbers;
  private readonly f: FutureTable;
  private readonly avgDraw: number;
  private readonly stay: Float64Array;
  private readonly paused: Float64Array;
  /** Cards drawn per player turn in this game, as last measured. */
  private perTurn = DEFAULT_CARDS_PER_TURN;
  private tMid = 0;

  constructor(spec = 'heuristic', private readonly o: HeuristicOptions = HEURISTIC_DEFAULTS, ruleset: Ruleset = DEFAULT_RULESET) {
    super();
    this.spec = spec;
    this.n = numbers(ruleset);
    this.f = futureTable(ruleset);
    this.avgDraw = averageDraw(HEURISTIC_KEEP, ruleset);
    this.stay = new Float64Array(this.f.places * this.f.abst);
    this.paused = new Float64Array(this.f.places * this.f.abst);
  }

  override reset(game: GameStart): void {
    super.reset(game);
    this.perTurn = DEFAULT_CARDS_PER_TURN;
  }

  act(obs: AgentObservation): number {
    const legal = obs.legalActions;
    if (legal.length === 1) return legal[0];
    const v = obs.view;
    const kind = decisionKind(legal);
    // X cards wait until the active player is done.
    if (kind === 'reaction' && !v.turnState.afterDone) return A.A_PASS;
    const r = this.n.ruleset;
    this.perTurn = cardsPerTurn(r, v, this.perTurn);
    const [lo, hi] = turnsAfterNow(r, v, this.perTurn);
    this.tMid = (lo + hi) / 2;
    const withTurns = hi <= 0 ? 0 : lo >= 1 ? 1 : (hi - Math.max(lo, 1) + 1) / (hi - lo + 1);
    const c: HeuristicCtx = {
      n: this.n, v, keep: HEURISTIC_KEEP, avgDraw: this.avgDraw, keepScale: withTurns * this.o.keep, hand: handCounts(v.hand), opts: this.o,
    };
    switch (kind) {
      case 'play':
        meanFuture(this.f, lo, hi, this.stay);
        meanFuture(this.f, lo - 1, hi - 1, this.paused);
        if (hi <= 0) this.stay.fill(0);
        if (hi <= 1) this.paused.fill(0);
        if (this.o.future !== 1) for (let i = 0; i < this.stay.length; i++) {
          this.stay[i] *= this.o.future;
          this.paused[i] *= this.o.future;
        }
        return this.play(c, legal);
      case 'discard':
        return this.discardNext(c);
      case 'reaction':
        return this.argmax(legal, (a) => (a === A.A_PASS ? this.o.xMargin : reactionValue(c, a)));
      default:
        return this.argmax(legal, (a) => responseValue(c, a));
    }
  }

  /** Cost of spending `k` cards of type `t` now: their keep value less the draws that replace them. */
  private spent(c: HeuristicCtx, t: number, k: number): number {
    let s = 0;
    for (let i = 0; i < k; i++) s += lastCopy(c.keep, c.hand, t) - c.avgDraw;
    return s * c.keepScale;
  }

  private planValue(c: HeuristicCtx, t: TurnInput) {
    const me = c.v.table[c.v.seat];
    const level = me.level - 1;
    const ab = this.n.ruleset.abstinence;
    const losses = ab.pointLoss;
    return (dig: Digestion, p: Plan): number => {
      let used = this.spent(c, TEA, p.tea) + this.spent(c, TEA + 1, p.coffee) + this.spent(c, UTOPENEC, p.utopenec)
        + this.spent(c, FLATTERY, p.flattery.length) + (p.sib ? this.spent(c, SHOT_INTO_BEER, 1) : 0);
      for (const s of p.shots) used += (shotKeep(c.keep, c.hand, RUM + s, t.tokens, NEW_SHOT) - c.avgDraw) * c.keepScale;
      used += p.beers * (lastCopy(c.keep, c.hand, BEER) - c.avgDraw) * c.keepScale;
      if (!dig.drinks) {
        const back = ab.moveBack + ab.moveBackPerNonAlcoholic * (t.front.nonAlcCount + p.tea + p.coffee + p.utopenec);
        const thrown = me.abstinence >= losses.length && !me.insulted;
        const loss = thrown ? 0 : losses[Math.min(me.abstinence, losses.length - 1)];
        return -loss + afterAbstaining(this.f, this.stay, level, me.space, me.abstinence, back, me.insulted) - used;
      }
      let bonus = tokenBonus(this.n.ruleset, dig.tokens) - tokenBonus(this.n.ruleset, t.tokens);
      if (dig.tokens !== t.tokens) {
        // More shot types make every later shot stronger.
        const sd = this.n.ruleset.shotDrunkenness;
        const k0 = popcount(t.tokens);
        bonus -= TOKEN_DRUNK_COST * (sd[popcount(dig.tokens) - 1] - sd[Math.max(0, k0 - 1)]) * this.tMid;
      }
      return dig.points + bonus + afterRoll(this.f, this.stay, this.paused, level, me.space, dig.drunk) - used;
    };
  }

  /** Pub cards worth playing with spare actions: the best target of each. */
  private pubOptions(c: HeuristicCtx, legal: readonly number[]): PubOption[] {
    const v = c.v;
    const best = new Map<number, PubOption>();
    for (const a of legal) {
      const d = A.decodeAction(a);
      const card = d.card;
      let effect = 0;
      const target = v.table[(v.seat + d.target) % v.players];
      const w = d.target > 0 ? threat(v, target.seat) : 0;
      const targetTurns = target.finalTurnTaken ? 0 : 1;
      switch (d.kind) {
        case 'insult':
          effect = w * this.o.turnPoints * targetTurns;
          break;
        case 'lets_do_a_shot':
          effect = w * SHOT_CHOICE_DAMAGE;
          break;
        case 'thats_my':
          effect = target.handSize > 0 ? 0.4 + w * 1.2 : 0;
          break;
        case 'shots_everyone': {
          for (const p of v.table) if (p.seat !== v.seat && p.out === null && !p.paused) effect += threat(v, p.seat) * SHOT_CHOICE_DAMAGE;
          break;
        }
        default:
          continue;
      }
      const value = effect - (lastCopy(c.keep, c.hand, card) - c.avgDraw) * c.keepScale;
      const prev = best.get(card);
      if (!prev || value > prev.value) best.set(card, { action: a, cost: this.n.cost[card], value, card });
    }
    return [...best.values()];
  }

  private play(c: HeuristicCtx, legal: readonly number[]): number {
    const v = c.v;
    const me = v.table[v.seat];
    const t = turnInput(this.n, v);
    const evaluate = this.planValue(c, t);
    const plan = bestPlan(this.n, t, evaluate, this.pubOptions(c, legal));
    let bestValue = plan.value;
    let choice = nextAction(plan, t, legal);

    // You don't want it anymore?: the plan with the top discard in hand.
    if (legal.includes(A.A_DONT_WANT) && v.discard.top) {
      const top = typeOf(v.discard.top);
      const t2: TurnInput = { ...t, hand: t.hand.slice(), actionsLeft: t.actionsLeft - this.n.cost[DONT_WANT_IT] };
      t2.hand[top]++;
      t2.hand[DONT_WANT_IT]--;
      const c2: HeuristicCtx = { ...c, hand: t2.hand };
      const p2 = bestPlan(this.n, t2, this.planValue(c2, t2));
      const swap = (lastCopy(c.keep, t2.hand, top) - lastCopy(c.keep, c.hand, DONT_WANT_IT)) * c.keepScale;
      if (p2.value + swap > bestValue + 0.2) {
        bestValue = p2.value + swap;
        choice = A.A_DONT_WANT;
      }
    }

    if (v.turnState.cardsPlayed === 0) {
      // I'll get the same: drink what a well-stocked player drinks, instead of this turn.
      const same = this.sameOption(c, legal, evaluate);
      if (same.value > bestValue) {
        bestValue = same.value;
        choice = same.action;
      }
      // Discarding the weakest cards: an abstinence, but a fresher hand.
      const ab = this.n.ruleset.abstinence;
      const last = me.abstinence >= ab.pointLoss.length && !me.insulted;
      if (!last && legal.includes(A.A_DONE)) {
        const junk = this.junk(c);
        if (junk.length > 0) {
          const gain = junk.reduce((s, x) => s + c.avgDraw - x.value, 0) * c.keepScale;
          const loss = ab.pointLoss[Math.min(me.abstinence, ab.pointLoss.length - 1)];
          const value = -loss + afterAbstaining(this.f, this.stay, me.level - 1, me.space, me.abstinence, ab.moveBack, me.insulted) + gain;
          const discard = A.encodeAction({ kind: 'discard', card: junk[0].t });
          if (value > bestValue + 0.2 && legal.includes(discard)) return discard;
        }
      }
    }
    return choice;
  }

  /** Best I'll get the same: at the other player likeliest to drink a lot (most cards in hand). */
  private sameOption(c: HeuristicCtx, legal: readonly number[], evaluate: (d: Digestion, p: Plan) => number): { action: number; value: number } {
    const v = c.v;
    let action = -1;
    let size = -1;
    for (const a of legal) {
      const d = A.decodeAction(a);
      if (d.kind !== 'same') continue;
      const p = v.table[(v.seat + d.target) % v.players];
      if (p.handSize > size) {
        size = p.handSize;
        action = a;
      }
    }
    if (action < 0) return { action, value: -Infinity };
    const me = v.table[v.seat];
    const r = this.n.ruleset;
    // A typical copied turn: two beers and a shot of a type already owned (or a first one).
    const beers = r.beerTable.regular[1];
    const k = Math.max(1, me.shotTokens.length);
    const copied: Digestion = {
      drinks: true,
      points: beers.points + r.shotPoints,
      drunk: beers.drunkenness + r.shotDrunkenness[k - 1],
      tokens: tokenMask(me),
    };
    const empty = { beers: 0, small: 0, shots: [], sib: false, flattery: [], tea: 0, coffee: 0, utopenec: 0, pubs: [], actions: 0, dig: copied, value: 0 };
    const value = 0.8 * evaluate(copied, empty) + 0.2 * evaluate({ ...copied, drinks: false }, empty);
    return { action, value: value - (lastCopy(c.keep, c.hand, SAME) - c.avgDraw) * c.keepScale };
  }

  /** Cards worth less than a fresh draw, least worth first. */
  private junk(c: HeuristicCtx): { t: number; value: number }[] {
    const me = c.v.table[c.v.seat];
    return rankHand(c.keep, c.hand, tokenMask(me), NEW_SHOT).filter((x) => x.value < c.avgDraw - 0.3);
  }

  private discardNext(c: HeuristicCtx): number {
    const junk = this.junk(c);
    return junk.length > 0 ? A.encodeAction({ kind: 'discard', card: junk[0].t }) : A.A_STOP_DISCARD;
  }
}
