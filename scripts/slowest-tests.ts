/**
 * Where the suite's time goes: runs vitest (all layers, or the ones named) with its JSON
 * reporter beside the usual one, then prints every test file's wall time, with its layer, and
 * each layer's sum. A file's time is from its start to its end in its worker, so it includes
 * the processes and threads it waits on; files run side by side (vitest.config.ts says how
 * many), so the sums exceed the wall clock.
 *
 * Wall time misleads where the machine is the limit: a file that waits on a fake server shows
 * long and costs little, and a file run beside a browser test shows longer than alone. So
 * while vitest runs, the machine's busy CPU time is read from /proc/stat each second (Linux),
 * written beside the report (report.json.cpu), and each second's share goes to the files
 * running in it, in equal parts: a file's CPU-seconds, its own processes' and threads'
 * included, and the list is sorted by them. Run it on a quiet machine: the seconds are the
 * whole machine's.
 *
 *   npx tsx scripts/slowest-tests.ts                    # the whole suite
 *   npx tsx scripts/slowest-tests.ts unit integration   # some layers
 *   npx tsx scripts/slowest-tests.ts --top 15 --from report.json   # a report already written (its .cpu beside it, if any)
 */
import { spawn } from 'node:child_process';
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

/** A reading of /proc/stat: when (epoch ms), and the machine's busy CPU time so far (seconds, every core). */
type Sample = [at: number, busy: number];

/** The machine's busy CPU time (user, nice, system, irq, softirq), or null where there is no /proc/stat. */
function busyNow(): Sample | null {
  try {
    const [, user, nice, system, , , irq, softirq] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    return [Date.now(), (user + nice + system + irq + softirq) / 100];
  } catch {
    return null;
  }
}

let report = values.from;
let wall = NaN;
if (!report) {
  report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'slowest-tests-')), 'report.json');
  const projects = positionals.flatMap((p) => ['--project', p]);
  const started = performance.now();
  const readings: Sample[] = [];
  const sample = () => {
    const s = busyNow();
    if (s) readings.push(s);
  };
  sample();
  const timer = setInterval(sample, 1000);
  const child = spawn('npx', ['vitest', 'run', ...projects, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { stdio: 'inherit' });
  const status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(timer);
  sample();
  wall = (performance.now() - started) / 1000;
  if (!fs.existsSync(report)) throw new Error(`vitest wrote no report (exit ${status})`);
  if (readings.length > 1) fs.writeFileSync(`${report}.cpu`, readings.map((x) => x.join(' ')).join('\n') + '\n');
}
const files = (JSON.parse(fs.readFileSync(report, 'utf8')) as { testResults: FileResult[] }).testResults;
const samples: Sample[] = fs.existsSync(`${report}.cpu`)
  ? fs.readFileSync(`${report}.cpu`, 'utf8').trim().split('\n').map((l) => l.split(' ').map(Number) as Sample)
  : [];

/**
 * Each file's CPU-seconds: every interval between readings shared equally among the files
 * running at its middle; null without readings. Also the seconds no file was running in.
 */
function cpuOf(results: readonly FileResult[]): { perFile: (number | null)[]; outside: number } {
  const perFile: (number | null)[] = results.map(() => (samples.length > 1 ? 0 : null));
  let outside = 0;
  for (let i = 1; i < samples.length; i++) {
    const [t0, b0] = samples[i - 1];
    const [t1, b1] = samples[i];
    const mid = (t0 + t1) / 2;
    const running = results.flatMap((f, k) => (f.startTime <= mid && mid <= f.endTime ? [k] : []));
    if (running.length === 0) outside += b1 - b0;
    for (const k of running) perFile[k]! += (b1 - b0) / running.length;
  }
  return { perFile, outside };
}
const cpu = cpuOf(files);

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
  .map((f, k) => {
    const file = path.relative(root, f.name);
    return { file, layer: layerOf(file), seconds: (f.endTime - f.startTime) / 1000, cpu: cpu.perFile[k], tests: f.assertionResults.length, failed: f.status !== 'passed' };
  })
  .sort((a, b) => (b.cpu ?? b.seconds) - (a.cpu ?? a.seconds));

const withCpu = samples.length > 1;
const sums = new Map<string, { seconds: number; cpu: number; files: number }>();
for (const r of rows) {
  const s = sums.get(r.layer) ?? { seconds: 0, cpu: 0, files: 0 };
  s.seconds += r.seconds;
  s.cpu += r.cpu ?? 0;
  s.files++;
  sums.set(r.layer, s);
}
const cpuColumn = (x: number | null) => (withCpu ? `${(x ?? 0).toFixed(1).padStart(8)}  ` : '');
console.log(`\n${withCpu ? `${'cpu-s'.padStart(8)}  ` : ''}${'seconds'.padStart(8)}  ${'layer'.padEnd(11)}  tests  file`);
for (const r of rows.slice(0, top)) {
  console.log(`${cpuColumn(r.cpu)}${r.seconds.toFixed(1).padStart(8)}  ${r.layer.padEnd(11)}  ${String(r.tests).padStart(5)}  ${r.file}${r.failed ? '  (failed)' : ''}`);
}
console.log(`\nper layer (file times summed, files side by side${withCpu ? "; CPU-seconds: each second's busy CPU shared among the files running then" : ''}):`);
for (const [layer, s] of sums) console.log(`  ${layer.padEnd(11)} ${s.files} files, ${s.seconds.toFixed(0)} s${withCpu ? `, ${s.cpu.toFixed(0)} CPU-s` : ''}`);
if (withCpu) {
  const busy = samples.at(-1)![1] - samples[0][1];
  console.log(`the machine's busy CPU during the run: ${busy.toFixed(0)} s (${cpu.outside.toFixed(0)} s of it while no test file ran)`);
}
if (Number.isFinite(wall)) console.log(`wall clock of the run: ${wall.toFixed(0)} s on ${os.availableParallelism()} cores`);
