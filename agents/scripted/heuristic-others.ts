/**
 * The heuristic agent in other players' turns: what each X card, Excuse me answer and shot
 * choice is worth, in points, to the viewer. Harm done to another player counts in
 * proportion to how much that player threatens to win (common.ts `threat`); a card spent
 * costs what it was worth in hand less the fresh card that will replace it.
 */
import {
  BRAWL, CARD_IDS, decodeAction, EXCUSE_ME, INSULTED_BARTENDER, LETS_DO_A_SHOT, SAME, SHOTS_EVERYONE, THATS_MY_ORDER, type FrontCardView,
  type PlayerPublicView, type PlayerView,
} from '../../env/index.ts';
import { threat, tokenMask, typeOf } from './common.ts';
import { digest, frontDrinks, risk, tokenBonus } from './drink.ts';
import { lastCopy, shotKeep } from './hand.ts';
import type { HeuristicCtx } from './heuristic.ts';

/** What another player's front is worth to them: points, new shot bonus, less the roll's expected cost. */
function frontWorth(c: HeuristicCtx, p: PlayerPublicView, front: readonly FrontCardView[]): number {
  const tokens = tokenMask(p);
  const dig = digest(c.n, frontDrinks(c.n, front), tokens);
  if (!dig.drinks) return -1;
  const r = risk(c.n, p.level - 1, p.space, dig.drunk);
  const bonus = tokenBonus(c.n.ruleset, dig.tokens) - tokenBonus(c.n.ruleset, tokens);
  return dig.points + bonus - 0.5 * (r.move + 4 * r.levelUp + 10 * r.wasted);
}

function withoutLast(front: readonly FrontCardView[], id: string, unpoured = false): FrontCardView[] | null {
  for (let i = front.length - 1; i >= 0; i--) {
    if (front[i].card === id && !(unpoured && front[i].poured)) return [...front.slice(0, i), ...front.slice(i + 1)];
  }
  return null;
}

/** Worth to the viewer of playing X card action `a` now (pass is scored by the caller). */
export function reactionValue(c: HeuristicCtx, a: number): number {
  const v = c.v;
  // Wait until the active player is done: the whole front is on the table then.
  if (!v.turnState.afterDone) return -Infinity;
  const active = v.table[v.turnState.active];
  const w = threat(v, active.seat);
  const before = frontWorth(c, active, active.front);
  const d = decodeAction(a);
  const cardCost = (t: number) => (lastCopy(c.keep, c.hand, t) - c.avgDraw) * c.keepScale;
  let after = before;
  let mine = 0;
  let replay = 1;
  switch (d.kind) {
    case 'knock': {
      const f = withoutLast(active.front, CARD_IDS[d.card]);
      if (!f) return -Infinity;
      after = frontWorth(c, active, f);
      mine = -cardCost(typeOf('knocked_over'));
      replay = 0.75;
      break;
    }
    case 'mixed': {
      const f = withoutLast(active.front, CARD_IDS[d.card]);
      if (!f) return -Infinity;
      f.push({ card: CARD_IDS[d.give], given: true });
      after = frontWorth(c, active, f);
      const hand = c.hand.slice();
      hand[d.give]--;
      mine = -cardCost(typeOf('mixed_up')) - lastCopy(c.keep, c.hand, d.give) * c.keepScale;
      hand[d.card]++;
      mine += lastCopy(c.keep, hand, d.card) * c.keepScale;
      replay = 0.8;
      break;
    }
    case 'warm': {
      const f = withoutLast(active.front, CARD_IDS[d.card]);
      if (!f) return -Infinity;
      after = frontWorth(c, active, f);
      mine = -cardCost(typeOf('warm_beer'));
      replay = 0.9;
      break;
    }
    case 'pour_front': {
      const f = active.front.slice();
      let i = f.length - 1;
      while (i >= 0 && !(f[i].card === CARD_IDS[d.card] && !f[i].poured)) i--;
      if (i < 0) return -Infinity;
      f[i] = { ...f[i], poured: true };
      after = frontWorth(c, active, f);
      mine = -cardCost(typeOf('shot_into_beer'));
      break;
    }
    case 'pour_hand': {
      const f = [...active.front, { card: CARD_IDS[d.card], poured: true, fromHand: true } as FrontCardView];
      after = frontWorth(c, active, f);
      mine = -cardCost(typeOf('shot_into_beer')) - (shotKeep(c.keep, c.hand, d.card, tokenMask(v.table[v.seat]), 0) - c.avgDraw) * c.keepScale;
      break;
    }
    default:
      return -Infinity;
  }
  return w * replay * (before - after) + mine;
}

