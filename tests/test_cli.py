"""The command line: run directories, reuse, exit codes, help (R-8.1, R-8.2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
