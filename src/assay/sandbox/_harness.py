"""In-sandbox harness: the first (trusted) code of every sandboxed run.

Run as a script by the sandboxed interpreter, never imported by assay.  It
reads a one-line JSON header and the program source from stdin, applies the
resource limits, drops to the run's uid, runs the program in ``__main__`` and
reports how it ended on the result channel (a pipe whose file descriptor is
its first argument), each record prefixed with the run's token.  Only the process that started the program
reports, so forked children cannot speak for it.

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
pass.  Code running in the same process could still find the token in memory
by introspection: the harness defends against accidents and crude tricks, not
against a program written to defeat this harness.
"""

from __future__ import annotations

import builtins
import contextlib
import json
import os
import resource
import sys
import traceback
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

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


def main() -> None:
    channel = int(sys.argv[1])  # the result channel's file descriptor
    raw = sys.stdin.buffer.read()
    header_line, _, source_bytes = raw.partition(b"\n")
    header = json.loads(header_line)
    nonce = header["nonce"].encode("ascii")
    main_pid: int | None = None  # the process that runs the program; until then, trusted code reports
    stdout = sys.stdout
    stderr = sys.stderr

    def report(kind: str, text: str = "") -> None:
        if main_pid is not None and _getpid() != main_pid:
            return
        payload = text.encode("utf-8", "replace")[:8192].hex()
        with contextlib.suppress(OSError):
            _write(channel, nonce + b" " + kind.encode("ascii") + b" " + payload.encode("ascii") + b"\n")

    def finish(code: int) -> None:
        for stream in (stdout, stderr):
            with contextlib.suppress(BaseException):
                stream.flush()
        _exit(code)

    try:
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        if header.get("namespaces"):
            _enter_namespaces(header["namespaces"])
        if header.get("unshare_net") and os.geteuid() == 0 and _libc_call("unshare", 0x40000000) != 0:
            raise OSError("unshare(CLONE_NEWNET) failed")  # 0x40000000 is CLONE_NEWNET
        _apply_limits({k: int(v) for k, v in header["limits"].items()})
        uid = header.get("uid")
        if uid is not None and os.geteuid() == 0:
            _drop_privileges(int(uid), int(header.get("gid", uid)))
        _libc_call("prctl", 38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS
        filename = os.path.abspath(header.get("filename", "main.py"))
        source = source_bytes.decode("utf-8", "replace")
        try:
            with open(filename, "w", encoding="utf-8") as fh:  # so that tracebacks show lines
                fh.write(source)
        except OSError:
            pass
    except BaseException as exc:
        report("sandbox-error", f"{type(exc).__name__}: {exc}")
        finish(120)
        return

    sys.argv[:] = [filename]
    main_pid = _getpid()
    report("started")
    namespace: dict[str, object] = {"__name__": "__main__", "__file__": filename, "__builtins__": builtins}
    memory_record = nonce + b" memory " + b"\n"
    try:
        code = compile(source, filename, "exec")
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


if __name__ == "__main__":
    main()
