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
        self.pid, self.path, self.what = pid, path, what

    @classmethod
    def start(cls, fn: Callable[[], Any], what: str = "work") -> Beside | None:
        """``fn()`` running in a child process, or ``None`` when it cannot run beside this one.

        ``what`` names the work in the log when it fails.
        """
        if not fork_is_safe() or cpus() < 2:
            return None
        import pickle  # what the child answers with, imported before it is forked
        import tempfile

        try:
            fd, path = tempfile.mkstemp(prefix="assay-beside-")
        except OSError:
            return None
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
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller handles Ctrl-C and stops the child
                logging.disable(logging.CRITICAL)
                value = fn()
                with os.fdopen(fd, "wb") as fh:
                    pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
                code = 0
            finally:
                os._exit(code)
        os.close(fd)
        return cls(pid, path, what)

    def wait(self) -> tuple[bool, Any]:
        """``(True, fn's value)``, or ``(False, None)`` when the child failed (logged)."""
        import pickle

        try:
            _, status = os.waitpid(self.pid, 0)
            code = os.waitstatus_to_exitcode(status)
            if code != 0:
                logger.info("%s in a child process failed (exit status %d)", self.what, code)
                return False, None
            with open(self.path, "rb") as fh:
                return True, pickle.load(fh)
        except (OSError, pickle.UnpicklingError, EOFError) as exc:
            logger.info("%s in a child process failed: %s", self.what, exc)
            return False, None
        finally:
            with suppress(OSError):
                os.unlink(self.path)

    def discard(self) -> None:
        """Stop the child, if it still runs, and forget it."""
        with suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        with suppress(OSError):
            os.waitpid(self.pid, 0)
        with suppress(OSError):
            os.unlink(self.path)
