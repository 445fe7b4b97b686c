"""BigCodeBench: ``BigCodeBenchEvaluator``, its code extraction as OpenCompass 0.5.4 does it, and local unit tests.

OpenCompass 0.5.4 prepends each problem's ``complete_prompt`` to the reply
(``eval_type='complete'``), extracts the code (:func:`bigcodebench_extract_code`),
writes ``{"task_id", "solution"}`` per problem to
``bigcodebench_submitted_contents.jsonl`` and sends that file to a remote
BigCodeBench service, which runs each problem's unit tests and returns
``pass@1`` and a record per problem.  assay builds the same solutions and runs
the unit tests itself, each problem in :mod:`assay.sandbox` (no network, its
own uid, resource limits), under this behaviour of its own:

* the program is the solution, a newline and the problem's ``test`` (a
  ``unittest`` class ``TestCases``), run with ``exec`` in a fresh module named
  ``__test__``, their output swallowed; every test of ``TestCases`` is run;
  the problem passes when none fails or errs (``status`` ``'pass'``), else
  ``'fail'`` with each failing test's traceback under its name in ``details``
  (``'ALL'`` when the program did not get as far as the tests); the time
  limit ends it as ``'timeout'``;
* the problems import many third-party libraries (their ``libs`` column): a
  problem needing one the sandbox's Python does not have is not run and is
  unscorable (``outcome`` ``missing-dependency``, the missing modules named),
  never wrong; so is one whose run stops at a ``ModuleNotFoundError`` for a
  module its ``libs`` list.  ``pass@k`` is taken over the problems that could
  be scored, and the result's ``_meta.incomplete`` says how many could not
  and why; a dry run lists the libraries the data needs that are missing.

The service's own time and memory limits (from the ground truth's run time,
``min_time_limit``, ``max_as_limit``, ...) are not reproduced: here
``timeout`` (wall-clock seconds per problem) and ``memory`` apply.  Like the
service, the tests run in the solution's process, so a solution that
tampers with ``unittest`` can forge a pass.
"""

from __future__ import annotations

import ast
import json
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

from assay.evaluate.base import INCOMPLETE_KEY, BaseEvaluator, SampleOutcome, incomplete_entry
from assay.evaluators.code import estimate_pass_at_k
from assay.evaluators.humanevalx import MISSING_DEPENDENCY, UNSCORABLE
from assay.registry import ICL_EVALUATORS

logger = logging.getLogger(__name__)

__all__ = ["BigCodeBenchEvaluator", "bigcodebench_code_extract", "bigcodebench_extract_code", "bigcodebench_libs"]


# -- code extraction -------------------------------------------------------------------------


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, MemoryError, ValueError, RecursionError):
        return False
    return True


def bigcodebench_code_extract(text: str) -> str:
    """The longest run of lines of ``text`` that parses as Python (OpenCompass's ``code_extract``).

    Runs of two lines or more are tried; the one with the most non-blank lines
    wins, the first (top-most, then shortest) among equals; when none parses,
    the first line.  Computed with fewer parses than OpenCompass's loop over
    every pair, with the same result.

    Example:
        >>> bigcodebench_code_extract("Here it is:\\ndef f():\\n    return 1\\nDone.")
        'def f():\\n    return 1'
        >>> bigcodebench_code_extract("no code")
        'no code'
    """
    lines = text.split("\n")
    filled = [0]
    for line in lines:
        filled.append(filled[-1] + (1 if line.strip() else 0))
    n = len(lines)
    best, pair = 0, (0, 0)
    for i in range(n):
        if filled[n] - filled[i] <= best:
            break  # no run starting here or later can beat the best
        top = next((j for j in range(n - 1, i, -1) if filled[j + 1] - filled[i] > best and _parses("\n".join(lines[i : j + 1]))), None)
        if top is None:
            continue
        count = filled[top + 1] - filled[i]
        first = top
        for j in range(top - 1, i, -1):
            if filled[j + 1] - filled[i] != count:
                break
            if _parses("\n".join(lines[i : j + 1])):
                first = j
        best, pair = count, (i, first)
    return "\n".join(lines[pair[0] : pair[1] + 1])


