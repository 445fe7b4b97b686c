"""OlympiadBench's evaluator and answer extractor as OpenCompass 0.5.4 computes them.

``OlympiadBenchEvaluator`` judges with OpenCompass's ``MathJudger`` (from the
OlympiadBench authors' code): answers are split at top-level commas and
matched pairwise as intervals, numbers, SymPy expressions or equations.
Expressions are read by SymPy's ANTLR LaTeX parser.  SymPy insists on the
ANTLR runtime 4.11 for it, while math-verify's parser needs 4.13; SymPy's
parser is therefore driven directly here with the installed runtime (the
generated parser runs unchanged on it), where OpenCompass, installed next to
math-verify, cannot even build this evaluator.
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
import math
import re
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples, percent
from assay.registry import ICL_EVALUATORS

__all__ = ["MathJudger", "OlympiadBenchEvaluator"]

logger = logging.getLogger(__name__)


@functools.cache
def _antlr_latex() -> Any:
    """SymPy's ANTLR LaTeX parser (``parse_latex``'s steps, without its runtime version check)."""
    import antlr4
    from sympy.parsing.latex import _parse_latex_antlr as impl

    if impl.LaTeXLexer is None or impl.LaTeXParser is None:  # pragma: no cover - antlr4 missing
        raise ImportError("OlympiadBenchEvaluator needs the antlr4-python3-runtime package")

    def parse_latex(text: str) -> Any:
        text = text.strip()
        listener = impl.MathErrorListener(text)
        with contextlib.redirect_stdout(io.StringIO()):  # the runtime prints a version notice
            lexer = impl.LaTeXLexer(antlr4.InputStream(text))
        lexer.removeErrorListeners()
        lexer.addErrorListener(listener)
        with contextlib.redirect_stdout(io.StringIO()):
            parser = impl.LaTeXParser(antlr4.CommonTokenStream(lexer))
        parser.removeErrorListeners()
        parser.addErrorListener(listener)
        return impl.convert_relation(parser.math().relation())

    return parse_latex


_SPECIAL = (
    ("\\left", ""), ("\\right", ""), ("∶", ":"), ("，", ","), ("$", ""), ("\\approx", "="), ("\\simeq", "="),
    ("\\sim", "="), ("^\\prime", "'"), ("^{\\prime}", "'"), ("^\\circ", ""), ("%", ""),
)
_EDGE_CHARS = "\n$,.:;^_=+`!@#$%^&*~，。"
_MATHRM = re.compile(r"\\(?:mathrm|mathbf)\{~?([^}]*)\}")
_CJK = re.compile(r"[\u4e00-\u9fff]+")
_BOXED_OPEN = re.compile(r"\\boxed{")
_DOLLARS = re.compile(r"\$(.*?)\$")
_MAX_EXPONENT = 1000


class MathJudger:
    """OpenCompass's OlympiadBench ``MathJudger``: is a reply's answer equal to the reference?

    :meth:`judge` takes the two texts (the evaluator passes the reply first),
    takes the ``\\boxed{}`` contents of each (else the ``$…$`` of the last
    line, else the text), cleans them, splits them at top-level commas
    (``\\pm`` doubling an item) and pairs the items up; two items are equal
    when identical, equal intervals, numbers within ``precision`` (the
    reference's value, /100 or ×100 allowed), SymPy-equal expressions (within
    ``precision`` when numeric, difference under 1e-3 when symbolic), or
    equations whose sides differ by an integer factor.
    """

    def __init__(self) -> None:
        self.parse_latex = _antlr_latex()
        self.pi = self.parse_latex("\\pi")
        self.precision: Any = 1e-8

    # -- preprocessing -------------------------------------------------------
    @staticmethod
    def _boxed_contents(text: str) -> str:
        results = ""
        for match in _BOXED_OPEN.finditer(text):
            start = end = match.end()
            depth = 1
            while depth > 0 and end < len(text):
                if text[end] == "{":
                    depth += 1
                elif text[end] == "}":
                    depth -= 1
                end += 1
            if depth != 0:
                raise ValueError("Mismatched braces in LaTeX string.")
            results += text[start : end - 1] + ","
        if results == "":
            answers = _DOLLARS.findall(text.strip().split("\n")[-1])
            results = "".join(a + "," for a in answers) if answers else text
        return results

    @staticmethod
    def _clean(expr: str) -> str:
        if "\\in " in expr:
            expr = expr.split("\\in ")[1]
        for old, new in _SPECIAL:
            expr = expr.replace(old, new)
        expr = expr.strip(_EDGE_CHARS)
        return _MATHRM.sub(r"\1", expr)

    def preprocess(self, expression1: str, expression2: str) -> tuple[str, str]:
        return self._clean(self._boxed_contents(expression1)), self._clean(self._boxed_contents(expression2))

    @staticmethod
    def split_by_comma(expr: str) -> list[str]:
        depth, start, items = 0, 0, []
        for i, ch in enumerate(expr):
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            elif ch == "," and depth == 0:
                items.append(expr[start:i].strip())
                start = i + 1
        if start < len(expr):
            items.append(expr[start:].strip())
        return items

    @staticmethod
    def trans_plus_minus_sign(items: list[str]) -> list[str]:
        out = []
        for item in items:
            if "\\pm" in item:
                out += [item.replace("\\pm", "+"), item.replace("\\pm", "-")]
            else:
                out.append(item)
        return out

    # -- judging ---------------------------------------------------------------
    def judge(self, expression1: Any, expression2: Any, precision: Any = 1e-8) -> bool:
        precisions = precision if isinstance(precision, list) else [precision]
        try:
            expression1, expression2 = self.preprocess(expression1, expression2)
        except Exception:
            return False
        if expression1 == expression2:
            return True
        items1 = self.trans_plus_minus_sign(self.split_by_comma(_CJK.sub("", expression1)))
        items2 = self.trans_plus_minus_sign(self.split_by_comma(_CJK.sub("", expression2)))
        if len(precisions) <= 1:
            precisions = precisions * len(items1)
        if len(items1) != len(items2):
            return False
        idx = -1
        while items1:
            idx = (idx + 1) % len(items1)
            item1 = items1[idx]
            self.precision = precisions[idx]
            for item2 in items2:
                if self.is_equal(item1, item2):
                    items1.remove(item1)
                    items2.remove(item2)
                    precisions.remove(self.precision)
                    break
            else:
                return False
        return True

    @staticmethod
    def is_interval(expr: str) -> bool:
        return expr.startswith(("(", "[")) and expr.endswith((")", "]"))

    def is_equal(self, expression1: str, expression2: str) -> bool:
        if expression1 == expression2 and expression1 != "" and expression2 != "":
            return True
        if self.is_interval(expression1) and self.is_interval(expression2):
            try:
                if self.interval_equal(expression1, expression2):
                    return True
            except Exception:
                return False
        with contextlib.suppress(Exception):
            if self.numerical_equal(expression1, expression2):
                return True
        with contextlib.suppress(Exception):
            if self.expression_equal(expression1, expression2) and not ("=" in expression1 and "=" in expression2):
                return True
        with contextlib.suppress(Exception):
            if self.equation_equal(expression1, expression2):
                return True
        return False

    def numerical_equal(self, expression1: str, expression2: str, include_percentage: bool = True) -> bool:
        reference, prediction = float(expression1), float(expression2)
        candidates = [reference / 100, reference, reference * 100] if include_percentage else [reference]
        return any(abs(c - prediction) <= self.precision * 1.01 for c in candidates)

    def expression_equal(self, exp1: str, exp2: str) -> Any:
        """True/False, or (for symbolic differences) SymPy's ``abs(value) < 1e-3``, whose truth may be undecidable."""
        import sympy as sp

        def rhs(expr: str) -> str:
            return (expr.split("=")[1] if "=" in expr else expr).strip()

        sym1, sym2 = sp.sympify(self.parse_latex(rhs(exp1))), sp.sympify(self.parse_latex(rhs(exp2)))
        if sym1 == sym2:
            return True
        sym1, sym2 = sym1.subs(self.pi, math.pi), sym2.subs(self.pi, math.pi)
        has1, has2 = sym1.has(sp.Symbol), sym2.has(sp.Symbol)
        if has1 != has2:
            return False
        if not has1:
            try:
                if not (self.can_compute_power(sym1) and self.can_compute_power(sym2)):
                    logger.info("OlympiadBench: %s and %s have too large a power to compare", sym1, sym2)
                    return False
                return bool(abs(sym1.evalf() - sym2.evalf()) <= self.precision * 1.01)
            except Exception:
                return False
        try:
            return abs(sp.simplify(sym1 - sym2).evalf()) < 1e-3
        except Exception:
            return False

    def equation_equal(self, expression1: str, expression2: str) -> bool:
        import sympy as sp

        def moved(equation: str) -> Any:
            lhs, rhs = equation.split("=")
            eq = sp.Eq(self.parse_latex(lhs), self.parse_latex(rhs))
            return sp.simplify(eq.lhs - eq.rhs)

        sym1, sym2 = moved(expression1), moved(expression2)
        ratio1, ratio2 = sp.simplify(sym1 / sym2), sp.simplify(sym2 / sym1)
        return bool((ratio1.is_Integer and ratio1 != 0) or (ratio2.is_Integer and ratio2 != 0))

    def interval_equal(self, expression1: str, expression2: str) -> bool:
        def same(inter1: str, inter2: str) -> bool:
            if inter1[0] != inter2[0] or inter1[-1] != inter2[-1]:
                return False
            ends1, ends2 = inter1.strip("[]()").split(","), inter2.strip("[]()").split(",")
            return all(self.expression_equal(a, b) for a, b in zip(ends1, ends2))

        if expression1 == expression2:
            return True
        parts1, parts2 = expression1.split("\\cup"), expression2.split("\\cup")
        if len(parts1) != len(parts2):
            return False
        return all(same(a, b) for a, b in zip(parts1, parts2))

    @staticmethod
    def can_compute_power(expr: Any) -> bool:
        import sympy as sp

        if not isinstance(expr, sp.Pow):
            return True
        base, exp = expr.as_base_exp()
        if not (base.is_number and exp.is_number):
            return False
        return not abs(exp.evalf()) > _MAX_EXPONENT


