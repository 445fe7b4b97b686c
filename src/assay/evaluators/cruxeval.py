"""CRUXEval-O (output prediction) by execution: ``CRUXEvalOEvaluator``, as OpenCompass 0.5.4 scores it."""

from __future__ import annotations

import logging
from typing import Any

from assay.evaluate.base import SANDBOX_UNSCORABLE, BaseEvaluator, SampleOutcome
from assay.evaluators._code_exec import SandboxPool, count_outcomes
from assay.registry import ICL_EVALUATORS

logger = logging.getLogger(__name__)

__all__ = ["CRUXEvalOEvaluator", "cruxeval_o_program"]

#: The outcome of a candidate that was not run: it echoes ``f(<input>)`` instead of a value.
ECHOED = "echoed"


def cruxeval_o_program(code: str, output: str, prediction: str) -> str:
    """The program that checks one CRUXEval-O prediction: ``code`` then ``assert <output> == <prediction>``.

    The check is OpenCompass's text, run with ``exec`` in a namespace holding
    only the builtins: the prediction is pasted after ``==`` as it is, so a
    prediction such as ``0 or True`` changes the assertion itself.

    Example:
        >>> p = cruxeval_o_program('def f(x):\\n    return x', '1', '1')
        >>> 'assert 1 == 1' in p
        True
    """
    source = f"{code}\nassert {output} == {prediction}"
    return f"exec(compile({source!r}, '<string>', 'exec'), {{'__builtins__': __builtins__}})\n"


@ICL_EVALUATORS.register_module()
class CRUXEvalOEvaluator(BaseEvaluator):
    """CRUXEval-O accuracy: a prediction is right when ``assert <output> == <prediction>`` holds after the sample's code.

    Inputs: ``predictions`` (the predicted value's source text, usually after
    ``cruxeval_o_postprocess``; or a list of them — several return
    sequences, correct when any is), ``references`` (the ``output``
    column) and ``test_set`` (columns ``code``, ``input``, ``output``,
    optionally ``id``).  A candidate containing ``f(<input>)`` is not run
    and counts as wrong (CRUXEval's rule against echoing the call).

    Metric: ``CRUXEval-O`` in [0, 100] (0.0 for no samples, as OpenCompass).
    Details, a dict keyed by the sample's position as a string, as
    OpenCompass writes them: ``id``, ``prediction``, ``reference`` (the
    ``output`` column), ``is_correct``; plus ``outcome``: ``passed``,
    ``failed``, ``echoed`` (every candidate echoed the call) or the sandbox's
    ``timeout``/``memory``/``killed``/``sandbox-error`` when no candidate
    passed and one could not be run to its end (unscorable, not wrong, in
    the statistics).  ``outcomes`` counts the sandbox outcomes of the runs.

    Each check runs as its own process in :mod:`assay.sandbox` (OpenCompass
    forks the evaluating process and runs it there with ``exec``), with
    OpenCompass's text of the check, so the verdicts are OpenCompass's,
    including where the prediction's text changes the assertion (``0 or
    True`` passes) or its value's ``__eq__`` answers for it (an object equal
    to everything passes), as it does in OpenCompass 0.5.4.  ``timeout`` is
    wall-clock seconds per check (3, as OpenCompass), which here also covers
    starting the sandboxed interpreter.

    Args:
        timeout: wall-clock seconds per check.
        memory: address-space bytes per check.
        max_workers: checks run in parallel (default: the usable cores).
        isolation: see :class:`assay.sandbox.Sandbox`.
        pred_postprocessor: evaluator-level postprocessor config.

    Example:
        >>> ev = CRUXEvalOEvaluator()
        >>> ts = [{'id': 'a', 'code': 'def f(x):\\n    return x * 2', 'input': '3', 'output': '6'}]
        >>> ev.score(['6'], ['6'], ts)['CRUXEval-O']  # doctest: +SKIP
        100.0
    """

    sample_outcome = SampleOutcome(correct="is_correct", unscorable="outcome", unscorable_values=SANDBOX_UNSCORABLE)

    def __init__(
        self,
        timeout: float = 3,
        memory: int = 1024**3,
        max_workers: int | None = None,
        isolation: str = "auto",
        pred_postprocessor: Any = None,
    ) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self._pool = SandboxPool(timeout, memory, max_workers, isolation)

    @property
    def timeout(self) -> float:
        return self._pool.timeout

    def score(self, predictions: list[Any], references: list[Any], test_set: Any) -> dict[str, Any]:
        name = type(self).__name__
        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        rows = _rows(test_set, len(predictions), name)
        if isinstance(rows, str):
            return {"error": rows}

        owners: list[int] = []
        programs: list[str] = []
        counts = [0] * len(predictions)
        for i, (prediction, row) in enumerate(zip(predictions, rows)):
            candidates = prediction if isinstance(prediction, list) else [prediction]
            counts[i] = len(candidates)
            for candidate in candidates:
                text = candidate if isinstance(candidate, str) else str(candidate)
                if f"f({row['input']})" in text:
                    continue  # echoes the call instead of a value
                owners.append(i)
                programs.append(cruxeval_o_program(str(row["code"]), str(row["output"]), text))
        results = self._run(name, programs)

        runs: list[list[str]] = [[] for _ in predictions]
        for i, result in zip(owners, results):
            runs[i].append(result.outcome.value)
        details: dict[str, Any] = {}
        correct = 0
        for i, (prediction, row) in enumerate(zip(predictions, rows)):
            is_correct = "passed" in runs[i]
            correct += int(is_correct)
            details[str(i)] = {
                "id": row.get("id", i),
                "prediction": prediction,
                "reference": row["output"],
                "is_correct": is_correct,
                "outcome": _outcome(runs[i]),
            }
        total = len(predictions)
        out: dict[str, Any] = {"CRUXEval-O": correct / total * 100 if total > 0 else 0.0}
        if programs:
            out["isolation"] = self._pool.isolation_name
        out["outcomes"] = count_outcomes(r.outcome.value for r in results)
        out["details"] = details
        return out

    def _run(self, name: str, programs: list[str]) -> list[Any]:
        if not programs:
            return []
        sandbox = self._pool.sandbox()
        logger.info("%s: running %d checks (%s isolation)", name, len(programs), sandbox.isolation.value)
        return list(sandbox.run_many(programs))


def _outcome(runs: list[str]) -> str:
    """One sample's outcome: passed when a run passed, else the first run that could not end, else failed."""
    if "passed" in runs:
        return "passed"
    if not runs:
        return ECHOED
    for run in runs:
        if run in SANDBOX_UNSCORABLE:
            return run
    return "failed"


def _rows(test_set: Any, n: int, name: str) -> list[dict[str, Any]] | str:
    """The first ``n`` rows of ``test_set`` as dicts with ``code``, ``input``, ``output``, or what is wrong."""
    if test_set is None:
        return f"{name}: needs the test set (columns code, input, output)"
    rows = [dict(test_set[i]) for i in range(min(n, len(test_set)))]
    if len(rows) < n:
        return f"{name}: {n} predictions but the test set has {len(rows)} rows"
    for i, row in enumerate(rows):
        missing = [c for c in ("code", "input", "output") if c not in row]
        if missing:
            return f"{name}: test set row {i} lacks the column(s) {', '.join(missing)}"
    return rows
