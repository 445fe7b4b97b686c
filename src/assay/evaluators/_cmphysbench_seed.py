"""CMPhysBench's scalable expression edit distance (SEED) as OpenCompass 0.5.4 computes it (private).

Runs in the worker processes of :class:`assay.evaluators.cmphysbench.CMPhysBenchEvaluator`
(SymPy imported there, never in the calling process).  :func:`seed` scores a
model's answer against a reference LaTeX answer of a given type:

* ``Tuple``: both sides read as bracketed, comma-separated lists (a ``(keys) =
  (values)`` form keeps the values); the lists must have the same length, and the
  score is the mean of the elements' ``Expression`` scores.
* ``Interval``: a side of the form ``[a, b)`` (``\\left``/``\\right`` allowed) is
  rewritten as the arithmetic ``2*a+b*3`` (``1*`` for an open left end, ``*4``
  for a closed right one) and scored as an expression.
* ``Numeric``: each side's first number (with ``e`` or ``\\times 10^{…}``
  exponent; the right side of ``=``, ``\\approx``, ``\\sim``, ``\\simeq``,
  ``\\propto`` first) is kept; when either side has letters and ``pint`` is
  installed, both are first converted to the model answer's unit.  The score is
  100, 90 or 80 within 0.5 %, 1 % or 2 % (relative to the *model's* value, as
  OpenCompass's evaluator passes its arguments), else 0; 0 for opposite signs.
* ``Equation``: each side ``A = B`` becomes ``A - B`` (in fact the difference of
  the expression's first two arguments, whatever it is); also 100 when the two
  differences add up to 0.
* anything else (``Expression``, and CMPhysBench's topics, which is what the
  library configs pass): an expression.

Expressions are cleaned in two stages (:func:`first_stage`, :func:`second_stage`),
converted by latex2sympy2_extended, simplified and compared: 100 when SymPy finds
them equal, else ``max(0, 60 - 100 * distance / size)`` of their expression
trees (:func:`assay.evaluators._phybench_eed.tree_distance`, the same discounted
tree edit distance as PHYBench's), ``size`` being the model answer's tree's.
OpenCompass's time limits are kept per step: 10 s for a conversion, 30 s for a
simplification, 10 s for the difference and for ``equals``.

OpenCompass's quirks are kept, among them: a reference equal to the model's
answer as text scores 100 before anything is parsed; commas, ``\\infty`` and
``\\left``/``\\right`` are deleted from expressions; ``I``, ``e_``, ``E_``,
``\\times``, ``;``, ``\\partial`` and others become symbols; ``\\pm`` is ``+``;
the text after the *last-listed* comparison sign is kept (``\\approx`` before
``=``), from one character after it; a text ending in ``.`` skips the last
clean-up steps.  A tree holding a logical ``And``/``Or``/``Not`` has no cost in
OpenCompass's tables and would make its scorer raise ``KeyError`` at the
distance (caught only inside a tuple's element), as :func:`seed` does; no input
is known to get there, SymPy's ``equals`` failing first on logical expressions
(a score of 0).
"""

from __future__ import annotations

import ast
import functools
import math
import operator
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from assay.evaluators._phybench_eed import (
    _LOOSE_FRACTION,
    Node,
    _brace_power_fractions,
    _closing_brace,
    _find_all,
    _loose_fraction,
    _time_limit,
    _unwrap_groups,
    balanced,
    tree_distance,
)

__all__: list[str] = []

CONVERT_SECONDS = 10.0
SIMPLIFY_SECONDS = 30.0
DIFFERENCE_SECONDS = 10.0
EQUALS_SECONDS = 10.0
#: the most bits an integer the quantity reader computes may have (a power or shift is checked before it is
#: computed): Python computes such an integer (``10**315000``) in well under a second, OpenCompass too
QUANTITY_INTEGER_BITS = 1 << 20
#: the largest integer argument of the SymPy functions whose cost grows with it (``N``'s and ``Float``'s
#: precision, ``gamma``, ``factorial``, ``binomial``, ``zeta``); ``zeta`` of an even integer computes a Bernoulli
#: number, slower still: its bound is lower
QUANTITY_SYMPY_ARGUMENTS: dict[str, int] = {"N": 10**5, "Float": 10**5, "gamma": 10**5, "factorial": 10**5,
                                            "binomial": 10**5, "zeta": 10**4}
#: the most bits the integer power of a SymPy value other than a rational or a rational's root may have
#: (``pi**n``'s numeric value costs SymPy about ``n``'s bits squared)
QUANTITY_SYMPY_EXPONENT_BITS = 1 << 12


class QuantityBoundError(ArithmeticError):
    """A quantity asks for an integer past the quantity reader's bounds, which OpenCompass computes until its
    sample timeout."""


# -- LaTeX clean-up: the first stage ---------------------------------------------------------------------------


def remove_command(text: str, command: str, keep_inside: bool) -> str:
    """Every ``command{…}`` removed, the group's content kept or not (the kept content is not searched again).

    The command is matched as plain text (``\\text`` also in ``\\textbf``).  Not
    followed by ``{``, the command alone goes; followed by an unclosed ``{``, the
    command and that brace stay and the search goes on after them.
    """
    parts: list[str] = []
    at = 0
    while True:
        pos = text.find(command, at)
        if pos == -1:
            parts.append(text[at:])
            return "".join(parts)
        parts.append(text[at:pos])
        brace = pos + len(command)
        if brace < len(text) and text[brace] == "{":
            close = _closing_brace(text, brace)
            if close == len(text):
                parts.append(text[pos : brace + 1])
                at = brace + 1
            else:
                if keep_inside:
                    parts.append(text[brace + 1 : close])
                at = close + 1
        else:
            at = brace


