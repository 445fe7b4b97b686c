"""Two models of a run compared sample by sample on every dataset both have results for (``assay compare``).

The per-sample values come from the ``.stats`` file saved with each result
(:mod:`assay.rundir.sidecar`) while it was computed from the result's present
bytes (checked through the run index), else from the result's details; the
paired tests and Holm's correction are :mod:`assay.stats`'s.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assay.rundir.layout import RunDir
from assay.rundir.results import read_full_result
from assay.rundir.sidecar import SavedStats, load_stats
from assay.rundir.statistics import index_snapshot, load_run_config, model_dirs_of
from assay.stats import (
    ALIGN_MODES,
    DEFAULT_BOOTSTRAP,
    DEFAULT_SEED,
    Alignment,
    Comparison,
    DatasetComparison,
    SampleIdentity,
    SampleValues,
    align_samples,
    example_misalignment,
    paired_compare,
    sample_misalignment,
    sample_values,
)

if TYPE_CHECKING:
    from assay.rundir.index import Snapshot

__all__ = ["align_results", "compare_models", "sample_identities"]


def _choose_metric(
    result_a: dict[str, Any], result_b: dict[str, Any], metric: str | None, metric_b: str | None = None
) -> tuple[str, SampleValues, SampleValues] | str:
    """The metric to compare two results by, with both models' per-sample values; else why there is none.

    With ``metric_b``, model B's metric is that one and model A's ``metric`` (two tools name one measure
    differently: ``exact_match,strict-match`` and ``match/accuracy``); the name returned is ``'A-name | B-name'``.
    """
    from assay.rundir.results import numeric_metrics, order_metrics

    names_a = numeric_metrics(result_a)
    names_b = numeric_metrics(result_b)
    if metric_b is not None:
        if metric is None or metric not in names_a:
            return f"metric {metric!r} is not in model A's result (one of {sorted(names_a)})"
        if metric_b not in names_b:
            return f"metric {metric_b!r} is not in model B's result (one of {sorted(names_b)})"
        sa = sample_values(result_a, metric, float(names_a[metric]))
        sb = sample_values(result_b, metric_b, float(names_b[metric_b]))
        if isinstance(sa, SampleValues) and isinstance(sb, SampleValues):
            return _on_one_scale(f"{metric} | {metric_b}", sa, sb)
        return f"no per-sample values: {sa if isinstance(sa, str) else sb}"
    shared = [m for m in order_metrics(list(names_a)) if m in names_b]
    if metric is not None:
        shared = [m for m in shared if m == metric]
        if not shared:
            return f"metric {metric!r} is not in both results"
    if not shared:
        return "the two results share no metric (name each model's with --metric and --metric-b)"
    reasons = []
    for name in shared:
        sa = sample_values(result_a, name, float(names_a[name]))
        sb = sample_values(result_b, name, float(names_b[name]))
        if isinstance(sa, SampleValues) and isinstance(sb, SampleValues):
            return _on_one_scale(name, sa, sb)
        reasons.append(f"{name}: {sa if isinstance(sa, str) else sb}")
    return "no metric has per-sample values for both models (" + "; ".join(reasons[:3]) + ")"


def _on_one_scale(name: str, sa: SampleValues, sb: SampleValues) -> tuple[str, SampleValues, SampleValues] | str:
    """Both models' values on one scale: a fraction (0–1) on one side and a percent on the other are both
    taken as percent; any other difference of scale is a reason not to compare (naming both scales)."""
    if sa.scale == sb.scale or "corpus" in (sa.kind, sb.kind):
        return name, sa, sb
    if {sa.scale, sb.scale} == {1.0, 100.0}:
        fraction = sa if sa.scale == 1.0 else sb
        units = fraction.units
        if units.size and float(units.min()) >= 0.0 and float(units.max()) <= 1.0:
            binary = fraction.runs == 1 and bool(((units == 0) | (units == 1)).all())
            percent = SampleValues("binary" if binary else "mean", units, 100.0, fraction.runs, fraction.basis)
            return (name, percent, sb) if fraction is sa else (name, sa, percent)
    return (f"{name}: model A's values are on a scale of {sa.scale:g} and model B's of {sb.scale:g} "
            f"(not a fraction against a percent); they cannot be compared")


def _saved(root: Path, snapshot: Snapshot, folder: str, abbr: str) -> SavedStats | None:
    """The statistics saved beside a result, when computed from its present bytes (as the index has them)."""
    digest = snapshot.digest(f"{folder}/{abbr}.json")
    if digest is None:
        return None
    return load_stats(RunDir(root).result_path(folder, abbr), digest)


def _from_saved(
    abbr: str, a: SavedStats, b: SavedStats, metric: str | None, confidence: float, resamples: int, seed: int
) -> DatasetComparison | None:
    """The comparison from the per-sample values saved with both results; ``None`` when it needs their details.

    The metric is chosen as from the details: the first shared one (in
    display order) with per-sample values for both models; a metric whose
    values were not saved (a corpus statistic) sends the comparison to the details.
    """
    from assay.rundir.results import order_metrics

    if a.details is not None and b.details is not None:
        if a.details != b.details:
            return DatasetComparison(abbr, reason=f"the models have {a.details} and {b.details} samples")
        if a.examples is not None and b.examples is not None:
            misaligned = example_misalignment(a.examples, b.examples)
            if misaligned:
                return DatasetComparison(abbr, reason=misaligned)
    shared = [m for m in order_metrics(list(a.values)) if m in b.values and (metric is None or m == metric)]
    for name in shared:
        ja, jb = a.samples.get(name), b.samples.get(name)
        if ja is not None and jb is not None:
            sa, sb = SampleValues.from_json(ja), SampleValues.from_json(jb)
            try:
                res = paired_compare(sa, sb, confidence=confidence, resamples=resamples, seed=seed)
            except ValueError as exc:
                return DatasetComparison(abbr, metric=name, reason=str(exc))
            return DatasetComparison(abbr, metric=name, result=res)
        if name in a.no_samples and name in b.no_samples:
            continue  # neither has per-sample values: the details would skip it too
        return None
    return None


def compare_models(
    run_dir: str | os.PathLike[str],
    model_a: str,
    model_b: str,
    *,
    datasets: Sequence[str] | None = None,
    metric: str | None = None,
    confidence: float = 0.95,
    resamples: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    metric_b: str | None = None,
    align: str = "auto",
    min_aligned: float = 0.5,
) -> Comparison:
    """Compare two models sample by sample on every dataset both have results for.

    Per dataset the metric compared is the first one (in display order) for
    which both models have per-sample values (see :mod:`assay.stats`);
    ``metric`` forces one.  Holm's correction is applied across the datasets
    that could be compared.  The per-sample values come from the statistics
    saved with each result when they were computed from its present bytes
    (checked through the run index), else from the result's details.

    Samples pair by position (checked by ``example_abbr``) when both results are assay's own (not re-scored from
    another tool's replies) and ``align`` is ``auto``; otherwise they are aligned (:func:`align_results`): ``id`` by the tools' sample ids, ``content``
    by the question, ``auto`` by id when both results come from one tool and by content when not.  The
    paired test then runs on the aligned samples only, and is refused when fewer than two align or fewer
    than ``min_aligned`` of the smaller side's samples.

    Args:
        run_dir: the run directory.
        model_a, model_b: model columns (``summarizer_abbr``) or result folder names.
        datasets: dataset abbrs to compare (default: every result file of model A, in name order).
        metric_b: model B's metric, when it is named otherwise than model A's ``metric``.
    """
    if align not in ALIGN_MODES:
        raise ValueError(f"align must be one of {', '.join(ALIGN_MODES)}, not {align!r}")
    root = Path(run_dir)
    config = load_run_config(root)
    folders = model_dirs_of(config, [model_a, model_b])
    dir_a, dir_b = folders.get(model_a, model_a), folders.get(model_b, model_b)
    for name, folder in ((model_a, dir_a), (model_b, dir_b)):
        if not (RunDir(root).results / folder).is_dir():
            from assay.errors import InputFileError

            raise InputFileError(f"model {name!r} has no results in {RunDir(root).results / folder}")
    snapshot = index_snapshot(root)
    if datasets is None:
        if snapshot is not None:
            abbrs = sorted(n[: -len(".json")] for n in snapshot.names(dir_a) if n.endswith(".json"))
        else:
            abbrs = sorted({p.stem for p in (RunDir(root).results / dir_a).glob("*.json")})
    else:
        abbrs = list(datasets)
    out = Comparison(model_a, model_b, confidence=confidence, seed=seed, resamples=resamples)
    for abbr in abbrs:
        if snapshot is not None:  # a failed evaluation is known from the index, without reading its details
            heads = [snapshot.head(f"{d}/{abbr}.json") for d in (dir_a, dir_b)]
            if any(h is not None and "error" in h[0] for h in heads):
                out.datasets.append(DatasetComparison(abbr, reason="an evaluation failed"))
                continue
            positional = align == "auto" and metric_b is None and not any(h is not None and _origin(h[0]) for h in heads)
            saved = [_saved(root, snapshot, d, abbr) for d in (dir_a, dir_b)] if positional else [None, None]
            if saved[0] is not None and saved[1] is not None:
                found = _from_saved(abbr, saved[0], saved[1], metric, confidence, resamples, seed)
                if found is not None:
                    out.datasets.append(found)
                    continue
        ra = read_full_result(root, dir_a, abbr)
        rb = read_full_result(root, dir_b, abbr)
        if ra is None or rb is None:
            missing = model_a if ra is None else model_b
            out.datasets.append(DatasetComparison(abbr, reason=f"{missing} has no readable result"))
            continue
        if "error" in ra or "error" in rb:
            out.datasets.append(DatasetComparison(abbr, reason="an evaluation failed"))
            continue
        mode = _mode(align, _origin(ra), _origin(rb))
        if mode is not None:
            out.datasets.append(_aligned(
                abbr, (root, dir_a, abbr, ra), (root, dir_b, abbr, rb), mode, metric, metric_b, min_aligned,
                confidence, resamples, seed,
            ))
            continue
        misaligned = sample_misalignment(ra.get("details"), rb.get("details"))
        if misaligned:
            out.datasets.append(DatasetComparison(abbr, reason=misaligned))
            continue
        chosen = _choose_metric(ra, rb, metric, metric_b)
        if isinstance(chosen, str):
            out.datasets.append(DatasetComparison(abbr, reason=chosen))
            continue
        name, sa, sb = chosen
        try:
            res = paired_compare(sa, sb, confidence=confidence, resamples=resamples, seed=seed)
        except ValueError as exc:
            out.datasets.append(DatasetComparison(abbr, metric=name, reason=str(exc)))
            continue
        out.datasets.append(DatasetComparison(abbr, metric=name, result=res))
    out.adjust_holm()
    return out


def _tool(result: dict[str, Any]) -> str | None:
    """The tool a result was imported from (``_meta.source.tool``); ``None`` for assay's own."""
    meta = result.get("_meta")
    source = meta.get("source") if isinstance(meta, dict) else None
    tool = source.get("tool") if isinstance(source, dict) else None
    return tool if isinstance(tool, str) else None