@ICL_EVALUATORS.register_module()
class OlympiadBenchEvaluator(BaseEvaluator):
    """OlympiadBench accuracy in [0, 100] with :class:`MathJudger` (reply first, reference second).

    Inputs: ``predictions`` (usually after ``olympiadbench_postprocess_v2``)
    and ``references`` (the first final answer; a dict reference with
    ``error`` gives per-answer precisions, one with a ``Tuple`` answer type
    is judged on ``final_answer[0]``, as in OpenCompass).  ``version`` is
    checked and otherwise unused; as in OpenCompass the constructor takes no
    ``pred_postprocessor``.  No time limit applies to SymPy's
    simplification.  Details: ``pred``, ``answer``, ``correct`` (and
    ``error`` when judging raised; the statistics count such a sample as not
    judged).
    """

    sample_outcome = SampleOutcome(correct="correct", unscorable="error")

    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("correct", percent)})

    def __init__(self, version: str = "v1") -> None:
        super().__init__()
        if version not in ("v1", "v2"):
            raise ValueError(f"OlympiadBenchEvaluator: version must be 'v1' or 'v2', got {version!r}")
        self.version = version
        self._judger: MathJudger | None = None

    @property
    def judger(self) -> MathJudger:
        if self._judger is None:
            self._judger = MathJudger()
        return self._judger

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "predictions and references have different length"}
        if not predictions:
            return no_samples(self)
        details = []
        for pred, ref in zip(predictions, references):
            detail: dict[str, Any] = {"pred": pred, "answer": ref, "correct": False}
            precision: Any = 1e-8
            if isinstance(ref, dict) and "error" in ref:
                if "," in ref["error"]:
                    precision = [float(p) if p else 1e-8 for p in ref["error"].split(",")]
                else:
                    precision = float(ref["error"])
            try:
                if isinstance(ref, dict) and "answer_type" in ref and "Tuple" in ref["answer_type"]:
                    ok = self.judger.judge(pred, ref["final_answer"][0], precision)
                else:
                    ok = self.judger.judge(pred, ref, precision)
                detail["correct"] = bool(ok)
            except Exception as exc:
                detail["error"] = str(exc)
            details.append(detail)
        return {"accuracy": percent(sum(d["correct"] for d in details), len(details)), "details": details}
