/**
 * Planning one's own turn as a whole: every set of orders the hand, the actions left and the
 * per-turn limits allow (beers, a small beer, shots with or without Shot into a beer,
 * Flattery as a new or an owned shot type, non-alcoholic orders) is scored by the caller's
 * evaluator, together with the best use of the actions it leaves for pub cards (a small
 * knapsack). The agent then plays the plan's first card and plans again at its next decision.
 */
import * as A from '../../env/index.ts';
import {
  BEER, FLATTERY, isShot, ORDER_TYPES, RUM, SHOT_INTO_BEER, SHOT_TYPES, SMALL_BEER, TEA, UTOPENEC, type PlayerView,
} from '../../env/index.ts';
import { handCounts, popcount, tokenMask, typeOf } from './common.ts';
import { digest, frontDrinks, type Digestion, type Drinks, type Numbers } from './drink.ts';

/** What the active player may still do this turn. */
export interface TurnInput {
  hand: number[];
  actionsLeft: number;
  beerSlots: number;
  smallSlots: number;
  shotSlots: number;
  blockedBeer: number;
  blockedSmall: number;
  insulted: boolean;
  /** Drinks already in front, and whether an own shot order lies there (Shot into a beer needs one). */
  front: Drinks;
  ownShotInFront: boolean;
  tokens: number;
}

export function turnInput(n: Numbers, v: PlayerView): TurnInput {
  const me = v.table[v.seat];
  const ts = v.turnState;
  const lim = n.ruleset.limits;
  let ownShot = false;
  for (const c of me.front) {
    const t = typeOf(c.card);
    if (t < ORDER_TYPES && isShot(t) && !c.fromHand && !c.given) ownShot = true;
  }
  return {
    hand: handCounts(v.hand),
    actionsLeft: ts.actionsLeft,
    beerSlots: Math.max(0, lim.beers - ts.beers),
    smallSlots: Math.max(0, lim.smallBeers - ts.smallBeers),
    shotSlots: Math.max(0, ts.shotLimit - ts.shots),
    blockedBeer: ts.blocked.beer,
    blockedSmall: ts.blocked.small_beer,
    insulted: me.insulted,
    front: frontDrinks(n, me.front),
    ownShotInFront: ownShot,
    tokens: tokenMask(me),
  };
}

/** A set of cards to play this turn. */
export interface Plan {
  beers: number;
  small: number;
  /** Shot orders from hand, as shot indices. */
  shots: number[];
  sib: boolean;
  /** Flattery, as the shot indices chosen. */
  flattery: number[];
  tea: number;
  coffee: number;
  utopenec: number;
  /** Pub card actions chosen for the actions left over (in play order). */
  pubs: number[];
  actions: number;
  dig: Digestion;
  value: number;
}

/** A pub card the agent may play with spare actions, and what it is worth. */
export interface PubOption {
  action: number;
  cost: number;
  value: number;
  /** Type of the card it uses (two options using the same card are not both taken). */
  card: number;
}

export type PlanValue = (dig: Digestion, plan: Plan) => number;

const shotLeft = [0, 0, 0, 0, 0];

/** Takes up to `k` shots of one kind: types not owned and not yet taken (one each), or the others (every copy). */
function takeShots(k: number, owned: number, wantNew: boolean, out: number[]): void {
  for (let i = 0; i < SHOT_TYPES && out.length < k; i++) {
    if (shotLeft[i] === 0) continue;
    const isNew = !(owned & (1 << i)) && !out.includes(i);
    if (isNew !== wantNew) continue;
    const many = wantNew ? 1 : shotLeft[i];
    for (let c = 0; c < many && out.length < k; c++) {
      out.push(i);
      shotLeft[i]--;
    }
  }
}

/** Picks `k` shot cards from the hand: new token types first, or owned types first. */
function pickShots(hand: number[], k: number, owned: number, newFirst: boolean, out: number[]): boolean {
  out.length = 0;
  for (let i = 0; i < SHOT_TYPES; i++) shotLeft[i] = hand[RUM + i];
  takeShots(k, owned, newFirst, out);
  takeShots(k, owned, !newFirst, out);
  // Copies of new types picked above, and anything still missing.
  for (let i = 0; i < SHOT_TYPES && out.length < k; i++) {
    while (shotLeft[i] > 0 && out.length < k) {
      out.push(i);
      shotLeft[i]--;
    }
  }
  return out.length === k;
}

