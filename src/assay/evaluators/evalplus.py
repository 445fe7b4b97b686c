"""EvalPlus differential testing (HumanEval+, MBPP+) as OpenCompass 0.5.4 runs it through evalplus 0.2.1.

A solution is checked twice, on the problem's ``base_input`` and on its
``plus_input``: each input's output must equal the reference solution's output
(within ``atol`` when it is not equal, floats compared with at least 1e-6), each
call under a time limit of ``max(0.2 s, 4 × the reference's time for that
input)``.  A check's status is ``pass``, ``fail`` or ``timeout``.

Everything runs in :mod:`assay.sandbox`: the reference solutions (whose outputs
and times come back as tagged JSON, never pickled) and each (solution, input
set) in its own isolated process with a 4 GiB address-space limit, as evalplus
sets.  A solution's calls return their values to a second process, which alone
holds the expected outputs and compares
(:func:`assay.evaluators._code_exec.checked_program`).

The problems are read from the EvalPlus data file, which no Python package
ships: the file named by the evaluator's ``plus_path``, else by
``HUMANEVAL_OVERRIDE_PATH`` / ``MBPP_OVERRIDE_PATH`` (evalplus's variables), else
evalplus's cache (``$XDG_CACHE_HOME/evalplus`` or ``~/.cache/evalplus``:
``HumanEvalPlus-v0.1.9.jsonl``, ``MbppPlus-v0.1.0.jsonl``).  Nothing is
downloaded; a missing file is an error record naming the paths tried.

Time: the limits derive from the reference solution's measured time on this
machine, as in evalplus, so slow solutions near a limit pass or fail depending
on the machine and its load.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assay._threads import map_threads
from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._code_exec import Checked, SandboxPool
from assay.evaluators._evalplus_program import check_program, decode, last_result, truth_program
from assay.registry import ICL_EVALUATORS

logger = logging.getLogger(__name__)

__all__ = ["HumanEvalPlusEvaluator", "evalplus_data_path", "load_plus_problems", "mbpp_plus_inputs"]

_FILES = {"humaneval": ("HUMANEVAL_OVERRIDE_PATH", "HumanEvalPlus-v0.1.9.jsonl"), "mbpp": ("MBPP_OVERRIDE_PATH", "MbppPlus-v0.1.0.jsonl")}
_REQUIRED = ("prompt", "contract", "canonical_solution", "base_input", "plus_input", "atol")
#: MBPP+ problems whose outputs are compared only on being ``None`` or not.
MBPP_OUTPUT_NOT_NONE = ("check_str", "text_match_three", "text_starta_endb")
_MIN_TIME_LIMIT = 0.2
_TIME_LIMIT_FACTOR = 4.0
_PER_CHECK_CAP = 60.0
_MEMORY = 4 * 1024**3


def evalplus_data_path(dataset: str, plus_path: str | None = None) -> Path | str:
    """The EvalPlus data file of ``dataset`` (``'humaneval'`` or ``'mbpp'``), or a message naming where it was looked for.

    Example:
        >>> str(evalplus_data_path('humaneval', 'my/HumanEvalPlus.jsonl'))
        'my/HumanEvalPlus.jsonl'
    """
    variable, name = _FILES[dataset]
    if plus_path:
        return Path(plus_path).expanduser()
    override = os.environ.get(variable)
    if override:
        return Path(override).expanduser()
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "evalplus" / name
    if cache.is_file():
        return cache
    return f"no {name}: give plus_path, set {variable}, or put the file in {cache.parent}"


def _as_tuples(item: Any) -> Any:
    return tuple(_as_tuples(x) for x in item) if isinstance(item, list) else item


def mbpp_plus_inputs(task_id: str, inputs: list[Any]) -> list[Any]:
    """MBPP+ inputs with the Python types JSON cannot hold, restored as evalplus restores them.

    Example:
        >>> mbpp_plus_inputs('Mbpp/2', [[[3, 4], [5, 6]]])
        [[(3, 4), (5, 6)]]
        >>> mbpp_plus_inputs('Mbpp/11', [[1, 2]])
        [[1, 2]]
    """
    n = int(str(task_id).split("/")[-1])
    if n in (2, 116, 132, 143, 222, 261, 273, 394, 399, 421, 424, 429, 470, 560, 579, 596, 616, 630, 726, 740, 744, 809):
        return [[tuple(lst) for lst in inp] for inp in inputs]
    if n in (63, 64, 70, 94, 120, 237, 272, 299, 400, 409, 417, 438, 473, 614, 780):
        return [[[tuple(lst) for lst in group] for group in inp] for inp in inputs]
    if n in (75, 413, 444, 753):
        return [[[tuple(lst) for lst in inp[0]], inp[1]] for inp in inputs]
    if n in (106, 750):
        return [[inp[0], tuple(inp[1])] for inp in inputs]
    if n == 115:
        return [[[set(item) if isinstance(item, list) and len(item) else {} for item in inp[0]]] for inp in inputs]
    if n == 124:
        return [(float(inp[0]), complex(inp[1])) for inp in inputs]
    if n in (250, 405, 446, 617, 720, 763, 808):
        return [[tuple(inp[0]), inp[1]] for inp in inputs]
    if n in (259, 401, 445):
        staged = [[[tuple(lst) for lst in group] for group in inp] for inp in inputs]
        return [[tuple(lst) for lst in inp] for inp in staged]
    if n == 278:
        staged = [[[tuple(item) if isinstance(item, list) else item for item in inp[0]]] for inp in inputs]
        return [[tuple(lst) for lst in inp] for inp in staged]
    if n == 307:
        return [[tuple(inp[0]), inp[1], inp[2]] for inp in inputs]
    if n == 722:
        return [[{key: tuple(value) for key, value in inp[0].items()}, *inp[1:]] for inp in inputs]
    if n == 252:
        return [[complex(inp[0])] for inp in inputs]
    if n in (580, 615, 791):
        return [_as_tuples(inp) for inp in inputs]
    return inputs


def load_plus_problems(dataset: str, plus_path: str | None = None) -> dict[str, dict[str, Any]] | str:
    """``task_id`` → problem of the EvalPlus data file, or a message saying what is wrong."""
    from assay.datasets.local import read_jsonl_rows
    from assay.errors import InputFileError

    where = evalplus_data_path(dataset, plus_path)
    if isinstance(where, str):
        return where
    if not where.is_file():
        return f"EvalPlus data file {where} does not exist"
    try:
        rows = read_jsonl_rows(where, what="EvalPlus data file")
    except InputFileError as exc:
        return str(exc)
    problems: dict[str, dict[str, Any]] = {}
    for row in rows:
        missing = [k for k in (*_REQUIRED, "task_id", "entry_point") if k not in row]
        if missing:
            return f"EvalPlus data file {where}: problem {row.get('task_id')!r} lacks {', '.join(missing)}"
        task = dict(row)
        if dataset == "mbpp":
            task["base_input"] = mbpp_plus_inputs(task["task_id"], task["base_input"])
            task["plus_input"] = mbpp_plus_inputs(task["task_id"], task["plus_input"])
        problems[str(task["task_id"])] = task
    return problems


@dataclass
class _Truth:
    outputs: dict[str, list[Any]] = field(default_factory=dict)  # 'base' / 'plus' -> outputs
    times: dict[str, list[float]] = field(default_factory=dict)
    error: str = ""


@dataclass(frozen=True)
class PlusResult:
    """One solution's two checks: status (``pass``/``fail``/``timeout``) and the per-input verdicts that ran."""

    base_status: str
    plus_status: str
    base_details: list[bool]
    plus_details: list[bool]
    outcomes: tuple[str, str]


