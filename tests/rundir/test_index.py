"""The run index: trusted only while it matches the result files, repaired from them, never half-written."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import assay._beside as beside_module
import assay.rundir.index as index_module
from assay.cli import main
from assay.rundir.index import INDEX_FILE, RunIndex
from assay.rundir.statistics import index_run
from assay.summarize import run_summarizer

EXAMPLE = Path(__file__).parents[2] / "examples" / "quickstart" / "config.py"


def _write(run: Path, model: str, abbr: str, result: dict[str, object]) -> Path:
    path = run / "results" / model / f"{abbr}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=4))
    return path


def _config(run: Path, models: list[str], abbrs: list[str]) -> dict[str, object]:
    return {"models": [{"abbr": m} for m in models], "datasets": [{"abbr": a} for a in abbrs], "work_dir": str(run)}


def _cells(run: Path, models: list[str], abbrs: list[str]) -> list[list[str]]:
    result = run_summarizer(_config(run, models, abbrs), time_str=f"t{time.monotonic_ns()}", stats=False)
    return [row[4:] for row in result.table[1:]]


def _details(n_right: int, n: int) -> list[dict[str, object]]:
    return [{"pred": "A", "answer": "A" if i < n_right else "B", "correct": i < n_right} for i in range(n)]


@pytest.fixture
def run(tmp_path: Path) -> Path:
    run = tmp_path / "20240101_000000"
    _write(run, "m1", "d1", {"accuracy": 50.0, "details": _details(5, 10)})
    _write(run, "m1", "d2", {"accuracy": 70.0})
    _write(run, "m2", "d1", {"accuracy": 30.0, "details": _details(3, 10)})
    return run


@pytest.fixture
def trust_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Entries are trusted on the file's identity as soon as they are taken (not only 2 s later),
    so that what these tests change is seen through the identity alone, as it is in use."""
    monkeypatch.setattr(index_module, "RACY_NS", 0)


@pytest.fixture(params=["at once", "deferred"])
def checking(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Summaries check the index against the files before they compute, or (as for a large run on a
    machine with a second CPU) in a child process while they compute."""
    if request.param == "deferred":
        monkeypatch.setattr(index_module, "DEFER_MIN_FILES", 1)
        request.getfixturevalue("beside_starts")
    return str(request.param)


@pytest.fixture
def deferred(run: Path, monkeypatch: pytest.MonkeyPatch, beside_starts: list[bool]) -> list[bool]:
    """``run`` indexed, its entries trusted on identity; snapshots of any size may be deferred.
    The checks started beside the caller are recorded."""
    monkeypatch.setattr(index_module, "RACY_NS", 0)
    monkeypatch.setattr(index_module, "DEFER_MIN_FILES", 1)
    index_run(run)
    _settle()
    return beside_starts


def _rows(run: Path) -> dict[str, str]:
    with sqlite3.connect(run / INDEX_FILE) as con:
        return dict(con.execute("SELECT path, digest FROM files").fetchall())


def _stats_keys(run: Path) -> list[str]:
    """The results the index holds statistics of: in their file's row, or apart (results split into parts)."""
    with sqlite3.connect(run / INDEX_FILE) as con:
        kept = con.execute("SELECT path FROM files WHERE s_digests = digest").fetchall()
        apart = con.execute("SELECT result FROM stats").fetchall()
    return sorted([p[: -len(".json")] for (p,) in kept] + [r for (r,) in apart])


def _edit_in_place(path: Path, old: bytes, new: bytes) -> None:
    """Rewrite ``path`` in place (the same inode) with ``old`` replaced by ``new`` of the same length, and put
    its access and modification times back: only its change time tells."""
    assert len(old) == len(new)
    before = path.stat()
    with open(path, "r+b") as fh:
        data = fh.read()
        fh.seek(0)
        fh.write(data.replace(old, new))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def _settle() -> None:
    """Let the file-system clock move past the tick in which the index was written."""
    time.sleep(0.05)


def test_a_summary_builds_the_index_and_the_next_one_reads_no_result_file(run: Path) -> None:
    assert _cells(run, ["m1", "m2"], ["d1", "d2"]) == [["50.00", "30.00"], ["70.00", "-"]]
    assert sorted(_rows(run)) == ["m1/d1.json", "m1/d2.json", "m2/d1.json"]
    snap = RunIndex(run).snapshot()
    assert (snap.added, snap.changed, snap.removed) == ([], [], [])
    assert snap.head("m1/d2.json") == ({"accuracy": 70.0}, None)
    assert snap.head("m1/d1.json")[1] == 10  # the details are counted, never kept


@pytest.mark.usefixtures("trust_at_once")
def test_an_edit_in_place_with_the_same_size_and_times_is_noticed(run: Path, checking: str) -> None:
    assert _cells(run, ["m1"], ["d2"]) == [["70.00"]]
    path = run / "results" / "m1" / "d2.json"
    before = path.stat()
    _settle()
    _edit_in_place(path, b"70.0", b"60.0")
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)
    assert _cells(run, ["m1"], ["d2"]) == [["60.00"]]
    assert RunIndex(run).snapshot().changed == []  # repaired by the summary


