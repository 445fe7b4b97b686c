"""Building the report's data and rendering it as one HTML file."""

from __future__ import annotations

import html
import json
import logging
import os
from importlib import resources
from pathlib import Path
from typing import Any

import orjson

from assay.audit import AuditRecord
from assay.rundir.record import judge_line
from assay.stats import SAMPLE_TEXT

logger = logging.getLogger(__name__)

__all__ = ["audit_note", "build_report_data", "render_report", "write_html_report"]

_PALETTE = ("#0969da", "#cf222e", "#1a7f37", "#8250df", "#bc4c00", "#1b7c83", "#bf3989", "#57606a")


def audit_note(audit: AuditRecord | None, metric: str, value: float | None) -> str:
    """The leaderboard's note on one cell's extraction audit (see :mod:`assay.audit`).

    >>> from assay.audit import AuditRecord
    >>> audit_note(AuditRecord([], 1319, 3, metrics={'accuracy': 81.2}), 'accuracy', 80.9)
    '3 of 1,319 replies read differently by the corrected extractor; accuracy would be 81.20 instead of 80.90'
    >>> audit_note(AuditRecord([], 10, 0, metrics={'accuracy': 50.0}), 'accuracy', 50.0)
    'all 10 replies read the same by the corrected extractor'
    >>> audit_note(AuditRecord.failed([], 'ValueError: boom'), 'accuracy', 50.0)
    'extraction audit failed: ValueError: boom'
    """
    if audit is None:
        return ""
    if audit.error is not None:
        return f"extraction audit failed: {audit.error}"
    replies, differ = audit.replies, audit.differ
    if not differ:
        return f"all {replies:,} replies read the same by the corrected extractor"
    text = f"{differ:,} of {replies:,} repl{'y' if replies == 1 else 'ies'} read differently by the corrected extractor"
    would = audit.would_be(metric)
    if would is not None and value is not None:
        text += f"; {metric} would be {would:.2f} instead of {value:.2f}"
    return text


def _audit_columns(audit: AuditRecord | None, n: int, limit: int) -> dict[str, Any] | None:
    """The sample browser's view of one model's audit: the differing samples and their corrected readings."""
    from assay.stats import browser_text

    if audit is None or audit.error is not None:
        return None
    samples = [j for j in audit.samples if 0 <= j < n]
    readings = audit.readings
    ext: list[str] = []
    ok: list[float | None] = []
    for k, _ in enumerate(samples):
        reading = readings[k] if k < len(readings) else None
        corrected = reading.corrected if reading is not None else None
        correct = reading.correct if reading is not None else None
        # the usual reading, one run: its text as browser_text gives it, its verdict as 1.0 or 0.0
        if corrected is not None and len(corrected) == 1 and type(corrected[0]) is str and len(corrected[0]) <= limit:
            ext.append(corrected[0])
        else:
            ext.append(browser_text(corrected, limit))
        if correct is not None and len(correct) == 1 and correct[0] in (0.0, 1.0):
            ok.append(correct[0])
            continue
        verdicts = [v for v in correct or [] if v is not None]
        ok.append(round(sum(verdicts) / len(verdicts), 6) if verdicts else None)
    return {"samples": samples, "ext": ext, "ok": ok}


def _sample_table(tables: Any, columns: list[str], abbr: str, audits: Any = None, limit: int = SAMPLE_TEXT) -> dict[str, Any] | None:
    """The sample browser's data of one dataset, or ``None`` when no model has details.

    ``tables`` holds each model's :class:`assay.stats.SampleColumns`.  Models
    whose sample count differs from the first one's are left out; the ids are
    the first model's, each reference the first non-empty one.
    """
    per_model: list[tuple[str, Any]] = []
    n = None
    for column in columns:
        found = tables.columns.get((column, abbr))
        if found is None:
            continue
        if n is not None and found.n != n:
            logger.warning("report: %s has %d samples of %s, others %d; left out of the browser", column,
                           found.n, abbr, n)
            continue
        n = found.n
        per_model.append((column, found))
    if not per_model or n is None:
        return None
    refs = list(per_model[0][1].ref)
    for _, found in per_model[1:]:
        empty = [i for i, r in enumerate(refs) if not r]
        if not empty:
            break
        for i in empty:
            refs[i] = found.ref[i]
    out = {"abbr": abbr, "n": n, "models": [c for c, _ in per_model], "ids": per_model[0][1].ids,
           "ref": refs, "raw": [f.raw for _, f in per_model], "ext": [f.ext for _, f in per_model],
           "ok": [f.ok for _, f in per_model]}
    audit = [_audit_columns((audits or {}).get(c, {}).get(abbr), n, limit) for c, _ in per_model]
    if any(a is not None for a in audit):
        out["audit"] = audit
    return out


