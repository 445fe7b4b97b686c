"""score() argument assembly (R-5.2): fields, defaults, **kwargs, clear errors."""

from __future__ import annotations

from typing import Any

import pytest

from assay.errors import EvaluationError
from assay.evaluate import BaseEvaluator
from assay.evaluate.assemble import assemble_score_kwargs

FIELDS = {"predictions": ["a"], "references": ["a"], "test_set": None, "origin_prompt": [None], "gold": ["a"], "res_length": [3]}


class KwargsEval(BaseEvaluator):
    def score(self, predictions: list[Any], **kwargs: Any) -> dict[str, Any]:
        return {"n_fields": len(kwargs)}


class DefaultEval(BaseEvaluator):
    def score(self, predictions: list[Any], references: list[Any], steps: Any = "no steps") -> dict[str, Any]:
        return {"x": 1}


class RequiredEval(BaseEvaluator):
    def score(self, predictions: list[Any], steps: list[Any]) -> dict[str, Any]:
        return {"x": 1}


def test_kwargs_receives_every_field() -> None:
    kw = assemble_score_kwargs(KwargsEval().score, FIELDS, evaluator="KwargsEval", source="p.json")
    assert kw == FIELDS
    assert KwargsEval().evaluate(1, 1, None, **kw)["n_fields"] == len(FIELDS) - 1


def test_defaulted_parameter_keeps_its_default() -> None:
    kw = assemble_score_kwargs(DefaultEval().score, FIELDS, evaluator="DefaultEval", source="p.json")
    assert kw == {"predictions": ["a"], "references": ["a"]}


def test_required_absent_field_names_parameter_and_available_fields() -> None:
    with pytest.raises(EvaluationError) as info:
        assemble_score_kwargs(RequiredEval().score, FIELDS, evaluator="RequiredEval", source="p.json")
    msg = str(info.value)
    assert "RequiredEval.score() requires 'steps'" in msg
    assert "gold, origin_prompt, predictions, references, res_length, test_set" in msg


def test_named_fields_from_the_prediction_file_are_passed() -> None:
    class GoldEval(BaseEvaluator):
        def score(self, predictions: list[Any], gold: list[Any]) -> dict[str, Any]:
            return {}

    assert assemble_score_kwargs(GoldEval().score, FIELDS, evaluator="G", source="p") == {"predictions": ["a"], "gold": ["a"]}