#: The fields of ``ast`` nodes that hold one identifier (tree-sitter's ``identifier`` nodes).
_NAME_FIELDS: tuple[tuple[type, str], ...] = (
    (ast.Name, "id"), (ast.Attribute, "attr"), (ast.FunctionDef, "name"), (ast.AsyncFunctionDef, "name"),
    (ast.ClassDef, "name"), (ast.arg, "arg"), (ast.keyword, "arg"), (ast.alias, "asname"), (ast.ExceptHandler, "name"),
    (ast.MatchAs, "name"), (ast.MatchStar, "name"), (ast.MatchMapping, "rest"),
)


def _identifiers(node: ast.AST) -> set[str]:
    """Every identifier under ``node`` as a tree-sitter parse of Python names them."""
    out: set[str] = set()
    for sub in ast.walk(node):
        for kind, field_name in _NAME_FIELDS:
            if isinstance(sub, kind) and getattr(sub, field_name, None):
                out.add(getattr(sub, field_name))
        if isinstance(sub, ast.alias):
            out.update(sub.name.split("."))
        elif isinstance(sub, ast.ImportFrom) and sub.module:
            out.update(sub.module.split("."))
        elif isinstance(sub, (ast.Global, ast.Nonlocal)):
            out.update(sub.names)
        elif isinstance(sub, ast.MatchClass):
            out.update(sub.kwd_attrs)
    return out


def _assigned_name(stmt: ast.Assign | ast.AnnAssign) -> str | None:
    """The first identifier among the assignment's direct parts (tree-sitter's reading of its name)."""
    if isinstance(stmt, ast.Assign):
        if isinstance(stmt.targets[0], ast.Name):
            return stmt.targets[0].id
        if len(stmt.targets) > 1:
            return None  # the right-hand side is itself an assignment
    elif isinstance(stmt.target, ast.Name):
        return stmt.target.id
    return stmt.value.id if isinstance(stmt.value, ast.Name) else None


class _Source:
    """Byte offsets of positions in ``code`` (``ast`` columns count UTF-8 bytes)."""

    def __init__(self, code: str) -> None:
        self.data = code.encode("utf-8")
        self.lines = code.encode("utf-8").split(b"\n")
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line) + 1)

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col

    def span(self, node: ast.stmt) -> tuple[int, int]:
        assert node.end_lineno is not None and node.end_col_offset is not None
        return self.offset(node.lineno, node.col_offset), self.offset(node.end_lineno, node.end_col_offset)

    def block_end(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> int:
        """Where a definition ends for tree-sitter: its last statement, a comment ending that line, and the
        comment lines after it indented at least as deep as its body (blank lines between them skipped)."""
        assert node.end_lineno is not None and node.end_col_offset is not None
        end_line, end = node.end_lineno, self.offset(node.end_lineno, node.end_col_offset)
        rest = self.lines[end_line - 1][node.end_col_offset :]
        if rest.strip().startswith(b"#"):
            end = self.offset(end_line, len(self.lines[end_line - 1].rstrip(b"\r")))
        body = node.body[0]
        if body.lineno == node.lineno:
            return end  # a body on the definition's own line: no block for comments to join
        depth = len(self.lines[body.lineno - 1]) - len(self.lines[body.lineno - 1].lstrip(b" \t"))
        for number in range(end_line + 1, len(self.lines) + 1):
            line = self.lines[number - 1]
            stripped = line.strip()
            if not stripped:
                continue
            indent = len(line) - len(line.lstrip(b" \t"))
            if not stripped.startswith(b"#") or indent < depth:
                break
            end = self.offset(number, len(line.rstrip(b" \t\r")))
        return end


def _target_code(code: str, entrypoint: str) -> str:
    """OpenCompass's ``extract_target_code_or_empty``: imports and what ``entrypoint`` reaches."""
    code = bigcodebench_code_extract(code.strip())
    try:
        tree = ast.parse(code)
    except (SyntaxError, MemoryError, ValueError, RecursionError):
        return ""  # nothing parses: no import nor definition to keep
    source = _Source(code)
    imports: list[tuple[int, int]] = []
    definitions: list[tuple[str | None, tuple[int, int], set[str]]] = []
    seen: set[str | None] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.Import) or (isinstance(stmt, ast.ImportFrom) and stmt.module != "__future__"):
            imports.append(source.span(stmt))
            continue
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if stmt.decorator_list:
                continue  # a decorated definition is another kind of node there
            name: str | None = stmt.name
            span = (source.offset(stmt.lineno, stmt.col_offset), source.block_end(stmt))
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            name = _assigned_name(stmt)
            span = source.span(stmt)
        else:
            continue
        if name in seen:
            continue
        seen.add(name)
        definitions.append((name, span, _identifiers(stmt)))

    graph = {name: deps for name, _, deps in definitions}
    reachable = {entrypoint}
    queue = [entrypoint]
    while queue:
        current = queue.pop(0)
        for neighbour in graph.get(current, set()):
            if neighbour not in reachable:
                reachable.add(neighbour)
                queue.append(neighbour)

    parts = [source.data[a:b] for a, b in imports]
    parts += [source.data[a:b] for name, (a, b), _ in definitions if name in reachable]
    output = b"".join(p + b"\n" for p in parts)[:-1].decode("utf-8")
    lines = output.splitlines()
    outer: list[int] = []
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].startswith(" "):
            break
        if entrypoint in lines[i]:
            outer.append(i)
    if outer:
        output = "\n".join(lines[: outer[-1]])
    return output


