"""Shards: one big sample-decomposable evaluation split into parts and merged.

A task with ``size`` samples and ``n`` runs is cut into shards of consecutive
samples; a shard holds *every run* of its samples (run-major inside the
shard), so repeated-run averages, details grouped per sample and G-Pass@k
come out of each shard exactly as the whole evaluation would compute them.
Merging gives the bits of the whole evaluation (R-12.4): each shard keeps,
per run, the sum behind each metric the evaluator declares
(``sample_sums``: an exact integer sum, or the float values in sample order)
and, for G-Pass@k, each sample's number of correct runs; the merge adds them
and computes every metric with the evaluator's own formula, never averaging
averages.  The extraction record is summed and details concatenated in
sample order.  A numeric metric the evaluator does not declare (a user's
evaluator) is merged as split result files are
(:func:`assay.rundir.results.merge_part_metrics`): averaged weighted by the shards'
sample counts, which may differ from an unsplit run in the last bits (the
task's log says so), and left out when some shard lacks it (listed under the
result's ``_meta.dropped_metrics``).

The files of a sharded task (``<run_dir>/.shards/<model>/<dataset>/``) are
read and written by :class:`assay.rundir.shards.ShardFolder`.  A run that is
interrupted resumes where it stopped: shards whose output exists for the same
fingerprint are not scored again.
"""

from __future__ import annotations

import itertools
import operator
import re
from dataclasses import dataclass, field
from typing import Any

from assay._dataclass import FACTORY, DataclassMethods
from assay.rundir.results import details_fragment, merge_part_metrics, splice_details, weighted_mean

__all__ = [
    "ShardPart",
    "details_fragment",
    "exact_metrics",
    "merge_metrics",
    "sample_subdivisions",
    "shard_ranges",
    "shard_sums",
    "splice_details",
]

_G_PASS = re.compile(r"m?G-Pass@\d+(_[0-9.]+)?")