_LAST_SIGNS = ("\\approx", "\\ge", "\\le", "\\geq", "\\leq", "=")


def after_last_sign(text: str) -> str:
    """The text after the last-listed comparison sign present, from one character after its last position.

    A last ``\\le`` that is the start of ``\\left`` is passed over (the earlier
    signs' result then stands).
    """
    content = text
    for sign in _LAST_SIGNS:
        if sign in text:
            at = text.rfind(sign)
            if sign == "\\le" and text[at : at + 5] == "\\left":
                continue
            content = text[at + 1 :]
    return content.strip()


def first_stage(text: str, kind: str) -> str:
    """``\\{``/``\\}`` as parentheses (and ``\\approx`` as ``=`` for ``Expression`` and ``Equation``); if the brackets
    balance: every ``\\boxed`` unwrapped, lone groups unwrapped, the part before ``\\quad``, the text after the last
    comparison (not for ``Equation``), lone groups unwrapped."""
    text = text.replace("\\{", "(").replace("\\}", ")")
    if kind in ("Expression", "Equation"):
        text = text.replace("\\approx", "=")
    if not balanced(text):
        return text
    # an unclosed brace group left with no "}" after it: TypeError, as OpenCompass's next step fails
    text = _unwrap_groups(remove_command(text, "\\boxed", keep_inside=True), TypeError)
    if "\\quad" in text:
        text = text.split("\\quad")[0]
    if kind != "Equation":
        text = after_last_sign(text)
    return _unwrap_groups(text, TypeError)


# -- LaTeX clean-up: the second stage --------------------------------------------------------------------------

_SUPER_BEFORE_SUB = re.compile(r"([a-zA-Z\\]+)(\^\{[^}]+\})(_\{[^}]+\})")
_VARIABLE = r"([a-zA-Z0-9_\\]+(?:_\{[^}]+\})?(?:\^\{[^}]+\})?)"
_MATRIX_WORDS = tuple(f"\\{edge}{{{name}}}" for name in ("pmatrix", "bmatrix", "matrix", "vmatrix", "Vmatrix")
                      for edge in ("begin", "end"))
_KILLED = ("\\begin", "\\end")
_UNWRAPPED = ("\\text", "\\mathbf", "\\mathrm", "\\mathscr", "\\mathcal", "\\mathfrak", "\\pmb", "\\hat", "\\overline",
              "\\boldsymbol", "\\mathbb")
_DROPPED = ("\\,", "$", ",", "`", "latex", "\\left", "\\right", "\\text", "\\mathrm", "\\Bigr", "\\Bigl", "\n", "\\]",
            "\\[", "\\Big", "\\bigl", "\\bigr", "\\biggl", "\\biggr", "\\displaystyle", "\\boldsymbol", "\\infty")
_RENAMED = (
    ("\\operatorname{asin}", "\\asin"), ("\\operatorname{sech}", "\\sech"), ("\\operatorname{acos}", "\\acos"),
    ("\\operatorname{sinh}", "\\sinh"), ("\\operatorname{rot}", "\\bar{rot}"), ("\\dfrac", "\\frac"),
    ("\\tfrac", "\\frac"), ("\\Exp", "\\exp"), ("\\gg", ">"), ("\\ll", "<"), ("\\times", "\\bar{times}"),
    ("\\dagger", "\\bar{dagger}"), ("\\operatorname{dim}", "\\bar{dim}"), ("\\overleftarrow", "\\bar{overleftarrow}"),
    (";", "\\bar{CD}"), ("\\partial", "\\bar{partial}"), ("\\perp", "\\bar{perp}"), ("\\parallel", "\\bar{parallel}"),
    ("\\|", "\\bar{parallel}"), ("\\epsilon", "\\varepsilon"), ("\\varOmega", "\\Omega"), ("I", "\\bar{I}"),
    ("_e", "_{e}"), ("e_", "\\bar{e}_"), ("E_", "\\bar{E}_"), ("\\pm", "+"), ("\\mp", "-"), ("{+}", "{p}"),
    ("{-}", "{m}"), ("_+", "_p"), ("_-", "_m"),
)
_TEXT_GROUP = re.compile(r"\\text\s*{([^{}]*)}")
_DERIVATIVE_FRACTION = re.compile(r"\\frac\{d(\\?[a-zA-Z]+)(_\{?[a-zA-Z0-9]+\}?)?\}\{d(\\?[a-zA-Z]+)(_\{?[a-zA-Z0-9]+\}?)?\}")


def _super_after_sub(text: str) -> str:
    """``base^{sup}_{sub}`` as ``base_{sub}^{sup}``, until nothing changes."""
    while True:
        new = _SUPER_BEFORE_SUB.sub(r"\1\3\2", text)
        if new == text:
            return text
        text = new


def _hermitian_conjugate(match: re.Match[str]) -> str:
    return "h_c" if match.group(1).strip().lower().replace(" ", "") in ("h.c.", "h.c") else match.group(0)


def _carets(match: re.Match[str]) -> str:
    count = len(match.group(2))
    return f"{match.group(1)}''" if count == 2 else f"{match.group(1)}^{{({count})}}"


def _superscripts(text: str) -> str:
    """``^+``, ``^-`` braced; ``^*``, ``^{*}``, ``^{\\ast}`` as ``^{star}``; a ``^`` with nothing usable after it as
    ``^{prime}``."""
    text = re.sub(_VARIABLE + r"\^\+", r"\1^{+}", text)
    text = re.sub(_VARIABLE + r"\^\-", r"\1^{-}", text)
    text = re.sub(_VARIABLE + r"\^\*", r"\1^{star}", text)
    text = re.sub(_VARIABLE + r"\^\{(\\ast|\*)\}", r"\1^{star}", text)
    text = re.sub(r"\^\{(\\ast|\*)\}", r"^{star}", text)
    return re.sub(_VARIABLE + r"\^(?![\{\\a-zA-Z0-9])", r"\1^{prime}", text)


