"""In-sandbox harness: the first (trusted) code of every sandboxed run.

Run as a script by the sandboxed interpreter, never imported by assay.  It
reads from stdin the JSON header (after its length in 16 digits) and the
program source, applies the resource limits, drops to the run's uid, runs the
program in ``__main__`` and reports how it ended on the result channel (a pipe
whose file descriptor is its first argument), each record prefixed with the
run's token.  Only the process that started the program reports, so forked
children cannot speak for it.

A checked run (``checker_size`` in the header) has two processes.  The harness
forks the program's process before it reads the checker: that child closes
every descriptor but its two pipes, drops to the run's uid, runs the program,
says ``ready`` (or the exception that ended it) and then answers requests
(:func:`_serve`).  The parent reads the checker (trusted code), drops to
another uid, makes itself undumpable, runs the checker with a :class:`Remote`
and alone reports on the result channel: the program cannot signal it, trace
it, read its memory or descriptors, nor write the channel, and never holds
the checker's text (its expected values).  Messages are JSON lines with type
tags for the values the benchmarks need; decoding builds only those types, so
a checker compares plain data, never the program's objects.

With a ``namespaces`` entry in the header (the backend used where bubblewrap
is not installed) the harness, started as root, isolates itself first with the
``unshare(2)`` system call: new mount, pid, network, IPC, UTS (and, where the
kernel allows, cgroup) namespaces.  A forked child becomes pid 1 of the new
pid namespace; it builds a new root on a tmpfs — the system directories
(``/usr``, ``/bin``, ``/lib``…) and the Python runtime bound read-only, a fresh
``/proc``, a minimal ``/dev``, empty private ``/tmp`` and working directory —
switches to it with ``pivot_root`` and detaches the old root, so nothing of the
caller's files stays reachable.  It then forks the process that runs the
program and waits for it; when pid 1 exits, the kernel kills whatever is left
in the namespace.  Exit codes follow bubblewrap's: 128 + signal for a run
killed by a signal.

The token is never part of the program's source or files; a program that
exits early (``sys.exit``, ``os._exit``, a signal) therefore cannot produce a
pass.  In a run without a checker, code running in the same process could
still find the token in memory by introspection: such a run's pass means only
that the program did not fail, which is why the code evaluators use checked
runs.  Without root (limits only) both processes of a checked run share one
uid, and only the undumpable checker stands between them.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import json
import os
import resource
import sys
import time
import traceback
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import NoReturn

_write = os.write
_exit = os._exit
_getpid = os.getpid
_format_exception = traceback.format_exception


def _apply_limits(limits: dict[str, int]) -> None:
    names = {
        "cpu": resource.RLIMIT_CPU,
        "as": resource.RLIMIT_AS,
        "nproc": resource.RLIMIT_NPROC,
        "fsize": resource.RLIMIT_FSIZE,
        "nofile": resource.RLIMIT_NOFILE,
        "core": resource.RLIMIT_CORE,
    }
    for key, value in limits.items():
        which = names[key]
        hard = value + 1 if key == "cpu" else value  # SIGXCPU first, SIGKILL a second later
        resource.setrlimit(which, (value, hard))


def _libc_call(name: str, *args: int) -> int:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    result: int = getattr(libc, name)(*args)
    return result


_CLONE_NEWNS = 0x00020000
_CLONE_NEWCGROUP = 0x02000000
_CLONE_NEWUTS = 0x04000000
_CLONE_NEWIPC = 0x08000000
_CLONE_NEWPID = 0x20000000
_CLONE_NEWNET = 0x40000000
_MS_RDONLY = 1
_MS_NOSUID = 2
_MS_NODEV = 4
_MS_NOEXEC = 8
_MS_REMOUNT = 32
_MS_BIND = 4096
_MS_MOVE = 8192
_MS_REC = 16384
_MS_PRIVATE = 1 << 18
_MNT_DETACH = 2
_PR_SET_PDEATHSIG = 1
_SIGKILL = 9
# pivot_root has no libc wrapper: its system call number per machine
_SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "ppc64": 203, "s390x": 217,
                   "i686": 217, "i386": 217, "armv7l": 218, "armv8l": 218, "loongarch64": 41}
_DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


def _libc_checked(name: str, *args: object) -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    func = getattr(libc, name)
    if func(*args) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{name}: {os.strerror(err)}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]

    def enc(x: str | None) -> bytes | None:
        return None if x is None else os.fsencode(x)

    if libc.mount(enc(source), enc(target), enc(fstype), flags, enc(data)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"mount {fstype or source or ''} on {target}: {os.strerror(err)}")


def _bind(source: str, target: str, *, read_only: bool) -> None:
    _mount(source, target, None, _MS_BIND | _MS_REC)
    flags = _MS_BIND | _MS_REMOUNT | _MS_NOSUID | (_MS_RDONLY if read_only else 0)
    _mount(None, target, None, flags)


def _mkdirs(path: str, mode: int = 0o755) -> None:
    """Create ``path`` and its missing parents with ``mode`` (the umask is 0 here)."""
    if os.path.isdir(path):
        return
    _mkdirs(os.path.dirname(path), mode)
    os.mkdir(path, mode)


def _status_code(status: int) -> int:
    """An exit status as a shell reports it: the code, or 128 + the signal."""
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1


def _wait_for(child: int) -> int:
    """Reap children (pid 1 inherits orphans) until ``child`` ends; its exit code."""
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            return 1
        except InterruptedError:
            continue
        if pid == child:
            return _status_code(status)


def _loopback_up() -> None:
    """Bring up ``lo`` of the new network namespace (127.0.0.1 only, as bubblewrap does)."""
    import fcntl
    import socket
    import struct

    siocgifflags, siocsifflags, iff_up = 0x8913, 0x8914, 0x1
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sh22x", b"lo", 0)
        flags = struct.unpack("16sh22x", fcntl.ioctl(s.fileno(), siocgifflags, request))[1]
        fcntl.ioctl(s.fileno(), siocsifflags, struct.pack("16sh22x", b"lo", flags | iff_up))


def _build_root(spec: dict[str, Any]) -> None:
    """Make ``spec['root']`` (an empty host folder) the new root of this mount namespace."""
    root = str(spec["root"])
    size = int(spec["tmpfs"])
    workdir = str(spec["workdir"])
    roots = [str(r) for r in spec["runtime"]]
    os.umask(0)
    _mount(None, "/", None, _MS_REC | _MS_PRIVATE)
    _mount("tmpfs", root, "tmpfs", _MS_NOSUID | _MS_NODEV, f"size={size},mode=0755")
    for top in _SYSTEM_DIRS:
        if os.path.islink(top):
            os.symlink(os.readlink(top), root + top)
        elif os.path.isdir(top):
            _mkdirs(root + top)
            _bind(top, root + top, read_only=True)
    for runtime in roots:
        if any(runtime == d or runtime.startswith(d + "/") for d in _SYSTEM_DIRS if os.path.isdir(root + d)):
            continue
        _mkdirs(root + runtime)
        _bind(runtime, root + runtime, read_only=True)
    _mkdirs(root + "/proc")
    _mount("proc", root + "/proc", "proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC)
    _mkdirs(root + "/dev")
    for name in _DEVICES:
        if os.path.exists("/dev/" + name):
            os.close(os.open(root + "/dev/" + name, os.O_CREAT | os.O_WRONLY, 0o666))
            _bind("/dev/" + name, root + "/dev/" + name, read_only=False)
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
                         ("stderr", "/proc/self/fd/2")):
        os.symlink(target, root + "/dev/" + name)
    for private in ("/dev/shm", "/tmp", workdir):
        _mkdirs(root + private)
        _mount("tmpfs", root + private, "tmpfs", _MS_NOSUID | _MS_NODEV, f"size={size},mode=1777")
    _libc_checked("sethostname", b"sandbox", 7)
    os.chdir(root)
    number = _SYS_PIVOT_ROOT.get(os.uname().machine)
    if number is not None:
        _libc_checked("syscall", number, b".", b".")  # the old root ends up stacked under the new one
        import ctypes

        if ctypes.CDLL(None, use_errno=True).umount2(b".", _MNT_DETACH) != 0:
            raise OSError(ctypes.get_errno(), "umount2 of the old root failed")
    else:  # no pivot_root number known: move the new root over / (it hides the old one)
        _mount(root, "/", None, _MS_MOVE)
        os.chroot(".")
    os.chdir("/")
    _mount(None, "/", None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY | _MS_NOSUID | _MS_NODEV)
    os.chdir(workdir)
    _loopback_up()
    os.umask(0o022)


def _enter_namespaces(spec: dict[str, Any]) -> None:
    """Isolate this run in new namespaces; returns in the process that runs the program.

    This process stays outside and waits for pid 1 of the new pid namespace
    (it exits with that process's code); pid 1 builds the new root, forks the
    program's process and waits for it.
    """
    _libc_call("prctl", _PR_SET_PDEATHSIG, _SIGKILL, 0, 0, 0)  # gone with the caller, as bubblewrap's --die-with-parent
    flags = _CLONE_NEWNS | _CLONE_NEWPID | _CLONE_NEWNET | _CLONE_NEWIPC | _CLONE_NEWUTS
    try:
        _libc_checked("unshare", flags)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot create mount, pid and network namespaces ({exc.strerror})") from None
    with contextlib.suppress(OSError):
        _libc_checked("unshare", _CLONE_NEWCGROUP)
    init = os.fork()
    if init:
        _exit(_wait_for(init))
    # pid 1 of the new pid namespace: it dies with the process outside
    _libc_call("prctl", _PR_SET_PDEATHSIG, _SIGKILL, 0, 0, 0)
    _build_root(spec)
    program = os.fork()
    if program:
        _exit(_wait_for(program))


def _drop_privileges(uid: int, gid: int) -> None:
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise OSError(f"could not switch to uid {uid}")


# -- values between the two processes of a checked run ----------------------------------
#
# One JSON document per line.  Plain data keeps its type through tags; anything
# else stays in the program's process and crosses as a numbered handle.  Only
# the types listed here are ever built from a message: decoding runs no code of
# the sender.

_BIG_INT_BITS = 10_000  # ints past this cross as hex (decimal text is capped at 4300 digits)
_REPLY_CAP = 256 * 1024**2
_NO_IMPORT = frozenset({"antigravity", "this", "__hello__", "__phello__", "idlelib", "tkinter", "turtle", "turtledemo",
                        "webbrowser"})
_NUMPY_KINDS = "biufcU"


def _encode(value: Any, handle: Any) -> Any:
    """Tagged JSON of ``value``; ``handle(obj)`` numbers what is not plain data."""
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return value
    if kind is int:
        return value if value.bit_length() < _BIG_INT_BITS else {"$I": hex(value)}
    if kind is float:
        return {"$f": repr(value)}
    if kind is list:
        return [_encode(v, handle) for v in value]
    if kind is tuple:
        return {"$t": [_encode(v, handle) for v in value]}
    if kind is dict:
        return {"$d": [[_encode(k, handle), _encode(v, handle)] for k, v in value.items()]}
    if kind is set:
        return {"$s": [_encode(v, handle) for v in value]}
    if kind is frozenset:
        return {"$fs": [_encode(v, handle) for v in value]}
    if kind is complex:
        return {"$c": [repr(value.real), repr(value.imag)]}
    if kind is bytes:
        return {"$b": value.hex()}
    if kind is bytearray:
        return {"$ba": bytes(value).hex()}
    if kind is range:
        return {"$r": [_encode(value.start, handle), _encode(value.stop, handle), _encode(value.step, handle)]}
    module = getattr(kind, "__module__", "")
    if module == "collections":
        import collections

        if kind is collections.OrderedDict:
            return {"$od": [[_encode(k, handle), _encode(v, handle)] for k, v in value.items()]}
        if kind is collections.Counter:
            return {"$ctr": [[_encode(k, handle), _encode(v, handle)] for k, v in value.items()]}
        if kind is collections.defaultdict:
            factory = value.default_factory
            name = factory.__name__ if factory in (int, float, str, list, dict, set, tuple, bool) else None
            return {"$dd": [name, [[_encode(k, handle), _encode(v, handle)] for k, v in value.items()]]}
        if kind is collections.deque:
            return {"$dq": [[_encode(v, handle) for v in value], value.maxlen]}
    if kind.__name__ == "Decimal" and module in ("decimal", "_decimal", "_pydecimal"):
        return {"$dec": str(value)}
    if kind.__name__ == "Fraction" and module == "fractions":
        return {"$fr": [_encode(value.numerator, handle), _encode(value.denominator, handle)]}
    if module == "numpy" and "numpy" in sys.modules:
        numpy = sys.modules["numpy"]
        if isinstance(value, numpy.generic) and value.dtype.kind in _NUMPY_KINDS:
            return {"$ng": [value.dtype.str, _encode(value.item(), handle)]}
        if kind is numpy.ndarray and value.dtype.kind in _NUMPY_KINDS:
            return {"$na": [value.dtype.str, list(value.shape), _encode(value.tolist(), handle)]}
    if kind is type(sys):
        return {"$m": [str(getattr(value, "__name__", "")), handle(value)]}
    return {"$h": handle(value)}


def _pairs(body: Any, decode: Any) -> list[tuple[Any, Any]]:
    return [(decode(k), decode(v)) for k, v in body]


def _decode(value: Any, handle: Any, module: Any) -> Any:
    """The value of tagged JSON; ``handle(n)`` and ``module(name, n)`` give handles and modules."""
    if isinstance(value, list):
        return [_decode(v, handle, module) for v in value]
    if not isinstance(value, dict):
        return value

    def dec(v: Any) -> Any:
        return _decode(v, handle, module)

    ((tag, body),) = value.items()
    if tag == "$f":
        return float(body)
    if tag == "$I":
        return int(body, 16)
    if tag == "$t":
        return tuple(dec(v) for v in body)
    if tag == "$d":
        return dict(_pairs(body, dec))
    if tag == "$s":
        return {dec(v) for v in body}
    if tag == "$fs":
        return frozenset(dec(v) for v in body)
    if tag == "$c":
        return complex(float(body[0]), float(body[1]))
    if tag == "$b":
        return bytes.fromhex(body)
    if tag == "$ba":
        return bytearray.fromhex(body)
    if tag == "$r":
        return range(dec(body[0]), dec(body[1]), dec(body[2]))
    if tag in ("$od", "$ctr", "$dd", "$dq"):
        import collections

        if tag == "$od":
            return collections.OrderedDict(_pairs(body, dec))
        if tag == "$ctr":
            return collections.Counter(dict(_pairs(body, dec)))
        if tag == "$dd":
            factories = {"int": int, "float": float, "str": str, "list": list, "dict": dict, "set": set, "tuple": tuple,
                         "bool": bool}
            return collections.defaultdict(factories.get(body[0]), _pairs(body[1], dec))
        return collections.deque([dec(v) for v in body[0]], body[1])
    if tag == "$dec":
        import decimal

        return decimal.Decimal(str(body))
    if tag == "$fr":
        import fractions

        return fractions.Fraction(dec(body[0]), dec(body[1]))
    if tag in ("$ng", "$na"):
        import numpy

        dtype = numpy.dtype(str(body[0]))
        if dtype.kind not in _NUMPY_KINDS:
            raise ValueError(f"numpy dtype {dtype} cannot be carried")
        if tag == "$ng":
            return dtype.type(dec(body[1]))
        return numpy.array(dec(body[2]), dtype=dtype).reshape([int(n) for n in body[1]])
    if tag == "$m":
        return module(str(body[0]), int(body[1]))
    if tag == "$h":
        return handle(int(body))
    raise ValueError(f"unknown tag {tag!r}")


def _builtin_base(cls: type) -> str:
    for klass in cls.__mro__:
        if getattr(klass, "__module__", None) == "builtins" and isinstance(getattr(builtins, klass.__name__, None), type):
            return klass.__name__
    return "BaseException"


def _exception_message(exc: BaseException) -> bytes:
    """The reply carrying an exception: its type name, the builtin class it derives from, str and repr
    (a prepared reply for a MemoryError, or when building the reply runs out of memory)."""
    if isinstance(exc, MemoryError):
        return _MEMORY_REPLY
    try:
        return _describe_exception(exc)
    except MemoryError:
        return _MEMORY_REPLY


def _describe_exception(exc: BaseException) -> bytes:
    name = type(exc).__name__
    try:
        base = _builtin_base(type(exc))
    except BaseException:
        base = "Exception"
    texts = []
    for render in (str, repr):
        try:
            texts.append(str(render(exc)))
        except BaseException:
            texts.append("")
    return json.dumps(["e", str(name), base, texts[0][:65536], texts[1][:65536]]).encode("ascii") + b"\n"


_SETUP_FAILED = 120
_MEMORY_REPLY = b'["e", "MemoryError", "MemoryError", "", "MemoryError()"]\n'


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[_write(fd, view):]


def _serve(namespace: dict[str, Any], requests: int, replies: int) -> None:
    """Answer the checking process's requests about ``namespace`` until it closes the pipe (the program's process)."""
    table: dict[int, Any] = {}
    numbers: dict[int, int] = {}

    def handle(obj: Any) -> int:
        number = numbers.get(id(obj))
        if number is None:
            number = len(table) + 1
            table[number] = obj
            numbers[id(obj)] = number
        return number

    def decode(v: Any) -> Any:
        return _decode(v, lambda n: table[n], lambda _name, n: table[n])

    def encode(v: Any) -> Any:
        try:
            return _encode(v, handle)
        except RecursionError:
            return {"$h": handle(v)}

    def answer(request: list[Any]) -> Any:
        op = request[0]
        if op == "get":
            value = namespace[str(request[1])]
            return {"$h": handle(value)} if request[2] else encode(value)
        if op == "eval":
            scope = namespace[str(request[1])]
            return encode(eval(str(request[2]), scope))
        target = table[int(request[1])]
        if op == "call":
            args = [decode(a) for a in request[2]]
            kwargs = {str(k): decode(v) for k, v in request[3]}
            return encode(target(*args, **kwargs))
        if op == "attr":
            return encode(getattr(target, str(request[2])))
        if op == "item":
            return encode(target[decode(request[2])])
        if op == "iter":
            return {"$h": handle(iter(target))}
        if op == "next":
            return encode(next(target))
        if op == "len":
            return len(target)
        if op == "bool":
            return bool(target)
        if op == "str":
            return str(target)
        if op == "repr":
            return repr(target)
        raise ValueError(f"unknown request {op!r}")

    reader = os.fdopen(requests, "rb", buffering=65536)
    while True:
        line = reader.readline()
        if not line:
            _exit(0)
        try:
            reply = json.dumps(["v", answer(json.loads(line))]).encode("ascii") + b"\n"
        except BaseException as exc:
            reply = _exception_message(exc)
        _write_all(replies, reply)


class _Handle:
    """An object that stays in the program's process: it can be called, read, iterated, passed back.

    Comparison is by identity (the same object of the program), never by the
    program's own ``__eq__``.
    """

    __slots__ = ("__weakref__", "_number", "_remote")

    def __init__(self, remote: Remote, number: int) -> None:
        object.__setattr__(self, "_remote", remote)
        object.__setattr__(self, "_number", number)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        r = self._remote
        return r.request("call", self._number, [r.encode(a) for a in args], [[k, r.encode(v)] for k, v in kwargs.items()])

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__") and name not in ("__name__", "__qualname__", "__doc__", "__module__"):
            raise AttributeError(name)
        return self._remote.request("attr", self._number, name)

    def __getitem__(self, key: Any) -> Any:
        return self._remote.request("item", self._number, self._remote.encode(key))

    def __iter__(self) -> Any:
        return self._remote.request("iter", self._number)

    def __next__(self) -> Any:
        return self._remote.request("next", self._number)

    def __len__(self) -> int:
        n = self._remote.request("len", self._number)
        if type(n) is not int:
            raise TypeError("len() of the program's object is not an int")
        return n

    def __bool__(self) -> bool:
        return self._remote.request("bool", self._number) is True

    def __str__(self) -> str:
        return str(self._remote.request("str", self._number))

    def __repr__(self) -> str:
        return str(self._remote.request("repr", self._number))


class _RemoteGlobals(dict):
    """Globals for checking code: a name it does not define, and no builtin has, is the program's."""

    def __init__(self, program: _Handle) -> None:
        super().__init__()
        self._program = program

    def __missing__(self, name: str) -> Any:
        if name in builtins.__dict__ or name == "_program":
            raise KeyError(name)
        try:
            return self._program[name]
        except KeyError:
            raise KeyError(name) from None