/** The seat an Excuse me redirect would reach: the next player in the game that way, or -1. */
function neighbour(v: PlayerView, dir: 1 | -1): number {
  for (let k = 1; k < v.players; k++) {
    const seat = (v.seat + dir * k + v.players * k) % v.players;
    if (v.table[seat].out === null) return seat;
  }
  return -1;
}

/** Cost to the viewer of a shot-choice answer: points, the card given up, less a new token and a cleared abstinence. */
export function shotChoiceCost(c: HeuristicCtx, a: number): number {
  const me = c.v.table[c.v.seat];
  const tokens = tokenMask(me);
  const r = c.n.ruleset;
  const losses = r.abstinence.pointLoss;
  const clears = me.abstinence === 0 ? 0 : me.abstinence < losses.length ? losses[me.abstinence] : c.opts.turnPoints;
  const d = decodeAction(a);
  switch (d.kind) {
    case 'shot_discard': {
      const gain = tokenBonus(r, tokens | (1 << d.shot)) - tokenBonus(r, tokens);
      return (shotKeep(c.keep, c.hand, d.card, tokens, 0) - c.avgDraw) * c.keepScale - gain - clears;
    }
    case 'shot_beer':
      return r.shotChoice.beerLoss + (lastCopy(c.keep, c.hand, d.card) - c.avgDraw) * c.keepScale - clears;
    case 'shot_small':
      return r.shotChoice.smallBeerLoss + (lastCopy(c.keep, c.hand, d.card) - c.avgDraw) * c.keepScale - clears;
    case 'shot_nothing':
      return r.shotChoice.nothingLoss;
    default:
      return Infinity;
  }
}

/**
 * Points another player is taken to lose to Let's do a shot. (A model of their likely answer,
 * counting the token a new shot type gives them, played worse than this flat figure.)
 */
export const SHOT_CHOICE_DAMAGE = 2.5;

/** Harm to the viewer of accepting the pub card aimed at it (the shot choice is priced apart). */
function harmToMe(c: HeuristicCtx, card: number, by: number): number {
  const v = c.v;
  switch (card) {
    case INSULTED_BARTENDER:
      return c.keepScale > 0 ? c.opts.turnPoints * 1.1 : 0;
    case THATS_MY_ORDER:
      return 1.2 * c.keepScale + threat(v, by) * 0.5;
    case SAME:
      return threat(v, by) * c.opts.turnPoints;
    default:
      return 0;
  }
}

/** Harm a redirected card does to its new target (weighted by their threat). */
function harmToOther(c: HeuristicCtx, card: number, seat: number): number {
  const w = threat(c.v, seat);
  switch (card) {
    case INSULTED_BARTENDER:
      return c.v.table[seat].finalTurnTaken ? 0 : w * c.opts.turnPoints;
    case LETS_DO_A_SHOT:
      return w * SHOT_CHOICE_DAMAGE;
    case THATS_MY_ORDER:
      return w * 1.2;
    default:
      return 0;
  }
}

/** Worth to the viewer of a response (pass, Excuse me, a shot choice). */
export function responseValue(c: HeuristicCtx, a: number): number {
  const v = c.v;
  const card = typeOf(v.decision.card ?? '');
  const by = v.decision.playedBy ?? -1;
  const shotChoice = card === LETS_DO_A_SHOT || card === SHOTS_EVERYONE;
  const excuse = (lastCopy(c.keep, c.hand, EXCUSE_ME) - c.avgDraw) * c.keepScale + c.opts.xMargin;
  const d = decodeAction(a);
  switch (d.kind) {
    case 'pass':
      return card === BRAWL ? 0 : -harmToMe(c, card, by);
    case 'excuse_cancel':
      return -excuse;
    case 'excuse_left':
    case 'excuse_right': {
      const seat = neighbour(v, d.kind === 'excuse_left' ? 1 : -1);
      return -excuse + (seat >= 0 && card !== SAME ? harmToOther(c, card, seat) : 0) - 0.01;
    }
    default:
      return shotChoice ? -shotChoiceCost(c, a) : -Infinity;
  }
}