function sameShots(a: number[], b: number[]): boolean {
  if (a.length !== b.length) return false;
  const x = a.slice().sort();
  const y = b.slice().sort();
  return x.every((v, i) => v === y[i]);
}

/** Best subset of pub options for each budget 0..max (values and chosen actions). */
function pubKnapsack(options: readonly PubOption[], max: number): { value: number[]; pick: number[][] } {
  const value = new Array<number>(max + 1).fill(0);
  const pick: number[][] = Array.from({ length: max + 1 }, () => []);
  const m = Math.min(options.length, 10);
  for (let mask = 1; mask < 1 << m; mask++) {
    let cost = 0;
    let v = 0;
    let cards = 0;
    let ok = true;
    for (let i = 0; i < m && ok; i++) {
      if (!(mask & (1 << i))) continue;
      const o = options[i];
      if (cards & (1 << o.card)) ok = false;
      cards |= 1 << o.card;
      cost += o.cost;
      v += o.value;
    }
    if (!ok || cost > max) continue;
    for (let b = cost; b <= max; b++) {
      if (v > value[b] + 1e-9) {
        value[b] = v;
        pick[b] = [];
        for (let i = 0; i < m; i++) if (mask & (1 << i)) pick[b].push(options[i].action);
      }
    }
  }
  return { value, pick };
}

/**
 * The best plan for the rest of the turn under `evaluate`, with pub options for the actions
 * it leaves over. Pub options must each use a distinct card type held in hand.
 */
