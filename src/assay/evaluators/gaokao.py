"""GAOKAO-Bench's evaluators as OpenCompass 0.5.4 computes them (``GaokaoBenchEvaluator_<question type>``).

OpenCompass registers one evaluator per question type of the benchmark
(``GaokaoBenchEvaluator_single_choice``, ``_multi_choice``,
``_multi_question_choice``, ``_five_out_of_seven``, ``_cloze``,
``_subjective``, ``_correction``).  Each reads the raw reply (the configs give
no postprocessor) and a reference that is a list of answers — one letter per
sub-question (``['B', 'C', 'A']``), or one string of letters for a
multiple-answer question (``['BC']``) — and scores points:

* ``single_choice``: the reply's last letter A–D;
* ``multi_question_choice``: the letters after ``【答案】`` when there is one such
  mark per sub-question, else the reply's first capital letters, one per
  sub-question at most;
* ``multi_choice``: the letters A–D after ``【答案】`` (white space removed) — but
  only when the mark is not at the very start of the reply; otherwise, or
  without the mark, the letters A–D among the reply's last ten characters —
  joined into one answer; two points for the exact answer, one for an answer
  whose every letter is right (an empty one included), none otherwise;
* ``five_out_of_seven``: the reply's first five letters A–G.

An extraction that does not give one answer per sub-question counts as
``'Z'`` for each of them (wrong).  ``score`` is the points won over the points
possible, times 100 (each sub-question is one point, two for ``multi_choice``),
so a question with more sub-questions weighs more.  ``cloze``, ``subjective``
and ``correction`` questions are not scored by OpenCompass: ``score`` is 0,
without details.  OpenCompass writes details keyed by the sample's index;
assay's are a list (``pred``, ``refr``, ``is_correct``: every sub-question right,
``points``, ``total``).
"""

from __future__ import annotations

import re
from typing import Any

from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import check_batch
from assay.registry import ICL_EVALUATORS

__all__ = [
    "GaokaoBenchEvaluator",
    "GaokaoBenchEvaluator_cloze",
    "GaokaoBenchEvaluator_correction",
    "GaokaoBenchEvaluator_five_out_of_seven",
    "GaokaoBenchEvaluator_multi_choice",
    "GaokaoBenchEvaluator_multi_question_choice",
    "GaokaoBenchEvaluator_single_choice",
    "GaokaoBenchEvaluator_subjective",
]

QUESTION_TYPES = ("single_choice", "multi_choice", "multi_question_choice", "five_out_of_seven", "cloze", "subjective", "correction")
_SCORED = ("single_choice", "multi_choice", "multi_question_choice", "five_out_of_seven")

_MARKED = re.compile(r"【答案】\s*[:：]*\s*[A-Z]")
_CAPITAL = re.compile(r"[A-Z]")
_A_TO_D = re.compile(r"[A-D]")
_A_TO_G = re.compile(r"[A-G]")
_SPACE = re.compile(r"\s+")


def extract(question_type: str, reply: str, sub_questions: int = 1) -> list[str]:
    """The answers read from a reply, one per sub-question, as OpenCompass reads them.

    >>> extract('single_choice', 'A is wrong, so the answer is C.')
    ['C']
    >>> extract('multi_question_choice', '【答案】B 【答案】：D', 2), extract('multi_question_choice', 'I pick B then D', 2)
    (['B', 'D'], ['I', 'B'])
    >>> extract('multi_choice', '分析……【答案】 B C'), extract('multi_choice', '【答案】BC，因为……很长的一段解释')
    (['BC'], [])
    """
    if question_type == "single_choice":
        letters = _A_TO_D.findall(reply[::-1])
        return letters[:1]
    if question_type == "multi_question_choice":
        marked = _MARKED.findall(reply)
        if len(marked) == sub_questions:
            return [_CAPITAL.findall(m)[0] for m in marked]
        return _CAPITAL.findall(reply)[:sub_questions]
    if question_type == "multi_choice":
        content = _SPACE.sub("", reply)
        at = content.find("【答案】")
        tail = content[at:] if at > 0 else content[-10:]
        answer = "".join(_A_TO_D.findall(tail))
        return [answer] if answer else []
    if question_type == "five_out_of_seven":
        return _A_TO_G.findall(reply)[:5]
    return []


class GaokaoBenchEvaluator(BaseEvaluator):
    """GAOKAO-Bench's points for one question type (see the module); metric ``score`` in [0, 100].

    >>> GaokaoBenchEvaluator('multi_choice').score(['【答案】B', '解析很长【答案】AB'], [['BC'], ['AB']])['score']
    75.0
    """

    def __init__(self, question_type: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if question_type not in QUESTION_TYPES:
            raise ValueError(f"GaokaoBenchEvaluator: question_type={question_type!r} is not one of {', '.join(QUESTION_TYPES)}")
        self.question_type = question_type

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        if self.question_type not in _SCORED:
            return {"score": 0}
        weight = 2 if self.question_type == "multi_choice" else 1
        won = possible = 0
        details: list[dict[str, Any]] = []
        for i, (reply, refr) in enumerate(zip(predictions, references)):
            if not isinstance(reply, str):
                return {"error": f"{name}: prediction {i} is {reply!r:.80}, expected text"}
            if not isinstance(refr, (list, tuple)) or not all(isinstance(r, str) for r in refr):
                return {"error": f"{name}: reference {i} is {refr!r:.80}, expected a list of answers"}
            pred = extract(self.question_type, reply, len(refr))
            if len(pred) != len(refr):
                pred = ["Z"] * len(refr)
            points = 0
            rights = []
            for p, r in zip(pred, refr):
                right = p == r
                rights.append(right)
                if right:
                    points += weight
                elif weight == 2 and all(letter in r for letter in p):
                    points += 1
            won += points
            possible += weight * len(refr)
            details.append({"pred": pred, "refr": list(refr), "is_correct": all(rights), "points": points, "total": weight * len(refr)})
        if not possible:
            return {"error": f"{name}: every reference is an empty list, so no points can be scored"}
        return {"score": won / possible * 100, "details": details}


def _typed(question_type: str) -> type[GaokaoBenchEvaluator]:
    name = f"GaokaoBenchEvaluator_{question_type}"

    def __init__(self: GaokaoBenchEvaluator, **kwargs: Any) -> None:
        GaokaoBenchEvaluator.__init__(self, question_type, **kwargs)

    doc = f"``GaokaoBenchEvaluator`` for ``{question_type}`` questions (the name OpenCompass registers)."
    cls = type(name, (GaokaoBenchEvaluator,), {"__module__": __name__, "__qualname__": name, "__doc__": doc, "__init__": __init__})
    return ICL_EVALUATORS.register_module()(cls)


GaokaoBenchEvaluator_single_choice = _typed("single_choice")
GaokaoBenchEvaluator_multi_choice = _typed("multi_choice")
GaokaoBenchEvaluator_multi_question_choice = _typed("multi_question_choice")
GaokaoBenchEvaluator_five_out_of_seven = _typed("five_out_of_seven")
GaokaoBenchEvaluator_cloze = _typed("cloze")
GaokaoBenchEvaluator_subjective = _typed("subjective")
GaokaoBenchEvaluator_correction = _typed("correction")