def build_report_data(
    run_dir: str | os.PathLike[str],
    summary: Any = None,
    *,
    stats: Any = None,
    max_text: int = SAMPLE_TEXT,
    snapshot: Any = None,
) -> dict[str, Any]:
    """Everything the report shows, as JSON-ready data.

    Args:
        run_dir: the run directory.
        summary: the summarizer's result, a :class:`~assay.summarize.leaderboard.Leaderboard`,
            the parsed summary ``.json``, or ``None`` (the newest ``.json``, else
            the leaderboard of the result files, without groups).
        stats: a :class:`assay.rundir.statistics.RunStats` already computed (default: ``summary.stats``, else computed here).
            Its ``tables`` (or those of ``summary.stats``), when they were read
            with the same folders and ``max_text``, give the sample browser;
            otherwise the results and predictions are read here.
        max_text: longest text kept per sample and field.
        snapshot: the result files as the run index has them (default:
            ``summary.snapshot``, else taken here; see :mod:`assay.rundir.index`).

    Returns:
        ``{"time", "models", "rows", "groups", "datasets", "gold", "incomplete", "heatmaps", "judge", "pairwise"}``
        (``"judge"``: one line per judged result, what its judge calls cost, with its pairwise line
        when it has one; ``"pairwise"``: one line per pairwise entry of the leaderboard, :func:`pairwise_line`);
        each row cell has ``v`` (the leaderboard's value at full precision, as
        the summary's ``.json`` holds it, or ``None``), ``tip`` (the hover text, the value in full),
        with an interval ``lo``/``hi``, ``gold`` when its references came from
        the prediction files' ``gold`` (``"gold"`` lists those results with
        why), and ``marks`` when its value is marked in the summary's table
        (``"incomplete"`` lists them: model, dataset, kind, count, detail).
    """
    from assay.rundir.statistics import load_run_config, model_dirs_of, run_stats, sample_tables
    from assay.stats import group_plan
    from assay.summarize import leaderboard_of

    root = Path(run_dir)
    view = leaderboard_of(summary, root)
    config = load_run_config(root)
    folders = model_dirs_of(config, view.models)
    columns = view.models
    # the sample columns read with the statistics (by the summarizer or the caller) when they fit
    tables = None
    for holder in (stats, getattr(summary, "stats", None)):
        found = getattr(holder, "tables", None)
        if found is not None and found.covers(columns, view.dataset_abbrs, folders, max_text):
            tables = found
            break
    if stats is None:
        stats = getattr(summary, "stats", None)  # what the summarizer computed, when it did
    if snapshot is None:
        snapshot = getattr(summary, "snapshot", None)
    if snapshot is None and (stats is None or tables is None):
        from assay.rundir.statistics import index_snapshot

        snapshot = index_snapshot(root)
    if stats is None:
        stats = run_stats(root, view, config=config, sample_text=None if tables is not None else max_text,
                          snapshot=snapshot)
        tables = tables or stats.tables
    if tables is None:
        tables = sample_tables(root, columns, view.dataset_abbrs, folders, max_text, snapshot=snapshot)

    rows = []
    for row in view.metric_rows():
        abbr, metric = row.dataset, row.metric or ""
        cells = []
        for column in columns:
            value = row.values.get(column)
            cell: dict[str, Any] = {"v": value}
            if value is None:
                reason = row.missing.get(column) or view.missing_reason(column, abbr)
                if row.placeholder or not abbr:
                    reason = reason or "separator or unknown row"
                cell["tip"] = reason or f"{column} has no value for {abbr} {metric}"
            else:
                stat = stats.cell(column, abbr, metric)
                tip = [f"{column} · {abbr} · {metric} = {_exact(value)}"]
                if stat is not None:
                    tip.append(stat.describe())
                    if stat.has_interval:
                        cell["lo"], cell["hi"] = stat.low, stat.high
                else:
                    tip.append("no interval: no statistics for this cell")
                u = stats.unscorable.get((column, abbr))
                if u is not None and u.count:
                    cell["u"] = u.count
                    tip.append("unscorable: " + u.describe())
                    if metric in u.bounds:
                        lo, hi = u.bounds[metric]
                        cell["blo"], cell["bhi"] = lo, hi
                        tip.append(f"if all unscorable were wrong / right: {lo:.2f} / {hi:.2f}")
                elif u is not None and u.describe():
                    tip.append(u.describe())
                marks = view.marks.get((column, abbr))
                if marks:
                    cell["marks"] = [m.to_json() for m in marks]
                    tip.extend(f"* {_mark_text(m)}" for m in cell["marks"])
                gold_reason = view.gold_references.get((column, abbr))
                if gold_reason is not None:
                    cell["gold"] = True
                    tip.append(f"references from the prediction files' gold: {gold_reason}")
                audit = view.audits.get(column, {}).get(abbr)
                note = audit_note(audit, metric, value)
                if note and audit is not None:
                    tip.append(note)
                    if audit.error is not None or audit.differ:  # a cell the correction would change
                        cell["audit"] = note
                        cell["audit_differ"] = bool(audit.differ)
                cell["tip"] = "\n".join(tip)
            cells.append(cell)
        rows.append({"dataset": abbr, "version": row.version, "metric": metric,
                     "mode": row.mode, "cells": cells, "placeholder": row.placeholder})

    groups_out = []
    try:
        groups = view.summary_groups(config)
    except Exception as exc:  # an invalid group config: no charts
        logger.warning("report: group definitions unusable: %s", exc)
        groups = []
    for group in groups:
        if group.name not in view.groups:
            continue
        plan = group_plan(group, view.metrics)
        inputs = plan.get(group.metric, [])
        cats = [(group.name, group.metric, f"{group.name} ({group.metric})")]
        cats += [(a, m, f"{a} · {m}") for a, m in inputs if m is not None]
        series = []
        for abbr, metric, label in cats:
            points = []
            for column in columns:
                v = view.scores.get(column, {}).get(abbr, {}).get(metric)
                stat = stats.cell(column, abbr, metric)
                point: dict[str, Any] = {"v": v}
                if v is not None and stat is not None and stat.has_interval:
                    point["lo"], point["hi"] = stat.low, stat.high
                points.append(point)
            series.append({"label": label, "points": points})
        groups_out.append({"name": group.name, "metric": group.metric, "aggregation": group.aggregation,
                           "categories": series})

    datasets = []
    for abbr in view.dataset_abbrs:
        table = _sample_table(tables, columns, abbr, view.audits, max_text)
        if table is not None:
            datasets.append(table)
    heatmaps = needle_heatmaps(view, stats)
    gold = [{"model": c, "dataset": a, "reason": r} for (c, a), r in view.gold_references.items()]
    marked = [{"model": c, "dataset": a, **m.to_json()} for (c, a), ms in view.marks.items()
              if view.scores.get(c, {}).get(a) for m in ms]
    pairwise = [{"model": e.get("model"), "dataset": e.get("dataset"), "judge": e.get("judge"), "line": pairwise_line(e)}
                for e in (getattr(view, "pairwise", None) or {}).get("entries") or [] if isinstance(e, dict)]
    lines = {(p["model"], p["dataset"]): p["line"] for p in pairwise}
    judge = [{"model": c, "dataset": a, "line": judge_line(u) + (f"; {lines[(c, a)]}" if (c, a) in lines else "")}
             for (c, a), u in getattr(view, "judge_usage", {}).items()]
    return {"time": view.time, "run": root.resolve().name, "models": columns, "rows": rows, "groups": groups_out,
            "datasets": datasets, "gold": gold, "incomplete": marked, "heatmaps": heatmaps, "judge": judge,
            "pairwise": pairwise}


