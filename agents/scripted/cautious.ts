/**
 * `cautious`: points weighed against the roll.
 *
 * Every set of orders it may play this turn is scored as points (and a new shot type's
 * bonus) less the expected cost of the roll: spaces moved, the chance of leaving the row
 * (a lost PAUSE turn, a higher level) and of being wasted, so it drinks less, or adds tea
 * and coffee, as the figure nears the end of a row. It avoids abstaining a third time (and
 * a second when it can), copying another player with I'll get the same when it has nothing
 * to drink; it discards the cards it has no use for when the hand is clogged with them. In
 * the shot choice it gives up a spare shot card (taking its token) before losing points, and
 * it spends Excuse me on the pub cards that hurt it. It plays no other X card.
 *
 * Options (all in points): `move` per space moved, `pause` for leaving a row, `wasted`.
 */
import * as A from '../../env/index.ts';
import {
  EXCUSE_ME, FLATTERY, INSULTED_BARTENDER, LETS_DO_A_SHOT, RUM, SHOTS_EVERYONE, TEA, THATS_MY_ORDER, UTOPENEC, type PlayerView,
} from '../../env/index.ts';
import type { AgentObservation } from '../agent.ts';
import { decisionKind, handCounts, ScriptedAgent, tokenMask, typeOf } from './common.ts';
import { numbers, risk, tokenBonus, type Digestion } from './drink.ts';
import { averageDraw, keepTable, lastCopy, rankHand, shotKeep, type KeepTable } from './hand.ts';
import { bestPlan, nextAction, turnInput, type Plan, type TurnInput } from './plan.ts';

export interface CautiousOptions {
  [key: string]: number;
  move: number;
  pause: number;
  wasted: number;
}

export const CAUTIOUS_DEFAULTS: CautiousOptions = { move: 1, pause: 5, wasted: 20 };

const KEEP: KeepTable = keepTable({
  beer: [2, 2, 2, 0.8],
  small_beer: [1, 0.3],
  rum: [3.5, 2.5, 1.2],
  fernet: [3.5, 2.5, 1.2],
  becherovka: [3.5, 2.5, 1.2],
  peppermint: [3.5, 2.5, 1.2],
  vodka: [3.5, 2.5, 1.2],
  tea: [1.5, 0.5],
  coffee: [1, 0.4],
  utopenec: [1.2, 0.4],
  flattery: [3, 2],
  shot_into_beer: [1.2, 0.3],
  same: [1, 0.3],
  excuse_me: [2, 1],
});

/** Token bonus a new shot type in hand is worth on top of the card. */
const NEW_SHOT = 0.5;

export class CautiousAgent extends ScriptedAgent {
  readonly spec: string;
  private readonly n = numbers();
  private readonly avgDraw: number;

  constructor(spec = 'cautious', private readonly o: CautiousOptions = CAUTIOUS_DEFAULTS) {
    super();
    this.spec = spec;
    this.avgDraw = averageDraw(KEEP, this.n.ruleset);
  }

  act(obs: AgentObservation): number {
    const legal = obs.legalActions;
    if (legal.length === 1) return legal[0];
    switch (decisionKind(legal)) {
      case 'play':
        return this.play(obs.view, legal);
      case 'discard':
        return this.discard(obs.view);
      case 'response':
        return this.respond(obs.view, legal);
      default:
        return A.A_PASS;
    }
  }

  /** Expected cost of rolling with `drunk` from the seat's figure. */
  private rollCost(v: PlayerView, drunk: number): number {
    const me = v.table[v.seat];
    const r = risk(this.n, me.level - 1, me.space, drunk);
    return this.o.move * r.move + this.o.pause * r.levelUp + this.o.wasted * r.wasted;
  }

  /** Value of an abstinence now, moving back `back` spaces. */
  private abstain(v: PlayerView, back: number): number {
    const me = v.table[v.seat];
    const losses = this.n.ruleset.abstinence.pointLoss;
    const penalty = me.abstinence < losses.length ? losses[me.abstinence] : me.insulted ? losses[losses.length - 1] : this.o.wasted * 2;
    return -penalty + this.o.move * Math.min(me.space, back);
  }

  private planValue(v: PlayerView, t: TurnInput) {
    const ab = this.n.ruleset.abstinence;
    return (dig: Digestion, p: Plan): number => {
      const cards = t.hand;
      const spent = (type: number, k: number) => k * (lastCopy(KEEP, cards, type) - this.avgDraw);
      let used = spent(TEA, p.tea) + spent(TEA + 1, p.coffee) + spent(UTOPENEC, p.utopenec) + spent(FLATTERY, p.flattery.length);
      for (const s of p.shots) used += shotKeep(KEEP, cards, RUM + s, t.tokens, NEW_SHOT) - this.avgDraw;
      if (!dig.drinks) {
        return this.abstain(v, ab.moveBack + ab.moveBackPerNonAlcoholic * (t.front.nonAlcCount + p.tea + p.coffee + p.utopenec)) - used;
      }
      const bonus = tokenBonus(this.n.ruleset, dig.tokens) - tokenBonus(this.n.ruleset, t.tokens);
      return dig.points + bonus - this.rollCost(v, dig.drunk) - used;
    };
  }

