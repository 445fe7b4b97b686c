"""Kaoshi's evaluator, as OpenCompass 0.5.4 computes it (``KaoshiEvaluator``).

Kaoshi grades as GAOKAO-Bench does (:mod:`assay.evaluators.gaokao`: the same
readers of ``single_choice``, ``multi_choice``, ``multi_question_choice`` and
``five_out_of_seven`` replies, the same points), with two question types of
its own: ``cloze`` and ``judgment`` replies give the text between the first
``【答案】`` and the next space (nothing when no space follows), compared with
the reference, a single answer.
"""

from __future__ import annotations

import re
from typing import Any

from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import check_batch
from assay.evaluators.gaokao import extract
from assay.registry import ICL_EVALUATORS

__all__ = ["KaoshiEvaluator"]

QUESTION_TYPES = ("single_choice", "multi_choice", "multi_question_choice", "five_out_of_seven", "cloze", "judgment")
_FILLED = re.compile(r"【答案】(.*?) ")


def _read(question_type: str, reply: str, sub_questions: int) -> list[str]:
    if question_type in ("cloze", "judgment"):
        found = _FILLED.search(reply)
        return [found.group(1)] if found else []
    return extract(question_type, reply, sub_questions)


@ICL_EVALUATORS.register_module()
class KaoshiEvaluator(BaseEvaluator):
    """Kaoshi's points for one ``question_type`` (see the module); metric ``score`` in [0, 100].

    A reference is a sequence of answers, one per sub-question (a list, or a
    string read letter by letter as OpenCompass reads it); for ``cloze`` and
    ``judgment`` it is one answer.  A reading that does not give one answer per
    sub-question counts as ``'Z'`` for each (wrong).  ``multi_choice`` gives two
    points for the exact answer and one for an answer whose every letter is in
    the reference, each sub-question counting two; the others one point a
    sub-question.  ``score`` is the points won over the points possible, × 100.
    OpenCompass writes no details; assay's (its addition) are ``pred``,
    ``refr``, ``is_correct`` (every sub-question right), ``points``, ``total``.
    A reply that is not text or references with no sub-question at all give an
    error record (OpenCompass stops with a ``TypeError`` or ``ZeroDivisionError``).

    >>> KaoshiEvaluator('judgment').score(['【答案】正确 <eoa>', '【答案】错误<eoa>'], ['正确', '错误'])['score']
    50.0
    >>> KaoshiEvaluator('multi_choice').score(['【答案】B', '解析【答案】AB'], [['BC'], ['AB']])['score']
    75.0
    """

    def __init__(self, question_type: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if question_type not in QUESTION_TYPES:
            raise ValueError(f"KaoshiEvaluator: question_type={question_type!r} is not one of {', '.join(QUESTION_TYPES)}")
        self.question_type = question_type

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        weight = 2 if self.question_type == "multi_choice" else 1
        single = self.question_type in ("cloze", "judgment")
        won = possible = 0
        details: list[dict[str, Any]] = []
        for i, (reply, refr) in enumerate(zip(predictions, references)):
            if not isinstance(reply, str):
                return {"error": f"{name}: prediction {i} is {reply!r:.80}, expected text"}
            if single:
                refr = [refr]
            elif not isinstance(refr, (str, list, tuple)):
                return {"error": f"{name}: reference {i} is {refr!r:.80}, expected a list of answers"}
            pred = _read(self.question_type, reply, len(refr))
            if len(pred) != len(refr):
                pred = ["Z"] * len(refr)
            points = 0
            rights = []
            for p, r in zip(pred, refr):
                right = p == r
                rights.append(right)
                if right:
                    points += weight
                elif weight == 2 and isinstance(r, (str, list, tuple)) and all(letter in r for letter in p):
                    points += 1
            won += points
            possible += weight * len(refr)
            details.append({"pred": pred, "refr": list(refr), "is_correct": all(rights), "points": points,
                            "total": weight * len(refr)})
        if not possible:
            return {"error": f"{name}: every reference is empty, so no points can be scored"}
        return {"score": won / possible * 100, "details": details}
