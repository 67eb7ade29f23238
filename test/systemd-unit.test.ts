/**
 * The systemd unit's sandbox against what the server it starts needs (docs/deploy.md): under
 * ProtectSystem=strict every path is read-only unless the unit says otherwise, so the state
 * dir its ExecStart names must be one the unit makes writable (a StateDirectory, or
 * ReadWritePaths), made the service user's alone, and not made read-only again; what the
 * server only reads (its config, its models) is read-only. No systemd runs here, so the unit
 * is read as text; test/package.test.ts runs its ExecStart from the installed package.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const UNIT = fileURLToPath(new URL('../deploy/czech-pub.service', import.meta.url));

/** Each key's values in the unit's [Service] section (a key may be given more than once; values split on spaces). */
function service(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let section = '';
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (l === '' || l.startsWith('#')) continue;
    if (l.startsWith('[')) {
      section = l;
      continue;
    }
    if (section !== '[Service]') continue;
    const eq = l.indexOf('=');
    const key = l.slice(0, eq);
    out.set(key, [...(out.get(key) ?? []), ...l.slice(eq + 1).split(/\s+/).filter(Boolean)]);
  }
  return out;
}

/** Whether `p` is `dir` or inside it ('-' marks a path systemd may find missing). */
const within = (p: string, dir: string): boolean => {
  const d = dir.replace(/^-/, '');
  return p === d || p.startsWith(`${d}/`);
};

describe('the systemd unit', () => {
  const unit = service(fs.readFileSync(UNIT, 'utf8'));
  const exec = unit.get('ExecStart')!;
  const arg = (flag: string) => exec[exec.indexOf(flag) + 1];

  it('lets the server write its state dir, and nothing else, and keeps it the service user\'s alone', () => {
    const stateDir = arg('--state-dir');
    expect(stateDir).toMatch(/^\//);
    expect(unit.get('ProtectSystem')).toEqual(['strict']);
    // systemd makes a StateDirectory (under /var/lib) the user's and writable; ReadWritePaths would only make it writable.
    const writable = [...(unit.get('StateDirectory') ?? []).map((d) => path.posix.join('/var/lib', d)), ...(unit.get('ReadWritePaths') ?? [])];
    expect(writable.some((d) => within(stateDir, d)), `${stateDir} is not writable under ProtectSystem=strict`).toBe(true);
    expect((unit.get('StateDirectory') ?? []).map((d) => path.posix.join('/var/lib', d))).toContain(stateDir);
    expect(unit.get('StateDirectoryMode')).toEqual(['0700']);
    expect(unit.get('UMask')).toEqual(['0077']);
    for (const ro of unit.get('ReadOnlyPaths') ?? []) expect(within(stateDir, ro), `ReadOnlyPaths ${ro} covers the state dir`).toBe(false);
  });

  it('gives the server read-only what it only reads: its config and its models', () => {
    const ro = unit.get('ReadOnlyPaths') ?? [];
    for (const p of [path.posix.dirname(arg('--config')), arg('--models')]) expect(ro.some((d) => within(p, d)), p).toBe(true);
    expect(unit.get('NoNewPrivileges')).toEqual(['true']);
    expect(unit.get('ProtectHome')).toEqual(['true']);
    expect(unit.get('PrivateTmp')).toEqual(['true']);
  });
});
