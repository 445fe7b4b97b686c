"""Rank intervals from the joint bootstrap: checked against a direct, explicit-loop bootstrap of the same rounds."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from assay.groups import SummaryGroup, aggregate
from assay.stats import (
    CellStat,
    RankBootstrap,
    SampleValues,
    holm_adjust,
    paired_compare,
    rank_tiers,
    round_indices,
)

SEED = 11
ROUNDS = 150


def _binary(flags: list[int]) -> SampleValues:
    return SampleValues("binary", np.array(flags, dtype=float), 100.0, 1, "correct")


def _scores(scores: list[float]) -> SampleValues:
    return SampleValues("mean", np.array(scores, dtype=float), 1.0, 1, "details.rouge1")


def _case(models: dict[str, float], datasets: dict[str, int], seed: int = 3) -> tuple[dict, dict]:
    """Binary per-sample values of each model (skill) on each dataset (samples), and their values."""
    rng = random.Random(seed)
    samples: dict[tuple[str, str, str], SampleValues] = {}
    values: dict[str, dict[str, dict[str, float]]] = {m: {} for m in models}
    for abbr, n in datasets.items():
        hard = [rng.random() for _ in range(n)]
        for model, skill in models.items():
            flags = [int(rng.random() < skill * (0.5 + h)) for h in hard]
            sv = _binary(flags)
            samples[(model, abbr, "accuracy")] = sv
            values[model][abbr] = {"accuracy": sv.estimate()}
    return samples, values


def _direct(models: list[str], units: dict[str, dict[str, list[float]]], scale: dict[str, float],
            combine, rounds: int, seed: int, confidence: float = 0.95):
    """The bootstrap written out: each round, each dataset resampled at the same indices for every model, the
    values recomputed one by one, combined, ranked by counting the models strictly above."""
    draws = {m: [] for m in models}
    ranks = {m: [] for m in models}
    indices = {abbr: round_indices(abbr, len(next(iter(per.values()))), rounds, seed) for abbr, per in units.items()}
    for r in range(rounds):
        value = {}
        for m in models:
            per_dataset = {}
            for abbr, per in units.items():
                picked = [per[m][int(i)] for i in indices[abbr][r]]
                per_dataset[abbr] = scale[abbr] * sum(picked) / len(picked)
            value[m] = combine(m, per_dataset)
        for m in models:
            draws[m].append(value[m])
            ranks[m].append(1 + sum(1 for o in models if value[o] > value[m]))
    alpha = (1 - confidence) / 2
    out = {}
    for m in models:
        s = sorted(ranks[m])
        out[m] = (s[math.floor(alpha * (rounds - 1))], s[math.ceil((1 - alpha) * (rounds - 1))],
                  float(np.quantile(draws[m], alpha)), float(np.quantile(draws[m], 1 - alpha)))
    return out


def _units(samples, models, abbrs, metric="accuracy"):
    return {a: {m: samples[(m, a, metric)].units.tolist() for m in models} for a in abbrs}


def test_dataset_rank_intervals_match_a_direct_bootstrap() -> None:
    skills = {"a": 0.62, "b": 0.6, "c": 0.45, "d": 0.3, "e": 0.6}
    samples, values = _case(skills, {"d1": 40})
    boot = RankBootstrap(list(skills), values, samples, rounds=ROUNDS, seed=SEED)
    ranking = boot.rank("d1", "accuracy")
    want = _direct(list(skills), _units(samples, skills, ["d1"]), {"d1": 100.0},
                   lambda m, per: per["d1"], ROUNDS, SEED)
    got = {m.model: m for m in ranking.models}
    for model, (rank_low, rank_high, low, high) in want.items():
        assert (got[model].rank_low, got[model].rank_high) == (rank_low, rank_high), model
        assert got[model].low == pytest.approx(low) and got[model].high == pytest.approx(high)
    # best first, equal values sharing the better rank
    observed = [m.value for m in ranking.models]
    assert observed == sorted(observed, reverse=True)
    assert [m.rank for m in ranking.models] == [1 + sum(v > m.value for v in observed) for m in ranking.models]


@pytest.mark.parametrize(
    "config",
    [
        {"name": "g", "subsets": [["d1", "accuracy"], ["d2", "accuracy"], ["d3", "rouge1"]]},
        {"name": "g", "subsets": [["d1", "accuracy"], ["d2", "accuracy"], ["d3", "rouge1"]],
         "weights": {"d3": 2, "d1": 1, "d2": 3}},
        {"name": "g", "subsets": [["d1", "accuracy"], ["d2", "accuracy"], ["d3", "rouge1"]], "sum": True},
        {"name": "g", "subsets": [["d1", "accuracy"], ["d2", "accuracy"], ["d3", "rouge1"]], "std": True},
        {"name": "g", "subsets": [["d1", "accuracy"], ["d2", "accuracy"], ["d3", "rouge1"]], "harmonic_mean": True},
        {"name": "g", "subsets": [["d1", "accuracy"], ["d2", "accuracy"], ["d3", "rouge1"]],
         "transforms": {"d2": "100 - x"}},
    ],
    ids=["naive", "weighted", "sum", "std", "harmonic", "transform"],
)
def test_group_rank_intervals_recompute_the_group_as_it_is_defined(config: dict) -> None:
    skills = {"a": 0.6, "b": 0.55, "c": 0.5, "d": 0.35}
    samples, values = _case(skills, {"d1": 30, "d2": 25})
    rng = random.Random(5)
    for m, skill in skills.items():  # a score-backed dataset beside the binary ones
        sv = _scores([round(rng.uniform(0, 100 * skill), 2) for _ in range(20)])
        samples[(m, "d3", "rouge1")] = sv
        values[m]["d3"] = {"rouge1": sv.estimate()}
    group = SummaryGroup.from_config(config)
    inputs = [(s.abbr, s.metric) for s in group.subsets]

    def combine(model: str, per: dict[str, float]) -> float:
        xs = []
        for abbr, metric in inputs:
            x = per[abbr]
            t = group.transform_for(abbr, metric)
            xs.append(t(x) if t is not None else x)
        if group.weights:
            weights = [group.weight_for(a, m) for a, m in inputs]
            return aggregate(xs, group.aggregation, weights, sum(group.weights.values()))
        return aggregate(xs, group.aggregation)

    for m in skills:
        values[m]["g"] = {group.metric: combine(m, {a: values[m][a][mt] for a, mt in inputs})}
    boot = RankBootstrap(list(skills), values, samples, groups=[group], rounds=ROUNDS, seed=SEED)
    ranking = boot.rank("g", group.metric)
    units = _units(samples, skills, ["d1", "d2"])
    units["d3"] = {m: samples[(m, "d3", "rouge1")].units.tolist() for m in skills}
    want = _direct(list(skills), units, {"d1": 100.0, "d2": 100.0, "d3": 1.0}, combine, ROUNDS, SEED)
    for entry in ranking.models:
        rank_low, rank_high, low, high = want[entry.model]
        assert (entry.rank_low, entry.rank_high) == (rank_low, rank_high), entry.model
        assert entry.low == pytest.approx(low) and entry.high == pytest.approx(high)
        assert entry.value == values[entry.model]["g"][group.metric]


def test_nested_groups_are_recomputed_through_their_inner_groups() -> None:
    skills = {"a": 0.6, "b": 0.5, "c": 0.4}
    samples, values = _case(skills, {"d1": 30, "d2": 30, "d3": 30})
    inner = SummaryGroup.from_config({"name": "inner", "subsets": [["d1", "accuracy"], ["d2", "accuracy"]]})
    outer = SummaryGroup.from_config({"name": "outer", "subsets": [["inner", "naive_average"], ["d3", "accuracy"]],
                                      "weights": {"inner": 2, "d3": 1}})
    for m in skills:
        v = values[m]
        v["inner"] = {"naive_average": (v["d1"]["accuracy"] + v["d2"]["accuracy"]) / 2}
        v["outer"] = {"weighted_average": (2 * v["inner"]["naive_average"] + v["d3"]["accuracy"]) / 3}
    boot = RankBootstrap(list(skills), values, samples, groups=[inner, outer], rounds=ROUNDS, seed=SEED)
    ranking = boot.rank("outer", "weighted_average")
    want = _direct(list(skills), _units(samples, skills, ["d1", "d2", "d3"]), dict.fromkeys(["d1", "d2", "d3"], 100.0),
                   lambda m, p: (2 * (p["d1"] + p["d2"]) / 2 + p["d3"]) / 3, ROUNDS, SEED)
    for entry in ranking.models:
        assert (entry.rank_low, entry.rank_high, entry.low) == pytest.approx(want[entry.model][:3])


def test_samples_are_resampled_jointly_across_models() -> None:
    # b is a with one more wrong answer: drawn at the same indices, a is never below b
    flags = [1, 0] * 15
    worse = list(flags)
    worse[0] = 0
    samples = {("a", "d", "acc"): _binary(flags), ("b", "d", "acc"): _binary(worse)}
    values = {m: {"d": {"acc": samples[(m, "d", "acc")].estimate()}} for m in ("a", "b")}
    ranking = RankBootstrap(["a", "b"], values, samples, rounds=400).rank("d", "acc")
    a, b = ranking.models
    assert (a.model, a.rank_low, a.rank_high) == ("a", 1, 1)
    assert (b.model, b.rank, b.rank_low, b.rank_high) == ("b", 2, 1, 2)
    assert (ranking.draws[:, 0] >= ranking.draws[:, 1]).all()


def test_tiers_group_the_models_whose_rank_intervals_overlap_the_opener() -> None:
    assert rank_tiers([("a", 1, 2), ("b", 1, 3), ("c", 2, 4), ("d", 4, 5), ("e", 6, 6)]) == [
        ["a", "b", "c"], ["d"], ["e"]]
    # overlap is not passed on: c overlaps b but not a, so c opens its own tier
    assert rank_tiers([("a", 1, 1), ("b", 1, 2), ("c", 2, 3)]) == [["a", "b"], ["c"]]
    skills = {"top": 0.95, "x": 0.5, "y": 0.5, "low": 0.05}
    samples, values = _case(skills, {"d": 60}, seed=9)
    ranking = RankBootstrap(list(skills), values, samples, rounds=300).rank("d", "accuracy")
    tiers = {m.model: m.tier for m in ranking.models}
    assert tiers["top"] == 1 and tiers["x"] == tiers["y"] == 2 and tiers["low"] == 3
    assert ranking.ties == [["x", "y"]] or ranking.ties == [["y", "x"]]


def test_cells_without_per_sample_values_fall_back_and_say_so() -> None:
    skills = {"a": 0.7, "b": 0.5, "c": 0.4, "d": 0.3}
    samples, values = _case(skills, {"d1": 50})
    del samples[("b", "d1", "accuracy")]  # b: an interval, no per-sample values
    del samples[("c", "d1", "accuracy")]  # c: neither
    values["d"] = {}  # d: no value at all
    cells = {("b", "d1", "accuracy"): CellStat(values["b"]["d1"]["accuracy"], 7.0, 36.0, 64.0, "wilson", n=50),
             ("c", "d1", "accuracy"): CellStat(values["c"]["d1"]["accuracy"],
                                               reason="accuracy is not 100 × mean(correct) of the details")}
    ranking = RankBootstrap(list(skills), values, samples, cells, rounds=500).rank("d1", "accuracy")
    got = {m.model: m for m in ranking.models}
    assert "drawn from its interval" in got["b"].note
    b_draws = ranking.draws[:, [m.model for m in ranking.models].index("b")]
    assert b_draws.std() == pytest.approx(7.0, rel=0.15)
    assert "held at its value" in got["c"].note and "not 100 × mean(correct)" in got["c"].note
    assert got["c"].low == got["c"].high == values["c"]["d1"]["accuracy"]
    assert got["a"].note is None
    assert ranking.left_out == {"d": "no value for d1@accuracy"} and "d" not in got
    assert "1 cell without per-sample values drawn" in ranking.note and "held at their values" in ranking.note
    data = ranking.to_json()
    assert data["left_out"] == [{"model": "d", "reason": "no value for d1@accuracy"}]
    assert set(data["models"][0]) >= {"model", "value", "low", "high", "rank", "rank_low", "rank_high"}


def test_per_sample_values_that_do_not_give_the_value_are_not_used() -> None:
    samples = {("a", "d", "acc"): _binary([1, 1, 0, 0]), ("b", "d", "acc"): _binary([1, 0, 0, 0])}
    values = {"a": {"d": {"acc": 75.0}}, "b": {"d": {"acc": 25.0}}}  # a's samples give 50
    ranking = RankBootstrap(["a", "b"], values, samples, rounds=50).rank("d", "acc")
    assert "give 50, not 75" in ranking.models[0].note


def test_a_model_with_other_sample_counts_is_resampled_apart() -> None:
    samples = {("a", "d", "acc"): _binary([1, 0] * 20), ("b", "d", "acc"): _binary([1, 0, 0] * 10),
               ("c", "d", "acc"): _binary([1, 1, 0] * 10)}
    values = {m: {"d": {"acc": sv.estimate()}} for (m, _, _), sv in samples.items()}
    ranking = RankBootstrap(["a", "b", "c"], values, samples, rounds=100).rank("d", "acc")
    notes = {m.model: m.note for m in ranking.models}
    assert "resampled apart: 40 samples where the others have 30" in notes["a"]
    assert notes["b"] is None and notes["c"] is None


def test_paired_comparisons_use_mcnemar_on_datasets_with_holm_across_pairs() -> None:
    skills = {"a": 0.9, "b": 0.55, "c": 0.5, "d": 0.1}
    samples, values = _case(skills, {"d1": 80}, seed=2)
    boot = RankBootstrap(list(skills), values, samples, rounds=300)
    ranking = boot.rank("d1", "accuracy")
    matrix = boot.pairs(ranking, top=3)
    names = [m.model for m in ranking.models[:3]]
    assert matrix.models == names and len(matrix.cells) == 3
    raw = []
    for i in range(3):
        for j in range(i + 1, 3):
            raw.append(paired_compare(samples[(names[i], "d1", "accuracy")], samples[(names[j], "d1", "accuracy")]).p)
    adjusted = iter(holm_adjust(raw))
    for i in range(3):
        assert matrix.cells[i][i] is None
        for j in range(i + 1, 3):
            cell, mirror = matrix.cells[i][j], matrix.cells[j][i]
            assert cell["p"] == next(adjusted) and cell["test"] == "mcnemar-exact"
            assert cell["delta"] == pytest.approx(ranking.models[i].value - ranking.models[j].value)
            assert mirror["delta"] == -cell["delta"] and mirror["p"] == cell["p"]
            want = "tie" if cell["p"] >= 0.05 else "win"
            assert cell["result"] == want and mirror["result"] == {"win": "loss", "tie": "tie"}[want]
    assert matrix.cells[0][1]["result"] == "win"  # a is far ahead of the next model
    assert matrix.to_json()["correction"] == "holm"


def test_paired_comparisons_of_a_group_use_the_joint_rounds() -> None:
    skills = {"a": 0.95, "b": 0.5, "c": 0.48}
    samples, values = _case(skills, {"d1": 60, "d2": 60}, seed=4)
    group = SummaryGroup.from_config({"name": "g", "subsets": [["d1", "accuracy"], ["d2", "accuracy"]]})
    for m in skills:
        values[m]["g"] = {"naive_average": (values[m]["d1"]["accuracy"] + values[m]["d2"]["accuracy"]) / 2}
    boot = RankBootstrap(list(skills), values, samples, groups=[group], rounds=400)
    ranking = boot.rank("g", "naive_average")
    matrix = boot.pairs(ranking)
    assert matrix.models[0] == "a"
    assert matrix.cells[0][1]["result"] == "win" and matrix.cells[1][0]["result"] == "loss"
    assert matrix.cells[1][2]["result"] == "tie" and matrix.cells[1][2]["test"] == "joint-bootstrap"
    # each pair: its difference over the standard deviation of its differences in the joint rounds, two-sided
    raw = []
    for i, j in ((0, 1), (0, 2), (1, 2)):
        d = ranking.draws[:, i] - ranking.draws[:, j]
        delta = ranking.models[i].value - ranking.models[j].value
        raw.append(math.erfc(abs(delta) / float(np.std(d, ddof=1)) / math.sqrt(2)))
    want = holm_adjust(raw)
    assert [matrix.cells[0][1]["p"], matrix.cells[0][2]["p"], matrix.cells[1][2]["p"]] == pytest.approx(want)
    assert want[0] < 1e-6  # a clear difference stays clear after the correction, whatever the number of rounds


def test_the_same_seed_gives_the_same_ranking() -> None:
    samples, values = _case({"a": 0.5, "b": 0.5, "c": 0.5}, {"d": 30})
    one = RankBootstrap(["a", "b", "c"], values, samples, rounds=200, seed=1).rank("d", "accuracy").to_json()
    assert one == RankBootstrap(["a", "b", "c"], values, samples, rounds=200, seed=1).rank("d", "accuracy").to_json()


def test_counts_of_right_answers_and_other_per_sample_values_rank_alike() -> None:
    # the same outcomes as 0/1 (whole-number counts per round) and as 0/0.25 scaled by 400 (not whole numbers)
    skills = {"a": 0.7, "b": 0.6, "c": 0.6, "d": 0.4, "e": 0.2}
    samples, values = _case(skills, {"d": 45}, seed=8)
    quarters = {key: SampleValues("mean", sv.units / 4, 400.0, 1, "details.score") for key, sv in samples.items()}
    one = RankBootstrap(list(skills), values, samples, rounds=300).rank("d", "accuracy")
    other = RankBootstrap(list(skills), values, quarters, rounds=300).rank("d", "accuracy")
    assert [(m.model, m.rank, m.rank_low, m.rank_high, m.tier) for m in one.models] == [
        (m.model, m.rank, m.rank_low, m.rank_high, m.tier) for m in other.models]
    for x, y in zip(one.models, other.models):
        assert x.low == pytest.approx(y.low) and x.high == pytest.approx(y.high)


def _reference_bootstrap(models: list[str], per_sample: dict[str, list[int]], runs: int, scale: float, abbr: str,
                         rounds: int, seed: int, confidence: float) -> dict[str, tuple[int, int, float, float]]:
    """The rank and value intervals written out with whole numbers: each round, each model's count of right
    answers over the drawn samples, its rank one plus the models with a larger count, the order statistics of
    the sorted ranks and NumPy's percentile of the values."""
    n = len(next(iter(per_sample.values())))
    drawn = round_indices(abbr, n, rounds, seed)
    ranks: dict[str, list[int]] = {m: [] for m in models}
    values: dict[str, list[float]] = {m: [] for m in models}
    for r in range(rounds):
        count = {m: sum(per_sample[m][int(i)] for i in drawn[r]) for m in models}
        for m in models:
            ranks[m].append(1 + sum(1 for o in models if count[o] > count[m]))
            values[m].append(scale * count[m] / (n * runs))
    alpha = (1 - confidence) / 2
    out = {}
    for m in models:
        s = sorted(ranks[m])
        out[m] = (s[math.floor(alpha * (rounds - 1))], s[math.ceil((1 - alpha) * (rounds - 1))],
                  float(np.quantile(values[m], alpha)), float(np.quantile(values[m], 1 - alpha)))
    return out