def needle_heatmaps(view: Any, stats: Any) -> list[dict[str, Any]]:
    """NeedleBench's depth × length grids of the leaderboard's datasets: one per model and kind.

    The depth and length of each cell are read from the dataset abbrs (see
    :mod:`assay.summarize.needle_grid`), the value from the leaderboard's
    scores; each cell has ``v`` (``None``: no value), ``lo``/``hi`` when its
    result has an interval, and ``tip``: model, kind, depth, length, the value
    in full, its interval or why it has none, the result it came from.
    """
    from assay.summarize.needle_grid import needle_grids

    out = []
    for grid in needle_grids(view.scores, view.dataset_abbrs, view.models):
        rows = []
        for i, depth in enumerate(grid.depths):
            cells = []
            for j, length in enumerate(grid.lengths):
                value = grid.matrix[i][j]
                where = f"{grid.model} · {grid.label} · depth {depth:g}% · length {length:,}"
                cell: dict[str, Any] = {"v": value}
                if value is None:
                    cell["tip"] = f"{where}: no value"
                    cells.append(cell)
                    continue
                abbr, metric = grid.cells[(depth, length)]
                tip = [f"{where} = {_exact(value)}"]
                stat = stats.cell(grid.model, abbr, metric) if stats is not None else None
                if stat is not None and stat.has_interval:
                    cell["lo"], cell["hi"] = stat.low, stat.high
                    tip.append(f"95% interval [{stat.low:.2f}, {stat.high:.2f}]: {stat.describe()}")
                else:
                    tip.append("no interval: no statistics for this cell")
                tip.append(f"from {abbr} · {metric}")
                cell["tip"] = "\n".join(tip)
                cells.append(cell)
            rows.append(cells)
        out.append({"model": grid.model, "kind": grid.kind, "label": grid.label, "depths": grid.depths,
                    "lengths": grid.lengths, "overall": grid.overall, "cells": rows})
    return out


