"""`assay run` / `assay summarize`: summary files, intervals with --ci, the HTML report."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from assay.cli import main

EXAMPLE = Path(__file__).parents[2] / "examples" / "quickstart" / "config.py"


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("qs")
    assert main(["run", str(EXAMPLE), "-w", str(work), "--ci"]) == 0
    (run,) = list(work.iterdir())
    return run


def test_example_runs_end_to_end_with_every_summary_file(run_dir: Path) -> None:
    kinds = sorted(p.suffix for p in (run_dir / "summary").iterdir())
    assert kinds == [".csv", ".html", ".json", ".md", ".txt"]


def test_ci_shows_intervals_in_text_tables_but_csv_stays_numeric(run_dir: Path) -> None:
    (txt,) = (run_dir / "summary").glob("*.txt")
    assert "80.00 [49.02, 94.33]" in txt.read_text()  # Wilson interval of 8/10
    (md,) = (run_dir / "summary").glob("*.md")
    assert "80.00 [49.02, 94.33]" in md.read_text()
    (csv_path,) = (run_dir / "summary").glob("*.csv")
    rows = {(r["dataset"], r["metric"]): r for r in csv.DictReader(csv_path.open())}
    assert rows[("quick_mcq", "accuracy")]["chat-small"] == "80.00"


def test_group_intervals_stay_within_the_metric_range(run_dir: Path) -> None:
    """The reasoner's group average is 96.67 with a standard error near 3.2: its interval is clipped at 100."""
    (js,) = (run_dir / "summary").glob("*.json")
    payload = json.loads(js.read_text())
    assert payload["group_definitions"][0]["name"] == "quickstart"
    cells = payload["stats"]["cells"]
    group = cells["reasoner (think)"]["quickstart"]["naive_average"]
    assert group["method"] == "propagated"
    assert group["value"] + 1.96 * group["se"] > 100.0
    assert group["low"] < group["value"] and group["high"] == pytest.approx(100.0)
    for column in cells.values():
        for metrics in column.values():
            for stat in metrics.values():
                if stat.get("low") is not None:
                    assert 0.0 <= stat["low"] <= stat["value"] <= stat["high"] <= 100.0 + 1e-9


def test_summarize_again_without_report(run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    htmls = sorted(run_dir.rglob("*.html"))
    out_txt = tmp_path / "again" / "summary_again.txt"
    assert main(["summarize", str(EXAMPLE), "-w", str(run_dir.parent), "-r", run_dir.name, "--no-report", "-o", str(out_txt)]) == 0
    out = capsys.readouterr().out
    mcq_line = next(line for line in out.splitlines() if line.startswith("quick_mcq"))
    assert "80.00" in mcq_line and "[" not in mcq_line  # no intervals without --ci
    assert sorted(p.suffix for p in out_txt.parent.iterdir()) == [".csv", ".json", ".md", ".txt"]
    assert sorted(run_dir.rglob("*.html")) == htmls


def test_summarize_accepts_the_run_directory_itself(run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_txt = tmp_path / "from_run" / "summary.txt"
    assert main(["summarize", str(EXAMPLE), "-w", str(run_dir), "--no-report", "-o", str(out_txt)]) == 0
    assert "80.00" in capsys.readouterr().out
    assert out_txt.is_file() and not (run_dir / "summary" / "summary").exists()
