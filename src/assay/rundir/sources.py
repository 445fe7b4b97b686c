"""Other tools' results in a run directory: written as assay's own result files.

:func:`write_sources` writes each :class:`~assay.sources.ExternalRun`'s results
as ``results/<model>/<dataset>.json``: the tool's metrics under the tool's keys
and on its scale, ``_meta.source`` (the tool, its version, the files), the
tool's standard errors (``_meta.source.stderr``), the per-sample values as
``details`` (one per logged sample: its identity, each metric's value, the raw
reply, the tool's extracted answers, the reference, the prompt, the question before the tool's template
(:func:`~assay.sources.identity.sample_question`) and the tool's hashes) with
``_meta.outcome`` naming the detail field behind each metric, so that the
summary, its intervals, ``assay compare``, the report and ``assay verify`` read
them as they read assay's own results.  :func:`source_config` is the config a
summary of them needs: the models, the datasets with every metric, and the
tool's groups as summary groups where their values can be rebuilt from their
members (a size-weighted or plain average, whichever gives the tool's value),
else as rows of their own.

An import is not one step: while its files are written, the run directory's
:attr:`~assay.rundir.layout.RunDir.import_marker` names the tool and its files,
and the import removes it once the last file is written (``summarize --from``:
once the config is dumped too).  A command killed halfway leaves it: the run then
holds some of the tool's results and misses, or holds older versions of, the
others, and :func:`check_import_finished` (the summary, ``report``, ``verify``,
``export``) refuses it, naming the import to run again — the same import
finishes it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assay._dataclass import DataclassMethods
from assay.errors import InputFileError
from assay.rundir.imports import _read_marker, check_import_finished, unfinished_import
from assay.rundir.layout import RunDir
from assay.rundir.results import write_result
from assay.sources.identity import sample_question
from assay.sources.model import ExternalGroup, ExternalRun

__all__ = [
    "FRACTION_METRICS", "ImportedSources", "cell_source", "check_import_finished", "finish_import", "fraction_metric",
    "safe_name", "source_config", "source_prediction_models", "unfinished_import", "write_source_predictions", "write_sources",
]

_UNSAFE = re.compile(r"[^A-Za-z0-9._+=@-]+")
#: Metrics (the name before the tool's ``,filter``) that tools report as a fraction in [0, 1] and assay shows in
#: percent, as OpenCompass shows accuracy.
FRACTION_METRICS = frozenset({
    "acc", "acc_norm", "acc_mutual_info", "exact_match", "em", "f1", "mcc", "mc1", "mc2", "accuracy",
    "pass@1", "pass_at_1", "prompt_level_strict_acc", "prompt_level_loose_acc", "inst_level_strict_acc",
    "inst_level_loose_acc", "contains", "match", "correct",
    # HELM's
    "quasi_exact_match", "prefix_exact_match", "quasi_prefix_exact_match", "classification_macro_f1",
    "classification_micro_f1", "f1_score",
})
#: Metrics never read as fractions although their values may lie in [0, 1]: perplexities, BLEU, ROUGE …, and
#: HELM's counts, sizes, times and log-probabilities (``num_train_trials``, ``batch_size``, ``inference_runtime`` …).
_NOT_FRACTIONS = re.compile(
    r"perplexity|bits_per_byte|brier|bleu|rouge|ter\b|chrf|loss|^num_|^batch_size$|runtime|logprob|_cost$", re.IGNORECASE
)


def fraction_metric(metric: str, values: Sequence[float]) -> bool:
    """Whether ``metric`` (``'acc,none'``, ``'match/accuracy'``) is a fraction that assay shows in percent: named
    (or, after a ``/``, its last part named) in :data:`FRACTION_METRICS`, or every logged per-sample value in [0, 1] and not a perplexity, BLEU, ROUGE …

    >>> fraction_metric('acc,none', []), fraction_metric('word_perplexity,none', [0.5]), fraction_metric('score,none', [0.0, 1.0])
    (True, False, True)
    >>> fraction_metric('quasi_exact_match', []), fraction_metric('num_train_trials', [1.0, 1.0])
    (True, False)
    >>> fraction_metric('match/accuracy', [])
    True
    """
    name = metric.split(",", 1)[0]
    if name in FRACTION_METRICS or name.rsplit("/", 1)[-1] in FRACTION_METRICS:  # inspect_ai's 'match/accuracy'
        return True
    if _NOT_FRACTIONS.search(name) or not values:
        return False
    return all(0.0 <= v <= 1.0 for v in values)


def safe_name(name: str) -> str:
    """A model or dataset name as a folder or file name: ``/`` becomes ``__`` (as lm-evaluation-harness names
    its model folders), other characters outside ``[A-Za-z0-9._+=@-]`` become ``_``.

    >>> safe_name('meta-llama/Llama-3-8B')
    'meta-llama__Llama-3-8B'
    """
    out = _UNSAFE.sub("_", name.replace("/", "__")).strip(".")
    return out or "_"


@dataclass(repr=False, eq=False)
class ImportedSources(DataclassMethods):
    """What :func:`write_sources` wrote: the model and dataset names in the run, with every metric in order."""

    models: list[str] = field(default_factory=list)
    #: dataset name in the run → its metrics in the tool's order
    datasets: dict[str, list[str]] = field(default_factory=dict)
    #: (group name in the run, metric, member dataset names, weights — samples per member — or None: a plain average)
    groups: list[tuple[str, str, list[str], dict[str, int] | None]] = field(default_factory=list)
    #: model name in the run → the tool and file(s) it came from
    sources: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    written: list[str] = field(default_factory=list)
    #: the imports (tool, files) named in the run's import marker until :func:`finish_import` removes them
    pending: list[dict[str, Any]] = field(default_factory=list)

    def merge(self, other: ImportedSources) -> None:
        """Add what another source wrote (models, datasets and metrics not listed yet, groups of a new name)."""
        self.models += [m for m in other.models if m not in self.models]
        for dataset, metrics in other.datasets.items():
            listed = self.datasets.setdefault(dataset, [])
            listed += [m for m in metrics if m not in listed]
        self.groups += [g for g in other.groups if g[0] not in {t[0] for t in self.groups}]
        for model, items in other.sources.items():
            self.sources.setdefault(model, []).extend(items)
        self.written += other.written
        self.pending += [p for p in other.pending if p not in self.pending]

    def rows(self) -> list[str | list[str]]:
        """The summary rows of these results: the groups, then every dataset's metrics (``[dataset, metric]``)."""
        out: list[str | list[str]] = [label for label, _metric, _members, _weights in self.groups]
        for dataset, metrics in self.datasets.items():
            out.extend([dataset, metric] for metric in metrics)
        return out


