"""Which details back which metric, and the unscorable counts."""

from __future__ import annotations

import pytest

from assay.stats import cell_stat, sample_values, unscorable_of


def test_metric_not_equal_to_mean_correct_gets_no_interval() -> None:
    details = [{"correct": [True]}, {"correct": [False]}]
    assert sample_values({"accuracy": 50.0, "details": details}, "accuracy").kind == "binary"
    reason = sample_values({"accuracy": 51.0, "details": details}, "accuracy")
    assert isinstance(reason, str) and "not 100 × mean(correct)" in reason
    stat = cell_stat(reason, 51.0)
    assert not stat.has_interval and stat.describe().startswith("no interval")
    assert isinstance(sample_values({"accuracy": 50.0}, "accuracy"), str)


def test_runs_are_clustered_by_sample() -> None:
    details = [{"correct": [True, True, False, True]}, {"correct": [False, False, False, True]},
               {"correct": [True, True, True, True]}]
    sv = sample_values({"accuracy (4 runs average)": 100 * 8 / 12, "details": details}, "accuracy (4 runs average)")
    assert sv.kind == "mean" and sv.n == 3 and sv.runs == 4
    stat = cell_stat(sv, 100 * 8 / 12)
    assert stat.method == "t" and stat.n == 3


def test_score_field_of_the_metric_name_backs_it() -> None:
    details = [{"rouge1": 10.0}, {"rouge1": 30.0}, {"rouge1": 50.0}]
    sv = sample_values({"rouge1": 30.0, "details": details}, "rouge1")
    assert sv.basis == "details.rouge1"
    stat = cell_stat(sv, 30.0)
    assert stat.low == pytest.approx(30.0 - 4.302653 * 20 / 3 ** 0.5, rel=1e-5)
    gp = [{"G-Pass@2_0.5": 0.5, "correct": [True, False]}, {"G-Pass@2_0.5": 1.0, "correct": [True, True]}]
    assert sample_values({"G-Pass@2_0.5": 75.0, "details": gp}, "G-Pass@2_0.5").scale == 100.0


def test_corpus_bleu_bootstrap_reproduces_score_and_is_seeded() -> None:
    import sacrebleu

    hyps = ["the cat sat on the mat", "a dog runs", "hello world", "it is raining today", "we like tea"]
    refs = ["the cat sat on a mat", "the dog runs", "hello there world", "it rains today", "we like green tea"]
    score = sacrebleu.corpus_bleu(hyps, [refs]).score
    result = {"score": score, "details": [{"pred": h, "answer": r} for h, r in zip(hyps, refs)],
              "_meta": {"evaluator": "BleuEvaluator"}}
    sv = sample_values(result, "score")
    assert sv.kind == "corpus" and sv.estimate() == pytest.approx(score)
    a, b = cell_stat(sv, score, resamples=200, seed=3), cell_stat(sv, score, resamples=200, seed=3)
    assert a.method == "bootstrap" and a == b
    assert isinstance(sample_values(dict(result, score=score + 1), "score"), str)


def test_unscorable_counts_and_bounds() -> None:
    details = [
        {"prediction": ["A"], "correct": [True], "judge_failed": [None]},
        {"prediction": [""], "correct": [False], "judge_failed": [None]},
        {"prediction": ["C"], "correct": [None], "judge_failed": ["no reply: timeout"]},
        {"prediction": ["D"], "correct": [False], "judge_failed": [None]},
    ]
    result = {"accuracy": 25.0, "judge_failed_count": 1, "extraction": {"unextracted": 1, "total": 4}, "details": details}
    u = unscorable_of(result, [("accuracy", 25.0)])
    assert (u.unextracted, u.judge_failed, u.total) == (1, 1, 4)
    assert u.bounds["accuracy"] == (25.0, 75.0)
    code = {"humaneval_pass@1": 50.0, "outcomes": {"passed": 2, "failed": 1, "timeout": 1},
            "details": [{"is_correct": True, "outcome": "passed"}, {"is_correct": True, "outcome": "passed"},
                        {"is_correct": False, "outcome": "failed"}, {"is_correct": False, "outcome": "timeout"}]}
    u = unscorable_of(code, [("humaneval_pass@1", 50.0)])
    assert u.not_executed == 1 and u.outcomes == {"passed": 2, "failed": 1, "timeout": 1}
    assert u.bounds["humaneval_pass@1"] == (50.0, 75.0)


def test_a_metric_declared_rounded_is_backed_within_half_its_last_decimal() -> None:
    # RULER's score is the mean share of references found, × 100, rounded to two decimals
    details = [{"score": 1.0, "correct": True}, {"score": 1 / 3, "correct": False}, {"score": 0.0, "correct": False}]
    outcome = {"correct": "correct", "scores": {"score": "score"}, "decimals": 2}
    sv = sample_values({"score": 44.44, "details": details, "_meta": {"outcome": outcome}}, "score")
    assert not isinstance(sv, str) and sv.basis == "details.score" and sv.scale == 100.0
    assert cell_stat(sv, 44.44).has_interval
    undeclared = {"correct": "correct", "scores": {"score": "score"}}
    assert isinstance(sample_values({"score": 44.44, "details": details, "_meta": {"outcome": undeclared}}, "score"), str)
    # half a unit of the last decimal, no more
    assert isinstance(sample_values({"score": 44.46, "details": details, "_meta": {"outcome": outcome}}, "score"), str)


def test_a_percent_of_a_0_1_score_field_is_a_proportion_with_a_wilson_interval() -> None:
    # another tool's per-sample 0/1 values, the metric in percent: an interval inside [0, 100]
    details = [{"acc,none": 1.0}] * 15 + [{"acc,none": 0.0}]
    result = {"acc,none": 93.75, "_meta": {"outcome": {"correct": None, "scores": {"acc,none": "acc,none"}}}, "details": details}
    sv = sample_values(result, "acc,none")
    assert sv.kind == "binary" and sv.scale == 100.0
    stat = cell_stat(sv, 93.75)
    assert stat.method == "wilson" and 0.0 <= stat.low < 93.75 < stat.high <= 100.0
    # the same values on the 0-1 scale stay a mean (t interval), as before
    plain = {"acc,none": 0.9375, "_meta": result["_meta"], "details": details}
    assert sample_values(plain, "acc,none").kind == "mean"
