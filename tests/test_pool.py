"""The pool of forked workers shared by the eval runner and the statistics pass."""

from __future__ import annotations

import multiprocessing
import os
from typing import Any

import pytest

from assay._pool import ForkPool

pytestmark = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork here")


def _square_or_die(item: int, emit: Any) -> None:
    if item < 0:
        os._exit(7)
    emit(("pid", os.getpid()))
    emit(("value", item * item))


def _drain(pool: ForkPool, items: list[int]) -> list[tuple[Any, tuple[Any, ...]]]:
    queue, seen = list(items), []
    while queue or pool.idle() < pool.capacity():
        while queue and pool.idle():
            pool.submit(queue.pop(0))
        seen.extend(pool.events())
    return seen


def test_items_run_in_other_processes_and_report_in_order() -> None:
    pool = ForkPool(2, _square_or_die)
    try:
        events = _drain(pool, [1, 2, 3, 4, 5])
    finally:
        pool.close()
    values = {item: ev[1] for item, ev in events if ev[0] == "value"}
    assert values == {i: i * i for i in range(1, 6)}
    assert {ev[1] for _, ev in events if ev[0] == "pid"} - {os.getpid()}  # not this process
    for item in range(1, 6):
        kinds = [ev[0] for it, ev in events if it == item]
        assert kinds == ["pid", "value", "end"]


def test_a_lost_worker_is_reported_and_replaced() -> None:
    pool = ForkPool(1, _square_or_die)
    try:
        events = _drain(pool, [2, -1, 3])
    finally:
        pool.close()
    lost = [ev for item, ev in events if item == -1]
    assert [ev[0] for ev in lost] == ["died", "end"] and "exit status 7" in lost[0][1]
    assert ("value", 9) in [ev for item, ev in events if item == 3]  # a new worker took the next item


def test_workers_started_before_a_failed_start_are_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[Any] = []
    real = ForkPool._start

    def spawn(self: ForkPool) -> Any:
        if started:
            raise OSError("no more processes")
        worker = real(self)
        started.append(worker)
        return worker

    monkeypatch.setattr(ForkPool, "_start", spawn)
    with pytest.raises(OSError, match="no more processes"):
        ForkPool(3, _square_or_die)
    assert len(started) == 1 and not started[0].proc.is_alive()


def _sleep_or_square(item: int, emit: Any) -> None:
    import time

    if item < 0:
        time.sleep(3600)
    emit(("value", item * item))


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_an_item_past_its_deadline_is_killed_and_its_worker_replaced(method: str) -> None:
    pool = ForkPool(1, _sleep_or_square, method=method, ready=True, ready_timeout=60)
    try:
        pool.submit(-1)
        assert pool.events(timeout=0.2) == []  # still running: nothing to report yet
        pool.kill(-1)
        assert pool.idle() == 1
        assert _drain(pool, [4]) == [(4, ("value", 16)), (4, ("end",))]
    finally:
        pool.close()