def write_sources(
    run_dir: RunDir,
    runs: Sequence[ExternalRun],
    *,
    models: Mapping[str, str] | None = None,
    datasets: Mapping[str, str] | None = None,
    percent: bool = True,
    finish: bool = True,
) -> ImportedSources:
    """Write ``runs``' results into ``run_dir``; model and dataset names mapped by ``models``/``datasets``
    (the tool's name → the name in the run; unmapped names made :func:`safe_name`).

    With ``percent`` (the default) a fraction (:func:`fraction_metric`, decided per dataset and
    metric over every run, so that one cell row has one scale) is written × 100, as OpenCompass
    shows accuracy; the tool's own values stay in ``_meta.source.metrics`` (with
    ``_meta.source.scale``: the factor applied to each metric).

    Every file is planned before the first is written: two runs mapped to the same model and
    dataset, and a result already in the run that was not imported from the same tool (assay's
    own, OpenCompass's), are :class:`~assay.errors.InputFileError`\\ s naming the files, and then
    nothing is written.  The run's import marker names ``runs`` from before the first file is written
    until the last is (``finish=False``: until the caller's :func:`finish_import`).
    """
    models = models or {}
    datasets = datasets or {}
    out = ImportedSources()
    owner: dict[tuple[str, str], str] = {}
    group_defs: dict[tuple[str, str], ExternalGroup] = {}
    scales = _scales(runs, datasets, percent)
    plan: list[tuple[Path, dict[str, Any]]] = []
    for run in runs:
        model = models.get(run.model) or safe_name(run.model)
        if model not in out.models:
            out.models.append(model)
        out.sources.setdefault(model, []).append({"tool": run.tool, "version": run.version, "model": run.model, "paths": list(run.paths)})
        for name, result in run.results.items():
            dataset = datasets.get(name) or safe_name(name)
            key = (model, dataset)
            if key in owner:
                raise InputFileError(
                    f"{result.source.path}: {run.tool} result of model {run.model!r} on {name!r} would be written as "
                    f"{model}/{dataset}, which {owner[key]} already gives; map one of them to another name "
                    "(nothing was written)"
                )
            owner[key] = result.source.path
            metrics = out.datasets.setdefault(dataset, [])
            metrics.extend(m for m in result.metrics if m not in metrics)
            plan.append((run_dir.result_path(model, dataset), _result_dict(run, result, scales.get(dataset, {}))))
        for name, group in run.groups.items():
            for metric in group.metrics:
                group_defs.setdefault((name, metric), group)
    plan += _plan_groups(run_dir, runs, out, group_defs, models, datasets, percent, owner)
    for path, data in plan:
        _check_replaceable(path, data["_meta"]["source"])
    out.pending = _mark_import(run_dir, runs)
    for path, data in plan:
        write_result(path, data)
        out.written.append(str(path))
    if finish:
        finish_import(run_dir, out)
    return out