def _unbar_vectors(text: str) -> str:
    """Every ``\\bar`` removed (content kept) inside each ``\\vec{…}``."""
    for n in range(len(_find_all(text, "\\vec{"))):
        brace = _find_all(text, "\\vec{")[n] + 4
        end = _closing_brace(text, brace)
        text = text[: brace + 1] + remove_command(text[brace + 1 : end], "\\bar", keep_inside=True) + text[end:]
    return text


def _derivative_fraction(match: re.Match[str]) -> str:
    def plain(part: str | None) -> str:
        return (part or "").replace("\\", "").replace("{", "").replace("}", "")

    return f"\\frac{{D{plain(match.group(1))}{plain(match.group(2))}}}{{D{plain(match.group(3))}{plain(match.group(4))}}}"


def _bracket_subscripts(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each matched bracket pair followed by ``_`` and its subscript, in closing order."""
    found: list[tuple[int, int]] = []
    stack: list[tuple[int, str]] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "({[":
            stack.append((i, ch))
        elif ch in ")}]" and stack:
            start, opening = stack.pop()
            if opening + ch in ("()", "[]", "{}") and i + 1 < len(text) and text[i + 1] == "_":
                k = i + 2
                if k < len(text) and text[k] == "{":
                    k += 1
                    while k < len(text) and text[k] != "}":
                        k += 1
                k += 1
                found.append((start, k))
        i += 1
    return found


def _number_bracket_subscripts(text: str) -> str:
    """Each ``(…)_x`` gets a counter before its first ``_`` (``(a)1_x``), the last-starting one numbered 1.

    As in OpenCompass, each match's text and span are taken from the original string, and the numbered text
    replaces that span of the string as rewritten so far. Once an inner match (numbered first) has grown the text
    by its counter, an enclosing match's splice re-inserts the original inner text (dropping the inner counter,
    numbering the first ``_`` it holds, the inner one) and, ending one character early per inner counter, leaves
    the last character behind it: ``((a)_b)_c`` becomes ``((a)2_b)_cc``.
    """
    original = text
    for counter, (start, end) in enumerate(sorted(_bracket_subscripts(original), reverse=True), start=1):
        part = original[start:end].replace("_", f"{counter}_", 1)
        text = text[:start] + part + text[end:]
    return text


def _explicit_products(text: str) -> str:
    text = re.sub(r"(\\frac\{[^}]+\}\{[^}]+\})(?=\\[a-zA-Z]|[a-zA-Z0-9])", r"\1 \\cdot ", text)
    return re.sub(r"(\})((\d|[a-zA-Z])_?[a-zA-Z]?\^?[a-zA-Z]?)", r"\1 \\cdot \2", text)


def second_stage(text: str) -> str:
    """Physics notation made plain symbols (primes, stars, daggers, dots, bras and kets, ``h.c.``, Feynman
    slashes), formatting commands unwrapped, spacing and sizing text dropped, symbols renamed, fractions, vectors,
    derivatives and bracket subscripts rewritten, products made explicit."""
    text = _super_after_sub(text)
    text = re.sub(r"([a-zA-Z]+)'(?=\()", r"\1^{prime}", text)
    text = re.sub(r"([a-zA-Z]+)'(?=\s|$|[^a-zA-Z(])", r"\1^{prime}", text)
    text = re.sub(r"(\{[a-zA-Z]+\})'", r"\1^{prime}", text)
    text = text.replace("·", "").replace("\\operatorname{Im}", "Im")
    text = re.sub(r"\\langle\s*(.+?)\s*\\rangle", r"{\1}", text)
    text = re.sub(r"\|\s*(.+?)\s*\\rangle", r"\1", text)
    text = text.replace("\\sim", 'Symbol("sim")')
    text = re.sub(r"\\bar\{([^{}]+)\}", r"\1", text)
    text = _TEXT_GROUP.sub(_hermitian_conjugate, text)
    text = re.sub(r"([a-zA-Z\\]+|\([^)]+\)|\{[^}]+\})\^\{\*(\d+)\}", r"(\1^*)^\2", text)
    text = re.sub(r"([a-zA-Z]+)(\^{2,})", _carets, text)
    text = _superscripts(text)
    text = re.sub(r"_(?![{\\])([A-Za-z])", r"_{\1}", text)
    text = re.sub(r"V_\{CKM\}\^\{([^\}]*?)\*\}", r"V_{CKM}^\1", text)
    text = re.sub(r"\+\s*(\\text)", r"\1", text)
    text = re.sub(r"\\text\{[^{}]*\}", "1", text)
    text = re.sub(r"\(([^)]+)\)_\{([^}]+)\}", r"\1_{\2}", text)
    text = re.sub(r"\bd([A-Z])_", r"d\1UNDERSCORE", text)
    text = re.sub(r"\bd\\mathbf\{([A-Z])\}_", r"d\\mathbf{\1}UNDERSCORE", text)
    text = re.sub(r"\\ddot\{([^}]+)\}", r"\1_{ddot}", text)
    text = re.sub(r"\\ddot([A-Za-z]+)", r"\1_{ddot}", text)
    text = re.sub(r"\\dot\{([^}]+)\}", r"\1_{dot}", text)
    text = re.sub(r"\\dot([A-Za-z]+)", r"\1_{dot}", text)
    if not any(word in text for word in _MATRIX_WORDS):
        for command in _KILLED:
            text = remove_command(text, command, keep_inside=False)
    for command in _UNWRAPPED:
        text = remove_command(text, command, keep_inside=True)
    for dropped in _DROPPED:
        text = text.replace(dropped, "")
    for old, new in _RENAMED:
        text = text.replace(old, new)
    if "\\lim" in text:
        text = text.replace("arrow", "\\rightarrow")
    else:
        text = re.sub(r"\barrow\b", r"\\bar{arrow}", text)
    text = re.sub(r"d([A-Z])UNDERSCORE", r"d*\1_", text)
    text = re.sub(r"d\\mathbf\{([A-Z])\}UNDERSCORE", r"d*\\mathbf{\1}_", text)
    text = re.sub(r"\\not\{([^{}]+)\}", r"\\bar{\1slash}", text)
    text = _LOOSE_FRACTION.sub(_loose_fraction, text)
    text = re.sub(r"d\*([A-Z])_({?[a-zA-Z0-9]+}?)", r"d{\1}_\2", text)
    text = _unbar_vectors(text)
    text = re.sub(r"\\vec\{([^{}]+)_\{([^{}]+)\}\}", r"\\vec{\1}_{\2}", text)
    text = re.sub(r"\\vec(\s*)(\\?[a-zA-Zα-ωΑ-Ω]+)", r"\\vec{\2}", text)
    text = _brace_power_fractions(text)
    if text.endswith("."):
        return text[:-1]
    text = text.replace("\\varkappa", "\\kappa")
    text = _DERIVATIVE_FRACTION.sub(_derivative_fraction, text)
    text = re.sub(r"[\u4e00-\u9fa5]+", lambda m: "1" * len(m.group()), text)
    text = re.sub(r"(?<!\\frac{)d(\\[A-Za-z0-9_]+)", r"d(\1)", text)
    text = _number_bracket_subscripts(text)
    text = _explicit_products(text)
    return text.replace("Å", "A")


def _latex_to_sympy(text: str, kind: str) -> Any:
    from latex2sympy2_extended import latex2sympy
    from latex2sympy2_extended.latex2sympy2 import ConversionConfig
    from latex2sympy2_extended.math_normalization import NormalizationConfig

    normalization = NormalizationConfig(basic_latex=True, units=False, malformed_operators=True, nits=True, boxed="all",
                                        equations=False)
    conversion = ConversionConfig(interpret_as_mixed_fractions=False, interpret_simple_eq_as_assignment=False,
                                  interpret_contains_as_eq=True, lowercase_symbols=False)
    cleaned = second_stage(first_stage(text.replace("~", ""), kind))
    return latex2sympy(cleaned, normalization_config=normalization, conversion_config=conversion)


def to_sympy(text: str, kind: str) -> Any:
    """Both stages and latex2sympy2_extended with OpenCompass's settings, within 10 s; ``None`` on any failure."""
    try:
        with _time_limit(CONVERT_SECONDS):
            return _latex_to_sympy(text, kind)
    except Exception:
        return None


