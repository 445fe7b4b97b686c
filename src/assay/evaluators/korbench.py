"""KOR-Bench's evaluator as OpenCompass 0.5.4 computes it (``korbenchEvaluator``).

A reply is compared with its answer by the rules of its category (and, for
some, of its rule id): the first ``[[…]]`` of each (else ``$\\boxed{…}$``,
else ``[…]``) cleaned and compared, as sorted parts, numbers, inequalities,
letters or the value of an arithmetic expression.  The two puzzle rules
whose answers are arithmetic (rule ids ``9`` and ``10``) have OpenCompass
run the reply's expression as Python (``eval`` inside its comparison
function: every builtin, the names that function holds and the modules its
module imports at hand).  The OpenCompass-named evaluator does the same, in
:mod:`assay.sandbox` — all expressions of a batch in one sandbox run, each
in a process of its own with a time limit (OpenCompass has none) — so
``abs(24)`` or a huge power get OpenCompass's verdict.  ``eval_mode=
'arithmetic'`` (assay's option) computes expressions of numbers,
operators, brackets, comparisons and literal lists, tuples, sets and dicts
in-process instead, without running anything, and counts a reply naming
anything (a name, a call, an attribute), or raising a number to an exponent
beyond 10000, as not evaluated, wrong.
"""

from __future__ import annotations

import ast
import json
import operator
import re
from collections.abc import Callable, Mapping
from typing import Any

from assay.datasets.korbench import korbench_entry
from assay.errors import InputFileError
from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples, share_percent
from assay.evaluators._pyeval import DEFAULT_LIMIT, Check, SandboxUnavailable, Verdict, run_checks, sandbox_notes
from assay.registry import ICL_EVALUATORS

__all__ = ["arithmetic_verdict", "korbench_extract", "korbench_match", "korbenchEvaluator"]

_DOUBLE = re.compile(r"\[\[\s*(.*?)\s*\]\]", re.DOTALL)
_BOXED = re.compile(r"\$\\boxed\{(.*?)\}\$", re.DOTALL)
_SINGLE = re.compile(r"\[\s*(.*?)\s*\]", re.DOTALL)
_INNER = re.compile(r"\[\[(.*?)\]\]", re.DOTALL)
_JSON_OBJECT = re.compile(r"{.*}", re.DOTALL)
_CONTROL = re.compile(r"[\x00-\x1F\x7F]")
_INEQUALITY = re.compile(r"(≥|≤)\s*([-]?\d+\.?\d*)")
_NON_WORD = re.compile(r"\W+")
_NON_LETTER = re.compile(r"[^A-Za-z]")

#: Question positions (in a mixed task) whose operation answers are compared as LaTeX expressions.
_MATH_POSITIONS = frozenset({18, 73, 74, 77, 94, 115, 116, 117, 121, 122, 123, 125, 131, 132, 134, 135, 136, 141, 143, 149,
                             145, 146, 147, *range(151, 157), 160, 161, 162, 164, 165, 166, 170, 206, 209, *range(211, 216),
                             217, 218})


def _clean_latex(text: str) -> str:
    if "=" in text:
        text = text.rsplit("=", 1)[1]
    text = re.sub(r"\\[()\[\]]", "", text)
    text = re.sub(r"\\text\{.*?\}", "", text)
    text = re.sub(r"\\(left|right|displaystyle)", "", text)
    return text.replace("\\\\", "\\")


