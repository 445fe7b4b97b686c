"""Verdicts that OpenCompass computes by running reply text as Python, computed in the sandbox (private).

Some rule-based evaluators of OpenCompass hand a reply's expression to
Python's ``eval`` (KOR-Bench's arithmetic puzzles) or to SymPy, which runs it
as Python too (the Game of 24).  Here all such checks of one scoring batch
run in a single :mod:`assay.sandbox` run: the program there forks one child
per check (:func:`assay._bounded.run_bounded`, whose source the program
includes), so that a check that never ends, runs out of memory or crashes
costs only itself.  Each check has ``limit`` wall-clock seconds; one that
does not end within them, or that its CPU-time limit stops (SIGXCPU, or
SIGKILL once it used that CPU time), is reported as timed out; one that runs
out of the sandbox's memory is a failure (``ran out of memory``), as is one
killed by SIGKILL before its CPU-time limit (no limit of the check's: the
kernel's out-of-memory killer, another process or the expression itself),
one whose answer passes :data:`assay._bounded.MOST_ANSWER` bytes, and one
whose expression ends its process otherwise (``os._exit``, a crash: ``the
expression ended its process (status N)``); the caller names the sample.  No model text is run in the evaluating
process.  A check's process reaches only its own verdict: it runs with its
standard streams on ``/dev/null`` and every other descriptor closed but its
own pipe, every process it starts is killed when it ends (its process group;
what leaves the group comes back to the collecting process, their subreaper,
which kills and reaps it before the next check), the process that collects the verdicts is undumpable (no
``/proc/<pid>/fd`` of it for another process of its uid), and that process's
output must hold exactly one verdict per check, in order, else the batch
fails.

A check is a ``kind`` the sandboxed program knows (``korbench9``,
``korbench10``, ``game24``, ``srbench``) and its text arguments; its verdict is
the bool OpenCompass's function returns, or the exception that escapes it (where
OpenCompass stops; its text cut to 500 characters).  An answer the check's
process wrote that is not of its kind's shape (a bool; SRBench's five values, and the text of a complex fit)
was not its function's: the check counts as having ended its process.  ``srbench`` computes values instead of a verdict: SRBench's
reading of a formula (SymPy's ``sympify`` and ``lambdify``), its fit on the
points given as JSON (RMSE, NMSE, R2, as scikit-learn computes the first and
the last on the finite points) and SymPy's ``simplify`` of the difference; it
catches a MemoryError as OpenCompass does (the answer is then not valid),
gives a Python int of the formula's code outside int64 to NumPy as NumPy 1
would (an object array; one of uint64's range a uint64) and reports a complex
fit's value as text (``complex``).
"""

from __future__ import annotations

import functools
import importlib.util
import json
import logging
import os
import re
import secrets
import signal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay._bounded import EXITED, Ended

logger = logging.getLogger(__name__)

__all__: list[str] = []

#: The seconds each check may run where OpenCompass sets no limit of its own.
DEFAULT_LIMIT = 60.0

_NAMES_SYMPY = re.compile(r"\b(sp|parse_latex)\b")

#: The most bytes of the sandboxed program's output one check's record takes: an exception's text is cut to 500
#: characters, each written as at most 12 bytes of JSON (a surrogate pair's escapes).
_MOST_RECORD = 6 * 1024 + 256

#: Seconds allowed for starting the sandboxed interpreter and importing SymPy.
_STARTUP = 30.0

