"""MedCalc-Bench: answer extraction, the correctness rule per calculator and ``MedCalcOfficial_Evaluator``, as OpenCompass 0.5.4 has them.

:func:`extract_answer` and :func:`check_correctness` are what
``opencompass.datasets.MedCalc_Bench`` serves under those names.
OpenCompass evaluates text with Python's ``eval`` in its own process at two
places: a model's ``str(<expression>)`` answer (with no builtins, but
``math`` and ``numpy`` at hand), and every answer, reference and limit that
:func:`check_correctness` compares.  Here the first runs as its own process
in :mod:`assay.sandbox` with the same namespace, and the second is read by a
parser that accepts only what a number, a tuple of numbers or arithmetic on
them is written as (see :func:`literal_value`), so the verdicts are
OpenCompass's for every answer that is such a value — every answer the
extraction produces, except the text of a ``str(...)`` expression whose value
is itself code (``str('abs(-3)')``), which OpenCompass would run and which is
refused here — and no model text runs in the evaluating process.
"""

from __future__ import annotations

import ast
import logging
import operator
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome

logger = logging.getLogger(__name__)

__all__ = ["MedCalcOfficial_Evaluator"]

#: Calculators whose answer is a date (``MM/DD/YYYY``).
DATE_CALCULATORS = frozenset({13, 68})
#: The calculator whose answer is a (weeks, days) pair.
DURATION_CALCULATORS = frozenset({69})
#: Calculators whose answer is an integer.
INTEGER_CALCULATORS = frozenset({4, 15, 16, 17, 18, 20, 21, 25, 27, 28, 29, 32, 33, 36, 43, 45, 48, 51, 69})
#: Calculators whose answer is a decimal checked against the reference's limits.
DECIMAL_CALCULATORS = frozenset(
    {2, 3, 5, 6, 7, 8, 9, 10, 11, 19, 22, 23, 24, 26, 30, 31, 38, 39, 40, 44, 46, 49, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67}
)

_DURATION_CHECK = re.compile(r"\(?[\"\']?(\d+)\s*(weeks?)?[\"\']?,?\s*[\"\']?(\d+)\s*(days?)?[\"\']?\s*\)?")
_ANSWER_FIELD = re.compile(r'[Aa]nswer":\s*(.*?)\}')
_THINKING_FIELD = re.compile(r'"step_by_step_thinking":\s*"([^"]+)"\s*,\s*"[Aa]nswer"')
_DATE = re.compile(r"^(0?[1-9]|1[0-2])\/(0?[1-9]|[12][0-9]|3[01])\/(\d{4})")
_OUT_OF = re.compile(r"(\d+) out of")
_NUMBER_LIST = re.compile(r"-?\d+(, ?-?\d+)+")
_NUMBER = re.compile(r"(-?\d+(\.\d+)?)")
_STR_CALL = re.compile(r"str\((.*)\)")
_EGFR = re.compile(r"(-?\d+(\.\d+)?)\s*mL/min/1.73")
_PERCENT = re.compile(r"(-?\d+(\.\d+)?)\%")

#: Placeholder answers of the prompt that count as no answer (the spaces are OpenCompass's).
_PLACEHOLDERS = (
    "str(short_and_direct" + " " * 16 + "_answer_of_the_question)",
    "str(value which is" + " " * 16 + "the answer to the question)",
    "X.XX",
)

#: Text replaced in a ``str(...)`` answer before it is evaluated, in order.
_EXPRESSION_EDITS = (
    ("^", "**"), ("is odd", "% 2 == 1"), ("is even", "% 2 == 0"), ("sqrt", "math.sqrt"), (".math", ""),
    ("weight", ""), ("height", ""), ("mg/dl", ""), ("g/dl", ""), ("mmol/L", ""), ("kg", ""), ("g", ""), ("mEq/L", ""),
)

#: The largest integer power :func:`literal_value` computes, in bits of the result.
_POWER_BITS = 1 << 20

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
}
_UNARY: dict[type, Callable[[Any], Any]] = {
    ast.UAdd: operator.pos, ast.USub: operator.neg, ast.Not: operator.not_, ast.Invert: operator.invert,
}


