"""Running checked programs in the sandbox as OpenCompass's code evaluators run them (private).

OpenCompass executes a candidate program with ``exec(source, {})`` in a child
process, its output swallowed and its standard input refusing reads, and turns
what happened into a verdict: the tests passed, an assertion failed (a wrong
answer), another exception was raised, or the time limit was reached.  Here each
program runs in :mod:`assay.sandbox` (its own isolated process) inside a small
wrapper that reproduces that setting: the stages run by ``exec`` in one fresh
globals dict (so ``__name__`` is not ``'__main__'`` and ``if __name__ ==
'__main__':`` blocks do not run, as under OpenCompass) and reading
``sys.stdin`` raises ``OSError``.

The tests do not run beside the program: they run in a second process of the
sandbox under another uid (:func:`checked_program`), which calls the
program's functions through a pipe and gets back plain data, so the program
can neither reach the code that decides (by walking stack frames, the garbage
collector, its file descriptors, signals) nor decide a comparison with an
``__eq__`` of its own.  Honest programs get OpenCompass's verdicts.  Where a
program forges a pass in OpenCompass — it reports the harness's result
itself, patches the test's comparisons or ``AssertionError``, returns an
object that equals everything, leaves before the tests — it fails here.  The
tests see the program's objects by value, not by reference: a test that
relies on the program mutating the test's own arguments in place, or on
comparing an object of a class the program defines by its own ``__eq__``,
sees no mutation and identity comparison here.
"""

from __future__ import annotations

import ast
import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger(__name__)

__all__: list[str] = []

#: The name the type-aware comparison has in the checked program (OpenCompass's name).
TYPE_AWARE_EQUAL_NAME = "__opencompass_type_aware_equal"

_MESSAGE_CAP = 2000

# Comparison that refuses values of different types and forged ``__eq__``
# results: containers are compared element by element (mappings and sets by
# greedy one-to-one matching), anything else by ``==`` whose result must be
# the bool ``True``.
_TYPE_AWARE_EQUAL_SOURCE = '''
def _assay_type_aware_equal(actual, expected):
    from collections.abc import Mapping
    if type(actual) is not type(expected):
        return False
    if isinstance(actual, (list, tuple)):
        if len(actual) != len(expected):
            return False
        for left, right in zip(actual, expected):
            if not _assay_type_aware_equal(left, right):
                return False
        return True
    if isinstance(actual, Mapping):
        if len(actual) != len(expected):
            return False
        pairs = list(expected.items())
        used = set()
        for key, value in actual.items():
            for position, (other_key, other_value) in enumerate(pairs):
                if position not in used and _assay_type_aware_equal(key, other_key) and _assay_type_aware_equal(value, other_value):
                    used.add(position)
                    break
            else:
                return False
        return True
    if isinstance(actual, (set, frozenset)):
        if len(actual) != len(expected):
            return False
        items = list(expected)
        used = set()
        for item in actual:
            for position, other in enumerate(items):
                if position not in used and _assay_type_aware_equal(item, other):
                    used.add(position)
                    break
            else:
                return False
        return True
    try:
        same = actual == expected
    except Exception:
        return False
    return type(same) is bool and same
'''

# A standard input whose reads raise ``OSError``, as OpenCompass's sandboxed runs have;
# it needs ``io`` imported as ``_assay_io``.
_READ_REFUSED_SOURCE = '''
class _AssayReadRefused(_assay_io.StringIO):
    def read(self, *args, **kwargs):
        raise IOError

    def readline(self, *args, **kwargs):
        raise IOError

    def readlines(self, *args, **kwargs):
        raise IOError

    def readable(self, *args, **kwargs):
        return False
'''


def read_refused_source(prefix: str) -> str:
    """:data:`_READ_REFUSED_SOURCE` for a program whose private names start with ``prefix``
    (``io`` imported as ``<prefix>_io``; the class is ``<Prefix>ReadRefused``).

    >>> 'class _ApReadRefused(_ap_io.StringIO)' in read_refused_source('_ap')
    True
    """
    cls = "_" + prefix.strip("_").capitalize() + "ReadRefused"
    return _READ_REFUSED_SOURCE.replace("_AssayReadRefused", cls).replace("_assay_io", f"{prefix}_io")


