"""Math evaluators: GSM8K numbers, MATH string equivalence, and math-verify symbolic equivalence."""

from __future__ import annotations

import importlib.util
import logging
import os
import re
from collections import Counter
from typing import Any

from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import check_batch, percent, score_pairs
from assay.postprocess.math import normalize_final_answer, normalize_math_answer
from assay.registry import ICL_EVALUATORS

__all__ = [
    "Gsm8kEvaluator",
    "MATHEvaluator",
    "MATHVerifyEvaluator",
    "is_math_equiv",
    "opencompass_math_equiv",
    "strip_math_answer",
]

logger = logging.getLogger(__name__)

_FLOAT = re.compile(r"^-?(?:\d+\.?\d*|\.\d+)$")


def _to_float(value: Any) -> float | None:
    text = str(value).strip().replace(",", "")
    if not _FLOAT.match(text):
        return None
    try:
        return float(text)
    except ValueError:  # pragma: no cover - guarded by the regex
        return None


@ICL_EVALUATORS.register_module()
class Gsm8kEvaluator(BaseEvaluator):
    """GSM8K accuracy, as OpenCompass 0.5.4 computes it.

    Inputs: ``predictions`` (usually after ``gsm8k`` postprocessing) and
    ``references`` (after ``gsm8k_dataset``).  Correct when the two are equal,
    or when ``abs(float(pred) - int(ref)) < 1e-6``; anything that does not
    convert is wrong.  OpenCompass behaviour reproduced: the reference is read
    with ``int()``, so a decimal reference matches only an identical
    prediction, and a prediction with a thousands separator (``'1,234'``) never
    matches ``'1234'``.  Metric: ``accuracy`` in [0, 100].  Details: ``pred``,
    ``answer``, ``correct``.

    >>> Gsm8kEvaluator().score(['18', '3.0', 'NULL'], ['18', '3', '5'])['accuracy']
    66.66666666666667
    """

    sample_decomposable = True

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        def judge(pred: Any, ref: Any) -> tuple[Any, bool]:
            if pred == ref:
                return pred, True
            try:
                return pred, abs(float(pred) - int(ref)) < 1e-6
            except (TypeError, ValueError, OverflowError):
                return pred, False

        return score_pairs(self, predictions, references, judge)


# -- MATH string normalization (after Hendrycks et al.'s MATH evaluation) ----------
_TEXT_UNITS = re.compile(r"\\text\{\s*[^{}]*\}\s*$")
_SQRT_SHORT = re.compile(r"\\sqrt(?![{\[])(\w)")
_FRAC_SHORT = re.compile(r"\\frac(?![{])(\w)(\w)")
_FRAC_HALF = re.compile(r"\\frac\{([^{}]+)\}(?![{])(\w)")
_FRAC_HALF_FIRST = re.compile(r"\\frac(?![{])(\w)\{")
_A_SLASH_B = re.compile(r"^(-?\d+)/(\d+)$")
_SHORT_LHS = re.compile(r"^[^=]{1,2}=(?!=)")


def strip_math_answer(answer: Any, version: str = "v1") -> str:
    """Normalize a MATH answer for comparison.

    ``v1`` follows the MATH benchmark's convention: drop ``\\left``/``\\right``,
    ``\\!``, degree marks, ``\\$``, percent signs, a trailing ``\\text{unit}``
    and spaces; ``dfrac``/``tfrac`` → ``frac``; expand ``\\frac12`` and
    ``\\sqrt2``; add a leading ``0`` to ``.5``; drop a short left-hand side
    (``x = 5`` → ``5``); ``a/b`` → ``\\frac{a}{b}``; ``0.5`` → ``\\frac{1}{2}``.
    ``v2`` first applies :func:`~assay.postprocess.math.normalize_math_answer`
    (units, ``\\text{}``, thousands separators, any left-hand side).

    >>> strip_math_answer('x = \\\\dfrac12')
    '\\\\frac{1}{2}'
    >>> strip_math_answer('3/4')
    '\\\\frac{3}{4}'
    """
    s = "" if answer is None else str(answer)
    if version == "v2":
        s = normalize_math_answer(s)
    s = s.replace("\n", "").replace("\\!", "").replace("\\\\", "\\")
    s = s.replace("tfrac", "frac").replace("dfrac", "frac")
    s = s.replace("\\left", "").replace("\\right", "")
    s = s.replace("^{\\circ}", "").replace("^\\circ", "")
    s = s.replace("\\$", "").replace("$", "")
    s = _TEXT_UNITS.sub("", s)
    s = s.replace("\\%", "").replace("%", "")
    s = s.replace(" .", " 0.").replace("{.", "{0.")
    if s.startswith("."):
        s = "0" + s
    s = _SHORT_LHS.sub("", s)
    s = _SQRT_SHORT.sub(r"\\sqrt{\1}", s)
    s = s.replace(" ", "")
    s = _FRAC_SHORT.sub(r"\\frac{\1}{\2}", s)
    s = _FRAC_HALF_FIRST.sub(r"\\frac{\1}{", s)
    s = _FRAC_HALF.sub(r"\\frac{\1}{\2}", s)
    if s == "0.5":
        s = "\\frac{1}{2}"
    s = _A_SLASH_B.sub(r"\\frac{\1}{\2}", s)
    return s