def literal_value(text: Any) -> Any:
    """The value of ``text`` read as Python's ``eval`` reads numbers, tuples and lists of them and arithmetic on them.

    Constants (numbers, strings, ``True``/``False``/``None``), tuples, lists,
    unary ``+ - not ~`` and the binary ``+ - * / // % **`` on numbers give
    what ``eval`` gives, with its exceptions (``SyntaxError``,
    ``ZeroDivisionError``, ``TypeError`` for a value that is not a string).
    Anything else is refused without running it: a name raises
    ``NameError`` (as ``eval`` does for a name it does not know — one of
    Python's builtins, such as ``abs``, would have been found there), any
    other expression (a call, an attribute, a subscript, a comparison)
    raises ``ValueError``, and an integer power of more than 2**20 bits
    raises ``OverflowError`` where ``eval`` would compute it.

    Example:
        >>> literal_value(' (2, 3)'), literal_value('-1.5e1'), literal_value('2**10 / 4')
        ((2, 3), -15.0, 256.0)
        >>> literal_value('N/A')
        Traceback (most recent call last):
        ...
        NameError: name 'N' is not defined
    """
    if isinstance(text, bytes):
        text = text.decode()
    if not isinstance(text, str):
        raise TypeError("eval() arg 1 must be a string, bytes or code object")
    tree = ast.parse(text.lstrip(" \t"), mode="eval")
    return _value(tree.body, text)


def _value(node: ast.AST, text: str) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Tuple):
        return tuple(_value(e, text) for e in node.elts)
    if isinstance(node, ast.List):
        return [_value(e, text) for e in node.elts]
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_value(node.operand, text))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _value(node.left, text), _value(node.right, text)
        if not all(isinstance(v, (int, float, complex)) for v in (left, right)):
            raise TypeError(f"unsupported operand types in {text!r}: {type(left).__name__} and {type(right).__name__}")
        huge = isinstance(left, int) and isinstance(right, int) and abs(left) > 1 and right * abs(left).bit_length() > _POWER_BITS
        if isinstance(node.op, ast.Pow) and huge:
            raise OverflowError(f"the power in {text!r} is too large to compute")
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.Name):
        raise NameError(f"name {node.id!r} is not defined")
    raise ValueError(f"{text!r} is not a number, a tuple of numbers or arithmetic on them")


def check_correctness(answer: Any, ground_truth: Any, calid: Any, upper_limit: Any, lower_limit: Any) -> int:
    """1 when ``answer`` is right for calculator ``calid``, else 0 — OpenCompass 0.5.4's rule, its exceptions included.

    * dates (calculators 13, 68): both read as ``MM/DD/YYYY`` and compared
      as dates (``ValueError`` for text that is no such date);
    * calculator 69: the first ``(weeks, days)`` pair of each is compared;
      a reference without one raises ``AttributeError``, an answer without
      one is wrong;
    * integers: the answer's value rounded equals the reference's value;
    * decimals: ``lower_limit <= answer <= upper_limit``;
    * any other calculator raises ``ValueError``.

    Values are read with :func:`literal_value` where OpenCompass calls
    ``eval``: the same result for every number, tuple and arithmetic on
    them (every answer :func:`extract_answer` gives, unless a ``str(...)``
    expression's value is itself code); a name or call is refused
    (``NameError``/``ValueError``) rather than run, where OpenCompass runs it.

    Example:
        >>> check_correctness('(2, 3)', '(2 weeks, 3 days)', 69, None, None)
        1
        >>> check_correctness('4.4', '4', 4, None, None), check_correctness('1.2', '1.0', 2, '1.1', '0.9')
        (1, 0)
    """
    calid = int(calid)
    if calid in DATE_CALCULATORS:
        return int(_date(answer) == _date(ground_truth))
    if calid in DURATION_CALCULATORS:
        reference = _DURATION_CHECK.search(ground_truth)
        if reference is None:
            raise AttributeError("'NoneType' object has no attribute 'group'")
        found = _DURATION_CHECK.search(answer)
        if found is None:
            return 0
        mine = literal_value(f"({found.group(1)}, {found.group(3)})")
        return int(mine == literal_value(f"({reference.group(1)}, {reference.group(3)})"))
    if calid in INTEGER_CALCULATORS:
        return int(round(literal_value(answer)) == literal_value(ground_truth))
    if calid in DECIMAL_CALCULATORS:
        value = literal_value(answer)
        return int(value >= literal_value(lower_limit) and value <= literal_value(upper_limit))
    raise ValueError(f"Unknown calculator ID: {calid}")


