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
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["bulk_allocations"]

#: (allocations between young collections, young collections per middle one, middle per full one)
_BULK_THRESHOLDS = (100_000, 50, 100)


@contextmanager
def bulk_allocations() -> Iterator[None]:
    """Collect cycles rarely inside the block; the previous thresholds are restored after it.

    >>> import gc
    >>> before = gc.get_threshold()
    >>> with bulk_allocations():
    ...     gc.get_threshold()
    (100000, 50, 100)
    >>> gc.get_threshold() == before
    True
    """
    before = gc.get_threshold()
    gc.set_threshold(*_BULK_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)
