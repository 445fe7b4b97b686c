"""Helpers shared by the built-in evaluators (private)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__: list[str] = []


def no_samples(evaluator: object) -> dict[str, Any]:
    """The error record for an empty batch."""
    return {"error": f"{type(evaluator).__name__}: no samples to score"}


def check_batch(evaluator: object, predictions: Sequence[Any] | None, references: Sequence[Any] | None) -> dict[str, Any] | None:
    """An error record when the batch is empty or its two sides differ in length, else ``None``."""
    name = type(evaluator).__name__
    if predictions is None:
        return {"error": f"{name}: no predictions were given"}
    if references is None:
        return {"error": f"{name}: the dataset has no reference column (reader_cfg.output_column)"}
    if len(predictions) != len(references):
        return {"error": f"{name}: {len(predictions)} predictions but {len(references)} references"}
    if not predictions:
        return no_samples(evaluator)
    return None


def percent(part: float, whole: int) -> float:
    """``100 * part / whole`` as a float."""
    return 100.0 * float(part) / whole


def score_pairs(
    evaluator: object,
    predictions: Sequence[Any] | None,
    references: Sequence[Any] | None,
    judge: Callable[[Any, Any], tuple[Any, bool]],
    *,
    metric: str = "accuracy",
) -> dict[str, Any]:
    """Score each (prediction, reference) pair with ``judge`` → ``(shown answer, correct)``.

    Returns ``{metric: percent correct, 'details': [{'pred', 'answer', 'correct'}, …]}``,
    or the error record of :func:`check_batch`.
    """
    error = check_batch(evaluator, predictions, references)
    if error:
        return error
    assert predictions is not None and references is not None
    details = []
    correct = 0
    for pred, ref in zip(predictions, references):
        shown, ok = judge(pred, ref)
        correct += ok
        details.append({"pred": shown, "answer": ref, "correct": ok})
    return {metric: percent(correct, len(predictions)), "details": details}
