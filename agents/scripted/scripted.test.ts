import { describe, expect, it } from 'vitest';
import { actionKey } from '../../env/actions.ts';
import { CzechPubEnv } from '../../env/env.ts';
import { DEFAULT_RULESET } from '../../env/ruleset.ts';
import { playGame } from '../../eval/game.ts';
import { placeFigure, scenario, setHand, tokens, type Game } from '../../test/helpers/scenario.ts';
import type { Agent } from '../agent.ts';
import { EnvObservation } from '../observation.ts';
import { createAgent } from '../default-registry.ts';
import './index.ts';

const SCRIPTED = ['greedy', 'cautious', 'heuristic'];
const POOL = ['random', ...SCRIPTED];

/** An env in the scenario's state (fromJSON takes an edited state as given). */
function envOf(g: Game): CzechPubEnv {
  const config = {
    seed: 1, players: g.s.players, ruleset: DEFAULT_RULESET, reward: 'win' as const, askForced: false, maxDecisions: 5000, log: true,
  };
  return CzechPubEnv.fromJSON({ config, state: g.s, actions: [] });
}

/** Plays the current turn out with an agent per seat; returns the action keys each seat chose. */
function playTurnOut(env: CzechPubEnv, agents: Agent[]): string[][] {
  agents.forEach((a, seat) => a.reset?.({ seat, players: agents.length, seed: 'test' }));
  const chosen: string[][] = agents.map(() => []);
  const turn = env.state.turn;
  while (!env.done && env.state.turn === turn) {
    const seat = env.actor;
    const a = agents[seat].act(new EnvObservation(env, seat)) as number;
    chosen[seat].push(actionKey(a));
    env.step(a);
  }
  return chosen;
}

/** An agent that passes whenever it may, and is otherwise done or takes the first legal action. */
const passive: Agent = {
  spec: 'passive',
  act: (obs) => (obs.legalActions.includes(64) ? 64 : obs.legalActions.includes(39) ? 39 : obs.legalActions[0]),
};

describe('scripted agents', () => {
  it('only ever choose legal actions, at 2 to 6 players against mixed opponents', async () => {
    for (const name of SCRIPTED) {
      for (let players = 2; players <= 6; players++) {
        for (let k = 0; k < 50; k++) {
          const specs = Array.from({ length: players }, (_, seat) => (seat === k % players ? name : POOL[(k + seat) % POOL.length]));
          // playGame throws IllegalAgentActionError on an illegal choice.
          const g = await playGame(specs.map(createAgent), { seed: `legal/${name}/${players}/${k}`, log: false });
          expect(g.truncated).toBe(false);
        }
      }
    }
  }, 300_000); // 1,000 games: seconds on a quiet machine, a minute and more on a busy one

  it('play the same game from the same seed', async () => {
    const specs = ['heuristic', 'cautious', 'greedy', 'random'];
    const a = await playGame(specs.map(createAgent), { seed: 'same/1' });
    const b = await playGame(specs.map(createAgent), { seed: 'same/1' });
    expect(b).toEqual(a);
  });

  it('take options through the spec string and reject unknown ones', () => {
    expect(createAgent('cautious:pause=8').spec).toBe('cautious:pause=8');
    expect(createAgent('heuristic:turnPoints=6').spec).toBe('heuristic:turnPoints=6');
    expect(() => createAgent('greedy:x=1')).toThrow("unknown option 'x'");
  });
});

describe('greedy', () => {
  it('plays its 3 beers and a shot', () => {
    const g = scenario();
    setHand(g, 0, ['beer', 'beer', 'beer', 'rum', 'tea', 'brawl', 'excuse_me']);
    const env = envOf(g);
    const [mine] = playTurnOut(env, [createAgent('greedy'), passive, passive]);
    expect(mine.filter((k) => k === 'play:beer')).toHaveLength(3);
    expect(mine).toContain('play:rum');
    expect(env.state.points[0]).toBe(11);
  });
});

