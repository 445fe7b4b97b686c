"""A function run in a forked child process while the caller goes on with its own work.

A large summary has two such pieces: checking the run's result files against
the run index while the summary computes from the index, and writing the text
tables while it writes its JSON.  A forked child sees the caller's memory as
it was at the fork, with no copying or pickling; its return value comes back
pickled through a temporary file with no name, so that the child never
blocks on a pipe nobody reads and no file is left behind however the
processes end.  The temporary files of the atomic writer the child makes are
named to the caller as they are made (:func:`assay.fileio.record_temporary_files`),
so that once the child has ended, however it ended, those it left are removed
(only those no process is writing, :func:`assay.fileio.remove_if_abandoned`).
The child's end — killed, reaped, its files removed — is done with the
signals of Python's handlers held, so that a second Ctrl-C or SIGTERM cannot
cut it short (its exception comes once it is done), and it can be done again
at no cost.  When the work raises, its exception (type, message, the last
frames of its traceback) is what the caller's warning names.  It leaves with :func:`os._exit`: nothing of the caller's (exit
handlers, buffered output) runs twice.

A job the caller never waits for is ended when the interpreter exits (its
child stopped and reaped, the files it left removed), before the modules that
needs are torn down.

It starts only where it can help and is safe: a second CPU, ``fork``
available, and no other Python thread (a child inherits the locks of threads
it does not have; the idle workers of a native BLAS library are accepted, as
by the statistics' worker processes).  Otherwise :meth:`Beside.start` returns
``None`` and the caller does the work itself.

Example:
    >>> job = Beside.start(lambda: sum(range(10)))
    >>> job is None or job.wait() == (True, 45)
    True
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import weakref
from collections.abc import Callable
from contextlib import suppress
from typing import IO, TYPE_CHECKING, Any

from assay._bounded import _held_signals

if TYPE_CHECKING:
    from assay._bounded import _Held

__all__ = ["Beside", "cpus", "fork_is_safe"]

logger = logging.getLogger(__name__)

#: The jobs of this process not yet ended (:func:`_end_at_exit` ends them as the interpreter exits).
_LIVE: weakref.WeakSet[Beside] = weakref.WeakSet()
_exit_hook = False  # _end_at_exit registered


def fork_is_safe() -> bool:
    """Forking is available and no other Python thread runs."""
    return hasattr(os, "fork") and threading.active_count() == 1


def cpus() -> int:
    """The number of CPU cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Beside:
    """A function running in a forked child process (:meth:`start`); :meth:`wait` for its value.

    Its answer comes through a temporary file with no name (``O_TMPFILE``; elsewhere named
    ``assay-beside-*`` and unlinked at once), so that no file outlives the processes holding it, even
    one killed outright.  An instance that is lost unwaited (an exception in its caller) stops its child
    when it is collected (a signal handler's exception raised while it is, is lost, as in any finalizer).
    """

    def __init__(self, pid: int, answer: IO[bytes], what: str, made: IO[bytes] | None = None) -> None:
        self.pid: int | None = pid
        self.answer, self.what = answer, what
        self.made = made  # the paths of the temporary files the child made, one a line
        self._owner = os.getpid()

    @classmethod
    def start(cls, fn: Callable[[], Any], what: str = "work") -> Beside | None:
        """``fn()`` running in a child process, or ``None`` when it cannot run beside this one.

        ``what`` names the work in the log when it fails.
        """
        if not fork_is_safe() or cpus() < 2:
            return None
        import pickle  # what the child answers with, imported before it is forked
        import traceback

        from assay import fileio
        from assay._bounded import _Held, prepare_fork

        global _exit_hook
        if not _exit_hook:
            import atexit

            atexit.register(_end_at_exit)
            _exit_hook = True
        prepare_fork()
        parent = os.getpid()
        # no handler's exception (Ctrl-C, SIGTERM) from here until the child is in the caller's hands
        held = _Held()
        pid: int | None = None
        answer: IO[bytes] | None = None
        made: IO[bytes] | None = None
        job: Beside | None = None
        try:
            try:
                answer = _answer_file()
                made = _answer_file()
                pid = os.fork()
            except OSError as exc:
                logger.debug("%s not started beside: %s", what, exc)
                for file in (answer, made):
                    if file is not None:
                        file.close()
                return None
            if pid == 0:  # the child: run, answer, and leave without running anything of the caller's
                code = 1
                try:
                    _in_child(parent, held)
                    fileio.record_temporary_files(made.fileno())
                    records = _collect_records()
                    try:
                        data = pickle.dumps((True, fn(), [_plain(r) for r in records]), protocol=pickle.HIGHEST_PROTOCOL)
                    except BaseException as exc:  # the parent says what it was (the child's log comes with it)
                        data = pickle.dumps((False, _failure(exc, traceback), [_plain(r) for r in records]))
                    view = memoryview(data)
                    while view:
                        view = view[os.write(answer.fileno(), view):]
                    code = 0
                finally:
                    os._exit(code)
            job = cls(pid, answer, what, made)
            _LIVE.add(job)
            held.release()  # a signal noted since the fork: its handler's exception stops the child below
            return job
        except BaseException:
            if job is not None:
                job.discard()
            else:
                _stop(pid)
                for file in (answer, made):
                    if file is not None:
                        file.close()
            raise
        finally:
            held.release()

    def wait(self) -> tuple[bool, Any]:
        """``(True, fn's value)``, or ``(False, None)`` when the child failed (a warning names how: its
        exception, with the last frames of its traceback, or how its process ended).

        What the child logged is logged here, as if it had been logged here.  Interrupted (Ctrl-C,
        a signal turned into an exception), the child is stopped before the exception goes on.  The child is
        waited for without being reaped (its number stays its own, so that an interruption then stops that
        child and no other process), then reaped and forgotten in one step the signals cannot cut
        (:meth:`discard`).
        """
        import pickle

        try:
            pid = self.pid
            if pid is None:
                return False, None
            ended = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
            self._end()  # reaped and forgotten together, its temporary files removed
            code = _exit_code(ended)
            if code != 0:
                how = f"signal {signal.Signals(-code).name}" if code < 0 and -code in _SIGNALS else f"exit status {code}"
                logger.warning("%s in a child process failed (%s); done here instead", self.what, how)
                return False, None
            self.answer.seek(0)
            ok, value, records = pickle.load(self.answer)
        except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError) as exc:
            logger.warning("%s in a child process failed: %s; done here instead", self.what, exc)
            return False, None
        except BaseException:
            self.discard()
            raise
        finally:
            self.answer.close()
        for record in records:
            found = logging.getLogger(record.name)
            if found.isEnabledFor(record.levelno):
                found.handle(record)
        if not ok:
            logger.warning("%s in a child process failed; done here instead: %s", self.what, value)
            return False, None
        return True, value

    def discard(self) -> None:
        """Stop the child, if it still runs, forget it once reaped, and remove the temporary files it left, with the
        signals of Python's handlers held meanwhile (their exceptions come once it is done).  Called again, it does
        nothing more: the child is reaped once, and a file removed is gone."""
        try:
            self._end()
        finally:
            self.answer.close()

    def _end(self) -> None:
        """:meth:`discard` but for the answer, which stays open to be read."""
        if self.pid is None and self.made is None:
            return  # done already (nothing to import or hold: this may run as the interpreter shuts down)
        before = signal.pthread_sigmask(signal.SIG_BLOCK, ())  # known before anything is held
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, _held_signals())
        finally:  # a handler's exception noted just before the signals were held: the end is done all the same
            try:
                if self.pid is not None:
                    _kill_and_reap(self.pid)
                    self.pid = None  # reaped: the number may be another process's from now on
                if self.made is not None:
                    _remove_left(self.made)
                    self.made.close()
                    self.made = None
                _LIVE.discard(self)
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, before)

    def __del__(self) -> None:
        if getattr(self, "_owner", None) == os.getpid():  # not in a child that copied it: the child is its parent's
            for tries in range(3):  # a handler's exception here is lost all the same: the child is reaped first
                try:
                    self.discard()
                    return
                except BaseException:
                    if self.pid is None or tries == 2:
                        raise


