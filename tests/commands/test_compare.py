"""``assay compare``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.cli import main
from assay.rundir.statistics import compare_models
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


def test_paired_bootstrap_is_reproducible(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    one = compare_models(run, "m1", "m2", datasets=["rep"], seed=4, resamples=300).to_json()
    two = compare_models(run, "m1", "m2", datasets=["rep"], seed=4, resamples=300).to_json()
    assert one == two
    other = compare_models(run, "m1", "m2", datasets=["rep"], seed=5, resamples=300).to_json()
    assert other["datasets"][0]["low"] != one["datasets"][0]["low"]


def test_same_model_has_no_discordant_pairs(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    row = compare_models(run, "m1", "m1", datasets=["mcq"]).datasets[0].result
    assert row is not None and (row.a_only, row.b_only, row.p, row.diff) == (0, 0, 1.0, 0.0)


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


def test_compare_takes_the_per_sample_values_saved_with_each_result(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After `assay eval`, compare reads no result's details; without the statistics files it reads them
    and finds the same comparison."""
    import assay.rundir.statistics as compare_module

    example = Path(__file__).parents[2] / "examples" / "quickstart" / "config.py"
    work = tmp_path / "w"
    assert main(["eval", str(example), "-w", str(work)]) == 0
    (run,) = work.iterdir()
    real = compare_module.read_full_result
    read: list[str] = []

    def spy(root, folder, abbr):  # type: ignore[no-untyped-def]
        read.append(f"{folder}/{abbr}")
        return real(root, folder, abbr)

    monkeypatch.setattr(compare_module, "read_full_result", spy)
    saved = compare_models(run, "chat-small", "reasoner")
    assert read == []
    assert [d.result is not None for d in saved.datasets] == [True] * len(saved.datasets)
    for stats_file in (run / "results").rglob("*.stats"):
        stats_file.unlink()
    from_details = compare_models(run, "chat-small", "reasoner")
    assert len(read) == 2 * len(saved.datasets)
    assert saved.to_json() == from_details.to_json()


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
