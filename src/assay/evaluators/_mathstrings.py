"""MATH answer strings as OpenCompass 0.5.4 handles them (private).

Three pieces, each computing what OpenCompass's ``opencompass/datasets/math.py``
computes, quirks included:

* :func:`extract_boxed_answer` — the content of the last ``\\boxed{…}`` (how
  ``MATHDataset`` reads the reference out of a solution);
* :func:`normalize_final_answer` — OpenCompass's string normalization of a
  final answer (a fixed list of replacements and removals, then regexes);
* :func:`math_is_equiv` — ``MATHEvaluator.is_equiv`` with its two versions of
  the MATH benchmark's ``strip_string``.

They are kept apart from the postprocessors of :mod:`assay.postprocess.math`
so that the evaluators and loaders named after OpenCompass's give its numbers.
"""

from __future__ import annotations

import logging
import re
from typing import Any

__all__: list[str] = []

logger = logging.getLogger(__name__)


# -- the last \boxed{...} -------------------------------------------------------


def last_boxed_only_string(text: str) -> str | None:
    """``\\boxed{…}`` (or ``\\fbox{…}``) from its last occurrence through its closing brace, or ``None``.

    The search starts at the *last* ``\\boxed`` (``\\fbox`` only when there is
    no ``\\boxed``) and counts braces from there, so ``\\boxed 5`` borrows the
    next braced group, and an unclosed last box gives ``None`` even when an
    earlier box is complete.

    >>> last_boxed_only_string(r'a \\boxed{1} b \\boxed{\\frac{1}{2}} c')
    '\\\\boxed{\\\\frac{1}{2}}'
    >>> last_boxed_only_string('none') is None
    True
    """
    start = text.rfind("\\boxed")
    if start < 0:
        start = text.rfind("\\fbox")
        if start < 0:
            return None
    depth = 0
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return None


def remove_boxed(boxed: str) -> str | None:
    """The inside of ``\\boxed{…}``; ``None`` for anything else (``\\fbox{…}`` included)."""
    prefix = "\\boxed{"
    if boxed.startswith(prefix) and boxed.endswith("}") and len(boxed) >= len(prefix) + 1:
        return boxed[len(prefix) : -1]
    return None


_DOUBLE_BRACES = re.compile(r"^\{(.*)\}$")


def extract_boxed_answer(text: str, strip_double_curly_brace: bool = False) -> str | None:
    """The content of the last ``\\boxed{…}`` of ``text``, or ``None``.

    With ``strip_double_curly_brace``, ``{x}`` becomes ``x`` (one level; a
    newline inside stops it, as ``.`` does not match it).

    >>> extract_boxed_answer(r'so $\\boxed{{5}}$', strip_double_curly_brace=True)
    '5'
    >>> extract_boxed_answer(r'\\fbox{5}') is None
    True
    """
    boxed = last_boxed_only_string(text)
    if boxed is None:
        return None
    answer = remove_boxed(boxed)
    if answer is None:
        return None
    if strip_double_curly_brace:
        m = _DOUBLE_BRACES.match(answer)
        if m:
            answer = m.group(1)
    return answer


# -- normalize_final_answer ---------------------------------------------------------

_SUBSTITUTIONS = (
    ("an ", ""), ("a ", ""), (".$", "$"), ("\\$", ""), ("\\ ", ""), (" ", ""), ("mbox", "text"),
    (",\\text{and}", ","), ("\\text{and}", ","), ("\\text{m}", "\\text{}"), ("\\le", "<"),
)
_REMOVED = (
    "square", "ways", "integers", "dollars", "mph", "inches", "ft", "hours", "km", "units", "\\ldots", "sue",
    "points", "feet", "minutes", "digits", "cents", "degrees", "cm", "gm", "pounds", "meters", "meals", "edges",
    "students", "childrentickets", "multiples", "\\text{s}", "\\text{.}", "\\text{\ns}", "\\text{}^2",
    "\\text{}^3", "\\text{\n}", "\\text{}", "\\mathrm{th}", "^\\circ", "^{\\circ}", "\\;", ",\\!", "{,}", '"',
    "\\dots", "\n", "\r", "\f",
)
_TEXT_PAREN = re.compile(r"(\\text\{)\((.*?)\)(\})")
_TEXT = re.compile(r"(\\text\{)(.*?)(\})")
_TEXTBF = re.compile(r"(\\textbf\{)(.*?)(\})")
_OVERLINE = re.compile(r"(\\overline\{)(.*?)(\})")
_BOXED_GREEDY = re.compile(r"(\\boxed\{)(.*)(\})")
_FINAL_ANSWER_IS = re.compile(r"finalansweris(.*)")
_ANSWER_IS = re.compile(r"answer?is:?(.*)")
_OXED = re.compile(r"oxed\{(.*?)\}")
_DOLLARS = re.compile(r"\$(.*?)\$")
_FRAC_SHORT = re.compile(r"(frac)([^{])(.)")
_SQRT_SHORT = re.compile(r"(sqrt)([^{])")


