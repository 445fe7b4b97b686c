"""Garbage-collector settings for bulk work.

Scoring builds hundreds of thousands of small containers (parsed records,
per-sample details); with the default thresholds, CPython's cyclic collector
runs every 700 allocations and rescans the growing heap, which can cost more
than the work itself.  The objects built here are almost never cyclic (reference
counting frees them), so :func:`bulk_allocations` makes the collector run rarely
while a task is scored, without turning it off: cyclic garbage made by user
code is still collected.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["bulk_allocations", "startup_allocations"]

#: (allocations between young collections, young collections per middle one, middle per full one)
_BULK_THRESHOLDS = (100_000, 50, 100)

#: blocks under the bulk thresholds now (any thread), and the thresholds the first one found
_lock = threading.Lock()
_inside = 0
_saved: tuple[int, ...] = ()


def _enter() -> None:
    global _inside, _saved
    with _lock:
        if _inside == 0:
            _saved = gc.get_threshold()
            gc.set_threshold(*_BULK_THRESHOLDS)
        _inside += 1


def _leave() -> None:
    """The thresholds the first block found come back when the last block (of any thread) ends: two threads'
    blocks that overlap no longer leave the process on the bulk ones."""
    global _inside
    with _lock:
        _inside -= 1
        if _inside == 0:
            gc.set_threshold(*_saved)


@contextmanager
def bulk_allocations() -> Iterator[None]:
    """Collect cycles rarely inside the block; the previous thresholds are restored after it (after the last
    of the blocks that overlap it, when other threads are in one too).

    >>> import gc
    >>> before = gc.get_threshold()
    >>> with bulk_allocations():
    ...     gc.get_threshold()
    (100000, 50, 100)
    >>> gc.get_threshold() == before
    True
    """
    _enter()
    try:
        yield
    finally:
        _leave()


@contextmanager
def startup_allocations() -> Iterator[None]:
    """Import and set up with the bulk thresholds; then keep what was built out of later collections
    (``gc.freeze``) and restore the previous thresholds.

    Starting a command imports assay's modules and builds its tables: tens of thousands of objects that live
    as long as the process, which the default thresholds would scan again and again.  After the block they
    are frozen (no collection scans them), and the work that follows runs with the previous thresholds —
    a driver that makes cycles (judge clients, an index writer, units run back to back) has them collected
    as usual; its bulk phases choose :func:`bulk_allocations` themselves.  The caller undoes the freeze
    with :func:`gc.unfreeze` when the process goes on after its command.

    >>> import gc
    >>> before = gc.get_threshold()
    >>> with startup_allocations():
    ...     gc.get_threshold()
    (100000, 50, 100)
    >>> gc.get_threshold() == before, gc.get_freeze_count() > 0
    (True, True)
    >>> gc.unfreeze()
    """
    _enter()
    try:
        yield
    finally:
        gc.freeze()
        _leave()