# -- the type readers ----------------------------------------------------------------------------------------

_INTERVAL = re.compile(r"^\s*(?:\\left)?\s*([\(\[])\s*(.*?)\s*,\s*(.*?)\s*(?:\\right)?\s*([\)\]])\s*$")
_WRAPPED = re.compile(r"^(\(.*\)|\[.*\]|\\\(.*\\\)|\\\[.*\\\]|\\\\left\(.*\\\\right\)|\\\\left\[.*\\\\right\]|\$.*\$)$")
_NUMBER = re.compile(r"([-+]?\s*(?:\d+\.?\d*|\.\d+)\s*(?:(?:e|E)\s*[-+]?\s*\d+|\\\\?times\s*10\^\{?[-+]?\d+\}?)?)")
_RIGHT_OF_SIGN = re.compile(r".*?(?:=|\\approx|\\sim|\\simeq|\\propto)\s*(.*)")
_UNIT_WRAPPER = re.compile(r"\\(mathrm|text|operatorname)\{([^{}]*(\{[^{}]*\}[^{}]*)*)\}")


def judge_interval(text: str) -> tuple[bool, str]:
    """``(True, arithmetic)`` for an interval ``[a, b)`` (``$`` removed; ``2*``/``1*`` for a closed/open left end,
    ``*4``/``*3`` for a closed/open right end: ``2*a+b*3``), else ``(False, text)``."""
    text = text.replace("$", "")
    match = _INTERVAL.match(text)
    if not match:
        return False, text
    left, lower, upper, right = match.groups()
    return True, ("2*" if left == "[" else "1*") + lower + "+" + upper + ("*4" if right == "]" else "*3")


def _strip_dollars(text: str) -> str:
    text = text.strip()
    if text.startswith("$$") and text.endswith("$$"):
        return text[2:-2].strip()
    if text.startswith("$") and text.endswith("$"):
        return text[1:-1].strip()
    return text


def _wrapped(text: str) -> bool:
    return _WRAPPED.match(text.strip()) is not None


def extract_tuple(text: str) -> dict[str, str]:
    """A tuple's elements by position (``{'0': …, '1': …}``), the values of ``(keys) = (values)``; ``{}`` if the text
    is not wrapped in brackets, ``\\(…\\)``, ``\\[…\\]`` or ``$…$``.  Elements are split at every comma, nested or not."""
    text = _strip_dollars(text.strip()).replace("\\left", "").replace("\\right", "")
    depth = 0
    for i, ch in enumerate(text):
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        elif ch == "=" and depth == 0:
            left, right = text[:i].strip(), text[i + 1 :].strip()
            if _wrapped(left) and _wrapped(right):
                text = right
            break
    if not _wrapped(text):
        return {}
    text = re.sub(r"^\\left\(|^\(", "", text.strip())
    text = re.sub(r"\\right\)$|\)$", "", text)
    return {str(i): part.strip() for i, part in enumerate(text.split(","))}


