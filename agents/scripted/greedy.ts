/**
 * `greedy`: the most points this turn, nothing else.
 *
 * In its own turn it plays the set of orders worth the most points within the limits and
 * its actions: beers, a shot (two with Shot into a beer), Flattery. It ignores the roll,
 * levels and being wasted, plays no other pub card, and passes in every reaction window.
 * When it can score nothing this turn it throws away the cards that never score for it
 * (that costs it nothing this turn) and draws new ones. Aimed at, it accepts the effect, and
 * when asked to do a shot it pays the fewest points: a shot card from hand, else a beer, a
 * small beer, or the points.
 */
import * as A from '../../env/index.ts';
import { BEER, FLATTERY, RUM, SHOT_INTO_BEER, SMALL_BEER } from '../../env/index.ts';
import type { AgentObservation } from '../agent.ts';
import { decisionKind, ScriptedAgent } from './common.ts';
import { numbers, type Numbers } from './drink.ts';
import { bestPlan, nextAction, turnInput } from './plan.ts';

/** Immediate points a shot-choice response costs. */
export function shotChoiceLoss(n: Numbers, a: number): number {
  const sc = n.ruleset.shotChoice;
  const k = A.decodeAction(a).kind;
  if (k === 'shot_discard') return 0;
  if (k === 'shot_beer') return sc.beerLoss;
  if (k === 'shot_small') return sc.smallBeerLoss;
  if (k === 'shot_nothing') return sc.nothingLoss;
  return Infinity;
}

/** Cards that never score for greedy: everything but beers, shots, Flattery and Shot into a beer. */
const SCORING = new Set([BEER, SMALL_BEER, RUM, RUM + 1, RUM + 2, RUM + 3, RUM + 4, FLATTERY, SHOT_INTO_BEER]);

export class GreedyAgent extends ScriptedAgent {
  readonly spec = 'greedy';
  private readonly n = numbers();

  /** A legal discard of a card that never scores, or -1. */
  private useless(legal: readonly number[]): number {
    for (const a of legal) {
      const d = A.decodeAction(a);
      if (d.kind === 'discard' && !SCORING.has(d.card)) return a;
    }
    return -1;
  }

  act(obs: AgentObservation): number {
    const legal = obs.legalActions;
    if (legal.length === 1) return legal[0];
    switch (decisionKind(legal)) {
      case 'play': {
        const v = obs.view;
        const t = turnInput(this.n, v);
        // Points first; among equal points, fewer cards spent.
        const plan = bestPlan(this.n, t, (dig, p) => dig.points - 0.01 * p.actions - 0.001 * (p.beers + p.small));
        if (plan.dig.points <= 0 && v.turnState.cardsPlayed === 0) {
          const junk = this.useless(legal);
          if (junk >= 0) return junk;
        }
        return nextAction(plan, t, legal);
      }
      case 'discard': {
        const junk = this.useless(legal);
        return junk >= 0 ? junk : A.A_STOP_DISCARD;
      }
      case 'response':
        if (legal.includes(A.A_PASS)) return A.A_PASS;
        return this.argmax(legal, (a) => -shotChoiceLoss(this.n, a));
      default:
        return legal.includes(A.A_PASS) ? A.A_PASS : legal[0];
    }
  }
}
