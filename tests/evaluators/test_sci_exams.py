"""OpenSWI's, ProteinLMBench's and SciKnowEval's evaluators against OpenCompass 0.5.4's recorded metrics and details.

The recording (``scripts/record_oc_sci.py``) scored replies with the test sets
its loaders read from ``tests/data/oc_families/sci``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.errors import EvaluationError
from assay.registry import ICL_EVALUATORS

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "sci"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))
EXAMS = RECORDED["exams"]


def _test_set(loader: str) -> Any:
    from datasets import Dataset

    return Dataset.from_list(RECORDED[loader][0]["rows"])


TEST_SETS = {"OpenSWIMSEEvaluator": None, "ProteinLMBenchEvaluator": "ProteinLMBenchDataset",
             "SciKnowEvalEvaluator": "SciKnowEvalDataset"}


@pytest.mark.parametrize("name", sorted(EXAMS))
def test_metrics_and_details_equal_opencompass(name: str) -> None:
    case = EXAMS[name]
    kwargs = {"test_set": _test_set(TEST_SETS[name])} if TEST_SETS[name] else {}
    result = ICL_EVALUATORS.get(name)().score(list(case["predictions"]), list(case["references"]), **kwargs)
    assert result == case["result"]


def test_sciknoweval_reply_without_an_option_is_an_error_naming_it() -> None:
    test_set = _test_set("SciKnowEvalDataset")
    result = ICL_EVALUATORS.get("SciKnowEvalEvaluator")().score(["A", "no letter here"] + ["A"] * 3, list(test_set["answerKey"]), test_set)
    assert result == {"error": "SciKnowEvalEvaluator: reply 1 names none of the options ['A', 'B', 'C', 'D'] "
                               "(OpenCompass fails on it too): 'no letter here'"}


def test_evaluators_reading_the_test_set_say_which_columns_they_need() -> None:
    result = ICL_EVALUATORS.get("ProteinLMBenchEvaluator")().score(["A"], ["A"], None)
    assert result == {"error": "ProteinLMBenchEvaluator: needs the test set's 'options' column (ProteinLMBenchDataset's)"}
    from datasets import Dataset

    result = ICL_EVALUATORS.get("SciKnowEvalEvaluator")().score(["A"], ["A"], Dataset.from_list([{"answerKey": "A"}]))
    assert "'prompt_mode', 'choices' columns" in result["error"]


def test_openswi_empty_reference_names_it() -> None:
    with pytest.raises(EvaluationError, match=r"OpenSWIMSEEvaluator: reference 1 is '\[\]'; expected a non-empty list of numbers"):
        ICL_EVALUATORS.get("OpenSWIMSEEvaluator")().score(["[1.0]", "[1.0]"], [[1.0], []])
