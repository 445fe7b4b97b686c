"""Running the extraction audit of one task: both chains read, the differing samples, the would-be metrics (R-9.2).

Where a task's plan (:mod:`assay.audit.plan`) puts a corrected counterpart
in its chain, the eval also reads every reply with the counterpart in its
place.  The official numbers are untouched; the result gets an audit record
(:class:`~assay.audit.record.AuditRecord`): how many replies the two chains
read differently, the samples with such a reply and their readings (each
run's final answer by both chains, texts cut to :data:`READING_TEXT`
characters, and the corrected answer's verdict by the statistics' verdict
rule, :func:`assay.stats.sample_correctness`), and every metric as it would
be with the correction.

When no reply differs the evaluator is not run again and the would-be
metrics are the official ones.  When some do, an evaluator that is
sample-decomposable and declares how each metric comes from its samples
(``sample_sums``) scores the differing samples only: each metric is computed
from their corrected per-sample values and the official values of the
others, to the bits of scoring every sample again (which is what any other
evaluator does).  A failure of the audit is recorded as the record's
``error`` and never touches the official result.
"""

from __future__ import annotations

import itertools
import logging
import math
import operator
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from assay._dataclass import FrozenMethods
from assay.audit.record import AuditRecord, Reading

if TYPE_CHECKING:
    from assay.audit.plan import AuditPlan

logger = logging.getLogger(__name__)

__all__ = [
    "READING_TEXT",
    "SampleRescore",
    "compare_chains",
    "official_stages",
    "plain_reading",
    "read_both",
    "run_audit",
]

#: Longest text kept of one reading in the result file.
READING_TEXT = 600


def plain_reading(value: Any, limit: int = READING_TEXT) -> Any:
    """A final answer as JSON keeps it: texts cut to ``limit``, non-finite numbers and other objects as text.

    >>> plain_reading('x' * 5, 3), plain_reading(float('nan')), plain_reading([1, ('a',)])
    ('xxx…', 'nan', [1, ['a']])
    """
    if type(value) is str and len(value) <= limit:  # the usual answer, first
        return value
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, str):
        return value if len(value) <= limit else value[:limit] + "…"
    if isinstance(value, (list, tuple)):
        return [plain_reading(v, limit) for v in value]
    return plain_reading(repr(value), limit)


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    try:
        return bool(a == b)
    except Exception:  # an object that cannot be compared: read as different
        return False


_STR = {str}


def compare_chains(official: Sequence[Any], corrected: Sequence[Any], size: int, n: int) -> tuple[int, list[int]]:
    """How many replies differ, and the sorted indices of the samples (of ``size``, runs laid out run-major) with one.

    >>> compare_chains(['1', '2', '3', '1', '5', '3'], ['1', '2', '4', '1', '2', '3'], 3, 2)
    (2, [1, 2])
    """
    if len(official) == len(corrected) and set(map(type, official)) == _STR == set(map(type, corrected)):
        # the usual answers, texts: compared at C speed (two texts are the same exactly when equal)
        rows = list(itertools.compress(range(len(official)), map(operator.ne, official, corrected)))
        return len(rows), sorted({i % size for i in rows})
    differ = 0
    samples: set[int] = set()
    for i, (a, b) in enumerate(zip(official, corrected, strict=True)):
        # the usual answers, equal objects or two texts, told apart without a call
        if a is b or (type(a) is str and type(b) is str and a == b):
            continue
        if not _same(a, b):
            differ += 1
            samples.add(i % size)
    return differ, sorted(samples)


def official_stages(plan: AuditPlan, raw: Sequence[Any]) -> list[list[Any]]:
    """The official chain's output after the model level and after the dataset level."""
    from assay.postprocess.chain import apply_postprocessor

    out: list[list[Any]] = []
    current = list(raw)
    for stage in (0, 1):
        current = apply_postprocessor(plan.postprocessor(stage), current)
        out.append(current)
    return out


def read_both(plan: AuditPlan, raw: Sequence[Any], stage_outputs: Sequence[Sequence[Any]]) -> tuple[list[Any], list[Any], list[Any]]:
    """The corrected chain's output before the evaluator level, and both chains' final answers.

    Returns ``(corrected before the evaluator level, official final, corrected final)``.
    """
    from assay.postprocess.chain import apply_postprocessor

    first = plan.stages[0]
    # the corrected chain shares the official one's output up to the first substitution
    corrected: list[Any] = list(raw if first == 0 else stage_outputs[first - 1])
    for stage in range(first, 2):
        corrected = apply_postprocessor(plan.postprocessor(stage, corrected=True), corrected)
    official_fn = plan.postprocessor(2)
    corrected_fn = plan.postprocessor(2, corrected=True)
    return corrected, apply_postprocessor(official_fn, stage_outputs[1]), apply_postprocessor(corrected_fn, corrected)


