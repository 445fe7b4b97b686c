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
    from concurrent.futures import ThreadPoolExecutor

    todo = list(items)
    pool = ThreadPoolExecutor(max_workers=max(1, min(workers, len(todo))), thread_name_prefix=name)
    stopped = False
    futures: list[Future[R]] = []
    waited: Future[R] | None = None
    try:
        futures.extend(pool.submit(fn, item) for item in todo)
        results = []
        for waited in futures:
            results.append(waited.result())
        return results
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
    interrupted again meanwhile, this returns (the interruption goes on) and the last call to end resumes.
    """
    import threading
    from concurrent.futures import wait

    lock = threading.Lock()
    left = len(futures)
    handed_over = False  # the waiting was interrupted: the last call to end resumes

    def ended(_: Future[R]) -> None:
        nonlocal left
        with lock:
            left -= 1
            last = left == 0 and handed_over
        if last:
            stoppable.resume()

    for future in futures:
        future.add_done_callback(ended)
    try:
        wait([future for future in futures if not future.cancelled()])  # a cancelled one is never "done" to wait()
    except BaseException:
        with lock:
            handed_over = True
            last = left == 0
        if last:
            stoppable.resume()
        raise
    stoppable.resume()
