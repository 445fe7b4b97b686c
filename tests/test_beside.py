"""Work run in a forked child process beside the caller's."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

import assay._beside as beside_module
from assay._beside import Beside


@pytest.fixture(autouse=True)
def two_cpus(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Two CPUs, and threads other tests of this process left behind (idle) ignored; a temporary folder."""
    monkeypatch.setattr(beside_module, "cpus", lambda: 2)
    monkeypatch.setattr(beside_module, "fork_is_safe", lambda: True)
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_the_value_comes_back_and_nothing_is_left(two_cpus: Path) -> None:
    marker: list[int] = []

    def work() -> tuple[int, int]:
        marker.append(1)
        return os.getpid(), len(marker)

    job = Beside.start(work)
    assert job is not None
    ok, (pid, seen) = job.wait()
    assert ok and pid != os.getpid() and seen == 1
    assert marker == []  # the child's memory is its own
    assert list(two_cpus.iterdir()) == []


def test_a_failing_child_reports_failure(two_cpus: Path) -> None:
    def boom() -> None:
        raise RuntimeError("boom")

    job = Beside.start(boom)
    assert job is not None and job.wait() == (False, None)
    assert list(two_cpus.iterdir()) == []


def test_the_child_s_exception_reaches_the_caller_s_warning(two_cpus: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The work's exception in the child: its type, message and the last frames of its traceback are in the
    caller's warning, after what the child logged before it."""
    def deepest() -> None:
        raise KeyError("no column 'score' in the index")

    def ranking() -> None:
        logging.getLogger("assay.somewhere").warning("reading the index")
        deepest()

    with caplog.at_level(logging.WARNING):
        job = Beside.start(ranking, "the report's rank intervals")
        assert job is not None and job.wait() == (False, None)
    messages = [r.getMessage() for r in caplog.records]
    assert messages[0] == "reading the index"
    failed = messages[-1]
    assert failed.startswith("the report's rank intervals in a child process failed; done here instead: Traceback")
    assert "in deepest" in failed and "in ranking" in failed
    assert failed.endswith('KeyError: "no column \'score\' in the index"')
    assert list(two_cpus.iterdir()) == []


def test_a_discarded_child_is_stopped(two_cpus: Path) -> None:
    job = Beside.start(lambda: time.sleep(60))
    assert job is not None and job.pid is not None
    pid = job.pid
    started = time.monotonic()
    job.discard()
    assert time.monotonic() - started < 30
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)
    assert job.pid is None  # forgotten: a later discard signals nobody
    assert list(two_cpus.iterdir()) == []


def _ctrl_c_after(real: object) -> object:
    """``os.waitpid`` with a Ctrl-C landing just after it returns: raised there when Python's handlers may run,
    else (the signals held) pending until they are let through."""

    def waitpid(pid: int, options: int) -> tuple[int, int]:
        got = real(pid, options)  # type: ignore[operator]
        if signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, ()):
            signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        else:
            raise KeyboardInterrupt
        return got

    return waitpid


@pytest.mark.parametrize("signals", [1, 2])
def test_signals_while_the_child_is_reaped_come_once_it_is_done(two_cpus: Path, monkeypatch: pytest.MonkeyPatch,
                                                                signals: int) -> None:
    """Ctrl-C (once, or twice) while the discarded child is reaped: the child is reaped and forgotten first, then
    the exception comes, once; a discard after it does nothing more.  No zombie is left."""
    job = Beside.start(lambda: time.sleep(60))
    assert job is not None and job.pid is not None
    pid, real = job.pid, os.waitpid

    def waitpid(p: int, options: int) -> tuple[int, int]:
        for _ in range(signals):
            signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        return real(p, options)

    monkeypatch.setattr(os, "waitpid", waitpid)
    with pytest.raises(KeyboardInterrupt):
        job.discard()
    monkeypatch.setattr(os, "waitpid", real)
    assert job.pid is None
    job.discard()
    with pytest.raises(ChildProcessError):  # reaped: no zombie left
        os.waitpid(pid, os.WNOHANG)


