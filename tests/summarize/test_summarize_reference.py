"""The fixed result set whose OpenCompass 0.5.4 output is recorded in the reference (§3.7).

Rows and values must match OpenCompass, except where the specification (§9)
deliberately differs: a group whose inputs are all missing reports an error
(and keeps its row of ``-``) instead of vanishing.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from assay.summarize import DefaultSummarizer, prompt_version, run_summarizer
from tests.summarize.builders import FIXED_TIME, GEN, PPL, infer_cfg, reference_config

GOLDEN = Path(__file__).parents[1] / "data" / "summarize" / "reference"

# (dataset, metric, mode, m1, M2-nice) as printed by OpenCompass 0.5.4 (reference §3.7)
OPENCOMPASS_ROWS = [
    ("sub_a", "accuracy", "gen", "50.00", "60.00"),
    ("sub_b", "score", "gen", "1.00", "4.00"),
    ("sub_b", "accuracy", "gen", "70.00", "80.00"),
    ("sub_c", "score", "ppl", "3.00", "-"),
    ("sub_c", "accuracy", "ppl", "90.00", "-"),
    ("broken", "-", "-", "-", "-"),
    ("multi", "accuracy", "gen", "33.33", "40.00"),
    ("multi", "f1", "gen", "10.50", "11.00"),
    ("multi", "flag", "gen", "1.00", "0.00"),
    ("grp_naive", "accuracy", "mixed", "70.00", "-"),
    ("grp_naive", "naive_average", "mixed", "18.00", "-"),
    ("grp_weighted", "accuracy", "gen", "65.00", "75.00"),
    ("grp_weighted", "weighted_average", "gen", "13.25", "18.00"),
    ("grp_pairs", "naive_average", "gen", "30.25", "35.50"),
    ("grp_std", "accuracy", "gen", "10.00", "10.00"),
    ("grp_std", "standard_deviation", "gen", "24.50", "28.00"),
    ("grp_sum", "accuracy", "gen", "120.00", "140.00"),
    ("grp_sum", "sum", "gen", "51.00", "64.00"),
    ("grp_hm", "accuracy", "gen", "58.33", "68.57"),
    ("grp_hm", "harmonic_mean", "gen", "1.96", "7.50"),
    ("grp_metric", "accuracy", "gen", "60.00", "70.00"),
    ("grp_metric", "my_avg", "gen", "25.50", "32.00"),
    ("grp_transform", "accuracy", "gen", "60.00", "60.00"),
    ("grp_transform", "naive_average", "gen", "25.50", "22.00"),
    ("grp_missing", "accuracy", "mixed", "70.00", "-"),
    ("grp_missing", "naive_average", "mixed", "26.50", "-"),
    ("grp_nested", "accuracy", "mixed", "60.00", "-"),
    ("grp_nested", "naive_average", "mixed", "60.00", "-"),
]
# Deliberate differences: these groups fail for every model; OpenCompass shows no row at all.
ASSAY_ONLY_ROWS = [
    ("grp_with_broken", "naive_average", "gen", "-", "-"),
    ("grp_all_missing", "naive_average", "mixed", "-", "-"),
]


@pytest.fixture
def result(run_dir: Path):
    return run_summarizer(reference_config(run_dir), time_str=FIXED_TIME)


def _rows(table: list[list[str]]) -> list[tuple[str, ...]]:
    return [(r[0], r[2], r[3], r[4], r[5]) for r in table[1:]]


def test_rows_match_opencompass_except_documented_differences(result) -> None:
    rows = _rows(result.table)
    assert result.table[0] == ["dataset", "version", "metric", "mode", "m1", "M2-nice"]
    assert [r for r in rows if r not in ASSAY_ONLY_ROWS] == OPENCOMPASS_ROWS
    assert [r for r in rows if r in ASSAY_ONLY_ROWS] == ASSAY_ONLY_ROWS


def test_version_column_has_opencompass_hashes(result) -> None:
    versions = {r[0]: r[1] for r in result.table[1:]}
    assert versions["sub_a"] == versions["sub_b"] == versions["multi"] == "4d3a0b"
    assert versions["sub_c"] == "747ac5"
    assert versions["broken"] == "-"  # a dash row shows no version, as in OpenCompass
    assert versions["grp_naive"] == "-"


def test_version_hash_of_dotted_type_strings() -> None:
    assert prompt_version({"infer_cfg": infer_cfg(GEN)}) == "4d3a0b"
    assert prompt_version({"infer_cfg": infer_cfg(PPL)}) == "747ac5"


def test_errors_are_kept_in_raw_section_and_json(result) -> None:
    txt = result.paths["txt"].read_text()
    raw = txt.split("raw format\n", 1)[1]
    m2 = raw.split("Model: M2-nice\n", 1)[1]
    assert "grp_naive: {'error': \"missing metrics: ['sub_c']\"}" in m2
    assert raw.count("grp_with_broken: {'error': \"missing metrics: ['broken']\"}") == 2
    assert "broken: {'error': 'score() raised ValueError: boom'}" in raw
    assert "sub_c: {}" in m2  # no file for that model

    data = json.loads(result.paths["json"].read_text())
    errors = {(e.get("model"), e.get("dataset")): e["message"] for e in data["errors"]}
    assert errors[("m1", "broken")] == "evaluation failed: score() raised ValueError: boom"
    assert errors[("M2-nice", "grp_all_missing")] == "missing metrics: ['broken@accuracy', 'sub_c@accuracy']"
    row = next(r for r in data["rows"] if r["dataset"] == "grp_naive" and r["metric"] == "naive_average")
    assert row["values"] == {"m1": 18.0, "M2-nice": None}
    assert row["missing"] == {"M2-nice": "missing metrics: ['sub_c']"}
    assert data["scores"]["m1"]["grp_hm"]["harmonic_mean"] == pytest.approx(100 / 51)


def test_details_are_not_in_raw_section(result) -> None:
    assert "details" not in result.paths["txt"].read_text()


@pytest.mark.parametrize("kind", ["txt", "md", "csv"])
def test_files_match_golden_bytes(result, kind: str) -> None:
    assert result.paths[kind].read_bytes() == (GOLDEN / f"summary.{kind}").read_bytes()


def test_stdout_text_matches_golden(result) -> None:
    assert result.text + "\n" == (GOLDEN / "stdout.txt").read_text()
    # the printed table is the .txt file's tabulate section, followed by the markdown table
    txt = result.paths["txt"].read_text()
    tabulate_section = txt.split("^" * 128 + "\n", 1)[1].split("\n" + "$" * 128, 1)[0]
    assert result.text.startswith(tabulate_section + "\n\n\nThe markdown format results is as below:\n\n")
    assert result.text.endswith(result.paths["md"].read_text())


def test_files_are_named_by_time(result, run_dir: Path) -> None:
    assert {k: p.relative_to(run_dir).as_posix() for k, p in result.paths.items()} == {
        "txt": f"summary/summary_{FIXED_TIME}.txt",
        "csv": f"summary/summary_{FIXED_TIME}.csv",
        "md": f"summary/summary_{FIXED_TIME}.md",
        "json": f"summary/summary_{FIXED_TIME}.json",
    }


def test_output_path_puts_files_beside_it(run_dir: Path, tmp_path: Path) -> None:
    target = tmp_path / "out" / "report.txt"
    result = run_summarizer(reference_config(run_dir), time_str=FIXED_TIME, output_path=str(target))
    assert result.paths["txt"] == target and result.paths["csv"] == target.with_suffix(".csv")
    assert target.with_suffix(".md").is_file() and target.with_suffix(".json").is_file()
    assert not (run_dir / "summary").exists()


def test_csv_reads_with_dictreader(result) -> None:
    with open(result.paths["csv"], newline="") as fh:
        rows = {(r["dataset"], r["metric"]): r for r in csv.DictReader(fh)}
    assert rows[("sub_b", "score")]["m1"] == "1.00"
    assert rows[("grp_weighted", "weighted_average")]["M2-nice"] == "18.00"
    assert rows[("sub_c", "accuracy")]["M2-nice"] == "-"
    assert set(rows[("sub_a", "accuracy")]) == {"dataset", "version", "metric", "mode", "m1", "M2-nice"}


def test_csv_file_replaces_commas_in_cells(run_dir: Path) -> None:
    config = reference_config(run_dir, dataset_abbrs=["sub_a", "a, b"])
    result = run_summarizer(config, time_str=FIXED_TIME)
    lines = result.paths["csv"].read_text().splitlines()
    assert lines[-1] == "a  b,-,-,-,-,-"
    assert "\na, b,-,-,-,-,-\n" in result.paths["txt"].read_text()  # the .txt keeps cells as they are


def test_bare_group_metrics_are_deterministic(run_dir: Path) -> None:
    # subsets sharing several metrics: the first subset's order, whatever the hash seed
    from tests.summarize.builders import write_result

    for model in ("m1",):
        write_result(run_dir, model, "x", {"f1": 1, "accuracy": 2, "rouge1": 3, "zeta": 4, "alpha": 5})
        write_result(run_dir, model, "y", {"alpha": 6, "zeta": 7, "rouge1": 8, "f1": 9, "accuracy": 10})
    config = {
        "models": [{"abbr": "m1"}],
        "datasets": [{"abbr": "x"}, {"abbr": "y"}],
        "work_dir": str(run_dir),
    }
    s = DefaultSummarizer(config, summary_groups=[{"name": "g", "subsets": ["x", "y"]}])
    scores = s.load_scores()
    assert scores.metrics["x"] == ["accuracy", "rouge1", "f1", "zeta", "alpha"]
    assert scores.metrics["g"] == ["accuracy", "rouge1", "f1", "zeta", "alpha", "naive_average"]
    assert scores.values["m1"]["g"]["naive_average"] == 6.0  # primary metrics: accuracy 2 and 10