@pytest.mark.parametrize(("runs", "rounds"), [(1, 301), (3, 301), (1, 40)])
def test_rank_intervals_of_many_tied_models_match_a_reference_bootstrap(runs: int, rounds: int) -> None:
    # 40 models on 23 samples, right-answer counts out of `runs` per sample, many exact ties (copied models)
    rng = random.Random(runs)
    models = [f"m{i:02d}" for i in range(40)]
    per_sample: dict[str, list[int]] = {}
    for i, m in enumerate(models):
        if i % 4 == 3:
            per_sample[m] = list(per_sample[models[i - 1]])
        else:
            skill = rng.random()
            per_sample[m] = [sum(rng.random() < skill for _ in range(runs)) for _ in range(23)]
    kind = "binary" if runs == 1 else "mean"
    samples = {(m, "d", "score"): SampleValues(kind, np.array(c, dtype=float) / runs, 100.0, runs, "correct")
               for m, c in per_sample.items()}
    values = {m: {"d": {"score": sv.estimate()}} for (m, _, _), sv in samples.items()}
    boot = RankBootstrap(models, values, samples, rounds=rounds, seed=SEED, confidence=0.9)
    got = {m.model: m for m in boot.rank("d", "score").models}
    want = _reference_bootstrap(models, per_sample, runs, 100.0, "d", rounds, SEED, 0.9)
    assert {m: (got[m].rank_low, got[m].rank_high) for m in models} == {m: w[:2] for m, w in want.items()}
    for m, (_, _, low, high) in want.items():
        assert got[m].low == pytest.approx(low) and got[m].high == pytest.approx(high), m
    # the copied models share every round, so their intervals and ranks are the same
    for i in range(3, 40, 4):
        a, b = got[models[i]], got[models[i - 1]]
        assert (a.rank, a.rank_low, a.rank_high, a.low, a.high) == (b.rank, b.rank_low, b.rank_high, b.low, b.high)