def _date(text: Any) -> str:
    return datetime.strptime(text, "%m/%d/%Y").strftime("%-m/%-d/%Y")


def extract_answer(answer: str, calid: Any, evaluate: Callable[[Sequence[str]], list[str]] | None = None) -> tuple[str, str]:
    """The answer and the explanation in a model's JSON-like reply, as OpenCompass 0.5.4 extracts them for calculator ``calid``.

    The answer is the last ``"answer": …}`` field (``'Not Found'`` when
    there is none or it is the prompt's placeholder), then by the
    calculator's output type: a date ``MM/DD/YYYY`` (zero-padded), a
    ``(weeks, days)`` pair, an integer (``N out of``, the count of a list of
    numbers, else the last number) or a decimal (the value of a
    ``str(<expression>)``, an eGFR in ``mL/min/1.73``, the last percentage
    over 100, else the last number), as a string; ``'N/A'`` when nothing
    fits; for any other calculator, the whole reply.  The explanation is the last ``"step_by_step_thinking"`` before an
    answer, else ``'No Explanation'``.

    A ``str(<expression>)`` answer is evaluated by ``evaluate`` (a list of
    expressions in, their ``str`` values or ``'N/A'`` out): by default each
    runs in :mod:`assay.sandbox`, as OpenCompass runs it in its own process —
    with no builtins and ``min``, ``pow``, ``round``, ``abs``, ``int``,
    ``float``, ``math``, ``np``/``numpy`` at hand.

    Example:
        >>> extract_answer('{"step_by_step_thinking": "sum", "answer": "3 out of 5"}', 4)
        ('3', 'sum')
        >>> extract_answer('{"answer": "[2, 4]"}', 69)
        ('(2, 4)', 'No Explanation')
    """
    pending: list[str] = []
    first = _extract(answer, calid, pending)
    if not pending:
        return first
    values = (evaluate or evaluate_expressions)(pending)
    return _extract(answer, calid, [], dict(zip(pending, values)))


def _extract(answer: str, calid: Any, pending: list[str], values: dict[str, str] | None = None) -> tuple[str, str]:
    """One extraction; a ``str(...)`` expression not in ``values`` is appended to ``pending`` (its answer then unknown)."""
    calid = int(calid)
    fields = _ANSWER_FIELD.findall(answer)
    thinking = _THINKING_FIELD.findall(answer)
    explanation = thinking[-1] if thinking else "No Explanation"
    if not fields:
        text = "Not Found"
    else:
        text = fields[-1].strip().strip('"')
        if text in _PLACEHOLDERS:
            text = "Not Found"

    if calid in DATE_CALCULATORS:
        found = _DATE.search(text)
        if not found:
            return "N/A", explanation
        return f"{int(found.group(1)):02}/{int(found.group(2)):02}/{found.group(3)}", explanation
    if calid in DURATION_CALCULATORS:
        text = text.replace("[", "(").replace("]", ")").replace("'", "").replace('"', "")
        found = _DURATION_CHECK.search(text)
        return (f"({found.group(1)}, {found.group(3)})" if found else "N/A"), explanation
    if calid in INTEGER_CALCULATORS:
        found = _OUT_OF.search(text)
        if found:
            return found.group(1), explanation
        listed = _NUMBER_LIST.search(text)
        if listed:
            return str(len(listed.group(0).split(","))), explanation
        numbers = _NUMBER.findall(text)
        return (numbers[-1][0] if numbers else "N/A"), explanation
    if calid in DECIMAL_CALCULATORS:
        call = _STR_CALL.search(text)
        if call:
            expression = _expression(call.group(1))
            if values is None or expression not in values:
                pending.append(expression)
                return "N/A", explanation
            return values[expression], explanation
        found = _EGFR.search(text)
        if found:
            return str(literal_value(found.group(1))), explanation
        percents = _PERCENT.findall(text)
        if percents:
            return str(literal_value(percents[-1][0]) / 100), explanation
        numbers = _NUMBER.findall(text)
        return (str(literal_value(numbers[-1][0])) if numbers else "N/A"), explanation
    return answer, explanation  # another calculator: the reply as it is