def korbench_extract(text: str, level: str = "basic") -> str:
    """The first ``[[…]]`` of ``text`` (else ``$\\boxed{…}$``, else ``[…]``), stripped, as ``[[…]]``; ``'NULL'`` if none.

    ``level`` ``clean`` removes quotes, line breaks, spaces and brackets;
    ``logic`` quotes, line breaks, spaces and full stops; ``math`` quotes,
    line breaks, brackets and dollars, then keeps what follows the last
    ``=`` without ``\\(``-style delimiters, ``\\text{}``, ``\\left``,
    ``\\right`` and ``\\displaystyle`` (and returns it unwrapped).

    >>> korbench_extract('so [[ A B ]] and [[C]]'), korbench_extract('[[ A B ]]', 'clean'), korbench_extract('x')
    ('[[A B]]', '[[AB]]', 'NULL')
    """
    matches = _DOUBLE.findall(text) or _BOXED.findall(text) or _SINGLE.findall(text)
    if not matches:
        return "NULL"
    found = matches[0].strip()
    if level == "clean":
        found = found.replace('"', "").replace("\n", "").replace(" ", "").replace("[", "").replace("]", "")
    elif level == "logic":
        found = found.replace('"', "").replace("\n", "").replace(" ", "").replace(".", "")
    elif level == "math":
        found = found.replace('"', "").replace("\n", "").replace("[", "").replace("]", "").replace("$", "")
        return _clean_latex(found)
    return f"[[{found}]]"


def _inner(text: Any) -> str:
    if not isinstance(text, str):
        return "NULL"
    match = _INNER.search(text)
    return match.group(1) if match else "NULL"


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def _inequalities(text: str) -> list[str]:
    return sorted("".join(m) for m in _INEQUALITY.findall(text))


def _multi_results(response: str, answer: str) -> bool:
    found = re.sub(r"\\text\{or\}", "or", korbench_extract(response, "clean"))
    if found == "NULL":
        return False
    gold = korbench_extract(answer, "clean")
    return sorted(x.strip() for x in found.strip("[]").split("or")) == sorted(x.strip() for x in gold.strip("[]").split("or"))


def _math_expressions(response: str, answer: str) -> bool:
    # OpenCompass parses both with SymPy's LaTeX parser, which refuses the ANTLR runtime installed with
    # math-verify; on that failure it compares the cleaned texts, which is what it computes
    found = korbench_extract(response, "math")
    return found != "NULL" and found == korbench_extract(answer, "math")


_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow, ast.LShift: operator.lshift,
    ast.RShift: operator.rshift, ast.BitOr: operator.or_, ast.BitXor: operator.xor, ast.BitAnd: operator.and_,
    ast.MatMult: operator.matmul,
}
_UNARY: dict[type, Callable[[Any], Any]] = {ast.UAdd: operator.pos, ast.USub: operator.neg, ast.Invert: operator.invert,
                                            ast.Not: operator.not_}
_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
    ast.GtE: operator.ge, ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b, ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
}
_MAX_EXPONENT = 10000


class _NotEvaluated(Exception):
    """The expression names something, or is too large to compute."""


def _binary(op: ast.operator, left: Any, right: Any) -> Any:
    big = isinstance(right, (int, float)) and abs(right) > _MAX_EXPONENT
    trivial = isinstance(left, (int, float)) and (abs(left) <= 1 if isinstance(op, ast.Pow) else left == 0)
    if isinstance(op, (ast.Pow, ast.LShift)) and big and not trivial:
        raise _NotEvaluated("exponent too large")
    if isinstance(op, ast.Mult):
        for seq, times in ((left, right), (right, left)):
            if isinstance(seq, (str, bytes, list, tuple)) and isinstance(times, int) and len(seq) * times > 10**6:
                raise _NotEvaluated("sequence too long")
    return _BINARY[type(op)](left, right)


def _value(node: ast.AST) -> Any:
    if isinstance(node, ast.Expression):
        return _value(node.body)
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _binary(node.op, _value(node.left), _value(node.right))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_value(node.operand))
    if isinstance(node, ast.BoolOp):
        result = _value(node.values[0])
        for item in node.values[1:]:
            if (isinstance(node.op, ast.And) and not result) or (isinstance(node.op, ast.Or) and result):
                return result
            result = _value(item)
        return result
    if isinstance(node, ast.Compare):
        left = _value(node.left)
        for op, comparator in zip(node.ops, node.comparators):
            right = _value(comparator)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.IfExp):
        return _value(node.body) if _value(node.test) else _value(node.orelse)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and not any(isinstance(e, ast.Starred) for e in node.elts):
        items = [_value(e) for e in node.elts]
        return tuple(items) if isinstance(node, ast.Tuple) else set(items) if isinstance(node, ast.Set) else items
    if isinstance(node, ast.Dict) and None not in node.keys:
        return {_value(k): _value(v) for k, v in zip(node.keys, node.values) if k is not None}
    if isinstance(node, ast.Subscript):
        return _value(node.value)[_value(node.slice)]
    if isinstance(node, ast.Slice):
        return slice(*(None if part is None else _value(part) for part in (node.lower, node.upper, node.step)))
    raise _NotEvaluated(type(node).__name__)