export function bestPlan(n: Numbers, t: TurnInput, evaluate: PlanValue, pubs: readonly PubOption[] = []): Plan {
  const cost = n.cost;
  const h = t.hand;
  const knap = pubKnapsack(pubs.filter((p) => p.value > 0), t.actionsLeft);
  const dr: Drinks = { ...t.front };
  const plan: Plan = {
    beers: 0, small: 0, shots: [], sib: false, flattery: [], tea: 0, coffee: 0, utopenec: 0, pubs: [], actions: 0,
    dig: digest(n, dr, t.tokens), value: -Infinity,
  };
  let best: Plan = { ...plan };
  const shotBuf: number[] = [];
  let firstPick: number[] = [];
  const maxB = t.insulted ? 0 : Math.min(t.beerSlots, h[BEER] - t.blockedBeer);
  const shotCards = h[RUM] + h[RUM + 1] + h[RUM + 2] + h[RUM + 3] + h[RUM + 4];
  for (let nb = 0; nb <= maxB; nb++) {
    const maxS = t.insulted ? 0 : Math.min(t.smallSlots, h[SMALL_BEER] - t.blockedSmall, t.beerSlots - nb);
    for (let ns = 0; ns <= maxS; ns++) {
      const a1 = nb * cost[BEER] + ns * cost[SMALL_BEER];
      if (a1 > t.actionsLeft) continue;
      const beerAfter = t.front.beers + nb + ns;
      const sibMax = !t.insulted && h[SHOT_INTO_BEER] > 0 && beerAfter > 0 ? 1 : 0;
      for (let sib = 0; sib <= sibMax; sib++) {
        const slots = t.insulted ? 0 : t.shotSlots + sib;
        for (let k = 0; k <= Math.min(slots, shotCards); k++) {
          // Shot into a beer only for the shot beyond the limit, after an own shot is in front.
          if (sib && (k !== slots || !(t.ownShotInFront || k >= 2))) continue;
          const variants = k === 0 ? 1 : 2;
          for (let variant = 0; variant < variants; variant++) {
            if (!pickShots(h, k, t.tokens, variant === 0, shotBuf)) continue;
            if (variant === 1 && sameShots(shotBuf, firstPick)) continue;
            if (variant === 0) firstPick = shotBuf.slice();
            let a2 = a1 + sib * cost[SHOT_INTO_BEER];
            for (const s of shotBuf) a2 += cost[RUM + s];
            if (a2 > t.actionsLeft) continue;
            let shotMask = 0;
            for (const s of shotBuf) shotMask |= 1 << s;
            const ownedAfterShots = t.tokens | shotMask;
            for (let f = 0; f <= h[FLATTERY]; f++) {
              const a3 = a2 + f * cost[FLATTERY];
              if (a3 > t.actionsLeft) break;
              for (let fNew = 0; fNew <= f; fNew++) {
                if (fNew > SHOT_TYPES - popcount(ownedAfterShots)) break;
                // With no type owned yet, the first Flattery names a new one.
                if (f > 0 && fNew === 0 && ownedAfterShots === 0) continue;
                const flat: number[] = [];
                let m = ownedAfterShots;
                for (let i = 0; i < SHOT_TYPES && flat.length < fNew; i++) if (!(m & (1 << i))) {
                  flat.push(i);
                  m |= 1 << i;
                }
                const anyOwned = m === 0 ? 0 : 31 - Math.clz32(m & -m);
                while (flat.length < f) flat.push(anyOwned);
                for (let tea = 0; tea <= (t.insulted ? 0 : h[TEA]); tea++) {
                  const a4 = a3 + tea * cost[TEA];
                  if (a4 > t.actionsLeft) break;
                  for (let cof = 0; cof <= (t.insulted ? 0 : h[TEA + 1]); cof++) {
                    const a5 = a4 + cof * cost[TEA + 1];
                    if (a5 > t.actionsLeft) break;
                    for (let ut = 0; ut <= (t.insulted ? 0 : h[UTOPENEC]); ut++) {
                      const a6 = a5 + ut * cost[UTOPENEC];
                      if (a6 > t.actionsLeft) break;
                      dr.beers = beerAfter;
                      dr.small = t.front.small || ns > 0;
                      dr.shots = t.front.shots + k + f;
                      let mask = t.front.shotMask | shotMask;
                      for (const s of flat) mask |= 1 << s;
                      dr.shotMask = mask;
                      dr.scoring = t.front.scoring + k + f;
                      dr.nonAlc = t.front.nonAlc + tea * n.nonAlc[TEA] + cof * n.nonAlc[TEA + 1] + ut * n.nonAlc[UTOPENEC];
                      dr.nonAlcCount = t.front.nonAlcCount + tea + cof + ut;
                      plan.beers = nb;
                      plan.small = ns;
                      plan.shots = shotBuf;
                      plan.sib = sib === 1;
                      plan.flattery = flat;
                      plan.tea = tea;
                      plan.coffee = cof;
                      plan.utopenec = ut;
                      plan.actions = a6;
                      plan.dig = digest(n, dr, t.tokens);
                      const left = t.actionsLeft - a6;
                      const v = evaluate(plan.dig, plan) + knap.value[left];
                      if (v > best.value + 1e-9) {
                        best = { ...plan, shots: shotBuf.slice(), flattery: flat.slice(), pubs: knap.pick[left], value: v };
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return best;
}

/** The next card of a plan to play (pub cards first, then beers, shots, Flattery, soft drinks), or done. */
export function nextAction(plan: Plan, t: TurnInput, legal: readonly number[]): number {
  const drink = (card: number): number => A.encodeAction({ kind: 'order', card });
  const order: number[] = [...plan.pubs];
  for (let i = 0; i < plan.beers; i++) order.push(drink(BEER));
  for (let i = 0; i < plan.small; i++) order.push(drink(SMALL_BEER));
  if (plan.shots.length > 0) {
    if (t.shotSlots > 0) order.push(drink(RUM + plan.shots[0]));
    if (plan.sib) order.push(A.A_SIB);
    for (let i = t.shotSlots > 0 ? 1 : 0; i < plan.shots.length; i++) order.push(drink(RUM + plan.shots[i]));
  }
  for (const shot of plan.flattery) order.push(A.encodeAction({ kind: 'flattery', shot }));
  for (let i = 0; i < plan.tea; i++) order.push(drink(TEA));
  for (let i = 0; i < plan.coffee; i++) order.push(drink(TEA + 1));
  for (let i = 0; i < plan.utopenec; i++) order.push(drink(UTOPENEC));
  for (const a of order) if (legal.includes(a)) return a;
  return A.A_DONE;
}
