/**
 * Runs the Python package's own tests (python/tests) as part of the README's test command.
 * They need a python3 with numpy (Debian's python3-numpy: .ci/run installs it); without one
 * this fails, saying so, unless CZECH_PUB_SKIP_PYTHON=1. CZECH_PUB_PYTHON names another Python
 * (.ci/run's venv with PettingZoo, whose own API test then runs too).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function pythonWithNumpy(): string | null {
  const given = process.env.CZECH_PUB_PYTHON;
  for (const py of given ? [given] : ['/usr/bin/python3', 'python3']) {
    const r = spawnSync(py, ['-c', 'import numpy'], { stdio: 'ignore' });
    if (r.status === 0) return py;
  }
  return null;
}

describe.skipIf(process.env.CZECH_PUB_SKIP_PYTHON === '1')('python package', () => {
  it('passes its unittest suite (AEC env, vector env, bridge failures)', () => {
    const py = pythonWithNumpy();
    if (!py) throw new Error(process.env.CZECH_PUB_PYTHON ? `CZECH_PUB_PYTHON=${process.env.CZECH_PUB_PYTHON} cannot import numpy` : 'no python3 with numpy found: install python3-numpy (or set CZECH_PUB_SKIP_PYTHON=1 to skip the Python tests)');
    const r = spawnSync(py, ['-m', 'unittest', 'discover', '-s', 'python/tests'], { encoding: 'utf8', timeout: 600_000 });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stderr).toMatch(/\nOK\b/);
  }, 620_000);
});
