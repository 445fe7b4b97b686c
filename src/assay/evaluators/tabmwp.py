"""TabMWP's evaluator as OpenCompass 0.5.4 computes it (``TabMWPEvaluator``)."""

from __future__ import annotations

import random
import re
from typing import Any

from assay.evaluators.exact import AccEvaluator
from assay.registry import ICL_EVALUATORS

__all__ = ["TabMWPEvaluator", "tabmwp_answer", "tabmwp_normalize"]

_LETTERS = "ABCDEFGH"
_CHOICE_PATTERNS = [re.compile(p) for p in (r"^\(([A-Za-z])\)$", r"^([A-Za-z])$", r"^([A-Za-z]). ", r"[Th]he answer is ([A-Z])",
                                            r"^\(([A-Za-z])\) [\s\S]+$", r"[Th]he answer is \(([A-Za-z])\) [\s\S]+$")]
_FREE_PATTERNS = [re.compile(p) for p in (
    r"[Th]he answer is ([\s\S]+)$", r"[Th]he table shows that ([\d\$\.\,\/\:]+) ", r" = ([\d\$\.\,\/\:]+)",
    r"(?<= be| is) ([\-\d\$\.\,\/\:]{0,}[\d]+)", r"(?<= are| was) ([\-\d\$\.\,\/\:]{0,}[\d]+)",
    r"(?<= were) ([\-\d\$\.\,\/\:]{0,}[\d]+)", r" ([\d\$\.\,\/\:]+ [AP]\.M\.)", r"([\-\d\$\.\,\/\:]{0,}[\d]+)")]


def _similarity(a: str, b: str) -> float:
    if a == b:
        return 2.0
    if " " in a or " " in b:
        left, right = a.split(" "), b.split(" ")
        return len(set(left) & set(right)) / max(len(left), len(right))
    return 0.0


def tabmwp_answer(output: str, options: Any = None) -> str:
    """The answer a reply gives: for a multiple-choice problem the option its letter names (a letter past the
    options: one drawn with seed 123, as OpenCompass draws it), else the option sharing most words with the
    reply; for a free-text problem the last match of the first pattern that finds one (``The answer is …``,
    ``= …``, ``is …``, …, any number), a final full stop dropped.

    >>> tabmwp_answer('The answer is $1.40.'), tabmwp_answer('(B) blue', ['red', 'blue'])
    ('$1.40', 'blue')
    """
    output = re.sub(r"\$?\\frac\{([\d\.\,\-]+)\}\{([\d\.\,]+)\}\$?", r"\1/\2", output)
    output = re.sub(r"(?<![AP]\.M)\.$", "", output)
    output = re.sub(r"(?<=\d)[\=](?=[\-\$\d])", " = ", output)
    output = output.replace("\u2212", "-")
    if options:
        for pattern in _CHOICE_PATTERNS:
            found = pattern.findall(output)
            if found and found[0].upper() in _LETTERS:
                index = _LETTERS.index(found[0].upper())
                if index >= len(options):
                    index = random.Random(123).choice(range(len(options)))
                return str(options[index])
        scores = [_similarity(str(x), output) for x in options]
        return str(options[scores.index(max(scores))])
    for pattern in _FREE_PATTERNS:
        found = pattern.findall(output)
        if found:
            answer = found[-1].strip()
            return answer[:-1] if answer.endswith(".") and ".M." not in answer else answer
    return output


def tabmwp_normalize(text: str, unit: Any) -> str:
    """A number without ``$``, separators and trailing zeros (a fraction as its value rounded to 3 places), else the
    text without the unit.

    >>> tabmwp_normalize('$1,000.50', None), tabmwp_normalize('3/4', None), tabmwp_normalize('12 cm', 'cm')
    ('1000.5', '0.75', '12')
    """
    text = re.sub(r"^[\$]", "", text)
    text = re.sub(r"[\,\.\,\/]$", "", text)
    if re.match(r"^[-+]?[\d,./]+$", text) is None:
        return text.replace(unit, "").strip() if unit else text
    text = text.replace(",", "")
    if re.match(r"[-+]?\d+$", text) is not None:
        number: Any = int(text)
    elif "/" in text:
        parts = text.split("/")
        number = round(float(parts[0]) / float(parts[1]), 3)
    else:
        number = round(float(text), 3)
    return re.sub(r"\.[0]+$", "", str(number))


@ICL_EVALUATORS.register_module()
class TabMWPEvaluator(AccEvaluator):
    """TabMWP accuracy in [0, 100] (``accuracy``): the reply's answer (:func:`tabmwp_answer`) and the
    reference's ``answer``, both normalized (:func:`tabmwp_normalize`) and lower-cased, are equal.

    References are the rows' ``test_elements`` (``answer``, ``unit``, ``choices``).  A reply or answer
    that OpenCompass cannot read (a number like ``1.2.3``, a division by zero) gives an error record naming
    the sample, where OpenCompass stops.  Details: ``pred``, ``answer`` (both as compared), ``correct``.
    """

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": f"TabMWPEvaluator: {len(predictions)} predictions but {len(references)} references"}
        preds, golds = [], []
        for i, (pred, ref) in enumerate(zip(predictions, references)):
            try:
                unit = ref["unit"]
                preds.append(tabmwp_normalize(tabmwp_answer(str(pred), ref["choices"]), unit).lower())
                golds.append(tabmwp_normalize(str(ref["answer"]), unit).lower())
            except (ValueError, ZeroDivisionError, KeyError, TypeError) as exc:
                return {"error": f"TabMWPEvaluator: sample {i}: {type(exc).__name__}: {exc}"}
        return super().score(preds, golds)
