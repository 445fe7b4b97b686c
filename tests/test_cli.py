"""The command line: run directories, reuse, exit codes, help (R-8.1, R-8.2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main


def _config(tmp_path: Path, wrong: bool = False) -> Path:
    (tmp_path / "d.jsonl").write_text('{"q": "a", "answer": "A"}\n{"q": "b", "answer": "B"}\n')
    preds = tmp_path / "preds"
    preds.mkdir(exist_ok=True)
    (preds / "d.json").write_text(json.dumps({"0": {"prediction": "A"}, "1": {"prediction": "C" if wrong else "B"}}))
    (preds / "e.json").write_text("{broken")
    cfg = tmp_path / "cfg.py"
    cfg.write_text(
        "datasets = [dict(abbr='d', type='JsonlDataset', path='d.jsonl', reader_cfg=dict(output_column='answer'),"
        " eval_cfg=dict(evaluator=dict(type='AccEvaluator')))]\n"
        "models = [dict(abbr='m', predictions='preds')]\n"
    )
    return cfg


def test_help_is_fast_to_import_and_lists_commands() -> None:
    out = subprocess.run([sys.executable, "-m", "assay", "--help"], capture_output=True, text=True, check=True).stdout
    for cmd in ("run", "eval", "summarize", "list"):
        assert cmd in out
    probe = "import sys, assay.cli; assay.cli._parser(); print(sorted(m for m in ('datasets', 'numpy', 'sympy', 'math_verify', 'ray') if m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip() == "[]"


def test_new_run_directory_then_reuse_latest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _config(tmp_path)
    work = tmp_path / "w"
    assert main(["eval", str(cfg), "-w", str(work)]) == 0
    (first,) = list(work.iterdir())
    assert (first / "results" / "m" / "d.json").is_file()
    assert (first / "logs" / "eval" / "m" / "d.out").is_file()
    capsys.readouterr()
    assert main(["eval", str(cfg), "-w", str(work), "-r"]) == 0
    assert list(work.iterdir()) == [first]
    assert "m/d reused" in capsys.readouterr().err
    assert len(list((first / "configs").glob("*.py"))) == 2  # one resolved config per invocation


def test_reuse_finds_the_newest_run_not_the_newest_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _config(tmp_path)
    work = tmp_path / "w"
    assert main(["eval", str(cfg), "-w", str(work), "-r", "20240101_000000"]) == 0
    (work / "20990101_000000").mkdir()  # a newer name that is not a run
    (work / "zzz_notes").mkdir()
    capsys.readouterr()
    assert main(["eval", str(cfg), "-w", str(work), "-r"]) == 0
    assert "m/d reused" in capsys.readouterr().err
    assert sorted(p.name for p in work.iterdir()) == ["20240101_000000", "20990101_000000", "zzz_notes"]
    # the run directory itself, with -r: that run
    assert main(["eval", str(cfg), "-w", str(work / "20240101_000000"), "-r"]) == 0
    assert "m/d reused" in capsys.readouterr().err
    assert sorted(p.name for p in (work / "20240101_000000").iterdir()) == [".assay.lock", "configs", "index.sqlite", "logs", "results"]


def test_copied_runs_without_timestamps_newest_by_modification(tmp_path: Path) -> None:
    import os

    from assay.rundir.layout import LATEST, resolve_run_dir

    work = tmp_path / "w"
    for i, name in enumerate(("b_run", "a_run")):
        (work / name / "results").mkdir(parents=True)
        os.utime(work / name, (1000 + i, 1000 + i))
    (work / "summary").mkdir()
    assert resolve_run_dir(work, LATEST).root.name == "a_run"
    assert resolve_run_dir(work, None, must_exist=True).root.name == "a_run"


def test_explicit_timestamp_names_the_run_directory(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    assert main(["eval", str(cfg), "-w", str(tmp_path / "w"), "-r", "20240102_030405"]) == 0
    assert (tmp_path / "w" / "20240102_030405" / "results" / "m" / "d.json").is_file()


def test_work_dir_defaults_to_the_configs_work_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = _config(tmp_path)
    cfg.write_text(cfg.read_text() + f"work_dir = {str(tmp_path / 'from_config')!r}\n")
    assert main(["eval", str(cfg)]) == 0
    assert len(list((tmp_path / "from_config").iterdir())) == 1


def test_failed_pair_gives_exit_code_one_and_names_its_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _config(tmp_path)
    cfg.write_text(
        cfg.read_text().replace(
            "datasets = [",
            "datasets = [dict(abbr='e', type='JsonlDataset', path='d.jsonl', reader_cfg=dict(output_column='answer'),"
            " eval_cfg=dict(evaluator=dict(type='AccEvaluator'))), ",
        )
    )
    rc = main(["eval", str(cfg), "-w", str(tmp_path / "w")])
    err = capsys.readouterr().err
    assert rc == 1
    assert "1 failed" in err and "m/e:" in err and "e.out" in err
    (run,) = list((tmp_path / "w").iterdir())
    assert json.loads((run / "results" / "m" / "d.json").read_text())["accuracy"] == 100.0


def test_config_error_exit_code_two(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "cfg.py"
    cfg.write_text("models = []\n")
    assert main(["eval", str(cfg), "-w", str(tmp_path / "w")]) == 2
    assert "models" in capsys.readouterr().err


def test_non_tty_progress_prints_one_line_per_task(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _config(tmp_path)
    main(["eval", str(cfg), "-w", str(tmp_path / "w")])
    err = capsys.readouterr().err
    assert "[1/1] m/d ok (2 samples" in err


def test_list_shows_registered_components(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "evaluators"]) == 0
    out = capsys.readouterr().out
    assert "AccEvaluator" in out and "EMEvaluator" in out


_HEAVY = ("datasets", "pyarrow", "ray", "sympy", "math_verify")


def _heavy_modules_after(args: list[str], cwd: Path) -> list[str]:
    probe = (
        "import sys\n"
        "from assay.cli import main\n"
        f"rc = main({args!r})\n"
        f"print(rc, sorted(m for m in {_HEAVY!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=cwd).stdout
    rc, _, loaded = out.strip().splitlines()[-1].partition(" ")
    assert rc == "0", out
    return json.loads(loaded.replace("'", '"'))


def test_help_and_summarize_do_not_import_heavy_libraries(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    cfg.write_text(cfg.read_text().replace("datasets = [", "datasets = [dict(abbr='e', type='JsonlDataset', path='d.jsonl', reader_cfg=dict(output_column='answer'), eval_cfg=dict(evaluator=dict(type='AccEvaluator'))), ", 1))
    run = tmp_path / "w" / "20240101_000000"
    (run / "results" / "m").mkdir(parents=True)
    (run / "results" / "m" / "d.json").write_text(json.dumps({"accuracy": 50.0, "details": [{"correct": True}, {"correct": False}]}))
    (run / "results" / "m" / "e.json").write_text(json.dumps({"error": "broken prediction file"}))
    assert _heavy_modules_after(["summarize", str(cfg), "-w", str(tmp_path / "w")], tmp_path) == []
    probe = "import sys\nfrom assay.cli import _parser\n_parser().format_help()\n" f"print(sorted(m for m in {_HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    help_out = subprocess.run([sys.executable, "-m", "assay", "eval", "--help"], capture_output=True, text=True, check=True).stdout
    assert "--shard-size" in help_out and "--ray" in help_out and "--workers" in help_out


def test_shard_size_must_not_be_negative(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _config(tmp_path)
    assert main(["eval", str(cfg), "-w", str(tmp_path / "w"), "--shard-size", "-1"]) == 2
    assert "shard size" in capsys.readouterr().err
    assert not (tmp_path / "w").exists() or not list((tmp_path / "w").rglob("results/*/*.json"))


def test_ray_runner_without_ray_is_a_config_error(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    cfg = _config(tmp_path)
    cfg.write_text(cfg.read_text() + "eval = dict(runner=dict(type='RayRunner', address='127.0.0.1:1'))\n")
    assert main(["eval", str(cfg), "-w", str(tmp_path / "w")]) == 2
    assert "assay[ray]" in capsys.readouterr().err


def test_progress_names_why_a_result_was_recomputed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _config(tmp_path)
    work = str(tmp_path / "w")
    assert main(["eval", str(cfg), "-w", work, "-r", "RUN"]) == 0
    assert "[no result yet]" in capsys.readouterr().err
    assert main(["eval", str(cfg), "-w", work, "-r", "RUN"]) == 0
    assert "m/d reused (inputs unchanged)" in capsys.readouterr().err
    _config(tmp_path, wrong=True)
    assert main(["eval", str(cfg), "-w", work, "-r", "RUN"]) == 0
    err = capsys.readouterr().err
    assert "m/d ok" in err and "changed: the prediction file" in err
    assert "changed: the prediction file" in (tmp_path / "w" / "RUN" / "logs" / "eval" / "m" / "d.out").read_text()


def test_a_summary_in_another_process_agrees_with_the_one_in_run(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    work = tmp_path / "w"
    assert main(["run", str(cfg), "-w", str(work), "-r", "20240101_000000", "--no-report", "--workers", "1"]) == 0
    summary = json.loads(next((work / "20240101_000000" / "summary").glob("*.json")).read_text())
    subprocess.run(
        [sys.executable, "-m", "assay", "summarize", str(cfg), "-w", str(work), "-r", "20240101_000000", "--no-report", "-o", str(tmp_path / "again.txt")],
        check=True, capture_output=True,
    )
    again = json.loads((tmp_path / "again.json").read_text())
    assert summary["rows"] and {k: v for k, v in summary.items() if k != "time"} == {k: v for k, v in again.items() if k != "time"}
    # reused results, checked by forked workers: the same summary
    assert main(["run", str(cfg), "-w", str(work), "-r", "20240101_000000", "--no-report", "--workers", "2", "-o", str(tmp_path / "third.txt")]) == 0
    third = json.loads((tmp_path / "third.json").read_text())
    assert {k: v for k, v in third.items() if k != "time"} == {k: v for k, v in again.items() if k != "time"}


@pytest.fixture
def collector_thresholds() -> Any:
    """Distinct collector thresholds for the test, the process's own restored after it."""
    import gc

    before = gc.get_threshold()
    gc.set_threshold(900, 11, 12)
    yield (900, 11, 12)
    gc.set_threshold(*before)


