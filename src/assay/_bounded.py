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
  child nor a descriptor behind (with the handlers deferred meanwhile, below:
  another thread may take them; the child gives them back once its own
  handlers are set).  A process the work moved out of the group
  (``setsid``) is the caller's to end (the sandboxed checks' program is the
  subreaper of what its checks leave and kills it after each).
* How the child ended (:class:`Ended`): ``ANSWERED`` with ``work``'s value;
  ``TIMED_OUT`` at the deadline; ``OUT_OF_MEMORY`` where ``work`` raised
  :class:`MemoryError`; ``RAISED`` with the text of another exception
  (``"ValueError: ..."``); ``EXITED`` where the process ended without an
  answer (its own :func:`os._exit`, a crash, a signal; ``status`` is
  :func:`os.waitstatus_to_exitcode`'s, ``-signal`` for a signal).  A SIGXCPU
  or SIGKILL is the CPU limit's only when the child had used the CPU time of
  its limit (``RLIMIT_CPU`` sends SIGXCPU at the soft limit, SIGKILL at the
  hard one, a second later; the CPU time the kernel reports, which may fall
  a little short of the ticks it counts the limit in, is compared with
  three quarters of the soft limit): then :attr:`Ended.past_cpu_limit` is
  true, and :attr:`Ended.by_limit` too.  A SIGKILL before it came from elsewhere (the
  kernel's out-of-memory killer, another process, the work itself).  An
  answer is the child's only write to its pipe, followed by a clean exit:
  bytes ``work`` writes to the pipe itself make the end ``EXITED``, and so do
  more than :data:`MOST_ANSWER` bytes, read no further (the child is killed:
  its status is then SIGKILL's unless it had ended; ``value`` says so).
* Signals and threads: a signal the calling thread holds may be taken by
  another thread of the process (a thread of Python's, or a native library's
  worker), and Python runs its handler in the main thread all the same.  So,
  called from the main thread, the Python handlers of the held signals are
  also replaced, from before the fork until the ``try`` that ends the child,
  by one that only notes the signal; the signals noted are raised again
  once the handlers are back, inside that ``try`` (:class:`_Held`).  Called
  from another thread, no handler runs in the calling thread (Python runs
  them in the main thread only): a signal reaches the main thread's handler
  at once and the call goes on, ending its child as usual.

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
from collections.abc import Callable
from typing import Any, NamedTuple

__all__ = ["ANSWERED", "EXITED", "OUT_OF_MEMORY", "RAISED", "TIMED_OUT", "Ended", "die_with_parent", "prepare_fork", "run_bounded"]

logger = logging.getLogger(__name__)

ANSWERED = "answered"
TIMED_OUT = "timed out"
OUT_OF_MEMORY = "out of memory"
RAISED = "raised"
EXITED = "exited"

#: The exit codes (``-signal``) of a child the CPU limit stops: SIGXCPU at ``RLIMIT_CPU``'s soft limit, SIGKILL at its hard one.
_LIMIT_CODES = frozenset({-signal.SIGKILL, -signal.SIGXCPU})
#: The share of its CPU limit a child must have used for a SIGXCPU or SIGKILL to count as the limit's: the kernel
#: counts the limit in scheduler ticks, which overstate on a busy machine the CPU time it reports a process used.
_CPU_SHARE = 0.75
_PR_SET_PDEATHSIG = 1
#: The most bytes an answer may take: a child writing more is killed and ends ``EXITED``.
MOST_ANSWER = 1024**2
_PRCTL: list[Any] = []


class Ended(NamedTuple):
    """How a child of :func:`run_bounded` ended: ``how`` (one of the module's constants), ``work``'s value
    (``ANSWERED``), its exception's text (``RAISED``) or what the parent knows of an ``EXITED`` child that it
    stopped itself (``None`` otherwise), the child's exit code (:func:`os.waitstatus_to_exitcode`: ``-signal`` when
    a signal ended it), and whether the child had used the CPU time of its ``RLIMIT_CPU`` when it ended."""

    how: str
    value: Any = None
    status: int | None = None
    past_cpu_limit: bool = False

    @property
    def by_limit(self) -> bool:
        """The child was stopped by the deadline or the CPU limit: ``TIMED_OUT``, or ended by SIGXCPU or SIGKILL
        once it had used its CPU time (a SIGKILL sooner is not a limit's)."""
        return self.how == TIMED_OUT or (self.how == EXITED and self.status in _LIMIT_CODES and self.past_cpu_limit)


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


def _cpu_limit(seconds: float) -> int:
    """The CPU seconds a child with a deadline of ``seconds`` may use (before the process's own soft limit)."""
    return math.ceil(seconds) + 1


def _used_cpu_limit(seconds: float, used: float) -> bool:
    """A child given ``seconds`` that used ``used`` CPU seconds had reached its ``RLIMIT_CPU`` soft limit (the lower
    of :func:`_cpu_limit`'s and the one this process has, the child's inherited), as far as its reported CPU time
    tells (:data:`_CPU_SHARE` of it)."""
    import resource

    soft = _cpu_limit(seconds)
    present = resource.getrlimit(resource.RLIMIT_CPU)[0]
    if present != resource.RLIM_INFINITY:
        soft = min(soft, present)
    return used >= _CPU_SHARE * soft


def _address_space() -> int:
    """The bytes of address space this process holds (0 where it cannot be read)."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _child(work: Callable[[], Any], out: int, parent: int | None, seconds: float, memory: int | None,
           held: _Held) -> None:
    """The child's part: limits, descriptors, ``work()``, the answer; never returns.  It starts with the parent's
    signals held and gives them back once its own handlers are set."""
    try:
        os.setpgid(0, 0)  # a group of its own, which the parent kills with every process the work starts
        if parent is not None:
            die_with_parent(parent)
        held.in_child()
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, held.mask if held.mask is not None else ())
        import resource

        _lower_limit(resource.RLIMIT_CPU, _cpu_limit(seconds))
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


def _end(pid: int, read: int, watch: int | None) -> tuple[int, float]:
    """Kill the child ``pid``'s process group, reap the child and close ``read`` and ``watch``; the child's wait
    status and the CPU seconds it used."""
    try:
        _kill_group(pid)
        _, status, usage = os.wait4(pid, 0)
        return status, usage.ru_utime + usage.ru_stime
    except BaseException:  # interrupted all the same: the child, killed, is reaped before the exception goes on
        _kill_group(pid)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        raise
    finally:
        try:
            os.close(read)
        finally:  # a handler's exception just after the first close does not keep the second from running
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


def _unwrapped(sig: int, handler: Any) -> Any:
    """``handler``, or where it is a :class:`_Held`'s that was left installed (a handler raised while the
    handlers were put back), the handler that one forwards to."""
    while getattr(handler, "__func__", None) is _Held._handle and sig in handler.__self__.handlers:
        handler = handler.__self__.handlers[sig]
    return handler


class _Held:
    """The signals of :func:`_held_signals` held in the calling thread from its making until :meth:`release`; made
    in the main thread, their Python handlers are also replaced meanwhile by one that only notes the signal.

    Another thread (Python's, or a native library's worker) may take a signal this one holds, and Python then runs
    its handler in the main thread all the same: holding it there keeps no handler's exception out.  The signals
    noted are raised again by :meth:`release`, with the handlers back, where the caller can meet their exceptions.
    """

    def __init__(self) -> None:
        self.signals = _held_signals()
        self.noted: list[int] = []
        self.deferring = True
        self.handlers: dict[int, Any] = {}
        self.mask: set[int] | None = None
        self.before: set[int] = set()
        if threading.current_thread() is threading.main_thread():
            try:
                for sig in sorted(self.signals):
                    handler = _unwrapped(sig, signal.getsignal(sig))
                    if callable(handler):
                        self.handlers[sig] = handler  # noted first: an exception just after still finds it
                        signal.signal(sig, self._handle)
            except BaseException:  # a handler not yet replaced raised: nothing is held yet
                self.release()
                raise
        self.before = signal.pthread_sigmask(signal.SIG_BLOCK, ())  # the calling thread's mask
        self.mask = self.before  # set before the signals are held: an exception between finds it
        signal.pthread_sigmask(signal.SIG_BLOCK, self.signals)

    def _handle(self, signum: int, frame: Any) -> Any:
        """Note the signal while deferring; else do what its own handler does."""
        if self.deferring:
            self.noted.append(signum)
            return None
        return self.handlers[signum](signum, frame)

    def _restore(self) -> None:
        """The handlers back (where they are still this one's), put back while this one still only notes: a
        signal meanwhile is noted, and no later :class:`_Held` finds this one installed and takes it for the
        original (a chain of them would grow); from then on this one forwards."""
        try:
            for sig, handler in self.handlers.items():
                if signal.getsignal(sig) == self._handle:
                    signal.signal(sig, handler)
        finally:
            self.deferring = False

    def release(self) -> None:
        """The handlers back, the signals noted raised again and the calling thread's mask as it was (once)."""
        try:
            self._restore()
        finally:
            noted, self.noted = list(dict.fromkeys(self.noted)), []
            mask, self.mask = self.mask, None
            try:
                for sig in noted:  # pending here until the mask is given back: each reaches its handler
                    signal.pthread_kill(threading.get_ident(), sig)
            finally:
                if mask is not None:
                    signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    def hold(self) -> None:
        """Hold the signals in the calling thread again, and in the main thread have their handlers only note them
        again, until :meth:`release` (a handler may raise here before they are replaced: the mask is known
        before it can, and the handlers replaced so far are put back)."""
        self.mask = self.before
        signal.pthread_sigmask(signal.SIG_BLOCK, self.signals)
        if self.handlers:
            self.deferring = True
            for sig, handler in self.handlers.items():
                if signal.getsignal(sig) == handler:
                    signal.signal(sig, self._handle)

    def in_child(self) -> None:
        """In a forked child: the handlers back and nothing of the parent's noted (the signals stay held)."""
        self.noted = []
        self._restore()


def run_bounded(work: Callable[[], Any], *, seconds: float, memory: int | None = None) -> Ended:
    """``work()`` run in a forked child for at most ``seconds``, with the module's limits; how it ended.

    ``work``'s value must be JSON (it crosses the pipe so); ``memory`` is the
    address space, in bytes, the child may add to what it holds at the fork.
    """
    watch = os.getpid() if threading.current_thread() is threading.main_thread() else None
    if watch is not None:
        prepare_fork()
    held = _Held()  # no handler's exception before the child is in hand
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
            _child(work, write, watch, seconds, memory, held)
        os.close(write)
        status, used, timed_out = 0, 0.0, False
        data: bytes | None = b""
        watch = None
        try:
            watch = _pidfd(pid)
            with contextlib.suppress(OSError):  # the child does it too: whichever comes first
                os.setpgid(pid, pid)
            held.release()  # what arrived since the fork is handled now
            data, timed_out = _answer(pid, read, watch, time.monotonic() + seconds)
        finally:
            try:
                held.hold()  # nor while the child is killed and reaped
            finally:
                status, used = _end(pid, read, watch)
    finally:
        held.release()
    code = os.waitstatus_to_exitcode(status)
    if timed_out:
        return Ended(TIMED_OUT, status=code)
    if data is None:  # killed by the parent, whatever CPU time it had used: not by its CPU limit
        return Ended(EXITED, f"its answer passed {MOST_ANSWER} bytes and it was killed", status=code)
    past = _used_cpu_limit(seconds, used)
    try:
        answer = json.loads(data) if data and code == 0 else None
    except ValueError:
        answer = None
    if not isinstance(answer, list) or len(answer) != 2 or answer[0] not in ("v", "m", "e"):
        return Ended(EXITED, status=code, past_cpu_limit=past)
    kind, value = answer
    if kind == "m":
        return Ended(OUT_OF_MEMORY, status=code)
    if kind == "e":
        return Ended(RAISED, str(value), status=code)
    return Ended(ANSWERED, value, status=code)