def bigcodebench_extract_code(reply: Any, entrypoint: str) -> str:
    """The solution OpenCompass 0.5.4 sends for one reply (its ``extract_code_generation``).

    The longest run of lines that parses (:func:`bigcodebench_code_extract`)
    is read; its imports (``__future__`` ones left out) and the top-level
    functions, classes and assignments that ``entrypoint`` reaches by name are
    kept, in that order (the first definition of a name wins; decorated
    definitions are dropped); then the unindented lines at the end naming
    ``entrypoint`` are cut off from the first of them on.  When nothing is
    left, the longest parsing run of the whole reply is the solution.

    OpenCompass parses with tree-sitter; here Python's ``ast`` reads the same
    nodes (a definition's end takes in the comments tree-sitter gives it).
    Differences: where no run of lines parses, OpenCompass's tree-sitter still
    reads definitions out of the broken first line, here nothing is, so the
    first line itself is the solution; OpenCompass gives up after 10 s of
    extraction (an empty solution), assay does not.

    Example:
        >>> reply = "```python\\nimport os\\ndef helper():\\n    return 1\\ndef task_func():\\n    return helper()\\nprint(task_func())\\n```"
        >>> print(bigcodebench_extract_code(reply, 'task_func'))
        import os
        def helper():
            return 1
        def task_func():
            return helper()
    """
    text = "" if reply is None else str(reply)
    code = _target_code(text, entrypoint).strip()
    return code or bigcodebench_code_extract(text)


# -- libraries ----------------------------------------------------------------------------------


def bigcodebench_libs(value: Any) -> list[str]:
    """The top-level modules of a problem's ``libs`` (a list, or its ``repr`` as the data files hold it).

    Example:
        >>> bigcodebench_libs("['random', 'matplotlib.pyplot', 'numpy']")
        ['random', 'matplotlib', 'numpy']
    """
    if isinstance(value, str):
        try:
            value = ast.literal_eval(value)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            value = re.findall(r"[A-Za-z_][\w.]*", value)
    if not isinstance(value, (list, tuple, set)):
        return []
    out: list[str] = []
    for item in value:
        name = str(item).strip().split(".")[0]
        if name and name not in out:
            out.append(name)
    return out


# -- the program ------------------------------------------------------------------------------

_MARK = "__assay_bigcodebench__"

