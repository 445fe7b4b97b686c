"""The benchmark families' evaluators on the cases where OpenCompass's rules surprise.

Their numbers on whole recorded runs are compared with OpenCompass's in
``tests/benchmarks_oc/test_families_direct.py``; here each quirk is pinned.
"""

from __future__ import annotations

import math

import pytest

from assay.evaluators.agieval import AGIEvalEvaluator, agieval_math_answer, agieval_math_equal
from assay.evaluators.bbh import BBHEvaluator, BBHEvaluator_mcq
from assay.evaluators.contamination import AccContaminationEvaluator
from assay.evaluators.edit_distance import EDAccEvaluator
from assay.evaluators.gpqa import GPQAEvaluator
from assay.evaluators.mmlu_pro import MMLUProBaseEvaluator


def test_contamination_groups_and_an_empty_group() -> None:
    from datasets import Dataset

    status = ["clean", "clean", "input contamination", "not labeled", "input contamination"]
    test_set = Dataset.from_list([{"is_clean": s} for s in status])
    result = AccContaminationEvaluator().evaluate(
        k=1, n=1, original_dataset=test_set, predictions=["A", "B", 1, "D", "C"], references=["A", "A", "1", "A", "D"], test_set=test_set
    )
    assert result["accuracy - clean"] == 50.0
    assert result["accuracy - input contaminated"] == 50.0  # the int 1 matches '1', as AccEvaluator compares strings
    assert math.isnan(result["accuracy - input-and-label contaminated"])
    assert [d["is_clean"] for d in result["details"]] == [[s] for s in status]


def test_contamination_needs_the_is_clean_column() -> None:
    result = AccContaminationEvaluator().score(["A"], ["A"], [{"question": "q"}])
    assert "is_clean" in result["error"]


def test_edit_distance_picks_the_nearest_candidate_first_on_ties() -> None:
    refs = [{"candidates": [["A. go home", "A", "go home"], ["B. go out", "B", "go out"]], "label": 1}] * 3
    result = EDAccEvaluator().score(["I would go out", "go", "B"], refs)
    assert [d["pred"] for d in result["details"]] == [1, 0, 1]  # 'go' is two edits from 'A' and from 'B': the first wins
    assert result["accuracy"] == pytest.approx(200 / 3)


def test_edit_distance_refuses_a_postprocessor() -> None:
    with pytest.raises(TypeError):
        EDAccEvaluator(pred_postprocessor={"type": "first-capital"})  # type: ignore[call-arg]


def test_mmlu_pro_base_quirks() -> None:
    refs = ["C. It rises. Then it falls\n", "B. Paris\n", "B. Paris\n", "B. Paris\n", ""]
    preds = ["C", "B.", "Paris\nbecause", "(B)", "B"]
    details = MMLUProBaseEvaluator().score(preds, refs)["details"]
    # an option holding '. ' can never be matched; 'B.' and '(B)' are not the letter; an empty reference never matches
    assert [d["correct"] for d in details] == [False, False, True, False, False]


def test_bbh_freeform_extracts_both_sides_and_ignores_case() -> None:
    result = BBHEvaluator().score(["So the answer is **valid**.", "the answer is apple, banana", "answer is 1, 024"], ["Valid", "apple banana", "1, 024"])
    assert [d["correct"] for d in result["details"]] == [True, True, True]
    assert [d["pred"] for d in result["details"]] == ["valid", "apple banana", "1, 024"]


def test_bbh_mcq_and_gpqa_compare_exactly() -> None:
    assert BBHEvaluator_mcq().score(["B", "b"], ["B", "B"])["score"] == 50.0
    assert GPQAEvaluator().score([None, "A", "a"], ["A", "A", "A"])["accuracy"] == pytest.approx(100 / 3)


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("The answer is therefore $5$. The answer is therefore $6$", "5$. The answer is therefore $6"),  # a leading prefix is cut once
        ("So The answer is therefore $5$. The answer is therefore $6$", "6"),  # otherwise after its last occurrence
        ("\\boxed{x = 2} and \\boxed{5}", "5"),
        ("\\boxed{3", None),  # an unbalanced box gives nothing, even with a number around
        ("\\fbox{3} is it", "3"),
        ("$a$ then $b = 7$", "7"),  # the greedy $…$ of the line: 'a$ then $b = 7' after its last '='
        ("x = 12.", "12"),
        ("literally x = 3\\nmore", "3"),  # cut at a backslash-n written out
        ("between 3.5 and 4 apples", "4"),
        ("no number", None),
    ],
)
def test_agieval_math_answer(reply: str, answer: str | None) -> None:
    assert agieval_math_answer(reply) == answer


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        ("0.5", "\\frac{1}{2}", True),
        ("\\dfrac12", "\\frac{1}{2}", True),
        ("3/4", "\\frac{3}{4}", True),
        ("x=5", "5", True),
        ("10\\%", "10", True),
        ("2\\sqrt2", "2\\sqrt{2}", True),
        ("5 \\text{ cm}", "5", True),
        ("\\sqrt", "\\sqrt", True),  # normalising fails: the raw strings are compared
        ("\\sqrt", "\\sqrt{}", False),
        ("1 \\text{ a} \\text{ b}", "1", False),
        (None, None, True),
        ("3", ["3"], False),  # a list label (a multiple-choice task scored by this evaluator) never matches
    ],
)
def test_agieval_math_equal(a: object, b: object, equal: bool) -> None:
    assert agieval_math_equal(a, b) is equal


def test_agieval_evaluator_scores_a_reply_without_answer_as_wrong() -> None:
    result = AGIEvalEvaluator().score(["", "$\\frac{1}{2}$"], ["3", "0.5"])
    assert [d["pred"] for d in result["details"]] == [None, "\\frac{1}{2}"]
    assert result["score"] == 50.0
