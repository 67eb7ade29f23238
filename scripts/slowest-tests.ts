/**
 * Where the suite's time goes: runs vitest (all layers, or the ones named) with its JSON
 * reporter beside the usual one, then prints every test file's wall time, slowest first, with
 * its layer, and each layer's sum. A file's time is from its start to its end in its worker,
 * so it includes the processes and threads it waits on; layers run their files two at a time
 * on two cores, so the sums exceed the wall clock.
 *
 *   npx tsx scripts/slowest-tests.ts                    # the whole suite
 *   npx tsx scripts/slowest-tests.ts unit integration   # some layers
 *   npx tsx scripts/slowest-tests.ts --top 15 --from report.json   # a report already written
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { E2E, INTEGRATION } from '../vitest.config.ts';

// `slowest-tests ... | head` closes the pipe before the list ends: stop quietly, as `head` meant.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(0);
});

const { values, positionals } = parseArgs({
  options: { top: { type: 'string', default: '25' }, from: { type: 'string' } },
  allowPositionals: true,
  strict: true,
});
const top = Number(values.top);
if (!Number.isInteger(top) || top < 1) throw new Error(`--top wants a whole number of files, got '${values.top}'`);
const layers = ['unit', 'integration', 'e2e'];
for (const p of positionals) if (!layers.includes(p)) throw new Error(`'${p}' is not a layer: ${layers.join(', ')}`);

interface FileResult {
  name: string;
  startTime: number;
  endTime: number;
  status: string;
  assertionResults: { status: string }[];
}

let report = values.from;
let wall = NaN;
if (!report) {
  report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'slowest-tests-')), 'report.json');
  const projects = positionals.flatMap((p) => ['--project', p]);
  const started = performance.now();
  const run = spawnSync('npx', ['vitest', 'run', ...projects, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { stdio: 'inherit' });
  wall = (performance.now() - started) / 1000;
  if (!fs.existsSync(report)) throw new Error(`vitest wrote no report (exit ${run.status})`);
}
const files = (JSON.parse(fs.readFileSync(report, 'utf8')) as { testResults: FileResult[] }).testResults;

/** The checkout the report was made in (a fresh clone's, perhaps): the folder all its test files share. */
function commonFolder(names: readonly string[]): string {
  let parts = path.dirname(names[0] ?? process.cwd()).split(path.sep);
  for (const n of names) {
    const p = path.dirname(n).split(path.sep);
    let k = 0;
    while (k < parts.length && k < p.length && parts[k] === p[k]) k++;
    parts = parts.slice(0, k);
  }
  return parts.join(path.sep) || path.sep;
}
const root = commonFolder(files.map((f) => f.name));
const layerOf = (file: string): string => {
  if (file in INTEGRATION) return 'integration';
  return E2E.some((g) => file.endsWith(g.replace('**/*', ''))) ? 'e2e' : 'unit';
};
const rows = files
  .map((f) => {
    const file = path.relative(root, f.name);
    return { file, layer: layerOf(file), seconds: (f.endTime - f.startTime) / 1000, tests: f.assertionResults.length, failed: f.status !== 'passed' };
  })
  .sort((a, b) => b.seconds - a.seconds);

const sums = new Map<string, { seconds: number; files: number }>();
for (const r of rows) {
  const s = sums.get(r.layer) ?? { seconds: 0, files: 0 };
  s.seconds += r.seconds;
  s.files++;
  sums.set(r.layer, s);
}
console.log(`\n${'seconds'.padStart(8)}  ${'layer'.padEnd(11)}  tests  file`);
for (const r of rows.slice(0, top)) {
  console.log(`${r.seconds.toFixed(1).padStart(8)}  ${r.layer.padEnd(11)}  ${String(r.tests).padStart(5)}  ${r.file}${r.failed ? '  (failed)' : ''}`);
}
console.log(`\nper layer (file times summed; two files run at once):`);
for (const [layer, s] of sums) console.log(`  ${layer.padEnd(11)} ${s.files} files, ${s.seconds.toFixed(0)} s`);
if (Number.isFinite(wall)) console.log(`wall clock of the run: ${wall.toFixed(0)} s on ${os.availableParallelism()} cores`);
