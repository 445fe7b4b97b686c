"""SRBench's evaluator as OpenCompass 0.5.4 computes it (``SRbenchDatasetEvaluator``;
its answer reader is :func:`assay.postprocess.srbench.mydataset_postprocess`).

The answer is a formula (``y = x0*x1 + sin(x0)``).  OpenCompass reads it with
SymPy (``sympify``, which runs the text as Python, then ``lambdify``) and
scores its fit on 300 of the formula's points; assay does the same in
:mod:`assay.sandbox`, each answer in a process of its own with
``expression_timeout`` seconds (OpenCompass sets no limit), so that no model
text runs in the evaluating process.

OpenCompass's evaluator loads the data file again and draws its own 300 points
of each formula from NumPy's global generator, unseeded: its numbers change
from one run to the next wherever a formula has more than 300 points.  assay
draws them from the test set's ``data`` column (the same file in the library's
configs) with ``numpy.random.default_rng(seed)`` (``seed`` 1 unless given:
another draw than the loader's, as OpenCompass's is another than its prompts'),
so that the same seed gives the same numbers; on a formula of exactly 300
points every metric is OpenCompass's whatever the draw.

Points are integers when every value of the file is one (OpenCompass's
column type), floats otherwise.  OpenCompass 0.5.4 runs under NumPy 1: a
Python int of a formula's code outside int64 and uint64 is an object array
there (the answer is then not valid) and one of uint64's range a uint64;
the sandbox gives such ints to the formula as those arrays, whatever its
NumPy.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import check_batch
from assay.evaluators._pyeval import DEFAULT_LIMIT, Check, SandboxUnavailable, run_checks, sandbox_notes
from assay.registry import ICL_EVALUATORS

__all__ = ["SRbenchDatasetEvaluator"]

_NAME = "SRbenchDatasetEvaluator"

#: A sample OpenCompass could not read or evaluate: these values, not counted in the means.
UNREAD = {"RMSE": 100000.0, "NMSE": 100000.0, "R2": -100000.0}


@ICL_EVALUATORS.register_module()
class SRbenchDatasetEvaluator(BaseEvaluator):
    """The fit of each answer's formula on 300 of its formula's points, averaged over the answers that could be
    read and evaluated: ``mean_RMSE``, ``mean_NMSE``, ``mean_R2`` and ``SymbolicMatch`` (their share that SymPy
    simplifies to the reference), with ``name`` (``['all']``) as OpenCompass writes it.

    For each answer (OpenCompass's steps): the text after its first ``=`` read by
    SymPy with ``sin``, ``cos``, ``exp``, ``sqrt``, ``log``, ``arcsin``,
    ``arccos``, ``tan`` and ``pi`` as functions and constants; its variables,
    in name order, take the reference's variables' columns in name order
    (``a - b`` fits ``y = x0 - x1``); RMSE and R2 as scikit-learn computes them
    and NMSE (the mean squared error over the variance of ``y``) on the points
    where both sides are finite.  Where that fails (no finite point, a count of
    variables the reference does not have), both formulas are compared as
    functions of two variables on a 1000 × 1000 grid of [-10, 10]² — its R2
    being ``1 - Σ(error²) / variance``, OpenCompass's formula; an answer that
    cannot be read, or evaluated either way, scores ``RMSE`` and ``NMSE``
    100000, ``R2`` -100000 and is left out of the means (all four 100000,
    100000, -100000 and 0 when no answer is left).  A reference SymPy cannot
    read stops OpenCompass's evaluation; here it is an error record naming the
    sample.

    Inputs: ``predictions`` (the postprocessed formulas), ``references`` (the
    ``formula`` column) and ``test_set`` (its ``data`` column: the points).
    Details, as OpenCompass's: ``index``, ``ground_truth``, ``prediction``,
    ``RMSE``, ``NMSE``, ``R2``, ``SymbolicMatch``, ``is_valid``.

    An answer whose reading raises MemoryError (the sandbox's memory limit) is
    not valid, as OpenCompass catches it; one whose reading does not end within
    ``expression_timeout`` seconds, whose process is killed or ends gives an
    error record naming the sample; where no sandbox can be created the batch is an error
    record saying why.

    Args:
        path: OpenCompass's data path, which its evaluator loads again; assay
            takes the points from the test set.
        seed: the seed of the draw of each formula's 300 points (assay's).
        expression_timeout: seconds each answer may take in the sandbox.
        isolation: see :class:`assay.sandbox.Sandbox`.
    """

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """Why the sandbox the answers run in cannot run here, if it cannot."""
        return sandbox_notes(_NAME, cfg, "sympy", True, numpy=True)

    def __init__(self, path: str = "", seed: int = 1, expression_timeout: float = DEFAULT_LIMIT, isolation: str = "auto",
                 pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if not float(expression_timeout) > 0:
            raise ValueError(f"{_NAME}: expression_timeout must be positive, got {expression_timeout!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"{_NAME}: seed must be an int, got {seed!r}")
        self.path = path
        self.seed = seed
        self.expression_timeout = float(expression_timeout)
        self.isolation = isolation

    def score(self, predictions: list[Any], references: list[Any], test_set: Any = None) -> dict[str, Any]:
        import numpy as np

        from assay.datasets.srbench import all_integers, draw_points
        from assay.errors import InputFileError

        problem = check_batch(self, predictions, references)
        if problem is not None:
            return problem
        rows = [dict(r) for r in test_set] if test_set is not None else []
        if len(rows) != len(predictions):
            return {"error": f"{_NAME}: the test set's rows (their 'data', the points) are needed, one per answer: "
                             f"{len(rows)} rows for {len(predictions)} answers"}
        for i, value in enumerate([*predictions, *references]):
            if not isinstance(value, str):
                side, n = ("answer", i) if i < len(predictions) else ("reference", i - len(predictions))
                return {"error": f"{_NAME}: sample {n}: the {side} is {type(value).__name__} {value!r:.80}, not text"}
        rng = np.random.default_rng(self.seed)
        integer = all_integers([row.get("data") for row in rows])
        checks = []
        for i, (pred, ref, row) in enumerate(zip(predictions, references, rows)):
            try:
                points = draw_points(row.get("data"), rng, f"{_NAME}: sample {i}", integer)
            except InputFileError as exc:
                return {"error": str(exc)}
            checks.append(Check("srbench", (pred, ref, json.dumps(points.tolist()))))
        try:
            verdicts = run_checks(checks, limit=self.expression_timeout, isolation=self.isolation)
        except SandboxUnavailable as exc:
            return {"error": f"{_NAME}: SymPy reads the answers as Python, in the sandbox, which cannot run here: {exc}"}
        details = []
        for i, (pred, ref, verdict) in enumerate(zip(predictions, references, verdicts)):
            if verdict.failure is not None or not isinstance(verdict.result, dict):
                limit = (" (OpenCompass reads it without a time limit; expression_timeout sets this one)"
                         if verdict.timed_out else "")
                return {"error": f"{_NAME}: sample {i} (answer {pred!r:.200}, reference {ref!r:.200}): "
                                 f"{verdict.failure}{limit}"}
            found = verdict.result
            if found.get("complex") and found.get("is_valid"):
                return {"error": f"{_NAME}: sample {i} (answer {pred!r:.200}, reference {ref!r:.200}): its fit is complex "
                                 f"({found['complex']}); OpenCompass's means are then complex and it writes no result"}
            details.append({"index": i, "ground_truth": ref, "prediction": pred, "RMSE": found["RMSE"], "NMSE": found["NMSE"],
                            "R2": found["R2"], "SymbolicMatch": bool(found["SymbolicMatch"]), "is_valid": bool(found["is_valid"])})
        valid = [d for d in details if d["is_valid"]]
        metrics: dict[str, Any] = {"name": ["all"]}
        if valid:
            for key, field in (("mean_RMSE", "RMSE"), ("mean_NMSE", "NMSE"), ("mean_R2", "R2"), ("SymbolicMatch", "SymbolicMatch")):
                total: float = 0
                for d in valid:
                    total += d[field]
                metrics[key] = total / len(valid)
        else:
            metrics.update(mean_RMSE=UNREAD["RMSE"], mean_NMSE=UNREAD["NMSE"], mean_R2=UNREAD["R2"], SymbolicMatch=0.0)
        return {**metrics, "details": details}
