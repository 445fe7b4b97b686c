"""The column-wise paths of the statistics and the sample browser's columns, against the entry-by-entry rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.stats import SAMPLE_TEXT, correctness_matrix, correctness_of, sample_values, unscorable_of
from assay.stats._columns import REFERENCE_FIELDS, PredictionColumns, first_run, sample_columns, text
from assay.stats._details import Details
from assay.stats._unscorable import _UniformFlags
from tests.stats.varied_run import make_varied_run


@pytest.fixture(scope="module")
def varied(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_varied_run(tmp_path_factory.mktemp("varied"))


def test_every_shape_of_details_agrees_with_the_entry_by_entry_rules(varied: Path) -> None:
    for path in sorted((varied / "results").glob("*/*.json")):
        result = json.loads(path.read_text())
        details = result.get("details")
        if not isinstance(details, list) or not details:
            continue
        _check_details(details, path.stem)


# -- the column-wise paths against the entry-by-entry rules ------------------------------------------------

_RUN_VALUES = st.one_of(st.booleans(), st.none(), st.sampled_from(["A", "", " ", "x" * 7, 0.5, 1]))
_TEXT_VALUES = st.one_of(st.sampled_from(["A", "", "  ", "é</script>", "y" * 30]), st.none(), st.integers(-2, 2))


@st.composite
def _details(draw: st.DrawFn) -> list[Any]:
    """Mostly uniform details (one layout, the same run count), with now and then an odd entry."""
    keys = draw(
        st.lists(
            st.sampled_from(
                [
                    "correct",
                    "is_correct",
                    "pred",
                    "prediction",
                    "completion",
                    "answer",
                    "reference",
                    "origin_prediction",
                    "example_abbr",
                    "judge_failed",
                    "outcome",
                ]
            ),
            unique=True,
            max_size=5,
        )
    )
    plain = draw(st.booleans())  # the usual layout: one correctness key holding true/false/null
    if plain:
        keys = ["correct", *(k for k in keys if k not in ("correct", "is_correct"))]
    runs = draw(st.integers(0, 3))
    as_list = draw(st.booleans())
    n = draw(st.integers(1, 6))
    out: list[Any] = []
    for i in range(n):
        if draw(st.integers(0, 9)) == 0:
            out.append(draw(st.sampled_from(["odd", None, 3, {"correct": [True, False]}, {}])))
            continue
        entry: dict[str, Any] = {}
        for key in keys:
            values = (
                _TEXT_VALUES
                if key
                in ("pred", "prediction", "completion", "answer", "reference", "origin_prediction", "example_abbr")
                else _RUN_VALUES
            )
            if key == "outcome":
                values = st.sampled_from(["passed", "timeout", "killed", None, ["timeout", "passed"]])
            if plain and key == "correct":
                values = st.one_of(st.booleans(), st.none())
            if as_list:
                entry[key] = [draw(values) for _ in range(runs)]
            else:
                entry[key] = draw(values)
        out.append(entry)
        if i == 0 and draw(st.booleans()):
            out[-1] = {**entry, "extra": 1}
    return out


@settings(max_examples=300, deadline=None)
@given(_details())
def test_column_wise_paths_match_the_rules(details: list[Any]) -> None:
    _check_details(details, "ds")


def _zeroed(matrix: Any) -> Any:
    if matrix is None:
        return None
    if isinstance(matrix, np.ndarray):
        return matrix.tolist()
    return [[0.0 if v is None else v for v in row] for row in matrix]


def _check_details(details: list[Any], abbr: str) -> None:
    matrix = correctness_matrix(details)
    fast = correctness_of(details)
    assert _zeroed(fast) == _zeroed(matrix)
    if isinstance(fast, np.ndarray):
        assert fast.shape == (len(matrix), len(matrix[0]))
    rows = _zeroed(matrix)
    accuracy = 100.0 * sum(map(sum, rows)) / max(1, sum(map(len, rows))) if rows else 0.0
    result = {"accuracy": accuracy, "details": details}
    assert _same_values(
        sample_values(result, "accuracy", accuracy, correct=fast),
        sample_values(result, "accuracy", accuracy, correct=matrix),
    )
    backed = [("accuracy", accuracy)]
    got = unscorable_of(result, backed, correct=fast)
    original = _UniformFlags.of
    try:
        _UniformFlags.of = classmethod(lambda cls, view, readers=(): None)  # type: ignore[method-assign,assignment]
        expected = unscorable_of(result, backed, correct=matrix)
    finally:
        _UniformFlags.of = original  # type: ignore[method-assign]
    assert got == expected
    predictions = [
        {"prediction": f"raw {i}" if i % 3 else ["a", "b"], "gold": None if i % 2 else f"g{i}"}
        for i in range(len(details) - 1)
    ]
    found = PredictionColumns([p["prediction"] for p in predictions], [p["gold"] for p in predictions])
    for limit in (3, SAMPLE_TEXT):
        columns = sample_columns(details, abbr, limit, lambda: found, fast)
        assert columns == _reference_columns(details, abbr, limit, predictions, matrix)


def _same_values(a: Any, b: Any) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return (a.kind, a.runs, a.basis) == (b.kind, b.runs, b.basis) and np.array_equal(a.units, b.units)


def _reference_columns(details: list[Any], abbr: str, limit: int, preds: list[dict[str, Any]], matrix: Any) -> Any:
    """The sample browser's columns, computed entry by entry."""
    from assay.stats import SampleColumns

    ids, refs, raw, ext, ok = [], [], [], [], []
    for i, d in enumerate(details):
        d = d if isinstance(d, dict) else {}
        ids.append(str(d.get("example_abbr", f"{abbr}_{i}")))
        key = next((k for k in REFERENCE_FIELDS if d.get(k) is not None), None)
        refs.append(text(first_run(d[key]) if key else (preds[i].get("gold") if i < len(preds) else None), limit))
        if "origin_prediction" in d:
            raw_value = first_run(d["origin_prediction"])
        else:
            raw_value = preds[i].get("prediction") if i < len(preds) else None
        raw.append(text(raw_value, limit))
        ext_key = next((k for k in ("pred", "prediction", "completion") if k in d), None)
        ext.append(text(first_run(d[ext_key]) if ext_key else None, limit))
        if matrix is not None and matrix[i]:
            values = [0.0 if v is None else v for v in matrix[i]]
            ok.append(round(sum(values) / len(values), 6))
        else:
            ok.append(None)
    return SampleColumns(ids, refs, raw, ext, ok)