def _import_entries(runs: Sequence[ExternalRun]) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    for run in runs:
        entry = {"tool": run.tool, "paths": sorted(str(p) for p in run.paths)}
        if entry not in entries:
            entries.append(entry)
    return entries


def _mark_import(run_dir: RunDir, runs: Sequence[ExternalRun]) -> list[dict[str, Any]]:
    """Name ``runs``' import in the run's import marker (with any unfinished ones already there); its entries."""
    import os
    import shlex
    import sys
    from datetime import datetime

    from assay.fileio import atomic_write_json

    entries = _import_entries(runs)
    there = _read_marker(run_dir) or {"imports": []}
    imports = [*there["imports"], *(e for e in entries if e not in there["imports"])]
    atomic_write_json(run_dir.import_marker, {
        "imports": imports, "pid": os.getpid(),
        "command": shlex.join(sys.argv) if sys.argv and sys.argv[0] else "assay",
        "since": datetime.now().isoformat(timespec="seconds"),
    })
    return entries


def finish_import(run_dir: RunDir, imported: ImportedSources) -> None:
    """Take ``imported``'s imports out of the run's import marker, every file of them written; the marker goes
    when it names none."""
    there = _read_marker(run_dir)
    if there is None:
        return
    left = [e for e in there["imports"] if e not in imported.pending]
    if left:
        from assay.fileio import atomic_write_json

        atomic_write_json(run_dir.import_marker, {**there, "imports": left})
    else:
        run_dir.import_marker.unlink(missing_ok=True)
    imported.pending = []


def _scales(runs: Sequence[ExternalRun], datasets: Mapping[str, str], percent: bool) -> dict[str, dict[str, float]]:
    """Dataset (its name in the run) → metric → the factor its values are written with: 100 for a fraction,
    decided over every run — by the metric's name, else by every logged value and every reported value
    lying in [0, 1] — so that a model without logged samples gets the scale of one with them."""
    values: dict[tuple[str, str], list[float]] = {}
    reported: dict[tuple[str, str], list[float]] = {}
    for run in runs:
        for name, result in run.results.items():
            dataset = datasets.get(name) or safe_name(name)
            for metric, value in result.metrics.items():
                values.setdefault((dataset, metric), []).extend(result.sample_values(metric))
                reported.setdefault((dataset, metric), []).append(value)
    out: dict[str, dict[str, float]] = {}
    for (dataset, metric), logged in values.items():
        fraction = percent and fraction_metric(metric, logged) and all(0.0 <= v <= 1.0 for v in reported[(dataset, metric)])
        out.setdefault(dataset, {})[metric] = 100.0 if fraction else 1.0
    return out


