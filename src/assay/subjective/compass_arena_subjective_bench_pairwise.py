"""CompassArena's subjective bench, pairwise, as OpenCompass 0.5.4 scores it: its dict postprocessors.

The judge ends with ``[[A>>B]]``, ``[[A>B]]``, ``[[A=B]]``, ``[[A<B]]`` or
``[[A<<B]]`` (either way round: ``[[B<<A]]`` is ``[[A>>B]]``); the first
``[[...]]`` of ``A``, ``B``, ``<``, ``>``, ``=`` is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from assay.errors import InputFileError
from assay.registry import DICT_POSTPROCESSORS
from assay.subjective import _judged
from assay.subjective.arena_hard import arena_hard_verdict

__all__ = ["compassarena_subjectiveeval_bradleyterry_postprocess", "compassarena_subjectiveeval_pairwise_postprocess"]

#: The compared model's score for a verdict when the base model is answer A (B: the opposite).
_SCORE_BASE_A = {
    "A>>B": -1.0, "B<<A": -1.0, "A>B": -0.5, "B<A": -0.5, "A=B": 0.0, "B=A": 0.0,
    "A<B": 0.5, "B>A": 0.5, "A<<B": 1.0, "B>>A": 1.0,
}  # fmt: skip
_WINNER = {
    "A>>B": "model_a", "B<<A": "model_a", "A>B": "model_a", "B<A": "model_a",
    "A=B": "tie", "B=A": "tie",
    "A<B": "model_b", "B>A": "model_b", "A<<B": "model_b", "B>>A": "model_b",
}  # fmt: skip


def _sample_verdict(sample: Mapping[str, Any]) -> str | None:
    return arena_hard_verdict(sample["prediction"])


def _score(total: float, count: int) -> float:
    return round(total / count * 100, 3)


@DICT_POSTPROCESSORS.register_module(["compassarena_subjectiveeval_pairwise", "compassarena_subjectiveeval_pairwise_postprocess"])
def compassarena_subjectiveeval_pairwise_postprocess(output: dict[Any, Any], output_path: str) -> dict[str, Any]:
    """The compared model's score: ``Average_score`` and per ``<category>_<difficulty>``, each ×100, three decimals.

    A verdict scores the compared model −1 (much worse), −0.5, 0, 0.5, 1 (much
    better); the base model is the first judged sample's ``answer1`` (OpenCompass's
    choice).  Samples of neither answer the base model, and verdicts outside the
    ten forms, are skipped.
    """
    what = "compassarena_subjectiveeval_pairwise_postprocess"
    verdicts, references = _judged.judged_and_references(output, output_path, _sample_verdict, what=what)
    if not references:
        raise InputFileError(f"{what}: no judgement could be read from the judge replies of {output_path}, so there is nothing to score")
    base = _judged.reference_field(references[0], "answer1", what)
    sums: dict[Any, dict[Any, float]] = {}
    counts: dict[Any, dict[Any, int]] = {}
    total, n = 0.0, 0
    for verdict, ref in zip(verdicts, references):
        category = _judged.reference_field(ref, "category", what)
        difficulty = _judged.reference_field(ref, "difficulty", what)
        if verdict not in _SCORE_BASE_A:
            continue
        if _judged.reference_field(ref, "answer1", what) == base:
            score = _SCORE_BASE_A[verdict]
        elif _judged.reference_field(ref, "answer2", what) == base:
            score = -_SCORE_BASE_A[verdict]
        else:
            continue
        total += score
        n += 1
        sums.setdefault(category, {}).setdefault(difficulty, 0.0)
        counts.setdefault(category, {}).setdefault(difficulty, 0)
        sums[category][difficulty] += score
        counts[category][difficulty] += 1
    if n == 0:
        raise InputFileError(f"{what}: no verdict of {output_path} can be scored (division by zero in OpenCompass)")
    results: dict[str, Any] = {"Average_score": _score(total, n)}
    for category, by_difficulty in sums.items():
        for difficulty, value in by_difficulty.items():
            results[f"{category}_{difficulty}"] = _score(value, counts[category][difficulty])
    results["details"] = output
    return results


@DICT_POSTPROCESSORS.register_module(["compassarena_subjectiveeval_bradleyterry", "compassarena_subjectiveeval_bradleyterry_postprocess"])
def compassarena_subjectiveeval_bradleyterry_postprocess(output: dict[Any, Any], output_path: str) -> dict[str, Any]:
    """``{'matches': [...]}`` with each match's ``category`` and ``difficulty``; verdicts outside the ten forms skipped."""
    what = "compassarena_subjectiveeval_bradleyterry_postprocess"
    verdicts, references = _judged.judged_and_references(output, output_path, _sample_verdict, what=what)
    _judged.require_predictions(references, what)
    matches = []
    for verdict, ref in zip(verdicts, references):
        winner = _WINNER.get(verdict)
        if winner is None:
            continue
        tags = {"category": _judged.reference_field(ref, "category", what),
                "difficulty": _judged.reference_field(ref, "difficulty", what)}
        matches.append(_judged.match_row(winner, tags, ref, what))
    return _judged.with_style_counts(matches)
