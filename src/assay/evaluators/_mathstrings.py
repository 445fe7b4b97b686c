"""MATH answer strings as OpenCompass 0.5.4 handles them (private).

What OpenCompass's ``opencompass/datasets/math.py`` computes, quirks included.
The extraction and normalization are the postprocessors' own
(:mod:`assay.postprocess.math`); this module adds the comparison:

* :func:`math_is_equiv` — ``MATHEvaluator.is_equiv`` with its two versions of
  the MATH benchmark's ``strip_string``.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from assay.postprocess.math import normalize_final_answer

__all__: list[str] = []

logger = logging.getLogger(__name__)


# -- normalize_final_answer ---------------------------------------------------------


# -- MATHEvaluator.is_equiv ----------------------------------------------------------


class _Malformed(Exception):
    """A step of ``strip_string`` that fails in OpenCompass (its caller falls back)."""


def _fix_fracs(s: str) -> str:
    parts = s.split("\\frac")
    out = parts[0]
    for part in parts[1:]:
        out += "\\frac"
        if part[:1] == "{":
            out += part
            continue
        if len(part) < 2:
            return s
        a, b, rest = part[0], part[1], part[2:]
        out += "{" + a + "}{" + b + "}" + rest if b != "{" else "{" + a + "}" + b + rest
    return out


def _fix_a_slash_b(s: str) -> str:
    pieces = s.split("/")
    if len(pieces) != 2:
        return s
    try:
        a, b = int(pieces[0]), int(pieces[1])
    except ValueError as exc:  # OpenCompass lets this one escape (only AssertionError is caught)
        raise _Malformed(str(exc)) from None
    if s != f"{a}/{b}":
        return s
    return "\\frac{" + str(a) + "}{" + str(b) + "}"


def _remove_right_units(s: str) -> str:
    if "\\text{ " not in s:
        return s
    pieces = s.split("\\text{ ")
    if len(pieces) != 2:
        raise _Malformed("more than one '\\text{ '")
    return pieces[0]


def _fix_sqrt(s: str) -> str:
    if "\\sqrt" not in s:
        return s
    pieces = s.split("\\sqrt")
    out = pieces[0]
    for piece in pieces[1:]:
        if not piece:
            raise _Malformed("\\sqrt at the end")
        out += "\\sqrt" + piece if piece[0] == "{" else "\\sqrt{" + piece[0] + "}" + piece[1:]
    return out


_SQRT_WORD = re.compile(r"\\sqrt(\w+)")


def _strip_v1(s: Any) -> str:
    if not isinstance(s, str):
        raise _Malformed(f"not a string: {type(s).__name__}")
    s = s.replace("\n", "").replace("\\!", "").replace("\\\\", "\\")
    s = s.replace("tfrac", "frac").replace("dfrac", "frac")
    s = s.replace("\\left", "").replace("\\right", "")
    s = s.replace("^{\\circ}", "").replace("^\\circ", "")
    s = s.replace("\\$", "")
    s = _remove_right_units(s)
    s = s.replace("\\%", "")
    s = s.replace(" .", " 0.").replace("{.", "{0.")
    if not s:
        return s
    if s[0] == ".":
        s = "0" + s
    sides = s.split("=")
    if len(sides) == 2 and len(sides[0]) <= 2:
        s = sides[1]
    s = _fix_sqrt(s)
    s = s.replace(" ", "")
    s = _fix_fracs(s)
    if s == "0.5":
        s = "\\frac{1}{2}"
    return _fix_a_slash_b(s)


_UNIT_AT_END = re.compile(r"\\text{.*?}$")
_MBOX = re.compile(r"\\mbox{.*?}")
_ZEROS_BEFORE = re.compile(r"(\d+)\.0+([^\d])")
_ZEROS_AT_END = re.compile(r"(\d+)\.0+$")


def _strip_v2(value: Any) -> str:
    s = str(value).strip().replace("\n", "").rstrip(".")
    s = s.replace("\\!", "").replace("\\ ", "")
    s = s.replace("\\\\", "\\").replace("\\\\", "\\")
    s = s.replace("tfrac", "frac").replace("dfrac", "frac")
    s = s.replace("\\left", "").replace("\\right", "")
    without_unit = _UNIT_AT_END.sub("", s).strip()
    if without_unit != "" and without_unit != s:
        s = without_unit
    s = s.replace("^{\\circ}", "").replace("^\\circ", "")
    s = s.replace("\\$", "").replace("$", "")
    s = s.replace("\\text", "").replace("x\\in", "")
    s = s.replace("\\%", "").replace("%", "")
    s = s.replace(" .", " 0.").replace("{.", "{0.")
    s = s.replace("\\cdot", "")
    s = s.replace("infinity", "\\infty")
    if "\\infty" not in s:
        s = s.replace("inf", "\\infty")
    s = s.replace("+\\inity", "\\infty")
    s = s.replace("and", "").replace("\\mathbf", "")
    s = _MBOX.sub("", s)
    # OpenCompass means to drop quotes here but discards the result: quotes stay.
    if "j" in s and "i" not in s:
        s = s.replace("j", "i")
    s = _ZEROS_BEFORE.sub(r"\1\2", s)
    s = _ZEROS_AT_END.sub(r"\1", s)
    if not s:
        return s
    if s[0] == ".":
        s = "0" + s
    sides = s.split("=")
    if len(sides) == 2 and len(sides[0]) <= 2:
        s = sides[1]
    s = _SQRT_WORD.sub(r"\\sqrt{\1}", s)
    s = s.replace(" ", "")
    s = _fix_fracs(s)
    return _fix_a_slash_b(s)


def _normalized(value: Any) -> str:
    """:func:`normalize_final_answer`, failing on a non-string as OpenCompass's does (``.split`` on an int)."""
    if not isinstance(value, str):
        raise TypeError(f"normalize_final_answer takes a string, got {type(value).__name__}")
    return normalize_final_answer(value)


def math_is_equiv(pred: Any, ref: Any, version: str = "v1") -> bool:
    """OpenCompass 0.5.4's ``MATHEvaluator.is_equiv(pred, ref)``.

    1. Both ``None`` → True; one ``None`` → False.
    2. Both stripped with the version's ``strip_string`` and compared; then the
       stripped forms through :func:`normalize_final_answer`.  A step that
       fails (``\\text{ `` twice, ``\\sqrt`` at the end, ``a/b`` with a
       non-integer side, a non-string in v1) abandons this step.
    3. Both raw values through :func:`normalize_final_answer` (skipped when it fails).
    4. Finally plain equality ``pred == ref``.

    >>> math_is_equiv('0.5', '\\\\frac{1}{2}'), math_is_equiv('3', 3)
    (True, False)
    >>> math_is_equiv('1,000', '1000', 'v2')
    True
    """
    if pred is None and ref is None:
        logger.warning("MATHEvaluator: both the prediction and the reference are None; counted as equivalent")
        return True
    if pred is None or ref is None:
        return False
    strip = _strip_v1 if version == "v1" else _strip_v2
    try:
        a, b = strip(pred), strip(ref)
        if a == b or _normalized(a) == _normalized(b):
            return True
    except Exception:
        pass
    try:
        if _normalized(pred) == _normalized(ref):
            return True
    except Exception:
        pass
    return bool(pred == ref)