def _exact(value: float) -> str:
    """A value as the summary ``.json`` holds it: every digit, the shortest text that reads back the same.

    >>> _exact(64.16666666666667), _exact(50), _exact(92.5)
    ('64.16666666666667', '50.0', '92.5')
    """
    return repr(float(value))


def _mark_text(mark: dict[str, Any]) -> str:
    """One mark as the report says it: ``'unjudged: 12 samples — 12 of 23 judge requests failed'``.

    >>> _mark_text({'kind': 'unjudged', 'count': 12, 'detail': '12 of 23 judge requests failed'})
    'unjudged: 12 samples — 12 of 23 judge requests failed'
    >>> _mark_text({'kind': 'changed', 'count': None, 'detail': 'edited'})
    'changed — edited'
    """
    count = mark.get("count")
    text = str(mark.get("kind") or "incomplete")
    if isinstance(count, int) and not isinstance(count, bool):
        text += f": {count:,} sample{'' if count == 1 else 's'}"
    detail = mark.get("detail")
    return f"{text} — {detail}" if detail else text


def _payload(value: Any) -> bytes:
    """``value`` as compact JSON for a ``<script type="application/json">`` element.

    Every ``<`` is written as ``\\u003c``, so that no text in the data can
    close the element or open a comment, and the element's content stays plain
    JSON.  orjson writes it; the standard library takes over for what orjson
    refuses (a lone surrogate, written as an escape, or an integer beyond 64 bits).

    >>> _payload({'t': ['</script>', 'é'], 'ok': [0.5, None]})
    b'{"t":["\\\\u003c/script>","\\xc3\\xa9"],"ok":[0.5,null]}'
    """
    try:
        data = orjson.dumps(value)
    except TypeError:
        data = json.dumps(value, separators=(",", ":")).encode("ascii")
    return data.replace(b"<", b"\\u003c")


def _asset(name: str) -> str:
    return resources.files("assay.report").joinpath(name).read_text(encoding="utf-8")