def is_math_equiv(pred: Any, ref: Any, version: str = "v1") -> bool:
    """True when two MATH answers are equal after :func:`strip_math_answer` (or equal as numbers).

    An empty prediction is never equivalent.

    >>> is_math_equiv('\\\\dfrac{1}{2}', '0.5')
    True
    >>> is_math_equiv('', '')
    False
    """
    if pred is None or ref is None:
        return False
    a, b = strip_math_answer(pred, version), strip_math_answer(ref, version)
    if not a:
        return False
    if a == b:
        return True
    x, y = _to_float(a), _to_float(b)
    return x is not None and y is not None and abs(x - y) < 1e-9 * max(1.0, abs(x), abs(y))


# -- OpenCompass 0.5.4's MATH comparison, exactly ----------------------------------------


def _oc_fix_fracs(s: str) -> str:
    r"""``\frac12`` → ``\frac{1}{2}``, ``\frac1{2}`` → ``\frac{1}{2}``; a ``\frac`` with fewer than two characters after it leaves the text as it was."""
    pieces = s.split("\\frac")
    out = pieces[0]
    for piece in pieces[1:]:
        out += "\\frac"
        if piece[:1] == "{":
            out += piece
            continue
        if len(piece) < 2:
            return s
        a, b, rest = piece[0], piece[1], piece[2:]
        out += "{" + a + "}{" + b + "}" + rest if b != "{" else "{" + a + "}" + b + rest
    return out


def _oc_fix_a_slash_b(s: str) -> str:
    r"""``3/4`` → ``\frac{3}{4}`` when both sides are plain integers; raises like ``int()`` on other text."""
    parts = s.split("/")
    if len(parts) != 2:
        return s
    a, b = int(parts[0]), int(parts[1])
    if s != f"{a}/{b}":
        return s
    return "\\frac{" + str(a) + "}{" + str(b) + "}"


def _oc_fix_sqrt(s: str) -> str:
    r"""``\sqrt3`` → ``\sqrt{3}`` (one character); a ``\sqrt`` ending the text raises IndexError."""
    if "\\sqrt" not in s:
        return s
    pieces = s.split("\\sqrt")
    out = pieces[0]
    for piece in pieces[1:]:
        out += "\\sqrt" + piece if piece[0] == "{" else "\\sqrt{" + piece[0] + "}" + piece[1:]
    return out


def _oc_drop_short_lhs(s: str) -> str:
    parts = s.split("=")
    if len(parts) == 2 and len(parts[0]) <= 2:
        return parts[1]
    return s


def _oc_strip_v1(s: str) -> str:
    s = s.replace("\n", "").replace("\\!", "").replace("\\\\", "\\")
    s = s.replace("tfrac", "frac").replace("dfrac", "frac").replace("\\left", "").replace("\\right", "")
    s = s.replace("^{\\circ}", "").replace("^\\circ", "").replace("\\$", "")
    if "\\text{ " in s:
        units = s.split("\\text{ ")
        if len(units) != 2:
            raise ValueError("more than one '\\text{ '")
        s = units[0]
    s = s.replace("\\%", "")
    s = s.replace(" .", " 0.").replace("{.", "{0.")
    if not s:
        return s
    if s[0] == ".":
        s = "0" + s
    s = _oc_drop_short_lhs(s)
    s = _oc_fix_sqrt(s)
    s = s.replace(" ", "")
    s = _oc_fix_fracs(s)
    if s == "0.5":
        s = "\\frac{1}{2}"
    return _oc_fix_a_slash_b(s)


