"""One piece of work in a forked child under a deadline and limits: every way the child can end."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

import assay._bounded as bounded_module
from assay._bounded import ANSWERED, EXITED, OUT_OF_MEMORY, RAISED, TIMED_OUT, Ended, run_bounded

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or not sys.platform.startswith("linux"), reason="Linux's fork")


def _children() -> set[int]:
    pids: set[int] = set()
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/children") as fh:
            pids.update(int(p) for p in fh.read().split())
    return pids


def _gone(pid: int, seconds: float = 30.0) -> bool:
    """``pid`` ended (reaped, or a zombie of a parent that is gone) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as fh:
                if fh.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def _spin() -> None:
    while True:
        pass


def test_the_answer_is_the_work_s_value_computed_in_another_process() -> None:
    ended = run_bounded(lambda: {"pid": os.getpid(), "values": [1, 2.5, None]}, seconds=30)
    assert ended.how == ANSWERED and ended.status == 0 and not ended.by_limit
    assert ended.value["values"] == [1, 2.5, None] and ended.value["pid"] != os.getpid()


def test_work_past_the_deadline_is_killed_and_reaped() -> None:
    before = _children()
    ended = run_bounded(_spin, seconds=0.5)
    assert ended == Ended(TIMED_OUT, status=-signal.SIGKILL) and ended.by_limit
    assert _children() == before  # reaped: no zombie left


def test_the_child_runs_under_a_cpu_limit_past_the_deadline_and_the_memory_given() -> None:
    def limits() -> list[Any]:
        return [resource.getrlimit(resource.RLIMIT_CPU)[0], resource.getrlimit(resource.RLIMIT_AS)[0]]

    cpu, space = run_bounded(limits, seconds=2.5, memory=256 * 1024**2).value
    assert cpu == 4  # the deadline rounded up, and a second
    assert space != resource.RLIM_INFINITY and space >= 256 * 1024**2
    cpu, space = run_bounded(limits, seconds=7).value
    assert cpu == 8 and space == resource.getrlimit(resource.RLIMIT_AS)[0]  # no memory given: as the caller's


def test_a_memory_error_is_its_own_end() -> None:
    ended = run_bounded(lambda: len(bytearray(2 * 1024**3)), seconds=30, memory=256 * 1024**2)
    assert ended.how == OUT_OF_MEMORY and not ended.by_limit


def test_an_exception_is_named_with_its_text() -> None:
    def fail() -> None:
        raise ValueError("no such option: 'K'")

    assert run_bounded(fail, seconds=30) == Ended(RAISED, "ValueError: no such option: 'K'", status=0)
    assert run_bounded(lambda: object(), seconds=30).how == RAISED  # a value that is not JSON


@pytest.mark.parametrize(("work", "status"), [
    (lambda: os._exit(3), 3),
    (lambda: os._exit(0), 0),
    (lambda: os.kill(os.getpid(), signal.SIGSEGV), -signal.SIGSEGV),
    (lambda: os.kill(os.getpid(), signal.SIGKILL), -signal.SIGKILL),
    (lambda: os.kill(os.getpid(), signal.SIGXCPU), -signal.SIGXCPU),
])
def test_a_child_ending_its_own_process_or_killed_by_a_signal_gives_its_status(work: Any, status: int) -> None:
    ended = run_bounded(work, seconds=30)
    assert ended == Ended(EXITED, status=status)
    assert not ended.by_limit  # even SIGKILL and SIGXCPU: sent before the child used its CPU time


def _spin_past_sigxcpu() -> None:
    signal.signal(signal.SIGXCPU, signal.SIG_IGN)
    _spin()


@pytest.mark.parametrize(("work", "status"), [(_spin, -signal.SIGXCPU), (_spin_past_sigxcpu, -signal.SIGKILL)])
def test_the_cpu_limit_s_signals_are_told_from_others(monkeypatch: pytest.MonkeyPatch, work: Any, status: int) -> None:
    """SIGXCPU at the soft CPU limit, SIGKILL at the hard one (the work ignoring SIGXCPU): stopped by a limit."""
    monkeypatch.setattr(bounded_module, "_cpu_limit", lambda seconds: 1)  # the child's, forked from here
    ended = run_bounded(work, seconds=60)
    assert ended.how == EXITED and ended.status == status
    assert ended.past_cpu_limit and ended.by_limit


def test_work_writing_to_its_answer_pipe_does_not_pass_its_bytes_off_as_the_answer() -> None:
    def forge() -> bool:
        for fd in os.listdir("/proc/self/fd"):
            if int(fd) > 2:
                with contextlib.suppress(OSError):
                    os.write(int(fd), b'["v", true]')
        return False

    assert run_bounded(forge, seconds=30) == Ended(EXITED, status=0)


