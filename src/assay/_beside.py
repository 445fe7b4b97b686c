"""A function run in a forked child process while the caller goes on with its own work.

A large summary has two such pieces: checking the run's result files against
the run index while the summary computes from the index, and writing the text
tables while it writes its JSON.  A forked child sees the caller's memory as
it was at the fork, with no copying or pickling; its return value comes back
pickled through a temporary file, so that the child never blocks on a pipe
nobody reads.  It leaves with :func:`os._exit`: nothing of the caller's (exit
handlers, buffered output) runs twice.

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
from collections.abc import Callable
from contextlib import suppress
from typing import Any

__all__ = ["Beside", "cpus", "fork_is_safe"]

logger = logging.getLogger(__name__)


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
    """A function running in a forked child process (:meth:`start`); :meth:`wait` for its value."""

    def __init__(self, pid: int, path: str, what: str) -> None:
        self.pid: int | None = pid
        self.path, self.what = path, what

    @classmethod
    def start(cls, fn: Callable[[], Any], what: str = "work") -> Beside | None:
        """``fn()`` running in a child process, or ``None`` when it cannot run beside this one.

        ``what`` names the work in the log when it fails.
        """
        if not fork_is_safe() or cpus() < 2:
            return None
        import pickle  # what the child answers with, imported before it is forked
        import tempfile

        from assay._bounded import _held_signals, prepare_fork

        prepare_fork()
        parent = os.getpid()
        try:
            fd, path = tempfile.mkstemp(prefix="assay-beside-")
        except OSError:
            return None
        # no handler's exception (Ctrl-C, SIGTERM) between the fork and the child in the caller's hands
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, _held_signals())
        try:
            try:
                pid = os.fork()
            except OSError:
                os.close(fd)
                with suppress(OSError):
                    os.unlink(path)
                return None
            if pid == 0:  # the child: run, answer, and leave without running anything of the caller's
                code = 1
                try:
                    _in_child(parent, mask)
                    records = _collect_records()
                    value = fn()
                    with os.fdopen(fd, "wb") as fh:
                        pickle.dump((value, [_plain(r) for r in records]), fh, protocol=pickle.HIGHEST_PROTOCOL)
                    code = 0
                finally:
                    os._exit(code)
            os.close(fd)
            return cls(pid, path, what)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    def wait(self) -> tuple[bool, Any]:
        """``(True, fn's value)``, or ``(False, None)`` when the child failed (a warning names how).

        What the child logged is logged here, as if it had been logged here.  Interrupted (Ctrl-C,
        a signal turned into an exception), the child is stopped before the exception goes on.
        """
        import pickle

        try:
            pid = self.pid
            if pid is None:
                return False, None
            _, status = os.waitpid(pid, 0)
            self.pid = None  # reaped: the number may be another process's from now on
            code = os.waitstatus_to_exitcode(status)
            if code != 0:
                how = f"signal {signal.Signals(-code).name}" if code < 0 and -code in _SIGNALS else f"exit status {code}"
                logger.warning("%s in a child process failed (%s); done here instead", self.what, how)
                return False, None
            with open(self.path, "rb") as fh:
                value, records = pickle.load(fh)
        except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError) as exc:
            logger.warning("%s in a child process failed: %s; done here instead", self.what, exc)
            return False, None
        except BaseException:
            self.discard()
            raise
        finally:
            with suppress(OSError):
                os.unlink(self.path)
        for record in records:
            found = logging.getLogger(record.name)
            if found.isEnabledFor(record.levelno):
                found.handle(record)
        return True, value

    def discard(self) -> None:
        """Stop the child, if it still runs, and forget it (nothing when :meth:`wait` has reaped it)."""
        pid, self.pid = self.pid, None
        if pid is not None:
            with suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            with suppress(OSError, ChildProcessError):
                os.waitpid(pid, 0)
        with suppress(OSError):
            os.unlink(self.path)


_SIGNALS = frozenset(int(s) for s in signal.Signals)


def _in_child(parent: int, mask: Any) -> None:
    """Signals in the child: Ctrl-C is the caller's to handle (it stops the child), SIGTERM and SIGHUP end
    it as they would any process (not the caller's handlers), and it dies with the caller; then the signals
    held around the fork are let through again (``mask``)."""
    from assay._bounded import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)
    die_with_parent(parent)
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)


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
