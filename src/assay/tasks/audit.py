"""The extraction audit: the official postprocessor chain against the chain with corrected counterparts (R-9.2).

Where a task's prediction postprocessors (model level, dataset level,
evaluator level) include one with a declared corrected counterpart (see
:mod:`assay.postprocess.corrections`), the eval also reads every reply with
the counterpart in its place.  The official numbers are untouched; the
result file gets an ``extraction_audit`` record::

    {"corrections": [{"at": "eval_cfg.pred_postprocessor", "official": "gsm8k_postprocess",
                      "corrected": "gsm8k_thousands"}],
     "replies": 1319,          # replies compared (samples × runs)
     "differ": 3,              # replies the two chains read differently
     "samples": [4, 17, 200],  # indices of the samples with such a reply (as in details)
     "readings": [{"official": ["234"], "corrected": ["1234"], "correct": [true]}, ...],
     "metrics": {"accuracy": 81.2}}   # every metric as it would be with the correction

``readings`` has one entry per listed sample: each run's final answer by both
chains (texts cut to :data:`READING_TEXT` characters) and, when the evaluator
gives per-sample verdicts, the verdict of the corrected answer.  When no reply
differs the evaluator is not run again and ``metrics`` are the official ones.
When some do, an evaluator that is sample-decomposable and declares how each
metric comes from its samples (``sample_sums``) scores the differing samples
only: each metric is computed from their corrected per-sample values and the
official values of the others, to the bits of scoring every sample again
(which is what any other evaluator does).
A failure of the audit is recorded as ``{"corrections": [...], "error": "..."}``
and never touches the official result.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from assay.postprocess.corrections import Correction

logger = logging.getLogger(__name__)

#: A G-Pass@k metric name (as :meth:`~assay.evaluate.base.BaseEvaluator.evaluate` adds them).
_G_PASS = re.compile(r"m?G-Pass@\d+(_[0-9.]+)?")

__all__ = [
    "AUDIT_KEY",
    "READING_TEXT",
    "STAGES",
    "AuditPlan",
    "SampleRescore",
    "Substitution",
    "audit_plan",
    "chain_configs",
    "compare_chains",
    "merge_audits",
    "official_stages",
    "plain_reading",
    "read_both",
    "run_audit",
]

#: The result-file key of the audit record.
AUDIT_KEY = "extraction_audit"
#: Longest text kept of one reading in the result file.
READING_TEXT = 600
#: The three prediction postprocessor locations, in the order they apply.
STAGES: tuple[str, ...] = ("model pred_postprocessor", "eval_cfg.pred_postprocessor", "eval_cfg.evaluator.pred_postprocessor")


@dataclass(frozen=True)
class Substitution:
    """One postprocessor of the chain replaced by its corrected counterpart."""

    stage: int
    official_cfg: Any
    corrected_cfg: dict[str, Any]
    correction: Correction

    @property
    def at(self) -> str:
        return STAGES[self.stage]

    def describe(self) -> dict[str, Any]:
        """The substitution as the result file records it.

        >>> from assay.postprocess.corrections import Correction
        >>> Substitution(1, {'type': 'a', 'k': 1}, {'type': 'b', 'k': 1}, Correction('a', 'b')).describe()
        {'at': 'eval_cfg.pred_postprocessor', 'official': 'a', 'corrected': 'b', 'options': {'k': 1}}
        """
        from assay.config.dump import plainify

        out: dict[str, Any] = {"at": self.at, "official": self.correction.official, "corrected": self.correction.corrected}
        options = {k: v for k, v in self.corrected_cfg.items() if k != "type"}
        if options:
            out["options"] = plainify(options)
        return out


@dataclass(frozen=True)
class AuditPlan:
    """The chains of one task: the official configs of the three stages and the substitutions.

    ``types`` are the functions the official configs' ``type`` resolve to (``None``
    where a stage has none); each postprocessor of either chain is resolved and
    built once, when first asked for (:meth:`postprocessor`).
    """

    configs: tuple[Any, Any, Any]
    substitutions: tuple[Substitution, ...]
    types: tuple[Any, Any, Any] = field(default=(None, None, None), compare=False)
    _built: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def _substitution(self, stage: int) -> Substitution | None:
        return next((s for s in self.substitutions if s.stage == stage), None)

    def corrected_config(self, stage: int) -> Any:
        """The config of ``stage`` in the corrected chain."""
        s = self._substitution(stage)
        return s.corrected_cfg if s is not None else self.configs[stage]

    def corrected_type(self, s: Substitution) -> Any:
        """The corrected counterpart's function (resolved once; raises when it cannot be)."""
        from assay.registry import TEXT_POSTPROCESSORS, resolve_type

        key = ("corrected type", s.stage)
        if key not in self._built:
            try:
                self._built[key] = resolve_type(s.correction.corrected, TEXT_POSTPROCESSORS, key=f"{s.at} (corrected).type")
            except Exception as exc:  # remembered: asked again, the same error
                self._built[key] = exc
        found = self._built[key]
        if isinstance(found, Exception):
            raise found
        return found

    def postprocessor(self, stage: int, *, corrected: bool = False) -> Any:
        """The postprocessor of ``stage`` in the official or the corrected chain, built once (``None``: no config)."""
        from assay.postprocess.chain import build_postprocessor

        s = self._substitution(stage) if corrected else None
        key = ("built", stage, s is not None)
        if key not in self._built:
            if s is not None:
                self._built[key] = build_postprocessor(s.corrected_cfg, where=f"{STAGES[stage]} (corrected)", resolved=self.corrected_type(s))
            else:
                self._built[key] = build_postprocessor(self.configs[stage], where=STAGES[stage], resolved=self.types[stage])
        return self._built[key]

    def describe(self) -> list[dict[str, Any]]:
        """The substitutions as the result file records them."""
        return [s.describe() for s in self.substitutions]

    def fingerprint_input(self) -> list[Any]:
        """What the result depends on: each substitution, its option mapping and the corrected code's source."""
        from assay.config.dump import plainify
        from assay.errors import AssayError
        from assay.tasks.fingerprint import source_digest

        out: list[Any] = []
        for s in self.substitutions:
            try:
                source = source_digest(self.corrected_type(s))
            except (AssayError, ImportError) as exc:
                source = f"unresolved: {exc}"
            out.append([s.at, plainify(s.official_cfg), plainify(s.corrected_cfg), s.correction.describe_options(), source])
        return out


