import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { threadBundle, tsWorker } from './ts-worker.ts';

const dir = mkdtempSync(join(tmpdir(), 'czech-pub-ts-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first message of a thread of `module`, which then ends. */
function firstMessage(module: URL): Promise<unknown> {
  const w = tsWorker(module);
  return new Promise((resolve, reject) => {
    w.once('message', (m) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  });
}

/** A thread module (TypeScript) that imports a sibling and says what it holds and where it is. */
function writeModule(word: string, when: Date): URL {
  writeFileSync(join(dir, 'word.ts'), `export const word: string = ${JSON.stringify(word)};\nexport const at: string = import.meta.url;\n`);
  writeFileSync(join(dir, 'thread.ts'), "import { parentPort } from 'node:worker_threads';\nimport { at, word } from './word.ts';\nparentPort!.postMessage({ word, at, own: import.meta.url });\n");
  for (const f of ['word.ts', 'thread.ts']) utimesSync(join(dir, f), when, when);
  return pathToFileURL(join(dir, 'thread.ts'));
}

describe('a thread of a TypeScript module in a checkout', () => {
  it("runs from one bundle, made again when a file it imports changed; each file keeps its own import.meta.url", async () => {
    const module = writeModule('first', new Date(2026, 0, 1));
    expect(await firstMessage(module)).toEqual({ word: 'first', at: pathToFileURL(join(dir, 'word.ts')).href, own: module.href });
    const bundle = threadBundle(module);
    expect(bundle?.pathname).toMatch(/node_modules\/\.cache\/czech-pub-threads\/[0-9a-f]{16}\.mjs$/);
    // Kept while nothing changed: the same file, not made again.
    expect(threadBundle(module)?.href).toBe(bundle?.href);
    // The imported file changed (another word of another length, another time): made again.
    writeModule('second one', new Date(2026, 0, 2));
    expect(await firstMessage(module)).toMatchObject({ word: 'second one' });
  });
});
