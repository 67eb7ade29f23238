import { describe, expect, it } from 'vitest';
import type { Agent } from '../agents/agent.ts';
import type { CallGate } from '../agents/outside-calls.ts';
import { Catalogue } from './catalogue.ts';
import { parseConfig } from './config.ts';
import { faultText, OutsideCalls } from './outside-calls.ts';

const catalogue = new Catalogue(parseConfig({
  bots: {
    gpt: { agent: 'llm:m:baseUrl=http://127.0.0.1:9/v1', budget: { perGame: 50, perTournament: 7, perClientMinute: 5 } },
    relay: { agent: 'http:http://127.0.0.1:9/act', budget: { perClientMinute: 3 } },
  },
}));

/** A stand-in for an agent that calls out: it keeps the gate it is given. */
function seat(): Agent & { gate?: CallGate } {
  const a: Agent & { gate?: CallGate } = { spec: 'x', act: () => 0, useGate: (g) => void (a.gate = g) };
  return a;
}

describe("a server's outside calls", () => {
  it("shares one client's minute between its live games and its tournaments, and keeps clients apart", () => {
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
    const cell = job.gates[0]!.clientMinute!.cell as BigInt64Array;
    expect(Number(cell[0] & 0xffffffffn)).toBe(2);
    expect(g1.gate!.take()).toBeNull();
    expect(g2.gate!.take()).toBeNull();
    expect(g1.gate!.take()).toBeNull();
    expect(g2.gate!.take()).toEqual({ entry: 'gpt', scope: 'client-minute', limit: 5 });
    expect(other.gate!.take()).toBeNull();
    job.release();
  });

  it('drops a minute cell nobody holds once its minute is over, and keeps one a tournament holds', () => {
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
    expect(live('c').take()).toBeNull(); // a new cell: the sweep drops a's, keeps b's (held)
    expect(outside.size).toBe(2);
    expect([a.take(), a.take(), a.take(), a.take()].filter((r) => r === null)).toHaveLength(3); // a's new cell counts from 0
    expect(outside.size).toBe(3);
    clock.t = 120_000;
    job.release();
    expect(live('d').take()).toBeNull();
    expect(outside.size).toBe(1);
  });

  it("tells a client the entry and the kind of failure, in the bot's terms", () => {
    expect(faultText(catalogue.resolve('gpt').entry, { kind: 'authentication' })).toBe("bot 'gpt': the model server refused the request (authentication)");
    expect(faultText(catalogue.resolve('relay').entry, { kind: 'timeout' })).toBe("bot 'relay': the bot's server did not answer in time (timeout)");
    expect(faultText(catalogue.resolve('gpt').entry, { kind: 'budget', budget: { entry: 'gpt', scope: 'tournament', limit: 7 } })).toBe("bot 'gpt' reached its per-tournament budget of 7 calls");
  });
});