def _expression(inner: str) -> str:
    """The text of a ``str(...)`` answer made into the expression OpenCompass evaluates."""
    for old, new in _EXPRESSION_EDITS:
        inner = inner.replace(old, new)
    inner = inner.split("#")[0]
    opened, closed = inner.count("("), inner.count(")")
    if opened > closed:
        inner += ")" * (opened - closed)
    elif closed > opened:
        inner = "(" * (closed - opened) + inner
    return inner


_EXPRESSION_PROGRAM = """import math
{numpy}
try:
    _value = eval({source!r}, {{'__builtins__': None}}, {{'min': min, 'pow': pow, 'round': round, 'abs': abs,
        'int': int, 'float': float, 'math': math, 'np': np, 'numpy': np}})
except Exception:
    _text = 'N/A'
else:
    try:
        _text = 'V' + str(_value)
    except Exception as _error:
        _text = 'S' + type(_error).__name__ + ': ' + str(_error)
import sys
sys.stdout.write({token!r} + _text)
"""


def evaluate_expressions(expressions: Sequence[str], timeout: float = 10.0) -> list[str]:
    """The ``str`` of each expression's value, evaluated as OpenCompass evaluates a ``str(...)`` answer, each in :mod:`assay.sandbox`.

    ``'N/A'`` where the evaluation raises, does not end within ``timeout``
    seconds or cannot be run; a value whose ``str`` raises raises
    ``ValueError`` (as OpenCompass's ``str(answer)`` does).  ``numpy`` is
    imported only for an expression that mentions ``np``.
    """
    if not expressions:
        return []
    import secrets

    from assay._pool import usable_cpus
    from assay.sandbox import Limits, Sandbox

    token = "@" + secrets.token_hex(8) + ":"
    programs = [
        _EXPRESSION_PROGRAM.format(numpy="import numpy as np" if "np" in e else "np = None", source=e, token=token)
        for e in expressions
    ]
    sandbox = Sandbox(Limits(timeout=timeout), max_workers=usable_cpus())
    out: list[str] = []
    for expression, result in zip(expressions, sandbox.run_many(programs)):
        _, found, text = result.stdout.rpartition(token)
        if not result.passed or not found:
            logger.info("MedCalc: the expression %r was not evaluated (%s: %s)", expression, result.outcome.value, result.message)
            out.append("N/A")
        elif text.startswith("V"):
            out.append(text[1:])
        elif text.startswith("S"):
            raise ValueError(f"MedCalc: the value of {expression!r} has no string form: {text[1:]}")
        else:
            out.append("N/A")
    return out