_OC_TRAILING_TEXT = re.compile(r"\\text{.*?}$")
_OC_MBOX = re.compile(r"\\mbox{.*?}")
_OC_ZEROS_BEFORE = re.compile(r"(\d+)\.0+([^\d])")
_OC_ZEROS_END = re.compile(r"(\d+)\.0+$")
_OC_SQRT_WORD = re.compile(r"\\sqrt(\w+)")


def _oc_strip_v2(value: Any) -> str:
    s = str(value).strip().replace("\n", "").rstrip(".")
    s = s.replace("\\!", "").replace("\\ ", "").replace("\\\\", "\\").replace("\\\\", "\\")
    s = s.replace("tfrac", "frac").replace("dfrac", "frac").replace("\\left", "").replace("\\right", "")
    without_unit = _OC_TRAILING_TEXT.sub("", s).strip()
    if without_unit and without_unit != s:
        s = without_unit
    s = s.replace("^{\\circ}", "").replace("^\\circ", "").replace("\\$", "").replace("$", "")
    s = s.replace("\\text", "").replace("x\\in", "")
    s = s.replace("\\%", "").replace("%", "")
    s = s.replace(" .", " 0.").replace("{.", "{0.").replace("\\cdot", "")
    s = s.replace("infinity", "\\infty")
    if "\\infty" not in s:
        s = s.replace("inf", "\\infty")
    s = s.replace("+\\inity", "\\infty").replace("and", "").replace("\\mathbf", "")
    s = _OC_MBOX.sub("", s)
    if "j" in s and "i" not in s:
        s = s.replace("j", "i")
    s = _OC_ZEROS_BEFORE.sub(r"\1\2", s)
    s = _OC_ZEROS_END.sub(r"\1", s)
    if not s:
        return s
    if s[0] == ".":
        s = "0" + s
    s = _oc_drop_short_lhs(s)
    s = _OC_SQRT_WORD.sub(r"\\sqrt{\1}", s)
    s = s.replace(" ", "")
    s = _oc_fix_fracs(s)
    return _oc_fix_a_slash_b(s)