def _varied_case() -> tuple[list[str], dict, dict, dict, list]:
    """Six models on datasets of every layout, some drawn together and some by themselves, in nested groups."""
    models = ["a", "b", "c", "d", "e", "f"]
    skills = dict(zip(models, [0.8, 0.6, 0.6, 0.5, 0.4, 0.2]))
    samples, values = _case(skills, {f"u{i}": 40 for i in range(6)} | {"v0": 25, "v1": 25, "odd": 40}, seed=4)
    for abbr in ("u0", "u3"):  # ties: c is b on these datasets
        samples[("c", abbr, "accuracy")] = samples[("b", abbr, "accuracy")]
        values["c"][abbr] = dict(values["b"][abbr])
    # unequal sample counts: e has 30 samples of "odd" where the others have 40
    samples[("e", "odd", "accuracy")] = _binary([1, 0, 0] * 10)
    values["e"]["odd"] = {"accuracy": samples[("e", "odd", "accuracy")].estimate()}
    # missing results: f has no value of u1, d no per-sample values of u2 (its interval instead)
    del values["f"]["u1"]
    del samples[("f", "u1", "accuracy")]
    del samples[("d", "u2", "accuracy")]
    cells = {("d", "u2", "accuracy"): CellStat(values["d"]["u2"]["accuracy"], 6.0, 30.0, 55.0, "wilson", n=40)}
    # unscorable samples: b's NaN sample, its value the mean of the others (not what its per-sample values give)
    units = samples[("b", "u4", "accuracy")].units.copy()
    units[3] = math.nan
    samples[("b", "u4", "accuracy")] = SampleValues("binary", units, 100.0, 1, "correct")
    values["b"]["u4"] = {"accuracy": float(100.0 * np.nanmean(units))}
    # a NaN value: a model with no usable value of v0
    values["e"]["v0"] = {"accuracy": math.nan}
    # counts over three runs and scores that are not counts
    rng = random.Random(6)
    for m in models:
        runs3 = SampleValues("mean", np.array([rng.randint(0, 3) for _ in range(40)], dtype=float) / 3, 100.0, 3,
                             "correct")
        samples[(m, "r3", "accuracy")] = runs3
        score = _scores([round(rng.uniform(0, 90), 1) for _ in range(40)])
        samples[(m, "sc", "accuracy")] = score
        values[m]["r3"] = {"accuracy": runs3.estimate()}
        values[m]["sc"] = {"accuracy": score.estimate()}
    abbrs = [f"u{i}" for i in range(6)] + ["v0", "v1", "odd", "r3", "sc"]
    definitions = [
        {"name": "all", "subsets": [[a, "accuracy"] for a in abbrs]},
        {"name": "half", "subsets": [[a, "accuracy"] for a in abbrs[::2]], "weights": {a: i + 1 for i, a in
                                                                                      enumerate(abbrs[::2])}},
        {"name": "spread", "subsets": [[a, "accuracy"] for a in abbrs[1::2]], "std": True},
        {"name": "harm", "subsets": [[a, "accuracy"] for a in ("u0", "u1", "u5", "r3")], "harmonic_mean": True},
        {"name": "turned", "subsets": [[a, "accuracy"] for a in ("u0", "u5", "v1")], "transforms": {"u5": "100 - x"}},
        {"name": "top", "subsets": [["half", "weighted_average"], ["u1", "accuracy"], ["spread", "standard_deviation"],
                                    ["u5", "accuracy"], ["harm", "harmonic_mean"], ["u0", "accuracy"]]},
    ]
    groups = [SummaryGroup.from_config(d) for d in definitions]
    from assay.groups import Scores, apply_groups

    scores = Scores(columns=models, dataset_abbrs=abbrs, metrics={a: ["accuracy"] for a in abbrs})
    for m in models:
        for a in abbrs:
            if a in values[m]:
                scores.set_values(m, a, values[m][a])
    apply_groups(scores, groups)
    return models, scores.values, samples, cells, groups