def _expression_value(text: str) -> tuple[bool, Any]:
    """``(True, value)`` of the expression ``text`` as Python computes it, or ``(False, None)`` when it cannot be computed."""
    try:
        return True, _value(ast.parse(text.strip(" \t"), mode="eval"))
    except (_NotEvaluated, SyntaxError, ValueError, TypeError, ArithmeticError, LookupError, MemoryError, RecursionError):
        return False, None


def _arithmetic_operators(text: str) -> list[str]:
    return re.findall(r"[+\-*/]", text)


#: ``evaluate(rule, response, answer)``: puzzle rule ``9`` or ``10``'s verdict on the texts inside ``[[…]]``,
#: once the reply's operators or numbers match the answer's (what OpenCompass computes with ``eval``).
Evaluate = Callable[[str, str, str], bool]


def arithmetic_verdict(rule: str, response: str, answer: str) -> bool:
    """Puzzle rule ``9`` or ``10``'s verdict with the expression's arithmetic computed in-process, nothing run.

    Rule 9: the expression left of the reply's ``=`` equals the integer after
    the answer's ``=``; rule 10: the expression left of ``=`` equals 24.  An
    expression naming anything, or too large to compute, is wrong.

    >>> arithmetic_verdict('10', '(1+2+3)*4', ''), arithmetic_verdict('10', 'abs(24)', '')
    (True, False)
    """
    response = response.replace("×", "*").replace("−", "-")
    expected = re.search(r"=\s*(-?\d+)", answer.replace("×", "*").replace("−", "-")) if rule == "9" else None
    target = int(expected.group(1)) if expected is not None else 24
    ok, value = _expression_value(response.split("=")[0])
    return ok and bool(value == target)


def _equation(response: str, answer: str, evaluate: Evaluate) -> bool:
    response, answer = response.replace("×", "*").replace("−", "-"), answer.replace("×", "*").replace("−", "-")
    if _arithmetic_operators(response.split("=")[0]) != _arithmetic_operators(answer.split("=")[0]):
        return False
    if re.search(r"=\s*(-?\d+)", answer) is None:
        raise ValueError(f"korbenchEvaluator: puzzle rule 9's answer {answer!r} gives no '= <integer>' result")
    return evaluate("9", response, answer)


def _twenty_four(response: str, answer: str, evaluate: Evaluate) -> bool:
    left = response.replace("×", "*").replace("−", "-").split("=")[0]
    gold = answer.split("\n")[0].split("=")[0]
    if sorted(_NON_WORD.sub("", left)) != sorted(_NON_WORD.sub("", gold)):
        return False
    return evaluate("10", response, answer)


_PUZZLE: dict[str, Callable[[str, str], bool]] = {
    "1": lambda r, a: _NON_LETTER.sub("", r).lower() == _NON_LETTER.sub("", a).lower(),
    "2": lambda r, a: _NON_LETTER.sub("", r).lower() in a.split(","),
    "3": lambda r, a: sorted(w for w in re.split(r"\W+", r.lower()) if w) == sorted(a.split(" ")),
    "4": lambda r, a: _NON_LETTER.sub("", r).lower() in a,
    "5": lambda r, a: sorted(re.sub(r"\s+", "", r).split(",")) == sorted(a.split(",")),
    "18": lambda r, a: re.sub(r"[,\s\[\]]+", "", r) == re.sub(r"[,\s\[\]]+", "", a),
}


