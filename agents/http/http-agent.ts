/**
 * `http:<url>`: asks a bot server elsewhere for each action, like Battlesnake's move endpoint:
 * POST <url> with { view, legalActions, game } (the body of this project's
 * POST /v1/bots/:spec/act, which encodes the view itself), answer { action }. `game` is an
 * opaque name for the seat's game (agents/seed.ts), so the bot can keep state per game; the
 * body holds nothing but the seat's view and choices (`httpBotBody`), never a seed. A timeout, an error status, an unreadable body
 * or an illegal action plays the fallback (the first legal action) and is counted, so a
 * flaky outside bot never stops a tournament. Only decisions with a real choice are sent. With
 * a gate (../outside-calls.ts: a server's budgets) each request is asked for first; a refused
 * one is not sent and stops the decision (BudgetSpentError).
 *
 *   http:http://127.0.0.1:8787/v1/bots/heuristic/act
 *   http:http://host/act:timeoutMs=500
 */
import type { Agent, AgentObservation, AgentUsage, GameStart } from '../agent.ts';
import { opaqueGameId } from '../seed.ts';
import { BudgetSpentError, type CallGate } from '../outside-calls.ts';
import { emptyUsage } from '../usage.ts';

export const HTTP_DEFAULTS = { timeoutMs: 2000 };

/** What an outside bot is sent for one decision: the seat's view, its legal actions and the opaque game name. */
export function httpBotBody(obs: AgentObservation, game: string): string {
  return JSON.stringify({ view: obs.view, legalActions: obs.legalActions, game });
}

export class HttpAgent implements Agent {
  private usage: AgentUsage = emptyUsage();
  private game = opaqueGameId('http');
  private gate: CallGate | null = null;

  constructor(readonly spec: string, private readonly url: string, private readonly timeoutMs: number) {}

  useGate(gate: CallGate): void {
    this.gate = gate;
  }

  reset(game: GameStart): void {
    this.gate?.newGame();
    this.game = opaqueGameId(game.seed);
  }

  async act(obs: AgentObservation): Promise<number> {
    const legal = obs.legalActions;
    if (legal.length === 1) return legal[0];
    const refused = this.gate?.take();
    if (refused) throw new BudgetSpentError(refused);
    const u = this.usage;
    u.decisions++;
    u.requests++;
    const t0 = performance.now();
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: httpBotBody(obs, this.game),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      u.latenciesMs.push(performance.now() - t0);
      const body = (await res.json()) as { action?: unknown };
      if (res.ok && typeof body.action === 'number' && legal.includes(body.action)) return body.action;
      u.invalidAnswers++;
    } catch {
      // Timeout, refused connection or a body that is not JSON: no retry, the fallback plays.
    }
    u.fallbacks++;
    return legal[0];
  }

  takeUsage(): AgentUsage {
    const u = this.usage;
    this.usage = emptyUsage();
    return u;
  }
}