class EvalPlusRunner:
    """Reference outputs (computed once per problem) and sandboxed checks of solutions."""

    def __init__(self, dataset: str, pool: SandboxPool) -> None:
        self.dataset = dataset
        self.pool = pool
        self._truth: dict[tuple[str, str], _Truth] = {}

    def _limits(self, timeout: float, output: int = 64 * 1024) -> Any:
        from assay.sandbox import Limits

        return Limits(timeout=timeout, memory=self.pool.memory, output=output)

    def _run(self, jobs: list[tuple[str | Checked, Any]]) -> list[Any]:
        sandbox = self.pool.sandbox()
        workers = max(1, min(sandbox.max_workers, len(jobs)))

        def one(job: tuple[str | Checked, Any]) -> Any:
            program, limits = job
            if isinstance(program, Checked):
                return sandbox.run(program.program, checker=program.checker, limits=limits)
            return sandbox.run(program, limits=limits)

        return map_threads(one, jobs, workers=workers, name="evalplus", stoppable=sandbox)

    def truth(self, problems: dict[str, dict[str, Any]], task_ids: Sequence[str]) -> dict[str, _Truth]:
        wanted = [t for t in dict.fromkeys(task_ids) if (t, problems[t]["canonical_solution"]) not in self._truth]
        jobs: list[tuple[str | Checked, Any]] = []
        for t in wanted:
            p = problems[t]
            not_none = self.dataset == "mbpp" and p["entry_point"] in MBPP_OUTPUT_NOT_NONE
            for kind in ("base", "plus"):
                program = truth_program(p["prompt"] + p["canonical_solution"], p["entry_point"], p[f"{kind}_input"], not_none)
                jobs.append((program, self._limits(600.0, output=256 * 1024**2)))
        if jobs:
            logger.info("EvalPlus: computing reference outputs of %d problems", len(wanted))
        results = self._run(jobs)
        for i, t in enumerate(wanted):
            truth = _Truth()
            for j, kind in enumerate(("base", "plus")):
                r = results[2 * i + j]
                got = last_result(r.stdout) if r.passed else None
                if got is None:
                    truth.error = f"the reference solution of {t} did not run on its {kind} inputs: {r.message or r.outcome.value}"
                    break
                truth.outputs[kind] = decode(got[0])
                truth.times[kind] = [float(x) for x in got[1]]
            self._truth[(t, problems[t]["canonical_solution"])] = truth
        return {t: self._truth[(t, problems[t]["canonical_solution"])] for t in task_ids}

    def check(self, problems: dict[str, dict[str, Any]], samples: Sequence[tuple[str, str]]) -> list[PlusResult] | str:
        """Check each ``(task_id, solution)``; a message when a reference solution cannot be run."""
        truths = self.truth(problems, [t for t, _ in samples])
        for _t, truth in truths.items():
            if truth.error:
                return truth.error
        jobs: list[tuple[str | Checked, Any]] = []
        for task_id, solution in samples:
            p = problems[task_id]
            truth = truths[task_id]
            for kind in ("base", "plus"):
                limits = [max(_MIN_TIME_LIMIT, _TIME_LIMIT_FACTOR * t) for t in truth.times[kind]]
                wall = min(_PER_CHECK_CAP, sum(limits)) + 3  # evalplus: +1, +1 for details, +1 joining
                program = check_program(
                    self.dataset, solution, p["entry_point"], p[f"{kind}_input"], truth.outputs[kind], limits, p["atol"], list(MBPP_OUTPUT_NOT_NONE)
                )
                jobs.append((program, self._limits(wall)))
        logger.info("EvalPlus: running %d checks", len(jobs))
        results = self._run(jobs)
        out: list[PlusResult] = []
        for i in range(len(samples)):
            statuses: list[str] = []
            details: list[list[bool]] = []
            for r in results[2 * i : 2 * i + 2]:
                got = r.data
                if r.passed:
                    statuses.append("pass")
                elif (r.outcome.value in ("failed", "memory") and isinstance(got, list) and len(got) == 2) or r.outcome.value == "failed":
                    statuses.append("fail")
                else:
                    statuses.append("timeout")
                details.append([bool(x) for x in got[1]] if isinstance(got, list) and len(got) == 2 else [])
            out.append(PlusResult(statuses[0], statuses[1], details[0], details[1], (results[2 * i].outcome.value, results[2 * i + 1].outcome.value)))
        return out