def test_datasets_drawn_together_give_the_rounds_each_gives_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.stats import _ranks

    models, values, samples, cells, groups = _varied_case()
    wanted = [(g.name, g.metric) for g in groups] + [(a, "accuracy") for a in ("u0", "u2", "u3", "u4", "odd", "v1")]
    together: list[str] = []
    draw_block = _ranks.RankBootstrap._draw_block

    def spy(self, *args):
        got = draw_block(self, *args)
        together.extend(abbr for abbr, _ in got)
        return got

    def rank(block_values: int) -> dict:
        monkeypatch.setattr(_ranks, "_BLOCK_VALUES", block_values)
        boot = RankBootstrap(models, values, samples, cells, groups, rounds=ROUNDS, seed=SEED)
        return boot.rank_all(wanted)

    default = _ranks._BLOCK_VALUES
    monkeypatch.setattr(_ranks.RankBootstrap, "_draw_block", spy)
    alone = rank(0)  # every dataset drawn by itself
    assert together == []
    for block_values in (3 * ROUNDS * (len(models) + 40), default):  # blocks of three, one block
        together.clear()
        got = rank(block_values)
        # the usual datasets are drawn together; those with a model's interval, unusable values or scores are not
        assert {"u0", "u3", "u5", "r3"} <= set(together)
        assert not {"u2", "u4", "sc"} & set(together)
        for cell, ranking in alone.items():
            assert got[cell].to_json() == ranking.to_json(), cell
            assert np.array_equal(got[cell].draws, ranking.draws, equal_nan=True), cell
    ranking = alone[("u0", "accuracy")]
    assert ["b", "c"] in [sorted(t) for t in ranking.ties]
    assert any("resampled apart" in (m.note or "") for m in alone[("odd", "accuracy")].models)
    assert any("drawn from its interval" in (m.note or "") for m in alone[("u2", "accuracy")].models)
    assert any("give" in (m.note or "") for m in alone[("u4", "accuracy")].models)