@pytest.mark.usefixtures("trust_at_once")
def test_a_file_replaced_by_one_of_the_same_size_and_time_is_noticed(run: Path, checking: str) -> None:
    assert _cells(run, ["m1"], ["d2"]) == [["70.00"]]
    path = run / "results" / "m1" / "d2.json"
    before = path.stat()
    _settle()
    other = path.with_name("incoming.tmp")
    other.write_bytes(path.read_bytes().replace(b"70.0", b"60.0"))
    os.utime(other, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(other, path)
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    if checking == "deferred":
        assert _cells(run, ["m1"], ["d2"]) == [["60.00"]]
        return
    snap = RunIndex(run).snapshot()
    assert snap.changed == ["m1/d2.json"]
    assert snap.head("m1/d2.json") == ({"accuracy": 60.0}, None)


def test_an_edit_right_after_indexing_is_noticed_by_content(run: Path, checking: str) -> None:
    """Within the file system's timestamp granularity an edit may keep every time: such entries are checked by content."""
    assert _cells(run, ["m1"], ["d2"]) == [["70.00"]]
    path = run / "results" / "m1" / "d2.json"
    before = path.stat()
    path.write_bytes(path.read_bytes().replace(b"70.0", b"60.0"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert _cells(run, ["m1"], ["d2"]) == [["60.00"]]


def test_deleted_and_added_results(run: Path, checking: str) -> None:
    assert _cells(run, ["m1", "m2"], ["d1", "d2"]) == [["50.00", "30.00"], ["70.00", "-"]]
    (run / "results" / "m1" / "d2.json").unlink()
    _write(run, "m2", "d2", {"accuracy": 90.0})
    assert _cells(run, ["m1", "m2"], ["d1", "d2"]) == [["50.00", "30.00"], ["-", "90.00"]]
    assert sorted(_rows(run)) == ["m1/d1.json", "m2/d1.json", "m2/d2.json"]


def test_statistics_come_from_the_index_and_follow_a_changed_file(run: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import assay.rundir.statistics as statistics
    from assay.stats import ResultStats, StatsOptions

    first = run_summarizer(_config(run, ["m1"], ["d1"]), time_str="a")
    assert first.stats.cell("m1", "d1", "accuracy").method == "wilson"
    real = statistics.run_task
    read: list[str] = []

    def spy(task: statistics.Task, run_dir: str, options: StatsOptions) -> ResultStats:
        read.append(task.abbr)
        return real(task, run_dir, options)

    monkeypatch.setattr(statistics, "run_task", spy)
    again = run_summarizer(_config(run, ["m1"], ["d1"]), time_str="b")
    assert read == []  # every interval came from the index
    assert again.stats.cell("m1", "d1", "accuracy") == first.stats.cell("m1", "d1", "accuracy")
    _write(run, "m1", "d1", {"accuracy": 80.0, "details": _details(8, 10)})
    changed = run_summarizer(_config(run, ["m1"], ["d1"]), time_str="c")
    assert read == ["d1"]
    stat = changed.stats.cell("m1", "d1", "accuracy")
    assert stat.value == 80.0 and stat.low is not None and stat.low > first.stats.cell("m1", "d1", "accuracy").low


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "other-layout"])
def test_a_corrupt_or_truncated_index_is_rebuilt(run: Path, damage: str, caplog: pytest.LogCaptureFixture) -> None:
    for i in range(40):  # an index of several pages, so that truncation cuts some
        _write(run, "m3", f"x{i}", {"accuracy": float(i), "note": "n" * 500})
    assert _cells(run, ["m1", "m2"], ["d1", "d2"]) == [["50.00", "30.00"], ["70.00", "-"]]
    path = run / INDEX_FILE
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"this is not a database" * 100)
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 3])
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        with sqlite3.connect(path) as con:
            con.execute("UPDATE meta SET value = '999' WHERE key = 'format'")
    _write(run, "m2", "d2", {"accuracy": 90.0})
    assert _cells(run, ["m1", "m2"], ["d1", "d2"]) == [["50.00", "30.00"], ["70.00", "90.00"]]
    assert len(_rows(run)) == 44
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_deleting_the_index_loses_nothing(run: Path) -> None:
    expected = run_summarizer(_config(run, ["m1", "m2"], ["d1", "d2"]), time_str="a")
    RunIndex(run).remove()
    again = run_summarizer(_config(run, ["m1", "m2"], ["d1", "d2"]), time_str="b")
    assert again.table == expected.table
    assert again.stats.to_json() == expected.stats.to_json()