_PROGRAM = r'''
import builtins, json, os, re, sys
sys.path[:0] = PATHS

def _sympy():
    import sympy
    return sympy

def _numpy():
    import numpy
    return numpy

def _korbench_globals(source):
    # the names OpenCompass's korbench_utils module holds at the expression (its imports)
    names = {"__builtins__": builtins, "json": json, "os": os, "re": re}
    if re.search(r"\b(sp|parse_latex)\b", source):
        sympy = _sympy()
        from sympy.parsing.latex import parse_latex
        names.update(sp=sympy, parse_latex=parse_latex)
    if re.search(r"\byaml\b", source):
        try:
            import yaml
            names["yaml"] = yaml
        except ImportError:
            pass
    return names

def korbench9(response_text, answer):
    response_text = response_text.replace("\u00d7", "*").replace("\u2212", "-")
    answer = answer.replace("\u00d7", "*").replace("\u2212", "-")
    def extract_operators(s):
        return re.findall(r"[+\-*/]", s)
    response_ops = extract_operators(response_text.split("=")[0])
    answer_ops = extract_operators(answer.split("=")[0])
    match = re.search(r"=\s*(-?\d+)", answer)
    expected_result = int(match.group(1))
    left_side = response_text.split("=")[0]
    scope = {"response_text": response_text, "answer": answer, "extract_operators": extract_operators,
             "response_ops": response_ops, "answer_ops": answer_ops, "match": match,
             "expected_result": expected_result, "left_side": left_side}
    try:
        result = eval(left_side, _korbench_globals(left_side), scope)
    except MemoryError:
        raise
    except Exception:
        return False
    return result == expected_result

def korbench10(response_text, answer):
    response_text = response_text.replace("\u00d7", "*").replace("\u2212", "-").split("=")[0]
    answer = answer.split("\n")[0].split("=")[0]
    response_ops = sorted(re.sub(r"\W+", "", response_text))
    answer_ops = sorted(re.sub(r"\W+", "", answer))
    scope = {"response_text": response_text, "answer": answer, "response_ops": response_ops, "answer_ops": answer_ops}
    try:
        result = eval(response_text, _korbench_globals(response_text), scope)
    except MemoryError:
        raise
    except Exception:
        return False
    return result == 24

def game24(prediction):
    sympy = _sympy()
    try:
        return int(sympy.simplify(prediction) == 24)
    except MemoryError:
        raise
    except Exception:
        return 0

def _srbench_parse(formula):
    # (SRBench's parts catch every Exception, MemoryError included, as OpenCompass's do: a reading that runs out of
    # memory scores the answer invalid)
    # SRBench's reading of a formula: the text after its first "=", through SymPy, as a NumPy function of its
    # symbols in name order; None where that fails
    sympy, numpy = _sympy(), _numpy()
    try:
        text = formula.split("=", 1)[1].strip() if "=" in formula else formula.strip()
        if not text:
            return None
        names = {"sin": sympy.sin, "cos": sympy.cos, "exp": sympy.exp, "sqrt": sympy.sqrt, "log": sympy.log,
                 "arccos": sympy.acos, "arcsin": sympy.asin, "tan": sympy.tan, "pi": sympy.pi}
        expr = sympy.sympify(text, locals=names)
        variables = sorted(str(s) for s in expr.free_symbols)
        numeric = {"sqrt": numpy.sqrt, "exp": numpy.exp, "sin": numpy.sin, "cos": numpy.cos, "log": numpy.log,
                   "arcsin": numpy.arcsin, "arccos": numpy.arccos, "tan": numpy.tan, "pi": numpy.pi}
        func = sympy.lambdify([sympy.Symbol(v) for v in variables], expr, modules=["numpy", numeric])
        return _numpy1_ints(numpy, func), variables
    except Exception:
        return None

def _numpy1_ints(numpy, func):
    # NumPy 1 (which OpenCompass 0.5.4 requires) makes a Python int of the function's code (after Python's own
    # folding of constants) outside int64 and uint64 an object array, so that the operation on it gives an object
    # array (that no ufunc and no isfinite takes), and one of uint64's own range a uint64; NumPy 2 makes either a
    # float (or fails with integer points).  Such an int is given to the function as the array NumPy 1 makes of it.
    import ast, inspect
    try:
        tree = ast.parse(inspect.getsource(func))
    except (OSError, TypeError, SyntaxError):  # no source kept for it: the function as lambdify made it
        return func
    operations = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
                  ast.Div: lambda a, b: a / b, ast.Pow: lambda a, b: a ** b}

    def number(node):
        return isinstance(node, ast.Constant) and type(node.value) in (int, float)

    class Fold(ast.NodeTransformer):
        def visit_UnaryOp(self, node):
            self.generic_visit(node)
            if isinstance(node.op, (ast.USub, ast.UAdd)) and number(node.operand):
                value = -node.operand.value if isinstance(node.op, ast.USub) else node.operand.value
                return ast.copy_location(ast.Constant(value), node)
            return node

        def visit_BinOp(self, node):
            self.generic_visit(node)
            operation = operations.get(type(node.op))
            if operation is None or not (number(node.left) and number(node.right)):
                return node
            if isinstance(node.op, ast.Pow) and abs(node.right.value) > 128:
                return node
            try:
                return ast.copy_location(ast.Constant(operation(node.left.value, node.right.value)), node)
            except (ArithmeticError, ValueError):
                return node

    wide = {}

    class Wide(ast.NodeTransformer):
        def visit_Constant(self, node):
            value = node.value
            if type(value) is not int or -2**63 <= value < 2**63:
                return node
            name = f"_numpy1_int{len(wide)}"
            wide[name] = numpy.array(value, dtype=numpy.uint64 if 2**63 <= value < 2**64 else object)
            return ast.copy_location(ast.Name(name, ast.Load()), node)

    tree = Wide().visit(Fold().visit(tree))
    if not wide:
        return func
    names = dict(func.__globals__)
    names.update(wide)
    exec(compile(ast.fix_missing_locations(tree), "<srbench formula>", "exec"), names)
    return names[func.__name__]

def _srbench_same(pred, ref):
    # SymPy's simplify of the difference of the texts after their first "=" (up to a second one) is 0
    sympy = _sympy()
    try:
        left = sympy.sympify(pred.split("=")[1] if "=" in pred else pred)
        right = sympy.sympify(ref.split("=")[1] if "=" in ref else ref)
        return bool(sympy.simplify(left - right) == 0)
    except Exception:
        return False

def _checked(numpy, values):
    # what scikit-learn's regression metrics accept: a real array of at least one sample
    values = numpy.asarray(values)
    if values.dtype.kind == "c":
        raise ValueError("complex values")
    if values.dtype.kind == "O":
        values = values.astype(numpy.float64)
    if values.shape[0] < 1:
        raise ValueError("no sample")
    return values

def _rmse(numpy, truth, pred):
    truth, pred = _checked(numpy, truth), _checked(numpy, pred)
    return float(numpy.sqrt(numpy.mean((truth.reshape(-1, 1) - pred.reshape(-1, 1)) ** 2, axis=0))[0])

def _r2(numpy, truth, pred):
    truth, pred = _checked(numpy, truth), _checked(numpy, pred)
    if pred.shape[0] < 2:
        return float("nan")
    truth, pred = truth.reshape(-1, 1), pred.reshape(-1, 1)
    residual = float(numpy.sum((truth - pred) ** 2, axis=0)[0])
    total = float(numpy.sum((truth - numpy.mean(truth, axis=0)) ** 2, axis=0)[0])
    if residual == 0:
        return 1.0
    if total == 0:
        return 0.0
    return 1 - residual / total

def srbench(prediction, reference, points):
    numpy = _numpy()
    data = numpy.array(json.loads(points))
    out = {"RMSE": 100000.0, "NMSE": 100000.0, "R2": -100000.0, "SymbolicMatch": False, "is_valid": False}
    parsed = _srbench_parse(prediction)
    if parsed is None:
        return out
    func, _ = parsed
    truth = _srbench_parse(reference)
    if truth is None:
        raise ValueError("the reference cannot be read as a formula")
    func_gt, variables = truth
    n = len(variables)
    x, y_true = data[:, :n], data[:, -1]
    try:
        y_pred = func(*[x[:, i] for i in range(n)])
        if numpy.isscalar(y_pred):
            y_pred = numpy.full_like(y_true, y_pred)
        keep = numpy.isfinite(y_true) & numpy.isfinite(y_pred)
        y_true, y_pred = y_true[keep], y_pred[keep]
        out["RMSE"] = _rmse(numpy, y_true, y_pred)
        out["R2"] = _r2(numpy, y_true, y_pred)
        out["NMSE"] = numpy.mean((y_true - y_pred) ** 2) / numpy.var(y_true)
        out["is_valid"] = True
    except Exception:
        # the fallback: both formulas as functions of two variables on a 1000 x 1000 grid of [-10, 10]^2
        try:
            axis = numpy.linspace(-10, 10, 1000)
            first, second = numpy.meshgrid(axis, axis)
            first, second = first.flatten(), second.flatten()
            gt_vals = func_gt(first, second)
            pred_vals = func(first, second)
            keep = numpy.isfinite(gt_vals) & numpy.isfinite(pred_vals)
            gt_vals, pred_vals = gt_vals[keep], pred_vals[keep]
            out["RMSE"] = numpy.sqrt(numpy.mean((gt_vals - pred_vals) ** 2))
            out["R2"] = 1 - numpy.sum((gt_vals - pred_vals) ** 2) / numpy.var(gt_vals)
            out["NMSE"] = numpy.mean((gt_vals - pred_vals) ** 2) / numpy.var(gt_vals)
            out["is_valid"] = True
        except Exception:
            pass
    out["SymbolicMatch"] = _srbench_same(prediction, reference)
    for key in ("RMSE", "NMSE", "R2"):
        if numpy.iscomplexobj(out[key]):
            # a complex fit: OpenCompass's means are then complex, which it cannot write
            out["complex"] = f"{key} = {complex(out[key])!r}"
            out[key] = float("nan")
        else:
            out[key] = float(out[key])  # JSON writes NaN and the infinities as such
    return out

KINDS = {"korbench9": korbench9, "korbench10": korbench10, "game24": game24, "srbench": srbench}
VALUED = {"srbench"}

def check(kind, args):
    globals().pop("TOKEN", None)  # the check reaches neither the batch's output (its streams are /dev/null) nor its marker
    value = KINDS[kind](*args)
    return value if kind in VALUED else bool(value)

def _reap_leftovers():
    # every process a check started that outlived it (left its process group, or its children): this process is
    # their subreaper, so they are its children once their parents are gone; killed and reaped until none is left
    while True:
        try:
            kids = set()
            for task in os.listdir("/proc/self/task"):
                with open("/proc/self/task/%s/children" % task) as fh:
                    kids.update(int(pid) for pid in fh.read().split())
        except (OSError, ValueError):
            return
        if not kids:
            return
        for pid in kids:
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        for pid in kids:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass

try:  # undumpable: a child of the same uid cannot open this process's /proc/<pid>/fd/1 (its output) nor trace it
    import ctypes
    _libc = ctypes.CDLL(None, use_errno=True)
    _libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0
    _libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: what a check's processes leave behind comes back here
except (OSError, AttributeError):
    pass
if any(kind in ("game24", "srbench") for kind, _ in CHECKS):
    _sympy()  # imported once, before the children are forked
if any(kind == "srbench" for kind, _ in CHECKS):
    # SymPy's and NumPy's lazily imported parts (the parser, lambdify's printer, simplify) loaded once, on a formula
    # of assay's own, before the children are forked
    srbench("y = sin(x0)*x1 + sqrt(x1)", "y = x0**2/x1", "[[1.0, 2.0, 3.0], [2.0, 3.0, 4.0]]")
SRBENCH_FLOATS, SRBENCH_BOOLS = ("RMSE", "NMSE", "R2"), ("SymbolicMatch", "is_valid")

def _shaped(kind, value):
    # what a check's function can return: a bool, or SRBench's values (anything else the check's process wrote itself)
    if kind not in VALUED:
        return isinstance(value, bool)
    # (with "complex", the text of a complex fit's value, where there is one)
    return (isinstance(value, dict) and set(value) - {"complex"} == set(SRBENCH_FLOATS + SRBENCH_BOOLS)
            and isinstance(value.get("complex", ""), str)
            and all(type(value[key]) is float for key in SRBENCH_FLOATS)
            and all(isinstance(value[key], bool) for key in SRBENCH_BOOLS))

RECORDS = {TIMED_OUT: "t", OUT_OF_MEMORY: "m", RAISED: "e", EXITED: "k"}
for index, (kind, args) in enumerate(CHECKS):
    ended = run_bounded(lambda: check(kind, args), seconds=LIMIT)
    _reap_leftovers()
    if ended.how == ANSWERED and not _shaped(kind, ended.value):
        ended = Ended(EXITED, status=ended.status)
    elif ended.how == RAISED:
        ended = Ended(RAISED, str(ended.value)[:500], status=ended.status)
    value = {ANSWERED: ended.value, RAISED: ended.value, EXITED: ended.status}.get(ended.how, True)
    key = ("r" if kind in VALUED else "v") if ended.how == ANSWERED else RECORDS[ended.how]
    record = {key: value}
    if ended.how == EXITED:  # what is known of how it ended: past its CPU limit, stopped by this process
        record.update(c=ended.past_cpu_limit, w=ended.value)
    sys.stdout.write(TOKEN + json.dumps([index, record]) + "\n")
    sys.stdout.flush()
'''