def _oc_normalize(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("not text")
    return normalize_final_answer(value)


def opencompass_math_equiv(pred: Any, ref: Any, version: str = "v1") -> bool:
    """OpenCompass 0.5.4's ``MATHEvaluator.is_equiv``, exactly.

    Both sides are stripped (the ``v1`` or ``v2`` rules) and compared, then
    compared again after :func:`~assay.postprocess.math.normalize_final_answer`;
    a step that fails (OpenCompass's rules raise on texts such as ``'1/x'`` or
    a trailing ``\\sqrt``) passes to the next: both raw sides normalized, and
    last plain equality.  Two ``None`` are equivalent (OpenCompass prints a
    warning), one ``None`` is not.  OpenCompass behaviour reproduced: purely
    string rules (``0.5`` equals ``\\frac{1}{2}`` only under ``v1``; ``3.0``
    equals ``3`` only under ``v2``); ``v2`` rewrites every ``j`` to ``i`` in
    a text without an ``i`` and removes every ``and``.
    :func:`is_math_equiv` is assay's comparison (it also compares numbers).

    >>> opencompass_math_equiv('\\\\dfrac{1}{2}', '0.5')
    True
    >>> opencompass_math_equiv('3.0', '3'), opencompass_math_equiv('3.0', '3', 'v2')
    (False, True)
    """
    if pred is None and ref is None:
        return True
    if pred is None or ref is None:
        return False
    strip = _oc_strip_v1 if version == "v1" else _oc_strip_v2
    try:
        a, b = strip(pred), strip(ref)
        if a == b:
            return True
        if _oc_normalize(a) == _oc_normalize(b):
            return True
    except Exception:  # OpenCompass passes over any failure of these rules
        pass
    try:
        if _oc_normalize(pred) == _oc_normalize(ref):
            return True
    except Exception:
        pass
    return bool(pred == ref)


@ICL_EVALUATORS.register_module()
class MATHEvaluator(BaseEvaluator):
    """MATH accuracy by OpenCompass 0.5.4's string equivalence (:func:`opencompass_math_equiv`).

    Inputs: ``predictions`` (usually after ``math_postprocess_v2``) and
    ``references``.  ``version`` is ``'v1'`` or ``'v2'``, as in OpenCompass.
    Metric: ``accuracy`` in [0, 100].  Details: ``pred``, ``answer``,
    ``correct``.  Limitation: purely syntactic — ``\\frac{2}{4}`` and
    ``\\frac{1}{2}`` differ; use :class:`MATHVerifyEvaluator` for symbolic
    equivalence.

    >>> MATHEvaluator().score(['\\\\frac12', '7'], ['\\\\frac{1}{2}', '8'])['accuracy']
    50.0
    """

    sample_decomposable = True

    def __init__(self, version: str = "v1", pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if version not in ("v1", "v2"):
            raise ValueError(f"MATHEvaluator: version must be 'v1' or 'v2', got {version!r}")
        self.version = version

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return score_pairs(
            self, predictions, references, lambda pred, ref: (pred, opencompass_math_equiv(pred, ref, self.version))
        )


@ICL_EVALUATORS.register_module()
class MATHVerifyEvaluator(BaseEvaluator):
    """Math accuracy by symbolic equivalence with math-verify.

    Inputs: ``predictions`` (whole replies, or extracted answers) and
    ``references`` (answers in LaTeX or plain form; wrapped in ``$…$`` when
    they have no math delimiters).  Both are parsed by math-verify, then
    compared with ``verify`` (equal values, expressions, sets, intervals…).
    Metric: ``accuracy`` in [0, 100], over *all* samples.

    Details per sample: ``pred`` and ``answer`` (the parsed forms),
    ``correct`` and ``status``, one of ``correct``, ``wrong``,
    ``pred_unparsable`` (no answer found in the reply), ``gold_unparsable``
    (the reference could not be parsed: the sample is recorded and counts as
    not correct — OpenCompass skips it silently and misaligns its details),
    ``timeout`` and ``error``.  A summary of non-verdicts is logged.

    Each sample's parse and verify run in a worker process bounded by
    ``timeout`` seconds (default 10); a worker that overruns is killed and
    replaced, so one pathological sample cannot hang the run.  ``workers``
    processes (default: up to 4, no more than the CPUs) share the batch.

    >>> MATHVerifyEvaluator().score(['so $\\\\boxed{\\\\frac{1}{2}}$', 'it is 3'], ['0.5', '4'])['accuracy']
    50.0
    """

    sample_decomposable = True

    def __init__(self, timeout: float = 10.0, workers: int | None = None, pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if timeout <= 0:
            raise ValueError(f"MATHVerifyEvaluator: timeout must be positive, got {timeout!r}")
        self.timeout = float(timeout)
        self.workers = workers if workers is not None else max(1, min(4, os.cpu_count() or 1))

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        if importlib.util.find_spec("math_verify") is None:
            return {"error": "MATHVerifyEvaluator: the math-verify package is not installed (pip install math-verify)"}
        from assay.evaluators._mathverify_worker import run_checks

        items = [("" if r is None else str(r), "" if p is None else str(p)) for p, r in zip(predictions, references)]
        outcomes = run_checks(items, workers=self.workers, timeout=self.timeout)
        details = []
        for (_gold, _pred), outcome in zip(items, outcomes):
            detail: dict[str, Any] = {
                "pred": outcome.pred,
                "answer": outcome.answer or _gold,
                "correct": outcome.correct,
                "status": outcome.status,
            }
            if outcome.message:
                detail["message"] = outcome.message
            details.append(detail)
        tally = Counter(o.status for o in outcomes)
        unusual = {k: v for k, v in tally.items() if k not in ("correct", "wrong", "pred_unparsable")}
        if unusual:
            logger.warning("MATHVerifyEvaluator: %d samples without a verdict: %s", sum(unusual.values()), dict(unusual))
        correct = tally.get("correct", 0)
        return {"accuracy": percent(correct, len(predictions)), "details": details}
