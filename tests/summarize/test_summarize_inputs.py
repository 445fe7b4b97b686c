"""Bad result files and folders: a clear message naming the file and value, and a summary for the rest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.errors import ConfigError, InputFileError
from assay.summarize import run_summarizer, validate_summarizer_config
from tests.summarize.builders import write_result


def _config(run_dir: Path, datasets: list[str], models: tuple[str, ...] = ("m1",)) -> dict[str, Any]:
    return {
        "models": [{"abbr": m} for m in models],
        "datasets": [{"abbr": d} for d in datasets],
        "work_dir": str(run_dir),
        "summarizer": {},
    }


def _write_raw(run_dir: Path, model: str, abbr: str, text: str) -> None:
    path = run_dir / "results" / model / f"{abbr}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _error_for(result: Any, dataset: str) -> str:
    messages = [e.message for e in result.errors if e.dataset == dataset]
    assert messages, f"no error recorded for {dataset}"
    return messages[0]


def _good_row(result: Any) -> list[str]:
    return next(r for r in result.table if r[0] == "good")


def test_malformed_json(run_dir: Path) -> None:
    write_result(run_dir, "m1", "good", {"accuracy": 50})
    _write_raw(run_dir, "m1", "bad", '{"accuracy": 5')
    result = run_summarizer(_config(run_dir, ["good", "bad"]), time_str="t")
    message = _error_for(result, "bad")
    assert message.startswith("result file results/m1/bad.json is not valid JSON")
    assert _good_row(result)[4] == "50.00"
    assert "bad: {'error': 'result file results/m1/bad.json is not valid JSON" in result.paths["txt"].read_text()


def test_result_that_is_not_an_object(run_dir: Path) -> None:
    write_result(run_dir, "m1", "good", {"accuracy": 50})
    write_result(run_dir, "m1", "listy", [1, 2, 3])
    result = run_summarizer(_config(run_dir, ["good", "listy"]), time_str="t")
    assert _error_for(result, "listy") == "result file results/m1/listy.json must hold a JSON object, got list"
    assert _good_row(result)[4] == "50.00"


def test_empty_result_file(run_dir: Path) -> None:
    _write_raw(run_dir, "m1", "empty", "")
    result = run_summarizer(_config(run_dir, ["empty"]), time_str="t")
    assert _error_for(result, "empty") == "result file results/m1/empty.json is empty"


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_values_are_shown_as_missing(run_dir: Path, literal: str) -> None:
    _write_raw(run_dir, "m1", "odd", f'{{"accuracy": {literal}, "f1": 12.5}}')
    result = run_summarizer(
        {
            **_config(run_dir, ["odd"]),
            "summarizer": {"summary_groups": [{"name": "g", "subsets": [["odd", "accuracy"]]}]},
        },
        time_str="t",
    )
    message = _error_for(result, "odd")
    assert "results/m1/odd.json: metric 'accuracy' is" in message and "not a finite number" in message
    assert result.table[1] == ["odd", "-", "f1", "-", "12.50"]
    assert result.leaderboard.missing_reason("m1", "g") == "missing metrics: ['odd@accuracy']"
    json.loads(result.paths["json"].read_text())  # still valid JSON


def test_non_numeric_metrics(run_dir: Path) -> None:
    write_result(run_dir, "m1", "good", {"accuracy": 50})
    write_result(run_dir, "m1", "strs", {"accuracy": "70.0", "note": "text"})
    write_result(run_dir, "m1", "mixed", {"accuracy": "70.0", "f1": 3})
    result = run_summarizer(_config(run_dir, ["good", "strs", "mixed"]), time_str="t")
    assert _error_for(result, "strs") == "results/m1/strs.json: no numeric metric (keys: ['accuracy', 'note'])"
    warnings = [w.message for w in result.warnings if w.dataset == "mixed"]
    assert warnings == ["results/m1/mixed.json: metric 'accuracy' is not a number (str '70.0'); ignored"]
    assert [r[:3] + r[4:] for r in result.table[1:]] == [
        ["good", "-", "accuracy", "50.00"],
        ["strs", "-", "-", "-"],
        ["mixed", "-", "f1", "3.00"],
    ]


def test_duplicate_dataset_abbrs(run_dir: Path) -> None:
    write_result(run_dir, "m1", "a", {"accuracy": 50})
    config = _config(run_dir, ["a", "b", "a"])
    validate_summarizer_config(config)  # planning fails the tasks that share the abbr, the others run
    result = run_summarizer(config, time_str="t")  # summarizing still works, the row is shown once
    assert [r[0] for r in result.table[1:]] == ["a", "b"]
    assert "appears more than once" in _error_for(result, "a")


def test_empty_run_directory(run_dir: Path) -> None:
    result = run_summarizer(_config(run_dir, ["a", "b"], models=("m1", "m2")), time_str="t")
    assert result.table[1:] == [["a", "-", "-", "-", "-", "-"], ["b", "-", "-", "-", "-", "-"]]
    assert [w.message for w in result.warnings] == [f"the run directory has no results/ folder ({run_dir / 'results'})"]
    assert result.paths["txt"].is_file()


def test_missing_run_directory(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    with pytest.raises(InputFileError, match=f"run directory {missing} does not exist"):
        run_summarizer(_config(missing, ["a"]), time_str="t")


def test_missing_work_dir_key() -> None:
    with pytest.raises(ConfigError, match="no 'work_dir'"):
        run_summarizer({"models": [], "datasets": []}, time_str="t")


def test_parent_work_dir_is_hinted(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    write_result(tmp_path / "20240101_000000", "m1", "a", {"accuracy": 1})
    run_summarizer(_config(tmp_path, ["a"]), time_str="t")
    assert "not their parent" in caplog.text


def test_failed_evaluation_reason_is_kept(run_dir: Path) -> None:
    write_result(run_dir, "m1", "a", {"error": "Timeout after 30 s", "details": []})
    result = run_summarizer(_config(run_dir, ["a"]), time_str="t")
    assert _error_for(result, "a") == "evaluation failed: Timeout after 30 s"
    data = json.loads(result.paths["json"].read_text())
    assert data["rows"][0]["missing"] == {"m1": "evaluation failed: Timeout after 30 s"}


def test_summarizer_abbr_names_columns_but_not_files(run_dir: Path) -> None:
    write_result(run_dir, "model-file-abbr", "a", {"accuracy": 42})
    config = _config(run_dir, ["a"])
    config["models"] = [{"abbr": "model-file-abbr", "summarizer_abbr": "Nice"}]
    result = run_summarizer(config, time_str="t")
    assert result.table == [["dataset", "version", "metric", "mode", "Nice"], ["a", "-", "accuracy", "-", "42.00"]]


def test_metric_blacklist_and_whitelist_order(run_dir: Path) -> None:
    write_result(
        run_dir,
        "m1",
        "a",
        {"zz": 1, "bp": 2, "sys_len": 3, "ref_len": 4, "type": 5, "f1": 6, "score": 7, "_meta": {"x": 1}},
    )
    result = run_summarizer(_config(run_dir, ["a"]), time_str="t")
    assert [r[2] for r in result.table[1:]] == ["score", "f1", "zz"]
    assert "'_meta'" not in result.paths["txt"].read_text()


_metric_values = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-1e308, max_value=1e308),
    st.integers(-5, 5),
    st.booleans(),
    st.text(max_size=3),
    st.none(),
    st.lists(st.integers(), max_size=2),
)
_metric_names = st.sampled_from(["accuracy", "score", "f1", "details", "_meta", "bleu", "total", "name", "type"])


@settings(max_examples=500, deadline=None)
@given(st.dictionaries(_metric_names, _metric_values, max_size=5))
def test_the_short_path_for_plain_results_agrees_with_the_full_reading(result: dict[str, Any]) -> None:
    """An indexed result read the short way gives the values the full reading gives, and only when that
    reading reports nothing."""
    from assay.groups._model import Scores
    from assay.summarize._collect import _metrics_of, _plain_metrics

    scores = Scores(columns=["m"])
    full = _metrics_of(scores, dict(result), "m", "d", "results/m/d.json")
    short = _plain_metrics(dict(result))
    if short is not None:
        assert short == full and not scores.issues and not scores.cell_errors
