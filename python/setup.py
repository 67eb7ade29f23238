"""The wheel's build hook: from the engine's checkout, the bundled engine (czech_pub/_engine/) is
made afresh from the TypeScript sources by scripts/bundle-bridge.mjs (Node and the checkout's
node_modules needed), so a wheel never carries a stale one. Built elsewhere (from an sdist), the
czech_pub/_engine/ already there is packed as it is. Everything else is in pyproject.toml."""

import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
BUNDLER = HERE.parent / "scripts" / "bundle-bridge.mjs"
ENGINE = HERE / "czech_pub" / "_engine"


class BuildPyWithEngine(build_py):
    def run(self):
        if BUNDLER.is_file():
            node = shutil.which("node")
            if node is None:
                raise SystemExit("building czech_pub from the checkout bundles the engine, which needs `node` on the PATH")
            subprocess.run([node, str(BUNDLER), "--out", str(ENGINE)], check=True)
            # The package data was listed when the options were set: list it again, with the new files.
            self.__dict__.pop("data_files", None)
        elif not (ENGINE / "czech-pub.js").is_file():
            raise SystemExit(f"no engine to pack: {ENGINE} is empty and this is not the engine's checkout (npm run build:bridge makes it)")
        super().run()


setup(cmdclass={"build_py": BuildPyWithEngine})