def _check_replaceable(path: Path, source: Mapping[str, Any]) -> None:
    """A result file already at ``path`` may be replaced only when it was imported from the same tool."""
    if not path.exists():
        return
    from assay.rundir.results import read_result_without_details

    head: Any
    try:
        head, _ = read_result_without_details(path)
    except Exception:  # unreadable: not ours to replace either
        head = {}
    meta = head.get("_meta") if isinstance(head, dict) else None
    there = meta.get("source") if isinstance(meta, dict) else None
    if isinstance(there, dict) and there.get("tool") == source.get("tool"):
        return
    what = f"a result imported from {there.get('tool')!r}" if isinstance(there, dict) else "a result not imported from another tool (assay's or OpenCompass's)"
    raise InputFileError(
        f"{path} holds {what}; the {source.get('tool')} result of {source.get('path')} would replace it. "
        "Nothing was written: map the tool's model or dataset to another name, or import into a new run directory"
    )


def _result_dict(run: ExternalRun, result: Any, scales: Mapping[str, float]) -> dict[str, Any]:
    scored = [m for m in result.metrics if result.sample_values(m)]
    scale = {m: scales.get(m, 1.0) for m in result.metrics}
    details = []
    for sample in result.samples:
        row: dict[str, Any] = {"id": sample.key}
        row.update(sample.values)
        if sample.reply is not None:
            row["prediction"] = sample.reply
        if sample.extracted:
            row["extracted"] = sample.extracted
        if sample.reference is not None:
            row["reference"] = sample.reference
        if sample.prompt is not None:
            row["prompt"] = sample.prompt
        question = sample_question(run.tool, sample)
        if question is not None:
            row["question"] = question  # what assay compare aligns two tools' samples by
        row.update(sample.hashes)
        details.append(row)
    source = {
        "tool": run.tool, "version": run.version, "path": result.source.path, "samples_path": result.samples_path,
        "model": run.model, "dataset": result.dataset, "metrics": dict(result.metrics), "stderr": dict(result.stderr),
        "scale": scale, "n_samples": result.n_samples, "higher_is_better": dict(result.higher_is_better),
    }
    problems = result.check()
    if problems:
        source["inconsistent"] = problems
    meta: dict[str, Any] = {"source": source}
    if scored:
        meta["outcome"] = {"correct": None, "scores": {m: m for m in scored}}
    metrics = {m: v * scale[m] for m, v in result.metrics.items()}
    return {**metrics, "_meta": meta, **({"details": details} if details else {})}