def _type_of(cfg: Any) -> Any:
    if isinstance(cfg, Mapping):
        return cfg.get("type")
    if callable(cfg):
        return cfg
    return None


def chain_configs(model_cfg: Mapping[str, Any], eval_cfg: Mapping[str, Any], evaluator_cfg: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    """The prediction postprocessor configs of a task's three :data:`STAGES`."""
    return (model_cfg.get("pred_postprocessor"), eval_cfg.get("pred_postprocessor"), evaluator_cfg.get("pred_postprocessor"))


def audit_plan(
    model_cfg: Mapping[str, Any], eval_cfg: Mapping[str, Any], evaluator_cfg: Mapping[str, Any], *, types: Sequence[Any] | None = None
) -> AuditPlan | None:
    """The audit of a task's chain, or ``None`` when no postprocessor of it has a declared counterpart.

    ``types``: the functions the three stages' ``type`` resolve to, when the
    caller has resolved them (see :func:`~assay.postprocess.chain.resolve_postprocessor_type`).

    >>> audit_plan({}, {'pred_postprocessor': {'type': 'general_postprocess'}}, {}) is None
    True
    """
    from assay.postprocess.chain import resolve_postprocessor_type
    from assay.postprocess.corrections import correction_for

    configs = chain_configs(model_cfg, eval_cfg, evaluator_cfg)
    resolved = tuple(types) if types is not None else tuple(resolve_postprocessor_type(cfg) for cfg in configs)
    substitutions: list[Substitution] = []
    for stage, cfg in enumerate(configs):
        spec = resolved[stage] if resolved[stage] is not None else _type_of(cfg)
        if spec is None:
            continue
        correction = correction_for(spec)
        if correction is None:
            continue
        try:
            corrected = correction.corrected_config(cfg if isinstance(cfg, Mapping) else {"type": cfg})
        except Exception as exc:  # a broken option mapping: audited as an error, never the official result
            corrected = {"type": correction.corrected, "__error__": f"{type(exc).__name__}: {exc}"}
        substitutions.append(Substitution(stage, cfg, corrected, correction))
    if not substitutions:
        return None
    return AuditPlan(configs, tuple(substitutions), (resolved[0], resolved[1], resolved[2]))


def plain_reading(value: Any, limit: int = READING_TEXT) -> Any:
    """A final answer as JSON keeps it: texts cut to ``limit``, non-finite numbers and other objects as text.

    >>> plain_reading('x' * 5, 3), plain_reading(float('nan')), plain_reading([1, ('a',)])
    ('xxx…', 'nan', [1, ['a']])
    """
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


def compare_chains(official: Sequence[Any], corrected: Sequence[Any], size: int, n: int) -> tuple[int, list[int]]:
    """How many replies differ, and the sorted indices of the samples (of ``size``, runs laid out run-major) with one.

    >>> compare_chains(['1', '2', '3', '1', '5', '3'], ['1', '2', '4', '1', '2', '3'], 3, 2)
    (2, [1, 2])
    """
    differ = 0
    samples: set[int] = set()
    for i, (a, b) in enumerate(zip(official, corrected, strict=True)):
        if not _same(a, b):
            differ += 1
            samples.add(i % size)
    return differ, sorted(samples)


def _verdicts(detail: Any) -> list[bool | float | None] | None:
    """Per run, the verdict of a grouped detail by the statistics' rule (:func:`assay.stats.sample_correctness`).

    A whole verdict is recorded as ``True``/``False``, a share of correct
    candidates as that share; ``None`` when the detail carries no verdict.

    >>> _verdicts({'correct': [True, False]}), _verdicts({'correct': [[True, False]]}), _verdicts({'pred': 'A'})
    ([True, False], [0.5], None)
    """
    from assay.stats import sample_correctness

    row = sample_correctness(detail)
    if not row or all(v is None for v in row):
        return None
    return [v if v is None or v not in (0.0, 1.0) else v == 1.0 for v in row]


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

    first = min(s.stage for s in plan.substitutions)
    # the corrected chain shares the official one's output up to the first substitution
    corrected: list[Any] = list(raw if first == 0 else stage_outputs[first - 1])
    for stage in range(first, 2):
        corrected = apply_postprocessor(plan.postprocessor(stage, corrected=True), corrected)
    official_fn = plan.postprocessor(2)
    corrected_fn = plan.postprocessor(2, corrected=True)
    return corrected, apply_postprocessor(official_fn, stage_outputs[1]), apply_postprocessor(corrected_fn, corrected)


@dataclass(frozen=True)
class SampleRescore:
    """How to score some samples only, for an evaluator whose metrics come from per-sample sums.

    Attributes:
        declared: the evaluator's ``sample_sums`` (metric → details field and scale).
        k: the dataset's ``k`` (for G-Pass@k).
        subdivisions: gives each sample's subdivision, in sample order (asked for only with G-Pass@k).
        rescore: scores the given samples (their indices) with the given
            predictions (after the dataset level; those samples' rows of every
            run, run-major) and evaluator-level postprocessor config; returns
            the evaluator's result on those samples.
    """

    declared: Mapping[str, tuple[str, Callable[[Any, int], float]]]
    k: Any
    subdivisions: Callable[[], list[str]]
    rescore: Callable[[list[int], list[Any], Any], Mapping[str, Any]]


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
    from assay.tasks.shards import ShardPart, exact_metrics, shard_sums

    details = official.get("details")
    fields = {name for name, _ in how.declared.values()}
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
    g_pass = any(_G_PASS.fullmatch(key.rpartition("/")[2]) for key in wanted)
    sums = shard_sums(combined, how.declared, n, g_pass, how.subdivisions() if g_pass else [])
    metrics = exact_metrics([ShardPart({}, size, sums=sums)], how.declared, n, how.k)
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
) -> dict[str, Any]:
    """The audit record of one task (see the module docs); never raises.

    Args:
        plan: the substitutions.
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

    record: dict[str, Any] = {"corrections": plan.describe()}
    try:
        for s in plan.substitutions:
            if "__error__" in s.corrected_cfg:
                raise ValueError(f"the option mapping of {s.correction.official!r} failed: {s.corrected_cfg['__error__']}")
        corrected, official_final, corrected_final = read_both(plan, raw, stage_outputs)
        differ, samples = compare_chains(official_final, corrected_final, size, n)
        record.update({"replies": len(official_final), "differ": differ, "samples": samples})
        if not differ:
            record["readings"] = []
            record["metrics"] = dict(numeric_metrics(dict(official)))
            return record
        partial = None
        if samples_only is not None:
            partial = _from_differing(samples_only, official, corrected, samples, size, n, plan.corrected_config(2))
        if partial is not None:
            metrics, changed = partial
            verdict_of: dict[int, Any] = dict(zip(samples, changed, strict=True))
        else:
            result = rescore(corrected, plan.corrected_config(2))
            if "error" in result:
                raise RuntimeError(f"the evaluator failed on the corrected answers: {result['error']}")
            metrics = dict(numeric_metrics(dict(result)))
            details = result.get("details")
            verdict_of = {j: details[j] for j in samples if j < len(details)} if isinstance(details, list) else {}
        readings = []
        for j in samples:
            rows = [r * size + j for r in range(n)]
            entry: dict[str, Any] = {
                "official": [plain_reading(official_final[i]) for i in rows],
                "corrected": [plain_reading(corrected_final[i]) for i in rows],
            }
            if j in verdict_of:
                verdicts = _verdicts(verdict_of[j])
                if verdicts is not None:
                    entry["correct"] = verdicts
            readings.append(entry)
        record["readings"] = readings
        record["metrics"] = metrics
    except Exception as exc:
        logger.warning("extraction audit failed: %s: %s", type(exc).__name__, exc, exc_info=True)
        for key in ("replies", "differ", "samples", "readings", "metrics"):
            record.pop(key, None)
        record["error"] = f"{type(exc).__name__}: {exc}"
    return record


def merge_audits(parts: Sequence[tuple[Mapping[str, Any], int, int, dict[str, int]]]) -> dict[str, Any]:
    """The audit of a task scored in shards from each shard's ``(audit, first sample, samples, subdivisions)``.

    Counts add up, sample indices are shifted to the whole task's numbering and
    the would-be metrics are merged as the shards' official metrics are.

    >>> a = {'corrections': [], 'replies': 2, 'differ': 1, 'samples': [1], 'readings': [{}], 'metrics': {'accuracy': 50.0}}
    >>> b = {'corrections': [], 'replies': 2, 'differ': 0, 'samples': [], 'readings': [], 'metrics': {'accuracy': 100.0}}
    >>> merge_audits([(a, 0, 2, {'d': 2}), (b, 2, 2, {'d': 2})])['samples'], merge_audits([(a, 0, 2, {}), (b, 2, 2, {})])['metrics']
    ([1], {'accuracy': 75.0})
    """
    from assay.tasks.shards import ShardPart, merge_metrics

    record: dict[str, Any] = {"corrections": list(parts[0][0].get("corrections", [])) if parts else []}
    failed = [str(audit["error"]) for audit, _, _, _ in parts if "error" in audit]
    if failed:
        record["error"] = failed[0]
        return record
    record["replies"] = sum(int(audit["replies"]) for audit, _, _, _ in parts)
    record["differ"] = sum(int(audit["differ"]) for audit, _, _, _ in parts)
    record["samples"] = [lo + j for audit, lo, _, _ in parts for j in audit["samples"]]
    record["readings"] = [r for audit, _, _, _ in parts for r in audit["readings"]]
    merged, _ = merge_metrics([ShardPart(dict(audit["metrics"]), samples, subs) for audit, _, samples, subs in parts])
    record["metrics"] = merged
    return record


# -- checking a recorded audit (assay verify) -------------------------------------------------


@dataclass
class AuditCheck:
    """What :func:`check_audit` found: values checked, mismatches ``(what, reported, recomputed, how)``, and why not."""

    checked: int = 0
    mismatches: list[tuple[str, float, float | None, str]] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)


_CORRECTNESS_METRICS = frozenset({"accuracy", "score", "acc", "exact_match"})


def check_audit(result: Mapping[str, Any], *, config: Mapping[str, Any] | None, prediction_dir: Any, model: str, abbr: str) -> AuditCheck:
    """Recompute a result's ``extraction_audit`` and compare.

    * From the predictions (with ``config``, the run's resolved config, and the
      pairs declared now): both chains are applied again to every raw reply;
      the number of replies read differently, the samples and their readings
      must be the recorded ones.
    * From the details: each would-be accuracy-like metric (``accuracy``,
      ``score``, ``acc``, ``exact_match``, and their run averages) is
      ``100 × mean(correct)`` with the listed samples' verdicts replaced by
      their corrected verdicts; when no reply differs, every would-be metric
      is the official value.
    """
    from assay.rundir.results import numeric_metrics

    out = AuditCheck()
    audit = result.get(AUDIT_KEY)
    if not isinstance(audit, Mapping):
        return out
    if "error" in audit:
        out.unchecked.append(f"the audit recorded an error ({audit['error']})")
        return out
    try:
        differ, replies, samples = int(audit["differ"]), int(audit["replies"]), [int(j) for j in audit["samples"]]
        readings = list(audit["readings"])
        metrics = dict(audit["metrics"])
    except (KeyError, TypeError, ValueError) as exc:
        out.mismatches.append(("extraction_audit", 0.0, None, f"the record is malformed ({type(exc).__name__}: {exc})"))
        return out
    official = numeric_metrics(dict(result))
    if differ == 0:
        for metric, value in metrics.items():
            out.checked += 1
            if metric not in official or not _close(float(value), float(official[metric])):
                out.mismatches.append((f"extraction_audit.metrics.{metric}", float(value), _num(official.get(metric)),
                                       "no reply differs, so it is the official value"))
    else:
        _check_would_be(out, result, samples, readings, metrics)
    _check_readings(out, result, config, prediction_dir, model, abbr, differ, replies, samples, readings)
    return out


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) else None


def _close(a: float, b: float) -> bool:
    from assay.stats import values_match

    return values_match(a, b)


def _check_would_be(out: AuditCheck, result: Mapping[str, Any], samples: list[int], readings: list[Any], metrics: dict[str, Any]) -> None:
    from assay.stats import base_metric, correctness_matrix

    details = result.get("details")
    for metric, value in metrics.items():
        if base_metric(metric) not in _CORRECTNESS_METRICS:
            out.unchecked.append(f"extraction_audit.metrics.{metric} (no rule recomputes it)")
            continue
        matrix = correctness_matrix(details) if isinstance(details, list) and details else None
        if matrix is None:
            out.unchecked.append(f"extraction_audit.metrics.{metric} (no per-sample correctness in the details)")
            continue
        rows = [[0.0 if v is None else v for v in row] for row in matrix]
        for j, reading in zip(samples, readings):
            verdicts = reading.get("correct") if isinstance(reading, Mapping) else None
            if not isinstance(verdicts, list) or not 0 <= j < len(rows) or len(verdicts) != len(rows[j]):
                rows = []
                break
            rows[j] = [0.0 if v is None else float(v) for v in verdicts]
        cells = [v for row in rows for v in row]
        if not cells:
            out.unchecked.append(f"extraction_audit.metrics.{metric} (the readings carry no verdict for every run)")
            continue
        expected = 100.0 * sum(cells) / len(cells)
        out.checked += 1
        if not isinstance(value, (int, float)) or not _close(float(value), expected):
            out.mismatches.append((f"extraction_audit.metrics.{metric}", float(value) if isinstance(value, (int, float)) else math.nan,
                                   expected, "100 × mean(correct) with the corrected verdicts of the samples read differently"))


def _check_readings(
    out: AuditCheck,
    result: Mapping[str, Any],
    config: Mapping[str, Any] | None,
    prediction_dir: Any,
    model: str,
    abbr: str,
    differ: int,
    replies: int,
    samples: list[int],
    readings: list[Any],
) -> None:
    from assay.config.abbr import dataset_abbr, model_abbr

    what = "extraction_audit.differ"
    audit = result[AUDIT_KEY]
    if config is None:
        out.unchecked.append(f"{what} (no resolved config in the run directory)")
        return
    model_cfg = next((m for m in config.get("models") or [] if isinstance(m, Mapping) and _abbr(model_abbr, m) == model), None)
    dataset_cfg = next((d for d in config.get("datasets") or [] if isinstance(d, Mapping) and _abbr(dataset_abbr, d) == abbr), None)
    if model_cfg is None or dataset_cfg is None:
        out.unchecked.append(f"{what} (the config has no model {model!r} or dataset {abbr!r})")
        return
    eval_cfg = dict(dataset_cfg.get("eval_cfg") or {})
    plan = audit_plan(model_cfg, eval_cfg, dict(eval_cfg.get("evaluator") or {}))
    if plan is None:
        out.unchecked.append(f"{what} (no corrected counterpart is declared now for this chain)")
        return
    if plan.describe() != list(audit.get("corrections") or []):
        out.unchecked.append(f"{what} (the corrections declared now differ from the recorded ones)")
        return
    try:
        from assay.rundir.predictions import load_predictions

        raw = load_predictions(prediction_dir, abbr, keep=()).columns(only=("prediction",)).get("prediction")
        if raw is None:
            raise ValueError("no prediction field")
        _, official_final, corrected_final = read_both(plan, raw, official_stages(plan, raw))
    except Exception as exc:  # the predictions or a postprocessor are not available here
        out.unchecked.append(f"{what} (the replies cannot be read again: {type(exc).__name__}: {exc})")
        return
    found = result.get("_meta")
    meta: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    size, runs = meta.get("num_samples"), meta.get("n")
    if not isinstance(size, int) or not isinstance(runs, int) or size * runs != len(official_final) or size < 1:
        out.unchecked.append(f"{what} (the result's _meta does not give samples × runs = {len(official_final)} replies)")
        return
    got_differ, got_samples = compare_chains(official_final, corrected_final, size, runs)
    out.checked += 3
    if len(official_final) != replies:
        out.mismatches.append(("extraction_audit.replies", float(replies), float(len(official_final)), "replies in the prediction file"))
    if got_differ != differ:
        out.mismatches.append((what, float(differ), float(got_differ), "both chains applied again to the replies"))
    if got_samples != samples:
        extra = sorted(set(got_samples) ^ set(samples))[:5]
        out.mismatches.append(("extraction_audit.samples", float(len(samples)), float(len(got_samples)),
                               f"the samples read differently are not the listed ones (e.g. {extra})"))
        return
    expected = [
        {"official": [plain_reading(official_final[r * size + j]) for r in range(runs)],
         "corrected": [plain_reading(corrected_final[r * size + j]) for r in range(runs)]}
        for j in samples
    ]
    got = [{k: r.get(k) for k in ("official", "corrected")} if isinstance(r, Mapping) else r for r in readings]
    out.checked += 1
    if got != expected:
        bad = next(j for j, a, b in zip(samples, got, expected) if a != b) if len(got) == len(expected) else None
        out.mismatches.append(("extraction_audit.readings", float(len(got)), float(len(expected)),
                               f"the recorded readings differ from the recomputed ones (sample {bad})"))


def _abbr(fn: Callable[[dict[str, Any]], str], cfg: Mapping[str, Any]) -> str | None:
    try:
        return fn(dict(cfg))
    except Exception:  # an entry without abbr or path
        return None