def extract_numeric_part(text: Any) -> str:
    """The first number of the text (after ``=``, ``\\approx``, ``\\sim``, ``\\simeq`` or ``\\propto`` if any), its
    ``\\times`` written ``*``; the text itself (math delimiters stripped) when it has none; ``''`` for no text."""
    if not isinstance(text, str) or not text:
        return ""
    text = text.strip()
    if text.startswith("$") and text.endswith("$"):
        text = text.strip("$").strip()
    if text.startswith("\\(") and text.endswith("\\)"):
        text = text[2:-2].strip()
    if text.startswith("\\[") and text.endswith("\\]"):
        text = text[2:-2].strip()
    match = _RIGHT_OF_SIGN.search(text)
    if match:
        text = match.group(1).strip()
    number = _NUMBER.search(text)
    if not number:
        return text
    return number.group(0).replace("\\\\times", "*").replace("\\times", "*").strip()


def clean_unit(unit: str) -> str:
    """``\\mathrm{…}``, ``\\text{…}``, ``\\operatorname{…}`` unwrapped (repeatedly), one outer brace pair removed."""
    previous = None
    while previous != unit:
        previous = unit
        unit = _UNIT_WRAPPER.sub(r"\2", unit)
    if unit.startswith("{") and unit.endswith("}"):
        unit = unit[1:-1]
    return unit.strip()


_OPERATORS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.Pow: operator.pow, ast.Mod: operator.mod, ast.FloorDiv: operator.floordiv, ast.MatMult: operator.matmul,
    ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitAnd: operator.and_, ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
}
_UNARY: dict[type, Callable[[Any], Any]] = {
    ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_, ast.Invert: operator.invert,
}
_COMPARISONS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
    ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
}

#: SymPy's constants, as ``from sympy import *`` names them
_SYMPY_CONSTANTS = ("pi", "E", "I", "oo", "zoo", "nan", "EulerGamma", "Catalan", "GoldenRatio", "TribonacciConstant",
                    "true", "false")
#: SymPy's numeric functions and number classes a quantity may be written with
_SYMPY_FUNCTIONS = (
    "sqrt", "cbrt", "root", "exp", "log", "ln", "sin", "cos", "tan", "cot", "sec", "csc", "asin", "acos", "atan",
    "acot", "asec", "acsc", "atan2", "sinh", "cosh", "tanh", "coth", "sech", "csch", "asinh", "acosh", "atanh",
    "acoth", "Abs", "sign", "floor", "ceiling", "frac", "im", "arg", "conjugate", "Min", "Max", "gamma",
    "factorial", "binomial", "erf", "erfc", "zeta", "N", "Integer", "Rational", "Float",
)
#: the numbers OpenCompass's SEED module defines at its top level, in the namespace its ``eval`` reads
_SEED_MODULE_NUMBERS: dict[str, Any] = {"change_type_cost": 1, "bar_size": 5, "discount_slope": 0.6,
                                        "simplify_time_limit": 30, "equals_time_limit": 10}


@functools.cache
def _quantity_names() -> dict[str, Any]:
    import sympy

    names: dict[str, Any] = {name: getattr(sympy, name) for name in _SYMPY_CONSTANTS + _SYMPY_FUNCTIONS}
    names.update(_SEED_MODULE_NUMBERS)
    return names


def _holds_text(value: Any) -> bool:
    if isinstance(value, (str, bytes)):
        return True
    return isinstance(value, (list, tuple, set, frozenset)) and any(_holds_text(v) for v in value)


def _plain(value: Any) -> bool:
    """Python's own scalars and containers of them (no SymPy value)."""
    if isinstance(value, (list, tuple, set, frozenset)):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, (str, bytes, bool, int, float, complex))


def _no_text(*values: Any) -> None:
    """Text (also inside a list, tuple or set) never reaches SymPy, which would parse it, running it as code."""
    if any(_holds_text(v) for v in values) and not all(_plain(v) for v in values):
        raise ValueError("text combined with SymPy values")



def _integer(value: Any) -> int | None:
    """``value`` as a Python integer when it is one (``bool`` included) or SymPy's, else ``None``."""
    if isinstance(value, int):
        return int(value)
    from sympy import Integer

    return int(value) if isinstance(value, Integer) else None


def _bits(value: int) -> int:
    return abs(value).bit_length()


def _bounded(value: Any) -> Any:
    """``value``, unless it is an integer of more than :data:`QUANTITY_INTEGER_BITS` bits."""
    number = _integer(value)
    if number is not None and _bits(number) > QUANTITY_INTEGER_BITS:
        raise QuantityBoundError(f"an integer of more than {QUANTITY_INTEGER_BITS} bits")
    return value


def _bound_sympy_argument(function: str, position: int | str, value: Any) -> None:
    """Refuses an integer argument of ``function`` past its bound in :data:`QUANTITY_SYMPY_ARGUMENTS` (for ``N``
    and ``Float`` only the precision, the second argument, counts)."""
    limit = QUANTITY_SYMPY_ARGUMENTS.get(function)
    number = _integer(value)
    if limit is None or number is None or abs(number) <= limit:
        return
    if function in ("N", "Float") and position not in (1, "n", "dps", "precision"):
        return
    raise QuantityBoundError(f"{function}'s argument {_magnitude(number)} is more than {limit}")


