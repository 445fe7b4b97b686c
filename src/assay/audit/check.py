"""Checking a recorded extraction audit, for ``assay verify`` (R-9.2).

:func:`check_audit` recomputes what can be recomputed of a result's audit
record and says what does not match; ``assay verify``
(:mod:`assay.commands.verify`) runs it on every result that has a record.
:func:`check_tool_audit` does the same for the comparison of another tool's
own extraction with assay's chain that a result scoring that tool's replies
holds in ``_meta.rescored`` (no declared pair is involved: the tool's answers
are the prediction file's ``source_extracted``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from assay._dataclass import DataclassMethods
from assay.audit.record import AUDIT_KEY, AuditRecord, record_of, tool_record_of

__all__ = ["TOOL_AUDIT_AT", "AuditCheck", "check_audit", "check_tool_audit"]

#: How a check names the comparison with another tool's extraction in a result.
TOOL_AUDIT_AT = f"_meta.rescored.{AUDIT_KEY}"


@dataclass(repr=False, eq=False)
class AuditCheck(DataclassMethods):
    """What :func:`check_audit` found: values checked, mismatches ``(what, reported, recomputed, how)``, and why not."""

    checked: int = 0
    mismatches: list[tuple[str, float, float | None, str]] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)


_CORRECTNESS_METRICS = frozenset({"accuracy", "score", "acc", "exact_match"})


def check_audit(result: Mapping[str, Any], *, config: Mapping[str, Any] | None, prediction_dir: Any, model: str, abbr: str) -> AuditCheck:
    """Recompute a result's audit record and compare.

    * From the predictions (with ``config``, the run's resolved config, and the
      pairs declared now): both chains are applied again to every raw reply;
      the number of replies read differently, the samples and their readings
      must be the recorded ones.
    * From the details: each would-be accuracy-like metric (``accuracy``,
      ``score``, ``acc``, ``exact_match``, and their run averages) is
      ``100 × mean(correct)`` with the listed samples' verdicts replaced by
      their corrected verdicts; when no reply differs, every would-be metric
      is the official value.

    A record that is not an audit record is one mismatch, saying what is wrong with it.
    """
    from assay.rundir.results import numeric_metrics

    out = AuditCheck()
    try:
        record = record_of(result)
    except ValueError as exc:
        out.mismatches.append((AUDIT_KEY, 0.0, None, f"the record is malformed ({exc})"))
        return out
    if record is None:
        return out
    if record.error is not None:
        out.unchecked.append(f"the audit recorded an error ({record.error})")
        return out
    official = numeric_metrics(dict(result))
    if record.differ == 0:
        for metric, value in record.metrics.items():
            out.checked += 1
            if metric not in official or not isinstance(value, (int, float)) or not _close(float(value), float(official[metric])):
                reported = _num(value)
                out.mismatches.append((f"{AUDIT_KEY}.metrics.{metric}", math.nan if reported is None else reported, _num(official.get(metric)),
                                       "no reply differs, so it is the official value"))
    else:
        _check_would_be(out, result, record)
    _check_readings(out, result, record, config, prediction_dir, model, abbr)
    return out


def check_tool_audit(
    result: Mapping[str, Any], *, config: Mapping[str, Any] | None, prediction_dir: Any, model: str, abbr: str,
) -> AuditCheck:
    """Recompute a result's comparison of another tool's own extraction with assay's chain (``_meta.rescored``).

    * From the prediction file: the tool's answers (``source_extracted``) against the
      replies read again by the chain of ``config`` (the run's resolved config: the
      model's, the dataset's and the evaluator's ``pred_postprocessor``); the number
      of replies read differently, the samples and both readings must be the recorded ones.
    * From the details: each accuracy-like metric the tool's answers would give is
      ``100 × mean(correct)`` with the listed samples' verdicts replaced by the
      verdicts of the tool's answers; when no reply differs it is the result's value.

    A record that is malformed is one mismatch, saying what is wrong with it.
    """
    from assay.rundir.results import numeric_metrics

    out = AuditCheck()
    try:
        found = tool_record_of(result)
    except ValueError as exc:
        out.mismatches.append((TOOL_AUDIT_AT, 0.0, None, f"the record is malformed ({exc})"))
        return out
    if found is None:
        return out
    record = found.record
    if record.error is not None:
        out.unchecked.append(f"{TOOL_AUDIT_AT} (the comparison recorded an error: {record.error})")
        return out
    if record.differ == 0:
        official = numeric_metrics(dict(result))
        for metric, value in record.metrics.items():
            out.checked += 1
            if metric not in official or not isinstance(value, (int, float)) or not _close(float(value), float(official[metric])):
                reported = _num(value)
                out.mismatches.append((f"{TOOL_AUDIT_AT}.metrics.{metric}", math.nan if reported is None else reported,
                                       _num(official.get(metric)), "no reply differs, so it is the result's value"))
    else:
        _check_would_be(out, result, record, TOOL_AUDIT_AT, "the verdicts of the tool's answers")
    _check_tool_readings(out, result, record, config, prediction_dir, model, abbr)
    return out


def _check_tool_readings(
    out: AuditCheck, result: Mapping[str, Any], record: AuditRecord, config: Mapping[str, Any] | None,
    prediction_dir: Any, model: str, abbr: str,
) -> None:
    from assay.audit.run import compare_chains, plain_reading
    from assay.config.abbr import dataset_abbr, model_abbr
    from assay.postprocess.chain import apply_postprocessor, build_postprocessor

    what = f"{TOOL_AUDIT_AT}.differ"
    if config is None:
        out.unchecked.append(f"{what} (no resolved config in the run directory)")
        return
    dataset_cfg = next((d for d in config.get("datasets") or [] if isinstance(d, Mapping) and _abbr(dataset_abbr, d) == abbr), None)
    if dataset_cfg is None:
        out.unchecked.append(f"{what} (the config has no dataset {abbr!r})")
        return
    # the tool's models are not among the config's: without an entry of its own, a model has no postprocessor
    model_cfg = next((m for m in config.get("models") or [] if isinstance(m, Mapping) and _abbr(model_abbr, m) == model), {})
    eval_cfg = dict(dataset_cfg.get("eval_cfg") or {})
    chain = (model_cfg.get("pred_postprocessor"), eval_cfg.get("pred_postprocessor"), dict(eval_cfg.get("evaluator") or {}).get("pred_postprocessor"))
    try:
        from assay.rundir.predictions import load_predictions

        columns = load_predictions(prediction_dir, abbr, keep=()).columns(only=("prediction", "source_extracted"))
        raw, tool = columns.get("prediction"), columns.get("source_extracted")
        if raw is None or tool is None:
            raise ValueError("no prediction or source_extracted field")
        final = list(raw)
        for cfg in chain:
            final = apply_postprocessor(build_postprocessor(cfg), final)
    except Exception as exc:  # the predictions or a postprocessor are not available here
        out.unchecked.append(f"{what} (the replies cannot be read again: {type(exc).__name__}: {exc})")
        return
    found = result.get("_meta")
    meta: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    size, runs = meta.get("num_samples"), meta.get("n")
    if not isinstance(size, int) or not isinstance(runs, int) or size * runs != len(final) or size < 1 or len(tool) != len(final):
        out.unchecked.append(f"{what} (the result's _meta does not give samples × runs = {len(final)} replies)")
        return
    got_differ, got_samples = compare_chains(final, tool, size, runs)
    out.checked += 3
    if len(final) != record.replies:
        out.mismatches.append((f"{TOOL_AUDIT_AT}.replies", float(record.replies), float(len(final)), "replies in the prediction file"))
    if got_differ != record.differ:
        out.mismatches.append((what, float(record.differ), float(got_differ),
                               "the tool's answers (source_extracted) against the replies read again by the postprocessors"))
    if got_samples != record.samples:
        extra = sorted(set(got_samples) ^ set(record.samples))[:5]
        out.mismatches.append((f"{TOOL_AUDIT_AT}.samples", float(len(record.samples)), float(len(got_samples)),
                               f"the samples read differently are not the listed ones (e.g. {extra})"))
        return
    expected = [
        ([plain_reading(final[r * size + j]) for r in range(runs)], [plain_reading(tool[r * size + j]) for r in range(runs)])
        for j in record.samples
    ]
    got = [(r.official, r.corrected) for r in record.readings]
    out.checked += 1
    if got != expected:
        bad = next(j for j, a, b in zip(record.samples, got, expected) if a != b) if len(got) == len(expected) else None
        out.mismatches.append((f"{TOOL_AUDIT_AT}.readings", float(len(got)), float(len(expected)),
                               f"the recorded readings differ from the recomputed ones (sample {bad})"))


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) else None


def _close(a: float, b: float) -> bool:
    from assay.stats import values_match

    return values_match(a, b)


def _check_would_be(
    out: AuditCheck, result: Mapping[str, Any], record: AuditRecord, at: str = AUDIT_KEY,
    verdicts_of: str = "the corrected verdicts",
) -> None:
    from assay.stats import base_metric, correctness_matrix

    details = result.get("details")
    for metric, value in record.metrics.items():
        what = f"{at}.metrics.{metric}"
        if base_metric(metric) not in _CORRECTNESS_METRICS:
            out.unchecked.append(f"{what} (no rule recomputes it)")
            continue
        matrix = correctness_matrix(details) if isinstance(details, list) and details else None
        if matrix is None:
            out.unchecked.append(f"{what} (no per-sample correctness in the details)")
            continue
        rows = [[0.0 if v is None else v for v in row] for row in matrix]
        for j, reading in zip(record.samples, record.readings):
            verdicts = reading.correct
            if verdicts is None or not 0 <= j < len(rows) or len(verdicts) != len(rows[j]):
                rows = []
                break
            rows[j] = [0.0 if v is None else v for v in verdicts]
        cells = [v for row in rows for v in row]
        if not cells:
            out.unchecked.append(f"{what} (the readings carry no verdict for every run)")
            continue
        expected = 100.0 * sum(cells) / len(cells)
        out.checked += 1
        if not isinstance(value, (int, float)) or not _close(float(value), expected):
            out.mismatches.append((what, float(value) if isinstance(value, (int, float)) else math.nan,
                                   expected, f"100 × mean(correct) with {verdicts_of} of the samples read differently"))


def _check_readings(
    out: AuditCheck,
    result: Mapping[str, Any],
    record: AuditRecord,
    config: Mapping[str, Any] | None,
    prediction_dir: Any,
    model: str,
    abbr: str,
) -> None:
    from assay.audit.plan import audit_plan
    from assay.audit.run import compare_chains, official_stages, plain_reading, read_both
    from assay.config.abbr import dataset_abbr, model_abbr

    what = f"{AUDIT_KEY}.differ"
    if config is None:
        out.unchecked.append(f"{what} (no resolved config in the run directory)")
        return
    model_cfg = next((m for m in config.get("models") or [] if isinstance(m, Mapping) and _abbr(model_abbr, m) == model), None)
    dataset_cfg = next((d for d in config.get("datasets") or [] if isinstance(d, Mapping) and _abbr(dataset_abbr, d) == abbr), None)
    if model_cfg is None and _rescored(result):  # another tool's model: not among the config's, and no postprocessor of its own
        model_cfg = {}
    if model_cfg is None or dataset_cfg is None:
        out.unchecked.append(f"{what} (the config has no model {model!r} or dataset {abbr!r})")
        return
    eval_cfg = dict(dataset_cfg.get("eval_cfg") or {})
    plan = audit_plan(model_cfg, eval_cfg, dict(eval_cfg.get("evaluator") or {}))
    if plan is None:
        out.unchecked.append(f"{what} (no corrected counterpart is declared now for this chain)")
        return
    if plan.describe() != record.corrections:
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
    if len(official_final) != record.replies:
        out.mismatches.append((f"{AUDIT_KEY}.replies", float(record.replies), float(len(official_final)), "replies in the prediction file"))
    if got_differ != record.differ:
        out.mismatches.append((what, float(record.differ), float(got_differ), "both chains applied again to the replies"))
    if got_samples != record.samples:
        extra = sorted(set(got_samples) ^ set(record.samples))[:5]
        out.mismatches.append((f"{AUDIT_KEY}.samples", float(len(record.samples)), float(len(got_samples)),
                               f"the samples read differently are not the listed ones (e.g. {extra})"))
        return
    expected = [
        ([plain_reading(official_final[r * size + j]) for r in range(runs)],
         [plain_reading(corrected_final[r * size + j]) for r in range(runs)])
        for j in record.samples
    ]
    got = [(r.official, r.corrected) for r in record.readings]
    out.checked += 1
    if got != expected:
        bad = next(j for j, a, b in zip(record.samples, got, expected) if a != b) if len(got) == len(expected) else None
        out.mismatches.append((f"{AUDIT_KEY}.readings", float(len(got)), float(len(expected)),
                               f"the recorded readings differ from the recomputed ones (sample {bad})"))


def _rescored(result: Mapping[str, Any]) -> bool:
    """Whether the result scores another tool's logged replies (its ``_meta.rescored``)."""
    meta = result.get("_meta")
    return isinstance(meta, Mapping) and isinstance(meta.get("rescored"), Mapping)


def _abbr(fn: Callable[[dict[str, Any]], str], cfg: Mapping[str, Any]) -> str | None:
    try:
        return fn(dict(cfg))
    except Exception:  # an entry without abbr or path
        return None
