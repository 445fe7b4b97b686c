"""The collector's bulk thresholds: whatever the order in which threads' blocks end, the process gets its own back."""

from __future__ import annotations

import gc
import threading

from assay._gc import bulk_allocations


def test_overlapping_blocks_of_two_threads_give_the_thresholds_back_whatever_ends_first() -> None:
    before = gc.get_threshold()
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: list[tuple[int, ...]] = []

    def first() -> None:
        with bulk_allocations():
            first_in.set()
            second_in.wait(10)
        first_out.set()

    def second() -> None:
        first_in.wait(10)
        with bulk_allocations():
            second_in.set()
            first_out.wait(10)
            seen.append(gc.get_threshold())  # the first block ended: this one still runs with the bulk thresholds

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert seen == [(100_000, 50, 100)]
    assert gc.get_threshold() == before


def test_a_block_that_raises_gives_the_thresholds_back() -> None:
    before = gc.get_threshold()
    try:
        with bulk_allocations():
            raise ValueError("stop")
    except ValueError:
        pass
    assert gc.get_threshold() == before