def _descriptors() -> dict[str, str]:
    links = {}
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # listdir's own, closed since
            links[fd] = os.readlink(f"/proc/self/fd/{fd}")
    return links


def test_the_child_holds_only_its_answer_pipe_and_writes_nowhere_else(tmp_path: Path) -> None:
    kept = os.open(tmp_path / "open-in-parent", os.O_WRONLY | os.O_CREAT)
    try:
        links = run_bounded(_descriptors, seconds=30).value
    finally:
        os.close(kept)
    assert {fd: links[fd] for fd in ("0", "1", "2")} == dict.fromkeys(("0", "1", "2"), "/dev/null")
    others = [link for fd, link in links.items() if fd not in ("0", "1", "2")]
    assert len(others) == 1 and others[0].startswith("pipe:")


def test_an_interrupted_wait_kills_and_reaps_the_child() -> None:
    def interrupt(*_: Any) -> None:
        raise KeyboardInterrupt

    before = _children()
    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.5)
    try:
        with pytest.raises(KeyboardInterrupt):
            run_bounded(_spin, seconds=600)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert _children() == before


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_the_child_does_not_outlive_its_killed_parent(tmp_path: Path, how: signal.Signals) -> None:
    """SPEC §12: the child goes with the process that forked it, long before its CPU limit would stop it."""
    script = tmp_path / "parent.py"
    script.write_text(textwrap.dedent("""
        from assay._bounded import run_bounded

        def spin():
            while True:
                pass

        print("ready", flush=True)
        run_bounded(spin, seconds=600)
    """), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert parent.stdout is not None and parent.stdout.readline().strip() == "ready"
        children: list[int] = []
        deadline = time.monotonic() + 30
        while not children and time.monotonic() < deadline:
            with open(f"/proc/{parent.pid}/task/{parent.pid}/children") as fh:
                children = [int(p) for p in fh.read().split()]
            time.sleep(0.05)
        assert children, "the child did not start"
    finally:
        parent.send_signal(how)
        parent.wait()
    if not _gone(children[0]):
        os.kill(children[0], signal.SIGKILL)
        raise AssertionError("the child outlived its killed parent")


def test_a_caller_started_with_its_standard_streams_closed_still_gets_the_answer(tmp_path: Path) -> None:
    """The answer pipe then takes the numbers 0 and 1; the child's ``/dev/null`` streams must not replace it."""
    script = tmp_path / "closed.py"
    script.write_text(textwrap.dedent(f"""
        import os
        for fd in (0, 1, 2):
            os.close(fd)
        from assay._bounded import run_bounded

        ended = run_bounded(lambda: 45, seconds=30)
        with open({str(tmp_path / "ended")!r}, "w") as fh:
            fh.write(repr(tuple(ended)))
    """), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    subprocess.run([sys.executable, str(script)], env=env, check=True, timeout=120)
    assert (tmp_path / "ended").read_text() == repr((ANSWERED, 45, 0, False))


def _close_the_pipe_and_sleep() -> int:
    os.closerange(3, 4096)
    time.sleep(20)  # not CPU time: the CPU limit does not end it
    return 1


def test_work_that_closes_its_pipe_and_goes_on_is_stopped_at_the_deadline() -> None:
    before = _children()
    assert run_bounded(_close_the_pipe_and_sleep, seconds=0.5) == Ended(TIMED_OUT, status=-signal.SIGKILL)
    assert _children() == before


def _start_a_process(then_spin: bool, leave_group: bool, note: Path) -> int:
    """Start a process that sleeps holding the answer pipe (in the work's process group, or a session of its own),
    its pid written to ``note``; then answer with that pid, or spin past the deadline."""
    pid = os.fork()
    if pid == 0:
        if leave_group:
            os.setsid()
        time.sleep(60)
        os._exit(0)
    note.write_text(str(pid))
    if then_spin:
        _spin()
    return pid


@pytest.mark.parametrize("then_spin", [False, True])
def test_processes_the_work_starts_end_with_it_and_do_not_hold_its_answer_back(then_spin: bool, tmp_path: Path) -> None:
    def work() -> int:
        return _start_a_process(then_spin, False, tmp_path / "pid")

    ended = run_bounded(work, seconds=3)
    started = int((tmp_path / "pid").read_text())
    assert _gone(started, seconds=5), "a process the work started outlived it"
    if then_spin:
        assert ended == Ended(TIMED_OUT, status=-signal.SIGKILL)
    else:  # answered at once: the answer is read when the child ends, not when the last holder of its pipe does
        assert ended == Ended(ANSWERED, started, status=0)


def test_a_process_that_left_the_work_s_group_does_not_hold_its_answer_back(tmp_path: Path) -> None:
    def work() -> int:
        return _start_a_process(False, True, tmp_path / "pid")

    try:
        ended = run_bounded(work, seconds=5)
    finally:
        with contextlib.suppress(OSError, ValueError):
            os.kill(int((tmp_path / "pid").read_text()), signal.SIGKILL)
    assert ended.how == ANSWERED and ended.status == 0


def test_an_answer_past_its_most_bytes_is_not_read_whole() -> None:
    most = 1024**2  # MOST_ANSWER
    ended = run_bounded(lambda: "x" * most, seconds=30)
    assert ended.how == EXITED and ended.value == f"its answer passed {most} bytes and it was killed"
    assert not ended.by_limit  # the parent's SIGKILL (unless the child had ended) is no limit's
    assert run_bounded(lambda: "x" * (most - 100), seconds=30).value == "x" * (most - 100)


def test_an_answer_too_long_after_most_of_the_cpu_time_is_not_the_cpu_limit_s(monkeypatch: pytest.MonkeyPatch) -> None:
    """The parent kills a child whose answer passes its most bytes: that child was not stopped by its CPU limit,
    however much of its CPU time it had used (here past the three quarters that count as the limit's)."""
    monkeypatch.setattr(bounded_module, "_cpu_limit", lambda seconds: 2)  # the limit's share: 1.5 s

    def work() -> str:
        while time.process_time() < 1.6:
            pass
        return "x" * (2 * 1024**2)

    ended = run_bounded(work, seconds=600)
    assert ended.how == EXITED and ended.value == "its answer passed 1048576 bytes and it was killed"
    assert not ended.past_cpu_limit and not ended.by_limit


class Interrupted(Exception):
    pass


def test_a_handler_s_exception_between_the_descriptors_closes_both(monkeypatch: pytest.MonkeyPatch) -> None:
    """A handler's exception right after the answer pipe is closed, as the child is ended: its pidfd is closed
    all the same, and the child is reaped."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        time.sleep(60)
        os._exit(0)
    os.close(write)
    watch = os.pidfd_open(pid)
    close = os.close

    def close_then_interrupted(fd: int) -> None:
        close(fd)
        if fd == read:
            raise Interrupted

    monkeypatch.setattr(os, "close", close_then_interrupted)
    with pytest.raises(Interrupted):
        bounded_module._end(pid, read, watch)
    monkeypatch.undo()
    with pytest.raises(OSError):
        os.fstat(watch)  # closed
    assert pid not in _children()


def test_a_signal_while_the_handlers_are_put_back_is_noted_and_no_wrapper_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    """A signal that comes while the handlers are put back is noted, then handled once they are (its exception
    coming from :meth:`release`); the handler left is the process's own, not the holder's, and no later holder
    takes a holder's for the original (each call would wrap the last: the chain would grow without end)."""
    seen: list[int] = []

    def interrupt(signum: int, frame: object) -> None:
        seen.append(signum)
        raise Interrupted

    previous = signal.signal(signal.SIGUSR1, interrupt)
    getsignal = signal.getsignal
    try:
        for _ in range(3):
            held = bounded_module._Held()
            sent: list[int] = []

            def getsignal_then_signal(sig: int, sent: list[int] = sent) -> Any:
                found = getsignal(sig)
                if sig == signal.SIGUSR1 and not sent:
                    # the signal, just as its handler is put back: held in this thread, another took it, and
                    # Python runs the handler installed here and now
                    sent.append(sig)
                    found(sig, None)
                return found

            monkeypatch.setattr(signal, "getsignal", getsignal_then_signal)
            with pytest.raises(Interrupted):
                held.release()
            monkeypatch.undo()
            assert getsignal(signal.SIGUSR1) is interrupt
        assert seen == [signal.SIGUSR1] * 3
        # a holder's handler left installed (a handler raised as they were put back): the next holder's original
        # is still the process's own
        first = bounded_module._Held()
        signal.signal(signal.SIGUSR1, first._handle)
        first.release()
        signal.signal(signal.SIGUSR1, first._handle)
        second = bounded_module._Held()
        assert second.handlers[signal.SIGUSR1] is interrupt
        second.release()
        assert getsignal(signal.SIGUSR1) is interrupt
    finally:
        signal.signal(signal.SIGUSR1, previous)


def test_a_handler_s_exception_at_any_moment_leaves_no_child_and_no_descriptor(tmp_path: Path) -> None:
    """A signal handler raising (Ctrl-C's ``KeyboardInterrupt``) right after the fork, or while the child is
    reaped, does not leak the child (running, or a zombie) nor a descriptor.  Run in a process of its own without
    other threads (one that has them may take the signal in another thread, which holds none)."""
    script = tmp_path / "interrupted.py"
    script.write_text(textwrap.dedent("""
        import os, signal, time
        from assay._bounded import run_bounded

        class Interrupted(Exception):
            pass

        def interrupt(*_):
            raise Interrupted

        signal.signal(signal.SIGALRM, interrupt)
        run_bounded(lambda: 0, seconds=30)  # what the first call loads once
        descriptors = sorted(os.listdir("/proc/self/fd"))
        for i in range(1000):  # the timer's moments spread over the fork, the wait and the reaping
            try:  # (the timer set inside: on a busy machine it may fire before setitimer returns)
                signal.setitimer(signal.ITIMER_REAL, 0.0005 + (i % 37) * 0.00003)
                run_bounded(lambda: 0, seconds=30)
                time.sleep(0.003)  # the timer's signal, if it came after the call, is handled here
            except Interrupted:
                pass
        after = sorted(os.listdir("/proc/self/fd"))
        with open(f"/proc/self/task/{os.getpid()}/children") as fh:
            print(fh.read().split(), after == descriptors)
    """), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, str(script)], env=env, check=True, timeout=600, capture_output=True, text=True)
    assert done.stdout.strip() == "[] True"  # no child left, running or a zombie; the descriptors as before


_INTERRUPTED = """
import _thread, os, signal, time
from assay._bounded import run_bounded

class Interrupted(Exception):
    pass

def interrupt(*_):
    raise Interrupted

_thread.start_new_thread(time.sleep, (600,))  # a thread that holds no signal: the kernel gives it those held here
signal.signal(signal.SIGALRM, interrupt)
run_bounded(lambda: 0, seconds=30)  # what the first call loads once
descriptors = sorted(os.listdir("/proc/self/fd"))
interrupted = 0
for i in range(1500):  # the timer's moments spread over the fork, the wait and the reaping
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.0005 + (i % 37) * 0.00003)
        run_bounded(lambda: 0, seconds=30)
        # the timer's signal, if it came after, is handled here (another thread that took it may trip Python's
        # flag later, on a busy machine): the next timer is not set before, so that no two signals merge
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            time.sleep(0.001)
    except Interrupted:
        interrupted += 1
after = sorted(os.listdir("/proc/self/fd"))
with open(f"/proc/self/task/{os.getpid()}/children") as fh:
    print(fh.read().split(), after == descriptors, interrupted, flush=True)
os._exit(0)
"""


def test_a_signal_another_thread_takes_leaves_no_child_and_is_not_lost(tmp_path: Path) -> None:
    """With another thread that holds no signal (a native library's worker, say), a signal held in the calling
    thread goes to that thread and Python runs its handler in the main thread all the same: the handler's
    exception still comes where the child is in hand (none left, no descriptor), and no signal is lost."""
    script = tmp_path / "interrupted.py"
    script.write_text(_INTERRUPTED, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, str(script)], env=env, check=True, timeout=600, capture_output=True, text=True)
    children, same_descriptors, interrupted = done.stdout.split("] ")[0] + "]", *done.stdout.split("] ")[1].split()
    assert children == "[]" and same_descriptors == "True", done.stdout  # no child left, running or a zombie
    assert int(interrupted) == 1500  # every timer's signal reached its handler