@pytest.mark.usefixtures("trust_at_once")
def test_an_index_read_on_another_path_checks_each_file_by_content_once(run: Path, tmp_path: Path) -> None:
    assert _cells(run, ["m1", "m2"], ["d1", "d2"]) == [["50.00", "30.00"], ["70.00", "-"]]
    moved = tmp_path / "elsewhere" / run.name
    shutil.copytree(run, moved)  # other inodes and change times, as on another machine
    _settle()
    snap = RunIndex(moved).snapshot()
    assert (snap.added, snap.changed) == ([], [])
    assert sorted(snap.rechecked) == ["m1/d1.json", "m1/d2.json", "m2/d1.json"]
    assert _cells(moved, ["m1", "m2"], ["d1", "d2"]) == [["50.00", "30.00"], ["70.00", "-"]]
    assert RunIndex(moved).snapshot().rechecked == []  # the new identities were recorded


def test_an_index_that_cannot_be_opened_leaves_the_files(run: Path) -> None:
    """Where the index cannot be opened or written (here a folder stands in its place; a read-only run
    directory is the usual case), summaries and statistics are read from the result files."""
    (run / INDEX_FILE).mkdir()
    snap = RunIndex(run).snapshot()
    assert not snap.persisted and sorted(snap.added) == ["m1/d1.json", "m1/d2.json", "m2/d1.json"]
    result = run_summarizer(_config(run, ["m1", "m2"], ["d1", "d2"]), time_str="t")
    assert [row[4:] for row in result.table[1:]] == [["50.00", "30.00"], ["70.00", "-"]]
    assert result.stats.cell("m1", "d1", "accuracy").method == "wilson"
    assert (run / INDEX_FILE).is_dir()


_KILLED_WRITER = """
import sys, time
from assay.rundir.index import RunIndex
from assay.rundir.record import FileIdentity, ResultRecord
index = RunIndex(sys.argv[1])
heavy = b'{"accuracy": 1.0, "pad": "' + b"x" * 20000 + b'"}'
entries = [ResultRecord(f"big/{i}.json", FileIdentity(1, 1, 1, 1), 1, "0" * 64, None, heavy) for i in range(40000)]
print("writing", flush=True)
index.record(entries)
print("done", flush=True)
"""


def test_a_kill_during_the_index_write_leaves_the_previous_index(run: Path, tmp_path: Path) -> None:
    assert _cells(run, ["m1", "m2"], ["d1", "d2"]) == [["50.00", "30.00"], ["70.00", "-"]]
    before = _rows(run)
    script = tmp_path / "writer.py"
    script.write_text(textwrap.dedent(_KILLED_WRITER))
    child = subprocess.Popen([sys.executable, str(script), str(run)], stdout=subprocess.PIPE)
    assert child.stdout is not None and child.stdout.readline() == b"writing\n"
    journal = run / f"{INDEX_FILE}-journal"
    deadline = time.monotonic() + 60
    while not journal.exists() and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.001)
    assert child.poll() is None, "the write ended before it could be interrupted"
    time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert journal.exists()  # interrupted in the middle of its transaction
    assert _rows(run) == before  # the next reader rolls the transaction back
    with sqlite3.connect(run / INDEX_FILE) as con:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert _cells(run, ["m1", "m2"], ["d1", "d2"]) == [["50.00", "30.00"], ["70.00", "-"]]


