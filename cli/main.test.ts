import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bufferIo } from './io.ts';
import { main } from './main.ts';

async function run(...argv: string[]) {
  const io = bufferIo();
  const code = await main(argv, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

describe('czech-pub command line', () => {
  it('prints usage for --help, and for each command', async () => {
    const top = await run('--help');
    expect(top.code).toBe(0);
    expect(top.out).toMatch(/^Usage: czech-pub <command>/);
    expect(top.out).toContain('bench env');
    for (const argv of [['play', '--help'], ['bench', '--help'], ['bench', 'env', '--help'], ['play', '-h']]) {
      const r = await run(...argv);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.out).toMatch(new RegExp(`^Usage: czech-pub ${argv[0]}`));
    }
  });

  it('without a command prints usage to stderr and returns 2', async () => {
    const r = await run();
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^Usage:/);
  });

  it.each([
    [['frob'], "unknown command 'frob'"],
    [['toString'], "unknown command 'toString'"],
    [['--frob'], "unknown option '--frob'"],
    [['play', '--frob'], "unknown option '--frob'"],
    [['play', '--players', '9'], "--players must be a whole number from 2 to 6, got '9'"],
    [['play', '--players', '1'], "--players must be a whole number from 2 to 6, got '1'"],
    [['play', '--players', 'four'], "--players must be a whole number from 2 to 6, got 'four'"],
    [['play', '--players'], "option '--players <value>' argument missing"],
    [['play', '--seed', ''], '--seed must not be empty'],
    [['play', 'now'], "unexpected argument 'now'"],
    [['bench'], "try 'czech-pub bench env'"],
    [['bench', 'agents'], "unknown bench target 'agents'"],
    [['bench', 'env', '--seconds', '-1'], "--seconds must be a number greater than 0 and at most 3600, got '-1'"],
    [['bench', 'env', '--seconds', '0'], "got '0'"],
    [['bench', 'env', '--seconds=abc'], "got 'abc'"],
    [['bench', 'env', '--players', '7'], "--players must be a whole number from 2 to 6, got '7'"],
    [['bench', 'env', '--json=yes'], "option '--json' does not take an argument"],
    [['serve', '--config', '/nonexistent/server.json'], 'cannot read config /nonexistent/server.json: ENOENT'],
    [['serve', '--models', '/nonexistent/models'], 'cannot read the models folder /nonexistent/models: ENOENT'],
    [['serve', '--host', '999.1.1.1', '--port', '0'], '--host 999.1.1.1 is not an address of this machine'],
    [['tournament', '--agents', 'random,random', '--games', '2', '--out', 'package.json'], '--out package.json is a file, not a folder'],
    [['llm-bench', '--model', 'm', '--dry-run', '--out', 'package.json'], '--out package.json is a file, not a folder'],
  ])('%j is a usage error: %s', async (argv, message) => {
    const r = await run(...argv);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(message);
    expect(r.err).toContain('--help');
  });

  it('serve on a port in use is a usage error with a hint', async () => {
    const busy = net.createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as net.AddressInfo).port;
    const r = await run('serve', '--port', String(port));
    await new Promise<void>((done) => busy.close(() => done()));
    expect(r.code).toBe(2);
    expect(r.err).toContain(`port ${port} on 127.0.0.1 is in use: stop what holds it, or pick another with --port (0 picks a free one)`);
  });

  it('a train that would fail once started is a usage error, and leaves no run directory', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-train-'));
    for (const [argv, message] of [
      [['--opponents', 'foo'], "--opponents: unknown agent 'foo'"],
      [['--imitate', 'foo'], "--imitate: unknown agent 'foo'"],
      [['--eval-vs', 'random,nobody'], "--eval-vs: unknown agent 'nobody'"],
    ] as const) {
      const r = await run('train', '--steps', '10', '--out', out, ...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toContain(message);
    }
    expect(fs.readdirSync(out)).toEqual([]);
  });
});