class MedCalcOfficial_Evaluator(BaseEvaluator):
    """MedCalc-Bench accuracy, as OpenCompass 0.5.4 computes it.

    Inputs: ``predictions`` (the model's JSON-like replies), ``references``
    (only their number is used) and ``test_set`` with the columns
    ``calculator_id``, ``lower_limit``, ``upper_limit``, ``row_number``,
    ``note_id``, ``category``, ``question``, ``calculator_name``,
    ``patient_note``, ``ground_truth_explanation`` and
    ``ground_truth_answer`` (those of ``MedCalc_BenchDataset`` with
    ``prompt_mode='zero-shot'``).  Each reply goes through
    :func:`extract_answer` and :func:`check_correctness`; a sample where
    either raises is wrong, its exception's text in ``LLM Answer`` and
    ``LLM Explanation``.

    Metric: ``accuracy`` in [0, 100].  Details, as OpenCompass writes them:
    ``Row Number``, ``Calculator Name``, ``Calculator ID``, ``Category``,
    ``Note ID``, ``Patient Note``, ``Question``, ``LLM Answer``, ``LLM
    Explanation``, ``Ground Truth Answer``, ``Ground Truth Explanation``,
    ``Result`` (``'Correct'``/``'Incorrect'``); plus ``correct``.
    OpenCompass prints each extracted answer and explanation; here they are
    logged at debug level.  ``str(...)`` answers are evaluated in
    :mod:`assay.sandbox`, all of a batch together.

    Example:
        >>> ts = {'calculator_id': [4], 'lower_limit': ['4'], 'upper_limit': ['4'], 'row_number': [1], 'note_id': ['n'],
        ...       'category': ['c'], 'question': ['q'], 'calculator_name': ['x'], 'patient_note': ['p'],
        ...       'ground_truth_explanation': ['e'], 'ground_truth_answer': ['4']}
        >>> MedCalcOfficial_Evaluator().score(['{"answer": "4"}'], ['4'], ts)['accuracy']
        100.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    COLUMNS = (
        "calculator_id", "lower_limit", "upper_limit", "row_number", "note_id", "category", "question",
        "calculator_name", "patient_note", "ground_truth_explanation", "ground_truth_answer",
    )

    def score(self, predictions: list[Any], references: list[Any], test_set: Any) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        if not predictions:
            return {"error": "MedCalcOfficial_Evaluator: no samples to score"}
        columns = _columns(test_set, self.COLUMNS, len(predictions))
        if isinstance(columns, str):
            return {"error": f"MedCalcOfficial_Evaluator: {columns}"}
        pending: list[str] = []
        for i, prediction in enumerate(predictions):
            try:
                _extract(prediction, int(columns["calculator_id"][i]), pending)
            except Exception:  # raised again below, where the sample is scored
                continue
        unique = list(dict.fromkeys(pending))
        values = dict(zip(unique, evaluate_expressions(unique)))

        details = []
        correct = 0
        for i, prediction in enumerate(predictions):
            row = {c: columns[c][i] for c in self.COLUMNS}
            try:
                answer, explanation = _extract(prediction, int(row["calculator_id"]), [], values)
                logger.debug("MedCalc sample %d: answer %r, explanation %r", i, answer, explanation)
                status = "Correct" if check_correctness(
                    answer, row["ground_truth_answer"], row["calculator_id"], row["upper_limit"], row["lower_limit"]
                ) else "Incorrect"
            except Exception as exc:
                answer = explanation = str(exc)
                status = "Incorrect"
            correct += status == "Correct"
            details.append({
                "Row Number": int(row["row_number"]),
                "Calculator Name": row["calculator_name"],
                "Calculator ID": row["calculator_id"],
                "Category": row["category"],
                "Note ID": row["note_id"],
                "Patient Note": row["patient_note"],
                "Question": row["question"],
                "LLM Answer": answer,
                "LLM Explanation": explanation,
                "Ground Truth Answer": row["ground_truth_answer"],
                "Ground Truth Explanation": row["ground_truth_explanation"],
                "Result": status,
                "correct": status == "Correct",
            })
        return {"accuracy": 100 * correct / len(predictions), "details": details}


def _columns(test_set: Any, names: Sequence[str], n: int) -> dict[str, list[Any]] | str:
    """``test_set``'s columns ``names`` (from a ``Dataset``, a dict of lists or a list of rows), or what is wrong."""
    if test_set is None:
        return "needs the test set"
    if isinstance(test_set, list):
        missing = sorted({c for row in test_set for c in names if c not in row})
        if missing:
            return f"the test set rows lack {', '.join(missing)}"
        table = {c: [row[c] for row in test_set] for c in names}
    else:
        present = set(getattr(test_set, "column_names", None) or (test_set.keys() if hasattr(test_set, "keys") else ()))
        missing = [c for c in names if c not in present]
        if missing:
            return f"the test set lacks the column(s) {', '.join(missing)}"
        table = {c: list(test_set[c]) for c in names}
    short = [c for c in names if len(table[c]) < n]
    if short:
        return f"{n} predictions but the test set's {short[0]} column has {len(table[short[0]])} values"
    return table