def test_details_columns() -> None:
    view = Details([{"a": [1, 2], "b": "x"}, {"a": [3, 4]}])
    assert view.column("a") == [[1, 2], [3, 4]] and view.column("b") is None
    assert view.runs("a") == ([1, 2, 3, 4], 2) and view.runs("b") is None
    assert not Details([{"a": 1}, "x"]).all_dicts


def test_another_tools_samples_show_its_reply_extracted_answer_and_verdict(tmp_path: Path) -> None:
    from assay.rundir.layout import RunDir
    from assay.rundir.sources import write_sources
    from assay.sources import read_source
    from assay.stats import StatsOptions, result_stats

    logs = Path(__file__).parents[1] / "data" / "sources" / "inspect_ai" / "logs" / "eval"
    imported = write_sources(RunDir(tmp_path / "run"), read_source("inspect_ai", logs))
    (written,) = [p for p in imported.written if p.endswith("scripted-a/assay_mcq.json")]
    result = json.loads(Path(written).read_text())
    details = result["details"]
    columns = result_stats(result, {}, StatsOptions(text_limit=SAMPLE_TEXT), columns=True, abbr="assay_mcq").columns
    assert columns is not None
    assert columns.raw == [d["prediction"] for d in details]  # the tool's reply, not read from prediction files
    assert [json.loads(e) for e in columns.ext] == [d["extracted"] for d in details]
    assert columns.ref == [d["reference"] for d in details]
    assert columns.ok == [float(d["choice/accuracy"]) for d in details]  # the 0/1 per-sample values as verdicts
    assert 100 * sum(columns.ok) / len(columns.ok) == result["choice/accuracy"]