def test_a_ctrl_c_just_after_the_child_ended_signals_no_other_process(two_cpus: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C the moment the child's end is reaped: its number, free from then on, may be another process's by
    the time the exception is handled, so no signal is sent to it after the reap."""
    job = Beside.start(lambda: 7)
    assert job is not None and job.pid is not None
    pid, reaped, late = job.pid, [], []
    real_waitpid, real_kill = os.waitpid, os.kill

    def waitpid(p: int, options: int) -> tuple[int, int]:
        got = _ctrl_c_after(real_waitpid)(p, options)  # type: ignore[operator]
        reaped.append(p)
        return got

    def kill(p: int, sig: int) -> None:
        if p in reaped:
            late.append((p, sig))
        real_kill(p, sig)

    monkeypatch.setattr(os, "waitpid", waitpid)
    monkeypatch.setattr(os, "kill", kill)
    with pytest.raises(KeyboardInterrupt):
        job.wait()
    monkeypatch.undo()
    assert reaped == [pid] and late == []
    assert job.pid is None


_LEFT_WRITING = """
import os, signal, sys, time
from pathlib import Path

import assay._beside as beside_module
from assay.commands import Terminated
from assay.commands._options import terminated_by_signals
from assay.fileio import atomic_write_chunks

beside_module.cpus = lambda: 2
folder, ready = Path(sys.argv[1]), Path(sys.argv[2])


def work():
    def chunks():
        yield b"half of it"
        ready.with_name("ready.new").write_text(str(os.getpid()))
        os.replace(ready.with_name("ready.new"), ready)
        time.sleep(60)
        yield b"the rest"

    atomic_write_chunks(folder / "written.txt", chunks())
    atomic_write_chunks(folder / "never.txt", [b"x"])


with terminated_by_signals():
    try:  # the signal may come while the child is started (the child already writing) or while it is waited for
        job = beside_module.Beside.start(work, "writing a file")
        assert job is not None
        print(job.wait(), flush=True)
    except Terminated as exc:
        sys.exit(128 + exc.signum)
"""


@pytest.mark.parametrize("how", ["sigterm twice", "child killed"])
def test_a_job_stopped_while_it_writes_leaves_no_temporary_file(two_cpus: Path, tmp_path: Path, how: str) -> None:
    """A job (any function, not only the summary's) writing a file when SIGTERM reaches its caller, twice in a
    row (the second while the first one's cleanup runs), or when its child is killed outright: the file it was
    writing is removed, and the caller ends as SIGTERM ends it (status 143), or goes on without the child's value."""
    folder, ready = tmp_path / "out", tmp_path / "ready"
    folder.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-c", _LEFT_WRITING, str(folder), str(ready)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not ready.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.01)
        assert ready.exists(), proc.communicate()
        assert next(p.name for p in folder.iterdir()).startswith(".written.txt.")  # being written
        if how == "sigterm twice":
            proc.send_signal(signal.SIGTERM)
            proc.send_signal(signal.SIGTERM)
        else:
            os.kill(int(ready.read_text()), signal.SIGKILL)
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
        proc.wait()
    assert list(folder.iterdir()) == []
    if how == "sigterm twice":
        # the second signal, when it comes once the first one's exit has put the default handling back, ends the
        # caller itself
        assert proc.returncode in (128 + signal.SIGTERM, -signal.SIGTERM), err
    else:
        assert proc.returncode == 0 and out.strip() == "(False, None)", err


def test_not_started_beside_another_thread_or_on_one_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()
    monkeypatch.setattr(beside_module, "cpus", lambda: 2)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert Beside.start(lambda: 1) is None
    finally:
        stop.set()
        other.join()
    monkeypatch.setattr(beside_module, "cpus", lambda: 1)
    assert Beside.start(lambda: 1) is None


def _gone(pid: int) -> bool:
    """No process ``pid`` (or only its zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_an_interrupted_wait_stops_and_reaps_the_child(two_cpus: Path) -> None:
    """Ctrl-C while waiting for the child: the child is stopped and reaped, its answer's file removed, before
    the interrupt goes on."""
    job = Beside.start(lambda: time.sleep(60))
    assert job is not None and job.pid is not None
    pid = job.pid

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    try:
        with pytest.raises(KeyboardInterrupt):
            job.wait()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    with pytest.raises(ChildProcessError):  # reaped: no zombie left
        os.waitpid(pid, os.WNOHANG)
    assert job.pid is None
    assert list(two_cpus.iterdir()) == []


def test_what_the_child_logs_is_logged_by_the_caller(two_cpus: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Warnings the work logs in the child reach the caller's log, with their logger, level and text."""
    def work() -> int:
        logging.getLogger("assay.somewhere").warning("pictures not drawn: %s", "cannot draw")
        logging.getLogger("assay.somewhere").debug("not enabled: not passed on")
        return 7

    with caplog.at_level(logging.INFO):
        job = Beside.start(work)
        assert job is not None
        assert job.wait() == (True, 7)
    found = [(r.name, r.levelno, r.getMessage()) for r in caplog.records if r.name == "assay.somewhere"]
    assert found == [("assay.somewhere", logging.WARNING, "pictures not drawn: cannot draw")]


def test_a_killed_child_is_a_warning_naming_how_it_ended(two_cpus: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A child killed (e.g. by the out-of-memory killer) is reported as a warning naming the signal."""
    job = Beside.start(lambda: os.kill(os.getpid(), signal.SIGKILL), "ranking")
    assert job is not None
    with caplog.at_level(logging.WARNING):
        assert job.wait() == (False, None)
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("ranking" in m and "SIGKILL" in m for m in warned), warned
    assert list(two_cpus.iterdir()) == []


_ORPHAN = """
import os, signal, time
import assay._beside as b
b.cpus = lambda: 2
signal.signal(signal.SIGTERM, lambda signum, frame: None)  # the caller's own handling of SIGTERM
job = b.Beside.start(lambda: time.sleep(120))
print(job.pid, flush=True)
time.sleep(120)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
def test_the_child_dies_with_the_caller_and_a_sigterm_ends_it(two_cpus: Path) -> None:
    """The caller killed outright (SIGKILL): its child does not go on computing; and SIGTERM sent to a
    child ends it (the caller's handler of SIGTERM is not the child's)."""
    for how in ("caller killed", "child terminated"):
        proc = subprocess.Popen([sys.executable, "-c", _ORPHAN], stdout=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TMPDIR": str(two_cpus)})
        try:
            assert proc.stdout is not None
            pid = int(proc.stdout.readline())
            if how == "caller killed":
                proc.kill()
            else:
                os.kill(pid, signal.SIGTERM)
            for _ in range(300):
                if _gone(pid):
                    break
                time.sleep(0.1)
            assert _gone(pid), how
            if how == "caller killed":
                assert list(two_cpus.iterdir()) == []  # no answer's file left behind by the processes killed
        finally:
            proc.kill()
            proc.wait()


_INTERRUPTED = """
import _thread, os, signal, time
import assay._beside as b
b.cpus = lambda: 2

class Interrupted(Exception):
    pass

def interrupt(*_):
    raise Interrupted

kept = []

def once():
    job = b.Beside.start(lambda: 0)
    assert job is not None
    kept.append(job)  # collected after the loop: a handler raising in a finalizer loses its exception
    assert job.wait() == (True, 0)

# a thread Python's threading does not count (as a native library's worker): it holds no signal, so the kernel
# gives it those the caller holds, and Python runs the handler in the main thread all the same
_thread.start_new_thread(time.sleep, (600,))
signal.signal(signal.SIGALRM, interrupt)
once()  # what the first call loads once
descriptors = sorted(os.listdir("/proc/self/fd"))
interrupted = 0
for i in range(600):  # the timer's moments spread over the start, the fork and the wait
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.0003 + (i % 41) * 0.00005)
        once()
        # the timer's signal, if it came after, is handled here (another thread that took it may trip Python's
        # flag later, on a busy machine): the next timer is not set before, so that no two signals merge
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            time.sleep(0.001)
    except Interrupted:
        interrupted += 1
kept.clear()
after = sorted(os.listdir("/proc/self/fd"))
with open(f"/proc/self/task/{os.getpid()}/children") as fh:
    print(fh.read().split(), after == descriptors, interrupted, flush=True)
os._exit(0)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's /proc")
def test_a_handler_s_exception_at_any_moment_leaves_no_child_no_descriptor_and_no_file(two_cpus: Path) -> None:
    """A signal handler raising (Ctrl-C's ``KeyboardInterrupt``) at any moment of starting the child or waiting
    for it — with another thread about that the kernel may give the signal to — leaves no child (running, or a
    zombie), no descriptor and no file behind, and no signal is lost."""
    script = two_cpus.parent / "interrupted.py"
    script.write_text(_INTERRUPTED, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TMPDIR": str(two_cpus)}
    done = subprocess.run([sys.executable, str(script)], env=env, check=True, timeout=600, capture_output=True, text=True)
    children, rest = done.stdout.split("] ")
    same_descriptors, interrupted = rest.split()
    assert children == "[" and same_descriptors == "True", done.stdout
    assert int(interrupted) == 600  # every timer's signal reached its handler
    assert list(two_cpus.iterdir()) == []


_KILLED_THEN_EXIT = """
import os, signal, sys, time
from pathlib import Path

import assay._beside as beside_module
from assay.fileio import atomic_write_chunks

beside_module.cpus = lambda: 2
folder = Path(sys.argv[1])


def work():
    def chunks():
        yield b"half of it"
        (folder.parent / "ready").write_text("")
        time.sleep(60)
        yield b"the rest"

    atomic_write_chunks(folder / "written.txt", chunks())


job = beside_module.Beside.start(work, "writing a file")
while not (folder.parent / "ready").exists():
    time.sleep(0.01)
os.kill(job.pid, signal.SIGKILL)
print(job.wait(), sorted(p.name for p in folder.iterdir()), flush=True)
# the job is still referred to when the interpreter shuts down: its end runs then, with nothing left to do
"""


def test_a_job_alive_at_interpreter_exit_ends_quietly(two_cpus: Path, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", _KILLED_THEN_EXIT, str(folder)], env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(False, None) []"
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr, done.stderr


_RUNNING_AT_EXIT = """
import sys, time
from pathlib import Path

import assay._beside as beside_module
from assay.fileio import atomic_write_chunks

beside_module.cpus = lambda: 2
folder = Path(sys.argv[1])


def work():
    def chunks():
        yield b"half of it"
        (folder.parent / "ready").write_text("")
        time.sleep(60)
        yield b"the rest"

    atomic_write_chunks(folder / "written.txt", chunks())


job = beside_module.Beside.start(work, "writing a file")
while not (folder.parent / "ready").exists():
    time.sleep(0.01)
print(job.pid, sorted(p.name.split(".")[1] for p in folder.iterdir()), flush=True)
# the interpreter ends with the job never waited for, its child writing a file
"""


def test_a_job_running_at_interpreter_exit_is_stopped_and_its_file_removed(two_cpus: Path, tmp_path: Path) -> None:
    """A caller that ends without waiting for its job (a script's last line, an exception up to the top): the
    child is stopped and reaped, and the file it was writing removed, as the interpreter exits."""
    folder = tmp_path / "out"
    folder.mkdir()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", _RUNNING_AT_EXIT, str(folder)], env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    pid, names = done.stdout.split(" ", 1)
    assert names.strip() == "['written']"  # the child was writing when the interpreter exited
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert list(folder.iterdir()) == []
    assert not Path(f"/proc/{pid}").exists()  # stopped and reaped (the caller is gone: not a zombie either)


_CTRL_C_AT_EXIT = """
import os, signal, time

import assay._beside as beside_module

beside_module.cpus = lambda: 2
jobs = [beside_module.Beside.start(lambda: time.sleep(60), f"job {i}") for i in range(2)]
print(" ".join(str(job.pid) for job in jobs), flush=True)
reap = beside_module._kill_and_reap


def ctrl_c_while_the_first_is_ended(pid):
    if pid == jobs[0].pid:
        os.kill(os.getpid(), signal.SIGINT)  # held while the job is ended: raised once it is
    reap(pid)


beside_module._kill_and_reap = ctrl_c_while_the_first_is_ended
# the interpreter exits with both jobs never waited for
"""


def test_a_ctrl_c_while_jobs_are_ended_at_exit_ends_them_all(two_cpus: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", _CTRL_C_AT_EXIT], env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    pids = [int(p) for p in done.stdout.split()]
    assert len(pids) == 2, done.stderr
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert not any(Path(f"/proc/{pid}").exists() for pid in pids)  # both stopped and reaped
