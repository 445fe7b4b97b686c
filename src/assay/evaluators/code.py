"""Code-execution evaluators: ``HumanEvalEvaluator`` (functional correctness, pass@k).

Each completion is run in :mod:`assay.sandbox` as the program
``prompt + completion + "\\n" + test + "\\n" + "check(<entry_point>)"``.  It
passes only when the program reaches its end; a timeout, a memory blow-up, an
early ``exit`` or a crash is recorded for that sample alone.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from assay.evaluate.base import BaseEvaluator
from assay.evaluate.gpass import pass_at_k
from assay.registry import ICL_EVALUATORS

logger = logging.getLogger(__name__)

__all__ = ["HumanEvalEvaluator", "humaneval_program"]

_MESSAGE_CAP = 2000


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
        <BLANKLINE>
    """
    return f"{prompt}{completion}\n{test}\n" + f"check({entry_point})\n"


@ICL_EVALUATORS.register_module()
class HumanEvalEvaluator(BaseEvaluator):
    """HumanEval functional correctness with the unbiased pass@k estimator.

    Inputs: ``predictions`` (a completion per sample, or a list of
    completions — several return sequences), ``references`` (the
    ``task_id`` of each sample, as OpenCompass's ``reader_cfg.output_column``
    gives it) and ``test_set`` (columns ``task_id``, ``prompt``, ``test``,
    ``entry_point``).  All completions of one ``task_id`` in the batch form
    that problem's samples.

    Metrics: ``humaneval_pass@k`` (0–100, the mean over problems of
    ``1 - C(n-c, k)/C(n, k)``) for each configured ``k`` that every problem
    has at least ``k`` samples for.  Details per sample: ``task_id``,
    ``completion``, ``is_correct``, ``outcome`` and ``message`` (lists when
    the prediction is a list).

    Args:
        k: the k values of pass@k.
        timeout: wall-clock seconds per program.
        memory: address-space bytes per program.
        max_workers: programs run in parallel (default: the number of cores).
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

    def __init__(
        self,
        k: int | Sequence[int] = (1, 10, 100),
        timeout: float = 5.0,
        memory: int = 1024**3,
        max_workers: int | None = None,
        isolation: str = "auto",
        pred_postprocessor: Any = None,
    ) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self.k = [k] if isinstance(k, int) else list(k)
        if not self.k or any(not isinstance(x, int) or x < 1 for x in self.k):
            raise ValueError(f"HumanEvalEvaluator: k must be a positive int or a list of them, got {k!r}")
        self.timeout = float(timeout)
        self.memory = int(memory)
        self.max_workers = max_workers
        self.isolation = isolation
        self._sandbox: Any = None

    def _get_sandbox(self) -> Any:
        if self._sandbox is None:
            from assay.sandbox import Limits, Sandbox

            self._sandbox = Sandbox(
                Limits(timeout=self.timeout, memory=self.memory),
                isolation=self.isolation,  # type: ignore[arg-type]
                max_workers=self.max_workers,
            )
        return self._sandbox

    def score(self, predictions: list[Any], references: list[Any], test_set: Any) -> dict[str, Any]:
        name = type(self).__name__
        if references is None:
            return {"error": f"{name}: references must be the task_id column (reader_cfg.output_column='task_id')"}
        if len(predictions) != len(references):
            return {"error": f"{name}: {len(predictions)} predictions but {len(references)} references"}
        if not predictions:
            return {"error": f"{name}: no samples to score"}
        problems = _problems(test_set)
        if isinstance(problems, str):
            return {"error": f"{name}: {problems}"}
        unknown = sorted({str(r) for r in references if str(r) not in problems})
        if unknown:
            return {"error": f"{name}: task_id(s) not in the test set: {', '.join(unknown[:5])}"}

        jobs: list[tuple[int, int, str]] = []  # (sample, candidate, program)
        shapes: list[bool] = []  # True when the sample's prediction is a list
        for i, (pred, ref) in enumerate(zip(predictions, references)):
            is_list = isinstance(pred, (list, tuple))
            shapes.append(is_list)
            candidates = list(pred) if is_list else [pred]
            p = problems[str(ref)]
            for j, completion in enumerate(candidates):
                text = "" if completion is None else str(completion)
                jobs.append((i, j, humaneval_program(p["prompt"], text, p["test"], p["entry_point"])))

        sandbox = self._get_sandbox()
        logger.info("%s: running %d programs (%s isolation)", name, len(jobs), sandbox.isolation.value)
        results = sandbox.run_many([program for _, _, program in jobs])

        per_sample: list[list[Any]] = [[] for _ in predictions]
        for (i, _, _), res in zip(jobs, results):
            per_sample[i].append(res)
        per_task: dict[str, list[bool]] = {}
        for ref, runs in zip(references, per_sample):
            per_task.setdefault(str(ref), []).extend(r.passed for r in runs)

        out: dict[str, Any] = {}
        for k in self.k:
            if all(len(v) >= k for v in per_task.values()):
                values = [pass_at_k(len(v), sum(v), k) for v in per_task.values()]
                out[f"humaneval_pass@{k}"] = 100.0 * sum(values) / len(values)
        if not out:
            logger.warning("%s: no k in %s has enough samples per problem", name, self.k)

        details: list[dict[str, Any]] = []
        for i, (pred, ref, runs) in enumerate(zip(predictions, references, per_sample)):
            fields: dict[str, Any] = {
                "is_correct": [r.passed for r in runs],
                "outcome": [r.outcome.value for r in runs],
                "message": [r.message[:_MESSAGE_CAP] for r in runs],
            }
            if not shapes[i]:
                fields = {key: value[0] if value else None for key, value in fields.items()}
            details.append({"task_id": str(ref), "completion": pred, **fields})
        out["isolation"] = sandbox.isolation.value
        out["outcomes"] = _count_outcomes(results)
        out["details"] = details
        return out


def _count_outcomes(results: Sequence[Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in results:
        counts[r.outcome.value] = counts.get(r.outcome.value, 0) + 1
    return dict(sorted(counts.items()))


def _problems(test_set: Any) -> dict[str, dict[str, str]] | str:
    """``task_id`` → problem fields, or a message saying what is missing."""
    if test_set is None:
        return "needs the test set (columns task_id, prompt, test, entry_point)"
    columns = list(getattr(test_set, "column_names", None) or [])
    rows: list[dict[str, Any]]
    if columns:
        missing = [c for c in ("task_id", "prompt", "test", "entry_point") if c not in columns]
        if missing:
            return f"the test set lacks the column(s) {', '.join(missing)}"
        rows = [dict(r) for r in test_set]
    else:
        rows = [dict(r) for r in test_set]
        if rows and any(c not in rows[0] for c in ("task_id", "prompt", "test", "entry_point")):
            return "the test set rows need task_id, prompt, test and entry_point"
    return {
        str(r["task_id"]): {"prompt": str(r["prompt"]), "test": str(r["test"]), "entry_point": str(r["entry_point"])}
        for r in rows
    }
