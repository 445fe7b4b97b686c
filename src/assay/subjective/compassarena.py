"""CompassArena as OpenCompass 0.5.4 scores it: its dict postprocessors and its position-bias count.

The judge ends with ``选择：A`` / ``Choice: B`` (``C``: a tie); the first such
choice is read (``选择：[[A]]``, the form the judge prompt itself shows, is not
read — OpenCompass's pattern wants the letter right after the colon).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from assay.errors import InputFileError
from assay.registry import DICT_POSTPROCESSORS
from assay.subjective import _judged

__all__ = ["check_position_bias", "compassarena_bradleyterry_postprocess", "compassarena_choice", "compassarena_postprocess"]

_CHOICE = re.compile(r"(?:选择：|Choice: )([ABC])")


def compassarena_choice(reply: Any) -> str | None:
    """The first ``选择：X`` or ``Choice: X`` letter (A, B or C) of a judge reply, or ``None``.

    >>> compassarena_choice('评价1：…\\n选择：B'), compassarena_choice('选择：[[A]]')
    ('B', None)
    """
    found = _CHOICE.findall(reply) if isinstance(reply, str) else []
    return found[0] if found else None


def _sample_choice(sample: Mapping[str, Any]) -> str | None:
    return compassarena_choice(sample["prediction"])


def check_position_bias(judged: Sequence[Any], references: Sequence[Any], banned_choice: Sequence[str] = ("C",)) -> int:
    """OpenCompass's position-bias count: judged samples whose choice repeats the first judgement of the same question.

    The first judged sample of each ``question`` is kept; every later one whose
    choice is the same letter (neither a tie ``C``) is counted.  With
    ``infer_order='double'`` the later one is the same question with the answers
    swapped, so the same letter means the judge followed the place, not the
    answer.
    """
    first: dict[Any, Any] = {}
    count = 0
    for choice, ref in zip(judged, references):
        question = _judged.reference_field(ref, "question", "check_position_bias")
        if question not in first:
            first[question] = choice
        elif choice == first[question] and choice not in banned_choice:
            count += 1
    return count


@DICT_POSTPROCESSORS.register_module(["compassarena", "compassarena_postprocess"])
def compassarena_postprocess(
    output: dict[Any, Any], output_path: str, summary_type: str = "single", check_pos_bias: bool = True
) -> dict[str, Any]:
    """The compared model's win rate per ``capability`` (percent, two decimals), ``position_bias``, ``details``.

    The *first* model is the first judged sample's ``answer1`` (OpenCompass's
    choice: with ``infer_order='double'`` that is the base model, with
    ``'random'`` whichever came first); the score returned is the other one's.
    A tie ``C`` gives each half a win with ``summary_type='half_add'``, nothing
    otherwise.  ``position_bias`` is :func:`check_position_bias`'s count (0 when
    ``check_pos_bias`` is false).
    """
    what = "compassarena_postprocess"
    choices, references = _judged.judged_and_references(output, output_path, _sample_choice, what=what)
    bias = check_position_bias(choices, references) if check_pos_bias else 0
    if not references:
        raise InputFileError(f"{what}: no judgement could be read from the judge replies of {output_path}, so there is nothing to score")
    model1 = _judged.reference_field(references[0], "answer1", what)
    win1: defaultdict[str, float] = defaultdict(float)
    win2: defaultdict[str, float] = defaultdict(float)
    categories: defaultdict[str, float] = defaultdict(float)
    for choice, ref in zip(choices, references):
        capability = _judged.reference_field(ref, "capability", what)
        categories[capability] += 1
        first = _judged.reference_field(ref, "answer1", what) == model1
        if choice == "A":
            s1, s2 = (1.0, 0.0) if first else (0.0, 1.0)
        elif choice == "B":
            s1, s2 = (0.0, 1.0) if first else (1.0, 0.0)
        else:
            s1 = s2 = 0.5 if summary_type == "half_add" else 0.0
        win1[capability] += s1
        win2[capability] += s2
    for capability in categories:
        win1[capability] = round(win1[capability] / categories[capability] * 100, 2)
        win2[capability] = round(win2[capability] / categories[capability] * 100, 2)
    win1["position_bias"] = bias
    win2["position_bias"] = bias
    results: dict[str, Any] = dict(win2)
    results["details"] = output
    return results


@DICT_POSTPROCESSORS.register_module(["compassarena_bradleyterry", "compassarena_bradleyterry_postprocess"])
def compassarena_bradleyterry_postprocess(output: dict[Any, Any], output_path: str, count_ties: bool = True) -> dict[str, Any]:
    """``{'matches': [...]}``: ``A`` a win of ``model_a``, ``B`` of ``model_b``, ``C`` a tie (left out unless ``count_ties``)."""
    what = "compassarena_bradleyterry_postprocess"
    choices, references = _judged.judged_and_references(output, output_path, _sample_choice, what=what)
    _judged.require_predictions(references, what)
    matches = []
    for choice, ref in zip(choices, references):
        choice = choice.strip()
        if choice == "A":
            winner = "model_a"
        elif choice == "B":
            winner = "model_b"
        elif choice == "C" and count_ties:
            winner = "tie"
        else:
            continue
        matches.append({
            "winner": winner,
            "capability": _judged.reference_field(ref, "capability", what),
            "model_a": _judged.reference_field(ref, "answer1", what),
            "model_b": _judged.reference_field(ref, "answer2", what),
            "prediction1": ref["prediction1"],
            "prediction2": _judged.reference_field(ref, "prediction2", what),
        })
    matches = _judged.element_counts(matches, "prediction1", "_a")
    matches = _judged.element_counts(matches, "prediction2", "_b")
    return {"matches": matches}
