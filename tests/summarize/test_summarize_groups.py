"""Summary groups: validation up front, aggregation arithmetic, missing inputs."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.errors import ConfigError
from assay.groups._groups import apply_groups
from assay.summarize import (
    DefaultSummarizer,
    Scores,
    aggregate,
    parse_summary_groups,
    validate_summarizer_config,
)
from tests.summarize.builders import reference_config, write_result


def _config(groups: list[Any], datasets: tuple[str, ...] = ("a", "b")) -> dict[str, Any]:
    return {
        "models": [{"abbr": "m1"}],
        "datasets": [{"abbr": d} for d in datasets],
        "work_dir": ".",
        "summarizer": {"summary_groups": groups},
    }


# -- validation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("group", "expected"),
    [
        ({"name": "g", "subsets": ["a"], "weight": {"a": 1}}, "'g': unknown key 'weight' (did you mean 'weights'?)"),
        ({"name": "g", "subsets": ["a", ["b", "accuracy"]]}, "'g': key 'subsets' mixes [abbr, metric] pairs and bare"),
        ({"name": "g", "subsets": [["a", "acc"]], "weights": {"zz": 1}}, "'g': weights key 'zz' names no subset"),
        (
            {"name": "g", "subsets": [["a", "acc"], ["b", "acc"]], "weights": {"a": 1}},
            "gives no weight to subsets ['b@acc']",
        ),
        ({"name": "g", "subsets": ["a"], "weights": {"a": -1}}, "weights['a'] must be a finite number ≥ 0, got -1"),
        ({"name": "g", "subsets": ["a"], "std": "yes"}, "key 'std' must be True or False, got 'yes'"),
        ({"name": "g", "subsets": []}, "key 'subsets' must be a non-empty list"),
        ({"name": "g"}, "key 'subsets' is required"),
        ({"subsets": ["a"]}, "key 'name' must be a non-empty string, got None"),
        ({"name": "g", "subsets": [["a"]]}, "subsets[0] must be an abbr string or an [abbr, metric] pair"),
        ({"name": "g", "subsets": ["a"], "transforms": {"zz": "x"}}, "transforms key 'zz' names no subset"),
        ({"name": "g", "subsets": ["g", "a"]}, "'g': key 'subsets' names the group itself"),
        ({"name": "a", "subsets": ["b"]}, "'a': key 'name' is also a dataset abbr of the run"),
        ("not a dict", "must be a dict with 'name' and 'subsets'"),
    ],
)
def test_group_mistakes_are_config_errors(group: Any, expected: str) -> None:
    with pytest.raises(ConfigError) as info:
        validate_summarizer_config(_config([group]))
    assert expected in str(info.value)
    assert "summary_groups[0]" in str(info.value)


@pytest.mark.parametrize(
    "source",
    ["__import__('os').system('true')", "x.__class__", "open('f')", "[x]", "x if y else 1", "'a'", "x in [1]", "y + 1"],
)
def test_unsafe_transforms_are_rejected_before_running(source: str) -> None:
    group = {"name": "g", "subsets": ["a"], "transforms": {"a": source}}
    with pytest.raises(ConfigError, match=r"'g': transforms\['a'\] = .* is rejected"):
        validate_summarizer_config(_config([group]))


def test_forward_reference_names_both_groups() -> None:
    groups = [{"name": "outer", "subsets": ["inner", "a"]}, {"name": "inner", "subsets": ["a", "b"]}]
    with pytest.raises(ConfigError) as info:
        validate_summarizer_config(_config(groups))
    message = str(info.value)
    assert "summary_groups[0] 'outer'" in message
    assert "uses group 'inner', which is defined later (summarizer.summary_groups[1])" in message


def test_duplicate_group_names_are_an_error() -> None:
    groups = [{"name": "g", "subsets": ["a"]}, {"name": "g", "subsets": ["b"]}]
    with pytest.raises(ConfigError, match=r"\[1\] 'g': key 'name' repeats the name of summarizer.summary_groups\[0\]"):
        validate_summarizer_config(_config(groups))


def test_every_problem_is_reported_at_once() -> None:
    groups = [
        {"name": "g1", "subsets": ["a"], "wieghts": {}},
        {"name": "g2", "subsets": ["a"], "transforms": {"a": "x.y"}},
    ]
    with pytest.raises(ConfigError) as info:
        validate_summarizer_config(_config(groups))
    assert "2 problems" in str(info.value)
    assert "'g1'" in str(info.value) and "'g2'" in str(info.value)


def test_validation_happens_before_reading_results(tmp_path: Path) -> None:
    missing_run = tmp_path / "does-not-exist"
    config = _config([{"name": "g", "subsets": ["a", ["b", "x"]]}])
    config["work_dir"] = str(missing_run)
    with pytest.raises(ConfigError):
        DefaultSummarizer(config, summary_groups=config["summarizer"]["summary_groups"])


def test_valid_groups_parse_to_typed_objects() -> None:
    groups = parse_summary_groups(
        [
            {"name": "w", "subsets": [["a", "acc"], ["b", "acc"]], "weights": {"a@acc": 2, "b": 1}},
            {"name": "s", "subsets": ["a", "w"], "sum": True, "metric": "total"},
        ],
        dataset_abbrs=["a", "b"],
    )
    assert [(g.name, g.metric, g.aggregation, g.bare) for g in groups] == [
        ("w", "weighted_average", "mean", False),
        ("s", "total", "mean", True),
    ]
    assert groups[0].weight_for("a", "acc") == 2.0 and groups[0].weight_for("b", "acc") == 1.0


# -- computing ------------------------------------------------------------------------------


def _scores(values: dict[str, dict[str, float]], columns: tuple[str, ...] = ("m1",)) -> Scores:
    """Scores where every model has the same ``abbr → metric → value``."""
    scores = Scores(columns=list(columns))
    for abbr, metrics in values.items():
        scores.dataset_abbrs.append(abbr)
        scores.metrics[abbr] = list(metrics)
        scores.modes[abbr] = "gen"
        for column in columns:
            scores.set_values(column, abbr, dict(metrics))
    return scores


def _run(values: dict[str, dict[str, float]], groups: list[dict[str, Any]]) -> Scores:
    scores = _scores(values)
    apply_groups(scores, parse_summary_groups(groups, dataset_abbrs=list(values)))
    return scores


def test_seed_worked_example_naive_and_weighted() -> None:
    values = {"s1": {"accuracy": 60.0}, "s2": {"accuracy": 90.0}}
    pairs = [["s1", "accuracy"], ["s2", "accuracy"]]
    scores = _run(
        values,
        [
            {"name": "naive", "subsets": pairs},
            {"name": "weighted", "subsets": pairs, "weights": {"s1": 100, "s2": 200}},
        ],
    )
    assert scores.values["m1"]["naive"] == {"naive_average": 75.0}
    assert scores.values["m1"]["weighted"] == {"weighted_average": 80.0}


def test_weights_by_abbr_at_metric() -> None:
    values = {"p": {"string_format_metric": 10.0, "json_format_metric": 30.0}}
    group = {
        "name": "fmt",
        "metric": "format_metric",
        "subsets": [["p", "string_format_metric"], ["p", "json_format_metric"]],
        "weights": {"p@string_format_metric": 3, "p@json_format_metric": 1},
    }
    assert _run(values, [group]).values["m1"]["fmt"] == {"format_metric": 15.0}


def test_harmonic_mean_over_non_positive_value_clamps_every_value_as_opencompass_does() -> None:
    values = {"a": {"accuracy": 0.0}, "b": {"accuracy": 50.0}, "c": {"accuracy": 0.5}}
    pairs = [["a", "accuracy"], ["b", "accuracy"], ["c", "accuracy"]]
    scores = _run(values, [{"name": "hm", "subsets": pairs, "harmonic_mean": True}])
    assert scores.values["m1"]["hm"] == {"harmonic_mean": 3 / (1 / 1 + 1 / 50 + 1 / 1)}


def test_conflicting_aggregation_keys_follow_opencompass_precedence() -> None:
    values = {"a": {"accuracy": 40.0}, "b": {"accuracy": 80.0}}
    pairs = [["a", "accuracy"], ["b", "accuracy"]]
    groups = [
        {"name": "std_sum", "subsets": pairs, "std": True, "sum": True},
        {"name": "std_w", "subsets": pairs, "std": True, "weights": {"a": 1, "b": 3}},
        {"name": "hm_w", "subsets": pairs, "harmonic_mean": True, "weights": {"a": 1, "b": 3}},
    ]
    got = _run(values, groups).values["m1"]
    assert got["std_sum"] == {"standard_deviation": 20.0}
    assert got["std_w"] == {"standard_deviation": 20.0}
    assert got["hm_w"] == {"weighted_average": 70.0}


def test_transform_failing_on_a_value_is_an_error() -> None:
    values = {"a": {"accuracy": 0.0}, "b": {"accuracy": 50.0}}
    scores = _run(values, [{"name": "g", "subsets": ["a", "b"], "transforms": {"a": "1 / x"}}])
    assert "transform of a@accuracy failed" in scores.cell_errors[("m1", "g")]


def test_weights_summing_to_zero_is_an_error() -> None:
    with pytest.raises(ConfigError, match="sums to zero"):
        parse_summary_groups([{"name": "g", "subsets": [["a", "x"]], "weights": {"a": 0}}])


def test_group_of_datasets_not_in_the_run_is_skipped() -> None:
    scores = _run({"a": {"accuracy": 1.0}}, [{"name": "mmlu", "subsets": ["mmlu_x", "mmlu_y"]}])
    assert "mmlu" not in scores.metrics and scores.cell_errors == {}


def test_group_with_some_datasets_not_in_the_run_is_an_error() -> None:
    scores = _run({"a": {"accuracy": 1.0}}, [{"name": "g", "subsets": ["a", "not_run"]}])
    assert scores.cell_errors[("m1", "g")] == "missing metrics: ['not_run']"


def test_the_metric_name_decides_the_aggregation_as_in_opencompass() -> None:
    values = {"a": {"accuracy": 10.0}, "b": {"accuracy": 20.0}}
    pairs = [["a", "accuracy"], ["b", "accuracy"]]
    scores = _run(values, [
        # metric='standard_deviation' without std=True is the standard deviation
        {"name": "g", "subsets": pairs, "metric": "standard_deviation"},
        # std=True (or sum=True) with another metric name is the naive average under that name
        {"name": "s", "subsets": pairs, "std": True, "metric": "spread"},
        {"name": "t", "subsets": pairs, "sum": True, "metric": "total"},
        {"name": "u", "subsets": pairs, "metric": "sum"},
    ])
    assert scores.values["m1"]["g"] == {"standard_deviation": 5.0}
    assert scores.values["m1"]["s"] == {"spread": 15.0}
    assert scores.values["m1"]["t"] == {"total": 15.0}
    assert scores.values["m1"]["u"] == {"sum": 30.0}


def test_bare_group_with_explicit_metric_named_like_a_shared_metric() -> None:
    values = {"a": {"score": 1.0, "accuracy": 10.0}, "b": {"score": 3.0, "accuracy": 20.0}}
    scores = _run(values, [{"name": "g", "subsets": ["a", "b"], "metric": "accuracy"}])
    # the default aggregate (over primary metrics, here `score`) takes the name
    assert scores.metrics["g"] == ["score", "accuracy"]
    assert scores.values["m1"]["g"] == {"score": 2.0, "accuracy": 2.0}


def test_union_of_metrics_missing_for_one_model_is_listed(run_dir: Path) -> None:
    write_result(run_dir, "m1", "a", {"accuracy": 10, "f1": 1})
    write_result(run_dir, "m2", "a", {"accuracy": 20})
    config = {"models": [{"abbr": "m1"}, {"abbr": "m2"}], "datasets": [{"abbr": "a"}], "work_dir": str(run_dir)}
    s = DefaultSummarizer(config, summary_groups=[{"name": "g", "subsets": [["a", "f1"]]}])
    result = s.summarize(time_str="t")
    assert result.table[1:] == [
        ["a", "-", "accuracy", "-", "10.00", "20.00"],
        ["a", "-", "f1", "-", "1.00", "-"],
        ["g", "-", "naive_average", "-", "1.00", "-"],
    ]
    assert any("different metrics" in w.message for w in result.warnings)
    assert result.leaderboard.missing_reason("m2", "g") == "missing metrics: ['a@f1']"


# -- properties -----------------------------------------------------------------------------

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)
positive = st.floats(min_value=1e-3, max_value=1e6, allow_nan=False, allow_infinity=False)


def _pairs(n: int) -> list[list[str]]:
    return [[f"d{i}", "accuracy"] for i in range(n)]


@settings(max_examples=60, deadline=None)
@given(st.lists(finite, min_size=1, max_size=12), st.floats(min_value=0.01, max_value=1e3))
def test_equal_weights_equal_naive_average(xs: list[float], w: float) -> None:
    values = {f"d{i}": {"accuracy": x} for i, x in enumerate(xs)}
    scores = _run(
        values,
        [
            {"name": "naive", "subsets": _pairs(len(xs))},
            {"name": "weighted", "subsets": _pairs(len(xs)), "weights": {f"d{i}": w for i in range(len(xs))}},
        ],
    )
    naive = scores.values["m1"]["naive"]["naive_average"]
    weighted = scores.values["m1"]["weighted"]["weighted_average"]
    assert weighted == pytest.approx(naive, rel=1e-9, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.lists(positive, min_size=1, max_size=10), st.lists(positive, min_size=10, max_size=10), st.randoms())
def test_aggregates_add_left_to_right_in_subset_order(xs: list[float], ws: list[float], rnd: Any) -> None:
    values = {f"d{i}": {"accuracy": x} for i, x in enumerate(xs)}
    weights = {f"d{i}": ws[i] for i in range(len(xs))}
    shuffled = list(range(len(xs)))
    rnd.shuffle(shuffled)

    def groups(order: list[int]) -> list[dict[str, Any]]:
        subsets = [[f"d{i}", "accuracy"] for i in order]
        bare = [f"d{i}" for i in order]
        return [
            {"name": "naive", "subsets": subsets},
            {"name": "weighted", "subsets": subsets, "weights": weights},
            {"name": "std", "subsets": subsets, "std": True},
            {"name": "sum", "subsets": subsets, "sum": True},
            {"name": "wsum", "subsets": subsets, "sum": True, "weights": weights},
            {"name": "hm", "subsets": subsets, "harmonic_mean": True},
            {"name": "bare", "subsets": bare},
        ]

    def left(seq: Any) -> float:
        total = 0.0
        for v in seq:
            total += v
        return total

    got = _run(values, groups(shuffled)).values["m1"]
    ordered = [xs[i] for i in shuffled]
    n = len(xs)
    mean = left(ordered) / n
    assert got["naive"] == {"naive_average": mean}
    assert got["bare"]["naive_average"] == mean
    assert got["sum"] == {"sum": left(ordered)}
    assert got["std"] == {"standard_deviation": math.sqrt(left((x - mean) ** 2 for x in ordered) / n)}
    assert got["hm"] == {"harmonic_mean": n / left(1 / x for x in ordered)}
    # weighted terms are added in the order of the weights dict, whatever the subset order
    weighted = left(xs[i] * ws[i] for i in range(n))
    assert got["wsum"] == {"sum": weighted}
    assert got["weighted"] == {"weighted_average": weighted / left(ws[:n])}


@settings(max_examples=60, deadline=None)
@given(st.lists(finite, min_size=1, max_size=12))
def test_sum_is_n_times_naive_average(xs: list[float]) -> None:
    values = {f"d{i}": {"accuracy": x} for i, x in enumerate(xs)}
    scores = _run(
        values,
        [{"name": "naive", "subsets": _pairs(len(xs))}, {"name": "total", "subsets": _pairs(len(xs)), "sum": True}],
    )
    total = scores.values["m1"]["total"]["sum"]
    naive = scores.values["m1"]["naive"]["naive_average"]
    assert total == pytest.approx(len(xs) * naive, rel=1e-9, abs=1e-6)


@settings(max_examples=60, deadline=None)
@given(st.lists(positive, min_size=4, max_size=4), st.lists(positive, min_size=2, max_size=2))
def test_nested_group_equals_hand_computed_aggregate(xs: list[float], ws: list[float]) -> None:
    values = {f"d{i}": {"accuracy": x} for i, x in enumerate(xs)}
    groups = [
        {"name": "left", "subsets": [["d0", "accuracy"], ["d1", "accuracy"]], "weights": {"d0": ws[0], "d1": ws[1]}},
        {"name": "right", "subsets": [["d2", "accuracy"], ["d3", "accuracy"]], "harmonic_mean": True},
        {
            "name": "top",
            "subsets": [["left", "weighted_average"], ["right", "harmonic_mean"]],
            "transforms": {"right": "100 - x"},
        },
    ]
    got = _run(values, groups).values["m1"]["top"]["naive_average"]
    left = (xs[0] * ws[0] + xs[1] * ws[1]) / (ws[0] + ws[1])
    right = 2 / (1 / xs[2] + 1 / xs[3])
    assert got == pytest.approx((left + (100 - right)) / 2, rel=1e-9)


def test_aggregate_rejects_empty_input() -> None:
    with pytest.raises(ValueError, match="no values"):
        aggregate([])


def test_population_standard_deviation() -> None:
    assert aggregate([2, 4, 4, 4, 5, 5, 7, 9], "std") == 2.0
    assert math.isclose(aggregate([1, 2], "harmonic_mean"), 4 / 3)


def test_reference_groups_validate(run_dir: Path) -> None:
    validate_summarizer_config(reference_config(run_dir))
