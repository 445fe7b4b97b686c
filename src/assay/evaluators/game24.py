"""The Game of 24's answer reader and evaluator as OpenCompass 0.5.4 computes them
(``game24_postprocess``, ``Game24Evaluator``).

OpenCompass hands each answer using the puzzle's numbers to SymPy
(``sympy.simplify`` of the text, which runs it as Python with SymPy's names)
and counts it right when the result equals 24.  ``Game24Evaluator`` does the
same in :mod:`assay.sandbox` (one sandbox run per batch), so ``sqrt(576)``,
``x*24/x`` or ``(2^(1/2))^2*12`` count as OpenCompass counts them.  With
``eval_mode='arithmetic'`` (assay's option) it computes the arithmetic
in-process instead, nothing run (:func:`game24_value`): integers and
fractions exactly (``8/(3-8/3)`` is 24), ``^`` as a power (as SymPy reads
it), a decimal number making the result a float, which SymPy never finds
equal to 24, ``n!`` a factorial; an answer naming anything (a symbol, a
function), or a power with a fractional exponent, counts as wrong.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples
from assay.evaluators._pyeval import DEFAULT_LIMIT, Check, SandboxUnavailable, run_checks, sandbox_notes
from assay.postprocess.chain import deterministic
from assay.registry import ICL_EVALUATORS, TEXT_POSTPROCESSORS

__all__ = ["Game24Evaluator", "game24_postprocess", "game24_value"]

_NUMBER = re.compile(r"\d+")


def as_text(value: Any) -> str:
    """The text of a reply or a puzzle: ``None`` is ``''``."""
    return "" if value is None else str(value)


@TEXT_POSTPROCESSORS.register_module("game24_postprocess")
@deterministic
def game24_postprocess(text: str) -> str:
    """The reply's last line, lower-cased, without ``answer: ``, up to its first ``=``.

    >>> game24_postprocess('Steps...\\nAnswer: (4 + 8) * (6 - 4) = 24')
    '(4 + 8) * (6 - 4) '
    """
    return as_text(text).strip().split("\n")[-1].lower().replace("answer: ", "").split("=")[0]


class _NotComputed(Exception):
    pass


_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
}
_MAX_EXPONENT = 10000
_FACTORIAL = "_factorial_"


def _factorials(text: str) -> str:
    """``n!`` and ``(…)!`` written as calls of :data:`_FACTORIAL`, as SymPy's factorial notation reads them."""
    out = ""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "!" and text[i + 1 : i + 2] != "=":
            j = len(out)
            while j > 0 and out[j - 1] == " ":
                j -= 1
            end = j
            if j > 0 and out[j - 1] == ")":
                depth = 0
                while j > 0:
                    j -= 1
                    depth += {")": 1, "(": -1}.get(out[j], 0)
                    if depth == 0:
                        break
            else:
                while j > 0 and (out[j - 1].isalnum() or out[j - 1] in "._"):
                    j -= 1
            if j == end:
                raise _NotComputed("factorial of nothing")
            out = f"{out[:j]}{_FACTORIAL}({out[j:end]})"
        else:
            out += ch
        i += 1
    return out


def _value(node: ast.AST) -> Fraction | float:
    if isinstance(node, ast.Expression):
        return _value(node.body)
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return Fraction(node.value)
    if isinstance(node, ast.Constant) and isinstance(node.value, float):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        value = _value(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _value(node.left), _value(node.right)
        if isinstance(node.op, ast.Pow):
            if isinstance(right, float) or right.denominator != 1 or abs(right) > _MAX_EXPONENT:
                raise _NotComputed("exponent")
            if isinstance(left, Fraction) and left == 0 and right < 0:
                raise ZeroDivisionError
        result = _BINARY[type(node.op)](left, right)
        if isinstance(node.op, ast.FloorDiv) and isinstance(result, (int, Fraction)):
            result = Fraction(result)
        return result if isinstance(result, (Fraction, float)) else Fraction(result)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == _FACTORIAL and len(node.args) == 1
            and not node.keywords):
        value = _value(node.args[0])
        if isinstance(value, float) or value.denominator != 1 or not 0 <= value <= 1000:
            raise _NotComputed("factorial")
        return Fraction(math.factorial(int(value)))
    raise _NotComputed(type(node).__name__)