@dataclass(frozen=True)
class Check:
    """One check: the ``kind`` of OpenCompass's function and its text arguments."""

    kind: str
    args: tuple[str, ...]


@dataclass(frozen=True)
class Verdict:
    """How one check ended: ``value`` (OpenCompass's bool), ``result`` (what a check computing values — ``srbench``
    — returned, as JSON data) or ``failure`` (what stopped it), ``timed_out`` and ``out_of_memory`` (stopped by a
    limit OpenCompass does not set)."""

    value: bool | None = None
    failure: str | None = None
    timed_out: bool = False
    out_of_memory: bool = False
    result: Any = None


class SandboxUnavailable(RuntimeError):
    """The checks cannot be run: no sandbox here, or its Python cannot import SymPy."""


def _sympy_roots(numpy: bool = False) -> list[str]:
    """The folders holding this environment's SymPy and mpmath (and NumPy, with ``numpy``), for a sandboxed Python
    that lacks them."""
    from assay.sandbox import missing_modules

    names = ["sympy", "mpmath", *(["numpy"] if numpy else [])]
    if not missing_modules(names):
        return []
    roots = []
    for name in names:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            raise SandboxUnavailable(f"the package {name} is installed neither for the sandbox's Python nor here")
        roots.append(os.path.dirname(os.path.realpath(next(iter(spec.submodule_search_locations)))))
    return sorted(set(roots))