@dataclass(init=False, repr=False, eq=False)
class SampleRescore(FrozenMethods):
    """How to score some samples only, for an evaluator whose metrics come from per-sample sums.

    Attributes:
        fields: the details fields the metrics come from (the evaluator's ``sample_sums``).
        metrics_of: every metric from every sample's details (one entry per
            sample) and the metric names wanted, as scoring all of them gives them.
        rescore: scores the given samples (their indices) with the given
            predictions (after the dataset level; those samples' rows of every
            run, run-major) and evaluator-level postprocessor config; returns
            the evaluator's result on those samples.
    """

    fields: Collection[str]
    metrics_of: Callable[[list[Any], list[str]], Mapping[str, Any]]
    rescore: Callable[[list[int], list[Any], Any], Mapping[str, Any]]

    def __init__(
        self,
        fields: Collection[str],
        metrics_of: Callable[[list[Any], list[str]], Mapping[str, Any]],
        rescore: Callable[[list[int], list[Any], Any], Mapping[str, Any]],
    ) -> None:
        self.fields = fields
        self.metrics_of = metrics_of
        self.rescore = rescore


def _rows_of(samples: Sequence[int], size: int, n: int) -> list[int]:
    """The rows of ``samples`` in every run of a run-major layout, run-major.

    >>> _rows_of([1, 3], 4, 2)
    [1, 3, 5, 7]
    """
    return [r * size + j for r in range(n) for j in samples]


def _from_differing(
    how: SampleRescore, official: Mapping[str, Any], corrected: Sequence[Any], samples: list[int], size: int, n: int, evaluator_pp: Any,
) -> tuple[dict[str, Any], list[Any]] | None:
    """The would-be metrics from the differing samples scored again and the others' official per-sample
    values, with the corrected details of the differing samples; ``None`` when the official result does not
    give every metric that way (no details, a field missing, a metric not declared)."""
    from assay.rundir.results import numeric_metrics

    details = official.get("details")
    fields = set(how.fields)
    # the first sample is checked here; a field missing from another leaves its metric out below
    if not isinstance(details, list) or len(details) != size or not details or not isinstance(details[0], dict) or not fields <= details[0].keys():
        return None
    wanted = list(numeric_metrics(dict(official)))
    result = how.rescore(samples, [corrected[i] for i in _rows_of(samples, size, n)], evaluator_pp)
    if "error" in result:
        raise RuntimeError(f"the evaluator failed on the corrected answers: {result['error']}")
    changed = result.get("details")
    if not isinstance(changed, list) or len(changed) != len(samples):
        return None
    combined = list(details)
    for j, detail in zip(samples, changed, strict=True):
        combined[j] = detail
    metrics = how.metrics_of(combined, wanted)
    if not set(wanted) <= metrics.keys():
        return None
    return {key: metrics[key] for key in wanted}, changed


def run_audit(
    plan: AuditPlan,
    *,
    raw: Sequence[Any],
    stage_outputs: Sequence[Sequence[Any]],
    official: Mapping[str, Any],
    size: int,
    n: int,
    rescore: Callable[[list[Any], Any], Mapping[str, Any]],
    samples_only: SampleRescore | None = None,
) -> AuditRecord:
    """The audit record of one task (see the module docs); never raises.

    Args:
        plan: the pairs that apply and where.
        raw: the raw replies.
        stage_outputs: the official chain's output after the model level and after the dataset level.
        official: the official result, details included (numeric metrics are the audit's when no reply differs).
        size, n: samples per run and runs.
        rescore: scores predictions (after the dataset level) with the given
            evaluator-level postprocessor config; returns the evaluator's result.
        samples_only: for a sample-decomposable evaluator with ``sample_sums``:
            how to score the differing samples only (every sample is scored
            again when ``None``, or when the official result lacks the
            per-sample values).
    """
    from assay.rundir.results import numeric_metrics
    from assay.stats import sample_correctness

    corrections = plan.describe()
    try:
        failed = plan.option_error()
        if failed is not None:
            raise ValueError(failed)
        corrected, official_final, corrected_final = read_both(plan, raw, stage_outputs)
        differ, samples = compare_chains(official_final, corrected_final, size, n)
        if not differ:
            return AuditRecord(corrections, len(official_final), 0, [], [], dict(numeric_metrics(dict(official))))
        partial = None
        if samples_only is not None:
            partial = _from_differing(samples_only, official, corrected, samples, size, n, plan.corrected_config(2))
        if partial is not None:
            metrics, changed = partial
            detail_of: dict[int, Any] = dict(zip(samples, changed, strict=True))
        else:
            result = rescore(corrected, plan.corrected_config(2))
            if "error" in result:
                raise RuntimeError(f"the evaluator failed on the corrected answers: {result['error']}")
            metrics = dict(numeric_metrics(dict(result)))
            details = result.get("details")
            detail_of = {j: details[j] for j in samples if j < len(details)} if isinstance(details, list) else {}
        readings = []
        for j in samples:
            verdicts = sample_correctness(detail_of[j]) if j in detail_of else None
            if verdicts and verdicts[0] is None and all(v is None for v in verdicts):
                verdicts = None  # no run has a verdict (an empty list is left out below)
            if n == 1:  # one run: the sample's reply is its row
                readings.append(Reading([plain_reading(official_final[j])], [plain_reading(corrected_final[j])], verdicts or None))
                continue
            rows = [r * size + j for r in range(n)]
            readings.append(Reading(
                [plain_reading(official_final[i]) for i in rows], [plain_reading(corrected_final[i]) for i in rows], verdicts or None,
            ))
        return AuditRecord(corrections, len(official_final), differ, samples, readings, metrics)
    except Exception as exc:
        logger.warning("extraction audit failed: %s: %s", type(exc).__name__, exc, exc_info=True)
        return AuditRecord.failed(corrections, f"{type(exc).__name__}: {exc}")
