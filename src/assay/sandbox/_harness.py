"""In-sandbox harness: the first (trusted) code of every sandboxed run.

Run as a script by the sandboxed interpreter, never imported by assay.  It
reads a one-line JSON header and the program source from stdin, applies the
resource limits, drops to the run's uid, runs the program in ``__main__`` and
reports how it ended on the result channel (a pipe whose file descriptor is
its first argument), each record prefixed with the run's token.  Only the process that started the program
reports, so forked children cannot speak for it.

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
    main_pid = _getpid()
    stdout = sys.stdout
    stderr = sys.stderr

    def report(kind: str, text: str = "") -> None:
        if _getpid() != main_pid:
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
