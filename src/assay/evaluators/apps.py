"""APPS and TACO: ``APPSEvaluator`` and ``TACOEvaluator``, as OpenCompass 0.5.4 scores them where ``pyext`` is installed.

Each reply is cut to its first fenced block (:func:`apps_extract_code`);
the replies are grouped by reference (the ``problem_id``), in the order the
references first appear, and the ``i``-th group is checked against the
``i``-th distinct ``problem_id`` row of the test set (OpenCompass pairs them by
position).  Each solution runs on every test of its problem's ``input_output``
in :mod:`assay.sandbox` (:mod:`assay.evaluators._apps_program`): ``True`` or
``False`` per test, ``-1`` for a test that raised or ran out of its 4 s, ``-2``
when the code does not load; a run that does not finish within 11 s counts
``-1`` for every test.  A solution is correct when every entry is positive;
``pass@k`` (0–100) is the unbiased estimate over each problem's solutions,
for each ``k`` of 1, 10, 100 that every problem has, and ``detail`` holds
each problem's pass@k, as OpenCompass reports them.

OpenCompass loads each solution with ``pyext``'s ``RuntimeModule``, which
does not install on Python 3.11 and later: there OpenCompass 0.5.4 counts
every solution as not loading (``-2``) and reports pass@k 0.  assay runs the
solutions as OpenCompass does where ``pyext`` works (a module made from the
source).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from assay.evaluate.base import SANDBOX_UNSCORABLE, BaseEvaluator, SampleOutcome
from assay.evaluators._apps_program import CALL_SECONDS, apps_program
from assay.evaluators._code_exec import SandboxPool, count_outcomes
from assay.evaluators.code import estimate_pass_at_k
from assay.registry import ICL_EVALUATORS

logger = logging.getLogger(__name__)

__all__ = ["APPSEvaluator", "TACOEvaluator", "apps_extract_code"]

#: Seconds OpenCompass gives one solution's whole run (its ``TIMEOUT`` and a second).
RUN_SECONDS = 11.0


def apps_extract_code(text: Any) -> str:
    """OpenCompass's APPS extraction: the first fenced block (its first line dropped unless the fence ends it),
    else the text after a lone fence, else the reply.

    Example:
        >>> apps_extract_code("Here:\\n```python\\nprint(1)\\n```")
        'print(1)\\n'
        >>> apps_extract_code("print(2)")
        'print(2)'
    """
    text = "" if text is None else str(text)
    if "```" in text:
        blocks = re.findall(r"```(.*?)```", text, re.DOTALL)
        if not blocks:
            return text.split("```")[1]
        text = blocks[0]
        if not text.startswith("\n"):
            text = text[max(text.find("\n") + 1, 0) :]
    return text


def _correct(results: list[Any]) -> bool:
    import numpy as np

    return bool(np.all(np.array(results) > 0))


class _APPSBase(BaseEvaluator):
    sample_outcome = SampleOutcome(correct="is_correct", unscorable="outcome", unscorable_values=SANDBOX_UNSCORABLE)

    def __init__(self, timeout: float = RUN_SECONDS, memory: int = 1024**3, max_workers: int | None = None,
                 isolation: str = "auto", pred_postprocessor: Any = None, **kwargs: Any) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self._pool = SandboxPool(timeout, memory, max_workers, isolation)

    def score(self, predictions: list[Any], references: list[Any], test_set: Any = None) -> dict[str, Any]:
        name = type(self).__name__
        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        if not predictions:
            return {"error": f"{name}: no samples to score"}
        if test_set is None or "problem_id" not in (getattr(test_set, "column_names", None) or []):
            return {"error": f"{name}: needs the test set with its problem_id and input_output columns"}
        groups: dict[Any, list[int]] = {}
        for i, ref in enumerate(references):
            groups.setdefault(ref, []).append(i)
        seen: set[Any] = set()
        problems: list[dict[str, Any]] = []
        for row in test_set:
            if row["problem_id"] not in seen:
                seen.add(row["problem_id"])
                problems.append(row)
        if len(groups) != len(problems):
            return {"error": f"{name}: {len(groups)} distinct references but {len(problems)} distinct problem_id rows in the test set"}
        codes = [apps_extract_code(p) for p in predictions]
        runs: list[tuple[int, str, int]] = []  # (sample, input_output, number of tests)
        for members, problem in zip(groups.values(), problems):
            raw = str(problem.get("input_output") or "")
            try:
                tests = len(json.loads(raw)["inputs"])
            except (ValueError, TypeError, KeyError) as exc:
                return {"error": f"{name}: problem {problem['problem_id']!r} has no readable input_output ({exc})"}
            for i in members:
                runs.append((i, raw, tests))
        sandbox = self._pool.sandbox()
        logger.info("%s: running %d programs (%s isolation)", name, len(runs), sandbox.isolation.value)
        results = sandbox.run_many([apps_program(codes[i], raw, CALL_SECONDS).program for i, raw, _ in runs],
                                   checkers=[apps_program(codes[i], raw, CALL_SECONDS).checker for i, raw, _ in runs])
        per_sample: dict[int, tuple[list[Any], str, str]] = {}
        for (i, _, tests), res in zip(runs, results):
            data = res.data
            if isinstance(data, list) and len(data) == 2 and isinstance(data[0], list):
                per_sample[i] = (data[0], "passed" if res.passed else "failed", str(data[1])[:2000])
            else:  # the run did not finish: every test counts as failed to run
                outcome = res.outcome.value if res.outcome.value != "passed" else "failed"
                per_sample[i] = ([-1] * tests, outcome, res.message)
        total: list[int] = []
        correct: list[int] = []
        task_ids: list[Any] = []
        for ref, members in groups.items():
            task_ids.append(ref)
            total.append(len(members))
            correct.append(sum(_correct(per_sample[i][0]) for i in members))
        out: dict[str, Any] = {}
        detail: dict[str, dict[Any, float]] = {}
        for k in (1, 10, 100):
            if all(t >= k for t in total):
                per_task = [estimate_pass_at_k([t], [c], k) for t, c in zip(total, correct)]
                out[f"pass@{k}"] = estimate_pass_at_k(total, correct, k) * 100
                detail[f"pass@{k}"] = dict(zip(task_ids, per_task))
        out["detail"] = detail
        out["outcomes"] = count_outcomes(per_sample[i][1] for i in range(len(predictions)))
        out["details"] = [
            {"problem_id": references[i], "results": per_sample[i][0], "is_correct": _correct(per_sample[i][0]),
             "outcome": per_sample[i][1], "message": per_sample[i][2]}
            for i in range(len(predictions))
        ]
        return out


@ICL_EVALUATORS.register_module()
class APPSEvaluator(_APPSBase):
    """APPS pass@k, OpenCompass's ``APPSEvaluator`` (see the module's description).

    Inputs: ``predictions``, ``references`` (the ``problem_id`` column) and
    ``test_set`` (``problem_id``, ``input_output``).  Metrics: ``pass@k``,
    ``detail`` (each problem's pass@k), ``outcomes``.  Details per sample:
    ``problem_id``, ``results`` (per test), ``is_correct``, ``outcome``, ``message``.

    Time: each call has 4 s (an alarm) and a solution's run 11 s of wall-clock
    time (``timeout``), as in OpenCompass.
    """


@ICL_EVALUATORS.register_module()
class TACOEvaluator(_APPSBase):
    """TACO pass@k, OpenCompass's ``TACOEvaluator``: the same as :class:`APPSEvaluator`."""
