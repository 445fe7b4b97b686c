"""BaseEvaluator.evaluate: runs, averages, details, G-Pass, errors (R-5.3 – R-5.6)."""

from __future__ import annotations

from typing import Any

import datasets
import pytest

from assay.errors import EvaluationError
from assay.evaluate import BaseEvaluator
from assay.evaluators import AccEvaluator


class NoDetails(BaseEvaluator):
    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return {"accuracy": 100 * sum(p == r for p, r in zip(predictions, references)) / len(predictions), "note": "x"}


def _toy_dataset(abbr: str, n: int) -> datasets.Dataset:
    base = datasets.Dataset.from_list([{"answer": a, "subdivision": abbr, "idx": i} for i, a in enumerate("ABC")])
    return datasets.concatenate_datasets([base] * n)


TOY_PREDS = list("ABX") + list("AXX") + list("ABC") + list("XBX")


def test_toy_fixture_matches_reference() -> None:
    ds = _toy_dataset("toy", 4)
    res = AccEvaluator().evaluate(k=[2, 4], n=4, original_dataset=ds, predictions=TOY_PREDS, references=list(ds["answer"]))
    assert res["accuracy (4 runs average)"] == pytest.approx(58.333333, abs=1e-5)
    assert res["G-Pass@2_0.0"] == pytest.approx(83.333333, abs=1e-5)
    assert res["G-Pass@2_1.0"] == pytest.approx(33.333333, abs=1e-5)
    assert res["G-Pass@4_0.5"] == pytest.approx(66.666667, abs=1e-5)
    assert res["G-Pass@4_1.0"] == 0.0
    assert res["mG-Pass@4"] == pytest.approx(33.333333, abs=1e-5)
    assert res["toy/mG-Pass@2"] == pytest.approx(33.333333, abs=1e-5)
    assert [d["example_abbr"] for d in res["details"]] == ["toy_0", "toy_1", "toy_2"]


def test_subdivision_keys_use_the_full_abbr() -> None:
    ds = _toy_dataset("aime_2024", 4)
    res = AccEvaluator().evaluate(k=2, n=4, original_dataset=ds, predictions=TOY_PREDS, references=list(ds["answer"]))
    assert "aime_2024/G-Pass@2_0.0" in res
    assert not any(key.startswith("aime/") for key in res)


def test_run_average_is_computed_without_details() -> None:
    refs = list("ABC") * 4
    res = NoDetails().evaluate(k=1, n=4, original_dataset=None, predictions=TOY_PREDS, references=refs)
    assert res["accuracy (4 runs average)"] == pytest.approx(58.333333, abs=1e-5)
    assert "accuracy" not in res and "details" not in res
    assert res["note"] == ["x", "x", "x", "x"]


def test_single_run_keeps_plain_metric_names() -> None:
    res = AccEvaluator().evaluate(k=1, n=1, original_dataset=None, predictions=list("ABX"), references=list("ABC"))
    assert res["accuracy"] == pytest.approx(200 / 3)
    assert res["details"][2] == {"pred": ["X"], "answer": ["C"], "correct": [False], "example_abbr": "dataset_2"}
    assert not any(k.startswith("G-Pass") for k in res)


def test_no_g_pass_when_k_is_one() -> None:
    res = AccEvaluator().evaluate(k=1, n=4, original_dataset=None, predictions=TOY_PREDS, references=list("ABC") * 4)
    assert not any("G-Pass" in key for key in res)


class ShortDetails(BaseEvaluator):
    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return {"accuracy": 1.0, "details": [{"correct": True}] * (len(predictions) - 1)}


def test_misaligned_details_are_an_error_naming_both_lengths() -> None:
    with pytest.raises(EvaluationError, match=r"ShortDetails.score\(\) returned 2 details for a batch of 3"):
        ShortDetails().evaluate(k=1, n=1, original_dataset=None, predictions=list("ABC"), references=list("ABC"))


class SometimesDetails(BaseEvaluator):
    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"accuracy": 1.0}
        if self.dataset_replica_idx == 0:
            out["details"] = [{"correct": True}] * len(predictions)
        return out


def test_details_for_only_some_runs_is_an_error() -> None:
    with pytest.raises(EvaluationError, match=r"details for some runs but not for runs \[1\]"):
        SometimesDetails().evaluate(k=1, n=2, original_dataset=None, predictions=list("ABAB"), references=list("ABAB"))


def test_error_from_score_is_returned_as_is() -> None:
    class Err(BaseEvaluator):
        def score(self, predictions: list[Any]) -> dict[str, Any]:
            return {"error": "bad references"}

    assert Err().evaluate(k=1, n=1, original_dataset=None, predictions=["a"]) == {"error": "bad references"}


def test_non_dict_result_is_an_error() -> None:
    class Bare(BaseEvaluator):
        def score(self, predictions: list[Any]) -> Any:
            return 0.5

    with pytest.raises(EvaluationError, match=r"Bare.score\(\) returned float"):
        Bare().evaluate(k=1, n=1, original_dataset=None, predictions=["a"])


def test_length_mismatch_between_predictions_and_references() -> None:
    with pytest.raises(EvaluationError, match="3 predictions but 2 references"):
        AccEvaluator().evaluate(k=1, n=1, original_dataset=None, predictions=list("ABC"), references=list("AB"))