  private play(v: PlayerView, legal: readonly number[]): number {
    const t = turnInput(this.n, v);
    const plan = bestPlan(this.n, t, this.planValue(v, t));
    const me = v.table[v.seat];
    if (v.turnState.cardsPlayed === 0 && !plan.dig.drinks && !t.front.shots && !t.front.beers) {
      // Nothing worth drinking: copy someone rather than abstain, or clear the clogged hand.
      const same = this.bestSame(v, legal);
      if (same >= 0 && (me.abstinence > 0 || plan.value < 0)) return same;
      const junk = this.junk(v);
      const last = me.abstinence >= this.n.ruleset.abstinence.pointLoss.length && !me.insulted;
      const discard = junk.length > 0 ? A.encodeAction({ kind: 'discard', card: junk[0].t }) : -1;
      if (!last && legal.includes(discard)) {
        const gain = junk.reduce((s, c) => s + this.avgDraw - c.value, 0);
        if (this.abstain(v, this.n.ruleset.abstinence.moveBack) + gain > plan.value) return discard;
      }
    }
    return nextAction(plan, t, legal);
  }

  /** I'll get the same at the player holding the most cards, or -1. */
  private bestSame(v: PlayerView, legal: readonly number[]): number {
    let best = -1;
    let size = -1;
    for (const a of legal) {
      const d = A.decodeAction(a);
      if (d.kind !== 'same') continue;
      const p = v.table[(v.seat + d.target) % v.players];
      if (p.handSize > size) {
        size = p.handSize;
        best = a;
      }
    }
    return best;
  }

  /** Cards worth less than a fresh draw, least worth first. */
  private junk(v: PlayerView): { t: number; value: number }[] {
    const me = v.table[v.seat];
    return rankHand(KEEP, handCounts(v.hand), tokenMask(me), NEW_SHOT).filter((c) => c.value < this.avgDraw - 0.25);
  }

  private discard(v: PlayerView): number {
    const junk = this.junk(v);
    return junk.length > 0 ? A.encodeAction({ kind: 'discard', card: junk[0].t }) : A.A_STOP_DISCARD;
  }

  /** Cost of each shot-choice answer: points lost, the card given up, less a new token and a cleared abstinence. */
  shotChoiceCost(v: PlayerView, a: number): number {
    const me = v.table[v.seat];
    const hand = handCounts(v.hand);
    const tokens = tokenMask(me);
    const sc = this.n.ruleset.shotChoice;
    const clears = me.abstinence > 0 ? this.n.ruleset.abstinence.pointLoss[me.abstinence] ?? 0 : 0;
    const d = A.decodeAction(a);
    switch (d.kind) {
      case 'shot_discard': {
        const gain = tokenBonus(this.n.ruleset, tokens | (1 << d.shot)) - tokenBonus(this.n.ruleset, tokens);
        return shotKeep(KEEP, hand, d.card, tokens, 0) - gain - clears;
      }
      case 'shot_beer':
        return sc.beerLoss + lastCopy(KEEP, hand, d.card) - clears;
      case 'shot_small':
        return sc.smallBeerLoss + lastCopy(KEEP, hand, d.card) - clears;
      case 'shot_nothing':
        return sc.nothingLoss;
      default:
        return Infinity;
    }
  }

  private respond(v: PlayerView, legal: readonly number[]): number {
    const card = typeOf(v.decision.card ?? '');
    const hand = handCounts(v.hand);
    const shotChoice = card === LETS_DO_A_SHOT || card === SHOTS_EVERYONE;
    const choice = shotChoice ? this.argmax(legal.filter((a) => A.decodeAction(a).group === 'shot_choice'), (a) => -this.shotChoiceCost(v, a)) : A.A_PASS;
    if (!legal.includes(A.A_EXCUSE_CANCEL)) return choice;
    let harm = 0;
    if (shotChoice) harm = this.shotChoiceCost(v, choice);
    else if (card === INSULTED_BARTENDER) harm = 6;
    else if (card === THATS_MY_ORDER) harm = 2.5;
    return harm > lastCopy(KEEP, hand, EXCUSE_ME) ? A.A_EXCUSE_CANCEL : choice;
  }
}
