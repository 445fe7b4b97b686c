"""LongBench's and LV-Eval's text measures against OpenCompass 0.5.4's, on seeded random inputs.

``expected/vectors.json`` (``scripts/record_oc_longbench.py``) holds what the ``rouge`` package,
``fuzzywuzzy`` (with python-Levenshtein), LongBench's normalizers and each evaluator compute on 400
random pairs of English/Chinese/code-like text and three long single-sentence pairs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.evaluators._longtext import fuzz_ratio, normalize_answer, normalize_zh_answer, rouge_l_f
from assay.registry import ICL_EVALUATORS, TEXT_POSTPROCESSORS

VECTORS_PATH = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "longbench" / "expected" / "vectors.json"
VECTORS = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))
PAIRS = [tuple(p) for p in VECTORS["pairs"]]


def test_rouge_l_is_the_rouge_packages() -> None:
    # the recording ran these at a shallow stack, where even the 986-word sentence fits the recursion limit
    got = [rouge_l_f(a, b, frames=0) for a, b in PAIRS]
    assert got == VECTORS["rouge_l_f"]


def test_rouge_l_fails_where_opencompass_recursion_overflows() -> None:
    """Where OpenCompass's eval task, run as its runners run it, overflows the recursion limit (recorded in
    ``expected/rouge_depth.json``): the longest summary it scores is scored, one word more scores 0."""
    record = json.loads((VECTORS_PATH.parent / "rouge_depth.json").read_text(encoding="utf-8"))
    summaries = [" ".join(f"word{i}" for i in range(n)) for n in record["lengths"]]
    result = ICL_EVALUATORS.get("LongBenchRougeEvaluator")(language="en").score(summaries, [[s] for s in summaries])
    assert result["score"] == pytest.approx(record["result"]["score"], abs=1e-9)
    longest = " ".join(f"word{i}" for i in range(record["longest_scored"]))
    shortest = " ".join(f"word{i}" for i in range(record["shortest_failing"]))
    assert rouge_l_f(longest, longest) == pytest.approx(1.0)
    assert rouge_l_f(shortest, shortest) is None


def test_fuzz_ratio_is_fuzzywuzzys() -> None:
    assert [fuzz_ratio(a, b) for a, b in PAIRS] == VECTORS["fuzz_ratio"]


def test_normalizers_are_longbenchs() -> None:
    assert [normalize_answer(a) for a, _ in PAIRS] == VECTORS["normalize_answer"]
    assert [normalize_zh_answer(a) for a, _ in PAIRS] == VECTORS["normalize_zh_answer"]


@pytest.mark.parametrize("name", sorted(VECTORS["evaluators"]))
def test_evaluator_scores_as_opencompass(name: str) -> None:
    kind, _, language = name.partition("/")
    evaluator = ICL_EVALUATORS.get(kind)(**({"language": language} if language else {}))
    inputs: dict[str, Any] = VECTORS["evaluator_inputs"]
    expected = VECTORS["evaluators"][name]
    if "exception" in expected:
        with pytest.raises(ZeroDivisionError if expected["exception"] == "ZeroDivisionError" else Exception):
            evaluator.score(list(inputs["predictions"]), [list(r) for r in inputs["references"]])
        return
    result = evaluator.score(list(inputs["predictions"]), [list(r) for r in inputs["references"]])
    for key, value in expected.items():
        assert result[key] == value, key
    assert len(result["details"]) == len(inputs["predictions"])


def test_classification_keeps_a_class_after_a_dropped_one() -> None:
    """OpenCompass removes while iterating: the class after a dropped one is never looked at."""
    evaluator = ICL_EVALUATORS.get("LongBenchClassificationEvaluator")()
    refs = [{"answers": ["New York City"], "all_classes": ["New", "York", "New York City"]}]
    # 'New' is dropped, 'York' (next) is skipped and kept: 1 / 2
    assert evaluator.score(["New York City"], refs)["score"] == 50.0
    # a reply naming no class scores 0: the similarity fallback never runs
    assert evaluator.score(["Nothing"], refs)["score"] == 0.0


@pytest.mark.parametrize("name", ["trec_postprocess", "lsht_postprocess", "samsum_postprocess", "triviaqa_postprocess"])
def test_postprocessors_keep_the_first_line(name: str) -> None:
    assert TEXT_POSTPROCESSORS.get(name)("\n\n first line \nsecond") == " first line "