def _plan_groups(
    run_dir: RunDir,
    runs: Sequence[ExternalRun],
    out: ImportedSources,
    defs: dict[tuple[str, str], ExternalGroup],
    models: Mapping[str, str],
    datasets: Mapping[str, str],
    percent: bool,
    owner: Mapping[tuple[str, str], str],
) -> list[tuple[Path, dict[str, Any]]]:
    """Each (group, metric): a summary group when a plain or size-weighted average of its members gives the
    tool's value for every model, else a row of its own: the result files to write for those."""
    first_metric: dict[str, str] = {}
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for (name, metric), group in defs.items():
        first_metric.setdefault(name, metric)
        members = [datasets.get(m) or safe_name(m) for m in group.members]
        label = name if first_metric[name] == metric else f"{name}/{metric}"
        weights = _rebuild(runs, name, metric)
        if not isinstance(weights, bool) and members:
            out.groups.append((label, metric, members, weights))
            continue
        row = datasets.get(name) or safe_name(name)
        listed = out.datasets.setdefault(row, [])
        if metric not in listed:
            listed.append(metric)
        for run in runs:
            g = run.groups.get(name)
            if g is None or metric not in g.metrics:
                continue
            model = models.get(run.model) or safe_name(run.model)
            result = rows.setdefault((model, row), {"_meta": {"source": {
                "tool": run.tool, "version": run.version, "path": run.paths[-1], "model": run.model, "group": name,
                "members": list(g.members), "metrics": {}, "stderr": {}, "scale": {}}}})
            scale = 100.0 if percent and fraction_metric(metric, []) else 1.0
            result[metric] = g.metrics[metric] * scale
            source = result["_meta"]["source"]
            source["metrics"][metric] = g.metrics[metric]
            source["stderr"][metric] = g.stderr.get(metric)
            source["scale"][metric] = scale
    plan = []
    for (model, row), result in rows.items():
        if (model, row) in owner:
            raise InputFileError(f"{result['_meta']['source']['path']}: group {row!r} of model {model!r} has the name "
                                 "of a dataset; map one of them to another name (nothing was written)")
        plan.append((run_dir.result_path(model, row), result))
    return plan


def _rebuild(runs: Sequence[ExternalRun], name: str, metric: str) -> dict[str, int] | bool | None:
    """``None``: a plain average of the members gives every model's reported value of group ``name``;
    weights (samples per member): a size-weighted one does, with the same sizes for every model; ``False``:
    neither, the models' sizes differ, or a member is missing."""
    plain_ok = weighted_ok = True
    weights: dict[str, int] = {}
    sizes_seen: set[tuple[int, ...]] = set()
    for run in runs:
        g = run.groups.get(name)
        if g is None or metric not in g.metrics:
            continue
        vals, sizes = [], []
        for member in g.members:
            result = run.results.get(member)
            if result is None or metric not in result.metrics:
                return False
            n = len(result.sample_values(metric)) or result.n_samples or 0
            vals.append(result.metrics[metric])
            sizes.append(n)
            weights[member] = n
        if not vals:
            return False
        sizes_seen.add(tuple(sizes))
        value = g.metrics[metric]
        total = sum(sizes)
        plain = math.fsum(vals) / len(vals)
        weighted = math.fsum(v * n for v, n in zip(vals, sizes)) / total if total else math.nan
        plain_ok = plain_ok and math.isclose(plain, value, rel_tol=1e-9, abs_tol=1e-12)
        weighted_ok = weighted_ok and math.isclose(weighted, value, rel_tol=1e-9, abs_tol=1e-12)
    if plain_ok:
        return None
    if weighted_ok and len(sizes_seen) == 1:  # one summary group's weights serve every model only when their sizes agree
        return weights
    return False


