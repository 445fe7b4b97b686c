"""OpenSWI's, ProteinLMBench's and SciKnowEval's evaluators, as OpenCompass 0.5.4 computes them."""

from __future__ import annotations

import ast
import math
import re
from typing import Any

from assay.errors import EvaluationError
from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch
from assay.registry import ICL_EVALUATORS

__all__ = ["OpenSWIMSEEvaluator", "ProteinLMBenchEvaluator", "SciKnowEvalEvaluator", "sciknoweval_answer"]

_BRACKETED = re.compile(r"(\[.*?\])", re.DOTALL)


def _last_list(text: str) -> Any:
    """The value of the last ``[…]`` of ``text`` (the shortest from each ``[``) read as a Python literal, or ``None``."""
    found = _BRACKETED.findall(text)
    if not found:
        return None
    try:
        return ast.literal_eval(found[-1])
    except Exception:  # as OpenCompass: any text that is no literal reads as no list
        return None


@ICL_EVALUATORS.register_module()
class OpenSWIMSEEvaluator(BaseEvaluator):
    """OpenSWI: the root mean squared error of the reply's velocity list against the reference's.

    The reply's list is its last ``[…]`` read as a Python literal; one that is
    missing, empty or holds anything but floats (an integer too, as in
    OpenCompass) is invalid and scored as a list of zeros.  A list shorter
    than the reference is padded with zeros, a longer one cut, and either is
    invalid.  A sample's ``score`` is ``sqrt(mean((reference − reply)²))``.
    Metrics: ``score`` (the mean, despite the evaluator's name an RMSE) and
    ``valid`` (percent of valid replies).  Details: ``pred`` (the list, or
    ``None``), ``answer``, ``valid``, ``score``.  An empty reference list fails
    the evaluation, naming it.

    >>> r = OpenSWIMSEEvaluator().score(['Vs: [1.0, 2.0]', 'no idea'], [[1.0, 4.0], [1.0, 1.0]])
    >>> r['score'], r['valid']
    (1.2071067811865475, 50.0)
    """

    sample_outcome = SampleOutcome(scores={"score": "score"})

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        total = 0.0
        valid = 0
        details = []
        for i, (reply, answer) in enumerate(zip(predictions, references)):
            if not isinstance(answer, list) or not answer or not all(isinstance(a, (int, float)) for a in answer):
                raise EvaluationError(f"{name}: reference {i} is {str(answer)[:80]!r}; expected a non-empty list of numbers")
            pred = _last_list(reply) if isinstance(reply, str) else None
            if not pred or not isinstance(pred, list) or not all(isinstance(x, float) for x in pred):
                detail: dict[str, Any] = {"pred": None, "answer": answer, "valid": False}
                values: list[Any] = [0] * len(answer)
            else:
                detail = {"pred": pred, "answer": answer, "valid": True}
                values = pred
            if len(values) != len(answer):
                detail["valid"] = False
                values = values + [0] * (len(answer) - len(values)) if len(values) < len(answer) else values[:len(answer)]
            valid += detail["valid"]
            squares = [(a - p) ** 2 for a, p in zip(answer, values)]
            detail["score"] = math.sqrt(sum(squares) / len(squares))
            total += detail["score"]
            details.append(detail)
        return {"score": total / len(predictions), "valid": valid / len(predictions) * 100, "details": details}


@ICL_EVALUATORS.register_module()
class ProteinLMBenchEvaluator(BaseEvaluator):
    """ProteinLMBench: the reply's option, read with OpenCompass's ``first_option_postprocess`` among
    as many letters as the question has options, equals the reference letter.

    Metric: ``accuracy`` in [0, 100].  Details: ``pred``, ``answer``, ``correct``.
    Reads each sample's ``options`` from the test set.
    """

    sample_outcome = SampleOutcome(correct="correct")

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any], test_set: Any = None) -> dict[str, Any]:
        from assay.postprocess.options import first_option_postprocess

        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        if test_set is None or "options" not in getattr(test_set, "column_names", ()):
            return {"error": f"{name}: needs the test set's 'options' column (ProteinLMBenchDataset's)"}
        options = test_set["options"]
        correct = 0
        details = []
        for i, (reply, answer) in enumerate(zip(predictions, references)):
            letters = "".join(chr(65 + k) for k in range(len(options[i])))
            pred = first_option_postprocess(reply, letters)
            ok = pred == answer
            correct += ok
            details.append({"pred": pred, "answer": answer, "correct": ok})
        return {"accuracy": 100 * correct / len(predictions), "details": details}


def sciknoweval_answer(method: str, prediction: str, options: list[str], label: str) -> str:
    """SciKnowEval's answer reader (OpenCompass's ``answer_cleansing`` in ``opencompass.datasets.SciKnowEval``).

    Every whole-word occurrence of an option label in the reply; for a
    one-character ``label`` (the answer key), ``zero-shot`` takes the first,
    ``few-shot`` the first when there are several and the last otherwise (the
    same one), and a trailing period is dropped; for a longer key, the first.

    Raises:
        IndexError: the reply names no option (OpenCompass fails there too).
        ValueError: ``method`` is neither mode.

    >>> sciknoweval_answer('zero-shot', 'I think B, not C', ['A', 'B', 'C', 'D'], 'C')
    'B'
    """
    found = re.findall(r"\b(" + "|".join(options) + r")\b", prediction)
    if found and len(label) == 1:
        if method == "few-shot":
            found = [found[0]] if len(found) > 1 else [found[-1]]
        elif method == "zero-shot":
            found = [found[0]]
        else:
            raise ValueError("Method is not properly defined ...")
        if found[0] and found[0].endswith("."):
            found[0] = found[0][:-1]
    return found[0]


@ICL_EVALUATORS.register_module()
class SciKnowEvalEvaluator(BaseEvaluator):
    """SciKnowEval: the reply's option label (:func:`sciknoweval_answer`, with the test set's
    ``prompt_mode`` of its first row, each row's ``choices['label']`` and ``answerKey``) equals the reference.

    Metric: ``accuracy`` in [0, 100].  Details: ``pred``, ``answer``,
    ``correct``.  A reply naming no option label fails the evaluation, as it
    does in OpenCompass (an error record naming the sample).
    """

    sample_outcome = SampleOutcome(correct="correct")

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any], test_set: Any = None) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        columns = getattr(test_set, "column_names", ()) if test_set is not None else ()
        missing = [c for c in ("prompt_mode", "choices", "answerKey") if c not in columns]
        if missing:
            return {"error": f"{name}: needs the test set's {', '.join(map(repr, missing))} columns "
                             "(SciKnowEvalDataset's, with prompt_mode='zero-shot')"}
        method = test_set["prompt_mode"][0]
        choices, keys = test_set["choices"], test_set["answerKey"]
        correct = 0
        details = []
        for i, (reply, answer) in enumerate(zip(predictions, references)):
            try:
                pred = sciknoweval_answer(method, reply, choices[i]["label"], keys[i])
            except IndexError:
                return {"error": f"{name}: reply {i} names none of the options {choices[i]['label']!r} "
                                 f"(OpenCompass fails on it too): {str(reply)[:80]!r}"}
            except (TypeError, ValueError) as exc:
                return {"error": f"{name}: sample {i}: {exc}"}
            ok = pred == answer
            correct += ok
            details.append({"pred": pred, "answer": answer, "correct": ok})
        return {"accuracy": 100 * correct / len(predictions), "details": details}
