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


def share_percent(part: float, whole: int) -> float:
    """``part / whole * 100``: the share first, then scaled, as OpenCompass's accuracy-style evaluators compute it.

    It can differ from :func:`percent` in the last bit.

    >>> share_percent(1, 3), percent(1, 3)
    (33.33333333333333, 33.333333333333336)
    """
    return float(part) / whole * 100


def mean_of(part: float, whole: int) -> float:
    """``part / whole``: a mean of per-sample values (the :attr:`~assay.evaluate.base.BaseEvaluator.sample_sums` scale of one)."""
    return part / whole


def equal_as_is(pred: Any, ref: Any) -> tuple[Any, bool]:
    """A :func:`score_pairs` judge: the prediction equals the reference exactly, with ``==``."""
    return pred, pred == ref


def score_pairs(
    evaluator: object,
    predictions: Sequence[Any] | None,
    references: Sequence[Any] | None,
    judge: Callable[[Any, Any], tuple[Any, bool]],
    *,
    metric: str = "accuracy",
    scale: Callable[[float, int], float] = percent,
) -> dict[str, Any]:
    """Score each (prediction, reference) pair with ``judge`` → ``(shown answer, correct)``.

    Returns ``{metric: percent correct, 'details': [{'pred', 'answer', 'correct'}, …]}``,
    or the error record of :func:`check_batch`.
    """
    error = check_batch(evaluator, predictions, references)
    if error:
        return error
    assert predictions is not None and references is not None
    details = [{"pred": shown, "answer": ref, "correct": ok} for (shown, ok), ref in zip(map(judge, predictions, references), references)]
    return {metric: scale(sum(d["correct"] for d in details), len(details)), "details": details}


def judged_batch(
    evaluator: object, predictions: Sequence[Any], references: Sequence[Any] | None, test_set: Any
) -> tuple[list[Any], list[dict[str, Any]]] | dict[str, Any]:
    """``(references, test-set rows)`` aligned with ``predictions``, or an error record.

    For evaluators that may run without references or a test set (each missing
    side becomes ``None`` / ``{}`` per sample).
    """
    name = type(evaluator).__name__
    if not predictions:
        return no_samples(evaluator)
    refs = list(references) if references is not None else [None] * len(predictions)
    if len(refs) != len(predictions):
        return {"error": f"{name}: {len(predictions)} predictions but {len(refs)} references"}
    rows = [dict(r) for r in test_set] if test_set is not None else [{} for _ in predictions]
    if len(rows) != len(predictions):
        return {"error": f"{name}: the test set has {len(rows)} rows for {len(predictions)} predictions"}
    return refs, rows


def test_set_column(test_set: Any, name: str) -> list[Any] | None:
    """Column ``name`` of a test set (a ``datasets.Dataset``, a view of one, or a list of row dicts), or ``None``."""
    if hasattr(test_set, "column_names"):
        return list(test_set[name]) if name in test_set.column_names else None
    rows = list(test_set)
    if not all(isinstance(r, dict) and name in r for r in rows):
        return None
    return [r[name] for r in rows]
