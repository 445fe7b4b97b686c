"""Work on a pool of threads stops at once when its caller is interrupted (:mod:`assay._threads`)."""

from __future__ import annotations

import signal
import sys
import threading
import time

import pytest

from assay._threads import map_threads


class Held:
    """Work that waits until it is stopped (as a judge request waits on a silent server)."""

    def __init__(self, linger: dict[str, float] | None = None) -> None:
        self.linger = linger or {}  # by thread name: how long a call takes to end once stopped
        self.started: list[int] = []
        self.ended: list[int] = []
        self.events: list[str] = []
        self.release = threading.Event()
        self.lock = threading.Lock()

    def work(self, item: int) -> int:
        with self.lock:
            self.started.append(item)
        self.release.wait(120)
        time.sleep(self.linger.get(threading.current_thread().name, 0.0))
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
    assert sorted(held.started) == sorted(held.ended) and len(held.started) < 9


def test_an_interrupt_while_the_calls_in_flight_end_after_the_work_raised_stops_them() -> None:
    # the first thread's call, joined first, ends a second after the other one once stopped
    held, main = Held(linger={"held_0": 1.0}), threading.get_ident()

    def work(item: int) -> int:
        if item == 0:
            while len(held.started) < 1:
                time.sleep(0.01)
            raise ValueError("no reply can be read")
        return held.work(item)  # waits until stopped: a request to a silent server

    def joining() -> bool:  # map_threads waits in the pool's shutdown: the work raised, the call in flight runs
        frame = sys._current_frames().get(main)
        while frame is not None and frame.f_code.co_name != "shutdown":
            frame = frame.f_back
        return frame is not None

    def ctrl_c_once_the_work_raised() -> None:
        deadline = time.monotonic() + 60
        while not joining() and time.monotonic() < deadline:
            time.sleep(0.01)
        signal.pthread_kill(main, signal.SIGINT)

    timer = threading.Thread(target=ctrl_c_once_the_work_raised)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt) as caught:
            map_threads(work, range(10), workers=2, name="held", stoppable=held)
    finally:
        timer.join()
    events = list(held.events)
    held.release.set()  # nothing left waiting when the below fails
    assert isinstance(caught.value.__context__, ValueError)  # the work's error is not lost
    assert events[:1] == ["stop"]  # the call in flight was stopped
    # it ends once stopped (the join after an interrupted one may not wait for it: Python 3.11 can take a thread
    # whose join was interrupted for ended), the worker freed by item 0 having maybe taken item 2 meanwhile;
    # the work is resumed only once every stopped call has ended
    deadline = time.monotonic() + 60
    while (len(held.events) < 2 or sorted(held.ended) != sorted(held.started)) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sorted(held.started) == sorted(held.ended) and set(held.started) <= {1, 2}
    assert held.events == ["stop", f"resume after {len(held.started)} ended"]


@pytest.mark.parametrize("raising", [0, 1])
def test_an_interruption_a_call_raises_stops_the_calls_in_flight(raising: int) -> None:
    """A call that raises KeyboardInterrupt (or another exception that is not an error, as SystemExit): the caller
    is interrupted, not the work's error: the calls in flight are stopped, not waited for, whether the call that
    raised comes before or after them, and what is queued never starts."""
    held = Held()

    def work(item: int) -> int:
        if item == raising:
            while len(held.started) < 1:
                time.sleep(0.01)
            raise KeyboardInterrupt
        return held.work(item)

    fallback = threading.Timer(30, held.release.set)  # what ends the held call if it is not stopped
    fallback.start()
    began = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            map_threads(work, range(10), workers=2, name="held", stoppable=held)
    finally:
        fallback.cancel()
        held.release.set()
    assert time.monotonic() - began < 20  # not the 30 s the held call waits unless stopped
    assert held.events[0] == "stop" and held.events[1].startswith("resume")
    assert len(held.started) <= 2  # the queue never started


def test_an_error_of_a_later_call_is_seen_when_it_comes() -> None:
    """The second call fails while the first one still runs: the queue is cancelled then, not once the first has
    ended, and the calls in flight end as they would (not stopped)."""
    held = Held()

    def work(item: int) -> int:
        if item == 1:
            while len(held.started) < 1:
                time.sleep(0.01)
            raise ValueError("no reply can be read")
        return held.work(item)

    threading.Timer(1.0, held.release.set).start()  # the call in flight ends by itself
    with pytest.raises(ValueError, match="no reply"):
        map_threads(work, range(10), workers=2, name="held", stoppable=held)
    assert held.events == []
    assert len(held.started) <= 2  # items after the failed one never started (the first call held the other thread)


def test_a_ctrl_c_whose_handler_ran_on_another_thread_still_interrupts_the_caller() -> None:
    """SIGINT delivered to a worker thread (as a process-wide Ctrl-C may be, or one arriving just before the caller
    blocks): its C handler does not wake the caller's wait, yet the caller is interrupted within a moment and the
    calls in flight are stopped, not waited for."""
    held = Held()
    workers: list[int] = []

    def work(item: int) -> int:
        workers.append(threading.get_ident())
        return held.work(item)

    def ctrl_c_on_a_worker() -> None:
        deadline = time.monotonic() + 60
        while len(held.started) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.2)
        signal.pthread_kill(workers[0], signal.SIGINT)

    fallback = threading.Timer(30, held.release.set)  # what ends the held calls if the caller is not interrupted
    fallback.start()
    timer = threading.Thread(target=ctrl_c_on_a_worker)
    timer.start()
    began = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            map_threads(work, range(10), workers=2, name="held", stoppable=held)
    finally:
        timer.join()
        fallback.cancel()
        held.release.set()
    assert time.monotonic() - began < 20  # not the 30 s the held calls wait unless stopped
    assert held.events == ["stop", "resume after 2 ended"]