_PROGRAM_PROLOGUE = '''import io as _assay_io, sys as _assay_sys

''' + _READ_REFUSED_SOURCE + '''

_assay_sys.stdin = _AssayReadRefused()
_assay_globals = {}
'''

_CHECKER_PROLOGUE = '''import json as _assay_json


class _AssayVerdict(Exception):
    pass


_AssayAssertion = AssertionError
'''

#: The name under which a checker's code can evaluate an expression in the program's namespace.
EVALUATE_NAME = "__assay_evaluate"


@dataclass(frozen=True)
class Checked:
    """One checked run: the ``program`` (untrusted) and the ``checker`` (trusted) that decides.

    They run in two processes of the sandbox (see :meth:`assay.sandbox.Sandbox.run`).
    """

    program: str
    checker: str


def checked_program(stages: Sequence[str], tests: Sequence[str], *, type_aware_equal: bool = False) -> Checked:
    """The checked run of ``stages`` (untrusted code) against ``tests`` (trusted checking code).

    The program's process runs ``stages`` with ``exec`` in one fresh globals
    dict, reads of ``sys.stdin`` refused.  The checking process runs ``tests``
    with ``exec`` in globals of its own in which every name that neither the
    tests nor the builtins define is the program's: functions and other objects
    of the program are called there through the pipe, and what they return
    comes back as plain data (lists, dicts, numbers, ...) decoded in the
    checking process, or as handles that compare by identity — so comparisons,
    ``assert`` and the verdict are the checking process's own.  With
    ``type_aware_equal`` the comparison is bound to :data:`TYPE_AWARE_EQUAL_NAME`
    in the tests' globals; :data:`EVALUATE_NAME` evaluates an expression in the
    program's namespace.

    Where an exception (of the program, carried over, or of the tests) ends
    the check, the checker ends with one line saying whether it was an
    assertion (:func:`verdict_of` reads it).

    Example:
        >>> run = checked_program(["def f(x):\\n    return x + 1"], ["assert f(1) == 2"])
        >>> all(compile(src, 'p', 'exec') for src in (run.program, run.checker))
        True
    """
    program = [_PROGRAM_PROLOGUE]
    for stage in stages:
        program.append(f"exec(compile({stage!r}, '<string>', 'exec'), _assay_globals)")
    checker = [_CHECKER_PROLOGUE]
    if type_aware_equal:
        checker.append(_TYPE_AWARE_EQUAL_SOURCE)
    checker.append("try:")
    checker.append("    _assay_remote.start()")
    checker.append("    _assay_checked = _assay_remote.globals('_assay_globals')")
    if type_aware_equal:
        checker.append(f"    _assay_checked[{TYPE_AWARE_EQUAL_NAME!r}] = _assay_type_aware_equal")
    checker.append(f"    _assay_checked[{EVALUATE_NAME!r}] = lambda source: _assay_remote.evaluate('_assay_globals', source)")
    for test in tests:
        checker.append(f"    exec(compile({test!r}, '<string>', 'exec'), _assay_checked)")
    checker.append("except BaseException as _assay_error:")
    checker.append("    try:")
    checker.append("        _assay_text = str(_assay_error)")
    checker.append("    except BaseException:")
    checker.append("        _assay_text = ''")
    checker.append("    _assay_kind = 'assertion' if isinstance(_assay_error, _AssayAssertion) else 'error'")
    checker.append("    raise _AssayVerdict(_assay_json.dumps([_assay_kind, type(_assay_error).__name__, _assay_text])) from None")
    return Checked("\n".join(program) + "\n", "\n".join(checker) + "\n")


@dataclass(frozen=True)
class Verdict:
    """How one checked program ended.

    ``kind``: ``'pass'``, ``'assertion'`` (a failed ``assert``: a wrong
    answer), ``'error'`` (any other exception, a syntax error included),
    ``'timeout'``, ``'memory'``, ``'killed'`` or ``'sandbox-error'``.
    ``outcome`` is the sandbox's outcome name; ``error`` the exception's type
    name and ``text`` its message, when there was one.
    """

    kind: str
    outcome: str
    error: str = ""
    text: str = ""
    message: str = ""

    @property
    def passed(self) -> bool:
        return self.kind == "pass"

    @property
    def executed(self) -> bool:
        """False when the program could not be run to a verdict (time, memory, signal, sandbox)."""
        return self.kind in ("pass", "assertion", "error")


