"""DROP's evaluator as OpenCompass 0.5.4 computes it (``DropOpenAIEvaluator``, after OpenAI's simple-evals)."""

from __future__ import annotations

import re
import string
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples, percent
from assay.registry import ICL_EVALUATORS

__all__ = ["DropOpenAIEvaluator", "drop_fuzzy_match", "drop_normalize"]

_ANSWER = re.compile(r"(?i)Answer\s*:\s*([^\n]+)")
_PUNCTUATION = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def drop_normalize(text: str) -> str:
    """Lower-case, drop ASCII punctuation and the articles *a*, *an*, *the*, collapse whitespace.

    >>> drop_normalize('The  U.S. Army!')
    'us army'
    """
    text = "".join(ch for ch in text.lower() if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def drop_fuzzy_match(a: str, b: str) -> bool:
    """Equal after :func:`drop_normalize`, or one contained in the other (two empties match).

    >>> drop_fuzzy_match('about 1,200', '1200'), drop_fuzzy_match('', 'x')
    (True, False)
    """
    a, b = drop_normalize(a), drop_normalize(b)
    if a == "" or b == "":
        return a == b
    return a in b or b in a


@ICL_EVALUATORS.register_module()
class DropOpenAIEvaluator(BaseEvaluator):
    """DROP accuracy in [0, 100] by fuzzy matching.

    The answer is what follows the first ``Answer:`` of the reply (to the end
    of that line), else the whole reply; it is correct when it fuzzily
    matches (:func:`drop_fuzzy_match`) one of the ``|``-separated reference
    answers.  Containment either way counts: ``'1'`` matches ``'10'``, and a
    long reply without ``Answer:`` matches any answer it contains.  Details:
    ``pred`` (the whole reply), ``answer``, ``correct``.

    >>> DropOpenAIEvaluator().score(['So... Answer: 14 yards', 'Answer: Smith'], ['14|fourteen', 'Jones'])['accuracy']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("correct", percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "preds and refers have different length"}
        if not predictions:
            return no_samples(self)
        details = []
        for pred, ref in zip(predictions, references):
            m = _ANSWER.search(pred)
            answer = m.group(1) if m else pred
            correct = any(drop_fuzzy_match(answer, option) for option in ref.split("|"))
            details.append({"pred": pred, "answer": ref, "correct": correct})
        return {"accuracy": percent(sum(d["correct"] for d in details), len(details)), "details": details}
