"""Work spread over a pool of threads that stops at once when its caller is interrupted.

:func:`map_threads` runs a function over items on a few threads (judge
requests, sandboxed programs), the results in input order.  When the caller
is interrupted while it waits — Ctrl-C's ``KeyboardInterrupt``, an exception
a signal handler raises (SIGTERM's), or such an exception (not an error) a
call raised — what has not started is cancelled, what runs is stopped where
it can be (``stoppable.stop()``: the judge client's requests, the sandbox's
programs), the threads are joined and the exception
goes on: nothing waits for the queued work, nor for in-flight work to reach
its own deadline.  What the work finished before (a judge reply kept in the
judge cache) is kept.  When the work itself raises, what has not started is
cancelled too, and the calls in flight end as they would (a reply they get
is kept) before the exception goes on; interrupted meanwhile, they are
stopped, and the interruption goes on (the work's exception its context).

Example:
    >>> map_threads(lambda x: x * x, range(5), workers=2, name="squares")
    [0, 1, 4, 9, 16]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = ["Stoppable", "map_threads"]

T = TypeVar("T")
R = TypeVar("R")

#: Seconds the caller waits at most before its signals' handlers can run (see :func:`map_threads`).
_SIGNAL_CHECK = 0.25


class Stoppable(Protocol):
    """What runs work on the threads of :func:`map_threads` and can stop it."""

    def stop(self) -> None:
        """Stop the work running now, at once, from another thread (its calls end soon, whatever they return),
        and refuse new work until :meth:`resume`."""

    def resume(self) -> None:
        """Take work again (called once the stopped work has ended)."""


def map_threads(fn: Callable[[T], R], items: Iterable[T], *, workers: int, name: str,
                stoppable: Stoppable | None = None) -> list[R]:
    """``[fn(item) for item in items]`` on at most ``workers`` threads named ``name``; stopped at once when the
    caller is interrupted (the module's docstring), ``stoppable`` stopping the calls in flight."""
    from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait

    todo = list(items)
    pool = ThreadPoolExecutor(max_workers=max(1, min(workers, len(todo))), thread_name_prefix=name)
    stopped = False
    futures: list[Future[R]] = []
    waited: Future[R] | None = None
    try:
        futures.extend(pool.submit(fn, item) for item in todo)
        pending: set[Future[R]] = set(futures)
        while pending:  # a call's exception is seen when it comes, not once the calls before it have ended
            # a bounded wait: a signal whose C handler ran on another thread, or just before this thread blocked,
            # does not wake a blocked wait; its handler runs (Ctrl-C's KeyboardInterrupt) when the wait returns
            done, pending = wait(pending, timeout=_SIGNAL_CHECK, return_when=FIRST_EXCEPTION)
            for waited in futures:
                if waited in done and waited.exception() is not None:
                    waited.result()  # the first failed call in input order raises its exception
        return [future.result() for future in futures]
    except BaseException as exc:
        pool.shutdown(wait=False, cancel_futures=True)  # what has not started never will
        raised_by_work = waited is not None and waited.done() and not waited.cancelled() and waited.exception() is exc
        # interrupted (a KeyboardInterrupt, SystemExit or a signal's exception, even one a call raised): the calls
        # in flight are not waited for
        if stoppable is not None and not (raised_by_work and isinstance(exc, Exception)):
            stopped = True
            stoppable.stop()
        raise
    finally:
        try:
            try:
                pool.shutdown(wait=True)  # the calls in flight, stopped, end soon
            except BaseException:  # interrupted while the calls in flight end (the work raised): they are stopped now
                pool.shutdown(wait=False, cancel_futures=True)
                if stoppable is not None and not stopped:
                    stopped = True
                    stoppable.stop()
                pool.shutdown(wait=True)
                raise
        finally:
            if stopped:
                _resume_once_ended(futures, stoppable)  # type: ignore[arg-type]


def _resume_once_ended(futures: list[Future[R]], stoppable: Stoppable) -> None:
    """``stoppable.resume()`` once every call of ``futures`` has ended, never while a stopped one still runs.

    The pool's threads are joined by then, but a join can return early: Python 3.11 takes a thread whose join
    a signal interrupted for ended.  So the calls are waited for too, by their futures (at once, normally);
    interrupted again meanwhile, this returns (the interruption goes on) and a thread of its own resumes once
    they have ended.
    """
    import threading
    from concurrent.futures import wait

    running = [future for future in futures if not future.cancelled()]  # a cancelled one is never "done" to wait()

    def resume_once_ended() -> None:
        wait(running)
        stoppable.resume()

    try:
        resume_once_ended()
    except BaseException:
        threading.Thread(target=resume_once_ended, name="assay-resume", daemon=True).start()
        raise