def test_from_a_worker_thread_signals_reach_the_main_thread_s_handler(tmp_path: Path) -> None:
    """Called from a thread that is not the main one (which holds the signals while it forks), a signal sent to
    the process is handled in the main thread at once, and the call goes on, ending and reaping its child."""
    import threading

    seen: list[str] = []
    results: list[Ended] = []

    def note(signum: int, frame: object) -> None:
        seen.append(threading.current_thread().name)

    def calls() -> None:
        for _ in range(200):
            results.append(run_bounded(lambda: 1, seconds=30))

    previous = signal.signal(signal.SIGUSR1, note)
    worker = threading.Thread(target=calls, name="worker")
    before = _children()
    try:
        worker.start()
        sent = 0
        while worker.is_alive() and sent < 50:
            os.kill(os.getpid(), signal.SIGUSR1)
            sent += 1
            deadline = time.monotonic() + 30
            while len(seen) < sent and time.monotonic() < deadline:
                time.sleep(0.001)
            assert len(seen) == sent  # handled, not left pending behind the worker's mask
        worker.join()
    finally:
        signal.signal(signal.SIGUSR1, previous)
    assert set(seen) == {threading.main_thread().name}
    assert len(results) == 200 and all(r.how == ANSWERED and r.value == 1 for r in results)
    assert _children() == before