def test_eval_records_each_result_in_the_index_from_the_driver(tmp_path: Path) -> None:
    work = tmp_path / "w"
    assert main(["eval", str(EXAMPLE), "-w", str(work)]) == 0
    (run,) = work.iterdir()
    results = sorted(p.relative_to(run / "results").as_posix() for p in (run / "results").rglob("*.json"))
    assert sorted(_rows(run)) == results  # recorded by the driver: no summary has run yet
    assert sorted(_stats_keys(run)) == [r[: -len(".json")] for r in results]  # with the workers' statistics


def _written(run: Path) -> dict[str, str | None]:
    with sqlite3.connect(run / INDEX_FILE) as con:
        return dict(con.execute("SELECT path, written FROM files").fetchall())


def test_the_index_keeps_the_digest_of_what_assay_wrote_apart_from_the_present_bytes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The driver records, per result, the digest of the bytes its worker wrote; a reader that finds the
    file changed takes the new bytes and keeps that digest; an index built again from the files (here one
    of the previous layout) takes it from the ``.stats`` files, and a result without one has none."""
    work = tmp_path / "w"
    assert main(["eval", str(EXAMPLE), "-w", str(work)]) == 0
    (run,) = work.iterdir()
    written = _written(run)
    assert len(written) == 6 and written == _rows(run)
    (run / "results" / "chat-small" / "quick_mcq.json").write_text('{"accuracy": 99.0}', encoding="utf-8")
    for _ in range(2):  # the first reader repairs the index, the second takes it as it is
        snap = RunIndex(run).snapshot()
        assert snap.written("chat-small/quick_mcq.json") == written["chat-small/quick_mcq.json"]
        assert snap.digest("chat-small/quick_mcq.json") != written["chat-small/quick_mcq.json"]
        assert _written(run) == written
    with sqlite3.connect(run / INDEX_FILE) as con:
        con.execute("UPDATE meta SET value = '2' WHERE key = 'format'")
    (run / "results" / "reasoner" / "quick_short.stats").unlink()
    snap = RunIndex(run).snapshot()
    assert "is rebuilt from the result files" in caplog.text and len(snap.added) == 6
    assert _written(run) == {**written, "reasoner/quick_short.json": None}
    assert snap.written("chat-small/quick_mcq.json") == written["chat-small/quick_mcq.json"]
    assert snap.written("reasoner/quick_short.json") is None


def test_the_summary_of_run_reads_no_result_file_its_workers_wrote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``assay run`` hashes each result it writes once: its summary, under the same writer lock, takes the
    entries its workers recorded; a later summary still checks a recent entry by content, and sees (and marks) an edit."""
    read: list[str] = []
    real = index_module._read

    def counting(path: str) -> bytes:
        read.append(path)
        return real(path)

    monkeypatch.setattr(index_module, "_read", counting)
    work = tmp_path / "w"
    assert main(["run", str(EXAMPLE), "-w", str(work), "--no-report"]) == 0
    assert read == []
    (run,) = work.iterdir()
    path = run / "results" / "chat-small" / "quick_mcq.json"
    before = path.stat()
    path.write_bytes(path.read_bytes().replace(b'"accuracy": 80.0', b'"accuracy": 70.0'))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    config = {"models": [{"abbr": "chat-small"}], "datasets": [{"abbr": "quick_mcq"}], "work_dir": str(run)}
    table = run_summarizer(config, time_str="later", stats=False).table
    assert table[1][-1] == "70.00*"  # the edit seen, and marked: not the bytes assay wrote
    assert str(path) in read


