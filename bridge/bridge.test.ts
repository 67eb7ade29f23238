import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PACKAGE } from '../eval/index.ts';
import { MAX_REQUEST_BYTES, NO_SEAT, OP, PROTOCOL_VERSION, STATUS } from './protocol.ts';
import { BridgeSession, MAX_VECTOR_WORKERS } from './session.ts';

const req = (op: number, body: Buffer | string = Buffer.alloc(0)) => Buffer.concat([Buffer.from([op]), typeof body === 'string' ? Buffer.from(body) : body]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const i32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32LE(n);
  return b;
};
const error = (res: Buffer) => {
  expect(res[0]).toBe(STATUS.ERROR);
  return res.subarray(1).toString('utf8');
};

describe('bridge protocol', () => {
  it('the Python copy of the constants matches this one', () => {
    const py = fs.readFileSync(new URL('../python/czech_pub/_protocol.py', import.meta.url), 'utf8');
    const value = (name: string) => {
      const m = new RegExp(`^${name} = (.+)$`, 'm').exec(py);
      if (!m) throw new Error(`${name} is missing from _protocol.py`);
      return Function(`return (${m[1]})`)() as number;
    };
    for (const [k, v] of Object.entries(OP)) expect(value(`OP_${k}`), `OP_${k}`).toBe(v);
    for (const [k, v] of Object.entries(STATUS)) expect(value(`STATUS_${k}`), `STATUS_${k}`).toBe(v);
    expect(value('MAX_REQUEST_BYTES')).toBe(MAX_REQUEST_BYTES);
    expect(value('NO_SEAT')).toBe(NO_SEAT);
    expect(value('PROTOCOL_VERSION')).toBe(PROTOCOL_VERSION);
  });

  it("the Python package's version is the npm package's (the handshake refuses any other)", () => {
    const py = fs.readFileSync(new URL('../python/czech_pub/_version.py', import.meta.url), 'utf8');
    expect(/^__version__ = "([^"]+)"$/m.exec(py)?.[1]).toBe(PACKAGE.version);
  });

  it('INFO, the handshake, names the protocol and the package versions', () => {
    const res = new BridgeSession().handle(req(OP.INFO));
    expect(res[0]).toBe(STATUS.OK);
    const info = JSON.parse(res.subarray(1).toString());
    expect(info).toMatchObject({ protocol: PROTOCOL_VERSION, package: PACKAGE.version });
  });
});

describe('bridge session', () => {
  it('answers bad requests with what was wrong with them', () => {
    const s = new BridgeSession();
    expect(error(s.handle(Buffer.alloc(0)))).toBe('empty request');
    expect(error(s.handle(req(99)))).toBe('unknown op 99');
    expect(error(s.handle(req(OP.ENV_NEW, '{nope')))).toBe('the request body is not valid JSON');
    expect(error(s.handle(req(OP.ENV_NEW, '[1]')))).toBe('the request body must be a JSON object');
    expect(error(s.handle(req(OP.ENV_NEW, '{"players":9}')))).toBe('players must be from 2 to 6, got 9');
    expect(error(s.handle(req(OP.ENV_NEW, '{"players":4,"reward":"gold"}')))).toBe('reward must be one of win, rank, score, got "gold"');
    expect(error(s.handle(req(OP.ENV_NEW, '{"players":4,"ruleset":{"name":3}}')))).toMatch(/^ruleset: /);
    // A name is looked up among the shipped rulesets, never taken for a file.
    expect(error(s.handle(req(OP.ENV_NEW, '{"players":4,"ruleset":"/etc/passwd"}')))).toBe('ruleset must be a ruleset object or one of standard, micro, got "/etc/passwd"');
    expect(error(s.handle(req(OP.ENV_NEW, '{"players":4,"ruleset":"micro"}')))).toBe('players must be from 2 to 3, got 4');
    expect(error(s.handle(req(OP.ENV_STEP, Buffer.concat([u32(42), i32(0)]))))).toBe('no env with handle 42');
    expect(error(s.handle(req(OP.VEC_NEW, '{"numEnvs":2,"players":4,"seed":1}')))).toMatch(/^opponents must be an agent spec/);
    expect(error(s.handle(req(OP.VEC_NEW, '{"numEnvs":0,"players":4,"seed":1,"opponents":"random"}')))).toMatch(/^numEnvs must be a whole number from 1 to 65536/);
    expect(s.open).toBe(0);
    expect(s.handle(req(OP.ENV_NEW, '{"players":3,"ruleset":"micro"}'))[0]).toBe(STATUS.OK);
    expect(s.open).toBe(1);
  });

  it('an illegal action changes nothing and names the legal ones', () => {
    const s = new BridgeSession();
    const created = s.handle(req(OP.ENV_NEW, '{"players":3,"seed":"x"}'));
    expect(created[0]).toBe(STATUS.OK);
    const h = created.readUInt32LE(1);
    const first = Buffer.from(s.handle(req(OP.ENV_RESET, u32(h))));
    expect(first[0]).toBe(STATUS.OK);
    const msg = error(s.handle(req(OP.ENV_STEP, Buffer.concat([u32(h), i32(197)]))));
    expect(msg).toMatch(/^action 197 is not legal for seat 0; legal actions: \d+(, \d+)*$/);
    const legal = msg.split(': ').pop()!.split(', ').map(Number);
    // The game is where it was: the same legal actions, and stepping one works.
    const again = s.handle(req(OP.ENV_STEP, Buffer.concat([u32(h), i32(legal[0])])));
    expect(again[0]).toBe(STATUS.OK);
    expect(error(s.handle(req(OP.ENV_OBSERVE, Buffer.concat([u32(h), Buffer.from([7])]))))).toBe('seat must be from 0 to 2, got 7');
    expect(s.handle(req(OP.CLOSE, u32(h)))[0]).toBe(STATUS.OK);
    expect(error(s.handle(req(OP.CLOSE, u32(h))))).toBe(`no env with handle ${h}`);
  });
});