def _rescored(result: dict[str, Any]) -> str | None:
    """The tool whose logged replies assay scored again for a result (``_meta.rescored.tool``); ``None`` otherwise."""
    meta = result.get("_meta")
    rescored = meta.get("rescored") if isinstance(meta, dict) else None
    tool = rescored.get("tool") if isinstance(rescored, dict) else None
    return tool if isinstance(tool, str) else None


def _origin(result: dict[str, Any]) -> str | None:
    """The tool a result's samples come from: imported from it, or its replies re-scored; ``None`` for assay's own."""
    return _tool(result) or _rescored(result)


def _mode(align: str, tool_a: str | None, tool_b: str | None) -> str | None:
    """How to pair two results' samples: ``id``, ``content`` or ``None`` (by position, assay's own two results)."""
    if align != "auto":
        return align
    if tool_a is None and tool_b is None:
        return None
    return "id" if tool_a == tool_b else "content"


def _text(value: Any) -> str | None:
    """A string as it is; OpenCompass's chat prompt (a list of ``{'role', 'prompt'}`` turns) as its turns' text, one per line."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        turns = [t.get("prompt") for t in value if isinstance(t, dict)]
        return "\n".join(t for t in turns if isinstance(t, str)) or None
    return None


def sample_identities(root: Path, folder: str, abbr: str, result: dict[str, Any]) -> list[SampleIdentity] | str:
    """Each detail's identity (see :class:`~assay.stats.SampleIdentity`); else why there are none.

    An imported result's details carry the tool's ``id``, the ``question``, ``prompt``, ``reference`` and
    ``doc_hash`` :mod:`assay.rundir.sources` wrote.  Assay's own: the ``example_abbr`` (else the sample's
    index) as id, the ``origin_prompt`` and ``gold`` of the detail or of the prediction record of the same
    index (the prediction file the result names in ``_meta.prediction_files``, else the run's own).  A
    re-scored result (``_meta.rescored``): the tool's id of each reply, the ``source_key`` of its prediction
    record, never its position (which is only the order the tool logged); without those records, none.
    """
    details = result.get("details")
    if not isinstance(details, list) or not details:
        return "the result has no per-sample details"
    if _tool(result) is not None:
        out = []
        for i, d in enumerate(details):
            if not isinstance(d, dict) or d.get("id") is None:
                return f"detail {i} has no sample id"
            out.append(SampleIdentity(
                str(d["id"]), question=_text(d.get("question")), prompt=_text(d.get("prompt")),
                reference=d.get("reference"), doc_hash=_text(d.get("doc_hash")),
            ))
        return out
    meta = result.get("_meta") if isinstance(result.get("_meta"), dict) else {}
    files = meta.get("prediction_files") if isinstance(meta, dict) else None
    where = Path(files[0]).parent if isinstance(files, list) and files and Path(str(files[0])).exists() else RunDir(root).prediction_dir(folder)
    records: list[dict[str, Any]] = []
    try:
        from assay.rundir.predictions import load_predictions

        records = load_predictions(where, abbr).records
    except Exception:  # no prediction file: the details alone say what they say
        records = []
    if len(records) != len(details):
        records = [{} for _ in details]
    rescored = _rescored(result) is not None
    if rescored and not all(isinstance(rec, dict) and rec.get("source_key") is not None for rec in records):
        return (f"its replies were re-scored from {_rescored(result)}'s output, and the prediction file in {where} does not "
                f"give the tool's id of each of its {len(details)} samples")
    out = []
    for i, (d, rec) in enumerate(zip(details, records)):
        d = d if isinstance(d, dict) else {}
        ex = rec.get("source_key") if rescored else d.get("example_abbr")
        out.append(SampleIdentity(
            str(ex) if ex is not None else str(i),
            prompt=_text(d.get("origin_prompt")) or _text(rec.get("origin_prompt")),
            reference=d.get("gold", rec.get("gold")),
        ))
    return out


def align_results(
    side_a: tuple[Path, str, str, dict[str, Any]], side_b: tuple[Path, str, str, dict[str, Any]], mode: str
) -> Alignment | str:
    """The :class:`~assay.stats.Alignment` of two results' samples (each side: run root, result folder,
    dataset abbr, result with its details); else why they cannot be aligned."""
    ids_a = sample_identities(*side_a)
    ids_b = sample_identities(*side_b)
    if isinstance(ids_a, str) or isinstance(ids_b, str):
        return f"model {'A' if isinstance(ids_a, str) else 'B'}: {ids_a if isinstance(ids_a, str) else ids_b}"
    return align_samples(ids_a, ids_b, "id" if mode == "id" else "content")


def _aligned(
    abbr: str, side_a: tuple[Path, str, str, dict[str, Any]], side_b: tuple[Path, str, str, dict[str, Any]], mode: str,
    metric: str | None, metric_b: str | None, min_aligned: float, confidence: float, resamples: int, seed: int,
) -> DatasetComparison:
    """One dataset compared on the samples that align (see :func:`compare_models`)."""
    alignment = align_results(side_a, side_b, mode)
    if isinstance(alignment, str):
        return DatasetComparison(abbr, reason=f"the samples cannot be aligned: {alignment}")
    chosen = _choose_metric(side_a[3], side_b[3], metric, metric_b)
    if isinstance(chosen, str):
        return DatasetComparison(abbr, reason=chosen, alignment=alignment)
    name, sa, sb = chosen
    if sa.n != alignment.n_a or sb.n != alignment.n_b:
        return DatasetComparison(abbr, metric=name, alignment=alignment,
                                 reason="the per-sample values are not one per detail; the samples cannot be aligned")
    n = len(alignment.pairs)
    needed = max(2, math.ceil(min_aligned * min(alignment.n_a, alignment.n_b)))
    if n < needed:
        return DatasetComparison(abbr, metric=name, alignment=alignment, reason=(
            f"too few samples align by {alignment.mode}: {n} of {alignment.n_a} (A) and {alignment.n_b} (B), "
            f"{needed} needed (--min-aligned {min_aligned:g}); are these the same dataset?"
        ))
    idx_a = [i for i, _ in alignment.pairs]
    idx_b = [j for _, j in alignment.pairs]
    sa = SampleValues(sa.kind, sa.units[idx_a], sa.scale, sa.runs, sa.basis, sa.corpus)
    sb = SampleValues(sb.kind, sb.units[idx_b], sb.scale, sb.runs, sb.basis, sb.corpus)
    try:
        res = paired_compare(sa, sb, confidence=confidence, resamples=resamples, seed=seed)
    except ValueError as exc:
        return DatasetComparison(abbr, metric=name, reason=str(exc), alignment=alignment)
    return DatasetComparison(abbr, metric=name, result=res, alignment=alignment)