def test_rows_not_divisible_by_runs() -> None:
    with pytest.raises(EvaluationError, match="cannot be split into n=2"):
        AccEvaluator().evaluate(k=1, n=2, original_dataset=None, predictions=list("ABC"), references=list("ABC"))


@pytest.mark.parametrize("pp", [{"type": "first-capital"}, {"type": "assay.postprocess.general.first_capital_postprocess"}])
def test_evaluator_level_postprocessor_by_name_or_path(pp: dict[str, Any]) -> None:
    res = AccEvaluator(pred_postprocessor=pp).evaluate(
        k=1, n=1, original_dataset=None, predictions=["it is B", "c C"], references=["B", "C"]
    )
    assert res["accuracy"] == 100.0


def test_evaluator_level_postprocessor_accepts_a_function_object() -> None:
    def last_char(text: str) -> str:
        return text[-1:]

    res = AccEvaluator(pred_postprocessor={"type": last_char}).evaluate(
        k=1, n=1, original_dataset=None, predictions=["xB", "yC"], references=["B", "C"]
    )
    assert res["accuracy"] == 100.0


def test_evaluator_level_postprocessor_runs_once_per_run() -> None:
    calls: list[str] = []

    def spy(text: str) -> str:
        calls.append(text)
        return text

    AccEvaluator(pred_postprocessor={"type": spy}).evaluate(k=1, n=2, original_dataset=None, predictions=list("ABCD"), references=list("ABCD"))
    assert calls == list("ABCD")


def test_extraction_record_counts_empty_answers() -> None:
    res = AccEvaluator(pred_postprocessor={"type": "first-capital"}).evaluate(
        k=1, n=1, original_dataset=None, predictions=["no letter", "B", ""], references=["A", "B", "C"]
    )
    assert res["extraction"] == {"unextracted": 2, "total": 3}


def test_test_set_is_sliced_per_run() -> None:
    seen: list[int] = []

    class UsesTestSet(BaseEvaluator):
        def score(self, predictions: list[Any], test_set: Any) -> dict[str, Any]:
            seen.append(len(test_set))
            assert list(test_set["answer"]) == ["A", "B", "C"]
            return {"accuracy": 1.0}

    ds = _toy_dataset("toy", 2)
    UsesTestSet().evaluate(k=1, n=2, original_dataset=ds, predictions=list("ABCABC"), test_set=ds)
    assert seen == [3, 3]


def test_k_larger_than_n_is_rejected() -> None:
    with pytest.raises(EvaluationError, match="k=4"):
        AccEvaluator().evaluate(k=4, n=2, original_dataset=None, predictions=list("ABAB"), references=list("ABAB"))


def test_one_detail_dict_shared_by_several_samples_is_wrapped_once() -> None:
    class Shared(BaseEvaluator):
        def score(self, predictions: list[Any]) -> dict[str, Any]:
            return {"accuracy": 100.0, "details": [{"correct": True}] * len(predictions)}

    res = Shared().evaluate(k=1, n=1, original_dataset=None, predictions=["a", "b", "c"])
    assert [d["correct"] for d in res["details"]] == [[True], [True], [True]]


def test_example_names_follow_the_abbreviation_as_written_whatever_its_type() -> None:
    """Names of equal value but another type (1, True, 1.0) or a list give each its own written names."""
    from assay.evaluators.exact import AccEvaluator

    seen = []
    for abbr in (1, True, 1.0, ["x"]):
        evaluator = AccEvaluator()
        evaluator.dataset_abbr = abbr  # type: ignore[assignment]
        out = evaluator.evaluate(1, 1, None, predictions=["A", "B"], references=["A", "C"])
        seen.append([d["example_abbr"] for d in out["details"]])
    assert seen == [["1_0", "1_1"], ["True_0", "True_1"], ["1.0_0", "1.0_1"], ["['x']_0", "['x']_1"]]


@pytest.mark.parametrize(
    ("rows", "names"),
    [
        # one subdivision, rows numbered in order: the usual test set
        ([("toy", 0), ("toy", 1), ("toy", 2)], ["toy_0", "toy_1", "toy_2"]),
        # rows numbered out of order, two subdivisions, indices that are not integers (True prints as True)
        ([("toy", 2), ("toy", 0), ("toy", 1)], ["toy_2", "toy_0", "toy_1"]),
        ([("a", 0), ("b", 1), ("a", 2)], ["a_0", "b_1", "a_2"]),
        ([("toy", 0), ("toy", True), ("toy", 2)], ["toy_0", "toy_True", "toy_2"]),
    ],
)
def test_example_names_are_each_rows_subdivision_and_index(rows: list[tuple[str, Any]], names: list[str]) -> None:
    from assay.datasets.table import TableView

    view = TableView({"answer": list("ABC"), "subdivision": [s for s, _ in rows], "idx": [i for _, i in rows]})
    evaluator = AccEvaluator()
    evaluator.dataset_abbr = "other"
    out = evaluator.evaluate(1, 1, view, predictions=list("ABX"), references=list("ABC"))
    assert [d["example_abbr"] for d in out["details"]] == names
