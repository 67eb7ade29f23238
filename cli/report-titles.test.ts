/**
 * Each run's reports are titled for what made it: `llm-bench` writes an LLM benchmark's,
 * `tournament` a tournament's, and `report DIR` makes a folder's again under the same title
 * (run.json keeps it). The model is a fake OpenAI-compatible server on 127.0.0.1 that always
 * names the first legal action.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bufferIo } from './io.ts';
import { main } from './main.ts';

let server: http.Server;
let base = '';
let tmp = '';

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-titles-'));
  server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      const messages = (JSON.parse(text).messages as { content: string }[]) ?? [];
      const prompt = messages.map((m) => m.content).join('\n');
      const first = /Your legal actions:\s*\n\s+(\d+):/.exec(prompt)?.[1] ?? '0';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({
        id: 'r', object: 'chat.completion', model: 'fake',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify({ action: Number(first) }) } }],
        usage: { prompt_tokens: 100, completion_tokens: 5 },
      }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  fs.rmSync(tmp, { recursive: true, force: true });
});

const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');

/** The three places a run's title shows, and what run.json says made it. */
function titles(dir: string) {
  return {
    markdown: read(dir, 'leaderboard.md').split('\n')[0].split(':')[0],
    page: /<title>([^:<]*)/.exec(read(dir, 'report.html'))?.[1],
    heading: /<h1>([^<]*)<\/h1>/.exec(read(dir, 'report.html'))?.[1],
    kind: JSON.parse(read(dir, 'run.json')).kind,
  };
}

describe('report titles', () => {
  it('llm-bench titles its reports an LLM benchmark, and report DIR keeps the title', async () => {
    const out = path.join(tmp, 'bench');
    const io = bufferIo();
    const code = await main(['llm-bench', '--model', 'fake-model', '--base-url', base, '--players', '2', '--games', '2', '--opponents', 'random', '--out', out], io);
    expect(code, io.stderr.join('\n')).toBe(0);
    expect(io.stdout.join('\n')).toMatch(/^# Czech Pub LLM benchmark: 2 players, 2 games/);
    const made = { markdown: '# Czech Pub LLM benchmark', page: 'Czech Pub LLM benchmark', heading: 'Czech Pub LLM benchmark', kind: 'llm-bench' };
    expect(titles(out)).toEqual(made);
    fs.rmSync(path.join(out, 'leaderboard.md'));
    const again = bufferIo();
    expect(await main(['report', out], again), again.stderr.join('\n')).toBe(0);
    expect(again.stdout.join('\n')).toMatch(/^# Czech Pub LLM benchmark: /);
    expect(titles(out)).toEqual(made);
  }, 60_000);

  it('tournament titles its reports a tournament, and report DIR keeps the title', async () => {
    const out = path.join(tmp, 'tournament');
    const io = bufferIo();
    expect(await main(['tournament', '--agents', 'random,greedy', '--games', '2', '--workers', '0', '--out', out], io), io.stderr.join('\n')).toBe(0);
    const made = { markdown: '# Czech Pub tournament', page: 'Czech Pub tournament', heading: 'Czech Pub tournament', kind: 'tournament' };
    expect(titles(out)).toEqual(made);
    expect(await main(['report', out], bufferIo())).toBe(0);
    expect(titles(out)).toEqual(made);
  }, 60_000);
});