class Remote:
    """The checking process's side of the pipes to the program's process.

    A checker gets it as ``_assay_remote``: :meth:`start` waits until the
    program ran (and raises what ended it), :meth:`get` reads one of its
    globals, :meth:`namespace`/:meth:`globals` give one of its dicts,
    :meth:`evaluate` evaluates an expression in one, :meth:`report` sends the
    checker's JSON result to the caller.  The program's exceptions are raised
    here as classes of the same name deriving from the same builtin class,
    with the same ``str`` and ``repr``.
    """

    def __init__(self, requests: int, replies: int, child: int, report: Any, finish: Any) -> None:
        self._requests = requests
        self._reader = os.fdopen(replies, "rb", buffering=65536)
        self._child = child
        self._report = report
        self._finish = finish
        self._handles: dict[int, _Handle] = {}
        self._classes: dict[tuple[str, str], type] = {}
        self._started = False

    def _ended(self) -> NoReturn:
        """Report how the program's process ended (it closed its pipe) and end this run with it."""
        code = 1
        for _ in range(100):
            try:
                pid, status = os.waitpid(self._child, os.WNOHANG)
            except ChildProcessError:
                break
            if pid:
                code = _status_code(status)
                break
            time.sleep(0.01)
        self._report("ended", str(code))
        self._finish(1)
        raise AssertionError("unreachable")

    def _reply(self) -> Any:
        line = self._reader.readline(_REPLY_CAP)
        if not line:
            self._ended()
        if not line.endswith(b"\n"):
            raise OSError(f"the program's reply is larger than {_REPLY_CAP} bytes")
        try:
            reply = json.loads(line)
        except ValueError:
            raise OSError("the program sent a malformed reply") from None
        if not isinstance(reply, list) or not reply:
            raise OSError("the program sent a malformed reply")
        return reply

    def start(self) -> None:
        """Wait for the program to have run; raise what ended it, if anything did."""
        if self._started:
            return
        self._started = True
        reply = self._reply()
        if reply[0] == "e":
            raise self._exception(reply)
        if reply != ["ready"]:
            raise OSError("the program sent a malformed reply")

    def _exception(self, reply: list[Any]) -> BaseException:
        try:
            _, name, base, text, shown = reply
            name, base, text, shown = str(name), str(base), str(text), str(shown)
        except ValueError:
            return OSError("the program sent a malformed reply")
        klass = self._classes.get((name, base))
        if klass is None:
            parent = getattr(builtins, base, None)
            if not (isinstance(parent, type) and issubclass(parent, BaseException)):
                parent = Exception
            klass = type(name if name.isidentifier() else "ProgramError", (parent,),
                         {"__str__": lambda self: self.args[0] if self.args else "",
                          "__repr__": lambda self: self.args[1] if len(self.args) > 1 else "",
                          "__init__": BaseException.__init__, "__module__": "builtins"})
            self._classes[(name, base)] = klass
        return klass(text, shown)

    def request(self, *message: Any) -> Any:
        self.start()
        data = json.dumps(list(message)).encode("ascii") + b"\n"
        try:
            _write_all(self._requests, data)
        except BrokenPipeError:
            self._ended()
        reply = self._reply()
        if reply[0] == "v" and len(reply) == 2:
            return self.decode(reply[1])
        if reply[0] == "e":
            raise self._exception(reply)
        raise OSError("the program sent a malformed reply")

    def decode(self, value: Any) -> Any:
        return _decode(value, self._handle, self._module)

    def _handle(self, number: int) -> _Handle:
        found = self._handles.get(number)
        if found is None:
            found = self._handles[number] = _Handle(self, number)
        return found

    def _module(self, name: str, number: int) -> Any:
        top = name.partition(".")[0]
        if name in sys.modules or (top in sys.stdlib_module_names and top not in _NO_IMPORT):
            try:
                return importlib.import_module(name)
            except ImportError:
                pass
        return self._handle(number)

    def encode(self, value: Any) -> Any:
        def own(obj: Any) -> int:
            if isinstance(obj, _Handle) and obj._remote is self:
                return obj._number
            if type(obj) is type(sys):
                raise _ModuleArgument(obj.__name__)
            raise TypeError(f"a value of type {type(obj).__name__} cannot be passed to the program")

        try:
            return _encode(value, own)
        except _ModuleArgument as exc:  # modules cross by name
            raise TypeError(f"module {exc} cannot be passed to the program") from None

    def get(self, name: str) -> Any:
        """The program's global ``name``."""
        return self.request("get", name, False)

    def namespace(self, name: str) -> _Handle:
        """The program's global ``name`` (a dict it ran code in), as a handle."""
        result: _Handle = self.request("get", name, True)
        return result

    def globals(self, name: str) -> _RemoteGlobals:
        """Globals for checking code whose unknown names are read from the program's dict ``name``."""
        return _RemoteGlobals(self.namespace(name))

    def evaluate(self, name: str, source: str) -> Any:
        """The value of the expression ``source`` evaluated in the program's dict ``name``."""
        return self.request("eval", name, source)

    def report(self, value: Any) -> None:
        """Send the checker's result (JSON) to the caller; the last one counts."""
        self._report("data", json.dumps(value))