def _cell_html(cell: dict[str, Any], dataset: str = "", model: str = "") -> str:
    tip = html.escape(str(cell.get("tip", "")), quote=True)
    v = cell.get("v")
    if v is None:
        return f'<td class="miss" title="{tip}">-</td>'
    parts = [f'<span class="v" data-value="{_exact(v)}">{v:.2f}</span>']
    if "lo" in cell:
        parts.append(f'<span class="ci">[{cell["lo"]:.2f}, {cell["hi"]:.2f}]</span>')
    if cell.get("marks"):
        counts = [m["count"] for m in cell["marks"] if isinstance(m.get("count"), int)]
        kinds = ", ".join(dict.fromkeys(str(m.get("kind")) for m in cell["marks"]))
        figure = f" {sum(counts):,}" if counts else ""
        parts.append(f'<span class="mark" title="{html.escape(kinds, quote=True)}">*{html.escape(kinds)}{figure}</span>')
    if cell.get("gold"):
        parts.append('<span class="gold" title="references from the prediction files\' gold">ᵍ</span>')
    if cell.get("u"):
        bounds = f" {cell['blo']:.1f}–{cell['bhi']:.1f}" if "blo" in cell else ""
        parts.append(f'<span class="unsc">⚠{cell["u"]}{bounds}</span>')
    if cell.get("audit"):
        note = html.escape(cell["audit"])
        if cell.get("audit_differ"):
            # one click to the differing samples in the browser
            note = (f'<a href="#samples" class="audit-link" data-dataset="{html.escape(dataset, quote=True)}" '
                    f'data-model="{html.escape(model, quote=True)}">{note}</a>')
        parts.append(f'<div class="audit">{note}</div>')
    return f'<td class="num" title="{tip}">{"".join(parts)}</td>'


def _marks_note(marked: list[dict[str, Any]]) -> list[str]:
    """The note listing every marked value: model, dataset, kind, samples affected, why."""
    if not marked:
        return []
    esc = html.escape
    items = "".join(f"<li>{esc(str(m['model']))} / {esc(str(m['dataset']))}: {esc(_mark_text(m))}</li>" for m in marked)
    return [
        '<div class="note marks-note" id="incomplete"><p>* Values computed from fewer samples than they claim, with '
        f"samples that could not be scored, from a result changed after it was computed, or from a result a failed run "
        f"did not re-score:</p><ul>{items}</ul></div>"
    ]


def _judge_note(judge: list[dict[str, Any]]) -> list[str]:
    """The note with one line per judged result: calls, cache hits, failures, tokens, time and cost."""
    if not judge:
        return []
    esc = html.escape
    items = "".join(f"<li>{esc(str(j['model']))} / {esc(str(j['dataset']))}: {esc(str(j['line']))}</li>" for j in judge)
    return [
        '<div class="note judge-note" id="judge-usage"><p>LLM judge calls of this run\'s results (cached replies '
        f"were paid for by an earlier run; unknown tokens or cost are shown as such):</p><ul>{items}</ul></div>"
    ]


def pairwise_line(entry: dict[str, Any]) -> str:
    """One pairwise result as the report says it: win rate and interval, Elo, position bias, unparsed replies.

    >>> pairwise_line({'base': 'gpt4-0314', 'win_rate': 61.5, 'win_rate_interval': [52.25, 70.0], 'samples': 48,
    ...                'unparsed': 2, 'position_bias': {'pairs': 20, 'flipped': 3, 'rate': 0.15}})
    'win rate 61.50 [52.25, 70.00] against gpt4-0314; position bias: 3 of 20 questions flip when the answers swap (15.0%); 2 of 48 judge replies unparsed'
    """
    parts = []
    rate, interval = entry.get("win_rate"), entry.get("win_rate_interval")
    if isinstance(rate, (int, float)):
        text = f"win rate {rate:.2f}"
        if isinstance(interval, list) and len(interval) == 2:
            text += f" [{interval[0]:.2f}, {interval[1]:.2f}]"
        parts.append(f"{text} against {entry.get('base')}")
    elo, elo_interval = entry.get("elo"), entry.get("elo_interval")
    if isinstance(elo, (int, float)):
        text = f"Elo {elo:.1f}"
        if isinstance(elo_interval, list) and len(elo_interval) == 2:
            text += f" [{elo_interval[0]:.1f}, {elo_interval[1]:.1f}]"
        parts.append(text)
    bias = entry.get("position_bias")
    if isinstance(bias, dict) and bias.get("pairs"):
        parts.append(f"position bias: {bias.get('flipped')} of {bias.get('pairs')} questions flip when the answers swap "
                     f"({100 * float(bias.get('rate') or 0):.1f}%)")
    parts.append(f"{entry.get('unparsed', 0)} of {entry.get('samples', 0)} judge replies unparsed")
    return "; ".join(parts)