def sandbox_notes(name: str, cfg: Mapping[str, Any], default_mode: str, sympy: bool, numpy: bool = False) -> list[str]:
    """What a dry run says of an evaluator of ``cfg`` that runs replies here: why the sandbox cannot, if it cannot
    (``sympy``, ``numpy``: its checks import SymPy, NumPy)."""
    if cfg.get("eval_mode", default_mode) != default_mode:
        return []
    from assay.sandbox import isolation_unavailable

    try:
        reason = isolation_unavailable(str(cfg.get("isolation", "auto")))  # type: ignore[arg-type]
    except ValueError as exc:  # an isolation the sandbox does not know
        reason = str(exc)
    if reason is None and sympy:
        try:
            _sympy_roots(numpy)
        except SandboxUnavailable as exc:
            reason = str(exc)
    if reason is None:
        return []
    return [f"{name} runs the replies as Python in the sandbox, which cannot run here ({reason}): its tasks will be "
            f"error records; eval_mode='arithmetic' scores them without running them"]


@functools.cache
def _helper_source() -> str:
    """The source of :mod:`assay._bounded`, which the sandboxed program forks its checks with (it comes first)."""
    from assay import _bounded

    return Path(_bounded.__file__).read_text(encoding="utf-8")


def _verdict(record: Mapping[str, Any], limit: float) -> Verdict:
    """The verdict of one check from the record the sandboxed program writes for it."""
    if "v" in record:
        return Verdict(value=bool(record["v"]))
    if "r" in record:
        return Verdict(result=record["r"])
    if "t" in record:
        return Verdict(failure=f"did not end within {limit:g} s", timed_out=True)
    if "m" in record:
        return Verdict(failure="ran out of memory (the sandbox's memory limit)", out_of_memory=True)
    if "e" in record:
        return Verdict(failure=str(record["e"]))
    code = record.get("k")
    if isinstance(record.get("w"), str):  # stopped by the program that runs the checks, not by a limit
        return Verdict(failure=f"{record['w']} ({_signal_name(code)})")
    ended = Ended(EXITED, status=code if isinstance(code, int) else None, past_cpu_limit=record.get("c") is True)
    if ended.by_limit:
        return Verdict(failure=f"its process was stopped by its CPU-time limit ({_signal_name(code)})", timed_out=True)
    if code == -signal.SIGKILL:
        return Verdict(failure="its process was killed by SIGKILL before its CPU-time limit: not by a limit of the "
                               "check's but by the kernel's out-of-memory killer, another process or the expression itself")
    return Verdict(failure=f"the expression ended its process (status {code})")