_PROGRAM = '''import builtins as _b, contextlib as _c, io as _io, json as _j, os as _os, sys as _s, types as _t, unittest as _u
_os.environ["MPLBACKEND"] = "Agg"
_os.environ["MPLCONFIGDIR"] = _os.getcwd()
for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ[_v] = "1"
_real = _s.stdout
_details = {}
_missing = []
_m = _t.ModuleType("__test__")
_m.__dict__.update({"__builtins__": _b, "__file__": "__test__.py", "__package__": None, "__doc__": None})
with _c.redirect_stdout(_io.StringIO()), _c.redirect_stderr(_io.StringIO()):
    try:
        exec(compile(SOLUTION + "\\n" + TEST, "__test__.py", "exec"), _m.__dict__)
        _s.modules["__test__"] = _m
        _suite = _u.TestLoader().loadTestsFromTestCase(getattr(_m, "TestCases"))
        _result = _u.TestResult()
        _suite.run(_result)
        for _test, _trace in _result.failures + _result.errors:
            _details[_test.id().split(".")[-1]] = _trace
            if "ModuleNotFoundError" in _trace:
                _missing.extend(__import__("re").findall(r"ModuleNotFoundError: No module named '([^']+)'", _trace))
    except BaseException as _e:
        _details["ALL"] = str(_e)
        if isinstance(_e, ModuleNotFoundError) and _e.name:
            _missing.append(_e.name)
_real.write("\\n" + MARK + _j.dumps({"details": _details, "missing": _missing}) + "\\n")
_real.flush()
if _details:
    raise AssertionError("tests failed")
'''


def bigcodebench_program(solution: str, test: str) -> str:
    """The program run in the sandbox for one problem (see the module's docstring).

    Example:
        >>> compile(bigcodebench_program("def task_func():\\n    return 1", "import unittest"), "p", "exec") is not None
        True
    """
    return f"SOLUTION = {solution!r}\nTEST = {test!r}\nMARK = {_MARK!r}\n" + _PROGRAM


def _report(stdout: str) -> dict[str, Any] | None:
    at = stdout.rfind("\n" + _MARK)
    if at < 0:
        return None
    try:
        data = json.loads(stdout[at + len(_MARK) + 1 :].split("\n", 1)[0])
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


