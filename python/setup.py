"""The wheel's build hook: from the engine's checkout, the bundled engine (czech_pub/_engine/) is
made afresh from the TypeScript sources by scripts/bundle-bridge.mjs, so a wheel never carries a
stale one. The bundler needs Node and the checkout's npm packages (esbuild, and what the engine
imports): a checkout without them (a fresh clone) gets them first with `npm ci`, exactly as the
lockfile pins them, so `pip install ./python` works from a clone with Node and npm alone. Built
elsewhere (from an sdist), the czech_pub/_engine/ already there is packed as it is. Everything
else is in pyproject.toml.

Each way this can fail ends in one line saying what is missing and what to do."""

import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
BUNDLER = REPO / "scripts" / "bundle-bridge.mjs"
ENGINE = HERE / "czech_pub" / "_engine"
# npm ci leaves this behind once every locked package is installed; esbuild is the bundler itself.
INSTALLED = [REPO / "node_modules" / ".package-lock.json", REPO / "node_modules" / "esbuild" / "package.json"]


def fail(message: str):
    raise SystemExit(f"czech_pub: {message}")


def npm_ci() -> None:
    """Installs the checkout's npm packages as package-lock.json pins them."""
    npm = shutil.which("npm")
    if npm is None:
        fail(f"building the engine needs the checkout's npm packages, which are not installed, and there is no `npm` on the PATH to install them: install Node.js 20.6 or newer with npm, or run `npm ci` in {REPO}, then `pip install ./python` again")
    print(f"czech_pub: the checkout's npm packages are not installed: running `npm ci` in {REPO} (once; a minute or more)", file=sys.stderr, flush=True)
    done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=REPO)
    if done.returncode != 0:
        fail(f"`npm ci` in {REPO} failed (exit {done.returncode}, its output above): the engine cannot be bundled without the checkout's npm packages; fix that and run `pip install ./python` again")


class BuildPyWithEngine(build_py):
    def run(self):
        if BUNDLER.is_file():
            node = shutil.which("node")
            if node is None:
                fail("building the package from the checkout bundles the engine, which needs Node.js 20.6 or newer: there is no `node` on the PATH")
            if not all(f.is_file() for f in INSTALLED):
                npm_ci()
            done = subprocess.run([node, str(BUNDLER), "--out", str(ENGINE)])
            if done.returncode != 0:
                fail(f"bundling the engine failed (`npm run build:bridge`, exit {done.returncode}, its output above); `npm ci` in {REPO} reinstalls the npm packages it needs")
            # The package data was listed when the options were set: list it again, with the new files.
            self.__dict__.pop("data_files", None)
        elif not (ENGINE / "czech-pub.js").is_file():
            fail(f"no engine to pack: {ENGINE} is empty and this is not the engine's checkout (`npm run build:bridge` there makes it)")
        super().run()


setup(cmdclass={"build_py": BuildPyWithEngine})
