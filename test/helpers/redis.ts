/**
 * A throwaway Redis for queue tests: Debian's redis-server on a free loopback port, in a temp
 * dir, without persistence unless asked (so a restart loses every job, as a real crash of an
 * unpersisted Redis does). `restart` brings it back on the same port and dir, for clients to
 * reconnect to.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';

/**
 * Whether the queue tests run: on a developer's machine without redis-server they are skipped
 * with a notice; under CI (CI set, and .ci/run installs redis-server) they always run, so a
 * missing server fails there.
 */
export function redisTestsRun(): boolean {
  if (existsSync(REDIS_SERVER) || process.env.CI) return true;
  console.warn(`queue tests skipped: no redis-server at ${REDIS_SERVER} (apt-get install redis-server, or set REDIS_SERVER_PATH; CI never skips them)`);
  return false;
}

export interface TestRedis {
  url: string;
  port: number;
  /** Stops the server (SIGKILL if it has not exited within 2 s); the temp dir goes too. */
  stop(): Promise<void>;
  /** Stops the server and starts a new one on the same port and dir. */
  restart(): Promise<void>;
}

export async function startRedis(o: { appendonly?: boolean } = {}): Promise<TestRedis> {
  if (!existsSync(REDIS_SERVER)) throw new Error(`no redis-server at ${REDIS_SERVER}: install Debian's (apt-get install redis-server; .ci/run does) or set REDIS_SERVER_PATH`);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'czech-pub-redis-'));
  const args = [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--daemonize', 'no',
    '--save', '', '--appendonly', o.appendonly ? 'yes' : 'no', '--loglevel', 'warning',
  ];
  let proc: ChildProcess | null = null;
  const launch = async () => {
    const p = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr?.on('data', (d: Buffer) => void (stderr += d.toString()));
    proc = p;
    await waitForPong(port, p, () => stderr);
  };
  const kill = async () => {
    const p = proc;
    proc = null;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => p.once('exit', () => resolve()));
    p.kill('SIGTERM');
    const t = setTimeout(() => p.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(t);
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
    async restart() {
      await kill();
      await launch();
    },
  };
}

/** A port the OS just handed out on loopback: taken by a server on port 0, then released. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Raw RESP: one inline PING, expecting +PONG; retried until the server answers (10 s at most). */
async function waitForPong(port: number, p: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (p.exitCode !== null || p.signalCode !== null) throw new Error(`redis-server exited (${p.exitCode ?? p.signalCode}): ${stderr().trim()}`);
    if (await ping(port)) return;
    if (Date.now() > deadline) {
      p.kill('SIGKILL');
      throw new Error(`redis-server on port ${port} did not answer PING within 10 s: ${stderr().trim()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    let got = '';
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(500, () => done(false));
    sock.once('error', () => done(false));
    sock.once('connect', () => sock.write('PING\r\n'));
    sock.on('data', (d) => {
      got += d.toString();
      if (got.includes('\r\n')) done(got.startsWith('+PONG'));
    });
  });
}
