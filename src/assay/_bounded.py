"""One piece of untrusted or possibly endless work in a forked child, under a deadline and limits.

:func:`run_bounded` forks a child that runs ``work()`` and answers with its
value (JSON) through a pipe; the caller waits at most ``seconds``.  SuperGPQA's
searches that may backtrack for ever run so, and so does each check of reply
text run as Python in the sandbox (this module's source runs there as part of
the sandboxed program: it imports nothing but the standard library).

The rules, the same for every caller:

* The child asks the kernel for SIGKILL when the parent's thread that forked
  it ends (Linux, asked for only from the main thread, whose end is the
  process's: :func:`die_with_parent`), and leaves at once when the parent ended
  before the request took effect; it also runs under ``RLIMIT_CPU`` of the
  deadline rounded up and a second, so that it stops itself where the
  parent-death signal is not available; ``memory`` bytes of address space
  more than it holds at the fork (``RLIMIT_AS``), when given.  Neither limit
  is raised above one the process already has.
* The child's standard streams are ``/dev/null`` and every other descriptor it
  inherited is closed but its end of the answer pipe; Ctrl-C is the parent's
  (the child ignores SIGINT) and SIGTERM and SIGHUP have their default action.
  It leaves with :func:`os._exit`: nothing of the parent's (exit handlers,
  buffered output) runs twice.
* The child runs in a process group of its own, with every process it starts
  that stays in it.  The parent reads the pipe until the child ends or the
  deadline passes (the child's end counts, not the pipe's: a process the work
  started may hold the pipe, and a child that closed it may still run), then
  SIGKILLs the whole group — in every outcome, the child's answer read first —
  and always reaps the child; when the wait itself is interrupted (Ctrl-C, an
  exception of a signal handler) the group is killed and the child reaped
  before the exception goes on.  SIGINT, SIGTERM, SIGHUP and every signal a
  Python handler takes are held from before the fork until the parent is in
  the ``try`` that ends the child, and again while it kills and reaps it, so
  that a handler's exception (Ctrl-C's ``KeyboardInterrupt``) leaves neither a
  child nor a descriptor behind (in a process whose other threads hold them
  too; the child gives them back once its own handlers are set).  A process the work moved out of the group
  (``setsid``) is the caller's to end (the sandboxed checks' program is the
  subreaper of what its checks leave and kills it after each).
* How the child ended (:class:`Ended`): ``ANSWERED`` with ``work``'s value;
  ``TIMED_OUT`` at the deadline; ``OUT_OF_MEMORY`` where ``work`` raised
  :class:`MemoryError`; ``RAISED`` with the text of another exception
  (``"ValueError: ..."``); ``EXITED`` where the process ended without an
  answer (its own :func:`os._exit`, a crash, a signal; ``status`` is
  :func:`os.waitstatus_to_exitcode`'s, ``-signal`` for a signal, and
  :attr:`Ended.by_limit` tells the limits' signals, SIGKILL and SIGXCPU).  An
  answer is the child's only write to its pipe, followed by a clean exit:
  bytes ``work`` writes to the pipe itself make the end ``EXITED``, and so do
  more than :data:`MOST_ANSWER` bytes, read no further (the child is killed:
  its status is then SIGKILL's unless it had ended).

Example:
    >>> run_bounded(lambda: sum(range(10)), seconds=30).value
    45
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

__all__ = ["ANSWERED", "EXITED", "OUT_OF_MEMORY", "RAISED", "TIMED_OUT", "Ended", "die_with_parent", "prepare_fork", "run_bounded"]

logger = logging.getLogger(__name__)

ANSWERED = "answered"
TIMED_OUT = "timed out"
OUT_OF_MEMORY = "out of memory"
RAISED = "raised"
EXITED = "exited"

#: The exit codes (``-signal``) of a child stopped by a limit: the deadline's SIGKILL, ``RLIMIT_CPU``'s SIGXCPU.
_LIMIT_CODES = frozenset({-signal.SIGKILL, -signal.SIGXCPU})
_PR_SET_PDEATHSIG = 1
#: The most bytes an answer may take: a child writing more is killed and ends ``EXITED``.
MOST_ANSWER = 1024**2
_PRCTL: list[Any] = []


class Ended(NamedTuple):
    """How a child of :func:`run_bounded` ended: ``how`` (one of the module's constants), ``work``'s value
    (``ANSWERED``) or its exception's text (``RAISED``), and the child's exit code (:func:`os.waitstatus_to_exitcode`:
    ``-signal`` when a signal ended it)."""

    how: str
    value: Any = None
    status: int | None = None

    @property
    def by_limit(self) -> bool:
        """The child was stopped by the deadline or a limit: ``TIMED_OUT``, or killed by SIGKILL or SIGXCPU."""
        return self.how == TIMED_OUT or (self.how == EXITED and self.status in _LIMIT_CODES)


def prepare_fork() -> None:
    """Load what :func:`die_with_parent` calls, in the parent before it forks, so that no child loads it again."""
    if sys.platform.startswith("linux"):
        _prctl()


def _prctl() -> Any:
    """libc's ``prctl``, loaded once (``None`` where there is none)."""
    if not _PRCTL:
        try:
            import ctypes

            _PRCTL.append(ctypes.CDLL(None, use_errno=True).prctl)
        except (OSError, AttributeError, ImportError):
            _PRCTL.append(None)
    return _PRCTL[0]


def die_with_parent(parent: int) -> None:
    """Have the kernel SIGKILL this process when the thread that forked it ends (Linux; elsewhere nothing).

    ``parent`` is the pid of the process that forked this one: when it ended
    before the request took effect, this process exits at once.
    """
    if sys.platform.startswith("linux"):
        prctl = _prctl()
        if prctl is None:  # no libc to call: the caller's other means (a closed pipe, a CPU limit) end it
            logger.debug("prctl(PR_SET_PDEATHSIG) is not available")
        elif prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            logger.debug("prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:
        os._exit(1)


def _lower_limit(which: int, soft: int) -> None:
    """Lower the soft limit ``which`` to ``soft`` (the hard one, where unlimited, a little above); never raise one."""
    import resource

    present, hard = resource.getrlimit(which)
    if present != resource.RLIM_INFINITY:
        soft = min(soft, present)
    if hard != resource.RLIM_INFINITY:
        resource.setrlimit(which, (min(soft, hard), hard))
    else:
        resource.setrlimit(which, (soft, soft + 1 if which == resource.RLIMIT_CPU else soft))


def _address_space() -> int:
    """The bytes of address space this process holds (0 where it cannot be read)."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _child(work: Callable[[], Any], out: int, parent: int | None, seconds: float, memory: int | None,
           mask: Iterable[int]) -> None:
    """The child's part: limits, descriptors, ``work()``, the answer; never returns.  It starts with the parent's
    signals held and gives them back (``mask``) once its own handlers are set."""
    try:
        os.setpgid(0, 0)  # a group of its own, which the parent kills with every process the work starts
        if parent is not None:
            die_with_parent(parent)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        import resource

        _lower_limit(resource.RLIMIT_CPU, math.ceil(seconds) + 1)
        if memory is not None:
            _lower_limit(resource.RLIMIT_AS, _address_space() + memory)
        if out <= 2:  # the caller started with a standard stream closed: the pipe took its number
            import fcntl

            out = fcntl.fcntl(out, fcntl.F_DUPFD_CLOEXEC, 3)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        if devnull > 2:
            os.close(devnull)
        top = os.sysconf("SC_OPEN_MAX")
        os.closerange(3, out)
        os.closerange(out + 1, top if top > 0 else 65536)
        try:
            answer: list[Any] = ["v", work()]
        except MemoryError:
            answer = ["m", None]
        except BaseException as exc:
            try:
                text = f"{type(exc).__name__}: {exc}"
            except BaseException:
                text = type(exc).__name__
            answer = ["e", text[:500]]
        try:
            data = json.dumps(answer).encode()
        except MemoryError:
            data = b'["m", null]'
        except (TypeError, ValueError) as exc:
            data = json.dumps(["e", f"the answer cannot be written as JSON: {exc}"[:500]]).encode()
        view = memoryview(data)
        while view:
            view = view[os.write(out, view):]
    finally:
        os._exit(0)


def _exited(pid: int) -> bool:
    """The child ``pid`` has ended (it is not reaped: its process group holds on)."""
    return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None


def _answer(pid: int, read: int, watch: int | None, deadline: float) -> tuple[bytes | None, bool]:
    """The bytes the child ``pid`` wrote to ``read`` until it ended (``None`` past :data:`MOST_ANSWER`), and whether
    the deadline came first.

    The child's end is what counts, not the pipe's: a process it started
    may hold the pipe open, and a child that closed its pipe may still run.
    Once it ended, its process group is killed and what the pipe holds read.
    ``watch`` is the child's pidfd, readable once it ended (``None``: no
    pidfd here, the child's end is looked at every few milliseconds).
    """
    data = b""
    step, readable = 0.001, True
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return data, True
        if watch is None and _exited(pid):
            break
        waits = ([read] if readable else []) + ([watch] if watch is not None else [])
        ready = select.select(waits, [], [], left if watch is not None else min(left, step))[0]
        step = min(step * 2, 0.05)
        if watch is not None and watch in ready:
            break
        if read in ready:
            chunk = os.read(read, 65536)
            readable = bool(chunk)
            data += chunk
            if len(data) > MOST_ANSWER:
                _kill_group(pid)
                return None, False
    _kill_group(pid)
    os.set_blocking(read, False)
    while True:  # what the child wrote before it ended
        try:
            chunk = os.read(read, 65536)
        except BlockingIOError:  # a process that left the group holds the pipe: what it writes is not the child's
            break
        if not chunk:
            break
        data += chunk
        if len(data) > MOST_ANSWER:
            return None, False
    return data, False


def _kill_group(pid: int) -> None:
    """SIGKILL the child ``pid``'s process group: the child and every process it started that stayed in it."""
    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):  # where the group could not be made (the child is not reaped: still its pid)
        os.kill(pid, signal.SIGKILL)


def _end(pid: int, read: int, watch: int | None) -> int:
    """Kill the child ``pid``'s process group, reap the child and close ``read`` and ``watch``; the child's wait
    status."""
    try:
        _kill_group(pid)
        return os.waitpid(pid, 0)[1]
    except BaseException:  # interrupted all the same: the child, killed, is reaped before the exception goes on
        _kill_group(pid)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        raise
    finally:
        os.close(read)
        if watch is not None:
            os.close(watch)


def _pidfd(pid: int) -> int | None:
    """A pidfd of ``pid`` (``None`` where the kernel or Python has none)."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _held_signals() -> set[int]:
    """The signals held from before the fork until the parent is in the ``try`` that ends the child: Ctrl-C's
    SIGINT, SIGTERM, SIGHUP and every other one a Python handler takes (its exception would leak the child)."""
    held: set[int] = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
    for sig in signal.valid_signals():
        if sig in (signal.SIGKILL, signal.SIGSTOP):
            continue
        try:
            if callable(signal.getsignal(sig)):
                held.add(sig)
        except (ValueError, OSError):
            continue
    return held


def run_bounded(work: Callable[[], Any], *, seconds: float, memory: int | None = None) -> Ended:
    """``work()`` run in a forked child for at most ``seconds``, with the module's limits; how it ended.

    ``work``'s value must be JSON (it crosses the pipe so); ``memory`` is the
    address space, in bytes, the child may add to what it holds at the fork.
    """
    watch = os.getpid() if threading.current_thread() is threading.main_thread() else None
    if watch is not None:
        prepare_fork()
    held = _held_signals()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, held)  # no handler's exception before the child is in hand
    try:
        read, write = os.pipe()
        try:
            pid = os.fork()
        except BaseException:
            os.close(read)
            os.close(write)
            raise
        if pid == 0:
            os.close(read)
            _child(work, write, watch, seconds, memory, mask)
        os.close(write)
        status, timed_out = 0, False
        data: bytes | None = b""
        watch = None
        try:
            watch = _pidfd(pid)
            with contextlib.suppress(OSError):  # the child does it too: whichever comes first
                os.setpgid(pid, pid)
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # what arrived since the fork is handled here
            data, timed_out = _answer(pid, read, watch, time.monotonic() + seconds)
        finally:
            try:
                signal.pthread_sigmask(signal.SIG_BLOCK, held)  # nor while the child is killed and reaped
            finally:
                status = _end(pid, read, watch)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    code = os.waitstatus_to_exitcode(status)
    if timed_out:
        return Ended(TIMED_OUT, status=code)
    try:
        answer = json.loads(data) if data and code == 0 else None
    except ValueError:
        answer = None
    if not isinstance(answer, list) or len(answer) != 2 or answer[0] not in ("v", "m", "e"):
        return Ended(EXITED, status=code)
    kind, value = answer
    if kind == "m":
        return Ended(OUT_OF_MEMORY, status=code)
    if kind == "e":
        return Ended(RAISED, str(value), status=code)
    return Ended(ANSWERED, value, status=code)
