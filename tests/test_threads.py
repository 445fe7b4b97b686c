"""Work on a pool of threads stops at once when its caller is interrupted (:mod:`assay._threads`)."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from assay._threads import map_threads


class Held:
    """Work that waits until it is stopped (as a judge request waits on a silent server)."""

    def __init__(self) -> None:
        self.started: list[int] = []
        self.ended: list[int] = []
        self.events: list[str] = []
        self.release = threading.Event()
        self.lock = threading.Lock()

    def work(self, item: int) -> int:
        with self.lock:
            self.started.append(item)
        self.release.wait(120)
        with self.lock:
            self.ended.append(item)
        return item

    def stop(self) -> None:
        self.events.append("stop")
        self.release.set()

    def resume(self) -> None:
        with self.lock:
            self.events.append(f"resume after {len(self.ended)} ended")


def test_an_interrupted_caller_cancels_the_queue_and_stops_what_runs() -> None:
    held, main = Held(), threading.get_ident()

    def ctrl_c_once_two_run() -> None:
        deadline = time.monotonic() + 60
        while len(held.started) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        signal.pthread_kill(main, signal.SIGINT)

    timer = threading.Thread(target=ctrl_c_once_two_run)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            map_threads(held.work, range(10), workers=2, name="held", stoppable=held)
    finally:
        timer.join()
    assert sorted(held.started) == sorted(held.ended) == [0, 1]  # the queue never started; the two stopped, joined
    assert held.events == ["stop", "resume after 2 ended"]


def test_work_that_raises_cancels_the_queue_and_lets_the_calls_in_flight_end() -> None:
    held = Held()

    def work(item: int) -> int:
        if item == 0:
            while len(held.started) < 1:
                time.sleep(0.01)
            raise ValueError("no reply can be read")
        return held.work(item)

    threading.Timer(0.5, held.release.set).start()  # the call in flight ends by itself
    with pytest.raises(ValueError, match="no reply"):
        map_threads(work, range(10), workers=2, name="held", stoppable=held)
    assert held.events == []  # not stopped: the call in flight ended as it would, its value kept by it
    assert held.started == held.ended and len(held.started) < 9