def _magnitude(number: int) -> str:
    return str(number) if _bits(number) <= 64 else f"of {_bits(number)} bits"


def _exact_base(value: Any) -> tuple[int, Fraction] | None:
    """``(p, q)`` with ``value`` = ``p ** q`` when ``value`` is a SymPy rational or a rational's rational power
    (``sqrt(2)``), whose integer powers SymPy computes exactly; else ``None``."""
    from sympy import Pow, Rational

    if isinstance(value, Rational):
        return max(abs(value.p), abs(value.q)), Fraction(1)
    if isinstance(value, Pow) and isinstance(value.base, Rational) and isinstance(value.exp, Rational):
        return max(abs(value.base.p), abs(value.base.q)), Fraction(int(value.exp.p), int(value.exp.q))
    return None


def _bound_operation(op: ast.operator, left: Any, right: Any) -> None:
    """Refuses, before it is computed, a power or left shift past the integer bounds: an integer result of at
    least :data:`QUANTITY_INTEGER_BITS` bits (``(bits(b) - 1) * e`` for ``b**e``; a result the estimate misses is
    refused by :func:`_bounded` once computed, at most about twice as large), a SymPy rational (or a rational's
    root) raised to a power whose exact value would pass those bits, or another SymPy value raised to an integer
    of more than :data:`QUANTITY_SYMPY_EXPONENT_BITS` bits."""
    base, exponent = _integer(left), _integer(right)
    if (isinstance(op, ast.LShift) and base and exponent is not None and exponent > 0
            and _bits(base) + exponent > QUANTITY_INTEGER_BITS):
        raise QuantityBoundError(f"an integer of more than {QUANTITY_INTEGER_BITS} bits")
    if not isinstance(op, ast.Pow) or exponent is None:
        return
    if base is None:
        if _plain(left):
            return
        exact = _exact_base(left)
        if exact is None:
            if _bits(exponent) > QUANTITY_SYMPY_EXPONENT_BITS:
                raise QuantityBoundError(f"a power of {_bits(exponent)} bits is more than "
                                         f"{QUANTITY_SYMPY_EXPONENT_BITS} bits")
            return
        root, power = exact
        if root > 1 and abs(exponent * power) * math.log2(root) > QUANTITY_INTEGER_BITS:
            raise QuantityBoundError(f"an integer of more than {QUANTITY_INTEGER_BITS} bits")
        return
    if not isinstance(left, int):  # SymPy's Integer: a negative power is an exact rational
        exponent = abs(exponent)
    if abs(base) > 1 and exponent > 0 and (_bits(base) - 1) * exponent > QUANTITY_INTEGER_BITS:
        raise QuantityBoundError(f"an integer of more than {QUANTITY_INTEGER_BITS} bits")


def _quantity_value(node: ast.AST) -> Any:
    """The value of a numeric part as OpenCompass's ``eval`` gives it in a module that imported all of SymPy:
    Python literals and SymPy's constants (``pi``, ``E``, ``oo``…), numeric functions (``sqrt``, ``exp``,
    ``log``…) and number classes called on them, combined by Python's operators, comparisons, ``and``/``or``/``not``
    and ``… if … else …``; the numbers OpenCompass's SEED module defines (``bar_size`` is 5) too. There ``re`` is
    Python's regular expression module, imported after SymPy's names, so ``re(…)`` raises: not allowed here either.

    Never runs the text as code: any other name (Python's built-ins among them, so ``abs(pi)``, which
    OpenCompass evaluates, is ``ValueError`` here), attribute, subscript or construct is ``ValueError``, and no
    string is handed to SymPy (which would parse it).

    Bounded where OpenCompass is not, for what would take it until its sample timeout: an integer of more than
    :data:`QUANTITY_INTEGER_BITS` bits (``(True+True)**`` towers, ``10**bar_size**bar_size**bar_size``), an
    integer argument past :data:`QUANTITY_SYMPY_ARGUMENTS` (``factorial(5**16)``, ``N(pi, 5**16)``), an exact
    SymPy power past those bits (``sqrt(2)**5**16``) or another SymPy value's power of more than
    :data:`QUANTITY_SYMPY_EXPONENT_BITS` bits (``pi**(2**65536)``) is :class:`QuantityBoundError`, raised before
    it is computed. Below the bounds the text is computed as OpenCompass computes it, also where that fails at
    once: ``3*10**20000`` is too large for ``float`` (``OverflowError``, the unit conversion then skipped) and
    ``exp(5**16)*E**(-5**16)`` is 1.  OpenCompass's timeout scores the sample 0; the error, which :func:`seed` lets
    through, does the same at once."""
    if isinstance(node, ast.Expression):
        return _quantity_value(node.body)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        names = _quantity_names()
        if node.id not in names:
            raise ValueError(f"name {node.id!r} is not defined")
        return names[node.id]
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _bounded(_UNARY[type(node.op)](_quantity_value(node.operand)))
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _quantity_value(node.left), _quantity_value(node.right)
        _no_text(left, right)
        _bound_operation(node.op, left, right)
        return _bounded(_OPERATORS[type(node.op)](left, right))
    if isinstance(node, ast.BoolOp):
        value = _quantity_value(node.values[0])
        for operand in node.values[1:]:
            if bool(value) != isinstance(node.op, ast.And):
                break
            value = _quantity_value(operand)
        return value
    if isinstance(node, ast.Compare) and all(type(op) in _COMPARISONS for op in node.ops):
        left = _quantity_value(node.left)
        result: Any = True
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            right = _quantity_value(comparator)
            _no_text(left, right)
            result = _COMPARISONS[type(op)](left, right)
            if not result:
                return result
            left = right
        return result
    if isinstance(node, ast.IfExp):
        return _quantity_value(node.body if _quantity_value(node.test) else node.orelse)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _SYMPY_FUNCTIONS:
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            raise ValueError("unpacked arguments")
        args = [_quantity_value(a) for a in node.args]
        kwargs = {k.arg: _quantity_value(k.value) for k in node.keywords if k.arg is not None}
        if any(_holds_text(v) for v in [*args, *kwargs.values()]):
            raise ValueError(f"text passed to {node.func.id}")
        for index, value in enumerate(args):
            _bound_sympy_argument(node.func.id, index, value)
        for keyword, value in kwargs.items():
            _bound_sympy_argument(node.func.id, keyword, value)
        return _bounded(_quantity_names()[node.func.id](*args, **kwargs))
    if isinstance(node, ast.Set):
        return {_quantity_value(e) for e in node.elts}
    if isinstance(node, (ast.Tuple, ast.List)):
        items = [_quantity_value(e) for e in node.elts]
        return tuple(items) if isinstance(node, ast.Tuple) else items
    raise ValueError(f"not evaluated: {ast.dump(node)[:80]}")


