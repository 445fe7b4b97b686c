"""A summary's numbers in one form, whatever form they came in (summarizer result, ``Scores``, ``.json``).

Unlike the rest of :mod:`assay.stats`, this module still reads files: a
summary given as ``None`` is read from the run directory's newest summary
``.json``, else from its result files.  The statistics of a run directory
are :mod:`assay.rundir.statistics`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assay.groups import incomplete_marks
from assay.workdir import newest_summary_json

__all__ = ["SummaryView", "summary_groups_of", "summary_view"]


@dataclass
class SummaryView:
    """The numbers of a summary, whatever form it came in (summarizer result, ``Scores`` or ``.json``).

    Attributes:
        columns: model columns in order.
        dataset_abbrs: dataset abbrs (not groups) in order.
        groups: group names in order.
        metrics: abbr → metric names in display order (the first is the primary one).
        values: column → abbr → metric → value.
        cell_errors: (column, abbr) → why the model has no value there.
        rows: the table rows as the summary ``.json`` holds them (``row_json`` dicts: one
            number per model at full precision), when known; never read back from the
            formatted table.
        time: the summary's time stamp, when known.
        gold_references: (column, abbr) → why that result's references came
            from the prediction files' ``gold``.
        audits: column → dataset abbr → the result's ``extraction_audit``, where it has one.
        marks: (column, abbr) → why the cell's value is marked (``{"kind", "count", "detail"}`` each:
            its result's ``_meta.incomplete``, a result changed after it was computed, a group of such).
    """

    columns: list[str]
    dataset_abbrs: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    metrics: dict[str, list[str]] = field(default_factory=dict)
    values: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    cell_errors: dict[tuple[str, str], str] = field(default_factory=dict)
    rows: list[dict[str, Any]] = field(default_factory=list)
    time: str = ""
    group_definitions: list[dict[str, Any]] | None = None
    gold_references: dict[tuple[str, str], str] = field(default_factory=dict)
    audits: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    marks: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)


def summary_view(summary: Any, run_dir: str | os.PathLike[str] | None = None) -> SummaryView:
    """Normalise a summary: a ``SummaryResult``, a ``Scores``, a parsed summary ``.json``, or ``None``.

    ``None`` reads the newest ``summary/*.json`` of ``run_dir``, or, when there
    is none, every result file of the run (each model folder a column, each
    result file a dataset, no groups).  A ``SummaryResult`` gives its ``rows``
    (those its ``.json`` holds), so that a summary read from the summarizer and
    the same summary read from its ``.json`` give the same numbers.
    """
    from assay.results import order_metrics

    if summary is None:
        if run_dir is None:
            raise ValueError("summary_view(None) needs the run directory")
        path = newest_summary_json(run_dir)
        if path is not None:
            from assay.fileio import read_json

            summary = read_json(path, what="summary")
        else:
            return _view_from_results(Path(run_dir))
    scores = getattr(summary, "scores", summary)
    if hasattr(scores, "values") and hasattr(scores, "columns") and not isinstance(scores, Mapping):
        view = SummaryView(
            columns=list(scores.columns),
            dataset_abbrs=list(scores.dataset_abbrs),
            groups=list(scores.groups),
            metrics={k: list(v) for k, v in scores.metrics.items()},
            values=dict(scores.values),  # each model's values as the summary has them (read, never changed)
            cell_errors=dict(scores.cell_errors),
            time=str(getattr(summary, "time_str", "") or ""),
            gold_references=dict(getattr(scores, "gold_references", None) or {}),
            audits={c: dict(per) for c, per in (getattr(scores, "audits", None) or {}).items()},
            marks={k: [m.to_json() for m in ms] for k, ms in (getattr(scores, "marks", None) or {}).items()},
        )
        view.rows = _table_rows(getattr(summary, "rows", None))
        return view
    if not isinstance(summary, Mapping):
        raise TypeError(f"cannot read a summary from {type(summary).__name__}")
    values = summary.get("scores") or {}
    columns = list(summary.get("models") or values.keys())
    groups = list(summary.get("groups") or [])
    abbrs: dict[str, None] = {}
    metrics: dict[str, dict[str, None]] = {}
    for column in columns:
        for abbr, ms in (values.get(column) or {}).items():
            if abbr not in groups:
                abbrs.setdefault(abbr, None)
            metrics.setdefault(abbr, {}).update(dict.fromkeys(ms))
    ordered = {a: (list(m) if a in groups else order_metrics(list(m))) for a, m in metrics.items()}
    rows = summary.get("rows")
    if rows is None:  # MultiFacetedSummarizer: each view's rows; the first view that has any is the main table
        rows = next((v.get("rows") for v in summary.get("views") or [] if isinstance(v, Mapping) and v.get("rows")), [])
    rows = _table_rows(rows)
    errors: dict[tuple[str, str], str] = {}
    for row in rows:
        for column, reason in (row.get("missing") or {}).items():
            errors.setdefault((column, row.get("dataset", "")), reason)
    for issue in summary.get("errors") or []:
        if issue.get("model") and issue.get("dataset"):
            errors.setdefault((issue["model"], issue["dataset"]), issue.get("message", ""))
    return SummaryView(
        columns=columns,
        dataset_abbrs=list(abbrs),
        groups=groups,
        metrics=ordered,
        values={c: {a: dict(m) for a, m in (values.get(c) or {}).items()} for c in columns},
        cell_errors=errors,
        rows=rows,
        time=str(summary.get("time") or ""),
        group_definitions=summary.get("group_definitions"),
        gold_references={
            (str(g.get("model")), str(g.get("dataset"))): str(g.get("reason", ""))
            for g in summary.get("references_from_gold") or []
            if isinstance(g, Mapping)
        },
        audits={c: dict(per) for c, per in (summary.get("extraction_audits") or {}).items() if isinstance(per, Mapping)},
        marks=_marks_of_json(summary.get("incomplete")),
    )


def _marks_of_json(items: Any) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """A summary ``.json``'s ``incomplete`` list by (model, dataset)."""
    marks: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for item in items if isinstance(items, list) else []:
        if isinstance(item, Mapping):
            entry = {"kind": str(item.get("kind", "")), "count": item.get("count"), "detail": str(item.get("detail", ""))}
            marks.setdefault((str(item.get("model")), str(item.get("dataset"))), []).append(entry)
    return marks


def _table_rows(rows: Any) -> list[dict[str, Any]]:
    """The table rows of a summary as its ``.json`` holds them: numbers, at full precision.

    A row whose values are, per model, ``{metric: value}`` (``CircularSummarizer``)
    becomes one row per metric, so that every row has one number per model.

    >>> _table_rows([{'dataset': 'd', 'version': 'v', 'mode': 'gen',
    ...               'values': {'m': {'acc': 62.5, 'perf': 40.0}}}])[1]['values']
    {'m': 40.0}
    """
    out: list[dict[str, Any]] = []
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, Mapping):
            continue
        values = row.get("values") or {}
        per_metric = [v for v in values.values() if isinstance(v, Mapping)]
        if not per_metric:
            out.append(dict(row))
            continue
        for metric in dict.fromkeys(m for v in per_metric for m in v):
            out.append({**row, "metric": metric,
                        "values": {c: v.get(metric) if isinstance(v, Mapping) else None for c, v in values.items()}})
    return out


def _view_from_results(run_dir: Path) -> SummaryView:
    from assay.results import numeric_metrics, order_metrics, read_result_without_details

    results = run_dir / "results"
    columns = sorted(p.name for p in results.iterdir() if p.is_dir()) if results.is_dir() else []
    view = SummaryView(columns=columns)
    abbrs: dict[str, None] = {}
    metric_names: dict[str, dict[str, None]] = {}
    for column in columns:
        view.values[column] = {}
        for path in sorted((results / column).glob("*.json")):
            try:
                result, _ = read_result_without_details(path)
            except Exception as exc:  # an unreadable file is a missing cell
                view.cell_errors[(column, path.stem)] = str(exc)
                abbrs.setdefault(path.stem, None)
                continue
            abbrs.setdefault(path.stem, None)
            meta = result.get("_meta")
            if isinstance(meta, dict) and meta.get("references") == "gold":
                view.gold_references[(column, path.stem)] = str(meta.get("references_note") or "")
            if "error" in result:
                view.cell_errors[(column, path.stem)] = f"evaluation failed: {result['error']}"
                continue
            nums = {k: float(v) for k, v in numeric_metrics(result).items()}
            view.values[column][path.stem] = nums
            marks = incomplete_marks(meta.get("incomplete")) if isinstance(meta, dict) else []
            if marks:
                view.marks[(column, path.stem)] = [m.to_json() for m in marks]
            if isinstance(result.get("extraction_audit"), dict):
                view.audits.setdefault(column, {})[path.stem] = result["extraction_audit"]
            metric_names.setdefault(path.stem, {}).update(dict.fromkeys(nums))
    view.dataset_abbrs = list(abbrs)
    view.metrics = {a: order_metrics(list(m)) for a, m in metric_names.items()}
    for abbr in view.dataset_abbrs:
        for metric in view.metrics.get(abbr, []) or [""]:
            view.rows.append({
                "dataset": abbr, "version": "-", "metric": metric or "-", "mode": "-",
                "values": {c: view.values[c].get(abbr, {}).get(metric) for c in columns},
            })
    return view


def summary_groups_of(config: Mapping[str, Any] | None, view: SummaryView | None = None) -> list[Any]:
    """The summary groups of a run config (or of the summary's ``group_definitions``), parsed."""
    from assay.groups import parse_summary_groups

    raw: Any = None
    if view is not None and view.group_definitions:
        raw = view.group_definitions
    elif config is not None:
        summarizer = config.get("summarizer") or {}
        raw = summarizer.get("summary_groups") if isinstance(summarizer, Mapping) else None
    if not raw:
        return []
    return parse_summary_groups(list(raw))
