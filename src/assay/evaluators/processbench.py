"""ProcessBench's evaluator as OpenCompass 0.5.4 computes it (``ProcessBenchEvaluator``)."""

from __future__ import annotations

from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples
from assay.registry import ICL_EVALUATORS

__all__ = ["ProcessBenchEvaluator", "processbench_answer"]

_OPEN = "boxed{"


def processbench_answer(text: Any) -> int | str | None:
    """The last ``boxed{...}`` of a critique (its content up to the first ``}``), as an ``int`` when Python's
    ``int`` reads it (stripped), else the stripped text; ``None`` without one.

    >>> processbench_answer('step 2 is wrong: \\\\boxed{2}'), processbench_answer('\\\\boxed{ -1 } \\\\boxed{none}')
    (2, 'none')
    >>> processbench_answer('no box') is None
    True
    """
    text = text if isinstance(text, str) else str(text)
    last = None
    at = 0
    while True:
        start = text.find(_OPEN, at)
        if start < 0:
            break
        end = text.find("}", start + len(_OPEN))
        if end < 0:
            break  # no later box can close either
        last = text[start + len(_OPEN):end]
        at = end + 1
    if last is None:
        return None
    value = last.replace("{", "").strip()
    try:
        return int(value)
    except ValueError:
        return value


@ICL_EVALUATORS.register_module()
class ProcessBenchEvaluator(BaseEvaluator):
    """ProcessBench: does the critique name the first wrong step (or ``-1`` for a right solution)?

    Inputs: ``predictions`` (the critiques, read by :func:`processbench_answer`)
    and ``references`` (the labels, read by ``int`` where it can).  Metrics in
    [0, 100]: ``error_acc`` over the solutions with a wrong step,
    ``correct_acc`` over the right ones (each 0.0 when there are none) and
    ``f1``, their harmonic mean (0.0 when both are 0).  Details:
    ``generated_critique``, ``prediction``, ``label``, ``match``.

    >>> ProcessBenchEvaluator().score(['\\\\boxed{1}', '\\\\boxed{-1}', '\\\\boxed{2}'], [1, -1, -1])['f1']
    66.66666666666667
    """

    sample_outcome = SampleOutcome(correct="match")

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        if not predictions:
            return no_samples(self)
        details = []
        for critique, reference in zip(predictions, references):
            try:
                label = int(reference)
            except ValueError:
                label = reference
            except TypeError:
                return {"error": f"ProcessBenchEvaluator: the label {reference!r} is neither a number nor text"}
            pred = processbench_answer(critique)
            details.append({"generated_critique": critique, "prediction": pred, "label": label, "match": pred == label})
        wrong = [d["match"] for d in details if d["label"] != -1]
        right = [d["match"] for d in details if d["label"] == -1]
        error_acc = sum(wrong) / len(wrong) * 100 if wrong else 0.0
        correct_acc = sum(right) / len(right) * 100 if right else 0.0
        f1 = 2 * error_acc * correct_acc / (error_acc + correct_acc) if error_acc + correct_acc > 0 else 0.0
        return {"error_acc": error_acc, "correct_acc": correct_acc, "f1": f1, "details": details}