describe('cautious', () => {
  it('drinks tea with its beers when a failed roll on the last level would waste it', () => {
    const g = scenario();
    placeFigure(g, 0, 4, 2);
    setHand(g, 0, ['beer', 'beer', 'beer', 'tea']);
    const env = envOf(g);
    const [mine] = playTurnOut(env, [createAgent('cautious'), passive, passive]);
    expect(mine).toContain('play:tea');
    // Greedy, for contrast, drinks all three beers and no tea.
    const env2 = envOf(g);
    const [greedy] = playTurnOut(env2, [createAgent('greedy'), passive, passive]);
    expect(greedy).not.toContain('play:tea');
  });

  it('discards a spare shot, taking its token, rather than lose points to Let\'s do a shot', () => {
    const g = scenario();
    setHand(g, 0, ['lets_do_a_shot', 'beer']);
    setHand(g, 1, ['rum', 'vodka', 'beer', 'beer']);
    g.s.tokens[1] = tokens('rum');
    const env = envOf(g);
    env.step(21); // Let's do a shot at the left neighbour
    const a = createAgent('cautious');
    a.reset?.({ seat: 1, players: 3, seed: 't' });
    expect(actionKey(a.act(new EnvObservation(env, 1)) as number)).toBe('shot_choice:vodka');
  });
});

describe('heuristic', () => {
  it("answers That's my order with Excuse me", () => {
    const g = scenario();
    setHand(g, 0, ['thats_my_order', 'beer']);
    setHand(g, 1, ['excuse_me', 'rum', 'beer', 'beer', 'flattery']);
    const env = envOf(g);
    env.step(34); // That's my order at the left neighbour
    const a = createAgent('heuristic');
    a.reset?.({ seat: 1, players: 3, seed: 't' });
    expect(actionKey(a.act(new EnvObservation(env, 1)) as number)).toMatch(/^excuse_me:/);
  });

  it("knocks over the leader's shot once the leader is done", () => {
    const g = scenario();
    g.s.points[0] = 40;
    setHand(g, 0, ['beer', 'beer', 'rum']);
    setHand(g, 1, ['knocked_over', 'beer']);
    const env = envOf(g);
    const chosen = playTurnOut(env, [passiveDrinker(), createAgent('heuristic'), passive]);
    expect(chosen[1]).toContain('x:knocked_over:rum');
    expect(env.state.points[0]).toBe(40 + 3);
  });

  it('pours the leader\'s own shot into their beer with Shot into a beer: no points, the drunkenness stays', () => {
    const g = scenario();
    g.s.points[0] = 40;
    setHand(g, 0, ['beer', 'beer', 'rum']);
    setHand(g, 1, ['shot_into_beer', 'beer']);
    const env = envOf(g);
    const chosen = playTurnOut(env, [passiveDrinker(), createAgent('heuristic'), passive]);
    expect(chosen[1]).toContain('x:shot_into_beer:front:rum');
    expect(env.state.points[0]).toBe(40 + 3);
  });

  it('gives tea for the leader\'s shot with Mixed-up', () => {
    const g = scenario();
    g.s.points[0] = 40;
    setHand(g, 0, ['beer', 'beer', 'rum']);
    setHand(g, 1, ['mixed_up', 'tea']);
    const env = envOf(g);
    const chosen = playTurnOut(env, [passiveDrinker(), createAgent('heuristic'), passive]);
    expect(chosen[1]).toContain('x:mixed_up:rum>tea');
  });

  it('drinks everything in its last turn, even where the roll will waste it', () => {
    const g = scenario();
    placeFigure(g, 0, 4, 3);
    setHand(g, 0, ['beer', 'beer', 'beer', 'vodka']);
    g.s.closing.where = 2; // CLOSING TIME drawn: this is the last turn
    g.s.closing.drawnBy = 2;
    g.s.finalDone = 0b110;
    const env = envOf(g);
    const [mine] = playTurnOut(env, [createAgent('heuristic'), passive, passive]);
    expect(mine.filter((k) => k === 'play:beer')).toHaveLength(3);
    expect(mine).toContain('play:vodka');
    // Far from the end, on the same space, it drinks far less.
    const g2 = scenario();
    placeFigure(g2, 0, 4, 3);
    setHand(g2, 0, ['beer', 'beer', 'beer', 'vodka']);
    const [early] = playTurnOut(envOf(g2), [createAgent('heuristic'), passive, passive]);
    expect(early.filter((k) => k.startsWith('play:')).length).toBeLessThan(4);
  });
});

/** Seat 0 of the targeted scenarios: plays its beers and its rum, then is done; passes otherwise. */
function passiveDrinker(): Agent {
  return {
    spec: 'drinker',
    act: (obs) => {
      for (const a of [0, 2, 39, 64]) if (obs.legalActions.includes(a)) return a;
      return obs.legalActions[0];
    },
  };
}
