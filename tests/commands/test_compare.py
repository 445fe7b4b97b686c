"""``assay compare``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.cli import main
from assay.stats import binomial_two_sided_p
from tests.stats.workdir_builder import make_run


def _flags(run: Path, model: str, abbr: str) -> list[bool]:
    details = json.loads((run / "results" / model / f"{abbr}.json").read_text())["details"]
    return [d["correct"][0] for d in details]


def test_compare_prints_table_and_writes_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path)
    assert main(["compare", "-w", str(run.parent), "m1", "m2", "--datasets", "mcq", "rep", "summ", "mcc"]) == 0
    out = capsys.readouterr().out
    assert "mcnemar-exact" in out and "paired-bootstrap" in out
    written = sorted((run / "summary").glob("compare_m1_vs_m2_*.json"))
    assert len(written) == 1
    data = json.loads(written[0].read_text())
    rows = {d["dataset"]: d for d in data["datasets"]}
    a, b = _flags(run, "m1", "mcq"), _flags(run, "m2", "mcq")
    a_only = sum(x and not y for x, y in zip(a, b))
    b_only = sum(y and not x for x, y in zip(a, b))
    mcq = rows["mcq"]
    assert (mcq["a_only"], mcq["b_only"]) == (a_only, b_only)
    assert mcq["p"] == pytest.approx(binomial_two_sided_p(a_only, b_only))
    assert mcq["diff"] == pytest.approx(100 * (sum(a) - sum(b)) / len(a))
    assert mcq["low"] < mcq["diff"] < mcq["high"]
    assert "reason" in rows["mcc"] and "diff" not in rows["mcc"]
    compared = [d for d in data["datasets"] if "p" in d]
    assert all(d["p_holm"] >= d["p"] for d in compared)
    assert min(d["p_holm"] for d in compared) == pytest.approx(min(d["p"] for d in compared) * len(compared))


def test_unknown_model_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path)
    assert main(["compare", "-w", str(run.parent), "m1", "nobody"]) == 2
    assert "nobody" in capsys.readouterr().err


def test_compare_and_report_accept_a_run_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path)
    assert main(["compare", "-w", str(run), "m1", "m2", "--datasets", "mcq"]) == 0
    assert len(list((run / "summary").glob("compare_m1_vs_m2_*.json"))) == 1
    assert not (run / "summary" / "summary").exists()
    capsys.readouterr()
    assert main(["report", "-w", str(run)]) == 0
    report = Path(capsys.readouterr().out.strip())
    assert report.parent == run / "summary" and report.suffix == ".html"


def test_a_value_the_summary_marks_is_marked_in_the_comparison(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from assay.summarize import run_summarizer
    from tests.stats.workdir_builder import TIME, run_config

    run = make_run(tmp_path)
    path = run / "results" / "m1" / "mcq.json"
    result = json.loads(path.read_text())
    result.setdefault("_meta", {})["incomplete"] = [{"kind": "unjudged", "count": 2, "detail": "2 judge requests failed"}]
    path.write_text(json.dumps(result))
    run_summarizer(run_config(run), time_str=TIME, stats=False)
    assert main(["compare", "-w", str(run.parent), "m1", "m2", "--datasets", "mcq", "rep"]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    assert "mcq*" in lines and "rep" in lines and "rep*" not in lines
    assert "  m1 / mcq: unjudged (2 samples): 2 judge requests failed" in out.splitlines()
    (written,) = (run / "summary").glob("compare_m1_vs_m2_*.json")
    assert json.loads(written.read_text())["marks"] == [
        {"model": "m1", "dataset": "mcq", "kind": "unjudged", "count": 2, "detail": "2 judge requests failed"}
    ]


@pytest.mark.parametrize("command", [["compare", "-w", "{run}", "m1", "m2", "--datasets", "mcq"], ["index", "{run}"]])
def test_a_run_an_import_left_half_written_is_refused_naming_the_way_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    from assay.rundir.layout import RunDir

    run = make_run(tmp_path)
    marker = RunDir(run).import_marker
    marker.write_text(json.dumps({"imports": [{"tool": "lm_eval", "paths": ["/gone/results.json"]}]}))
    assert main([part.format(run=run) for part in command]) == 2
    err = capsys.readouterr().err
    assert "did not finish" in err and "/gone/results.json" in err and str(marker) in err
    assert not list((run / "summary").glob("compare_*.json"))