def _pairwise_note(pairwise: list[dict[str, Any]]) -> list[str]:
    """The note with one line per pairwise judged model: its win rate's interval, position bias, unparsed replies."""
    if not pairwise:
        return []
    esc = html.escape
    items = "".join(
        f"<li>{esc(str(p['model']))} / {esc(str(p['dataset']))} (judge {esc(str(p['judge']))}): {esc(str(p['line']))}</li>"
        for p in pairwise
    )
    return [
        '<div class="note pairwise-note" id="pairwise"><p>Pairwise judgements (assay\'s statistics beside the official '
        f"numbers; seeded bootstrap intervals):</p><ul>{items}</ul></div>"
    ]


def _gold_note(gold: list[dict[str, Any]]) -> list[str]:
    """The note naming the results whose references came from the prediction files' ``gold``."""
    if not gold:
        return []
    esc = html.escape
    items = "".join(f"<li>{esc(g['model'])} / {esc(g['dataset'])}: {esc(g['reason'])}</li>" for g in gold)
    return [
        '<div class="note gold-note" id="gold-references"><p>ᵍ References taken from the prediction files\' '
        f"<code>gold</code> field (the test set was not read):</p><ul>{items}</ul></div>"
    ]


def _chart_svg(group: dict[str, Any], models: list[str]) -> str:
    cats = group["categories"]
    values = [p.get("hi", p.get("v")) for c in cats for p in c["points"] if p.get("v") is not None]
    lows = [p.get("lo", p.get("v")) for c in cats for p in c["points"] if p.get("v") is not None]
    if not values:
        return '<p class="note">no values</p>'
    top = max(max(values), 0.0)
    bottom = min(min(lows), 0.0)
    span = (top - bottom) or 1.0
    bar, gap, height, left, pad_top, label_h = 16, 14, 180, 96, 10, 90
    width = left + len(cats) * (len(models) * bar + gap) + 10
    y = lambda v: pad_top + (top - v) / span * height  # noqa: E731
    out = [f'<svg width="{width}" height="{pad_top + height + label_h}" '
           f'role="img" aria-label="{html.escape(group["name"])}">']
    for k in range(5):
        t = bottom + span * k / 4
        out.append(f'<line x1="{left}" x2="{width}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#eaeef2"/>'
                   f'<text x="{left - 4}" y="{y(t) + 4:.1f}" font-size="10" text-anchor="end">{t:.0f}</text>')
    x = left + gap / 2
    for cat in cats:
        for m, p in enumerate(cat["points"]):
            v = p.get("v")
            color = _PALETTE[m % len(_PALETTE)]
            if v is not None:
                y0, y1 = y(max(v, 0.0)), y(min(v, 0.0))
                tip = f"{models[m]}: {v:.2f}" + (f" [{p['lo']:.2f}, {p['hi']:.2f}]" if "lo" in p else " (no interval)")
                out.append(f'<rect x="{x:.1f}" y="{y0:.1f}" width="{bar - 2}" height="{max(y1 - y0, 0.5):.1f}" '
                           f'fill="{color}" fill-opacity=".75"><title>{html.escape(tip)}</title></rect>')
                if "lo" in p:
                    cx = x + (bar - 2) / 2
                    out.append(f'<path d="M{cx:.1f} {y(p["lo"]):.1f}V{y(p["hi"]):.1f}M{cx - 4:.1f} {y(p["lo"]):.1f}'
                               f'h8M{cx - 4:.1f} {y(p["hi"]):.1f}h8" stroke="#1d232a" stroke-width="1.2" fill="none"/>')
            x += bar
        lx = x - len(models) * bar / 2
        ly = pad_top + height + 8
        out.append(f'<text x="{lx:.1f}" y="{ly:.1f}" font-size="10" text-anchor="end" '
                   f'transform="rotate(-40 {lx:.1f} {ly:.1f})">{html.escape(cat["label"][:40])}</text>')
        x += gap
    out.append("</svg>")
    return "".join(out)


