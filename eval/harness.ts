/**
 * This package's name and version, and what plays a run (results.json's `harness`). The
 * package.json is one folder up from a source folder in a checkout (eval/), two from the
 * compiled one in an installed package (dist/eval/), and beside the single-file engine, whose
 * modules all have its URL (scripts/bundle-bridge.mjs writes one there).
 */
import { existsSync, readFileSync } from 'node:fs';

function readPackage(): { name: string; version: string } {
  for (const rel of ['../package.json', '../../package.json', './package.json']) {
    const url = new URL(rel, import.meta.url);
    if (!existsSync(url)) continue;
    const pkg = JSON.parse(readFileSync(url, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'czech-pub-gym' && typeof pkg.version === 'string') return { name: pkg.name, version: pkg.version };
  }
  throw new Error(`czech-pub-gym's package.json is not beside ${new URL('.', import.meta.url).pathname}: the package is incomplete`);
}

export const PACKAGE = readPackage();

/** What plays a run, as results.json records it. */
export const HARNESS = { package: `${PACKAGE.name} ${PACKAGE.version}`, node: process.version };
