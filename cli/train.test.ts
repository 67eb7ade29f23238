import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bufferIo } from './io.ts';
import { main } from './main.ts';
import { camel } from './options.ts';
import { TRAIN_DEFAULTS, TRAIN_OPTIONS } from '../training/options.ts';

async function run(...argv: string[]) {
  const io = bufferIo();
  const code = await main(argv, io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

describe('czech-pub train', () => {
  it('prints its usage, and bench train its own', async () => {
    const r = await run('train', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: czech-pub train/);
    expect(r.out).toContain('--resume DIR');
    const b = await run('bench', 'train', '--help');
    expect(b.code).toBe(0);
    expect(b.out).toMatch(/^Usage: czech-pub bench train/);
  });

  it('trains for a few steps from the command line and says where the run is', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-train-'));
    const r = await run('train', '--total-steps', '300', '--num-envs', '4', '--rollout-steps', '256', '--hidden', '8', '--eval-deals', '1', '--eval-opponents', 'random', '--out', out, '--seed', '5');
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/backend: (node|wasm|cpu)/);
    const dir = r.out.match(/Run directory: (.*)/)?.[1];
    expect(dir && fs.existsSync(path.join(dir, 'model.json'))).toBe(true);
    // options.json holds every declared option under its one name, as given.
    const options = JSON.parse(fs.readFileSync(path.join(dir!, 'options.json'), 'utf8')).options;
    expect(Object.keys(options).sort()).toEqual(Object.keys(TRAIN_OPTIONS).map(camel).sort());
    expect(options).toMatchObject({ seed: 5, totalSteps: 300, numEnvs: 4, rolloutSteps: 256, hidden: [8], evalDeals: 1, evalOpponents: ['random'], opponents: TRAIN_DEFAULTS.opponents });
    const steps = JSON.parse(fs.readFileSync(path.join(dir!, 'model.json'), 'utf8')).steps as number;
    const metrics = fs.readFileSync(path.join(dir!, 'metrics.jsonl'), 'utf8');

    // Resuming to a total the run has already reached does nothing, and says so in one line (exit 2).
    for (const budget of [['--steps', String(steps)], ['--steps', '100'], []]) {
      const again = await run('train', '--resume', dir!, ...budget);
      expect(again.code, budget.join(' ')).toBe(2);
      expect(again.err.split('\n')).toHaveLength(1);
      expect(again.err).toContain(`is already at ${steps} learner decisions`);
      expect(again.err).toContain(`nothing to train; give a larger total with --total-steps (more than ${steps}) or --minutes`);
    }
    expect(fs.readFileSync(path.join(dir!, 'metrics.jsonl'), 'utf8')).toBe(metrics);
  });

  it("resumes a run whose options.json has the older names, given with the older flags", async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-train-old-'));
    const r = await run('train', '--steps', '300', '--envs', '4', '--rollout', '256', '--hidden', '8', '--eval-deals', '1', '--eval-vs', 'random', '--out', out, '--seed', '6');
    expect(r.code).toBe(0);
    const dir = r.out.match(/Run directory: (.*)/)![1];
    // Rewrite options.json as runs wrote it before the options were declared once.
    const file = path.join(dir, 'options.json');
    const j = JSON.parse(fs.readFileSync(file, 'utf8'));
    const { opponents, constantLr, evalOpponents, ruleset, ...rest } = j.options;
    j.options = { ...rest, pool: '3*self,random', annealLr: !constantLr, advice: '', evalOpponents: evalOpponents.join(',') };
    fs.writeFileSync(file, JSON.stringify(j));
    const steps = JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8')).steps as number;

    const again = await run('train', '--resume', dir, '--steps', String(steps + 256));
    expect(again.code, again.err).toBe(0);
    expect(again.err).toContain(`resuming ${dir}`);
    const now = JSON.parse(fs.readFileSync(file, 'utf8')).options;
    expect(now).toMatchObject({ opponents: '3*self,random', constantLr: false, advice: 'none', evalOpponents: ['random'], numEnvs: 4, totalSteps: steps + 256 });
    expect(now).not.toHaveProperty('pool');
  });
});