def _heat_color(value: float) -> str:
    """The background of a heatmap cell: red at 0, yellow at 50, green at 100.

    >>> _heat_color(0), _heat_color(50), _heat_color(100)
    ('#d7263d', '#f2c14e', '#2a9d8f')
    """
    stops = ((0.0, (0xD7, 0x26, 0x3D)), (50.0, (0xF2, 0xC1, 0x4E)), (100.0, (0x2A, 0x9D, 0x8F)))
    v = min(max(value, 0.0), 100.0)
    (a, ca), (b, cb) = (stops[0], stops[1]) if v <= 50.0 else (stops[1], stops[2])
    t = (v - a) / (b - a)
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb))


def _heatmap_html(grid: dict[str, Any]) -> str:
    esc = html.escape
    overall = "-" if grid.get("overall") is None else f"{grid['overall']:.2f}"
    head = "".join(f"<th>{n // 1000}k</th>" if n >= 1000 else f"<th>{n}</th>" for n in grid["lengths"])
    out = [f'<div class="heatmap" data-model="{esc(grid["model"], quote=True)}" data-kind="{esc(grid["kind"], quote=True)}">'
           f'<h3>{esc(grid["model"])} · {esc(grid["label"])} <span class="note">overall {overall}</span></h3>'
           f'<table class="heat"><thead><tr><th>depth % \\ length</th>{head}</tr></thead><tbody>']
    for depth, row in zip(grid["depths"], grid["cells"]):
        tds = []
        for j, cell in enumerate(row):
            tip = esc(cell["tip"], quote=True)
            v = cell.get("v")
            if v is None:
                tds.append(f'<td class="hc miss" title="{tip}">-</td>')
                continue
            ci = f' data-lo="{_exact(cell["lo"])}" data-hi="{_exact(cell["hi"])}"' if "lo" in cell else ""
            tds.append(f'<td class="hc" style="background:{_heat_color(v)}" title="{tip}" data-value="{_exact(v)}" '
                       f'data-length="{grid["lengths"][j]}" data-depth="{depth:g}"{ci}>{v:.0f}</td>')
        out.append(f"<tr><th>{depth:g}</th>{''.join(tds)}</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def render_report(data: dict[str, Any]) -> str:
    """The report as one HTML document (see :func:`build_report_data` for ``data``)."""
    return _render_utf8(data).decode("utf-8")


def _render_utf8(data: dict[str, Any]) -> bytes:
    """The UTF-8 bytes of :func:`render_report`, the sample data written as bytes from the start."""
    before, after = _document(data)
    script = _DATA_OPEN.encode() + _payload({"datasets": data["datasets"]}) + b"</script>"
    # a lone surrogate in a name of the config has no UTF-8 bytes: it is shown as "?"
    return b"\n".join([*(p.encode("utf-8", "replace") for p in before), script, *(p.encode("utf-8", "replace") for p in after)])


_DATA_OPEN = '<script type="application/json" id="assay-data">'


def _document(data: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The lines of the document before and after the sample data's ``<script>``."""
    models = data["models"]
    esc = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>assay report {esc(data.get('time') or data.get('run') or '')}</title>",
        f"<style>{_asset('report.css')}</style></head><body>",
        f"<h1>assay report</h1><div class=\"meta\">run {esc(str(data.get('run', '')))}"
        + (f" · summary {esc(data['time'])}" if data.get("time") else "")
        + f" · {len(models)} models · {len(data['datasets'])} datasets with samples</div>",
        "<h2>Leaderboard</h2>",
        '<p class="note">Values with their 95% interval in brackets; ⚠ counts predictions that could not be '
        "extracted, judged or executed, with the metric's range if all of them had been wrong … right. "
        "Hover a cell for its value in full, how its interval was computed, or why it is “-”. A line under a value reports the "
        "extraction audit: how many replies the corrected counterpart of an OpenCompass postprocessor reads "
        "differently, and the value with the correction (the official value stays); click it for those samples.</p>",
        *_marks_note(data.get("incomplete") or []),
        *_gold_note(data.get("gold") or []),
        *_judge_note(data.get("judge") or []),
        *_pairwise_note(data.get("pairwise") or []),
        '<table class="board" id="leaderboard"><thead><tr><th>dataset</th><th>version</th><th>metric</th>'
        "<th>mode</th>" + "".join(f"<th>{esc(m)}</th>" for m in models) + "</tr></thead><tbody>",
    ]
    for row in data["rows"]:
        cls = ' class="sep"' if row["placeholder"] else ""
        parts.append(
            f"<tr{cls}><td>{esc(row['dataset'])}</td><td>{esc(str(row['version']))}</td><td>{esc(row['metric'])}</td>"
            f"<td>{esc(str(row['mode']))}</td>"
            + "".join(_cell_html(c, row["dataset"], m) for c, m in zip(row["cells"], models)) + "</tr>"
        )
    parts.append("</tbody></table>")
    if data["groups"]:
        legend = "".join(f'<span><i style="background:{_PALETTE[i % len(_PALETTE)]}"></i>{esc(m)}</span>'
                         for i, m in enumerate(models))
        parts.append(f'<h2>Summary groups</h2><div class="legend">{legend}</div><div class="charts">')
        for g in data["groups"]:
            parts.append(f'<div class="chart" data-group="{esc(g["name"])}"><h3>{esc(g["name"])} '
                         f'<span class="note">({esc(g["metric"])}, {esc(g["aggregation"])}; bars: 95% interval)</span>'
                         f"</h3>{_chart_svg(g, models)}</div>")
        parts.append("</div>")
    if data.get("heatmaps"):
        parts.append('<h2 id="needle-heatmaps">NeedleBench: depth × length</h2><p class="note">One grid per model and '
                     "kind of NeedleBench dataset, depth and length read from the dataset names; hover a cell for its "
                     "value in full and its 95% interval.</p><div class=\"heatmaps\">")
        parts.extend(_heatmap_html(g) for g in data["heatmaps"])
        parts.append("</div>")
    if data["datasets"]:
        parts.append('<h2 id="samples">Samples</h2><p class="note">Open a dataset to browse its samples; “right” means '
                     "correct in at least half of the runs.</p>")
    relations = [("any", "any relation"), ("a_right_b_wrong", "A right, B wrong"), ("a_wrong_b_right", "A wrong, B right"),
                 ("both_right", "both right"), ("both_wrong", "both wrong"), ("a_better", "A scores higher"),
                 ("b_better", "B scores higher"), ("differ", "A and B differ")]
    for i, ds in enumerate(data["datasets"]):
        rel = relations + ([("audit", "A read differently by the corrected extractor")] if ds.get("audit") else [])
        options = "".join(f'<option value="{v}">{esc(label)}</option>' for v, label in rel)
        heads = "".join(f"<th>{esc(m)}</th>" for m in ds["models"])
        parts.append(
            f'<details class="ds" data-index="{i}" data-dataset="{esc(ds["abbr"])}"><summary>{esc(ds["abbr"])} '
            f'<span class="note">({ds["n"]} samples)</span></summary>'
            '<div class="controls"><label>A <select class="sel-a"></select></label>'
            '<label>B <select class="sel-b"></select></label>'
            f'<select class="sel-rel">{options}</select>'
            '<input type="search" class="search" placeholder="search text">'
            '<span><b class="count">0</b> matching</span>'
            '<span class="pager"><button type="button" class="prev">‹ prev</button><span class="page-info"></span>'
            '<button type="button" class="next">next ›</button></span></div>'
            f'<table class="samples"><thead><tr><th style="width:9em">sample</th><th>reference</th>{heads}</tr></thead>'
            "<tbody></tbody></table></details>"
        )
    return parts, [f"<script>{_asset('report.js')}</script></body></html>"]


def write_html_report(
    run_dir: str | os.PathLike[str],
    summary: Any,
    time_str: str,
    *,
    stats: Any = None,
    max_text: int = SAMPLE_TEXT,
    snapshot: Any = None,
) -> Path:
    """Write ``<run_dir>/summary/summary_<time_str>.html`` (atomically) and return its path.

    ``summary`` is what the summarizer's ``summarize()`` returned, a leaderboard,
    the parsed summary ``.json``, or ``None`` (see :func:`build_report_data`).
    """
    from assay.fileio import atomic_write_bytes

    data = build_report_data(run_dir, summary, stats=stats, max_text=max_text, snapshot=snapshot)
    from assay.rundir.layout import RunDir

    path = RunDir(Path(run_dir)).summary_stem(time_str).with_suffix(".html")
    atomic_write_bytes(path, _render_utf8(data))
    logger.info("report written to %s", path)
    return path
