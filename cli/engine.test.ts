import { describe, expect, it } from 'vitest';
import { PACKAGE } from '../eval/index.ts';
import { engineMain } from './engine.ts';
import { bufferIo } from './io.ts';

describe("the single-file engine's command line", () => {
  it('names its versions, and its commands on --help', () => {
    const io = bufferIo();
    expect(engineMain(['--version'], io)).toBe(0);
    expect(io.stdout[0].split('\n')[0]).toBe(`czech-pub-gym ${PACKAGE.version}`);
    expect(engineMain(['--help'], io)).toBe(0);
    expect(io.stdout[1]).toMatch(/bridge .*\n {2}bench env /);
  });

  it('runs bench env', () => {
    const io = bufferIo();
    expect(engineMain(['bench', 'env', '--seconds', '0.05', '--json'], io)).toBe(0);
    expect(JSON.parse(io.stdout[0]).decisionsPerSec).toBeGreaterThan(0);
  });

  it('refuses a command it does not carry, pointing to the full CLI', () => {
    const io = bufferIo();
    expect(engineMain(['train'], io)).toBe(2);
    expect(io.stderr[0]).toMatch(/the full command line is the czech-pub npm package/);
  });
});