def parse_quantity(text: str) -> tuple[float, str]:
    """``(value, unit)`` of a quantity such as ``1.5\\times 10^{3}\\,\\mathrm{m/s}``: the value of the first number
    (``10^`` as ``10**``), the unit the text after it, unwrapped and without spacing commands.

    Without a digit the whole text (right of ``=`` and the like) is the numeric part, and OpenCompass evaluates
    it where all of SymPy is imported: ``pi``, ``E``, ``sqrt(pi)``, ``not False`` or ``x = pi`` have a value
    there (``\\pi`` has none). :func:`_quantity_value` gives the same values without running the text."""
    numeric = extract_numeric_part(text)
    clean = re.sub(r"\*\s*10\^", "*10**", numeric)
    try:
        number = float(_quantity_value(ast.parse(clean.strip(" \t"), mode="eval")))
    except QuantityBoundError:
        raise
    except Exception as exc:
        raise ValueError(f"Failed to compute numeric value: {clean}, error: {exc}") from None
    found = re.search(r"[-+]?\s*(?:\d+\.?\d*|\.\d+)\s*(?:(?:e|E)\s*[-+]?\s*\d+|\\\\?times\s*10\^\{?[-+]?\d+\}?)?", text)
    unit = text[found.end() :].strip() if found else ""
    return number, re.sub(r"\\[ ,!quadthinse]*", "", clean_unit(unit))


@functools.cache
def _unit_registry() -> Any:
    """pint's default registry, built once per process (OpenCompass builds one per pair; the units are the same)."""
    import pint

    return pint.UnitRegistry()


def convert_quantities(first: str, second: str) -> tuple[str, str]:
    """Both quantities converted to the first one's unit with ``pint``, each written ``'<magnitude> <unit>'``
    (``ImportError`` without ``pint``; ``pint``'s errors for units it does not know or cannot convert)."""
    import pint  # noqa: F401  # ImportError without pint, even once the registry is built

    registry = _unit_registry()
    n1, u1 = parse_quantity(first)
    n2, u2 = parse_quantity(second)
    q1 = n1 * registry(u1)
    q2 = n2 * registry(u2)
    return f"{q1.to(u1).magnitude} {u1}", f"{q2.to(u1).magnitude} {u1}"


# -- simplification and the score ------------------------------------------------------------------------------


def _limited(seconds: float, fallback: Any, step: Callable[[], Any]) -> Any:
    try:
        with _time_limit(seconds):
            return step()
    except TimeoutError:
        return fallback


def _difference(a: Any, b: Any) -> Any:
    """``simplify(expand(a - b))`` for two expressions or two matrices of one shape (within 10 s), else 1."""
    from sympy import Expr, Matrix, expand, simplify

    def step() -> Any:
        if isinstance(a, Expr) and isinstance(b, Expr):
            return simplify(expand(a - b))
        if isinstance(a, Matrix) and isinstance(b, Matrix) and a.shape == b.shape:
            return simplify(expand(a - b))
        return 1

    try:
        return _limited(DIFFERENCE_SECONDS, 1, step)
    except Exception:
        return 1


def to_tree(expr: Any) -> Node:
    """The tree of a SymPy expression: matrices (entries row by row), numbers, symbols, ``Add``/``Mul``/``Pow``,
    functions, relations, derivatives and logical ``And``/``Or``/``Not``; ``ValueError`` on anything else."""
    from sympy import Add, Derivative, Float, Function, Integer, Mul, Pow, Rational, Symbol
    from sympy.core.numbers import ComplexInfinity, Exp1, ImaginaryUnit, Infinity, NaN, NegativeInfinity, Pi
    from sympy.core.relational import Relational
    from sympy.logic.boolalg import And, Not, Or
    from sympy.matrices import MatrixBase

    if isinstance(expr, MatrixBase):
        entries = [to_tree(expr[i, j]) for i in range(expr.rows) for j in range(expr.cols)]
        return Node("matrix", f"{expr.rows}x{expr.cols}", entries)
    if isinstance(expr, (Integer, Pi, Exp1, ImaginaryUnit, Float, Rational, Infinity, NegativeInfinity, NaN,
                         ComplexInfinity)):
        return Node("number", str(expr), [])
    if isinstance(expr, Symbol):
        return Node("symbol", str(expr), [])
    if isinstance(expr, (Add, Mul, Pow)):
        return Node("operator", type(expr).__name__, [to_tree(a) for a in expr.args])
    if isinstance(expr, Function):
        return Node("function", expr.func.__name__, [to_tree(a) for a in expr.args])
    if isinstance(expr, Relational):
        return Node("relation", type(expr).__name__, [to_tree(expr.lhs), to_tree(expr.rhs)])
    if isinstance(expr, Derivative):
        return Node("function", "Derivative", [to_tree(expr.expr)] + [to_tree(v) for v in expr.variables])
    if isinstance(expr, (And, Or)):
        return Node("logic", type(expr).__name__, [to_tree(a) for a in expr.args])
    if isinstance(expr, Not):
        return Node("logic", "Not", [to_tree(expr.args[0])])
    raise ValueError(f"unsupported SymPy type: {type(expr).__name__}")


