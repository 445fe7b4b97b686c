"""WildBench (pairwise) as OpenCompass 0.5.4 scores it: its dict postprocessors.

The judge's JSON reply holds ``"choice": "A++"`` (``A+``, ``A=B``, ``B+``,
``B++``); the first ``"choice": "..."`` is read, and a value outside those five
is no judgement.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from assay.errors import InputFileError
from assay.registry import DICT_POSTPROCESSORS
from assay.subjective import _judged

logger = logging.getLogger(__name__)

__all__ = ["TASK_GROUPS", "wildbench_bradleyterry_postprocess", "wildbench_choice", "wildbench_postprocess"]

_CHOICE = re.compile(r"\"choice\": \"(.*?)\"")
#: WildBench's task tags and the five groups its scores are reported under.
TASK_GROUPS = {
    "Information seeking": "Information/Advice seeking",
    "Creative Writing": "Creative Tasks",
    "Coding & Debugging": "Coding & Debugging",
    "Reasoning": "Planning & Reasoning",
    "Editing": "Creative Tasks",
    "Math": "Math & Data Analysis",
    "Planning": "Planning & Reasoning",
    "Brainstorming": "Creative Tasks",
    "Role playing": "Creative Tasks",
    "Advice seeking": "Information/Advice seeking",
    "Data Analysis": "Math & Data Analysis",
    "Others": "Creative Tasks",
}
_SCORE = {"A++": 1, "A+": 0.5, "A=B": 0, "B+": -0.5, "B++": -1}
_WINNER = {"A++": "model_a", "A+": "model_a", "A=B": "tie", "B+": "model_b", "B++": "model_b"}
#: The base models OpenCompass assumes when the references name none.
DEFAULT_BASES = ["HaiKu", "gpt4-turbo", "llama-2-70b-chat-hf"]


def wildbench_choice(reply: Any) -> str | None:
    """The first ``"choice": "..."`` value of a judge reply, or ``None``.

    >>> wildbench_choice('{"analysis of A": "…", "choice": "B+"}'), wildbench_choice('no json')
    ('B+', None)
    """
    found = _CHOICE.findall(reply) if isinstance(reply, str) else []
    return found[0] if found else None


def _sample_choice(sample: Mapping[str, Any]) -> str | None:
    return wildbench_choice(sample["prediction"])


@DICT_POSTPROCESSORS.register_module(["wildbench", "wildbench_postprocess"])
def wildbench_postprocess(output: dict[Any, Any], output_path: str) -> dict[str, Any]:
    """The compared model's reward per task group (percent, two decimals), their ``average``, ``details``.

    A choice scores ``A++`` 1, ``A+`` 0.5, ``A=B`` 0, ``B+`` −0.5, ``B++`` −1 for
    answer A, the sign turned when the base model (the references'
    ``base_models``, else OpenCompass's ``HaiKu``, ``gpt4-turbo``,
    ``llama-2-70b-chat-hf``) is answer B — and, as in OpenCompass, kept when
    neither answer is a base model.  Each sample counts once for its primary tag
    and once per secondary tag, each tag under its group (:data:`TASK_GROUPS`).
    ``average`` is the unrounded mean of the groups' rounded values.  With no
    readable choice the result is OpenCompass's ``{'warning': ..., 'details': output}``.
    """
    what = "wildbench_postprocess"
    choices, references = _judged.judged_and_references(output, output_path, _sample_choice, what=what)
    if not references:
        return {"warning": "no valid wildbench judgements extracted (check judge output format)", "details": output}
    first = references[0]
    bases = first.get("base_models", DEFAULT_BASES)
    bases = [bases] if isinstance(bases, str) else list(bases)
    win_base: defaultdict[str, float] = defaultdict(float)
    win_compare: defaultdict[str, float] = defaultdict(float)
    categories: defaultdict[str, float] = defaultdict(float)
    for choice, ref in zip(choices, references):
        if choice not in _SCORE:
            continue
        flag = 1 if _judged.reference_field(ref, "answer1", what) in bases else -1
        score = _SCORE[choice] * flag
        tags = [_judged.reference_field(ref, "primary_tag", what), *_judged.reference_field(ref, "secondary_tag", what)]
        for tag in tags:
            if tag not in TASK_GROUPS:
                raise InputFileError(f"{what}: the task tag {tag!r} of a sample of {output_path} is none of WildBench's: {', '.join(TASK_GROUPS)}")
            group = TASK_GROUPS[tag]
            win_base[group] += score
            win_compare[group] += -score
            categories[group] += 1
    for group in categories:
        win_base[group] = round(win_base[group] / categories[group] * 100, 2)
        win_compare[group] = round(win_compare[group] / categories[group] * 100, 2)
    if not win_compare:
        raise InputFileError(f"{what}: no choice of {output_path} is one of {', '.join(_SCORE)}, so there is no average")
    results: dict[str, Any] = dict(win_compare)
    results["average"] = sum(win_compare.values()) / len(win_compare)
    results["details"] = output
    return results


@DICT_POSTPROCESSORS.register_module(["wildbench_bradleyterry", "wildbench_bradleyterry_postprocess"])
def wildbench_bradleyterry_postprocess(output: dict[Any, Any], output_path: str) -> dict[str, Any]:
    """``{'matches': [...]}``: ``A++``/``A+`` a win of ``model_a``, ``A=B`` a tie, ``B+``/``B++`` of ``model_b``, others skipped.

    Each match has the primary tag, the first secondary tag (``'Others'`` when
    there is none) and the secondary tags' list.
    """
    what = "wildbench_bradleyterry_postprocess"
    choices, references = _judged.judged_and_references(output, output_path, _sample_choice, what=what)
    _judged.require_predictions(references, what)
    matches = []
    skipped = 0
    for choice, ref in zip(choices, references):
        if choice not in _WINNER:
            skipped += 1
            continue
        secondary = _judged.reference_field(ref, "secondary_tag", what)
        matches.append({
            "winner": _WINNER[choice],
            "primary_tag": _judged.reference_field(ref, "primary_tag", what),
            "secondary_tag": secondary[0] if len(secondary) > 0 else "Others",
            "secondary_tags": secondary,
            "model_a": _judged.reference_field(ref, "answer1", what),
            "model_b": _judged.reference_field(ref, "answer2", what),
            "prediction1": ref["prediction1"],
            "prediction2": _judged.reference_field(ref, "prediction2", what),
        })
    if skipped:
        logger.warning("%s: %d judge choices of %s cannot be read; their samples are skipped", what, skipped, output_path)
    matches = _judged.element_counts(matches, "prediction1", "_a")
    matches = _judged.element_counts(matches, "prediction2", "_b")
    return {"matches": matches}