def korbench_match(response: str, answer: str, category: Any, rule_id: Any, position: Any,
                   evaluate: Evaluate = arithmetic_verdict) -> bool:
    """Is ``response`` right for ``answer``, by the rules of ``category`` and ``rule_id``?

    ``position`` is what OpenCompass passes as the question's index: 0 for a
    single question, the question's position in a mixed task (positions in
    OpenCompass's list of LaTeX answers compare operation answers as cleaned
    LaTeX; text ids ``'178'``/``'179'``, which it never passes, as sorted
    inequalities).

    Puzzle rules 9 and 10 take the verdict on their expression from
    ``evaluate`` (by default :func:`arithmetic_verdict`; the evaluator's
    OpenCompass mode runs it as Python in the sandbox).

    Logic rule 5 sorts the ``;``-separated parts of the reply's ``[[…]]``
    (brackets kept) and of the raw answer: parts in another order than the
    answer's never match, as in OpenCompass.

    >>> korbench_match('It is [[ X; Y ]]', '[[X;Y]]', 'logic', '5', 0), korbench_match('[[Y;X]]', '[[X;Y]]', 'logic', '5', 0)
    (True, False)
    >>> korbench_match('[[2 or 1]]', '[[1 or 2]]', 'operation', '7', 0)
    True
    """
    if category == "logic" and rule_id == "5":
        return sorted(korbench_extract(response, "logic").split(";")) == sorted(answer.split(";"))
    if category == "logic":
        return korbench_extract(response, "logic") == korbench_extract(answer, "logic")
    if category == "operation" and position in ("178", "179"):
        return _inequalities(korbench_extract(response, "clean")) == _inequalities(answer)
    if category == "operation" and rule_id == "18":
        found, gold = korbench_extract(response, "clean"), _inner(answer)
        return "".join(sorted(_NON_WORD.sub("", found))) == "".join(sorted(_NON_WORD.sub("", gold)))
    if category == "operation" and rule_id in {"23", "24", "25"}:
        return _numbers(korbench_extract(response, "clean")) == _numbers(answer)
    if category == "operation" and int(position) in _MATH_POSITIONS:
        return _math_expressions(response, answer)
    if category == "operation" and "or" in answer:
        return _multi_results(response, answer)
    if category == "puzzle":
        found, gold = _inner(response), _inner(answer)
        if rule_id == "9":
            return _equation(found, gold, evaluate)
        if rule_id == "10":
            return _twenty_four(found, gold, evaluate)
        method = _PUZZLE.get(rule_id)
        return method(found, gold) if method else _NON_WORD.sub("", found) == _NON_WORD.sub("", gold)
    return korbench_extract(response, "clean") == answer


def _reply_object(text: str) -> Any:
    """The JSON object from the reply's first ``{`` to its last ``}`` (control characters removed), else ``'NULL'``."""
    matches = _JSON_OBJECT.findall(text)
    if not matches:
        return "NULL"
    try:
        return json.loads(_CONTROL.sub("", matches[-1]))
    except json.JSONDecodeError:
        return "NULL"


def _mixed(prediction: str, row: dict[str, Any], evaluate: Evaluate) -> dict[str, Any]:
    replies = _reply_object(prediction)
    if replies == "NULL":
        return {"idx": 0, "response": replies, "details": None, "pass_rate": 0, "is_correct": False}
    answers = [str(v) for v in replies.values()]
    base, questions = row.get("base_path"), row.get("question_list") or []
    if not isinstance(base, str):
        raise ValueError(f"korbenchEvaluator: a mixed task's row has no base_path (the data folder), got {base!r}")
    right, details = 0, []
    for position, name in enumerate(questions):
        category = name.rsplit("_", 1)[0]
        question = korbench_entry(base, name, "sample")
        if position >= len(answers):
            break
        reply = answers[position]
        verdict = korbench_match(reply, question["answer"], category, question["rule_id"], position, evaluate)
        right += bool(verdict)
        details.append({"question": name, "response_text": korbench_extract(reply), "answer": question["answer"],
                        "is_correct": verdict})
    rate = right / len(questions)
    return {"idx": 0, "response": replies, "details": details, "pass_rate": rate, "is_correct": rate == 1.0}