def _end_at_exit() -> None:
    """End the jobs never waited for, as the interpreter exits (an exit handler: the modules their end needs
    are still there, which they may not be when a job is collected later in the shutdown)."""
    for job in list(_LIVE):
        if job._owner == os.getpid():  # not a copy a forked child holds
            # a job's end is done before a signal held meanwhile raises (a Ctrl-C as the interpreter exits): the
            # others are ended all the same, and the process exits as it was going to
            with suppress(BaseException):
                job.discard()


def _exit_code(ended: Any) -> int:
    """The exit code (:func:`os.waitstatus_to_exitcode`'s: ``-signal`` for a signal) of an :func:`os.waitid` result."""
    if ended is None:
        return 0
    return ended.si_status if ended.si_code == os.CLD_EXITED else -ended.si_status


def _remove_left(made: IO[bytes]) -> None:
    """Remove the temporary files named in ``made`` (one a line) that the ended child left, none being written."""
    from assay.fileio import remove_if_abandoned  # imported by start(): found at once

    try:
        names = os.pread(made.fileno(), 1 << 24, 0).splitlines()
    except (OSError, ValueError):  # closed already: removed already
        return
    for name in dict.fromkeys(names):
        if name:
            remove_if_abandoned(os.fsdecode(name))


def _answer_file() -> IO[bytes]:
    """A temporary file with no name, for the child's answer (the file goes with the last process holding it)."""
    import tempfile

    return tempfile.TemporaryFile(prefix="assay-beside-")


