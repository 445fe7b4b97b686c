"""The group cells of every model at once equal each model's own, to the last bit."""

from __future__ import annotations

import random
from typing import Any

import pytest

from assay.stats import CellStat, group_plan, group_stats, group_stats_columns
from assay.summarize import SummaryGroup


def _random_board(seed: int, *, spread: bool = False) -> dict[str, Any]:
    """A small leaderboard of random cells: plain, weighted, summed and nested groups (and a standard
    deviation with ``spread``); some models lack a value or an interval, some cells are not percentages."""
    rng = random.Random(seed)
    abbrs = [f"d{i}" for i in range(18)]
    configs: list[dict[str, Any]] = [
        {"name": "plain", "subsets": abbrs[:6]},
        {"name": "weighted", "subsets": [[a, "accuracy"] for a in abbrs[4:11]],
         "weights": {a: rng.choice([1, 2, 3.5, 0.25]) for a in abbrs[4:11]}},
        {"name": "total", "subsets": [[a, "accuracy"] for a in abbrs[10:18]], "sum": True},
        {"name": "nested", "subsets": [["plain", "naive_average"], ["weighted", "weighted_average"], [abbrs[0], "accuracy"]]},
        {"name": "overall", "subsets": ["nested", "total"]},
    ]
    if spread:
        configs.insert(3, {"name": "sd", "subsets": [[a, "accuracy"] for a in abbrs[:4]], "std": True})
    groups = [SummaryGroup.from_config(c) for c in configs]
    metrics = {a: ["accuracy"] for a in abbrs}
    plans = {}
    for g in groups:  # a group's metrics, as the summary lists them, for the groups that take it
        plans[g.name] = group_plan(g, metrics)
        metrics[g.name] = list(plans[g.name])[::-1]
    columns = [f"m{j}" for j in range(12)]
    values: dict[str, dict[str, dict[str, float]]] = {}
    bases: dict[str, dict[tuple[str, str], CellStat]] = {}
    for j, column in enumerate(columns):
        have: dict[str, dict[str, float]] = {}
        base: dict[tuple[str, str], CellStat] = {}
        for a in abbrs:
            if j == 3 and a == abbrs[5]:
                continue  # a model without one dataset: its groups have no value there
            x = rng.uniform(0, 100)
            have[a] = {"accuracy": x}
            se = rng.uniform(0.5, 8.0)
            if j == 5 and a == abbrs[12]:
                base[(a, "accuracy")] = CellStat(x, reason="no per-sample details")
            elif rng.random() < 0.2:  # a mean of scores, not a percentage
                base[(a, "accuracy")] = CellStat(x, se, x - 2 * se, x + 2 * se, "t", n=40)
            else:
                base[(a, "accuracy")] = CellStat(x, se, max(0.0, x - 2 * se), min(100.0, x + 2 * se), "wilson", n=50)
        for g in groups:
            have[g.name] = {m: rng.uniform(0, 100) for m in plans[g.name]}
        if j == 7:
            del have["weighted"]  # a group without a value: the groups above it say why they have no interval
        values[column], bases[column] = have, base
    return {"groups": groups, "columns": columns, "values": values, "metrics": metrics, "bases": bases,
            "plans": plans}


@pytest.mark.parametrize(("seed", "spread"), [(1, False), (2, False), (3, False), (4, True)])
def test_every_model_at_once_gives_each_models_own_group_cells(seed: int, spread: bool) -> None:
    board = _random_board(seed, spread=spread)
    together = group_stats_columns(board["groups"], board["columns"], board["values"], board["metrics"],
                                   board["bases"], plans=board["plans"], confidence=0.9, seed=7)
    for column in board["columns"]:
        alone = group_stats(board["groups"], board["values"][column], board["metrics"], board["bases"][column],
                            column=column, plans=board["plans"], confidence=0.9, seed=7)
        assert together[column] == alone, column  # every float equal, not approximately
    cell = together["m0"][("overall", "naive_average")]
    assert cell.method == "propagated" and cell.basis == "2 inputs, 18 dataset cells"
    assert together["m3"][("plain", "naive_average")].method == "none"  # d5 missing
    assert "weighted" in (together["m7"][("nested", "naive_average")].reason or "")
    assert "no interval" in (together["m5"][("total", "sum")].reason or "")


def test_a_percentage_group_is_clipped_to_its_range_for_each_model_at_once() -> None:
    wide = CellStat(2.0, 6.0, 0.0, 14.0, "wilson", n=10)
    scores = CellStat(2.0, 6.0, -10.0, 14.0, "t", n=10)
    group = SummaryGroup.from_config({"name": "g", "subsets": [["a", "acc"], ["b", "acc"]]})
    values = {"a": {"acc": 2.0}, "b": {"acc": 2.0}, "g": {"naive_average": 2.0}}
    metrics = {"a": ["acc"], "b": ["acc"]}
    bases = {"pct": {("a", "acc"): wide, ("b", "acc"): wide}, "mixed": {("a", "acc"): wide, ("b", "acc"): scores}}
    out = group_stats_columns([group], ["pct", "mixed"], {"pct": values, "mixed": values}, metrics, bases)
    assert out["pct"][("g", "naive_average")].low == 0.0  # two percentages: never below 0
    assert out["mixed"][("g", "naive_average")].low < 0.0  # a mean of scores may be negative