def game24_value(expression: str) -> Fraction | float | None:
    """The value of an arithmetic ``expression`` (exact for integers and fractions, a float once a decimal
    number takes part), or ``None`` when it cannot be computed.

    >>> game24_value('8/(3-8/3)'), game24_value('2^3*3'), game24_value('4*6.0'), game24_value('x*24')
    (Fraction(24, 1), Fraction(24, 1), 24.0, None)
    """
    try:
        # SymPy reads ^ as a power and n! as n's factorial
        return _value(ast.parse(_factorials(expression.strip().replace("^", "**")), mode="eval"))
    except (_NotComputed, SyntaxError, ValueError, TypeError, ArithmeticError, RecursionError, MemoryError):
        return None


@ICL_EVALUATORS.register_module()
class Game24Evaluator(BaseEvaluator):
    """The share of answers, in [0, 1], that use the puzzle's numbers (the same digit runs, in any order)
    and compute exactly 24 (``acc score``).

    Each answer using the puzzle's numbers is read by SymPy as OpenCompass
    reads it (``int(sympy.simplify(answer) == 24)``, an exception counting as
    wrong), in :mod:`assay.sandbox`: one sandbox run per batch, each answer in
    a process of its own limited to ``expression_timeout`` seconds (SymPy's
    version is the one installed for the sandbox's Python, else this
    environment's).  OpenCompass sets no limit; an answer whose reading does
    not end within it, runs out of the sandbox's memory or ends its process
    (``os._exit``, a crash) gives an error record naming the sample, and where no
    sandbox can be created the batch is an error record saying why.

    Details (assay's; OpenCompass gives none): ``pred``, ``answer``, ``correct``.

    Args:
        eval_mode: ``'sympy'`` (OpenCompass's verdicts, in the sandbox) or
            ``'arithmetic'`` (assay's: :func:`game24_value`, nothing run).
        expression_timeout: seconds each answer may take in the sandbox.
        isolation: see :class:`assay.sandbox.Sandbox`.

    >>> Game24Evaluator(eval_mode='arithmetic').score(['(4 + 8) * (6 - 4) ', '4 * 6'], ['4 4 6 8', '1 4 6 9'])['acc score']
    0.5
    """

    sample_outcome = SampleOutcome(correct="correct", scores={"acc score": "correct"})

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """Why the sandbox the replies run in cannot run here, if it cannot (nothing with ``eval_mode='arithmetic'``)."""
        return sandbox_notes("Game24Evaluator", cfg, "sympy", True)

    def __init__(self, eval_mode: str = "sympy", expression_timeout: float = DEFAULT_LIMIT, isolation: str = "auto",
                 pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if eval_mode not in ("sympy", "arithmetic"):
            raise ValueError(f"Game24Evaluator: eval_mode must be 'sympy' or 'arithmetic', got {eval_mode!r}")
        if not float(expression_timeout) > 0:
            raise ValueError(f"Game24Evaluator: expression_timeout must be positive, got {expression_timeout!r}")
        self.eval_mode = eval_mode
        self.expression_timeout = float(expression_timeout)
        self.isolation = isolation

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": f"Game24Evaluator: {len(predictions)} predictions but {len(references)} references"}
        if not predictions:
            return no_samples(self)
        texts = [as_text(pred) for pred in predictions]
        same = [sorted(_NUMBER.findall(text)) == sorted(_NUMBER.findall(as_text(ref))) for text, ref in zip(texts, references)]
        if self.eval_mode == "arithmetic":
            verdicts = []
            for text, ok in zip(texts, same):
                value = game24_value(text) if ok else None
                verdicts.append(isinstance(value, Fraction) and value == 24)
        else:
            asked = list(dict.fromkeys(text for text, ok in zip(texts, same) if ok))
            try:
                found = dict(zip(asked, run_checks([Check("game24", (t,)) for t in asked], limit=self.expression_timeout,
                                                   isolation=self.isolation)))
            except SandboxUnavailable as exc:
                return {"error": f"Game24Evaluator: SymPy reads the answers as Python, in the sandbox, which cannot run here: "
                                 f"{exc} (eval_mode='arithmetic' computes them without running them)"}
            verdicts = []
            for i, (text, ok) in enumerate(zip(texts, same)):
                verdict = found.get(text) if ok else None
                if verdict is not None and verdict.value is None:
                    limit = " (OpenCompass reads it without a time limit; expression_timeout sets this one)" if verdict.timed_out else ""
                    return {"error": f"Game24Evaluator: sample {i}: SymPy's reading of {text!r} {verdict.failure}{limit}"}
                verdicts.append(bool(verdict is not None and verdict.value))
        details = [{"pred": pred, "answer": ref, "correct": ok} for pred, ref, ok in zip(predictions, references, verdicts)]
        return {"acc score": sum(d["correct"] for d in details) / len(details), "details": details}
