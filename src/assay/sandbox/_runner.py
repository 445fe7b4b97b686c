"""Running untrusted Python programs: one process tree per program, limits, isolation.

Each run starts a fresh interpreter in its own process group, isolated in
Linux namespaces by one of two backends:

* ``bwrap``: bubblewrap, when it is installed and works;
* ``unshare``: otherwise the harness creates the namespaces itself with the
  ``unshare(2)`` system call and pivots into a minimal root of its own (see
  ``_harness.py``) — the same guarantees without bubblewrap: no network, a
  private ``/tmp`` and working directory, no view of the caller's files.

Both need root (each run gets a uid of its own).  Setting the environment
variable ``ASSAY_SANDBOX_NO_BWRAP=1`` makes the probe ignore bubblewrap, so the
second backend can be tested on a machine that has both.

The harness applies the limits, switches to a uid reserved for the run's
worker slot and runs the program; the parent reads stdout, stderr and the
result channel with a size cap, kills the whole tree at the wall-clock
deadline and classifies the ending.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from assay._threads import map_threads
from assay.sandbox._types import Isolation, Limits, Outcome, RunResult

logger = logging.getLogger(__name__)

__all__ = [
    "NO_BWRAP_ENV",
    "Sandbox",
    "bwrap_available",
    "isolation_unavailable",
    "namespaces_available",
    "run_program",
    "unshare_available",
]

IsolationMode = Literal["auto", "namespaces", "limits-only"]
Backend = Literal["bwrap", "unshare"]

#: environment variable: when set (not empty, not ``0``), bubblewrap is ignored
NO_BWRAP_ENV = "ASSAY_SANDBOX_NO_BWRAP"

_HARNESS = Path(__file__).with_name("_harness.py")
_HARNESS_IN_SANDBOX = "/opt/assay/harness.py"
_WORKDIR = "/sandbox"
_CHANNEL_CAP = 64 * 1024**2  # only trusted code writes the channel; a checker's result can be large
_SETUP_FAILED = 120

# uid of a run = _UID_BASE + pid * _UID_SLOTS + slot: distinct for every live
# process and worker slot, so RLIMIT_NPROC counts one run's processes only.
_UID_BASE = 1_000_000
_UID_SLOTS = 256
# the checking process of a checked run has the run's uid + this offset: the
# program cannot signal, trace or read a process of another uid
_CHECKER_UID_OFFSET = 1 << 31

_slot_lock = threading.Lock()
_free_slots: list[int] = list(range(_UID_SLOTS))


def _acquire_slot() -> int:
    with _slot_lock:
        if not _free_slots:
            raise RuntimeError("more than 256 concurrent sandbox runs in one process")
        return _free_slots.pop(0)


def _release_slot(slot: int) -> None:
    with _slot_lock:
        _free_slots.append(slot)
        _free_slots.sort()


def _slot_uid(slot: int) -> int:
    return _UID_BASE + os.getpid() * _UID_SLOTS + slot


def _checker_uid(uid: int | None) -> int | None:
    return None if uid is None else uid + _CHECKER_UID_OFFSET


def _interpreter() -> tuple[str, list[str]]:
    """The real (non-venv) interpreter and the directories it needs."""
    exe = os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)
    roots = {os.path.realpath(sys.base_prefix), os.path.realpath(sys.base_exec_prefix)}
    return exe, sorted(roots)


def sandbox_python() -> str:
    """The Python interpreter the sandbox runs programs with: the base interpreter, not a virtual environment's."""
    return _interpreter()[0]


def missing_modules(names: Sequence[str]) -> list[str]:
    """Those of the top-level module ``names`` the sandbox's Python cannot import (not installed for it).

    The programs run by the base interpreter (not a virtual environment's), with
    its own ``site-packages``; a module installed only in this process's
    environment is missing there.  Each name is looked up without being
    imported; the answers are kept for the life of the process.

    Example:
        >>> missing_modules(['json', 'no_such_module_here'])
        ['no_such_module_here']
    """
    wanted = sorted({str(n).split(".")[0] for n in names if str(n).strip()} - set(_module_answers))
    if wanted:
        exe, _ = _interpreter()
        probe = (
            "import importlib.util, json, sys\n"
            "print(json.dumps([n for n in json.loads(sys.argv[1]) if importlib.util.find_spec(n) is None]))"
        )
        proc = subprocess.run([exe, "-c", probe, json.dumps(wanted)], capture_output=True, text=True, timeout=60,
                              env=_program_env(tempfile.gettempdir()), check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"cannot ask the sandbox's Python {exe} which modules it has: {proc.stderr.strip()[-500:]}")
        absent = set(json.loads(proc.stdout))
        for name in wanted:
            _module_answers[name] = name not in absent
    return sorted({str(n).split(".")[0] for n in names if str(n).strip() and not _module_answers[str(n).split(".")[0]]})


