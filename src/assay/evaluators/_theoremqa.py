"""TheoremQA answer handling as OpenCompass 0.5.4 does it (private).

OpenCompass turns replies into numbers by converting LaTeX with
``latex2sympy2_extended`` and then ``eval``-ing the printed SymPy expression
(``'1/2'`` → ``0.5``; ``'(1, 2)'`` → ``[1, 2]``).  assay never ``eval``s
text that came from a model: :func:`safe_eval` evaluates the same Python
syntax but only numbers, arithmetic, tuples/lists/sets and the few names
OpenCompass's ``eval`` can reach (``sqrt``, ``pi``, ``E`` … — see the two name
tables), and refuses anything else as OpenCompass's ``eval`` fails on it
(``NameError``).  Powers with an exponent over 10 000 are refused too (Python
would compute them, slowly, where OpenCompass may stall).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import math
import operator
import re
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

__all__: list[str] = []

_TRIGGERS = ("The answer is:", "The answer is", "the answer is")
_TRIGGER_SPLIT = re.compile("|".join(_TRIGGERS))
_OPTIONS = ("(a)", "(b)", "(c)", "(d)", "(e)", "(f)")
_NUMBER_THEN_WORDS = re.compile(r"-?[\d\.]+\s\D+$")
_NUMBER_THEN_TOKEN = re.compile(r"-?[\d\.]+\s[^\s]+$")
_ANY_NUMBER = re.compile(r"-?\d*\.?\d+")

# -- a restricted eval -------------------------------------------------------------

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
}
_UNARY: dict[type, Callable[[Any], Any]] = {ast.UAdd: operator.pos, ast.USub: operator.neg, ast.Not: operator.not_}
_MAX_EXPONENT = 10_000

#: What ``eval`` reaches in OpenCompass's ``number_utils`` module (``from math import …``; ``E = 2.718``).
NUMBER_NAMES: dict[str, Any] = {
    "sqrt": math.sqrt, "sin": math.sin, "cos": math.cos, "log": math.log, "pi": math.pi,
    "factorial": math.factorial, "exp": math.exp, "e": math.e, "E": 2.718,
}
#: What ``eval`` reaches in OpenCompass's TheoremQA ``utils`` module: no maths names.
UTILS_NAMES: dict[str, Any] = {}


class _Refused(Exception):
    """The expression uses something :func:`safe_eval` does not evaluate."""


def safe_eval(text: str, names: dict[str, Any]) -> Any:
    """Evaluate a Python expression of numbers, arithmetic and ``names``; raise on anything else.

    >>> safe_eval('1/2 + 3', {}), safe_eval('(1, 2)', {}), safe_eval('sqrt(4)', NUMBER_NAMES)
    (3.5, (1, 2), 2.0)
    >>> safe_eval('__import__("os")', {})
    Traceback (most recent call last):
    ...
    assay.evaluators._theoremqa._Refused: call of __import__
    """
    return _eval(ast.parse(text.strip(), mode="eval").body, names)


def _eval(node: ast.AST, names: dict[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        if isinstance(node.value, (int, float, complex, bool)) or node.value is None:
            return node.value
        raise _Refused(f"constant {type(node.value).__name__}")
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _eval(node.left, names), _eval(node.right, names)
        if isinstance(node.op, ast.Pow) and isinstance(right, (int, float)) and not isinstance(right, bool) and abs(right) > _MAX_EXPONENT:
            raise _Refused("exponent too large")
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_eval(node.operand, names))
    if isinstance(node, ast.Tuple):
        return tuple(_eval(e, names) for e in node.elts)
    if isinstance(node, ast.List):
        return [_eval(e, names) for e in node.elts]
    if isinstance(node, ast.Set):
        return {_eval(e, names) for e in node.elts}
    if isinstance(node, ast.Name):
        if node.id in names and not callable(names[node.id]):
            return names[node.id]
        raise _Refused(f"name {node.id}")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        fn = names.get(node.func.id)
        if callable(fn):
            return fn(*(_eval(a, names) for a in node.args))
        raise _Refused(f"call of {node.func.id}")
    raise _Refused(type(node).__name__)


# -- latex2sympy under a time limit -------------------------------------------------------


class _TimeLimit(Exception):
    pass


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise inside the block after ``seconds`` (SIGALRM; only in the main thread, as OpenCompass's)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def alarm(signum: int, frame: Any) -> None:
        raise _TimeLimit

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _latex2sympy_str(text: str) -> str:
    return str(_latex2sympy()(text))


@functools.cache
def _latex2sympy() -> Callable[[str], Any]:
    """latex2sympy, imported (with SymPy, several seconds cold) and warmed up outside any time limit."""
    from latex2sympy2_extended import latex2sympy

    latex2sympy("\\frac{1}{2}+x")
    return latex2sympy


# -- OpenCompass's number_utils ---------------------------------------------------------------


def clean_units(text: str) -> str:
    """``π`` → ``3.14`` (``3π`` → ``3*3.14``), ``%`` → ``/100``, currency and degree marks dropped."""
    text = text.replace("\\pi", "π")
    text = re.sub(r"(?<![\d}])\\?π", "3.14", text)
    text = re.sub(r"(\d)(\\?π)", r"\1*3.14", text)
    text = re.sub(r"\{(\\?π)\}", "3.14", text)
    text = re.sub(r"\*(\\?π)", "*3.14", text)
    for old, new in (("%", "/100"), ("$", ""), ("¥", ""), ("°C", ""), (" C", ""), ("°", "")):
        text = text.replace(old, new)
    return text


def floatify(value: Any) -> int | float | None:
    """``float(value)``, as an ``int`` when whole; ``None`` when it is not a number."""
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return round(number) if number.is_integer() else number


def number_it(value: Any) -> int | float | None:
    """A reply as a number: through latex2sympy, then ``float``, else the restricted eval."""
    if isinstance(value, (int, float)):
        return value
    text = clean_units(value)
    with contextlib.suppress(Exception):
        text = _latex2sympy_str(text)
    number = floatify(text)
    if number is not None:
        return number
    try:
        result = safe_eval(text, NUMBER_NAMES)
        if isinstance(result, (list, tuple)):
            result = result[0]
    except Exception:
        return None
    return floatify(result)


def within_eps(pred: float, gt: float) -> bool:
    eps = abs(gt) * 0.04
    return gt - eps <= pred <= gt + eps


def compare_two_numbers(pred: Any, gt: Any) -> bool:
    """An int truth: ``round(pred) == gt``; a float truth: within 4 % of it."""
    try:
        if math.isnan(pred):
            return False
        if isinstance(gt, int):
            return bool(round(pred) == gt)
        return within_eps(pred, gt)
    except Exception:
        return False


def compare_two_list(pred: Any, gt: Any) -> bool:
    if not isinstance(pred, list) or len(pred) != len(gt) or any(not isinstance(x, (int, float)) for x in pred):
        return False
    return all(compare_two_numbers(p, g) for p, g in zip(sorted(pred), sorted(gt)))


# -- OpenCompass's TheoremQA utils -------------------------------------------------------------


def extract_answer(pred: str, answer_flag: bool) -> str:
    """The answer of one cleaned reply (OpenCompass's ``extract_theoremqa_answer``)."""
    lowered = pred.lower()
    if "yes" in lowered or "true" in lowered:
        return "True"
    if "no" in lowered or "false" in lowered:  # any "no": "not", "know", "number" …
        return "False"
    if any(option in lowered for option in _OPTIONS):
        return pred
    if not answer_flag:
        numbers = _ANY_NUMBER.findall(pred)
        return numbers[-1] if numbers else ""
    pred = clean_units(pred.split("=")[-1].strip())
    _latex2sympy()
    try:
        with _time_limit(1):
            value = safe_eval(_latex2sympy_str(pred), UTILS_NAMES)
        return str(list(value)) if isinstance(value, tuple) else str(value)
    except Exception:
        if _NUMBER_THEN_WORDS.match(pred) or _NUMBER_THEN_TOKEN.match(pred):
            return pred.split(" ")[0]
        return pred


def answer_clean(pred: str) -> str:
    """OpenCompass's ``answer_clean`` with its three triggers ("The answer is:", …)."""
    pred = pred.strip("\n")
    if any(pred.count(trigger) > 1 for trigger in _TRIGGERS):  # few-shot continuation: keep the first block
        pred = pred.split("\n\n")[0]
    pieces = _TRIGGER_SPLIT.split(pred)
    answer_flag = len(pieces) > 1
    if answer_flag:
        pred = pieces[-1]
    pred = pred.strip("\n").rstrip(".").rstrip("/").strip(" ")
    pred = extract_answer(pred, answer_flag)
    return pred.rstrip(".").rstrip("/")


def compare_answer(answer: str, truth: str, truth_value: Any = None) -> bool:
    """OpenCompass's ``compare_answer_with_groundtruth``."""
    if truth.lower() in _OPTIONS:
        return truth.lower() in answer.lower()
    if answer.lower() == truth.lower():
        return True
    if truth_value is None:
        return False
    if isinstance(truth_value, (int, float)):
        return compare_two_numbers(number_it(answer), truth_value)
    if answer.startswith("(") and answer.endswith(")"):
        try:
            values = [number_it(a) for a in list(safe_eval(answer, UTILS_NAMES))]
        except Exception:
            return False
        return compare_two_list(values, truth_value)
    return False