def test_the_command_runs_with_the_callers_collector_thresholds_and_its_cycles_are_collected(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, collector_thresholds: tuple[int, int, int]) -> None:
    """The bulk thresholds serve the command's start only: the command itself — here ``assay run``, then a
    driver's loop making a reference cycle per step, each holding a large buffer — runs with the thresholds the
    process had, so that the cycles are collected as they go instead of piling up; after the command the
    thresholds are the process's and nothing of it is left frozen out of collections."""
    import gc
    import weakref

    import assay.commands.run as run_command

    real = run_command.run
    seen: dict[str, Any] = {}

    class Step:
        def __init__(self) -> None:
            self.me = self
            self.buffer = bytearray(1 << 20)

    def observed(args: Any) -> int:
        status = real(args)
        seen["threshold"] = gc.get_threshold()
        alive: list[Any] = []
        kept: list[Any] = []
        most = 0
        for _ in range(300):
            alive.append(weakref.ref(Step()))
            kept.append([[i] for i in range(300)])  # the rest of a step's work: a few hundred small containers kept
            alive = [ref for ref in alive if ref() is not None]
            most = max(most, len(alive))
        seen["most"] = most
        return status

    monkeypatch.setattr(run_command, "run", observed)
    assert main(["run", str(_config(tmp_path)), "-w", str(tmp_path / "w"), "--workers", "1"]) == 0
    assert seen["threshold"] == collector_thresholds
    assert seen["most"] <= 10, f"{seen['most']} cycles of 1 MB alive at once"
    assert gc.get_threshold() == collector_thresholds and gc.get_freeze_count() == 0