_VERDICT_PREFIX = "_AssayVerdict: "


def verdict_of(result: Any) -> Verdict:
    """Read a :class:`assay.sandbox.RunResult` of a :func:`checked_program`."""
    outcome = result.outcome.value
    message = (result.message or "")[:_MESSAGE_CAP]
    if outcome == "passed":
        return Verdict("pass", outcome)
    if outcome == "failed":
        first = (result.message or "").split("\n", 1)[0]
        if first.startswith(_VERDICT_PREFIX):
            try:
                kind, error, text = json.loads(first[len(_VERDICT_PREFIX) :])
            except (ValueError, TypeError):
                return Verdict("error", outcome, message=message)
            if error == "MemoryError":
                return Verdict("memory", "memory", error, str(text), message)
            return Verdict("assertion" if kind == "assertion" else "error", outcome, str(error), str(text), message)
        return Verdict("error", outcome, message=message)
    if outcome in ("timeout", "memory", "killed"):
        return Verdict(outcome, outcome, message=message)
    return Verdict("sandbox-error", outcome, message=message)


def harden_assertions(source: str) -> str:
    """Rewrite each ``assert a == b`` of ``source`` to call the type-aware comparison.

    Source that does not parse is returned unchanged; otherwise the result is
    :func:`ast.unparse`'s rendering (as OpenCompass renders it).

    Example:
        >>> harden_assertions("assert f(1) == [1, 2], 'msg'")
        "assert __opencompass_type_aware_equal(f(1), [1, 2]), 'msg'"
        >>> harden_assertions("assert a != b")
        'assert a != b'
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    tree = _Harden().visit(tree)
    ast.fix_missing_locations(tree)
    return ast.unparse(tree)


class _Harden(ast.NodeTransformer):
    def visit_Assert(self, node: ast.Assert) -> ast.Assert:
        self.generic_visit(node)
        test = node.test
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
            node.test = ast.Call(
                func=ast.Name(id=TYPE_AWARE_EQUAL_NAME, ctx=ast.Load()),
                args=[test.left, test.comparators[0]],
                keywords=[],
            )
        return node


class SandboxPool:
    """One lazily built :class:`assay.sandbox.Sandbox` per evaluator, and its runs."""

    def __init__(self, timeout: float, memory: int, max_workers: int | None, isolation: str) -> None:
        if timeout <= 0:
            raise ValueError(f"timeout must be positive, got {timeout!r}")
        self.timeout = float(timeout)
        self.memory = int(memory)
        self.max_workers = max_workers
        self.isolation = isolation
        self._sandbox: Any = None

    def sandbox(self) -> Any:
        if self._sandbox is None:
            from assay._pool import usable_cpus
            from assay.sandbox import Limits, Sandbox

            self._sandbox = Sandbox(
                Limits(timeout=self.timeout, memory=self.memory),
                isolation=self.isolation,  # type: ignore[arg-type]
                max_workers=self.max_workers or usable_cpus(),
            )
        return self._sandbox

    def run(self, owner: str, runs: Sequence[Checked]) -> list[Verdict]:
        """Run the checked ``runs`` in parallel; one :class:`Verdict` each, in order."""
        if not runs:
            return []
        sandbox = self.sandbox()
        logger.info("%s: running %d programs (%s isolation)", owner, len(runs), sandbox.isolation.value)
        results = sandbox.run_many([r.program for r in runs], checkers=[r.checker for r in runs])
        return [verdict_of(r) for r in results]

    @property
    def isolation_name(self) -> str:
        return str(self.sandbox().isolation.value)


def count_kinds(verdicts: Sequence[Verdict]) -> dict[str, int]:
    """Sandbox outcome counts (``passed``, ``failed``, ``timeout``, ...), sorted by name."""
    return count_outcomes(v.outcome for v in verdicts)


def count_outcomes(outcomes: Iterable[str]) -> dict[str, int]:
    """How many times each outcome name occurs, sorted by name."""
    counts: dict[str, int] = {}
    for outcome in outcomes:
        counts[outcome] = counts.get(outcome, 0) + 1
    return dict(sorted(counts.items()))