def _stop(pid: int | None) -> None:
    """SIGKILL the child ``pid`` and reap it (nothing for ``None``), with the signals of Python's handlers held
    meanwhile: a handler's exception (a second Ctrl-C) goes on once it is reaped."""
    if pid is None:
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, ())  # known before anything is held
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, _held_signals())
    finally:  # a handler's exception noted just before the signals were held: the child is reaped all the same
        try:
            _kill_and_reap(pid)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _kill_and_reap(pid: int) -> None:
    """SIGKILL the child ``pid`` (ended already: nothing) and reap it (a signal does not cut the wait short: the
    caller holds them)."""
    with suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    with suppress(ChildProcessError):
        os.waitpid(pid, 0)


#: The frames of the child's traceback its failure names (the last ones).
_FRAMES = 3


def _failure(exc: BaseException, traceback: Any) -> str:
    """``exc``'s type and message, and the last :data:`_FRAMES` frames of its traceback."""
    try:
        return "".join(traceback.format_exception(exc, limit=-_FRAMES)).rstrip()[-4000:]
    except BaseException:
        return type(exc).__name__


_SIGNALS = frozenset(int(s) for s in signal.Signals)


def _in_child(parent: int, held: _Held) -> None:
    """Signals in the child: Ctrl-C is the caller's to handle (it stops the child), SIGTERM and SIGHUP end
    it as they would any process (not the caller's handlers), and it dies with the caller; then the signals
    held around the fork are let through again."""
    from assay._bounded import die_with_parent

    held.in_child()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    die_with_parent(parent)
    signal.pthread_sigmask(signal.SIG_SETMASK, held.mask if held.mask is not None else ())


def _collect_records() -> list[logging.LogRecord]:
    """The records logged in the child from now on, kept for the caller (:meth:`Beside.wait` logs them
    there) instead of going to the caller's handlers."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.addHandler(Keep())
    return records


def _plain(record: logging.LogRecord) -> logging.LogRecord:
    """``record`` with its message formatted and its exception written out, so that it can be pickled."""
    record.msg, record.args = record.getMessage(), None
    if record.exc_info:
        record.exc_text = logging.Formatter().formatException(record.exc_info)
        record.exc_info = None
    return record
