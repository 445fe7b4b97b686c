"""GAOKAO-Bench's evaluators: OpenCompass 0.5.4's reading of a reply, quirks included.

The library configs' scores on recorded replies are compared in
``tests/benchmarks_oc`` (the ``GaokaoBench`` runs); here, each quirk on its own,
and the configs scored from the prediction files' ``gold``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.evaluators.gaokao import GaokaoBenchEvaluator, extract
from assay.registry import ICL_EVALUATORS
from tests.datasets.test_huggingface import _eval, _same_metrics


def test_every_question_type_is_registered_under_opencompass_name() -> None:
    for kind in ("single_choice", "multi_choice", "multi_question_choice", "five_out_of_seven", "cloze", "subjective", "correction"):
        evaluator = ICL_EVALUATORS.get(f"GaokaoBenchEvaluator_{kind}")()
        assert isinstance(evaluator, GaokaoBenchEvaluator) and evaluator.question_type == kind


def test_multi_choice_reads_the_mark_only_after_the_start_and_gives_one_point_for_a_right_subset() -> None:
    assert extract("multi_choice", "【答案】BC 因为题干中的条件很多很多") == []  # the mark at index 0 is not looked for
    assert extract("multi_choice", "解析【答案】B C") == ["BC"]
    result = ICL_EVALUATORS.get("GaokaoBenchEvaluator_multi_choice")().score(
        ["解析【答案】B", "解析【答案】BC", "解析【答案】AD", ""], [["BC"], ["BC"], ["A"], ["A"]]
    )
    assert [d["points"] for d in result["details"]] == [1, 2, 0, 0]
    assert result["score"] == pytest.approx(3 / 8 * 100)


def test_an_extraction_without_one_answer_per_sub_question_counts_as_z() -> None:
    result = ICL_EVALUATORS.get("GaokaoBenchEvaluator_multi_question_choice")().score(
        ["【答案】B 【答案】C", "【答案】B", "x"], [["B", "C"], ["B", "C"], ["B", "C"]]
    )
    # the second reply: one mark for two sub-questions, so its first capitals are read: 'B' only → ['Z', 'Z']
    assert [d["pred"] for d in result["details"]] == [["B", "C"], ["Z", "Z"], ["Z", "Z"]]
    assert result["score"] == pytest.approx(2 / 6 * 100)


def test_single_choice_takes_the_last_letter_and_unscored_types_give_zero() -> None:
    assert extract("single_choice", "A and B are wrong; C") == ["C"]
    assert ICL_EVALUATORS.get("GaokaoBenchEvaluator_subjective")().score(["any"], [["x"]]) == {"score": 0}


def test_bad_inputs_are_error_records_naming_the_evaluator() -> None:
    evaluator = ICL_EVALUATORS.get("GaokaoBenchEvaluator_single_choice")()
    assert evaluator.score([], []) == {"error": "GaokaoBenchEvaluator_single_choice: no samples to score"}
    assert "reference 0 is 'A'" in evaluator.score(["A"], ["A"])["error"]
    with pytest.raises(ValueError, match="question_type='essay'"):
        GaokaoBenchEvaluator("essay")


@pytest.mark.parametrize("run_id", ["GaokaoBench_gen", "GaokaoBench_mixed"])
def test_library_config_without_its_data_is_scored_from_gold_as_opencompass_scores_it(
    run_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "no-data"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    results = _eval(run_id, tmp_path, capsys)
    assert all(result["_meta"]["references"] == "gold" for result in results.values())
    _same_metrics(results, run_id)
