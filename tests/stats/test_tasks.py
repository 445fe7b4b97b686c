"""Reading a run once: the column-wise paths, the forked workers and the sample columns kept for the report."""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay.stats._tasks as tasks_module
from assay.stats import SAMPLE_TEXT, correctness_matrix, correctness_of, run_stats, sample_values, unscorable_of
from assay.stats._columns import REFERENCE_FIELDS, PredictionColumns, first_run, sample_columns, text
from assay.stats._details import Details
from assay.stats._tasks import Task, TaskOptions, pool_size, run_tasks
from assay.stats._unscorable import _UniformFlags
from assay.summarize import leaderboard_of
from tests.stats.varied_run import make_varied_run

needs_fork = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork here")


@pytest.fixture(autouse=True)
def _forking_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fork even when an earlier test left a thread behind (the children only read files and exit)."""
    monkeypatch.setattr(tasks_module, "_fork_allowed", lambda: "fork" in multiprocessing.get_all_start_methods())


@pytest.fixture(scope="module")
def varied(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_varied_run(tmp_path_factory.mktemp("varied"))


def _same_stats(a: Any, b: Any) -> None:
    assert list(a.cells) == list(b.cells)
    assert a.to_json() == b.to_json()
    assert a.unscorable == b.unscorable
    assert a.tables == b.tables
    assert list(a.samples) == list(b.samples)
    for key, sv in a.samples.items():
        other = b.samples[key]
        assert (sv.kind, sv.basis, sv.runs, sv.scale) == (other.kind, other.basis, other.runs, other.scale)
        assert np.array_equal(sv.units, other.units)
        assert sv.estimate() == other.estimate()


@needs_fork
def test_forked_workers_give_what_this_process_gives(varied: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    forked: list[int] = []
    real = tasks_module._run_forked

    def spy(tasks: Any, options: Any, size: int) -> Any:
        forked.append(size)
        return real(tasks, options, size)

    monkeypatch.setattr(tasks_module, "_run_forked", spy)
    here = run_stats(varied, leaderboard_of(None, varied), sample_text=SAMPLE_TEXT, keep_samples=True, workers=1)
    assert not forked
    pooled = run_stats(varied, leaderboard_of(None, varied), sample_text=SAMPLE_TEXT, keep_samples=True, workers=2)
    assert forked == [2]
    _same_stats(here, pooled)
    assert here.cell("m1", "bleu", "score").method == "bootstrap"  # a corpus statistic travels back too
    assert here.tables is not None and here.tables.columns[("m1", "plain")] is not None


@needs_fork
def test_an_error_in_a_worker_is_raised_here(varied: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parent = os.getpid()
    real = tasks_module.sample_values

    def failing(result: Any, metric: str, *args: Any, **kwargs: Any) -> Any:
        if os.getpid() != parent and metric.startswith("accuracy (3 runs"):
            raise ValueError("broken detail")
        return real(result, metric, *args, **kwargs)

    monkeypatch.setattr(tasks_module, "sample_values", failing)
    with pytest.raises(ValueError, match="broken detail"):
        run_stats(varied, leaderboard_of(None, varied), workers=2, index=False)  # read the files, not statistics the index kept


@needs_fork
def test_tasks_of_a_worker_that_died_are_read_here(
    varied: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    expected = run_stats(varied, leaderboard_of(None, varied), sample_text=SAMPLE_TEXT, workers=1)
    parent = os.getpid()
    real = tasks_module.run_task

    def dying(task: Task, options: TaskOptions) -> Any:
        if os.getpid() != parent and (task.column, task.abbr) == ("m2", "plain"):
            os._exit(3)
        return real(task, options)

    monkeypatch.setattr(tasks_module, "run_task", dying)
    with caplog.at_level(logging.WARNING, logger="assay.stats._tasks"):
        got = run_stats(varied, leaderboard_of(None, varied), sample_text=SAMPLE_TEXT, workers=2)
    _same_stats(expected, got)
    assert "reading them here" in caplog.text


def test_small_runs_are_read_in_this_process(varied: Path) -> None:
    tasks = [Task(m, "plain", m, {"accuracy": 50.0}) for m in ("m1", "m2", "m3")]
    assert pool_size(tasks, TaskOptions(str(varied)), None) == 1
    assert pool_size(tasks[:1], TaskOptions(str(varied)), 4) == 1
    outputs = run_tasks(tasks, TaskOptions(str(varied)), workers=1)
    assert all("is not 100 × mean(correct)" in str(o.cells["accuracy"].reason) for o in outputs)
    assert all(o.columns is None and o.unscorable is not None for o in outputs)


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


def test_statistics_in_the_index_pass_through_only_for_their_values_and_when_finite() -> None:
    """The run index keeps each result's statistics keyed by the values they were computed for; a
    summary takes them unparsed only for exactly those values, and never when they hold NaN."""
    import orjson

    from assay.rundir.index import DIGEST, STATS, STATS_DIGESTS, STATS_SETTINGS, Snapshot
    from assay.stats import CellStat, Unscorable
    from assay.stats._tasks import TaskOutput, index_lookup, index_settings, index_stats, indexed_output

    options = TaskOptions("")
    finite = TaskOutput({"accuracy": CellStat(50.0, 5.0, 40.0, 60.0, "wilson")}, {}, Unscorable(total=10, unextracted=1))
    odd = TaskOutput({"accuracy": CellStat(50.0, float("nan"), None, None, "t")}, {}, None)

    def snapshot_with(data: bytes) -> Snapshot:
        row: list[Any] = [None] * (STATS + 1)
        row[DIGEST] = row[STATS_DIGESTS] = "d"
        row[STATS_SETTINGS], row[STATS] = index_settings(options), data
        return Snapshot(Path("."), rows={"m/a.json": tuple(row)})

    _, data = index_stats(options, finite)
    lookup = index_lookup(snapshot_with(data), options)
    found = lookup("m", "a", {"accuracy": 50.0})
    assert found is not None
    assert orjson.loads(found[0]) == {"accuracy": finite.cells["accuracy"].to_json()}
    assert found[1] is not None and orjson.loads(found[1]) == {"total": 10, "unextracted": 1}
    assert lookup("m", "a", {"accuracy": 51.0}) is None  # other values: computed again
    assert lookup("m", "a", {"accuracy": 50.0, "f1": 1.0}) is None
    assert lookup("m", "b", {"accuracy": 50.0}) is None

    _, data = index_stats(options, odd)
    assert index_lookup(snapshot_with(data), options)("m", "a", {"accuracy": 50.0}) is None  # JSON cannot spell NaN
    out = indexed_output(data, {"accuracy": 50.0})
    assert out is not None and out.cells["accuracy"].method == "t" and out.cells["accuracy"].se != out.cells["accuracy"].se