def shard_ranges(size: int, shard_size: int) -> list[tuple[int, int]]:
    """Consecutive ``[lo, hi)`` sample ranges of about equal length, none longer than ``shard_size``.

    >>> shard_ranges(10, 4)
    [(0, 3), (3, 6), (6, 10)]
    """
    count = max(1, -(-size // max(1, shard_size)))
    bounds = [size * i // count for i in range(count + 1)]
    return list(itertools.pairwise(bounds))


def sample_subdivisions(dataset: Any, size: int, dataset_abbr: str) -> list[str]:
    """Each of the first ``size`` rows' subdivision, as :class:`~assay.evaluate.base.BaseEvaluator` groups G-Pass@k.

    >>> sample_subdivisions(None, 2, 'gsm8k')
    ['gsm8k', 'gsm8k']
    """
    cols = getattr(dataset, "column_names", None) or []
    if "subdivision" in cols and "idx" in cols:
        return [str(sub) for sub in dataset.select_columns(["subdivision"])[:size]["subdivision"]]
    return [dataset_abbr or "dataset"] * size


def shard_indices(lo: int, hi: int, size: int, n: int) -> list[int]:
    """Rows of samples ``lo..hi-1`` in every run of a run-major layout of ``n`` runs of ``size``.

    >>> shard_indices(1, 3, 4, 2)
    [1, 2, 5, 6]
    """
    return [r * size + j for r in range(n) for j in range(lo, hi)]


@dataclass(init=False, repr=False, eq=False)
class ShardPart(DataclassMethods):
    """What the merge needs of one scored shard.

    Attributes:
        result: the shard's result without ``details``.
        samples: the number of samples (per run) in the shard.
        subdivisions: samples per subdivision, in order of first appearance.
    """

    result: dict[str, Any]
    samples: int
    subdivisions: dict[str, int] = field(default_factory=dict)
    #: what :func:`shard_sums` kept of the shard's samples (empty: nothing declared)
    sums: dict[str, Any] = field(default_factory=dict)

    def __init__(
        self,
        result: dict[str, Any],
        samples: int,
        subdivisions: dict[str, int] = FACTORY,
        sums: dict[str, Any] = FACTORY,
    ) -> None:
        self.result = result
        self.samples = samples
        self.subdivisions = {} if subdivisions is FACTORY else subdivisions
        self.sums = {} if sums is FACTORY else sums


def _category(key: str, subdivisions: dict[str, int]) -> tuple[int, str | None, str]:
    """(0 plain metric | 1 extraction | 2 subdivision G-Pass | 3 G-Pass, subdivision, metric name)."""
    if key == "extraction":
        return 1, None, key
    if _G_PASS.fullmatch(key):
        return 3, None, key
    sub, _, metric = key.rpartition("/")
    if sub in subdivisions and _G_PASS.fullmatch(metric):
        return 2, sub, metric
    return 0, None, key


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def merge_metrics(parts: list[ShardPart]) -> tuple[dict[str, Any], list[str]]:
    """Merge the shard results of one task into the result of the whole.

    Returns the merged result (in the key order the whole evaluation writes)
    and notes about values that could not be merged exactly (a non-numeric
    value that differs between shards keeps the first shard's value).

    >>> a = ShardPart({'accuracy': 50.0, 'extraction': {'unextracted': 1, 'total': 2}}, 2, {'d': 2})
    >>> b = ShardPart({'accuracy': 100.0, 'extraction': {'unextracted': 0, 'total': 1}}, 1, {'d': 1})
    >>> merge_metrics([a, b])[0]
    {'accuracy': 66.66666666666667, 'extraction': {'unextracted': 1, 'total': 3}}
    """
    notes: list[str] = []
    keys: dict[str, tuple[int, str | None, str]] = {}
    sub_order: dict[str, int] = {}
    metric_order: dict[str, int] = {}
    for part in parts:
        for name in part.subdivisions:
            sub_order.setdefault(name, len(sub_order))
        for key in part.result:
            if key not in keys:
                keys[key] = _category(key, part.subdivisions)
            if keys[key][0] in (2, 3):
                metric_order.setdefault(keys[key][2], len(metric_order))

    def rank(key: str) -> tuple[int, int, int]:
        cat, sub, metric_name = keys[key]
        if cat == 2:
            return cat, sub_order.get(sub or "", 0), metric_order[metric_name]
        return cat, 0, 0

    merged: dict[str, Any] = {}
    for key in sorted(keys, key=rank):  # stable: first-appearance order within a category
        cat, subdivision, _ = keys[key]
        having = [p for p in parts if key in p.result]
        values = [p.result[key] for p in having]
        if cat == 1 and all(isinstance(v, dict) for v in values):
            merged[key] = {
                name: sum(v.get(name, 0) for v in values) for name in values[0] if all(_is_number(v.get(name, 0)) for v in values)
            }
            continue
        if all(_is_number(v) for v in values):
            if cat == 2 and subdivision is not None:  # a subdivision's G-Pass@k: weighted by its samples in each shard
                merged[key] = weighted_mean(values, [p.subdivisions.get(subdivision, 0) for p in having])
                continue
            kept, dropped = merge_part_metrics([{key: p.result[key]} if key in p.result else {} for p in parts], [p.samples for p in parts])
            if dropped:
                notes.append(f"{key!r} is missing from {len(parts) - len(having)} shard(s); left out, as for split result files")
            merged.update(kept)
            continue
        if any(v != values[0] for v in values[1:]):
            notes.append(f"{key!r} differs between shards; the first shard's value is kept")
        merged[key] = values[0]
    return merged, notes




def _run_value(detail: dict[str, Any], name: str, run: int) -> Any:
    values = detail.get(name)
    return values[run] if isinstance(values, list) and run < len(values) else None


_INTS = frozenset({bool, int})


def _run_column(details: list[dict[str, Any]], name: str, run: int) -> list[Any]:
    """Each sample's value of ``name`` in ``run`` (``None`` where it has none), the usual details read at C speed."""
    if set(map(type, details)) == _DICT:
        column: list[Any] = list(map(dict.get, details, itertools.repeat(name)))  # each sample's list of per-run values
        if set(map(type, column)) == _LIST and min(map(len, column)) > run:
            return list(map(operator.itemgetter(run), column))
    else:
        column = [d.get(name) for d in details]
    return [v[run] if isinstance(v, list) and run < len(v) else None for v in column]


_DICT = {dict}
_LIST = {list}


def shard_sums(
    details: list[dict[str, Any]] | None,
    declared: Any,
    n: int,
    g_pass: bool,
    subdivisions: list[str],
    fields: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """What the merge needs of one shard's samples to compute the whole's metrics exactly.

    ``details`` are the shard's, grouped per sample (each field a list of the
    per-run values, as :meth:`~assay.evaluate.base.BaseEvaluator.evaluate`
    returns them); ``declared`` is the evaluator's ``sample_sums``, whose
    fields are read from the details, else from ``fields`` (the prediction
    columns ``score()`` took, run-major, read as floats).  For each declared
    metric and run: ``{"sum": int}`` when every value is an integer (or a
    bool), else ``{"values": [...]}`` in sample order.  With ``g_pass``, each
    sample's number of correct runs and its subdivision.  Metrics whose values
    are not found are left out.

    >>> percent = lambda part, whole: 100 * part / whole
    >>> shard_sums([{'correct': [True, False]}, {'correct': [True, True]}], {'accuracy': ('correct', percent)}, 2, False, [])
    {'metrics': {'accuracy': [{'sum': 2}, {'sum': 1}]}}
    """
    from assay.evaluate.base import correctness

    if not declared:
        return {}
    metrics: dict[str, list[dict[str, Any]]] = {}
    for metric, (name, _scale) in declared.items():
        column = (fields or {}).get(name)
        runs: list[dict[str, Any]] = []
        for run in range(n):
            if details is not None and details and name in details[0]:
                values: list[Any] = _run_column(details, name, run)
            elif column is not None and len(column) % n == 0:
                size = len(column) // n
                try:
                    values = [float(v) for v in column[run * size : (run + 1) * size]]
                except (TypeError, ValueError):
                    break
            else:
                break
            if set(map(type, values)) <= _INTS or all(isinstance(v, int) for v in values):  # bools too: an exact sum
                runs.append({"sum": int(sum(values))})
            else:
                runs.append({"values": values})
        if len(runs) == n:
            metrics[metric] = runs
    out: dict[str, Any] = {"metrics": metrics}
    if g_pass and details is not None:
        counts = [sum(int(bool(correctness({k: _run_value(d, k, r) for k in d}))) for r in range(n)) for d in details]
        out["g_pass"] = {"counts": counts, "subdivisions": list(subdivisions)}
    return out


def exact_metrics(parts: list[ShardPart], declared: Any, n: int, k: Any) -> dict[str, Any]:
    """The metrics of the whole evaluation from the shards' :func:`shard_sums`, to its bits.

    Each declared metric of each run is ``scale(total, samples)`` of the
    shards' sums added in shard order (integer sums exactly, float values one
    by one as ``sum()`` adds them); with several runs the per-run values are
    averaged as :meth:`~assay.evaluate.base.BaseEvaluator.evaluate` does.
    G-Pass@k comes from every sample's count of correct runs.  Metrics some
    shard lacks the sums of are left out (the caller keeps its average).

    >>> share_percent = lambda part, whole: part / whole * 100
    >>> parts = [ShardPart({}, 3, sums={'metrics': {'acc': [{'sum': 1}]}}), ShardPart({}, 4, sums={'metrics': {'acc': [{'sum': 3}]}})]
    >>> exact_metrics(parts, {'acc': ('correct', share_percent)}, 1, 1)
    {'acc': 57.14285714285714}
    """
    from assay.evaluate.base import g_pass_metrics

    out: dict[str, Any] = {}
    samples = sum(p.samples for p in parts)
    if samples == 0:
        return out
    for metric, (_name, scale) in (declared or {}).items():
        per_run = []
        for run in range(n):
            total: Any = 0
            try:
                for part in parts:
                    kept = part.sums["metrics"][metric][run]
                    if "sum" in kept:
                        total = total + kept["sum"]
                    else:
                        for value in kept["values"]:
                            total = total + value
            except (KeyError, IndexError, TypeError):  # not kept by every shard, or not numbers: not exact
                break
            per_run.append(scale(total, samples))
        if len(per_run) != n:
            continue
        if n == 1:
            value = per_run[0]
            out[metric] = int(value) if isinstance(value, (bool, int)) else float(value)
        else:
            out[f"{metric} ({n} runs average)"] = sum(float(v) for v in per_run) / n
    if all("g_pass" in p.sums for p in parts):
        counts = [c for p in parts for c in p.sums["g_pass"]["counts"]]
        subs = [s for p in parts for s in p.sums["g_pass"]["subdivisions"]]
        out.update(g_pass_metrics(counts, subs, n, k))
    return out