class _ModuleArgument(Exception):
    pass


def _read_exact(fd: int, size: int) -> bytes:
    chunks: list[bytes] = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            raise OSError("the sandbox's input ended early")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _read_to_end(fd: int) -> bytes:
    chunks: list[bytes] = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks)


def _close_other_fds(keep: tuple[int, ...]) -> None:
    """Close every file descriptor above 2 but ``keep`` (nothing else is inherited by the program)."""
    low = 3
    for fd in sorted(keep):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 1 << 16)


def _restrict(header: dict[str, Any], uid_key: str) -> None:
    """Limits, the uid under ``uid_key`` and no new privileges, for the calling process."""
    _apply_limits({k: int(v) for k, v in header["limits"].items()})
    uid = header.get(uid_key)
    if uid is not None and os.geteuid() == 0:
        _drop_privileges(int(uid), int(uid))
    _libc_call("prctl", 38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS


def main() -> None:
    channel = int(sys.argv[1])  # the result channel's file descriptor
    header = json.loads(_read_exact(0, int(_read_exact(0, 16))))
    source_bytes = _read_exact(0, int(header["program_size"]))
    checker_size = header.get("checker_size")
    nonce = header["nonce"].encode("ascii")
    main_pid: int | None = None  # the process that reports; until then, trusted code reports
    stdout = sys.stdout
    stderr = sys.stderr

    def report(kind: str, text: str = "") -> None:
        if main_pid is not None and _getpid() != main_pid:
            return
        data = text.encode("utf-8", "replace")
        payload = (data if kind == "data" else data[:8192]).hex()
        with contextlib.suppress(OSError):
            _write(channel, nonce + b" " + kind.encode("ascii") + b" " + payload.encode("ascii") + b"\n")

    def finish(code: int) -> None:
        for stream in (stdout, stderr):
            with contextlib.suppress(BaseException):
                stream.flush()
        _exit(code)

    checker_source = ""
    remote: Remote | None = None
    try:
        if header.get("namespaces"):
            _enter_namespaces(header["namespaces"])
        if header.get("unshare_net") and os.geteuid() == 0 and _libc_call("unshare", 0x40000000) != 0:
            raise OSError("unshare(CLONE_NEWNET) failed")  # 0x40000000 is CLONE_NEWNET
        devnull = os.open(os.devnull, os.O_RDONLY)
        if checker_size is not None:
            # The program runs in a child under its own uid; this process, under
            # another, reads the checker only now (the child never holds it),
            # runs it and alone holds the result channel.
            requests_r, requests_w = os.pipe()
            replies_r, replies_w = os.pipe()
            setup_r, setup_w = os.pipe()
            child = os.fork()
            if child == 0:
                try:
                    os.dup2(devnull, 0)
                    _close_other_fds((requests_r, replies_w, setup_w))
                    _restrict(header, "uid")
                except BaseException as exc:
                    with contextlib.suppress(BaseException):
                        _write_all(setup_w, f"{type(exc).__name__}: {exc}".encode("utf-8", "replace"))
                    _exit(_SETUP_FAILED)
                os.close(setup_w)
                _run_program(header, source_bytes, requests_r, replies_w)
                _exit(0)
            for fd in (requests_r, replies_w, setup_w):
                os.close(fd)
            checker_source = _read_exact(0, int(checker_size)).decode("utf-8", "replace")
            remote = Remote(requests_w, replies_r, child, report, finish)
            os.dup2(devnull, 0)
            os.close(devnull)
            problem = _read_to_end(setup_r)
            if problem:
                raise OSError(f"the program's process could not be set up: {problem.decode('utf-8', 'replace')}")
            _restrict(header, "checker_uid")
            _libc_call("prctl", 4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0: no ptrace, no /proc/<pid>/mem or fd by the same uid
        else:
            os.dup2(devnull, 0)
            os.close(devnull)
            _restrict(header, "uid")
        filename = os.path.abspath(header.get("filename", "main.py"))
        if remote is None:
            _write_source(filename, source_bytes)
    except BaseException as exc:
        report("sandbox-error", f"{type(exc).__name__}: {exc}")
        finish(120)
        return

    main_pid = _getpid()
    report("started")
    namespace: dict[str, object] = {"__name__": "__main__", "__builtins__": builtins}
    if remote is None:
        sys.argv[:] = [filename]
        namespace["__file__"] = filename
        source = source_bytes.decode("utf-8", "replace")
        origin = filename
    else:
        sys.argv[:] = ["checker"]
        namespace["_assay_remote"] = remote
        source = checker_source
        origin = "<checker>"
    memory_record = nonce + b" memory " + b"\n"
    try:
        code = compile(source, origin, "exec")
        exec(code, namespace)
    except SystemExit as exc:
        report("exit", repr(exc.code))
        finish(1)
    except MemoryError:
        if _getpid() == main_pid:
            with contextlib.suppress(OSError):
                _write(channel, memory_record)
        finish(1)
    except BaseException as exc:
        try:
            tb = exc.__traceback__
            lines = _format_exception(type(exc), exc, tb.tb_next if tb is not None else None)
            tail = "".join(lines[-6:])
        except BaseException:
            tail = ""
        try:
            message = f"{type(exc).__name__}: {exc}"
        except BaseException:
            message = type(exc).__name__
        report("error", message + "\n" + tail)
        finish(1)
    else:
        report("passed")
        finish(0)


def _write_source(filename: str, source_bytes: bytes) -> None:
    try:
        with open(filename, "wb") as fh:  # so that tracebacks show lines
            fh.write(source_bytes)
    except OSError:
        pass


def _run_program(header: dict[str, Any], source_bytes: bytes, requests: int, replies: int) -> None:
    """The program's process of a checked run: run it, say so (or how it failed), then answer requests."""
    filename = os.path.abspath(header.get("filename", "main.py"))
    _write_source(filename, source_bytes)
    sys.argv[:] = [filename]
    namespace: dict[str, Any] = {"__name__": "__main__", "__file__": filename, "__builtins__": builtins}
    try:
        exec(compile(source_bytes.decode("utf-8", "replace"), filename, "exec"), namespace)
    except BaseException as exc:
        _write_all(replies, _exception_message(exc))
        _exit(1)
    _write_all(replies, b'["ready"]\n')
    _serve(namespace, requests, replies)


if __name__ == "__main__":
    main()