def _has_logic(node: Node) -> bool:
    return node.kind == "logic" or any(_has_logic(child) for child in node.children)


def numeric_score(value: Any, reference: Any) -> int:
    """100/90/80 for ``value`` within 0.5 %/1 %/2 % of ``reference`` (a relation's right side), 0 otherwise, for
    opposite signs, a zero reference with a non-zero value, or anything that is not a real number."""
    try:
        if hasattr(reference, "rhs"):
            reference = reference.rhs
        ref = float(reference.evalf())
        val = float(value.evalf())
    except Exception:
        return 0
    if ref == 0:
        return 100 if val == 0 else 0
    if ref * val < 0:
        return 0
    relative = abs(val - ref) / abs(ref)
    if relative <= 0.005:
        return 100
    if relative <= 0.01:
        return 90
    if relative <= 0.02:
        return 80
    return 0


Result = tuple[float, float, float, float]
_FAILED: Result = (0, -1, -1, -1)


def _tuple_seed(answer: str, reference: str) -> Result:
    answer_items = extract_tuple(answer)
    reference_items = extract_tuple(reference)
    if not answer_items or not reference_items or len(answer_items) != len(reference_items):
        return _FAILED
    totals = [0.0, 0.0, 0.0, 0.0]
    for key, item in answer_items.items():
        result = seed(item, reference_items[key], "Expression")
        totals[0] += result[0]
        for n in (1, 2, 3):
            if result[n] != -1:
                totals[n] += result[n]
    size = len(answer_items)
    return totals[0] / size, totals[1] / size, totals[2] / size, totals[3] / size


def seed(answer: str, reference: str, kind: str) -> Result:
    """``(score, relative distance, answer tree size, distance)`` of the model's ``answer`` against ``reference``
    for the answer type ``kind``, as OpenCompass's ``SEED(answer, reference, kind)``.

    Scores 0 for an empty reference or either side using ``\\int`` or ``\\sum``
    (the last number 1 for ``\\sum``), 100 for identical text.  ``KeyError`` for
    a tree with a logical operation (outside a tuple), as OpenCompass raises.
    """
    if not reference:
        return _FAILED
    if "\\int" in reference or "\\int" in answer:
        return _FAILED
    if "\\sum" in reference or "\\sum" in answer:
        return 0, -1, -1, 1
    if answer == reference:
        return 100, 0.0, -1, 0
    if kind == "Tuple":
        try:
            return _tuple_seed(answer, reference)
        except Exception:
            return _FAILED
    if kind == "Interval":
        answer = judge_interval(answer)[1]
        reference = judge_interval(reference)[1]
    elif kind == "Numeric":
        if re.search(r"[a-zA-Z]", re.sub(r"\\[a-zA-Z]+", "", answer) + re.sub(r"\\[a-zA-Z]+", "", reference)):
            try:
                answer, reference = convert_quantities(answer, reference)
            except QuantityBoundError:
                raise
            except Exception:
                pass
        answer = re.sub(r"\\(?![a-zA-Z])", "", extract_numeric_part(answer))
        reference = re.sub(r"\\(?![a-zA-Z])", "", extract_numeric_part(reference))
    answer_expr = to_sympy(answer, kind)
    reference_expr = to_sympy(reference, kind)
    try:
        if kind == "Equation":
            answer_expr = answer_expr.args[0] - answer_expr.args[1]
            reference_expr = reference_expr.args[0] - reference_expr.args[1]
    except Exception:
        return _FAILED
    if answer_expr is None or reference_expr is None:
        return _FAILED
    from sympy import posify, simplify

    try:
        answer_expr, answer_subs = posify(answer_expr)
        answer_expr = _limited(SIMPLIFY_SECONDS, answer_expr, lambda: simplify(answer_expr))
        reference_expr, reference_subs = posify(reference_expr)
        reference_expr = _limited(SIMPLIFY_SECONDS, reference_expr, lambda: simplify(reference_expr))
        answer_expr = answer_expr.subs(answer_subs)
        reference_expr = reference_expr.subs(reference_subs)
        difference = _difference(answer_expr, reference_expr)
        if answer_expr == reference_expr or difference == 0:
            return 100, 0.0, 0, 0
        if kind == "Equation" and answer_expr + reference_expr == 0:
            return 100, 0.0, 0, 0
        if _limited(EQUALS_SECONDS, False, lambda: answer_expr.equals(reference_expr)):
            return 100, 0.0, 0, 0
    except Exception:
        return _FAILED
    try:
        answer_tree = to_tree(answer_expr)
        reference_tree = to_tree(reference_expr)
    except Exception:
        return _FAILED
    if _has_logic(answer_tree) or _has_logic(reference_tree):
        raise KeyError("logic")
    distance = tree_distance(reference_tree, answer_tree)
    size = answer_tree.size()
    if kind == "Numeric":
        return numeric_score(reference_expr, answer_expr), -1, -1, -1
    score = 100 if distance == 0.0 else max(0, 100 * 0.6 - 100 * distance / size)
    return score, distance / size, size, distance

