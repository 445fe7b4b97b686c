"""Running checked programs in the sandbox as OpenCompass's code evaluators run them (private).

OpenCompass executes a candidate program with ``exec(source, {})`` in a child
process, its output swallowed and its standard input refusing reads, and turns
what happened into a verdict: the tests passed, an assertion failed (a wrong
answer), another exception was raised, or the time limit was reached.  Here each
program runs in :mod:`assay.sandbox` (its own isolated process) inside a small
wrapper that reproduces that setting: the stages run by ``exec`` in one fresh
globals dict (so ``__name__`` is not ``'__main__'`` and ``if __name__ ==
'__main__':`` blocks do not run, as under OpenCompass), reading ``sys.stdin``
raises ``OSError``, and an exception leaves the process as one line saying
whether it was an assertion.  Only the sandbox's own token, which the program
cannot forge, marks a run as passed.
"""

from __future__ import annotations

import ast
import json
import logging
from collections.abc import Sequence
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


_PROLOGUE = '''import io as _assay_io, json as _assay_json, sys as _assay_sys

''' + _READ_REFUSED_SOURCE + '''

class _AssayVerdict(Exception):
    pass


_assay_sys.stdin = _AssayReadRefused()
_AssayAssertion = AssertionError
'''


def checked_program(stages: Sequence[str], *, type_aware_equal: bool = False) -> str:
    """The sandbox program that runs ``stages`` with ``exec`` in one fresh globals dict.

    With ``type_aware_equal`` the comparison is bound to
    :data:`TYPE_AWARE_EQUAL_NAME` in that dict after the first stage ran.

    Example:
        >>> src = checked_program(["x = 1", "assert x == 1"])
        >>> compile(src, 'p', 'exec') is not None
        True
    """
    lines = [_PROLOGUE]
    if type_aware_equal:
        lines.append(_TYPE_AWARE_EQUAL_SOURCE)
    lines.append("_assay_globals = {}")
    lines.append("try:")
    for i, stage in enumerate(stages):
        lines.append(f"    exec(compile({stage!r}, '<string>', 'exec'), _assay_globals)")
        if i == 0 and type_aware_equal:
            lines.append(f"    _assay_globals[{TYPE_AWARE_EQUAL_NAME!r}] = _assay_type_aware_equal")
    lines.append("except BaseException as _assay_error:")
    lines.append("    try:")
    lines.append("        _assay_text = str(_assay_error)")
    lines.append("    except BaseException:")
    lines.append("        _assay_text = ''")
    lines.append("    _assay_kind = 'assertion' if isinstance(_assay_error, _AssayAssertion) else 'error'")
    lines.append("    raise _AssayVerdict(_assay_json.dumps([_assay_kind, type(_assay_error).__name__, _assay_text])) from None")
    return "\n".join(lines) + "\n"


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

    def run(self, owner: str, programs: Sequence[str]) -> list[Verdict]:
        """Run ``programs`` in parallel; one :class:`Verdict` each, in order."""
        if not programs:
            return []
        sandbox = self.sandbox()
        logger.info("%s: running %d programs (%s isolation)", owner, len(programs), sandbox.isolation.value)
        return [verdict_of(r) for r in sandbox.run_many(list(programs))]

    @property
    def isolation_name(self) -> str:
        return str(self.sandbox().isolation.value)


def count_kinds(verdicts: Sequence[Verdict]) -> dict[str, int]:
    """Sandbox outcome counts (``passed``, ``failed``, ``timeout``, ...), sorted by name."""
    counts: dict[str, int] = {}
    for v in verdicts:
        counts[v.outcome] = counts.get(v.outcome, 0) + 1
    return dict(sorted(counts.items()))
