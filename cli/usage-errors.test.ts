/**
 * Every known bad usage, through `main(argv, io)`: exit code 2, nothing on stdout, exactly one
 * line on stderr naming the problem (with the hint to --help on that same line). A train
 * that fails this way leaves no run directory behind.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RULESET } from '../env/ruleset.ts';
import { customRuleset, writeRulesetFile } from '../test/helpers/custom-ruleset.ts';
import { bufferIo } from './io.ts';
import { main } from './main.ts';

async function run(argv: string[]) {
  const io = bufferIo();
  const code = await main(argv, io);
  return { code, stdout: io.stdout, stderr: io.stderr };
}

function expectUsageError(r: Awaited<ReturnType<typeof run>>, phrase: string | RegExp, what: string) {
  expect(r.code, what).toBe(2);
  expect(r.stdout, what).toEqual([]);
  expect(r.stderr, what).toHaveLength(1);
  expect(r.stderr[0], what).not.toContain('\n');
  if (typeof phrase === 'string') expect(r.stderr[0], what).toContain(phrase);
  else expect(r.stderr[0], what).toMatch(phrase);
  expect(r.stderr[0], what).toMatch(/\(see 'czech-pub( [a-z-]+)* --help'\)$/);
}

const custom = writeRulesetFile();
const fourMax = writeRulesetFile(JSON.stringify({ ...DEFAULT_RULESET, name: 'four-max', players: { min: 2, max: 4 } }));
const notJson = writeRulesetFile('{ "version": 1, ', 'broken.json');
const badField = writeRulesetFile(JSON.stringify({ ...customRuleset(), cards: { ...customRuleset().cards, beer: { count: -3, cost: 0 } } }), 'bad.json');

// [argv, phrase naming the problem]
const CASES: [string[], string | RegExp][] = [
  // commands and options
  [['frob'], "unknown command 'frob'"],
  [['toString'], "unknown command 'toString'"],
  [['--frob'], "unknown option '--frob'"],
  [['play', '--frob'], "unknown option '--frob'"],
  [['play', 'now'], "unexpected argument 'now'"],
  [['play', '--players'], "option '--players <value>' argument missing"],
  [['play', '--seed', ''], '--seed must not be empty'],
  [['bench'], "missing what to measure: try 'czech-pub bench env'"],
  [['bench', 'agents'], "unknown bench target 'agents' (known: env, policy, train, queue, bridge, api)"],
  [['bench', 'bridge', '--python', '/nonexistent/python3'], "--python: '/nonexistent/python3' cannot import numpy"],
  [['bench', 'bridge', '--num-envs', '0'], '--num-envs'],
  [['bridge', '--players', '4'], "unknown option '--players'"],
  [['bench', 'env', '--json=yes'], "option '--json' does not take an argument"],
  // bad and out-of-range numbers
  [['play', '--players', '9'], "--players must be a whole number from 2 to 6, got '9'"],
  [['play', '--players', 'four'], "--players must be a whole number from 2 to 6, got 'four'"],
  [['play', '--players', '2.5'], "--players must be a whole number from 2 to 6, got '2.5'"],
  [['bench', 'env', '--seconds', '-1'], "--seconds must be a number greater than 0 and at most 3600, got '-1'"],
  [['bench', 'env', '--seconds', '0'], "got '0'"],
  [['bench', 'env', '--seconds=abc'], "got 'abc'"],
  [['bench', 'env', '--players', '7'], '--players must be a whole number from 2 to 6'],
  [['bench', 'api', '--seconds', '0'], '--seconds must be a whole number from 1 to 3600'],
  [['bench', 'api', '--connections', 'many'], "--connections must be a whole number from 1 to 10000, got 'many'"],
  [['bench', 'train', '--iterations', '1'], '--iterations must be a whole number from 2 to 100'],
  [['serve', '--port', '70000'], '--port must be a whole number from 0 to 65535'],
  [['tournament', '--agents', 'random,random', '--games', '0'], '--games must be a whole number from 1 to 10000000'],
  // player counts come from the ruleset in use
  [['play', '--players', '5', '--ruleset', fourMax], "--players must be a whole number from 2 to 4, got '5'"],
  [['tournament', '--agents', 'random,random,random,random,random', '--ruleset', fourMax, '--workers', '0'], 'players must be from 2 to 4, got 5'],
  // the --ruleset file
  [['play', '--ruleset', '/nonexistent/rules.json'], '--ruleset /nonexistent/rules.json: cannot read it (ENOENT)'],
  [['tournament', '--agents', 'random,random', '--ruleset', notJson], `--ruleset ${notJson} is not JSON`],
  [['serve', '--ruleset', badField], 'cards.beer.count'],
  [['llm-bench', '--model', 'm', '--dry-run', '--ruleset', os.tmpdir()], 'cannot read it'],
  // conflicting options
  [['tournament', '--agents', 'random,random', '--parallel', '2', '--workers', '1'], '--parallel plays in this thread; drop --workers'],
  // agents
  [['tournament'], '--agents is required'],
  [['ladder', '--players', '2,7', '--workers', '0'], 'table size 7: sizes go from 2 to 6'],
  [['ladder', '--players', 'two'], "--players must be table sizes like 2,4,6, got 'two'"],
  [['ladder', '--agents', 'random,random', '--players', '2'], 'each agent once: a ladder seats different agents at a table'],
  [['ladder', '--agents', 'random,heuristic', '--players', '4'], 'table size 4 needs at least 4 agents, got 2'],
  [['ladder', '--agents', 'clairvoyant,random', '--players', '2'], "'clairvoyant' is a measurement reference that sees hidden cards: it has no place on a ladder"],
  [['tournament', '--agents', 'random,random', '--queue', 'http://127.0.0.1:6379'], "--queue must be a redis:// or rediss:// URL, got 'http:"],
  [['tournament', '--agents', 'random,random', '--queue', 'not a url'], "--queue must be a redis:// URL, got 'not a url'"],
  [['tournament', '--agents', 'random,random', '--queue', 'redis://127.0.0.1:6379/99'], "--queue: database '99' is not a number from 0 to 15"],
  [['tournament', '--agents', 'random,random', '--batch', '4'], '--batch sizes queued jobs: give --queue too'],
  [['worker'], '--queue is required'],
  [['bench', 'queue', '--queue', 'tcp://x'], '--queue must be a redis:// or rediss:// URL'],
  [['worker', '--queue', 'ftp://x'], '--queue must be a redis:// or rediss:// URL'],
  [['worker', '--queue', 'redis://127.0.0.1:6379', '--lock-ms', '10'], '--lock-ms must be a whole number from 1000 to 600000'],
  [['tournament', '--agents', 'random,,random'], "--agents has an empty entry: 'random,,random'"],
  [['tournament', '--agents', 'random,nobody'], "unknown agent 'nobody'; known agents: random"],
  [['tournament', '--agents', 'random,random', '--players', '3'], '2 agents for 3 players'],
  [['tournament', '--agents', 'ppo,random', '--ruleset', custom, '--workers', '0'], /agent 'ppo' was trained under ruleset fingerprint [0-9a-f]{8}, not this ruleset's [0-9a-f]{8} \(short-pub\)/],
  [['llm-bench', '--opponents', 'foo', '--dry-run', '--model', 'm'], "unknown agent 'foo'"],
  [['llm-bench', '--model', 'm', '--dry-run', '--stand-in', 'nobody'], "unknown agent 'nobody'"],
  [['llm-bench', '--model', 'm', '--dry-run', '--opponents', 'ppo', '--ruleset', custom], "agent 'ppo' was trained under ruleset fingerprint"],
  [['llm-bench', '--model', 'm,m', '--dry-run'], "--model: a model is named twice in 'm,m'"],
  [['llm-bench', '--model', 'a,b,c', '--players', '2', '--dry-run'], '--model: 3 models for 2 seats'],
  [['llm-bench', '--dry-run'], '--model is required'],
  // files and folders
  [['tournament', '--agents', 'random,random', '--games', '2', '--out', 'package.json'], '--out package.json is a file, not a folder'],
  [['llm-bench', '--model', 'm', '--dry-run', '--out', 'package.json'], '--out package.json is a file, not a folder'],
  [['llm-bench', '--model', 'm', '--dry-run', '--prices', '/nonexistent/prices.json'], '--prices /nonexistent/prices.json: no such file'],
  [['serve', '--config', '/nonexistent/server.json'], '--config /nonexistent/server.json: no such file'],
  [['serve', '--models', '/nonexistent/models', '--port', '0'], 'cannot read the models folder /nonexistent/models: ENOENT'],
  // the server's address
  [['serve', '--host', '999.1.1.1', '--port', '0', '--no-state'], '--host 999.1.1.1 is not an address of this machine'],
  [['serve', '--state-dir', '/tmp/czech-pub-never', '--no-state'], '--state-dir and --no-state: give one of them'],
  // a backend this machine lacks (@tensorflow/tfjs-node is not installed here)
  [['bench', 'train', '--backend', 'node', '--iterations', '2'], '--backend: '],
  [['bench', 'train', '--backend', 'gpu'], "--backend must be one of auto, node, wasm, cpu, got 'gpu'"],
];

// Train cases are given a fresh --out folder (unless resuming), which must stay empty.
const TRAIN_CASES: [string[], string | RegExp][] = [
  [['--opponents', 'foo'], "--opponents: unknown agent 'foo'"],
  [['--opponents', '0*self'], "--opponents: opponent pool: weight of 'self' must be > 0"],
  [['--imitate', 'foo'], "--imitate: unknown agent 'foo'"],
  [['--eval-opponents', 'random,nobody'], "--eval-opponents: unknown agent 'nobody'"],
  [['--eval-vs', 'random,nobody'], "--eval-opponents: unknown agent 'nobody'"],
  [['--backend', 'node'], '--backend: '],
  [['--backend', 'gpu'], "--backend must be one of auto, node, wasm, cpu, got 'gpu'"],
  [['--total-steps', '10', '--minutes', '1'], '--total-steps and --minutes cannot be given together'],
  [['--steps', '10', '--minutes', '1'], '--total-steps and --minutes cannot be given together'],
  [['--steps', '10', '--total-steps', '10'], '--steps is --total-steps; give it once'],
  [['--envs', '0'], "--num-envs must be a whole number from 1 to 4096, got '0'"],
  [['--rollout-steps', '10'], "--rollout-steps must be a whole number from 64 to 1000000, got '10'"],
  [['--gamma', '1.5'], "--gamma must be a number from 0 to 1, got '1.5'"],
  [['--eval-opponents', 'random,,heuristic'], "--eval-opponents has an empty entry: 'random,,heuristic'"],
  [['--players', '7'], '--players must be a whole number from 2 to 6'],
  [['--players', '6', '--ruleset', custom], "--players must be a whole number from 2 to 5, got '6'"],
  [['--lr', '0'], "--lr must be a number greater than 0 and at most 1, got '0'"],
  [['--ent-coef', '-0.1'], "--ent-coef must be a number from 0 to 1, got '-0.1'"],
  [['--reward', 'money'], "--reward must be one of win, rank, score, got 'money'"],
  [['--hidden', '256,x'], "--hidden must be comma-separated whole numbers from 1 to 4096, got '256,x'"],
  [['--seed', 'one'], "--seed must be a whole number from 0 to 2147483647, got 'one'"],
  [['--ruleset', badField], 'Invalid ruleset: cards.beer.count'],
  [['--opponents', '2*self,ppo', '--ruleset', custom], "--opponents: agent 'ppo' was trained under ruleset fingerprint"],
  [['--resume', '/nonexistent/run'], '/nonexistent/run is not a training run directory (no options.json)'],
  [['--init', '/nonexistent/model.json'], '--init: cannot read checkpoint /nonexistent/model.json'],
  [['--init', 'models/ppo-4p.json', '--imitate', 'heuristic'], '--init starts from that checkpoint’s net; drop --imitate'],
  [['--init', 'models/ppo-4p.json', '--ruleset', custom], /--init: checkpoint models\/ppo-4p.json was made with a different environment: ruleset fingerprint/],
  [['--resume', '/nonexistent/run', '--seed', '3'], '--resume continues a run with its own options; drop --seed'],
  [['--resume', '/nonexistent/run', '--gamma', '0.9'], '--resume continues a run with its own options; drop --gamma'],
  [['--resume', '/nonexistent/run', '--ruleset', custom], '--resume continues a run with its own options; drop --ruleset'],
];

describe('usage errors: exit 2 and one line naming the problem', () => {
  it.each(CASES)('%j', async (argv, phrase) => {
    expectUsageError(await run(argv), phrase, argv.join(' '));
  });

  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-usage-train-'));
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  it.each(TRAIN_CASES)('train %j, and no run directory is made', async (argv, phrase) => {
    const budget = argv.includes('--steps') || argv.includes('--total-steps') ? [] : ['--total-steps', '10'];
    const full = ['train', ...budget, ...(argv.includes('--resume') ? [] : ['--out', out]), ...argv];
    expectUsageError(await run(full), phrase, full.join(' '));
    expect(fs.readdirSync(out)).toEqual([]);
  });

  describe('serve on a port in use', () => {
    const busy = net.createServer();
    let port = 0;
    beforeAll(async () => {
      await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
      port = (busy.address() as net.AddressInfo).port;
    });
    afterAll(() => new Promise<void>((r) => busy.close(() => r())));

    it('hints at --port', async () => {
      expectUsageError(await run(['serve', '--port', String(port), '--no-state']), `port ${port} on 127.0.0.1 is in use: stop what holds it, or pick another with --port (0 picks a free one)`, 'busy port');
    });
  });
});
