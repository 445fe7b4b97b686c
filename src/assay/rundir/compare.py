"""Two models of a run compared sample by sample on every dataset both have results for (``assay compare``).

The per-sample values come from the ``.stats`` file saved with each result
(:mod:`assay.rundir.sidecar`) while it was computed from the result's present
bytes (checked through the run index), else from the result's details; the
paired tests and Holm's correction are :mod:`assay.stats`'s.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assay.rundir.layout import RunDir
from assay.rundir.results import read_full_result
from assay.rundir.sidecar import SavedStats, load_stats
from assay.rundir.statistics import index_snapshot, load_run_config, model_dirs_of
from assay.stats import (
    DEFAULT_BOOTSTRAP,
    DEFAULT_SEED,
    Comparison,
    DatasetComparison,
    SampleValues,
    example_misalignment,
    paired_compare,
    sample_misalignment,
    sample_values,
)

if TYPE_CHECKING:
    from assay.rundir.index import Snapshot

__all__ = ["compare_models"]


def _choose_metric(
    result_a: dict[str, Any], result_b: dict[str, Any], metric: str | None
) -> tuple[str, SampleValues, SampleValues] | str:
    """The metric to compare two results by, with both models' per-sample values; else why there is none."""
    from assay.rundir.results import numeric_metrics, order_metrics

    names_a = numeric_metrics(result_a)
    names_b = numeric_metrics(result_b)
    shared = [m for m in order_metrics(list(names_a)) if m in names_b]
    if metric is not None:
        shared = [m for m in shared if m == metric]
        if not shared:
            return f"metric {metric!r} is not in both results"
    if not shared:
        return "the two results share no metric"
    reasons = []
    for name in shared:
        sa = sample_values(result_a, name, float(names_a[name]))
        sb = sample_values(result_b, name, float(names_b[name]))
        if isinstance(sa, SampleValues) and isinstance(sb, SampleValues):
            return name, sa, sb
        reasons.append(f"{name}: {sa if isinstance(sa, str) else sb}")
    return "no metric has per-sample values for both models (" + "; ".join(reasons[:3]) + ")"


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
) -> Comparison:
    """Compare two models sample by sample on every dataset both have results for.

    Per dataset the metric compared is the first one (in display order) for
    which both models have per-sample values (see :mod:`assay.stats`);
    ``metric`` forces one.  Holm's correction is applied across the datasets
    that could be compared.  The per-sample values come from the statistics
    saved with each result when they were computed from its present bytes
    (checked through the run index), else from the result's details.

    Args:
        run_dir: the run directory.
        model_a, model_b: model columns (``summarizer_abbr``) or result folder names.
        datasets: dataset abbrs to compare (default: every result file of model A, in name order).
    """
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
            saved = [_saved(root, snapshot, d, abbr) for d in (dir_a, dir_b)]
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
        misaligned = sample_misalignment(ra.get("details"), rb.get("details"))
        if misaligned:
            out.datasets.append(DatasetComparison(abbr, reason=misaligned))
            continue
        chosen = _choose_metric(ra, rb, metric)
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
