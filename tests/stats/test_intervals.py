"""Coverage, exact tests and reproducibility of the interval code."""

from __future__ import annotations

import math

import numpy as np
import pytest

from assay.stats import (
    CellStat,
    binomial_two_sided_p,
    bootstrap_interval,
    cell_stat,
    group_stats,
    holm_adjust,
    sample_values,
    wilson_interval,
)
from assay.summarize import SummaryGroup

TRIALS = 2000


def _binary_result(flags: np.ndarray) -> dict:
    return {"accuracy": 100.0 * flags.mean(), "details": [{"correct": [bool(f)]} for f in flags]}


@pytest.mark.parametrize(("p", "n"), [(0.3, 100), (0.85, 200)])
def test_wilson_interval_covers_true_proportion_about_95_percent(p: float, n: int) -> None:
    rng = np.random.default_rng(1234)
    covered = 0
    for k in rng.binomial(n, p, TRIALS):
        lo, hi = wilson_interval(int(k), n)
        covered += lo <= p <= hi
    assert 0.93 <= covered / TRIALS <= 0.97


def test_single_cell_interval_from_details_covers_true_accuracy() -> None:
    rng = np.random.default_rng(99)
    p, n, covered = 0.6, 80, 0
    for _ in range(TRIALS):
        flags = rng.random(n) < p
        result = _binary_result(flags)
        stat = cell_stat(sample_values(result, "accuracy"), result["accuracy"])
        assert stat.method == "wilson"
        covered += stat.low <= 100 * p <= stat.high
    assert 0.93 <= covered / TRIALS <= 0.97


def _base_cells(rng: np.random.Generator, ps: list[float], ns: list[int]) -> tuple[dict, dict]:
    values: dict[str, dict[str, float]] = {}
    base: dict[tuple[str, str], CellStat] = {}
    for i, (p, n) in enumerate(zip(ps, ns)):
        k = int(rng.binomial(n, p))
        units = np.array([1.0] * k + [0.0] * (n - k))
        from assay.stats import SampleValues

        stat = cell_stat(SampleValues("binary", units, 100.0, 1, "correct"), 100.0 * k / n)
        values[f"d{i}"] = {"accuracy": 100.0 * k / n}
        base[(f"d{i}", "accuracy")] = stat
    return values, base


@pytest.mark.parametrize("weights", [None, {"d0": 1, "d1": 2, "d2": 5}])
def test_group_interval_covers_true_group_value(weights: dict | None) -> None:
    ps, ns = [0.3, 0.6, 0.8], [80, 120, 200]
    cfg = {"name": "g", "subsets": [[f"d{i}", "accuracy"] for i in range(3)]}
    if weights:
        cfg["weights"] = weights
    group = SummaryGroup.from_config(cfg)
    ws = [weights[f"d{i}"] for i in range(3)] if weights else [1, 1, 1]
    truth = 100 * sum(w * p for w, p in zip(ws, ps)) / sum(ws)
    rng = np.random.default_rng(2024)
    covered = 0
    for _ in range(TRIALS):
        values, base = _base_cells(rng, ps, ns)
        xs = [values[f"d{i}"]["accuracy"] for i in range(3)]
        values["g"] = {group.metric: sum(w * x for w, x in zip(ws, xs)) / sum(ws)}
        stat = group_stats([group], values, {k: ["accuracy"] for k in values}, base)[("g", group.metric)]
        covered += stat.low <= truth <= stat.high
    assert 0.93 <= covered / TRIALS <= 0.97


def test_group_standard_errors_follow_the_estimator() -> None:
    base = {("a", "acc"): CellStat(60.0, 3.0, 54.0, 66.0, "wilson"), ("b", "acc"): CellStat(80.0, 4.0, 72.0, 88.0, "wilson")}
    values = {"a": {"acc": 60.0}, "b": {"acc": 80.0}}
    metrics = {"a": ["acc"], "b": ["acc"]}
    naive = SummaryGroup.from_config({"name": "n", "subsets": [["a", "acc"], ["b", "acc"]]})
    weighted = SummaryGroup.from_config({"name": "w", "subsets": [["a", "acc"], ["b", "acc"]], "weights": {"a": 1, "b": 3}})
    total = SummaryGroup.from_config({"name": "s", "subsets": [["a", "acc"], ["b", "acc"]], "sum": True})
    nested = SummaryGroup.from_config({"name": "nest", "subsets": [["n", "naive_average"], ["a", "acc"]]})
    values.update({"n": {"naive_average": 70.0}, "w": {"weighted_average": 75.0}, "s": {"sum": 140.0},
                   "nest": {"naive_average": 65.0}})
    out = group_stats([naive, weighted, total, nested], values, metrics, base)
    assert out[("n", "naive_average")].se == pytest.approx(math.sqrt(9 + 16) / 2)
    assert out[("w", "weighted_average")].se == pytest.approx(math.sqrt(9 + 9 * 16) / 4)
    assert out[("s", "sum")].se == pytest.approx(5.0)
    # 'a' enters the nested group directly and through 'n': coefficient 0.75, 'b' 0.25
    assert out[("nest", "naive_average")].se == pytest.approx(math.sqrt((0.75 * 3) ** 2 + (0.25 * 4) ** 2))
    assert out[("n", "naive_average")].low == pytest.approx(70.0 - 1.959964 * 2.5, abs=1e-4)


