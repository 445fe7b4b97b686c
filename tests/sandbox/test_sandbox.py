"""The sandbox: outcomes, limits and isolation of single programs."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from assay.sandbox import Isolation, Limits, Outcome, Sandbox, isolation_unavailable

_UNAVAILABLE = isolation_unavailable("namespaces")
pytestmark = pytest.mark.skipif(_UNAVAILABLE is not None, reason=f"namespace isolation unavailable: {_UNAVAILABLE}")


@pytest.fixture(scope="module")
def sb() -> Sandbox:
    return Sandbox(Limits(timeout=3, memory=512 * 1024**2), isolation="namespaces")


def _sandbox_processes() -> list[int]:
    """Live processes running as one of this process's per-run sandbox uids (other test processes have their own)."""
    from assay.sandbox._runner import _UID_SLOTS, _slot_uid

    mine = range(_slot_uid(0), _slot_uid(0) + _UID_SLOTS)
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            uid = entry.stat().st_uid
        except FileNotFoundError:
            continue
        if uid in mine:
            found.append(int(entry.name))
    return found


def test_pass_fail_and_messages(sb):
    assert sb.run("x = 1\nassert x == 1").outcome is Outcome.PASSED
    failed = sb.run("def f():\n    return 2\nassert f() == 3, 'f is wrong'")
    assert failed.outcome is Outcome.FAILED
    assert failed.message.startswith("AssertionError: f is wrong") and "assert f() == 3" in failed.message
    err = sb.run("raise KeyError('k')")
    assert err.outcome is Outcome.FAILED and err.message.startswith("KeyError")
    assert sb.run("def (:").outcome is Outcome.FAILED
    assert sb.run("x = 1").isolation is Isolation.NAMESPACES


@pytest.mark.parametrize("program", ["import sys\nsys.exit(0)", "import os\nos._exit(0)", "raise SystemExit",
                                     "import os, signal\nos.kill(os.getpid(), signal.SIGTERM)"])
def test_leaving_early_is_never_a_pass(sb, program):
    res = sb.run(program + "\nprint('unreachable')")
    assert res.outcome in (Outcome.FAILED, Outcome.KILLED)
    assert "unreachable" not in res.stdout


def test_wall_clock_timeout_kills_the_tree(sb):
    res = sb.run("import os, time\nos.fork()\ntime.sleep(10**6)")
    assert res.outcome is Outcome.TIMEOUT
    assert _sandbox_processes() == []


def test_cpu_limit():
    res = Sandbox(Limits(timeout=30, cpu_time=1)).run("while True:\n    pass")
    assert res.outcome is Outcome.TIMEOUT and "CPU" in res.message


def test_memory_limit(sb):
    res = sb.run("blocks = []\nwhile True:\n    blocks.append(bytearray(50 * 2**20))")
    assert res.outcome is Outcome.MEMORY


def test_output_is_capped_and_the_rest_counted():
    res = Sandbox(Limits(timeout=20, output=1000)).run("import sys\nfor _ in range(64):\n    sys.stdout.write('x' * 2**20)")
    assert res.outcome is Outcome.PASSED
    assert len(res.stdout) == 1000 and res.stdout_bytes == 64 * 2**20 and res.output_truncated


def test_fork_bomb_is_contained_and_leaves_nothing_behind(sb):
    res = sb.run("import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass")
    assert res.outcome is Outcome.TIMEOUT
    assert _sandbox_processes() == []
    # the machine can still start processes
    assert subprocess.run(["true"], check=False).returncode == 0


def test_process_limit_applies_inside(sb):
    program = ("import os\nn = 0\ntry:\n    for _ in range(1000):\n        if os.fork() == 0:\n"
               "            import time; time.sleep(30)\n        n += 1\nexcept OSError:\n    pass\nprint(n)")
    res = sb.run(program)
    assert res.outcome is Outcome.PASSED
    assert 0 < int(res.stdout.strip()) < 64


def test_environment_is_scrubbed(sb, monkeypatch):
    monkeypatch.setenv("ASSAY_TEST_SECRET", "hunter2")
    res = sb.run("import os\nprint(sorted(os.environ))\nassert 'ASSAY_TEST_SECRET' not in os.environ")
    assert res.outcome is Outcome.PASSED and "hunter2" not in res.stdout


def test_no_network_even_to_localhost(sb):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    accepted = []
    server.settimeout(0.2)

    def accept():
        with contextlib.suppress(OSError):
            accepted.append(server.accept())

    t = threading.Thread(target=accept)
    t.start()
    port = server.getsockname()[1]
    res = sb.run(f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=2)")
    t.join()
    server.close()
    assert res.outcome is Outcome.FAILED and ("ConnectionRefused" in res.message or "OSError" in res.message)
    assert accepted == []