def _signal_name(code: Any) -> str:
    """``status -9 (SIGKILL)`` for an exit code of a signal, ``status N`` otherwise."""
    try:
        return f"status {code} ({signal.Signals(-code).name})" if isinstance(code, int) and code < 0 else f"status {code}"
    except ValueError:
        return f"status {code}"


def run_checks(checks: Sequence[Check], *, limit: float = DEFAULT_LIMIT, isolation: str = "auto",
               memory: int = 1024**3) -> list[Verdict]:
    """The verdict of each check, all run in one sandbox run, each in a process of its own with ``limit`` seconds.

    Raises :class:`SandboxUnavailable` when no sandbox can run them here.
    """
    if not checks:
        return []
    from assay.sandbox import Limits, Outcome, Sandbox

    needs_numpy = any(c.kind == "srbench" for c in checks)
    needs_sympy = needs_numpy or any(c.kind == "game24" or _NAMES_SYMPY.search(" ".join(c.args)) for c in checks)
    roots = _sympy_roots(needs_numpy) if needs_sympy else []
    token = "@" + secrets.token_hex(8) + ":"
    program = (f"{_helper_source()}\nPATHS = {roots!r}\nLIMIT = {float(limit)!r}\nTOKEN = {token!r}\n"
               f"CHECKS = json.loads({json.dumps([[c.kind, list(c.args)] for c in checks])!r})\n{_PROGRAM}")
    wall = _STARTUP + len(checks) * (float(limit) + 1.0)
    limits = Limits(timeout=wall, cpu_time=int(limit) + 2, memory=memory, output=64 * 1024 + _MOST_RECORD * len(checks))
    try:
        sandbox = Sandbox(limits, isolation=isolation, extra_roots=roots)  # type: ignore[arg-type]
    except (RuntimeError, ValueError) as exc:
        raise SandboxUnavailable(str(exc)) from exc
    logger.info("running %d expression checks in one sandbox run (%s isolation)", len(checks), sandbox.isolation.value)
    result = sandbox.run(program)
    found: dict[int, Verdict] = {}
    for line in result.stdout.splitlines():
        if not line.startswith(token):
            continue
        try:
            index, record = json.loads(line[len(token):])
        except (ValueError, TypeError):
            raise SandboxUnavailable(f"the sandbox run wrote an unreadable verdict: {line[:200]!r}") from None
        # one line per check, in order: anything else is not the program's
        if index != len(found) or index >= len(checks) or not isinstance(record, dict):
            raise SandboxUnavailable(f"the sandbox run's verdicts are out of order: check {index!r} after {len(found)} "
                                     f"verdict(s) for {len(checks)} check(s)")
        found[index] = _verdict(record, limit)
    if len(found) < len(checks) and result.outcome is not Outcome.PASSED:
        missing = min(set(range(len(checks))) - set(found))
        if result.outcome is Outcome.SANDBOX_ERROR:
            raise SandboxUnavailable(f"the sandbox could not run the checks: {result.message}")
        found[missing] = Verdict(failure=f"the sandbox run ended ({result.outcome.value}: {result.message})", timed_out=True)
    return [found.get(i, Verdict(failure="not run: an earlier check stopped the sandbox run")) for i in range(len(checks))]