describe('bridge vector envs on threads', () => {
  it('answers the threads it got; refuses a bad count and one past the client\'s worker limit; closing frees them', () => {
    const s = new BridgeSession();
    const vec = (extra: string) => s.handle(req(OP.VEC_NEW, `{"numEnvs":32,"players":2,"seed":1,"opponents":"random"${extra}}`));
    try {
      expect(error(vec(',"threads":"many"'))).toBe(`threads must be 'auto' or a whole number from 1 to 64, got "many"`);
      const one = vec(',"threads":1');
      expect(one[0]).toBe(STATUS.OK);
      expect(one.readUInt32LE(5)).toBe(1);
      const two = vec(',"threads":2');
      expect(two[0]).toBe(STATUS.OK);
      expect(two.readUInt32LE(5)).toBe(2);
      const h = two.readUInt32LE(1);
      // 32 games step on at most 2 threads (16 games each), whatever is asked.
      expect(error(vec(`,"threads":${MAX_VECTOR_WORKERS + 1}`))).toMatch(new RegExp(`^threads: ${MAX_VECTOR_WORKERS + 1} would pass this client's limit of ${MAX_VECTOR_WORKERS} worker threads \\(1 in use\\)`));
      const batch = s.handle(req(OP.VEC_RESET, u32(h)));
      expect(batch[0]).toBe(STATUS.OK);
      expect(s.handle(req(OP.CLOSE, u32(h)))[0]).toBe(STATUS.OK);
      expect(error(vec(`,"threads":${MAX_VECTOR_WORKERS + 2}`))).toMatch(/\(0 in use\)/);
      expect(s.open).toBe(1);
    } finally {
      s.close();
    }
    expect(s.open).toBe(0);
  }, 60_000);
});

describe('bridge over stdio', () => {
  it('refuses a frame over the limit and ends; ends quietly when its input closes', async () => {
    const child = spawn(process.execPath, ['bin/czech-pub.js', 'bridge'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => chunks.push(d));
    child.stdin.write(u32(MAX_REQUEST_BYTES + 1));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    const out = Buffer.concat(chunks);
    expect(out.readUInt32LE(0)).toBe(out.length - 4);
    expect(out[4]).toBe(STATUS.ERROR);
    expect(out.subarray(5).toString()).toMatch(/^request of \d+ bytes is over the limit/);
    expect(code).toBe(0);
    const quiet = spawnSync(process.execPath, ['bin/czech-pub.js', 'bridge'], { input: '', timeout: 30_000 });
    expect(quiet.status).toBe(0);
    expect(quiet.stdout.length).toBe(0);
  }, 60_000);
});
