/**
 * The suite on a busy machine: runs test layers while CPU-bound processes (one per core by
 * default) spin beside them, as a browser and a package install would on a laptop, some rounds
 * in a row; stops at the first failing run. No test's outcome may depend on the machine's speed
 * (a test controls its clock or counts work instead), so every round must pass.
 *
 *   npx tsx scripts/test-under-load.ts                          # unit and integration, 3 rounds, a burner per core
 *   npx tsx scripts/test-under-load.ts --rounds 1 --layers unit --burners 4
 *
 * The burners are child processes of this script, killed when it ends (also on Ctrl-C).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    layers: { type: 'string', default: 'unit,integration' },
    burners: { type: 'string', default: String(os.availableParallelism()) },
  },
  strict: true,
});
const whole = (name: string, raw: string, min: number): number => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} wants a whole number ≥ ${min}, got '${raw}'`);
  return n;
};
const rounds = whole('rounds', values.rounds, 1);
const burners = whole('burners', values.burners, 0);
const layers = values.layers.split(',');
for (const l of layers) if (!['unit', 'integration', 'e2e'].includes(l)) throw new Error(`'${l}' is not a layer: unit, integration, e2e`);

const spinning: ChildProcess[] = [];
const stop = () => {
  for (const b of spinning) b.kill('SIGKILL');
};
process.on('exit', stop);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stop();
    process.exit(130);
  });
}
for (let i = 0; i < burners; i++) spinning.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
console.log(`${burners} CPU-bound processes spinning beside the tests (${os.availableParallelism()} cores)`);

const results: string[] = [];
let failed = false;
for (let round = 1; round <= rounds && !failed; round++) {
  for (const layer of layers) {
    const started = performance.now();
    const run = spawnSync('npx', ['vitest', 'run', '--project', layer], { stdio: 'inherit' });
    const line = `round ${round}, ${layer}: ${run.status === 0 ? 'passed' : `FAILED (exit ${run.status ?? run.signal})`} in ${((performance.now() - started) / 1000).toFixed(0)} s`;
    results.push(line);
    console.log(line);
    if (run.status !== 0) {
      failed = true;
      break;
    }
  }
}
stop();
console.log(`\n${results.join('\n')}`);
process.exitCode = failed ? 1 : 0;