def outcome_counts(results: Sequence[PlusResult]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in results:
        for o in r.outcomes:
            counts[o] = counts.get(o, 0) + 1
    return dict(sorted(counts.items()))


@ICL_EVALUATORS.register_module()
class HumanEvalPlusEvaluator(BaseEvaluator):
    """HumanEval+ (base and EvalPlus's extra tests), OpenCompass's ``HumanEvalPlusEvaluator``.

    Inputs: ``predictions`` (completions, or lists of them), ``references``
    (``task_id``) and ``test_set`` (its ``prompt`` column: the solution is
    ``prompt + completion``, the prompt taken from the test-set row of the same
    index, as OpenCompass does).

    Metric: ``humaneval_plus_pass@1``, 100 × the share of samples whose
    *task's first solution* passed both checks — OpenCompass reads only the
    first result of each task, so repeated samples of one task all count as
    that one (reproduced; each detail then carries OpenCompass's warning).
    Details: ``prompt``, ``prediction``, ``reference``, ``base_result``,
    ``plus_result``, ``is_correct``.  ``outcomes`` counts the sandbox outcomes
    of all checks.

    Differences from OpenCompass 0.5.4: a test set that covers only some
    problems of the data file is scored (evalplus stops with "Missing problems
    in samples"); each check runs as a sandboxed process instead of after
    evalplus's ``reliability_guard``, and compares, in a second process, the
    plain values the solution's calls return — a solution that returns an
    object equal to everything, or reports its own result, fails here where
    evalplus counts it right.

    Args:
        k: accepted for OpenCompass configs; only pass@1 is reported there too.
        plus_path: the EvalPlus data file (see the module docstring).
        max_workers: checks run in parallel (default: the usable cores).
        isolation: see :class:`assay.sandbox.Sandbox`.
        pred_postprocessor: evaluator-level postprocessor config.
    """

    sample_outcome = SampleOutcome(correct="is_correct")

    def __init__(
        self,
        k: Any = (1, 10, 100),
        plus_path: str | None = None,
        max_workers: int | None = None,
        isolation: str = "auto",
        pred_postprocessor: Any = None,
    ) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self.k = k
        self.plus_path = plus_path
        self._runner = EvalPlusRunner("humaneval", SandboxPool(_PER_CHECK_CAP, _MEMORY, max_workers, isolation))

    def score(self, predictions: list[Any], references: list[Any], test_set: Any) -> dict[str, Any]:
        name = type(self).__name__
        if len(predictions) != len(references):
            return {"error": f"{name}: {len(predictions)} predictions but {len(references)} references"}
        if not predictions:
            return {"error": f"{name}: no samples to score"}
        if test_set is None or "prompt" not in (getattr(test_set, "column_names", None) or []):
            return {"error": f"{name}: needs the test set's prompt column"}
        problems = load_plus_problems("humaneval", self.plus_path)
        if isinstance(problems, str):
            return {"error": f"{name}: {problems}"}
        unknown = sorted({str(r) for r in references if str(r) not in problems})
        if unknown:
            return {"error": f"{name}: task_id(s) not in the EvalPlus data: {', '.join(unknown[:5])}"}
        prompts = list(test_set["prompt"])
        samples: list[tuple[str, str]] = []
        for pred, ref, prompt in zip(predictions, references, prompts):
            for completion in pred if isinstance(pred, list) else [pred]:
                samples.append((str(ref), f"{prompt}{'' if completion is None else completion}"))
        results = self._runner.check(problems, samples)
        if isinstance(results, str):
            return {"error": f"{name}: {results}"}
        per_task: dict[str, list[PlusResult]] = {}
        for (task_id, _), r in zip(samples, results):
            per_task.setdefault(task_id, []).append(r)
        details: list[dict[str, Any]] = []
        passed = 0
        for i, (pred, ref) in enumerate(zip(predictions, references)):
            task_results = per_task[str(ref)]
            r = task_results[0]
            ok = r.base_status == "pass" and r.plus_status == "pass"
            passed += ok
            detail: dict[str, Any] = {
                "prompt": prompts[i] if i < len(prompts) else None,
                "prediction": pred,
                "reference": ref,
                "base_result": r.base_status,
                "plus_result": r.plus_status,
                "is_correct": ok,
            }
            if len(task_results) > 1:
                detail["warning"] = "Multiple files in the solution. Details may be wrong."
            details.append(detail)
        return {
            "humaneval_plus_pass@1": passed / len(predictions) * 100,
            "isolation": self._runner.pool.isolation_name,
            "outcomes": outcome_counts(results),
            "details": details,
        }


def mbpp_plus_score(runner: EvalPlusRunner, plus_path: str | None, name: str, solutions: list[tuple[str, str]], owners: list[int], size: int) -> dict[str, Any]:
    """OpenCompass's MBPP+ metric: the share of tasks whose first solution passed the plus check."""
    problems = load_plus_problems("mbpp", plus_path)
    if isinstance(problems, str):
        return {"error": f"{name}: {problems}"}
    unknown = sorted({t for t, _ in solutions if t not in problems})
    if unknown:
        return {"error": f"{name}: task_id(s) not in the MBPP+ data: {', '.join(unknown[:5])}"}
    results = runner.check(problems, solutions)
    if isinstance(results, str):
        return {"error": f"{name}: {results}"}
    first: dict[str, PlusResult] = {}
    for (task_id, _), r in zip(solutions, results):
        first.setdefault(task_id, r)
    passed = sum(1 for r in first.values() if r.plus_status == "pass")
    per_sample: list[list[PlusResult]] = [[] for _ in range(size)]
    for i, r in zip(owners, results):
        per_sample[i].append(r)
    details = []
    for runs in per_sample:
        fields: dict[str, Any] = {
            "base_result": [r.base_status for r in runs],
            "plus_result": [r.plus_status for r in runs],
            "is_correct": [r.plus_status == "pass" for r in runs],
        }
        if len(runs) == 1:
            fields = {k: v[0] for k, v in fields.items()}
        details.append(fields)
    return {
        "mbpp_plus_pass@1": passed / len(first) * 100 if first else 0.0,
        "isolation": runner.pool.isolation_name,
        "outcomes": outcome_counts(results),
        "details": details,
    }