@ICL_EVALUATORS.register_module()
class BigCodeBenchEvaluator(BaseEvaluator):
    """BigCodeBench's unit tests, run locally (see the module's docstring), with OpenCompass's metric keys.

    Inputs: ``predictions`` (one reply per problem) and ``test_set`` (the
    BigCodeBench rows: ``task_id``, ``entry_point``, ``test``, ``libs`` and,
    for ``eval_type='complete'``, ``complete_prompt``); ``references`` is not
    read (OpenCompass's configs give the ``test`` column).

    Metrics: ``pass@1`` (0–100) and, for each other ``k`` of ``pass_k`` that
    every problem has ``k`` samples for, ``pass@k`` as a fraction (OpenCompass
    multiplies only ``pass@1`` by 100; reproduced); ``outcomes`` (sandbox
    outcomes, ``missing-dependency`` included) and ``missing_libraries``
    when some are.  Details per sample, as the service's records with
    OpenCompass's ``correct``: ``task_id``, ``solution``, ``status``
    (``'pass'``, ``'fail'``, ``'timeout'``), ``details`` (failing test →
    traceback), ``correct``, ``outcome`` and ``message``.

    OpenCompass loads the whole dataset again from ``path`` and pairs it with
    the predictions in order; here the test set's rows are the problems (the
    same when the test set is the whole dataset).  ``remote_execute_api``,
    ``headers``, ``parallel``, ``min_time_limit``, ``max_as_limit``,
    ``max_data_limit``, ``max_stack_limit``, ``check_gt_only`` and ``no_gt`` (the
    service's settings) and the dataset arguments are accepted and not used.

    Args:
        eval_type: ``'instruct'`` (the reply alone) or ``'complete'`` (the
            problem's ``complete_prompt`` before the reply).
        pass_k: the k values, comma-separated (OpenCompass's ``'1,5,10'``).
        timeout: wall-clock seconds per problem.
        memory: address-space bytes per problem.
        max_workers: problems run in parallel (default: the usable cores).
        isolation: see :class:`assay.sandbox.Sandbox`.
        pred_postprocessor: evaluator-level postprocessor config.
    """

    sample_outcome = SampleOutcome(correct="correct", unscorable="outcome", unscorable_values=UNSCORABLE)

    def __init__(
        self,
        release_version: str = "v0.1.2",
        eval_type: str = "instruct",
        remote_execute_api: str | None = None,
        headers: Mapping[str, str] | None = None,
        dataset_version: str = "full",
        local_mode: bool = False,
        path: str = "opencompass/bigcodebench",
        pass_k: str = "1,5,10",
        parallel: int = -1,
        min_time_limit: float = 1,
        max_as_limit: int = 30 * 1024,
        max_data_limit: int = 30 * 1024,
        max_stack_limit: int = 10,
        check_gt_only: bool = False,
        no_gt: bool = False,
        timeout: float = 60.0,
        memory: int = 8 * 1024**3,
        max_workers: int | None = None,
        isolation: str = "auto",
        pred_postprocessor: Any = None,
    ) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if eval_type not in ("instruct", "complete"):
            raise ValueError(f"BigCodeBenchEvaluator: eval_type must be 'instruct' or 'complete', got {eval_type!r}")
        if dataset_version not in ("full", "hard"):
            raise ValueError(f"BigCodeBenchEvaluator: dataset_version must be 'full' or 'hard', got {dataset_version!r}")
        try:
            self.k = [int(x) for x in str(pass_k).split(",")]
        except ValueError:
            raise ValueError(f"BigCodeBenchEvaluator: pass_k must be comma-separated integers, got {pass_k!r}") from None
        if timeout <= 0:
            raise ValueError(f"BigCodeBenchEvaluator: timeout must be positive, got {timeout!r}")
        self.eval_type = eval_type
        self.timeout = float(timeout)
        self.memory = int(memory)
        self.max_workers = max_workers
        self.isolation = isolation
        self._sandbox: Any = None

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """The libraries the BigCodeBench file of ``cfg`` needs that the sandbox's Python lacks.

        Nothing is said when the data file cannot be read yet (the dry run
        reports the data apart).
        """
        from assay.datasets.bigcodebench import bigcodebench_file
        from assay.errors import InputFileError
        from assay.sandbox import missing_modules

        try:
            file = bigcodebench_file(str(cfg.get("path", "opencompass/bigcodebench")), str(cfg.get("release_version", "v0.1.2")),
                                     str(cfg.get("dataset_version", "full")), bool(cfg.get("local_mode")))
            rows = [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines() if line.strip()]
        except (OSError, ValueError, TypeError, InputFileError):
            return []
        needs: dict[str, int] = {}
        for row in rows:
            for lib in bigcodebench_libs(row.get("libs") if isinstance(row, dict) else None):
                needs[lib] = needs.get(lib, 0) + 1
        missing = missing_modules(sorted(needs))
        if not missing:
            return []
        listed = ", ".join(f"{lib} ({needs[lib]} problems)" for lib in missing)
        return [f"the sandbox's Python lacks libraries the problems import: {listed}; "
                f"those problems will be unscorable (outcome {MISSING_DEPENDENCY})"]

    def _sandbox_for_runs(self) -> Any:
        if self._sandbox is None:
            from assay._pool import usable_cpus
            from assay.sandbox import Limits, Sandbox

            limits = Limits(timeout=self.timeout, memory=self.memory, processes=256, file_size=256 * 1024**2,
                            open_files=1024, output=1024**2, tmpfs=512 * 1024**2)
            self._sandbox = Sandbox(limits, isolation=self.isolation,  # type: ignore[arg-type]
                                    max_workers=self.max_workers or usable_cpus())
        return self._sandbox

    def score(self, predictions: list[Any], references: list[Any] | None = None, test_set: Any = None) -> dict[str, Any]:
        from assay.evaluators._compiled_driver import rows_of_test_set
        from assay.sandbox import missing_modules

        name = type(self).__name__
        if not predictions:
            return {"error": f"{name}: no samples to score"}
        rows = rows_of_test_set(test_set)
        if rows is None:
            return {"error": f"{name}: needs the test set (the BigCodeBench rows)"}
        if len(rows) != len(predictions):
            return {"error": f"{name}: {len(predictions)} predictions but the test set has {len(rows)} rows"}
        needed = ("task_id", "entry_point", "test") + (("complete_prompt",) if self.eval_type == "complete" else ())
        for i, row in enumerate(rows):
            lacking = [c for c in needed if c not in row]
            if lacking:
                return {"error": f"{name}: test set row {i} lacks {', '.join(lacking)}"}

        solutions = []
        for pred, row in zip(predictions, rows):
            reply = "" if pred is None else str(pred)
            if self.eval_type == "complete":
                reply = str(row["complete_prompt"]) + reply
            solutions.append(bigcodebench_extract_code(reply, str(row["entry_point"])))
        libs = [bigcodebench_libs(row.get("libs")) for row in rows]
        absent = set(missing_modules(sorted({lib for needs in libs for lib in needs})))

        runs: list[tuple[str, dict[str, str], str, str]] = [("", {}, "", "")] * len(rows)
        todo = []
        for i, needs in enumerate(libs):
            lacking = [lib for lib in needs if lib in absent]
            if lacking:
                runs[i] = ("fail", {"ALL": f"not run: no module named {', '.join(lacking)}"}, MISSING_DEPENDENCY,
                           f"the sandbox's Python lacks {', '.join(lacking)}")
            else:
                todo.append(i)
        if todo:
            sandbox = self._sandbox_for_runs()
            logger.info("%s: running %d problems' tests (%s isolation)", name, len(todo), sandbox.isolation.value)
            results = sandbox.run_many([bigcodebench_program(solutions[i], str(rows[i]["test"])) for i in todo])
            for i, res in zip(todo, results):
                runs[i] = self._verdict(res, libs[i])

        statuses = [r[0] for r in runs]
        scorable: dict[str, list[bool]] = {}
        for row, (status, _, outcome, _) in zip(rows, runs):
            if outcome != MISSING_DEPENDENCY:
                scorable.setdefault(str(row["task_id"]), []).append(status == "pass")
        out: dict[str, Any] = {}
        totals = [len(v) for v in scorable.values()]
        corrects = [sum(v) for v in scorable.values()]
        for k in self.k:
            if totals and min(totals) >= k:
                value = estimate_pass_at_k(totals, corrects, k)
                out[f"pass@{k}"] = value * 100 if k == 1 else value
        outcomes: dict[str, int] = {}
        for _, _, outcome, _ in runs:
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        out["outcomes"] = dict(sorted(outcomes.items()))
        unscored = [i for i, r in enumerate(runs) if r[2] == MISSING_DEPENDENCY]
        if unscored:
            missing = sorted({m for i in unscored for m in runs[i][3].rsplit(" lacks ", 1)[-1].split(", ")})
            out["missing_libraries"] = missing
            out[INCOMPLETE_KEY] = [incomplete_entry(
                "not_executed", len(unscored),
                f"{len(unscored)} of {len(rows)} problems need libraries the sandbox's Python lacks: {', '.join(missing)}")]
        out["details"] = [
            {"task_id": row["task_id"], "solution": sol, "status": status, "details": details,
             "correct": status == "pass", "outcome": outcome, "message": message}
            for row, sol, status, (_, details, outcome, message) in zip(rows, solutions, statuses, runs)
        ]
        return out

    @staticmethod
    def _verdict(res: Any, libs: Sequence[str]) -> tuple[str, dict[str, str], str, str]:
        """(status, details, outcome, message) of one sandbox run."""
        report = _report(res.stdout)
        outcome = res.outcome.value
        if outcome == "timeout":
            return "timeout", {"ALL": "Timeout"} if report is None else report.get("details") or {}, outcome, res.message[:2000]
        if report is None:
            return "fail", {"ALL": res.message[:2000]}, outcome, res.message[:2000]
        details = {str(k): str(v) for k, v in (report.get("details") or {}).items()}
        lacking = sorted({str(m).split(".")[0] for m in report.get("missing") or []} & set(libs))
        if lacking:
            return "fail", details, MISSING_DEPENDENCY, f"the sandbox's Python lacks {', '.join(lacking)}"
        if res.passed and not details:
            return "pass", {}, outcome, ""
        failing = "; ".join(f"{test}: {(trace.strip().splitlines() or [''])[-1]}" for test, trace in details.items())
        return "fail", details, outcome, (failing or res.message)[:2000]
