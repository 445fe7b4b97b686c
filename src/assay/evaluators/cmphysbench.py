"""CMPhysBench's evaluator as OpenCompass 0.5.4 computes it (``CMPhysBenchEvaluator``).

Each reference is the pair ``[answer, topic]`` (:class:`~assay.datasets.cmphysbench.CMPhysBenchDataset`).
Each reply's answer is the content of its last closed ``\\boxed{…}`` (nested
braces counted, stripped; the whole reply when there is none or it is empty),
scored against the reference's answer by the scalable expression edit distance
(SEED, :mod:`assay.evaluators._cmphysbench_seed`) with the reference's *topic*
as the answer's type, as OpenCompass passes it.  CMPhysBench's topics
(``Magnetism``, ``Superconductivity``, …) are none of SEED's types (``Tuple``,
``Interval``, ``Numeric``, ``Equation``, ``Expression``), so every answer of the
benchmark is scored as an expression after the text following its last
comparison sign: 100 when SymPy finds the two equal, else ``max(0, 60 - 100 *
distance / size)`` of their expression trees, ``size`` counting the *model's*
tree (OpenCompass passes the reply as SEED's ground truth).  The metric
``score`` is the mean score (0 to 100).

LaTeX conversion and SymPy's simplification run in worker processes, within
OpenCompass's limits per step (conversion 10 s, ``simplify`` 30 s, the
difference and ``equals`` 10 s each; past one the step's result is what
OpenCompass uses then: no expression, the unsimplified one, unequal); a sample
still unscored after ``timeout`` seconds in all (default 300) scores 0, its
details naming the limit.  How long a step takes depends on the machine, so a
sample near a limit may score differently on another one, in OpenCompass as here.
A ``Numeric`` answer whose quantity asks for a huge integer stops at once at the
quantity reader's bounds and scores 0, the bound named in its details' ``error``:
an integer of more than 2**20 bits (``10**315000`` passes), an argument of ``N``,
``Float`` (the precision), ``gamma``, ``factorial`` or ``binomial`` above 100,000
(``zeta``: 10,000), an exact SymPy power past 2**20 bits or another SymPy value's
power of more than 4,096 bits.  Past these OpenCompass mostly computes for
seconds to far beyond its timeout, but not always (a plain power of ten of more
than about 315,000 digits takes it 0.05 s, so such an answer may score 100 there
and 0 here); below them it fails or finishes fast and assay does the
same (``3\\times10^{20000}`` is too large for ``float``, the unit conversion is
then skipped, as there).

OpenCompass's scorer would raise on a tree holding a logical ``And``/``Or``/``Not``
that reached the distance (its cost tables have no entry for them), ending its
evaluation; no such input is known (SymPy's ``equals`` fails first on logical
expressions, which scores 0).  assay's scorer raises there too, and the sample
then scores 0 with the error in its details.
"""

from __future__ import annotations

import json
import os
import re
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, mean_of
from assay.registry import ICL_EVALUATORS

__all__ = ["CMPhysBenchEvaluator", "last_boxed_answer"]

_BOXED = re.compile(r"\\boxed\{")


def last_boxed_answer(text: str) -> str | None:
    """The content of the last closed ``\\boxed{…}`` (nested braces counted), stripped; ``None`` when there is none.

    An unclosed ``\\boxed{`` is passed over, an earlier closed one then counts.

    >>> last_boxed_answer('\\\\boxed{a} then \\\\boxed{ {b} } and \\\\boxed{c')
    '{b}'
    """
    found: list[str] = []
    for match in _BOXED.finditer(text):
        start = match.end()
        depth = 1
        i = start
        while i < len(text) and depth > 0:
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
            i += 1
        if depth == 0:
            found.append(text[start : i - 1])
    return found[-1].strip() if found else None


def _seed_worker(reference: str, answer: str) -> tuple[str, str, str, str]:
    """One sample in a worker (``reference`` is the JSON pair ``[answer, type]``): ``(status, score as JSON, '', '')``."""
    from assay.evaluators._cmphysbench_seed import seed

    gold, kind = json.loads(reference)
    score = seed(answer, gold, kind)[0]
    return ("correct" if score == 100 else "wrong"), json.dumps(score), "", ""


@ICL_EVALUATORS.register_module()
class CMPhysBenchEvaluator(BaseEvaluator):
    """CMPhysBench's SEED score (metric ``score``, the mean of the samples' scores, 0 to 100).

    Inputs: ``predictions`` (the replies) and ``references`` (``[answer, topic]``
    pairs; a missing answer scores 0 and a missing topic is no type, as in OpenCompass).  Details, as OpenCompass's: ``pred`` (the answer read), ``answer``
    (the reference pair), ``score``; a sample not scored within ``timeout``
    seconds, or whose worker died, also has ``error``.
    """

    sample_outcome = SampleOutcome(scores={"score": "score"})
    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("score", mean_of)})

    def __init__(self, timeout: float = 300.0, workers: int | None = None, pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if timeout <= 0:
            raise ValueError(f"CMPhysBenchEvaluator: timeout must be positive, got {timeout!r}")
        self.timeout = float(timeout)
        self.workers = workers if workers is not None else max(1, min(4, os.cpu_count() or 1))

    def _bad_input(self, predictions: list[Any], references: list[Any]) -> str | None:
        for n, prediction in enumerate(predictions):
            if not isinstance(prediction, str):
                return f"CMPhysBenchEvaluator: sample {n}: the prediction is {type(prediction).__name__} {prediction!r:.80}, not text"
        for n, reference in enumerate(references):
            if not (isinstance(reference, (list, tuple)) and len(reference) >= 2
                    and all(part is None or isinstance(part, str) for part in reference[:2])):
                return (f"CMPhysBenchEvaluator: sample {n}: the reference is {type(reference).__name__} {reference!r:.80}, "
                        "expected [answer, topic] (two texts)")
        return None

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        from assay.evaluators._mathverify_worker import STATUS_TIMEOUT, run_checks

        problem = check_batch(self, predictions, references)
        if problem is not None:
            return problem
        bad = self._bad_input(predictions, references)
        if bad is not None:
            return {"error": bad}
        answers = [last_boxed_answer(p) or p for p in predictions]
        items = [(json.dumps([ref[0], ref[1]]), answer) for ref, answer in zip(references, answers)]
        outcomes = run_checks(items, workers=self.workers, timeout=self.timeout, check=_seed_worker,
                              component="CMPhysBench SEED")
        details: list[dict[str, Any]] = []
        for answer, ref, outcome in zip(answers, references, outcomes):
            detail: dict[str, Any] = {"pred": answer, "answer": list(ref)}
            if outcome.status in ("correct", "wrong"):
                detail["score"] = json.loads(outcome.pred)
            else:
                detail["score"] = 0
                timed_out = outcome.status == STATUS_TIMEOUT
                detail["error"] = f"no score within {self.timeout:g} s" if timed_out else (outcome.message or outcome.status)
            details.append(detail)
        return {"score": sum(d["score"] for d in details) / len(details), "details": details}
