"""OpenCompass's ``math_intern`` components and ``MATHAgentEvaluator``, on the vectors recorded from OpenCompass 0.5.4
(``tests/data/oc_families/mathqa/vectors.json``, written by ``scripts/record_oc_mathqa.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.datasets import MATHInternDataset
from assay.errors import InputFileError
from assay.evaluators import MATHAgentEvaluator, MATHInternEvaluator
from assay.evaluators.math_intern import math_intern_equiv
from assay.postprocess import math_intern_postprocess
from assay.registry import ICL_EVALUATORS, LOAD_DATASET, TEXT_POSTPROCESSORS

VECTORS = json.loads((Path(__file__).resolve().parent.parent / "data" / "oc_families" / "mathqa" / "vectors.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("reply", "expected"), VECTORS["math_intern_postprocess"])
def test_math_intern_postprocess_matches_opencompass(reply: str, expected: str | None) -> None:
    assert math_intern_postprocess(reply) == expected


def test_math_intern_postprocess_reads_none_as_an_empty_reply() -> None:
    assert math_intern_postprocess(None) is None


@pytest.mark.parametrize(("pred", "ref", "expected"), VECTORS["math_intern_is_equiv"])
def test_math_intern_equiv_matches_opencompass(pred: Any, ref: Any, expected: bool) -> None:
    assert math_intern_equiv(pred, ref) is expected


def test_math_intern_evaluator_matches_opencompass() -> None:
    vector = VECTORS["math_intern_evaluator"]
    assert MATHInternEvaluator().score(vector["predictions"], vector["references"]) == vector["result"]


def test_math_intern_evaluator_errors() -> None:
    assert "different length" in MATHInternEvaluator().score(["1"], [])["error"]
    assert "no samples" in MATHInternEvaluator().score([], [])["error"]


def test_math_intern_dataset_matches_opencompass(tmp_path: Path) -> None:
    vector = VECTORS["math_intern_dataset"]
    file = tmp_path / "math.json"
    file.write_text(json.dumps(vector["data"]), encoding="utf-8")
    loaded = MATHInternDataset.load(str(file))
    assert loaded["test"].to_list() == vector["test"]
    assert loaded["train"].to_list() == vector["train"]


def test_math_intern_dataset_opens_path_as_given(tmp_path: Path) -> None:
    # OpenCompass's loader does not resolve dataset ids: a folder or an id is an error naming it
    with pytest.raises(InputFileError, match="MATHInternDataset"):
        MATHInternDataset.load(str(tmp_path))
    (tmp_path / "bad.json").write_text(json.dumps({"0": {"problem": "p"}}), encoding="utf-8")
    with pytest.raises(InputFileError, match="'solution'"):
        MATHInternDataset.load(str(tmp_path / "bad.json"))


@pytest.mark.parametrize("case", VECTORS["math_agent"], ids=lambda c: str(c["result"])[:40])
def test_math_agent_evaluator_matches_opencompass(case: dict[str, Any]) -> None:
    result = MATHAgentEvaluator(version=case["version"]).score(case["predictions"], case["references"], case["steps"])
    if "exception" in case["result"]:  # OpenCompass fails; assay returns an error record saying why
        assert set(result) == {"error"}
        assert "MATHAgentEvaluator" in result["error"]
    else:
        assert result == pytest.approx(case["result"])


def test_the_components_are_registered_under_opencompass_names() -> None:
    assert ICL_EVALUATORS.get("MATHAgentEvaluator") is MATHAgentEvaluator
    assert ICL_EVALUATORS.get("MATHInternEvaluator") is MATHInternEvaluator
    assert LOAD_DATASET.get("MATHInternDataset") is MATHInternDataset
    assert TEXT_POSTPROCESSORS.get("math_intern_postprocess") is math_intern_postprocess
