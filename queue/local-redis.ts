/**
 * A throwaway Redis on a free loopback port, for benchmarks and tests: Debian's `redis-server`
 * in a temporary folder, without persistence unless asked. `restart` stops it and starts it
 * again on the same port and folder (what a persistent Redis keeps survives).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface LocalRedis {
  url: string;
  port: number;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** The redis-server to start: REDIS_SERVER_PATH, else the one on the PATH. */
export const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? 'redis-server';

/** Whether a redis-server can be started here. */
export function redisServerAvailable(): boolean {
  return spawnSync(REDIS_SERVER, ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A port free now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once the server answers PING, or rejects after `ms`. */
async function answers(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.setTimeout(500);
      s.once('connect', () => s.write('PING\r\n'));
      s.once('data', (d) => {
        s.destroy();
        resolve(d.toString().startsWith('+PONG'));
      });
      s.once('error', () => resolve(false));
      s.once('timeout', () => {
        s.destroy();
        resolve(false);
      });
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`redis-server on port ${port} did not answer within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Stops a child process: SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
export async function stopProcess(c: ChildProcess, graceMs = 5000): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => c.once('exit', () => resolve()));
  c.kill('SIGTERM');
  const t = setTimeout(() => c.kill('SIGKILL'), graceMs);
  await gone;
  clearTimeout(t);
}

export async function startLocalRedis(o: { persistent?: boolean } = {}): Promise<LocalRedis> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'czech-pub-redis-'));
  let child: ChildProcess | null = null;
  const launch = async () => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--loglevel', 'warning'];
    args.push('--appendonly', o.persistent ? 'yes' : 'no');
    const c = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child = c;
    let stderr = '';
    c.stderr!.on('data', (d: Buffer) => void (stderr += d.toString()));
    const exited = new Promise<never>((_, reject) => {
      c.once('error', (e) => reject(new Error(`cannot start ${REDIS_SERVER}: ${e.message}`)));
      c.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${stderr.trim().split('\n').pop() ?? ''}`)));
    });
    exited.catch(() => {});
    await Promise.race([answers(port, 10_000), exited]);
  };
  const halt = async () => {
    const c = child as ChildProcess | null;
    child = null;
    if (c) await stopProcess(c);
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async restart() {
      await halt();
      await launch();
    },
    async stop() {
      await halt();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
