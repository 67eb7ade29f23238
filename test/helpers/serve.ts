/**
 * For the hostile tests: a real `czech-pub serve` in a child process (its own folder and
 * config, an environment of the test's choosing), and one HTTP request at a time from a
 * chosen loopback address (another address is another client to the server).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { cliEntry } from './cli.ts';

export interface Served {
  child: ChildProcess;
  base: string;
  /** Everything the server wrote to stderr so far. */
  stderr: () => string;
}

export interface ServeOptions {
  /** The port to listen on (default 0: a free one). */
  port?: number;
  /** More of serve's options, e.g. ['--state-dir', DIR]; '--default-state' keeps serve's default state folder (else --no-state is added). */
  args?: string[];
}

/**
 * Starts `serve --port 0 --rate-limit 0` in `cwd` with `config` written there as config.json
 * (removed once the server has read it, so the folder holds only what clients make).
 */
export async function startServe(cwd: string, config: unknown, env: NodeJS.ProcessEnv = process.env, o: ServeOptions = {}): Promise<Served> {
  fs.writeFileSync(path.join(cwd, 'config.json'), JSON.stringify(config));
  // No state folder unless the test names one: a test's server writes nothing outside its folder.
  const state = o.args?.some((a) => a === '--state-dir' || a === '--no-state' || a === '--default-state') ? [] : ['--no-state'];
  const args = ['serve', '--port', String(o.port ?? 0), '--config', 'config.json', '--rate-limit', '0', ...state, ...(o.args ?? []).filter((a) => a !== '--default-state')];
  const child = spawn(process.execPath, [await cliEntry(), ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'], env });
  let err = '';
  const base = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code}): ${err}`)));
  });
  fs.rmSync(path.join(cwd, 'config.json'));
  return { child, base, stderr: () => err };
}

export interface Answer {
  status: number;
  text: string;
  /** The body as JSON, or null when it is not JSON. */
  body: Record<string, any> | null;
  ms: number;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** The loopback source address: the client the server sees. */
  local?: string;
  token?: string;
  /** Give up on the request (closing the connection) after this many ms, or once this promise settles: answers null. */
  abandon?: number | Promise<unknown>;
  timeoutMs?: number;
}

/** One request; a string body goes as it is, anything else as JSON. */
export function request(base: string, method: string, p: string, body?: unknown, o: RequestOptions = {}): Promise<Answer | null> {
  const t0 = performance.now();
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(base + p, {
      method, localAddress: o.local, agent: false,
      headers: { ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...(o.token ? { authorization: `Bearer ${o.token}` } : {}), ...o.headers },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let parsed: Record<string, any> | null = null;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = null;
        }
        resolve({ status: res.statusCode ?? 0, text, body: parsed, ms: performance.now() - t0 });
      });
    });
    req.on('error', (e) => (o.abandon ? resolve(null) : reject(e)));
    if (typeof o.abandon === 'number') setTimeout(() => req.destroy(), o.abandon);
    else o.abandon?.then(() => req.destroy(), () => req.destroy());
    const limit = o.timeoutMs ?? 30_000;
    req.setTimeout(limit, () => req.destroy(new Error(`${method} ${p}: no answer in ${limit / 1000} s`)));
    req.end(payload);
  });
}