_module_answers: dict[str, bool] = {}


_probe_lock = threading.Lock()
_probe_result: dict[tuple[str, bool], str | None] = {}


def _bwrap_hidden() -> bool:
    return os.environ.get(NO_BWRAP_ENV, "").strip() not in ("", "0")


def bwrap_available() -> str | None:
    """Why bubblewrap cannot be used here, or ``None`` when it can (cached).

    ``ASSAY_SANDBOX_NO_BWRAP=1`` in the environment hides it.

    Example:
        >>> reason = bwrap_available()
        >>> reason is None or isinstance(reason, str)
        True
    """
    hidden = _bwrap_hidden()
    with _probe_lock:
        key = ("bwrap", hidden)
        if key in _probe_result:
            return _probe_result[key]
        reason: str | None
        exe = shutil.which("bwrap")
        if hidden:
            reason = f"bubblewrap is hidden by {NO_BWRAP_ENV}"
        elif exe is None:
            reason = "bubblewrap is not installed"
        elif os.geteuid() != 0:
            reason = "the sandbox needs root to give each run its own uid"
        else:
            python, roots = _interpreter()
            argv = _bwrap_argv(exe, python, roots, Limits(), probe=True)
            try:
                proc = subprocess.run(argv, capture_output=True, timeout=30, env={}, check=False)
            except (OSError, subprocess.SubprocessError) as exc:
                reason = f"bwrap could not start: {exc}"
            else:
                if proc.returncode == 0 and proc.stdout.strip() == b"ok":
                    reason = None
                else:
                    err = proc.stderr.decode("utf-8", "replace").strip()[-300:]
                    reason = f"bwrap failed (exit {proc.returncode}): {err}"
        _probe_result[key] = reason
        return reason


def unshare_available() -> str | None:
    """Why namespaces cannot be created without bubblewrap (``unshare(2)``), or ``None`` (cached).

    The probe runs a program through the whole backend: namespaces, the new
    root, the run's own uid.

    Example:
        >>> reason = unshare_available()
        >>> reason is None or isinstance(reason, str)
        True
    """
    with _probe_lock:
        key = ("unshare", False)
        if key in _probe_result:
            return _probe_result[key]
        reason: str | None
        if not sys.platform.startswith("linux"):
            reason = "Linux namespaces need Linux"
        elif os.geteuid() != 0:
            reason = "creating namespaces needs root (and root gives each run its own uid)"
        else:
            reason = _probe_unshare()
        _probe_result[key] = reason
        return reason


