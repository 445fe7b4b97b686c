"""A pool of forked worker processes, each running one item at a time and reporting events back.

The eval runner feeds it units of tasks, the statistics pass one result file
per item.  A worker runs ``work(item, emit)``; every ``emit(event)`` reaches
the parent as ``(item, event)``, and ``(item, ("end",))`` follows when the
item is done.  When the process running an item is lost (killed, out of
memory), the parent gets ``(item, ("died", message))`` and ``(item, ("end",))``
and a new worker takes its place.

Workers are forked from the calling process, so ``work`` and what it refers to
(classes from config files, user modules) need no pickling; items and events
cross the process boundary pickled.  Where forking is unsafe (other threads
run), ``method="spawn"`` starts fresh interpreters instead; ``work`` and
``warm`` must then be module-level functions (or partials of them).  Workers
ignore Ctrl-C: the parent handles it and stops them.

Workers never outlive the pool's process (R-12.4): on Linux a worker
started from the main thread asks the kernel for SIGKILL when that thread
ends (:func:`die_with_parent`), and a worker holds no end of the pipes but
its own, so one waiting for an item sees the pipe close when the parent is
gone, on any system.  What a worker starts in turn (code sandboxes, a pool of its own)
ends with it the same way.

An item that must not run for ever is bounded by its caller: ``events`` takes
a timeout, and :meth:`ForkPool.kill` stops the worker running an item (a new
one takes its place).  With ``ready=True`` each worker reports once ``warm``
has run, and the pool waits for it, so that no item is charged the start-up.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from assay._bounded import die_with_parent, prepare_fork
from assay._dataclass import DataclassMethods

__all__ = ["Emit", "Event", "ForkPool", "Work", "check_fork_safety", "die_with_parent", "usable_cpus"]

logger = logging.getLogger(__name__)

Event = tuple[Any, ...]
Emit = Callable[[Event], None]
#: What a worker runs for each item, reporting through ``emit``.
Work = Callable[[Any, Emit], None]


_READY = ("ready",)


def _worker_main(
    conn: Connection,
    work: Work,
    warm: Callable[[], None] | None,
    ready: bool = False,
    parent: int | None = None,
    others: tuple[Connection, ...] = (),
) -> None:
    if parent is not None:
        die_with_parent(parent)
    for other in others:  # the parent's ends, inherited by the fork: only the parent may hold them
        with contextlib.suppress(OSError):
            other.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the workers
    for sig in (signal.SIGTERM, signal.SIGHUP):  # not the handlers of the parent's command
        signal.signal(sig, signal.SIG_DFL)
    if warm is not None:
        warm()
    if ready:
        conn.send(_READY)
    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):
            return
        if item is None:
            return
        try:
            work(item, conn.send)
        except Exception as exc:  # ``work`` reports its own failures; this is a guard against a bug in it
            conn.send(("died", f"{type(exc).__name__}: {exc}"))
        conn.send(("end",))


@dataclass(repr=False, eq=False)
class _Worker(DataclassMethods):
    proc: Any
    conn: Connection
    item: Any = None


class ForkPool:
    """``size`` worker processes running ``work``; ``warm`` runs once in each worker as it starts.

    Args:
        method: ``"fork"`` (the default) or ``"spawn"``.
        ready: wait, at most ``ready_timeout`` seconds, until each worker has run ``warm``
            (``RuntimeError`` when one does not).
    """

    def __init__(
        self,
        size: int,
        work: Work,
        *,
        warm: Callable[[], None] | None = None,
        name: str = "assay-worker",
        method: str = "fork",
        ready: bool = False,
        ready_timeout: float = 120.0,
    ) -> None:
        if method == "fork":
            check_fork_safety()
            prepare_fork()  # what each worker asks for the parent-death signal with
        self._ctx: Any = multiprocessing.get_context(method)
        self._work, self._warm, self._name = work, warm, name
        self._ready, self._ready_timeout = ready, ready_timeout
        self._size = size
        self._workers: list[_Worker] = []
        try:
            for _ in range(size):
                self._workers.append(self._start())
            for worker in self._workers:  # started together, warmed in parallel
                self._await_ready(worker)
        except BaseException:  # no more processes, say: stop those already started
            self.terminate()
            raise

    def _start(self) -> _Worker:
        # the parent-death signal follows the thread that forks: asked for only from the main thread,
        # whose end is the process's (a worker started by another thread relies on the closed pipe)
        watch = os.getpid() if threading.current_thread() is threading.main_thread() else None
        parent, child = self._ctx.Pipe(duplex=True)
        forked = self._ctx.get_start_method() == "fork"
        others = (parent, *(w.conn for w in self._workers)) if forked else ()
        # not daemons: work may start processes of its own (code sandboxes)
        proc = self._ctx.Process(
            target=_worker_main,
            args=(child, self._work, self._warm, self._ready, watch, others),
            name=self._name,
            daemon=False,
        )
        proc.start()
        child.close()
        return _Worker(proc, parent)

    def _await_ready(self, worker: _Worker) -> None:
        if not self._ready:
            return
        try:
            answered = worker.conn.poll(self._ready_timeout) and worker.conn.recv() == _READY
        except (EOFError, OSError):
            answered = False
        if not answered:
            raise RuntimeError(f"a {self._name} worker process did not start within {self._ready_timeout:g} s")

    def _spawn(self) -> _Worker:
        worker = self._start()
        try:
            self._await_ready(worker)
        except BaseException:
            worker.proc.kill()
            worker.proc.join(timeout=5)
            worker.conn.close()
            raise
        return worker

    def capacity(self) -> int:
        return self._size

    def idle(self) -> int:
        """Workers without an item."""
        return sum(1 for w in self._workers if w.item is None)

    def submit(self, item: Any) -> None:
        """Hand ``item`` to an idle worker (there must be one)."""
        for worker in self._workers:
            if worker.item is None:
                worker.item = item
                with contextlib.suppress(OSError):  # a dead worker is reported by events()
                    worker.conn.send(item)
                return
        raise RuntimeError("no idle worker")

    def events(self, timeout: float | None = None) -> list[tuple[Any, Event]]:
        """Wait for the busy workers (at most ``timeout`` seconds), then every ``(item, event)`` that has arrived."""
        busy = [w for w in self._workers if w.item is not None]
        if not busy:
            return []
        waitables: list[Any] = [w.conn for w in busy] + [w.proc.sentinel for w in busy]
        ready = set(wait(waitables, timeout=timeout))
        out: list[tuple[Any, Event]] = []
        for worker in busy:
            if worker.conn not in ready and worker.proc.sentinel not in ready:
                continue
            lost = False
            try:
                while worker.item is not None and worker.conn.poll():
                    event = worker.conn.recv()
                    out.append((worker.item, event))
                    if event[0] == "end":
                        worker.item = None
            except (EOFError, OSError):
                lost = True
            if worker.item is not None and (lost or not worker.proc.is_alive()):
                code = worker.proc.exitcode
                worker.proc.join(timeout=1)
                how = f"killed by signal {-code}" if isinstance(code, int) and code < 0 else f"exit status {code}"
                out.append((worker.item, ("died", f"the worker process running it died ({how}; out of memory or killed)")))
                out.append((worker.item, ("end",)))
                self._replace(worker)
        return out

    def kill(self, item: Any) -> None:
        """Stop the worker running ``item`` now, without events for it; a new worker takes its place."""
        for worker in self._workers:
            if worker.item is not None and worker.item == item:
                worker.proc.kill()
                worker.proc.join(timeout=5)
                self._replace(worker)
                return

    def _replace(self, dead: _Worker) -> None:
        dead.conn.close()
        self._workers[self._workers.index(dead)] = self._spawn()

    def close(self) -> None:
        """Let the workers finish and end."""
        for worker in self._workers:
            with contextlib.suppress(OSError):
                worker.conn.send(None)
        for worker in self._workers:
            worker.proc.join(timeout=5)
            if worker.proc.is_alive():
                worker.proc.terminate()
                worker.proc.join(timeout=5)
            worker.conn.close()

    def terminate(self) -> None:
        """Stop the workers now."""
        for worker in self._workers:
            if worker.proc.is_alive():
                worker.proc.terminate()
        for worker in self._workers:
            worker.proc.join(timeout=5)
            worker.conn.close()


def usable_cpus() -> int:
    """The number of CPU cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


def check_fork_safety() -> None:
    """Warn when this process has threads: a forked child inherits their locks but not the threads."""
    extra = [t.name for t in threading.enumerate() if t is not threading.current_thread()]
    try:
        os_threads = len(os.listdir("/proc/self/task"))
    except OSError:
        os_threads = 1
    if extra or os_threads > 1:
        logger.warning(
            "forking workers while this process runs %d threads (%s); a library that started them may "
            "misbehave in the workers", os_threads, ", ".join(extra) or "native"
        )
