import { describe, expect, it } from 'vitest';
import type { Agent } from '../agents/agent.ts';
import { windowCalls, type CallGate, type RateWindow } from '../agents/outside-calls.ts';
import { Catalogue } from './catalogue.ts';
import { parseConfig } from './config.ts';
import { clientNumber, faultText, OutsideCalls, outsideHost } from './outside-calls.ts';

const catalogue = new Catalogue(parseConfig({
  bots: {
    gpt: { agent: 'llm:m:baseUrl=http://127.0.0.1:9/v1', budget: { perGame: 50, perTournament: 7, perClientMinute: 5 } },
    relay: { agent: 'http:http://127.0.0.1:9/act', budget: { perClientMinute: 3 } },
    near: { agent: 'http:http://127.0.0.1:9/other:timeoutMs=500', budget: { perClientMinute: 100 } },
    far: { agent: 'http:http://[::1]:8080', budget: { perClientMinute: 100 } },
  },
}));

/** A stand-in for an agent that calls out: it keeps the gate it is given. */
function seat(): Agent & { gate?: CallGate } {
  const a: Agent & { gate?: CallGate } = { spec: 'x', act: () => 0, useGate: (g) => void (a.gate = g) };
  return a;
}

describe("a server's outside calls", () => {
  it("shares one client's minute of an entry between its live games and its tournaments, and keeps clients apart", () => {
    const clock = { t: 10 * 60_000 };
    const outside = new OutsideCalls(undefined, () => clock.t);
    const gpt = catalogue.resolve('gpt');
    const [g1, g2, other] = [seat(), seat(), seat()];
    outside.attach(g1, gpt.entry, 'a');
    outside.attach(g2, gpt.entry, 'a');
    outside.attach(other, gpt.entry, 'b');
    expect(g1.gate!.take()).toBeNull();
    expect(g2.gate!.take()).toBeNull();
    const job = outside.tournament([gpt, catalogue.resolve('random'), gpt], 'a');
    expect(job.gates[1]).toBeNull();
    // Both seats of one entry in a tournament share its count.
    expect(job.gates[0]!.tournament!.counts).toBe(job.gates[2]!.tournament!.counts);
    expect(windowCalls(job.gates[0]!.rates![0].window as RateWindow, clock.t).calls).toBe(2);
    expect(g1.gate!.take()).toBeNull();
    expect(g2.gate!.take()).toBeNull();
    expect(g1.gate!.take()).toBeNull();
    expect(g2.gate!.take()).toEqual({ entry: 'gpt', scope: 'client-minute', limit: 5 });
    expect(other.gate!.take()).toBeNull();
    job.release();
  });

  it('drops a client window nobody holds once its last call is a minute old, and keeps one a tournament holds', () => {
    const clock = { t: 0 };
    const outside = new OutsideCalls(undefined, () => clock.t);
    const relay = catalogue.resolve('relay');
    const live = (client: string) => {
      const a = seat();
      outside.attach(a, relay.entry, client);
      return a.gate!;
    };
    const a = live('a');
    expect(a.take()).toBeNull();
    const job = outside.tournament([relay, catalogue.resolve('random')], 'b');
    expect(outside.size).toBe(2);
    clock.t = 60_000;
    expect(live('c').take()).toBeNull(); // a new window: the sweep drops a's (its call is a minute old), keeps b's (held)
    expect(outside.size).toBe(2);
    expect([a.take(), a.take(), a.take(), a.take()].filter((r) => r === null)).toHaveLength(3); // a's new window holds none
    expect(outside.size).toBe(3);
    clock.t = 120_000;
    job.release();
    expect(live('d').take()).toBeNull();
    expect(outside.size).toBe(1);
  });

  it("shares one window per host among its entries and one among all hosts, each client held to its share", () => {
    const clock = { t: 0 };
    const outside = new OutsideCalls(undefined, () => clock.t, { outsideCallsPerMinute: 9, outsideCallsPerHostMinute: 6 });
    expect(['relay', 'near', 'far', 'gpt'].map((n) => outsideHost(catalogue.resolve(n).entry))).toEqual(['127.0.0.1:9', '127.0.0.1:9', '[::1]:8080', '127.0.0.1:9']);
    const gate = (entry: string, client: string) => {
      const a = seat();
      outside.attach(a, catalogue.resolve(entry).entry, client);
      return a.gate!;
    };
    const calls = (g: CallGate, n: number) => Array.from({ length: n }, () => g.take()).map((r) => r?.scope ?? 'ok');
    // Alone, a client may hold half of the host's 6: near's calls and relay's count together.
    expect(calls(gate('near', 'a'), 2)).toEqual(['ok', 'ok']);
    expect(calls(gate('relay', 'a'), 2)).toEqual(['ok', 'host-minute']);
    // Another client on that host: a third of 6 each, and a is past it.
    expect(calls(gate('near', 'b'), 3)).toEqual(['ok', 'ok', 'host-minute']);
    // The other host has room, the server's 9 a share for each of three: a holds 3 already.
    expect(calls(gate('far', 'a'), 1)).toEqual(['server-minute']);
    expect(calls(gate('far', 'c'), 3)).toEqual(['ok', 'ok', 'server-minute']);
    expect(gate('far', 'a').take()).toEqual({ entry: 'far', scope: 'server-minute', limit: 9 });
    expect(clientNumber('127.0.0.1')).not.toBe(clientNumber('127.0.0.2'));
  });

  it("tells a client the entry and the kind of failure, in the bot's terms", () => {
    expect(faultText(catalogue.resolve('gpt').entry, { kind: 'authentication' })).toBe("bot 'gpt': the model server refused the request (authentication)");
    expect(faultText(catalogue.resolve('relay').entry, { kind: 'timeout' })).toBe("bot 'relay': the bot's server did not answer in time (timeout)");
    expect(faultText(catalogue.resolve('gpt').entry, { kind: 'budget', budget: { entry: 'gpt', scope: 'tournament', limit: 7 } })).toBe("bot 'gpt' reached its per-tournament budget of 7 calls");
  });
});