def _probe_unshare() -> str | None:
    slot = _acquire_slot()
    try:
        nonce = secrets.token_hex(16)
        python, roots = _interpreter()
        newroot = tempfile.mkdtemp(prefix="assay-sandbox-root-")
        header = _header(nonce, _slot_uid(slot), Limits(timeout=30), namespaces=_namespace_spec(newroot, roots, Limits()))
        chan_r, chan_w = os.pipe()
        try:
            proc = subprocess.run(
                [python, "-s", "-B", "-P", str(_HARNESS), str(chan_w)],
                input=_stdin_data(header, "print('ok')"),
                capture_output=True,
                timeout=30,
                env=_program_env(_WORKDIR),
                cwd="/",
                pass_fds=(chan_w,),
                check=False,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            return f"the interpreter could not start: {exc}"
        finally:
            os.close(chan_w)
            channel = _read_all(chan_r)
            os.close(chan_r)
            with contextlib.suppress(OSError):
                os.rmdir(newroot)
            _wait_uid_gone(_slot_uid(slot))
        res = _classify(channel, nonce, proc.returncode, False, Limits(), True, 0.0)
        if res.outcome is Outcome.PASSED and proc.stdout.strip() == b"ok":
            return None
        detail = res.message or proc.stderr.decode("utf-8", "replace").strip()[-300:]
        return f"unshare(2) failed: {detail}"
    finally:
        _release_slot(slot)


def _read_all(fd: int) -> bytes:
    chunks: list[bytes] = []
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def namespaces_available() -> tuple[Backend | None, str | None]:
    """The namespace backend usable here (``'bwrap'``, else ``'unshare'``) and ``None``, or ``None`` and why not.

    Example:
        >>> backend, reason = namespaces_available()
        >>> (backend in ('bwrap', 'unshare')) != (reason is not None)
        True
    """
    bwrap = bwrap_available()
    if bwrap is None:
        return "bwrap", None
    unshare = unshare_available()
    if unshare is None:
        return "unshare", None
    how = (
        "install bubblewrap (apt-get install bubblewrap, dnf install bubblewrap) and run as root, or run as root "
        "where Linux namespaces may be created (a container started with --privileged, or with --cap-add SYS_ADMIN "
        "and a seccomp/AppArmor profile that allows unshare and mount)"
    )
    return None, f"no namespace sandbox can be created here — bubblewrap: {bwrap}; without it: {unshare}. To fix: {how}"


def isolation_unavailable(isolation: IsolationMode = "namespaces") -> str | None:
    """Why a :class:`Sandbox` with this ``isolation`` cannot run programs here, or ``None`` when it can.

    Tests that execute code skip with this reason.

    Example:
        >>> reason = isolation_unavailable("auto")
        >>> reason is None or isinstance(reason, str)
        True
    """
    try:
        Sandbox(isolation=isolation)
    except RuntimeError as exc:
        return str(exc)
    return None


def _bwrap_argv(exe: str, python: str, roots: Sequence[str], limits: Limits, *, probe: bool = False) -> list[str]:
    argv = [
        exe,
        "--unshare-ipc",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--hostname",
        "sandbox",
        "--cap-drop",
        "ALL",
        "--cap-add",
        "CAP_SETUID",
        "--cap-add",
        "CAP_SETGID",
        "--ro-bind",
        "/usr",
        "/usr",
    ]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            argv += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            argv += ["--ro-bind", top, top]
    made = {"/", "/usr", "/tmp", "/proc", "/dev", "/opt", "/opt/assay", _WORKDIR}
    argv += ["--proc", "/proc", "--dev", "/dev", "--perms", "0755", "--dir", "/opt", "--perms", "0755", "--dir", "/opt/assay"]
    for root in roots:
        if root == "/usr" or root.startswith("/usr/"):
            continue
        parts = Path(root).parts
        for i in range(2, len(parts)):
            parent = str(Path(*parts[:i]))
            if parent not in made:
                argv += ["--perms", "0755", "--dir", parent]
                made.add(parent)
        argv += ["--ro-bind", root, root]
    argv += ["--ro-bind", str(_HARNESS), _HARNESS_IN_SANDBOX]
    size = str(limits.tmpfs)
    argv += ["--perms", "1777", "--size", size, "--tmpfs", "/tmp"]
    argv += ["--perms", "1777", "--size", size, "--tmpfs", _WORKDIR, "--chdir", _WORKDIR]
    argv += ["--clearenv"]
    for key, value in _program_env(_WORKDIR).items():
        argv += ["--setenv", key, value]
    if probe:
        argv += ["--", python, "-c", "print('ok')"]
    else:
        argv += ["--", python, "-s", "-B", "-P", _HARNESS_IN_SANDBOX]
    return argv


_REPLACED_DIRS = ("/tmp", "/proc", "/dev", _WORKDIR, "/opt/assay")


def _checked_root(root: str) -> str:
    """``root`` as a folder the sandbox can show read-only at its own path, else ``ValueError``."""
    path = os.path.normpath(str(root))
    if not os.path.isabs(path) or path == "/":
        raise ValueError(f"sandbox extra root {root!r}: must be an absolute path to a folder other than /")
    for replaced in _REPLACED_DIRS:
        if path == replaced or path.startswith(replaced + "/"):
            raise ValueError(f"sandbox extra root {root!r}: the sandbox replaces {replaced} with a folder of its own")
    if not os.path.isdir(path):
        raise ValueError(f"sandbox extra root {root!r}: no such folder")
    return path


def _world_readable(path: str) -> bool:
    """True when every directory from ``/`` down to ``path`` can be entered by anyone."""
    p = Path(path)
    for d in [p, *p.parents]:
        try:
            if not d.stat().st_mode & 0o001:
                return False
        except OSError:
            return False
    return True


def program_environment(home: str) -> dict[str, str]:
    """The whole environment the sandbox gives its programs (nothing of the caller's), with ``HOME`` set to ``home``.

    A check made outside the sandbox of what a program will find inside it (a
    toolchain's module) runs with this environment, so that the caller's
    ``LUA_PATH``, ``PERL5LIB`` and the like do not change its answer.

    Example:
        >>> program_environment('/tmp/x')['PATH']
        '/usr/local/bin:/usr/bin:/bin'
    """
    return _program_env(home)


def _program_env(home: str) -> dict[str, str]:
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": home,
        "TMPDIR": "/tmp" if home == _WORKDIR else home,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def _header(
    nonce: str,
    uid: int | None,
    limits: Limits,
    *,
    namespaces: dict[str, Any] | None = None,
    unshare_net: bool = False,
) -> dict[str, Any]:
    """The harness's instructions for one run."""
    header: dict[str, Any] = {
        "nonce": nonce,
        "uid": uid,
        "checker_uid": _checker_uid(uid),
        "filename": "main.py",
        "unshare_net": unshare_net,
        "limits": {
            "cpu": limits.effective_cpu_time,
            "as": limits.memory,
            "nproc": limits.processes,
            "fsize": limits.file_size,
            "nofile": limits.open_files,
            "core": 0,
        },
    }
    if namespaces is not None:
        header["namespaces"] = namespaces
    return header


def _namespace_spec(newroot: str, roots: Sequence[str], limits: Limits) -> dict[str, Any]:
    """What the harness needs to build a run's root: an empty folder to mount it on, the runtime, sizes."""
    return {"root": newroot, "runtime": list(roots), "tmpfs": limits.tmpfs, "workdir": _WORKDIR}


def _stdin_data(header: dict[str, Any], program: str, checker: str | None = None) -> bytes:
    """The harness's input: the header's length (16 digits), the header, the program, the checker."""
    source = program.encode("utf-8", "replace")
    checking = None if checker is None else checker.encode("utf-8", "replace")
    header = {**header, "program_size": len(source), "checker_size": None if checking is None else len(checking)}
    head = json.dumps(header).encode("ascii")
    return b"%016d" % len(head) + head + source + (checking or b"")


@dataclass
class _Capture:
    keep: int
    data: bytearray
    total: int = 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.keep - len(self.data)
        if room > 0:
            self.data += chunk[:room]

    def text(self) -> str:
        return bytes(self.data).decode("utf-8", "replace")


class Sandbox:
    """Runs untrusted Python programs, each in its own isolated process tree.

    Args:
        limits: the resource limits of every run.
        isolation: ``'auto'`` (namespaces — bubblewrap, else ``unshare(2)`` —
            when they can be created; otherwise limits only with a warning
            for a non-root process, and a :class:`RuntimeError` naming what
            is missing for root), ``'namespaces'`` (fail when no namespace
            backend works) or ``'limits-only'``.
        max_workers: runs in parallel in :meth:`run_many` (default: the
            number of cores).
        extra_roots: more host folders the programs see, read-only at the
            same path (besides ``/usr``, ``/bin``, ``/lib``… and the Python
            runtime): a toolchain's files outside ``/usr``, such as a JDK's
            configuration under ``/etc``.  Each must be an absolute path to an
            existing folder, not ``/`` nor under ``/tmp``, ``/proc``, ``/dev`` or
            the working directory (which the sandbox replaces with its own).

    Attributes:
        isolation: how runs are isolated (:class:`Isolation`).
        backend: ``'bwrap'`` or ``'unshare'`` with namespaces, else ``None``.

    Example:
        >>> sb = Sandbox(Limits(timeout=5))
        >>> sb.run("assert 1 + 1 == 2").outcome
        <Outcome.PASSED: 'passed'>
        >>> sb.run("assert 1 + 1 == 3").outcome
        <Outcome.FAILED: 'failed'>
    """

    def __init__(
        self,
        limits: Limits | None = None,
        *,
        isolation: IsolationMode = "auto",
        max_workers: int | None = None,
        extra_roots: Sequence[str] = (),
    ) -> None:
        self.limits = limits or Limits()
        if isolation not in ("auto", "namespaces", "limits-only"):
            raise ValueError(f"isolation must be 'auto', 'namespaces' or 'limits-only', got {isolation!r}")
        self.max_workers = max(1, max_workers or os.cpu_count() or 1)
        self._python, self._roots = _interpreter()
        extra = [_checked_root(root) for root in extra_roots]
        self._roots = sorted(set(self._roots) | set(extra))
        self._drop_uid = os.geteuid() == 0
        self.backend: Backend | None = None
        reason: str | None
        if isolation == "limits-only":
            reason = "limits-only isolation was requested"
        else:
            self.backend, reason = namespaces_available()
        if self.backend is not None:
            self.isolation = Isolation.NAMESPACES
        elif isolation == "namespaces":
            raise RuntimeError(f"namespace isolation is not available: {reason}")
        elif isolation == "auto" and self._drop_uid:
            # as root, programs without namespaces would share this machine's files and network
            raise RuntimeError(f"cannot run programs in a sandbox: {reason}")
        else:
            self.isolation = Isolation.LIMITS_ONLY
            if isolation == "auto":
                logger.warning("sandbox runs with resource limits only (%s): programs can see this machine's files", reason)
        notes = {
            "bwrap": "bubblewrap namespaces, separate uid, resource limits",
            "unshare": "unshare(2) namespaces and a private root, separate uid, resource limits",
        }
        self.isolation_note = notes[self.backend] if self.backend is not None else str(reason)
        if self.isolation is Isolation.LIMITS_ONLY and self._drop_uid and not all(map(_world_readable, self._roots)):
            # Running untrusted code as root with limits only would let it kill
            # or read anything; another uid cannot load this Python runtime.
            raise RuntimeError(
                f"cannot sandbox without namespaces here ({reason}): the process is root and the Python runtime "
                f"under {self._roots[0]} is not readable by other users, so programs cannot be run as a separate uid"
            )
        self._bwrap = shutil.which("bwrap")
        self._live: set[subprocess.Popen[bytes]] = set()  # the runs' processes, killed by stop()
        self._live_lock = threading.Lock()
        self._halt = threading.Event()

    # -- public API ---------------------------------------------------------
    def run(self, program: str, *, checker: str | None = None, limits: Limits | None = None) -> RunResult:
        """Run one program and return how it ended.

        Without ``checker`` the run passes when the program reaches its last
        line.  With ``checker`` (trusted code) the program runs in a process of
        its own and the checker in another, under another uid, which reaches
        the program only through :class:`Remote <assay.sandbox._harness.Remote>`
        (``_assay_remote`` in the checker: plain data by value, anything else
        as handles); the run passes when the checker reaches its last line, and
        ``data`` is what it reported.  The program can neither reach the
        checker's memory, signal it nor write the result channel, so it cannot
        forge a pass; when its process ends before the checker is done, the run
        ends as that process ended (an exit is a failure, a signal a kill).
        """
        if self._halt.is_set():
            return self._stopped()
        slot = _acquire_slot()
        try:
            return self._run(program, limits or self.limits, slot, checker)
        finally:
            _release_slot(slot)

    def stop(self) -> None:
        """Kill the programs running now, from another thread (the caller was interrupted:
        :func:`assay._threads.map_threads`), as a deadline kills them, and start none until :meth:`resume`: each
        run ends at once (``SANDBOX_ERROR``, "stopped")."""
        with self._live_lock:
            self._halt.set()
            live = list(self._live)
        for proc in live:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)  # its thread kills what is left and reaps it

    def resume(self) -> None:
        """Run programs again after :meth:`stop`."""
        self._halt.clear()

    def _stopped(self) -> RunResult:
        return RunResult(Outcome.SANDBOX_ERROR, "stopped: the sandbox was stopped (the run was interrupted)",
                         isolation=self.isolation)

    def run_many(
        self,
        programs: Iterable[str],
        *,
        checkers: Sequence[str | None] | None = None,
        limits: Limits | None = None,
        on_result: Callable[[int, RunResult], None] | None = None,
    ) -> list[RunResult]:
        """Run many programs (each with its checker, when ``checkers`` is given) on a bounded pool; results in input order.

        ``on_result(index, result)`` is called as each program ends, but not once the sandbox is stopped (the run
        interrupted): the programs it killed then are no results to keep."""
        items = list(programs)
        checking = list(checkers) if checkers is not None else [None] * len(items)
        if len(checking) != len(items):
            raise ValueError(f"{len(items)} programs but {len(checking)} checkers")
        results: list[RunResult | None] = [None] * len(items)

        def one(i: int) -> None:
            try:
                res = self.run(items[i], checker=checking[i], limits=limits)
            except Exception as exc:  # a sandbox bug must not lose the other samples
                logger.exception("sandbox run %d failed", i)
                res = RunResult(Outcome.SANDBOX_ERROR, f"{type(exc).__name__}: {exc}", isolation=self.isolation)
            results[i] = res
            if on_result is not None and not self._halt.is_set():  # a program the stop killed is no result to keep
                on_result(i, res)

        map_threads(one, range(len(items)), workers=self.max_workers, name="sandbox", stoppable=self)
        return [r for r in results if r is not None]

    # -- one run ---------------------------------------------------------------
    def _run(self, program: str, limits: Limits, slot: int, checker: str | None = None) -> RunResult:
        nonce = secrets.token_hex(16)
        uid = _slot_uid(slot) if self._drop_uid else None
        workdir: str | None = None
        newroot: str | None = None
        namespaces: dict[str, Any] | None = None
        if self.backend == "bwrap":
            assert self._bwrap is not None
            argv = _bwrap_argv(self._bwrap, self._python, self._roots, limits)
            env: dict[str, str] = {}
        elif self.backend == "unshare":
            newroot = tempfile.mkdtemp(prefix="assay-sandbox-root-")
            namespaces = _namespace_spec(newroot, self._roots, limits)
            argv = [self._python, "-s", "-B", "-P", str(_HARNESS)]
            env = _program_env(_WORKDIR)
        else:
            workdir = tempfile.mkdtemp(prefix="assay-sandbox-")
            if uid is not None:
                os.chown(workdir, uid, uid)
            argv = [self._python, "-s", "-B", "-P", str(_HARNESS)]
            env = _program_env(workdir)
        header = _header(nonce, uid, limits, namespaces=namespaces, unshare_net=self.isolation is Isolation.LIMITS_ONLY)
        try:
            return self._execute(argv, env, workdir or ("/" if newroot else None), _stdin_data(header, program, checker),
                                 nonce, limits, uid)
        finally:
            if workdir is not None:
                shutil.rmtree(workdir, ignore_errors=True)
            if newroot is not None:
                with contextlib.suppress(OSError):
                    os.rmdir(newroot)  # the run's mounts lived in its own namespace: the folder is empty

    def _execute(
        self,
        argv: list[str],
        env: dict[str, str],
        workdir: str | None,
        stdin_data: bytes,
        nonce: str,
        limits: Limits,
        uid: int | None,
    ) -> RunResult:
        chan_r, chan_w = os.pipe()
        start = time.monotonic()
        try:
            proc = subprocess.Popen(
                [*argv, str(chan_w)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=workdir,
                env=env,
                start_new_session=True,
                pass_fds=(chan_w,),
            )
        except OSError as exc:
            os.close(chan_r)
            os.close(chan_w)
            return RunResult(Outcome.SANDBOX_ERROR, f"could not start the sandbox: {exc}", isolation=self.isolation)
        os.close(chan_w)
        with self._live_lock:
            self._live.add(proc)
            stopped = self._halt.is_set()
        if stopped:  # stopped while it started: killed as stop() kills the others
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        out = _Capture(limits.output, bytearray())
        err = _Capture(limits.output, bytearray())
        chan = _Capture(_CHANNEL_CAP, bytearray())
        timed_out = False
        try:
            timed_out = self._pump(proc, stdin_data, chan_r, (out, err, chan), start + limits.timeout, uid)
        finally:
            try:
                self._kill_tree(proc, uid)
            finally:
                with self._live_lock:
                    self._live.discard(proc)
                os.close(chan_r)
        if self._halt.is_set():
            return self._stopped()
        duration = time.monotonic() - start
        code = proc.returncode
        wrapped = self.isolation is Isolation.NAMESPACES
        result = _classify(chan.data, nonce, code, timed_out, limits, wrapped, duration)
        result.stdout, result.stderr = out.text(), err.text()
        result.stdout_bytes, result.stderr_bytes = out.total, err.total
        result.duration = duration
        result.isolation = self.isolation
        if out.total > limits.output or err.total > limits.output:
            result.extra["truncated"] = True
        if result.outcome is Outcome.SANDBOX_ERROR and result.stderr:
            result.message += f" (stderr: {result.stderr.strip()[-500:]})"
        return result

    def _pump(
        self,
        proc: subprocess.Popen[bytes],
        stdin_data: bytes,
        chan_r: int,
        captures: tuple[_Capture, _Capture, _Capture],
        deadline: float,
        uid: int | None,
    ) -> bool:
        """Feed stdin, read the three outputs until they close; True on timeout."""
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        sel = selectors.DefaultSelector()
        pending = memoryview(stdin_data)
        os.set_blocking(proc.stdin.fileno(), False)
        sel.register(proc.stdin.fileno(), selectors.EVENT_WRITE, "in")
        out, err, chan = captures
        sel.register(proc.stdout.fileno(), selectors.EVENT_READ, out)
        sel.register(proc.stderr.fileno(), selectors.EVENT_READ, err)
        sel.register(chan_r, selectors.EVENT_READ, chan)
        open_readers = 3
        exited_at: float | None = None
        killed_on_halt = False
        try:
            while open_readers:
                now = time.monotonic()
                if now >= deadline:
                    return True
                if self._halt.is_set() and not killed_on_halt:
                    # stopped: killed here too, whatever stop()'s own kill met (its process group may have been
                    # killed while the run was still being set up); the pipes close once it is gone
                    killed_on_halt = True
                    self._kill_tree(proc, uid)
                if exited_at is None and proc.poll() is not None:
                    exited_at = now
                if exited_at is not None and now - exited_at > 0.5:
                    # the main process is gone but something still holds a pipe
                    self._kill_tree(proc, uid)
                    if now - exited_at > 3.0:
                        break
                for key, _ in sel.select(timeout=min(0.25, deadline - now)):
                    if key.data == "in":
                        try:
                            n = os.write(key.fd, pending[:65536])
                        except (BrokenPipeError, OSError):
                            n = len(pending)
                        pending = pending[n:]
                        if not pending:
                            sel.unregister(key.fd)
                            proc.stdin.close()
                        continue
                    chunk = os.read(key.fd, 65536)
                    if not chunk:
                        sel.unregister(key.fd)
                        open_readers -= 1
                        continue
                    key.data.add(chunk)
            remaining = deadline - time.monotonic()
            try:
                proc.wait(timeout=max(0.0, remaining))
            except subprocess.TimeoutExpired:
                return True
            return False
        finally:
            sel.close()
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                with contextlib.suppress(OSError):
                    stream.close()

    def _kill_tree(self, proc: subprocess.Popen[bytes], uid: int | None) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        uids = [] if uid is None else [uid, uid + _CHECKER_UID_OFFSET]
        if self.isolation is Isolation.LIMITS_ONLY:
            for one in uids:
                _kill_uid(one)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL was sent
            logger.error("sandbox process %d did not exit after SIGKILL", proc.pid)
        for one in uids:
            _wait_uid_gone(one)


def _uid_pids(uid: int) -> list[int]:
    pids = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for name in entries:
        if name.isdigit():
            try:
                if os.stat(f"/proc/{name}").st_uid == uid:
                    pids.append(int(name))
            except OSError:
                continue
    return pids


def _wait_uid_gone(uid: int, limit: float = 10.0) -> None:
    """Kill what is left of a run (its uid is its own) and wait until it is gone.

    A pid namespace is torn down asynchronously after its init dies; waiting
    here means a finished run has no process left when ``run`` returns.
    """
    deadline = time.monotonic() + limit
    while True:
        pids = _uid_pids(uid)
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        if time.monotonic() > deadline:
            logger.error("processes %s of a finished sandbox run are still alive", pids[:10])
            return
        time.sleep(0.01)


def _kill_uid(uid: int) -> None:
    """Kill every process of ``uid`` (a uid reserved for one run) — orphans included."""
    kill = shutil.which("kill") or "/bin/kill"
    try:
        subprocess.run([kill, "-9", "-1"], user=uid, group=uid, extra_groups=[], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=10)
    except (OSError, subprocess.SubprocessError):
        logger.debug("could not reap the processes of uid %d", uid, exc_info=True)


def _classify(
    channel: bytes | bytearray,
    nonce: str,
    code: int | None,
    timed_out: bool,
    limits: Limits,
    wrapped: bool,
    duration: float,
) -> RunResult:
    records: list[tuple[str, str]] = []
    data: Any = None
    prefix = nonce.encode("ascii") + b" "
    for line in bytes(channel).split(b"\n"):
        if not line.startswith(prefix):
            continue
        parts = line[len(prefix):].split(b" ", 1)
        kind = parts[0].decode("ascii", "replace")
        payload = parts[1] if len(parts) > 1 else b""
        try:
            text = bytes.fromhex(payload.decode("ascii")).decode("utf-8", "replace")
        except ValueError:
            text = ""
        if kind == "data":
            try:
                data = json.loads(text)
            except ValueError:
                data = None
            continue
        records.append((kind, text))
    result = _outcome(records, code, timed_out, limits, wrapped, duration)
    result.data = data
    return result


def _outcome(
    records: list[tuple[str, str]],
    code: int | None,
    timed_out: bool,
    limits: Limits,
    wrapped: bool,
    duration: float,
) -> RunResult:
    kinds = [k for k, _ in records]
    final = next(((k, t) for k, t in reversed(records) if k != "started"), None)
    if final is not None and final[0] == "ended" and not timed_out:
        # the program's process of a checked run ended before the checker was done: classified as its ending
        with contextlib.suppress(ValueError):
            code, wrapped = int(final[1]), True
        final = None
    if final is not None:
        kind, text = final
        if kind == "passed":
            return RunResult(Outcome.PASSED, exit_code=code)
        if kind == "memory":
            return RunResult(Outcome.MEMORY, f"MemoryError: the program exceeded its memory limit ({limits.memory} bytes)", exit_code=code)
        if kind == "exit":
            return RunResult(Outcome.FAILED, f"the program called exit({text}) before its tests finished", exit_code=code)
        if kind == "error":
            return RunResult(Outcome.FAILED, text.strip(), exit_code=code)
        if kind == "sandbox-error":
            return RunResult(Outcome.SANDBOX_ERROR, f"the sandbox could not be set up: {text}", exit_code=code)
    if timed_out:
        return RunResult(Outcome.TIMEOUT, f"wall-clock limit of {limits.timeout:g} s reached; the process tree was killed", exit_code=code)
    if "started" not in kinds:
        return RunResult(Outcome.SANDBOX_ERROR, f"the sandbox did not start the program (exit code {code})", exit_code=code)
    sig = _signal_of(code, wrapped)
    if sig == signal.SIGKILL and duration >= limits.effective_cpu_time + 1:
        # the hard CPU limit (one second after the soft one) ends in SIGKILL
        return RunResult(Outcome.TIMEOUT, f"CPU-time limit of {limits.effective_cpu_time} s reached (killed at the hard limit)", exit_code=code)
    if sig == signal.SIGXCPU:
        return RunResult(Outcome.TIMEOUT, f"CPU-time limit of {limits.effective_cpu_time} s reached", exit_code=code)
    if sig is not None:
        return RunResult(Outcome.KILLED, f"the program was killed by {signal.Signals(sig).name}", exit_code=code)
    return RunResult(Outcome.FAILED, f"the program exited (code {code}) before its tests finished", exit_code=code)


def _signal_of(code: int | None, wrapped: bool) -> int | None:
    if code is None:
        return None
    if code < 0:
        return -code
    if wrapped and code > 128:
        try:
            return int(signal.Signals(code - 128))
        except ValueError:
            return None
    return None


def run_program(program: str, *, limits: Limits | None = None) -> RunResult:
    """Run one program in a default :class:`Sandbox`.

    Example:
        >>> run_program("print('hi')").stdout
        'hi\\n'
    """
    return Sandbox(limits).run(program)