_EXIT_WRAPPER = """
import atexit, gc, json, runpy, sys
out = sys.argv.pop(1)

def seen():  # runs as the interpreter exits, before its last collections
    with open(out, "w") as fh:
        json.dump({"frozen": gc.get_freeze_count(), "scanned": len(gc.get_objects())}, fh)

atexit.register(seen)
sys.argv[0] = "assay"
runpy.run_module("assay", run_name="__main__", alter_sys=True)
"""


def test_the_command_exits_without_its_objects_scanned_again(tmp_path: Path) -> None:
    """``python -m assay`` (as the ``assay`` script) ends with what the run built frozen out of the collector, so
    that the interpreter's shutdown does not scan it all only for the process to end; the status and the
    results are the command's, and ``atexit`` functions run."""
    out = tmp_path / "exit.json"
    cfg = _config(tmp_path, wrong=True)
    done = subprocess.run([sys.executable, "-c", _EXIT_WRAPPER, str(out), "run", str(cfg), "-w", str(tmp_path / "w")],
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(next((tmp_path / "w").glob("*/results/m/d.json")).read_text())
    assert result["accuracy"] == 50.0
    found = json.loads(out.read_text())
    assert found["frozen"] > 10_000 and found["scanned"] < found["frozen"] / 10, found


_TWICE = """
import os, signal, sys, time
from pathlib import Path

import assay.commands.list as command

where, cleaned = sys.argv[1], Path(sys.argv[2])


def run(args):
    try:
        os.kill(os.getpid(), signal.SIGINT)  # the first Ctrl-C
        time.sleep(60)
    finally:
        if where == "cleanup":  # the second while the command stops: its cleanup goes on to its end
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.2)
        if where == "stuck":  # a cleanup that would not end: the third Ctrl-C stops the process at once
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(60)
        cleaned.write_text("cleaned")


class Stderr:
    def __init__(self, stream):
        self.stream, self.sent = stream, False

    def write(self, text):
        if where == "message" and "interrupted" in text and not self.sent:  # the second as it says it stopped
            self.sent = True
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.2)
        return self.stream.write(text)

    def flush(self):
        self.stream.flush()


command.run = run
sys.stderr = Stderr(sys.stderr)
sys.argv = ["assay", "list"]
from assay.cli import console

console()
"""


@pytest.mark.parametrize("where", ["cleanup", "message"])
def test_a_second_ctrl_c_while_the_first_is_handled_ends_quietly(tmp_path: Path, where: str) -> None:
    """A second Ctrl-C while the command stops after the first (its cleanup, its message): the cleanup goes on to
    its end, and the command ends with status 130 and its one message, not a traceback."""
    import os

    cleaned = tmp_path / "cleaned"
    done = subprocess.run([sys.executable, "-c", _TWICE, where, str(cleaned)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("assay: interrupted") == 1, done.stderr
    assert "press Ctrl-C again to stop at once" in done.stderr
    assert cleaned.read_text() == "cleaned"


def test_a_third_ctrl_c_stops_at_once(tmp_path: Path) -> None:
    """A cleanup that does not end (or a first Ctrl-C lost in a finalizer) cannot keep the command from
    stopping: the third Ctrl-C ends the process at once, with status 130 and no traceback."""
    import os

    cleaned = tmp_path / "cleaned"
    done = subprocess.run([sys.executable, "-c", _TWICE, "stuck", str(cleaned)], capture_output=True, text=True,
                          timeout=50, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and "assay: stopped at once" in done.stderr, done.stderr
    assert not cleaned.exists()