def cell_source(source: Any) -> dict[str, Any] | None:
    """Where an imported result's value came from, as a summary keeps it per cell: a result's
    ``_meta.source`` (written by :func:`assay.rundir.sources.write_sources`) read to ``tool``, ``version``,
    ``files`` (the tool's files it was read from, as the import recorded them), the tool's names
    of the model and dataset (``tool_model``, ``tool_dataset``; a group's ``tool_group``), its own ``metrics`` (on its scale) and each metric's ``scale`` (the factor
    assay shows it with: 100 for a fraction shown in percent); ``None`` for a result without one
    (assay's own, OpenCompass's).

    >>> cell_source({'tool': 'lm_eval', 'version': '0.4.8', 'path': 'out/results.json', 'samples_path': 'out/s.jsonl',
    ...              'metrics': {'acc,none': 0.625}, 'scale': {'acc,none': 100.0}, 'stderr': {}})
    {'tool': 'lm_eval', 'version': '0.4.8', 'files': ['out/results.json', 'out/s.jsonl'], 'metrics': {'acc,none': 0.625}, 'scale': {'acc,none': 100.0}}
    >>> cell_source(None) is None, cell_source({'version': '1'}) is None
    (True, True)
    """
    if not isinstance(source, Mapping) or not isinstance(source.get("tool"), str) or not source["tool"]:
        return None
    out: dict[str, Any] = {"tool": source["tool"], "version": str(source.get("version") or "")}
    files = [source.get(k) for k in ("path", "samples_path")]
    out["files"] = [str(f) for f in files if isinstance(f, str) and f]
    for key in ("model", "dataset", "group"):
        if isinstance(source.get(key), str):
            out[f"tool_{key}"] = source[key]
    for key in ("metrics", "scale"):
        value = source.get(key)
        if isinstance(value, Mapping):
            out[key] = {str(m): v for m, v in value.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    return out


def source_config(imported: ImportedSources, *, note: str = "") -> str:
    """The Python config of a summary of ``imported``: models, datasets (every metric, in order), summary groups."""
    lines = [f"# {line}" for line in note.splitlines()] if note else []
    lines.append("models = [")
    for model in imported.models:
        lines.append(f"    dict(abbr={model!r}, source={imported.sources.get(model, [])!r}),")
    lines.append("]")
    lines.append("datasets = [")
    for dataset in imported.datasets:
        lines.append(f"    dict(abbr={dataset!r}),")
    lines.append("]")
    lines.append("summary_groups = [")
    for label, metric, members, weights in imported.groups:
        subsets = [[m, metric] for m in members]
        extra = f", weights={ {m: weights[m] for m in members if m in weights}!r}" if weights else ""
        lines.append(f"    dict(name={label!r}, subsets={subsets!r}{extra}),")
    lines.append("]")
    lines.append(f"summarizer = dict(dataset_abbrs={imported.rows()!r}, summary_groups=summary_groups)")
    return "\n".join(lines) + "\n"


def write_source_predictions(run_dir: RunDir, model: str, dataset: str, records: Mapping[str, Any], tool: str) -> Path:
    """Write another tool's replies of ``model`` on ``dataset`` as the run's prediction file
    ``predictions/<model>/<dataset>.json`` (see :mod:`assay.tasks.sources`); unchanged bytes are not written again,
    so that the result's input fingerprint holds.  A prediction file there that did not come from another tool
    (no ``source_key`` in its records: OpenCompass's, or one a user put there) is never replaced: an
    :class:`~assay.errors.InputFileError` names it."""
    import orjson

    from assay.fileio import atomic_write_bytes, dumps_json

    path = run_dir.prediction_dir(model) / f"{dataset}.json"
    data = dumps_json(dict(records))
    if path.exists():
        try:
            there = path.read_bytes()
        except OSError as exc:
            raise InputFileError(f"{path}: cannot read the prediction file there ({exc}); the {tool} replies of {model!r} go there") from exc
        if there == data:
            return path
        try:
            first: Any = next(iter(orjson.loads(there).values()), {})
        except (orjson.JSONDecodeError, AttributeError, TypeError):
            first = {}
        if not isinstance(first, dict) or "source_key" not in first:
            raise InputFileError(f"{path} holds predictions that were not taken from another tool; the {tool} replies of "
                                 f"model {model!r} on {dataset!r} would replace them. Nothing was written: give the dataset another abbr")
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, data)
    return path


def source_prediction_models(run_dir: RunDir, dataset: str) -> list[str]:
    """The models whose prediction file of ``dataset`` the run holds (in folder-name order): where the summary of a
    dataset scoring another tool's replies finds its models without reading the tool's output again (which a
    config dumped in the run may name by a path relative to another folder)."""
    from assay.rundir.layout import folders_in

    root = run_dir.predictions
    return [model for model in folders_in(root) if (run_dir.prediction_dir(model) / f"{dataset}.json").is_file()] if root.is_dir() else []