def test_few_models_summed_at_their_drawn_samples_give_the_rounds_the_counts_give(monkeypatch: pytest.MonkeyPatch,
                                                                                   ) -> None:
    from assay.stats import _ranks

    models, values, samples, cells, groups = _varied_case()
    wanted = [(g.name, g.metric) for g in groups] + [(a, "accuracy") for a in ("u0", "u2", "u3", "u4", "odd", "v1", "r3")]
    packed: list[int] = []
    packed_sums = _ranks._packed_sums

    def spy(*args):
        packed.append(args[1])
        return packed_sums(*args)

    monkeypatch.setattr(_ranks, "_packed_sums", spy)

    def rank(words: int, block_values: int) -> dict:
        monkeypatch.setattr(_ranks, "_PACKED_WORDS", words)
        monkeypatch.setattr(_ranks, "_BLOCK_VALUES", block_values)
        return RankBootstrap(models, values, samples, cells, groups, rounds=ROUNDS, seed=SEED).rank_all(wanted)

    for block_values in (0, _ranks._BLOCK_VALUES):  # every dataset by itself; the usual ones in one block
        counted = rank(0, block_values)  # no packing: the counts times the levels
        assert packed == []
        got = rank(4, block_values)
        assert packed  # the usual datasets' six models fit one word
        packed.clear()
        for cell, ranking in counted.items():
            assert got[cell].to_json() == ranking.to_json(), cell
            assert np.array_equal(got[cell].draws, ranking.draws, equal_nan=True), cell