def normalize_final_answer(final_answer: str) -> str:
    """OpenCompass 0.5.4's ``normalize_final_answer`` (``opencompass/datasets/math.py``).

    Plain substring replacements in a fixed order (so ``'a '`` is removed from
    inside words: ``'area '`` loses its ``a ``; every space goes; unit words
    such as ``ft`` or ``cm`` are removed wherever they occur, inside words
    too), then: ``\\text{}``/``\\textbf{}``/``\\overline{}``/``\\boxed{}``
    unwrapped; the text after the last "finalansweris" / "answeris"; the last
    ``oxed{…}`` and the last ``$…$``; ``rac`` → ``\\frac`` when there is no
    ``\\frac`` (so ``\\dfrac`` becomes ``\\df\\frac``, an OpenCompass bug kept here); ``\\fracab`` → ``\\frac{a}{b}`` and ``\\sqrta`` → ``\\sqrt{a}``;
    ``$`` removed; commas dropped from a number made only of digits and commas.
    A non-string raises ``AttributeError``, as in OpenCompass.

    >>> normalize_final_answer('The final answer is $1,000$ dollars')
    '1000'
    >>> normalize_final_answer('x = \\\\dfrac12')
    'x=\\\\df\\\\frac{1}{2}'
    """
    s = final_answer
    for before, after in _SUBSTITUTIONS:
        s = s.replace(before, after)
    for expr in _REMOVED:
        s = s.replace(expr, "")
    s = _TEXT_PAREN.sub(r"\2", s)
    s = _TEXT.sub(r"\2", s)
    s = _TEXTBF.sub(r"\2", s)
    s = _OVERLINE.sub(r"\2", s)
    s = _BOXED_GREEDY.sub(r"\2", s)
    for pattern in (_FINAL_ANSWER_IS, _ANSWER_IS, _OXED, _DOLLARS):
        found = pattern.findall(s)
        if found:
            s = found[-1]
    s = s.strip()
    if "rac" in s and "\\frac" not in s:
        s = s.replace("rac", "\\frac")
    s = _FRAC_SHORT.sub(r"frac{\2}{\3}", s)
    s = _SQRT_SHORT.sub(r"sqrt{\2}", s)
    s = s.replace("$", "")
    if s.replace(",", "").isdigit():
        s = s.replace(",", "")
    return s


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
        if a == b or normalize_final_answer(a) == normalize_final_answer(b):
            return True
    except Exception:
        pass
    try:
        if normalize_final_answer(pred) == normalize_final_answer(ref):
            return True
    except Exception:
        pass
    return bool(pred == ref)


_ANSWER_SENTENCE = re.compile("final answer|answer is")


def math_postprocess_v2(text: str) -> str:
    """OpenCompass 0.5.4's ``math_postprocess_v2``: the last ``\\boxed{}`` (outer braces stripped), else
    the first ``.``-separated piece saying "final answer"/"answer is", else the first piece — the
    latter two through :func:`normalize_final_answer`.

    >>> math_postprocess_v2(r'so $\\boxed{{\\frac{1}{2}}}$'), math_postprocess_v2('The answer is 3.5 apples')
    ('\\\\frac{1}{2}', '3')
    """
    boxed = extract_boxed_answer(text, strip_double_curly_brace=True)
    if boxed:
        return boxed
    pieces = text.split(".")
    for piece in pieces:
        if _ANSWER_SENTENCE.search(piece.lower()):
            return normalize_final_answer(piece)
    return normalize_final_answer(pieces[0])
