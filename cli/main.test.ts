import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACTION_SPACE_VERSION, NUM_ACTIONS } from '../env/actions.ts';
import { OBS_SIZE, OBSERVATION_VERSION } from '../env/observation/encode.ts';
import { DEFAULT_RULESET, RULESET_SCHEMA_VERSION } from '../env/ruleset.ts';
import { ENGINE_VERSION, rulesetFingerprint } from '../env/spec.ts';
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

  it('--version prints the package version and the env versions, read from their modules', async () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    for (const flag of ['--version', '-V']) {
      const r = await run(flag);
      expect(r.code).toBe(0);
      expect(r.out.split('\n')[0]).toBe(`czech-pub-gym ${pkg.version}`);
      expect(r.out).toContain(`engine ${ENGINE_VERSION}, action space ${ACTION_SPACE_VERSION} (${NUM_ACTIONS} actions), observation ${OBSERVATION_VERSION} (${OBS_SIZE} floats), ruleset schema ${RULESET_SCHEMA_VERSION}`);
      expect(r.out).toContain(`default ruleset ${DEFAULT_RULESET.name} (fingerprint ${rulesetFingerprint(DEFAULT_RULESET)})`);
    }
  });

  it('every command help is made from its declaration: options with ranges and defaults', async () => {
    const r = await run('bench', 'api', '--help');
    expect(r.out).toMatch(/--seconds T +seconds per part \(1-3600; default 10\)/);
    const t = await run('train', '--help');
    expect(t.out).toMatch(/--players N +players per training game \(2-6 by the ruleset; default 4\)/);
    expect(t.out).toMatch(/--ruleset RULES +train under this ruleset: micro, standard, or a JSON file/);
  });
});