class _Collected:
    """An :data:`Evaluate` that records the checks asked for (each wrong meanwhile), then answers from their verdicts."""

    def __init__(self) -> None:
        self.checks: dict[Check, int] = {}
        self.verdicts: dict[Check, Verdict] | None = None
        self.limit = DEFAULT_LIMIT

    def __call__(self, rule: str, response: str, answer: str) -> bool:
        check = Check(f"korbench{rule}", (response, answer))
        if self.verdicts is None:
            self.checks.setdefault(check, len(self.checks))
            return False
        verdict = self.verdicts[check]
        if verdict.timed_out:
            raise ValueError(f"korbenchEvaluator: puzzle rule {rule}'s expression {response!r} {verdict.failure} "
                             f"(OpenCompass evaluates it without a time limit; expression_timeout sets this one)")
        if verdict.out_of_memory:
            raise ValueError(f"korbenchEvaluator: puzzle rule {rule}'s expression {response!r} {verdict.failure} "
                             f"(OpenCompass evaluates it without a memory limit)")
        if verdict.value is None:
            raise ValueError(f"korbenchEvaluator: puzzle rule {rule}'s expression {response!r} stops OpenCompass's "
                             f"comparison: {verdict.failure}")
        return verdict.value

    def run(self, limit: float, isolation: str) -> None:
        checks = list(self.checks)
        self.verdicts = dict(zip(checks, run_checks(checks, limit=limit, isolation=isolation)))


