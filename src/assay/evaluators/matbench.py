"""Matbench's evaluators and answer readers, as OpenCompass 0.5.4 computes them.

``MatbenchEvaluator_regression`` (band gaps, yield strengths: mean absolute
error), ``MatbenchEvaluator_classification`` (is it a metal: yes/no) and
``MatbenchEvaluator_classification_glass`` (does it form a glass: has/has not),
with the readers of ``opencompass.datasets.matbench.post_process``.
"""

from __future__ import annotations

import re
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch
from assay.registry import ICL_EVALUATORS

__all__ = [
    "MatbenchEvaluator_classification",
    "MatbenchEvaluator_classification_glass",
    "MatbenchEvaluator_regression",
    "parse_float_answer",
    "parse_has_hasnot_answer",
    "parse_true_false_answer",
    "remove_formula",
]

#: The element symbols the reader strips from replies: the periodic table in atomic order, without the noble gases.
_NOBLE = {"He", "Ne", "Ar", "Kr", "Xe", "Rn", "Og"}
_TABLE = (
    "H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr "
    "Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt "
    "Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc "
    "Lv Ts Og"
)
ELEMENTS = tuple(e for e in _TABLE.split() if e not in _NOBLE)
_FORMULA = re.compile(r"\b[A-Z][a-z]?\d*(?:[A-Z][a-z]?\d*)*(?:\([A-Z][a-z]?\d*(?:[A-Z][a-z]?\d*)*\)\d*)*\b")
_ANSWER_NUMBER = re.compile(r"answer:(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def remove_formula(sentence: str) -> str:
    """The reply without chemical formulas: every formula-like word removed, then, for each element
    symbol (atomic order, noble gases left out) occurring anywhere in what is left, every word containing it.

    As in OpenCompass the symbols are found as substrings, so ``Th`` takes
    ``The`` and ``V`` takes ``eV``.

    >>> remove_formula('The gap of GaAs is 1.4 eV')
    ' gap of  is 1.4 '
    """
    sentence = _FORMULA.sub("", sentence)
    for element in [e for e in ELEMENTS if e in sentence]:
        sentence = re.sub(rf"\b\w*{element}\w*\b", "", sentence)
    return sentence


def _bounded(number: float) -> float:
    # a negative value counts as its magnitude, one of 20 or more as 0
    if number < 0:
        return abs(number)
    return number if number < 20 else 0


def parse_float_answer(sentence: str) -> float:
    """The reply's number, formulas removed (:func:`remove_formula`): the last ``answer:<number>``
    (spaces dropped, any case), else the last number; a negative one counts as its magnitude, one of
    20 or more as 0; no number gives 0.0.

    >>> parse_float_answer('Answer: 1.25'), parse_float_answer('about -3e0'), parse_float_answer('42')
    (1.25, 3.0, 0)
    """
    sentence = remove_formula(sentence)
    tagged = _ANSWER_NUMBER.findall(sentence.lower().replace(" ", ""))
    if tagged:
        return _bounded(float(tagged[-1]))
    numbers = _NUMBER.findall(sentence)
    if numbers:
        return _bounded(float(numbers[-1]))
    return 0.0


def parse_true_false_answer(raw_string: str, option: str = "") -> bool:
    """Yes/no of a reply, spaces dropped and lower-cased: ``answer:true``, ``answer:false``, then
    ``not`` or ``no`` anywhere (False), else True — also for a reply saying nothing.

    >>> parse_true_false_answer('Yes'), parse_true_false_answer('It is a metal, isn\\'t it? Not sure')
    (True, False)
    """
    text = raw_string.lower().replace(" ", "")
    if "answer:true" in text:
        return True
    if "answer:false" in text:
        return False
    return not ("not" in text or "no" in text)


def parse_has_hasnot_answer(raw_string: str, option: str = "") -> bool:
    """Has/has not of a reply: as :func:`parse_true_false_answer` (``doesnot`` reads as False too), else True.

    >>> parse_has_hasnot_answer('It has glass-forming ability'), parse_has_hasnot_answer('It does not')
    (True, False)
    """
    return parse_true_false_answer(raw_string, option)


@ICL_EVALUATORS.register_module()
class MatbenchEvaluator_regression(BaseEvaluator):
    """Mean absolute error of :func:`parse_float_answer` of each reply against ``float(reference)``.

    Metric: ``mae``, over the samples whose reference is a number (0 when
    none is).  Details: ``pred``, ``answer``, ``error`` (the absolute error,
    or the message of the conversion that failed, as OpenCompass writes it).
    """

    sample_outcome = SampleOutcome(scores={"mae": "error"})

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        total = 0.0
        count = 0
        details = []
        for reply, answer in zip(predictions, references):
            pred = parse_float_answer(str(reply))
            detail: dict[str, Any] = {"pred": pred, "answer": answer, "error": None}
            try:
                detail["error"] = abs(float(pred) - float(answer))
                total += detail["error"]
                count += 1
            except (TypeError, ValueError) as exc:
                detail["error"] = str(exc)
            details.append(detail)
        return {"mae": total / count if count > 0 else 0, "details": details}


def _binary(name: str, parsed: list[bool], references: list[Any], details: list[dict[str, Any]]) -> dict[str, Any]:
    """scikit-learn's accuracy and binary precision, recall and F1 (True the positive class, 0 where undefined)."""
    for i, ref in enumerate(references):
        if not isinstance(ref, bool):
            return {"error": f"{name}: reference {i} is {ref!r}; expected true or false"}
    n = len(references)
    tp = sum(1 for p, r in zip(parsed, references) if p and r)
    predicted = sum(parsed)
    actual = sum(references)
    return {
        "accuracy": sum(p == r for p, r in zip(parsed, references)) / n,
        "precision": tp / predicted if predicted else 0.0,
        "recall": tp / actual if actual else 0.0,
        "f1_score": 2 * tp / (actual + predicted) if actual + predicted else 0.0,
        "details": details,
    }


@ICL_EVALUATORS.register_module()
class MatbenchEvaluator_classification(BaseEvaluator):
    """Yes/no (:func:`parse_true_false_answer`) against boolean references.

    Metrics (fractions, not percentages): ``accuracy``, and ``precision``,
    ``recall``, ``f1_score`` of the answer True (scikit-learn's binary scores,
    0 where undefined).  Details: ``pred``, ``answer``, ``correct``.
    """

    # the accuracy is a fraction: the mean of the verdicts, not 100 times it
    sample_outcome = SampleOutcome(scores={"accuracy": "correct"})
    _reader = staticmethod(parse_true_false_answer)

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        parsed = [self._reader(str(reply)) for reply in predictions]
        details = [{"pred": p, "answer": r, "correct": p == r} for p, r in zip(parsed, references)]
        return _binary(type(self).__name__, parsed, references, details)


@ICL_EVALUATORS.register_module()
class MatbenchEvaluator_classification_glass(MatbenchEvaluator_classification):
    """As :class:`MatbenchEvaluator_classification`, the replies read with :func:`parse_has_hasnot_answer`."""

    _reader = staticmethod(parse_has_hasnot_answer)