def test_caller_files_are_invisible_and_unwritable(sb, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    target = tmp_path / "written.txt"
    read = sb.run(f"print(open({str(secret)!r}).read())")
    write = sb.run(f"open({str(target)!r}, 'w').write('x')")
    escape = sb.run("open('../../etc/assay-escape', 'w').write('x')")
    assert read.outcome is Outcome.FAILED and "top secret" not in read.stdout
    assert write.outcome is Outcome.FAILED and not target.exists()
    assert escape.outcome is Outcome.FAILED and not Path("/etc/assay-escape").exists()


def test_private_working_directory_is_empty_and_writable(sb):
    res = sb.run("import os\nprint(sorted(os.listdir('.')))\nopen('scratch.txt', 'w').write('ok')")
    assert res.outcome is Outcome.PASSED and res.stdout.strip() == "['main.py']"
    again = sb.run("import os\nassert 'scratch.txt' not in os.listdir('.')")
    assert again.outcome is Outcome.PASSED


def test_killing_the_parent_fails_and_harms_no_one(sb):
    res = sb.run("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)")
    assert res.outcome is Outcome.FAILED and "PermissionError" in res.message
    res = sb.run("import os, signal\nos.kill(-1, signal.SIGKILL)")
    assert res.outcome is Outcome.FAILED
    assert os.getppid() > 1


def test_pool_keeps_input_order_and_isolates_failures(sb):
    programs = ["x = 1", "while True: pass", "assert False", "print('ok')"]
    res = sb.run_many(programs)
    assert [r.outcome for r in res] == [Outcome.PASSED, Outcome.TIMEOUT, Outcome.FAILED, Outcome.PASSED]


def test_limits_only_mode_refuses_root_without_a_readable_runtime_or_says_so():
    try:
        box = Sandbox(isolation="limits-only")
    except RuntimeError as exc:
        assert "cannot sandbox" in str(exc)
    else:
        res = box.run("x = 1")
        assert res.isolation is Isolation.LIMITS_ONLY and res.outcome is Outcome.PASSED


def test_only_system_directories_and_the_runtime_are_visible(sb):
    program = (
        "import os, socket\n"
        "print(socket.gethostname())\n"
        "print(sorted(os.listdir('/')))\n"
        "print(sorted(os.listdir('/tmp')))\n"
        "print(open('/proc/self/mountinfo').read())\n"
    )
    res = sb.run(program)
    assert res.outcome is Outcome.PASSED, res.message
    lines = res.stdout.splitlines()
    assert lines[0] == "sandbox"
    top = set(eval(lines[1]))
    assert top <= {"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "proc", "dev", "tmp", "sandbox", "opt",
                   *(Path(r).parts[1] for r in sb._roots)}
    assert lines[2] == "[]"
    mounts = "\n".join(lines[3:])
    here = str(Path.cwd())
    assert f" {here} " not in mounts and " /home " not in mounts and " /etc " not in mounts


@pytest.fixture
def any_backend(sandbox_backend: str) -> Sandbox:
    """A sandbox on each backend in turn: bubblewrap, and ``unshare(2)`` with bubblewrap hidden."""
    box = Sandbox(Limits(timeout=5, memory=512 * 1024**2), isolation="namespaces")
    assert box.backend == sandbox_backend
    return box


_CHECKER = """
_assay_remote.start()
f = _assay_remote.get('f')
value = f(2)
assert value == [2, (2,), {2: 1.5}, {3}, None] and type(value[1]) is tuple
assert f(2) != f(3)
_assay_remote.report({'value': repr(value)})
"""


def test_checked_run_values_come_back_as_plain_data(any_backend):
    honest = any_backend.run("def f(x):\n    return [x, (x,), {x: 1.5}, {x + 1}, None]\n", checker=_CHECKER)
    assert honest.outcome is Outcome.PASSED, honest.message
    assert honest.data == {"value": "[2, (2,), {2: 1.5}, {3}, None]"}
    # an object that equals everything is not plain data: it stays in the program and compares by identity
    forged = any_backend.run("class A:\n    def __eq__(self, o):\n        return True\n    __hash__ = object.__hash__\n"
                             "def f(x):\n    return A()\n", checker=_CHECKER)
    assert forged.outcome is Outcome.FAILED and forged.message.startswith("AssertionError"), forged.message


def test_the_program_of_a_checked_run_cannot_reach_its_checker(any_backend):
    """The checker runs under another uid: no signal, no memory, no file descriptors, no result channel."""
    reach = (
        "import os, signal\n"
        "checker = os.getppid()\n"
        "for attempt in (lambda: os.kill(checker, signal.SIGSTOP), lambda: os.kill(checker, signal.SIGKILL),\n"
        "                lambda: open(f'/proc/{checker}/mem', 'rb').read(1), lambda: os.listdir(f'/proc/{checker}/fd')):\n"
        "    try:\n"
        "        attempt()\n"
        "    except PermissionError:\n"
        "        continue\n"
        "    raise SystemExit('reached the checker')\n"
        "def f(x):\n"
        "    return 0\n"
    )
    res = any_backend.run(reach, checker=_CHECKER)
    assert res.outcome is Outcome.FAILED and res.message.startswith("AssertionError"), res.message
    assert res.data is None
    # a program that ends before the checker is done ends the run as it ended
    assert any_backend.run("import os\nos._exit(0)", checker=_CHECKER).outcome is Outcome.FAILED
    killed = any_backend.run("def f(x):\n    import os, signal\n    os.kill(os.getpid(), signal.SIGKILL)\n", checker=_CHECKER)
    assert killed.outcome is Outcome.KILLED and "SIGKILL" in killed.message


@pytest.fixture
def outside_tmp() -> Iterator[Path]:
    """A folder outside ``/tmp`` (which the sandbox replaces), readable by anyone."""
    import shutil
    import tempfile

    base = Path("/var/tmp")
    if not base.is_dir():
        pytest.skip("no /var/tmp")
    folder = Path(tempfile.mkdtemp(prefix="assay-extra-root-", dir=base))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_extra_roots_are_shown_read_only_at_their_path(sandbox_backend: str, outside_tmp: Path) -> None:
    (outside_tmp / "tool.cfg").write_text("setting=1")
    (outside_tmp / "tool.cfg").chmod(0o644)
    hidden = outside_tmp.parent / (outside_tmp.name + "-not-given")
    sb = Sandbox(Limits(timeout=5), isolation="namespaces", extra_roots=[str(outside_tmp)])
    read = sb.run(f"print(open({str(outside_tmp / 'tool.cfg')!r}).read())")
    assert read.outcome is Outcome.PASSED and read.stdout.strip() == "setting=1"
    write = sb.run(f"open({str(outside_tmp / 'new.txt')!r}, 'w').write('x')")
    assert write.outcome is Outcome.FAILED and not (outside_tmp / "new.txt").exists()
    # a neighbour not given stays invisible
    other = sb.run(f"import os\nprint(sorted(os.listdir({str(outside_tmp.parent)!r})))")
    assert other.outcome is Outcome.PASSED and hidden.name not in other.stdout and other.stdout.strip() == f"[{outside_tmp.name!r}]"


@pytest.mark.parametrize("root", ["relative/dir", "/", "/tmp", "/tmp/x", "/proc/self", "/no/such/folder/anywhere"])
def test_extra_roots_the_sandbox_cannot_show_are_refused(root: str) -> None:
    with pytest.raises(ValueError, match="sandbox extra root"):
        Sandbox(Limits(timeout=5), isolation="namespaces", extra_roots=[root])


_INTERRUPTED_POOL = """
import json, signal, threading, time

from assay.sandbox import Limits, Sandbox
from assay.sandbox._runner import _UID_SLOTS, _slot_uid
from pathlib import Path

box = Sandbox(Limits(timeout=60, memory=512 * 1024**2), isolation="namespaces", max_workers=2)
ended = []
main = threading.get_ident()


def ctrl_c_once_two_run():
    deadline = time.monotonic() + 60
    while len(box._live) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)
    signal.pthread_kill(main, signal.SIGINT)


def left():
    mine = range(_slot_uid(0), _slot_uid(0) + _UID_SLOTS)
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and entry.stat().st_uid in mine:
                found.append(int(entry.name))
        except FileNotFoundError:
            continue
    return found


timer = threading.Thread(target=ctrl_c_once_two_run)
timer.start()
started = time.monotonic()
interrupted = False
try:
    box.run_many(["import time\\ntime.sleep(100)"] * 6, on_result=lambda i, r: ended.append(i))
except KeyboardInterrupt:
    interrupted = True
timer.join()
print(json.dumps({"interrupted": interrupted, "seconds": time.monotonic() - started, "ended": ended, "left": left(),
                  "live": len(box._live), "again": box.run("print('again')").outcome.name}))
"""


def test_an_interrupted_pool_kills_its_programs_and_starts_no_other() -> None:
    """Ctrl-C while programs run (in a fresh interpreter, Python's own Ctrl-C handling): those running are killed at
    once (not left to their deadline) and handed to no callback, those queued never start, no process is left, and
    the sandbox runs programs again afterwards."""
    import json
    import sys

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", _INTERRUPTED_POOL], env=env, capture_output=True, text=True,
                          timeout=240, check=False)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["interrupted"] is True
    assert got["seconds"] < 50, got  # killed, not left to their 60 s deadline
    assert got["ended"] == [] and got["left"] == [] and got["live"] == 0, got
    assert got["again"] == "PASSED"