def test_std_group_is_simulated_reproducibly_and_missing_input_gives_no_interval() -> None:
    base = {("a", "acc"): CellStat(60.0, 3.0, 54.0, 66.0, "wilson"), ("b", "acc"): CellStat(80.0, reason="no details")}
    spread = SummaryGroup.from_config({"name": "sd", "subsets": [["a", "acc"], ["a2", "acc"]], "std": True})
    base[("a2", "acc")] = CellStat(70.0, 2.0, 66.0, 74.0, "wilson")
    values = {"a": {"acc": 60.0}, "a2": {"acc": 70.0}, "b": {"acc": 80.0}, "sd": {"standard_deviation": 5.0},
              "g": {"naive_average": 70.0}}
    g = SummaryGroup.from_config({"name": "g", "subsets": [["a", "acc"], ["b", "acc"]]})
    metrics = {k: ["acc"] for k in ("a", "a2", "b")}
    first = group_stats([spread, g], values, metrics, base, seed=5)
    again = group_stats([spread, g], values, metrics, base, seed=5)
    assert first[("sd", "standard_deviation")].method == "simulated"
    assert first[("sd", "standard_deviation")] == again[("sd", "standard_deviation")]
    assert group_stats([spread], values, metrics, base, seed=6)[("sd", "standard_deviation")].low != first[("sd", "standard_deviation")].low
    assert not first[("g", "naive_average")].has_interval
    assert "b@acc" in (first[("g", "naive_average")].reason or "")


@pytest.mark.parametrize(("b", "c"), [(0, 0), (0, 5), (3, 3), (1, 9), (10, 2), (25, 40), (120, 95), (700, 780)])
def test_mcnemar_exact_matches_binomial_test(b: int, c: int) -> None:
    from scipy.stats import binomtest

    expected = 1.0 if b + c == 0 else binomtest(min(b, c), b + c, 0.5).pvalue
    assert binomial_two_sided_p(b, c) == pytest.approx(expected, rel=1e-9)


def test_mcnemar_textbook_values() -> None:
    # by hand: 2 * (C(8,0) + C(8,1)) / 2**8 = 18/256 — the exact conditional test for 1 vs 7
    # discordant pairs (the worked example of Fagerland, Lydersen & Laake 2013, p = 0.070)
    assert binomial_two_sided_p(1, 7) == pytest.approx(0.0703125)
    assert binomial_two_sided_p(7, 1) == pytest.approx(0.0703125)
    # by hand: 2 * 1/2**5
    assert binomial_two_sided_p(0, 5) == pytest.approx(0.0625)
    assert binomial_two_sided_p(4, 4) == 1.0


def test_holm_adjustment() -> None:
    assert holm_adjust([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert holm_adjust([]) == []


def test_bootstrap_is_seeded_and_reproducible() -> None:
    x = np.random.default_rng(0).random(50)

    def stat(idx: np.ndarray) -> float:
        return float(x[idx].mean())

    a = bootstrap_interval(50, stat, resamples=300, seed=11)
    assert a == bootstrap_interval(50, stat, resamples=300, seed=11)
    assert a != bootstrap_interval(50, stat, resamples=300, seed=12)
    se, lo, hi = a
    assert lo < x.mean() < hi
    assert se == pytest.approx(x.std(ddof=1) / math.sqrt(50), rel=0.2)


def test_t_quantile_is_scipys_student_t_quantile_to_the_last_bit() -> None:
    """The paired comparisons' t intervals keep the values they had with ``scipy.stats.t.ppf``."""
    from scipy.stats import t as student_t

    from assay.stats import t_interval, t_quantile

    for confidence in (0.5, 0.8, 0.9, 0.95, 0.99, 0.999):
        for df in (1, 2, 3, 4.5, 9, 29, 30, 99, 1999, 199_999, 1e9):
            p = 0.5 + confidence / 2
            assert t_quantile(p, df) == float(student_t.ppf(p, df)), (p, df)
    values = [0.0, 1.0, 1.0, -1.0, 0.0, 1.0, 0.0, 0.0, 1.0]
    _, se, half = t_interval(values, 0.95)
    assert half == float(student_t.ppf(0.975, len(values) - 1)) * se
    with pytest.raises(ValueError, match="degrees of freedom"):
        t_quantile(0.975, 0)
    # the ends, beyond them, and single-precision arguments, as scipy.stats gives them
    import numpy as np

    for p in (0.0, 1.0, -0.5, 1.5, float("nan"), np.float32(0.975), np.float32(0.6)):
        for df in (2.5, 1e-10, 7, float("inf")):
            expected = float(student_t.ppf(p, df))
            got = t_quantile(p, df)
            assert got == expected or (np.isnan(got) and np.isnan(expected)), (p, df, got, expected)


def test_a_paired_comparison_without_its_interval_keeps_the_test() -> None:
    from assay.stats import SampleValues, paired_compare

    rng = np.random.default_rng(7)
    a = SampleValues("binary", (rng.random(500) < 0.6).astype(float), 100.0, 1, "correct")
    b = SampleValues("binary", (rng.random(500) < 0.5).astype(float), 100.0, 1, "correct")
    full, bare = paired_compare(a, b), paired_compare(a, b, interval=False)
    assert (bare.p, bare.test, bare.a_only, bare.b_only, bare.diff, bare.n) == (
        full.p, full.test, full.a_only, full.b_only, full.diff, full.n)
    assert full.low < full.diff < full.high and full.se > 0
    assert math.isnan(bare.low) and math.isnan(bare.high) and math.isnan(bare.se)
    # per-sample means (not binary): the bootstrap gives the test and the interval together
    m = SampleValues("mean", rng.random(200), 100.0, 2, "correct")
    n = SampleValues("mean", rng.random(200), 100.0, 2, "correct")
    assert paired_compare(m, n, interval=False).to_json() == paired_compare(m, n).to_json()
