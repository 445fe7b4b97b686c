"""``MATHInternEvaluator``: MATH accuracy by OpenCompass 0.5.4's internal string equivalence."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples, percent
from assay.evaluators._mathstrings import _fix_sqrt, _remove_right_units
from assay.registry import ICL_EVALUATORS

__all__ = ["MATHInternEvaluator", "math_intern_equiv", "math_intern_normalize"]


def _fracs(s: str) -> str:
    head, *parts = s.split("\\frac")
    out = head
    for part in parts:
        out += "\\frac"
        if part[0] == "{":  # an empty part raises IndexError: the caller falls back to plain equality
            out += part
            continue
        if len(part) < 2:
            return s
        a, b, tail = part[0], part[1], part[2:]
        out += "{" + a + "}" + ("{" + b + "}" if b != "{" else b) + tail
    return out


def _slash(s: str) -> str:
    pieces = s.split("/")
    if len(pieces) != 2:
        return s
    a, b = int(pieces[0]), int(pieces[1])  # ValueError propagates, as in OpenCompass
    if s != f"{a}/{b}":
        return s
    return "\\frac{" + str(a) + "}{" + str(b) + "}"


def math_intern_normalize(s: str) -> str:
    """OpenCompass's ``math_intern`` ``strip_string``; raises where it raises.

    It differs from the MATH benchmark's: ``' .'`` becomes ``' 0.'``, a
    trailing ``\\sqrt`` or ``\\frac`` and a non-integer ``a/b`` raise, ``x \\in``
    is dropped, subscripts lose their braces (``a_{b}`` → ``a_b``) and commas
    go from a single number.

    >>> math_intern_normalize('\\\\dfrac12')
    '\\\\frac{1}{2}'
    >>> math_intern_normalize('10,800')
    '10800'
    """
    for old, new in (("\n", ""), ("\\!", ""), ("\\\\", "\\"), ("tfrac", "frac"), ("dfrac", "frac"),
                     ("\\left", ""), ("\\right", ""), ("^{\\circ}", ""), ("^\\circ", ""), ("\\$", "")):
        s = s.replace(old, new)
    s = _remove_right_units(s)
    s = s.replace("\\%", "").replace(" .", " 0.").replace("{.", "{0.")
    if not s:
        return s
    if s[0] == ".":
        s = "0" + s
    sides = s.split("=")
    if len(sides) == 2 and len(sides[0]) <= 2:
        s = sides[1]
    s = _fix_sqrt(s).replace(" ", "")
    s = _fracs(s)
    if s == "0.5":
        s = "\\frac{1}{2}"
    s = _slash(s).replace("x \\in", "").strip()
    if "_" in s:
        pieces = s.split("_")
        pieces[1] = pieces[1].replace("{", "").replace("}", "")
        s = "_".join(pieces)
    if " " not in s.strip() and "(" not in s:
        s = s.replace(",", "")
    return s


def math_intern_equiv(pred: Any, ref: Any) -> bool:
    """OpenCompass's ``math_intern`` ``is_equiv``: equal after :func:`math_intern_normalize`.

    ``None`` on either side (both too) is not equivalent; when normalizing
    fails (a non-string, or a form it raises on) the two are compared as
    they are.

    >>> math_intern_equiv('\\\\frac12', '0.5'), math_intern_equiv(None, None), math_intern_equiv('1/x', '1/x')
    (True, False, True)
    """
    if pred is None or ref is None:
        return False
    try:
        return bool(math_intern_normalize(pred) == math_intern_normalize(ref))
    except Exception:  # OpenCompass falls back to plain equality on any failure
        return bool(pred == ref)


@ICL_EVALUATORS.register_module()
class MATHInternEvaluator(BaseEvaluator):
    """Accuracy in [0, 100] by :func:`math_intern_equiv`, as OpenCompass 0.5.4 computes it.

    Inputs: ``predictions`` (after ``math_intern_postprocess``) and
    ``references``.  Details: ``pred``, ``answer``, ``correct``.  An empty
    batch is an error record (OpenCompass divides by zero).

    >>> MATHInternEvaluator().score(['\\\\frac12', None], ['0.5', '3'])['accuracy']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("correct", percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "predictions and references have different length"}
        if not predictions:
            return no_samples(self)
        details = [{"pred": p, "answer": r, "correct": math_intern_equiv(p, r)} for p, r in zip(predictions, references)]
        correct = sum(d["correct"] for d in details)
        return {"accuracy": 100 * correct / len(details), "details": details}