def test_concurrent_runs_into_one_run_directory(tmp_path: Path) -> None:
    """Two `assay eval --wait` started at once on one run directory take turns: every result of both ends up indexed."""
    from assay.config import load_config

    config = load_config(EXAMPLE)
    models = [m["abbr"] for m in config.variables["models"]]
    assert len(models) >= 2
    work = tmp_path / "w"
    (work / "20240101_000000").mkdir(parents=True)
    cfgs = []
    for i, model in enumerate(models[:2]):
        text = EXAMPLE.read_text() + f"\nmodels = [m for m in models if m['abbr'] == {model!r}]\n"
        cfg = EXAMPLE.with_name(f"_concurrent_{os.getpid()}_{i}.py")
        cfg.write_text(text)
        cfgs.append(cfg)
    try:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        procs = [
            subprocess.Popen([sys.executable, "-m", "assay", "eval", str(cfg), "-w", str(work), "-r", "20240101_000000", "--wait"],
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            for cfg in cfgs
        ]
        for p in procs:
            _, err = p.communicate(timeout=300)
            assert p.returncode == 0, err.decode()
    finally:
        for cfg in cfgs:
            cfg.unlink()
    run = work / "20240101_000000"
    results = sorted(p.relative_to(run / "results").as_posix() for p in (run / "results").rglob("*.json"))
    assert {r.split("/")[0] for r in results} == set(models[:2])
    assert sorted(_rows(run)) == results
    snap = RunIndex(run).snapshot()
    assert (snap.added, snap.changed, snap.removed) == ([], [], [])


def test_an_opencompass_work_dir_is_indexed_on_first_use(run: Path) -> None:
    assert not (run / INDEX_FILE).exists()
    snap = index_run(run)
    assert sorted(snap.added) == ["m1/d1.json", "m1/d2.json", "m2/d1.json"]
    assert _stats_keys(run) == ["m1/d1", "m1/d2", "m2/d1"]


def test_the_index_command_reports_what_changed(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["index", str(run)]) == 0
    assert "3 results, 3 added, 0 changed, 0 removed" in capsys.readouterr().out
    (run / "results" / "m1" / "d2.json").unlink()
    _write(run, "m2", "d1", {"accuracy": 31.0, "details": _details(3, 10)})
    assert main(["index", str(run), "--check"]) == 1  # a result the index expects is missing
    out = capsys.readouterr().out
    assert "changed since indexed: results/m2/d1.json" in out
    assert "removed since indexed: results/m1/d2.json" in out
    assert "problem: results/m1/d2.json: missing: the run index recorded it" in out
    assert "2 results, 0 added, 1 changed, 1 removed" in out


@pytest.mark.usefixtures("deferred")
def test_a_deferred_check_confirms_an_unchanged_run(run: Path) -> None:
    snap = RunIndex(run).snapshot(deferred=True)
    assert snap.deferred  # the files are being checked in a child process
    assert snap.head("m1/d2.json") == ({"accuracy": 70.0}, None)
    assert snap.names("m1") == {"d1.json", "d2.json"}
    assert snap.confirm() and not snap.deferred
    assert (snap.added, snap.changed, snap.removed) == ([], [], [])
    assert snap.confirm()  # again: nothing left to wait for


def test_a_summary_checks_a_large_index_while_it_computes(run: Path, deferred: list[bool]) -> None:
    """Deferred, the check runs beside the summary; a file changed meanwhile makes the summary start again."""
    started = deferred
    assert _cells(run, ["m1", "m2"], ["d1", "d2"]) == [["50.00", "30.00"], ["70.00", "-"]]
    assert started == [True]
    _edit_in_place(run / "results" / "m1" / "d2.json", b"70.0", b"60.0")
    assert _cells(run, ["m1", "m2"], ["d1", "d2"]) == [["50.00", "30.00"], ["60.00", "-"]]
    assert started == [True, True]  # the second summary's check failed: it read the files again, at once
    assert RunIndex(run).snapshot().changed == []  # and repaired the index


@pytest.mark.usefixtures("deferred")
def test_statistics_of_a_deferred_snapshot_are_kept_only_once_confirmed(run: Path) -> None:
    RunIndex(run).remove()
    RunIndex(run).snapshot()  # an index without statistics
    _settle()
    snap = RunIndex(run).snapshot(deferred=True)
    snap.put_stats("m1/d2", snap.digest("m1/d2.json") or "", "s", b"x")
    snap.flush()
    assert _stats_keys(run) == []  # not before the files are known to be as indexed
    assert snap.confirm()
    assert _stats_keys(run) == ["m1/d2"]

    (run / "results" / "m2" / "d1.json").unlink()
    snap = RunIndex(run).snapshot(deferred=True)
    assert "m2/d1.json" in snap.rows  # as indexed, until confirmed
    snap.put_stats("m1/d1", snap.digest("m1/d1.json") or "", "s", b"x")
    snap.flush()
    assert not snap.confirm()  # a file was removed: what was computed from the snapshot is dropped
    assert _stats_keys(run) == ["m1/d2"]


@pytest.mark.usefixtures("deferred")
def test_a_deferred_check_that_fails_or_is_abandoned_leaves_nothing_behind(
    run: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import gc
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()

    def broken(self: RunIndex, known: object) -> None:
        raise RuntimeError("the check failed")

    with monkeypatch.context() as m:
        m.setattr(RunIndex, "_unchanged", broken)
        snap = RunIndex(run).snapshot(deferred=True)
        assert snap.deferred
        assert not snap.confirm()  # a failed check is a failed confirmation: the caller reads the files
    assert list((tmp_path / "tmp").iterdir()) == []

    snap = RunIndex(run).snapshot(deferred=True)
    pid = snap._check.pid  # type: ignore[union-attr]
    del snap
    gc.collect()
    with pytest.raises(ChildProcessError):  # the child was stopped and reaped
        os.waitpid(pid, os.WNOHANG)
    assert list((tmp_path / "tmp").iterdir()) == []


@pytest.mark.usefixtures("deferred")
def test_a_summary_that_fails_stops_its_deferred_check(run: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.summarize import DefaultSummarizer

    summarizer = DefaultSummarizer(_config(run, ["m1"], ["d1"]))

    def fail(scores: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(summarizer, "compute_stats", fail)
    with pytest.raises(KeyboardInterrupt):
        summarizer.summarize(time_str="20240101_000001")
    assert summarizer.snapshot is not None and not summarizer.snapshot.deferred
    assert not (run / "summary").exists()


def test_a_forked_copy_of_a_snapshot_writes_nothing_into_the_index(run: Path) -> None:
    """What a forked child puts into its copy of a snapshot (the report's ranking child computing the statistics
    for itself) is not written into the index: the process that took the snapshot writes what it computes."""
    RunIndex(run).remove()
    RunIndex(run).snapshot()  # an index without statistics
    snap = RunIndex(run).snapshot()
    assert not snap.deferred
    pid = os.fork()
    if pid == 0:  # the child: put and flush, then leave at once
        code = 1
        try:
            snap.put_stats("m1/d2", snap.digest("m1/d2.json") or "", "s", b"x")
            snap.flush()
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert _stats_keys(run) == []
    snap.put_stats("m1/d2", snap.digest("m1/d2.json") or "", "s", b"x")
    snap.flush()
    assert _stats_keys(run) == ["m1/d2"]  # from the snapshot's own process


def test_no_deferred_check_while_another_thread_runs(run: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    monkeypatch.setattr(index_module, "DEFER_MIN_FILES", 1)
    monkeypatch.setattr(beside_module, "cpus", lambda: 2)
    index_run(run)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        snap = RunIndex(run).snapshot(deferred=True)
    finally:
        stop.set()
        other.join()
    assert not snap.deferred and snap.confirm()


def test_the_samples_of_many_results_are_those_of_their_present_bytes(run: Path) -> None:
    """What the report looks up at once of every result's samples is what it would look up one by one:
    the samples of a result whose bytes changed since they were computed are not among them."""
    snap = RunIndex(run).snapshot()
    for rel in ("m1/d1.json", "m2/d1.json"):
        snap.put_samples(rel, snap.digest(rel) or "", "2.2 600", rel.encode())
    snap.flush()
    _write(run, "m2", "d1", {"accuracy": 40.0, "details": _details(4, 10)})  # other bytes than those indexed
    snap = RunIndex(run).snapshot()
    rels = ["m1/d1.json", "m1/d2.json", "m2/d1.json", "m3/d1.json"]
    found = snap.current_samples(rels)
    assert {rel: held[1:] for rel, held in found.items()} == {"m1/d1.json": ("2.2 600", b"m1/d1.json")}
    assert {rel: snap.samples(rel) for rel in rels} == {
        "m1/d1.json": ("2.2 600", b"m1/d1.json"), "m1/d2.json": None, "m2/d1.json": None, "m3/d1.json": None}
    # the digests of many results at once are those looked up one by one; the samples' table holds the
    # changed result's samples with the digest of the bytes they were computed from, not its present one
    keyed = {(rel.split("/")[0], rel.split("/")[1]): rel for rel in rels}
    assert snap.digests(keyed) == {key: snap.digest(rel) for key, rel in keyed.items()}
    assert snap.digests(keyed)[("m3", "d1.json")] is None and snap.digests(keyed)[("m1", "d1.json")]
    table = snap.all_samples()
    assert table["m2/d1.json"][0] != snap.digest("m2/d1.json")
    assert table["m1/d1.json"][0] == snap.digest("m1/d1.json")