@ICL_EVALUATORS.register_module()
class korbenchEvaluator(BaseEvaluator):
    """KOR-Bench accuracy: the share of samples right, × 100 (``accuracy``).

    Inputs: ``predictions``, ``references`` and the test set (its
    ``prompt_mode``, ``category``, ``rule_id``; for mixed tasks
    ``question_list`` and ``base_path``).  A single question is judged by
    :func:`korbench_match`; a mixed task's reply must hold a JSON object
    whose values, in order, answer the questions, each looked up in the data
    folder and judged by its own category, and is right when all are (its
    ``pass_rate`` the share right).  Details as OpenCompass gives them:
    ``idx`` (always 0), ``response``, ``response_text``, ``answer``,
    ``is_correct`` (counterfactual questions add ``real_life_answer``, empty,
    and ``is_real_life``, false), ``correct``, ``pred``; mixed tasks
    ``details`` (per question) and ``pass_rate``.  A row of another prompt
    mode is wrong (``is_correct``, ``pred``, ``answer``).  A non-text reply, a
    rule-9 puzzle answer without ``= <integer>`` (where OpenCompass stops) or a
    mixed task naming a question the data lacks gives an error record.

    Puzzle rules 9 and 10 run the reply's expression as OpenCompass does, with
    Python's ``eval`` and the names OpenCompass's comparison function holds
    (``abs(24)`` is 24; ``expected_result`` is rule 9's expected value), in
    :mod:`assay.sandbox`: one sandbox run per batch, each expression in a
    process of its own, limited to ``expression_timeout`` seconds.
    OpenCompass has no limit (a reply such as ``9**9**9`` stalls its
    scoring); one that does not end within it, runs out of the sandbox's
    memory or ends its process (``os._exit``, a crash) gives an error record
    naming the sample.  The names
    OpenCompass's module imports (``json``, ``os``, ``re``, ``sp`` — SymPy —,
    ``yaml``, ``parse_latex``) are there; its own helper functions are not (a
    reply calling one is wrong).  Where no sandbox can be created the batch
    is an error record saying why.

    Args:
        eval_mode: ``'python'`` (OpenCompass's verdicts, in the sandbox) or
            ``'arithmetic'`` (assay's: the expression's arithmetic computed
            in-process, nothing run, a reply naming anything wrong; see
            :func:`arithmetic_verdict`).
        expression_timeout: seconds each expression may run in the sandbox.
        isolation: see :class:`assay.sandbox.Sandbox`.
    """

    sample_outcome = SampleOutcome(correct="is_correct")

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """Why the sandbox the replies run in cannot run here, if it cannot (nothing with ``eval_mode='arithmetic'``)."""
        return sandbox_notes("korbenchEvaluator", cfg, "python", False)

    def __init__(self, eval_mode: str = "python", expression_timeout: float = DEFAULT_LIMIT, isolation: str = "auto",
                 pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if eval_mode not in ("python", "arithmetic"):
            raise ValueError(f"korbenchEvaluator: eval_mode must be 'python' or 'arithmetic', got {eval_mode!r}")
        if not float(expression_timeout) > 0:
            raise ValueError(f"korbenchEvaluator: expression_timeout must be positive, got {expression_timeout!r}")
        self.eval_mode = eval_mode
        self.expression_timeout = float(expression_timeout)
        self.isolation = isolation

    def _sample(self, prediction: Any, reference: Any, row: dict[str, Any], evaluate: Evaluate) -> dict[str, Any]:
        mode = row.get("prompt_mode")
        if mode not in ("0_shot", "3_shot", "Multi-Q", "Multi-R", "Multi-RQ", "mixed"):
            return {"is_correct": False, "pred": prediction, "answer": reference}
        if not isinstance(prediction, str):
            raise ValueError(f"korbenchEvaluator: a reply must be text, got {type(prediction).__name__} {prediction!r}")
        if mode in ("0_shot", "3_shot"):
            category, rule_id = row.get("category"), row.get("rule_id")
            gold = "" if reference is None else reference
            result: dict[str, Any] = {"idx": 0, "response": prediction, "response_text": korbench_extract(prediction),
                                      "answer": gold,
                                      "is_correct": korbench_match(prediction, gold, category, rule_id, 0, evaluate)}
            if category == "counterfactual":
                result["real_life_answer"] = ""
                result["is_real_life"] = korbench_match(prediction, "", category, rule_id, 0, evaluate)
        else:
            result = _mixed(prediction, row, evaluate)
        result["correct"] = result["is_correct"]
        result.update({"pred": prediction, "answer": reference})
        return result

    def _details(self, predictions: list[Any], references: list[Any], rows: list[dict[str, Any]]) -> list[dict[str, Any]] | str:
        """Each sample's details, or the error naming the first sample that stops the scoring."""
        evaluate: Evaluate = arithmetic_verdict
        if self.eval_mode == "python":
            collected = _Collected()
            for pred, ref, row in zip(predictions, references, rows):
                try:
                    self._sample(pred, ref, row, collected)
                except (ValueError, InputFileError):
                    continue  # raised again below, where the sample is named
            try:
                collected.run(self.expression_timeout, self.isolation)
            except SandboxUnavailable as exc:
                return (f"korbenchEvaluator: puzzle rules 9 and 10 run the reply's expression as Python, in the sandbox, "
                        f"which cannot run here: {exc} (eval_mode='arithmetic' computes them without running them)")
            evaluate = collected
        details = []
        for i, (pred, ref, row) in enumerate(zip(predictions, references, rows)):
            try:
                details.append(self._sample(pred, ref, row, evaluate))
            except (ValueError, InputFileError) as exc:
                return f"sample {i}: {exc}"
        return details

    def sample_score(self, prediction: Any, reference: Any, row: dict[str, Any]) -> dict[str, Any]:
        """One sample's details, as OpenCompass's ``sample_score`` gives them (``ValueError`` where it stops)."""
        details = self._details([prediction], [reference], [row])
        if isinstance(details, str):
            raise ValueError(details)
        return details[0]

    def score(self, predictions: list[Any], references: list[Any], test_set: Any) -> dict[str, Any]:
        if not predictions:
            return no_samples(self)
        rows = [dict(r) for r in test_set] if test_set is not None else []
        if len(predictions) != len(references) or len(rows) != len(predictions):
            return {"error": f"korbenchEvaluator: {len(predictions)} predictions, {len(references)} references, "
                             f"{len(rows)} test rows"}
        details = self._details(predictions, references, rows)
        if isinstance(details, str):
            return {"error": details}
        right = sum(1 for d in details if d.get("is_correct", False))
        return {"accuracy": share_percent(right, len(predictions)), "details": details}
