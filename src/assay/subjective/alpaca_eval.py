"""AlpacaEval (v2) as OpenCompass 0.5.4 scores it: its dict postprocessors.

The judge answers with one letter: ``m`` when the first output (``answer1``)
is better, ``M`` when the second is; only the reply's first character is read,
anything else is no judgement.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from assay.errors import InputFileError
from assay.registry import DICT_POSTPROCESSORS
from assay.subjective import _judged

__all__ = ["alpacaeval_bradleyterry_postprocess", "alpacaeval_postprocess", "alpaca_v2_rank"]


def alpaca_v2_rank(reply: Any) -> dict[str, int] | None:
    """``{'rank': 1}`` for a reply starting with ``m``, ``{'rank': 2}`` for ``M``, else ``None``.

    >>> alpaca_v2_rank('m'), alpaca_v2_rank('Model m'), alpaca_v2_rank('')
    ({'rank': 1}, {'rank': 2}, None)
    """
    if not isinstance(reply, str) or not reply:
        return None
    return {"rank": 1} if reply[0] == "m" else {"rank": 2} if reply[0] == "M" else None


def _sample_rank(sample: Mapping[str, Any]) -> dict[str, int] | None:
    return alpaca_v2_rank(sample["prediction"])


def _base_models(references: list[Any], what: str) -> list[Any]:
    """The references' ``base_models``, else (as OpenCompass assumes) the first judged sample's ``answer1``."""
    if not references:
        # OpenCompass fails reading the first judged sample's references (IndexError)
        raise InputFileError(f"{what}: no judgement could be read from the judge replies, so there is nothing to score")
    first = references[0]
    if "base_models" in first:
        base = first["base_models"]
    else:
        base = [_judged.reference_field(first, "answer1", what)]
    return [base] if isinstance(base, str) else list(base)


@DICT_POSTPROCESSORS.register_module(["alpacaeval", "alpacaeval_postprocess"])
def alpacaeval_postprocess(output: dict[Any, Any], output_path: str) -> dict[str, Any]:
    """The compared model's win rate, in percent rounded to two decimals: ``total`` and per ``capability``.

    The base model is the references' ``base_models``, else the first judged
    sample's ``answer1`` (OpenCompass's assumption, wrong after a random order
    put the compared model first).  Every judged sample is a win of the base or
    of the compared model: there are no ties.  Keys come in OpenCompass's
    order (``total`` where the compared model first won), then ``details``.
    """
    what = "alpacaeval_postprocess"
    ranks, references = _judged.judged_and_references(output, output_path, _sample_rank, what=what)
    base_models = _base_models(references, what)
    win1: defaultdict[str, float] = defaultdict(float)
    win2: defaultdict[str, float] = defaultdict(float)
    categories: defaultdict[str, float] = defaultdict(float)
    for rank, ref in zip(ranks, references):
        capability = _judged.reference_field(ref, "capability", what)
        categories["total"] += 1
        categories[capability] += 1
        base_first = _judged.reference_field(ref, "answer1", what) in base_models
        winner = win1 if (rank["rank"] == 1) == base_first else win2
        winner[capability] += 1
        winner["total"] += 1
    for capability in categories:
        for wins in (win1, win2):
            wins[capability] = round(wins[capability] / categories[capability] * 100, 2) if capability in wins else 0.0
    results: dict[str, Any] = dict(win2)
    results["details"] = output
    return results


@DICT_POSTPROCESSORS.register_module(["alpacaeval_bradleyterry", "alpacaeval_bradleyterry_postprocess"])
def alpacaeval_bradleyterry_postprocess(output: dict[Any, Any], output_path: str) -> dict[str, Any]:
    """``{'matches': [...]}`` for the Bradley-Terry summarizer.

    A rank-1 reply is a win of ``model_a`` when the base model is ``answer1``
    and of ``model_b`` otherwise; rank 2 the other way round (OpenCompass's
    reading: the winner is named by the base model's place, not by the answer
    the judge preferred).  The references must hold the answers.
    """
    what = "alpacaeval_bradleyterry_postprocess"
    ranks, references = _judged.judged_and_references(output, output_path, _sample_rank, what=what)
    _judged.require_predictions(references, what)
    base_models = _base_models(references, what)
    matches = []
    for rank, ref in zip(ranks, references):
        base_first = _judged.reference_field(ref, "answer1", what) in base_models
        if rank["rank"] == 1:
            winner = "model_a" if base_first else "model_b"
        elif rank["rank"] == 2:
            winner = "model_b" if base_first else "model_a"
        else:
            winner = "tie"
        matches.append({
            "winner": winner,
            "capability": _judged.reference_field(ref, "capability", what),
            "model_a": ref["answer1"],
            "model_b": _judged.reference_field(ref, "answer2", what),
            "prediction1": ref["prediction1"],
            "prediction2": _judged.reference_field(ref, "prediction2", what),
        })
    matches = _judged.element_counts(matches, "prediction1", "_a")
    matches = _judged.element_counts(matches, "prediction2", "_b")
    return {"matches": matches}