@pytest.mark.parametrize(("top", "models"), [(0, 5), (1, 70), (2_097_151, 3), (2_097_151, 6), (2_097_152, 12), (40, 11),
                                             (40, 45)])
def test_packed_sums_are_the_counts_times_the_levels_up_to_the_largest_sums(top: int, models: int) -> None:
    from assay.stats import _ranks

    per = _ranks._packing(top, models, 1000)
    base = max(top, 1) + 1
    fits = max(p for p in range(1, 64) if base ** p <= 1 << 63)  # the models a 64-bit word holds
    if per is None:  # more words than are worth it
        assert -(-models // fits) > _ranks._PACKED_WORDS
        return
    assert per == fits and _ranks._packing(top, models, 100) == (per if models <= fits else None)
    n, rounds = 4, 50
    rng = np.random.default_rng(1)
    levels = rng.integers(0, top // n + 1, (n, models))
    levels[0] = top // n  # the largest level: a round drawing sample 0 n times sums to (about) top
    drawn = rng.integers(0, n, (rounds, n), dtype=np.int32)
    drawn[0] = 0
    counts = np.zeros((rounds, n), dtype=np.int64)
    for r in range(rounds):
        np.add.at(counts[r], drawn[r], 1)
    out = np.zeros((rounds, models), dtype=np.int64)
    _ranks._packed_sums(levels, top, per, drawn, out, _ranks._Space())
    assert np.array_equal(out, counts @ levels)


def test_a_dataset_no_model_answers_right_is_ranked_all_tied() -> None:
    samples, values = _case({"a": 0.0, "b": 0.0, "c": 0.0}, {"d": 30})
    ranking = RankBootstrap(["a", "b", "c"], values, samples, rounds=50).rank("d", "accuracy")
    assert [(m.rank, m.rank_low, m.rank_high, m.low, m.high) for m in ranking.models] == [(1, 1, 1, 0.0, 0.0)] * 3
    assert ranking.ties == [["a", "b", "c"]]


@pytest.mark.parametrize("low, high", [(-3, 4), (0, 40_000)], ids=["negative scores", "scores summing past 2**24"])
def test_whole_number_scores_outside_counts_match_a_direct_bootstrap(low: int, high: int) -> None:
    """A details field of whole-number scores (a score per sample, not a count of right answers): negative ones, or
    ones whose rounds' sums pass float32's whole numbers, are drawn as plain values, as a direct bootstrap draws them."""
    rng = np.random.default_rng(5)
    n, models = 700, ["a", "b", "c"]
    per = {m: rng.integers(low, high, n).astype(float) for m in models}
    samples = {(m, "d", "score"): SampleValues("mean", u, 1.0, 1, "details.score") for m, u in per.items()}
    values = {m: {"d": {"score": float(u.mean())}} for m, u in per.items()}
    boot = RankBootstrap(models, values, samples, rounds=ROUNDS, seed=SEED)
    drawn, _ = boot.draws("d", "score", models)
    idx = round_indices("d", n, ROUNDS, SEED)
    direct = np.array([[per[m][idx[r]].mean() for m in models] for r in range(ROUNDS)])
    assert np.allclose(drawn, direct, rtol=1e-12, atol=0)
    want = _direct(models, {"d": {m: per[m].tolist() for m in models}}, {"d": 1.0}, lambda m, p: p["d"], ROUNDS, SEED)
    got = {m.model: m for m in boot.rank("d", "score").models}
    for model, (rank_low, rank_high, lo, hi) in want.items():
        assert (got[model].rank_low, got[model].rank_high) == (rank_low, rank_high), model
        assert got[model].low == pytest.approx(lo, rel=1e-12) and got[model].high == pytest.approx(hi, rel=1e-12)


@pytest.mark.parametrize("layout", range(6))
def test_rank_all_of_a_group_and_its_datasets_matches_a_direct_bootstrap_on_random_layouts(layout: int) -> None:
    from dataclasses import FrozenInstanceError

    from assay.stats import ModelRank

    rng = random.Random(100 + layout)
    names = [f"m{i}" for i in range(rng.randint(1, 9))]
    skills = {m: rng.uniform(0.2, 0.9) for m in names}
    abbrs = {f"d{i}": rng.randint(2, 30) for i in range(rng.randint(2, 4))}
    samples, values = _case(skills, abbrs, seed=layout)
    group = SummaryGroup.from_config({"name": "g", "subsets": [[a, "accuracy"] for a in abbrs]})
    for model in names:
        values[model]["g"] = {"naive_average": sum(values[model][a]["accuracy"] for a in abbrs) / len(abbrs)}
    wanted = [("g", "naive_average"), *[(a, "accuracy") for a in abbrs]]
    done = RankBootstrap(names, values, samples, groups=[group], rounds=ROUNDS, seed=SEED).rank_all(wanted)
    units = _units(samples, names, list(abbrs))
    for abbr, metric in wanted:
        if abbr == "g":
            want = _direct(names, units, dict.fromkeys(abbrs, 100.0), lambda m, per: sum(per.values()) / len(per),
                           ROUNDS, SEED)
        else:
            want = _direct(names, {abbr: units[abbr]}, {abbr: 100.0}, lambda m, per, a=abbr: per[a], ROUNDS, SEED)
        ranking = done[(abbr, metric)]
        observed = [m.value for m in ranking.models]
        for entry in ranking.models:
            assert (entry.rank_low, entry.rank_high) == want[entry.model][:2], (abbr, entry.model)
            assert entry.low == pytest.approx(want[entry.model][2]) and entry.high == pytest.approx(want[entry.model][3])
            assert entry.rank == 1 + sum(v > entry.value for v in observed)
            # each entry is the ModelRank its fields make: equal, hashing alike, frozen
            fields = entry.to_json()
            same = ModelRank(fields["model"], fields["value"], fields["low"], fields["high"], fields["rank"],
                             fields["rank_low"], fields["rank_high"], fields["tier"], fields.get("note"))
            assert entry == same and hash(entry) == hash(same)
            with pytest.raises(FrozenInstanceError):
                entry.rank = 0  # type: ignore[misc]
