"""The report's pictures of a ranking, as inline SVG: a forest plot, a dataset × model heatmap, the paired matrix.

Each function takes the JSON :func:`assay.rundir.ranking.run_ranking`
returns (or one ranking of it) and returns one ``<svg>`` element as a string:
no script, no external resource, black text on white, so that it prints.
Every picture has a ``<title>`` and a ``<desc>`` (``role="img"``,
``aria-labelledby``), every mark a ``<title>`` of its own (shown on hover,
read by screen readers), and colours are never the only carrier of meaning
(the matrix writes W, T or L in each cell; the heatmap's values are in each
cell's title).  Label columns are as wide as their longest label at a
generous estimate of its width, so that no text is clipped; a label longer
than :data:`MAX_LABEL` characters is shortened with "…" (its full text in
its title).  ``ident`` prefixes the element ids, so that several pictures can
share a page.

Sizes are bounded: the heatmap shows at most ``max_rows`` datasets (default
60) and ``max_models`` models (default 100).  With more datasets it keeps
the ones that tell the models apart most — the largest standard deviation of
the models' ranks within the dataset, which does not depend on the metric's
scale — in the rankings' order, and says so in its caption and description;
with more models it keeps the best ones of the ranking it is ordered by.

Example:
    >>> ranking = {'metric': 'accuracy', 'models': [
    ...     {'model': 'a', 'value': 80.0, 'low': 70.0, 'high': 88.0, 'rank': 1, 'rank_low': 1, 'rank_high': 1, 'tier': 1},
    ...     {'model': 'b', 'value': 60.0, 'low': 50.0, 'high': 70.0, 'rank': 2, 'rank_low': 2, 'rank_high': 2, 'tier': 2}]}
    >>> svg = forest_plot(ranking, 'mmlu')
    >>> svg.startswith('<svg') and '<title id="forest-title">' in svg
    True
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

__all__ = [
    "LOSS",
    "MAX_LABEL",
    "TIE",
    "WIN",
    "forest_plot",
    "heatmap",
    "pair_matrix",
    "ranking_heatmap",
    "text_width",
]

#: The longest label drawn in full, in characters.
MAX_LABEL = 48
#: The paired matrix's colours (colour-blind safe: blue / grey / orange), and its letters.
WIN, TIE, LOSS, UNTESTED = "#2166ac", "#bdbdbd", "#e66101", "#ffffff"
_LETTER = {"win": "W", "tie": "T", "loss": "L"}
_FILL = {"win": WIN, "tie": TIE, "loss": LOSS}
#: The heatmap's scale (viridis, sampled), from the row's lowest value to its highest.
_VIRIDIS = ("#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58", "#b5de2b",
            "#fde725")
_FONT = 12


def text_width(text: str, size: float = _FONT) -> float:
    """A generous estimate of the width of ``text`` in pixels at font ``size`` (wide characters count double).

    >>> text_width('abc') < text_width('ABC') < text_width('模型名')
    True
    """
    total = 0.0
    for ch in text:
        if unicodedata.east_asian_width(ch) in ("W", "F"):
            total += 1.0
        elif ch.isupper() or ch in "mwMW@%":
            total += 0.75
        else:
            total += 0.6
    return total * size


def _short(text: str, limit: int = MAX_LABEL) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _fmt(value: float | None) -> str:
    if value is None or not math.isfinite(value):
        return "–"
    return f"{value:.2f}"


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering ``[low, high]``."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return [0.0]
    if high <= low:
        return [low]
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    ticks = []
    x = first
    while x <= high + step * 1e-9:
        ticks.append(round(x, 10))
        x += step
    if ticks[-1] < high:
        ticks.append(round(x, 10))
    return ticks


def _svg_open(ident: str, width: float, height: float, title: str, desc: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="{ident}-title {ident}-desc" '
        f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'font-family="sans-serif" font-size="{_FONT}" class="assay-picture">',
        f'<title id="{ident}-title">{escape(title)}</title>',
        f'<desc id="{ident}-desc">{escape(desc)}</desc>',
        '<rect width="100%" height="100%" fill="#ffffff"/>',
    ]


def forest_plot(ranking: Mapping[str, Any], name: str, *, ident: str = "forest", width: int = 360,
                max_models: int | None = None) -> str:
    """The forest plot of one ranking (one entry of ``run_ranking(...)["rankings"]``): per model, best first,
    its rank interval, its name, its value with its interval, and the value.

    Bands of alternating shade mark the tiers (models whose rank intervals
    overlap, see :mod:`assay.stats`); a model whose rank interval rests on
    cells without per-sample values is marked ``*``, its note in its title.
    ``max_models`` keeps the best ones (said in the description).
    """
    models = list(ranking.get("models") or [])
    total = len(models)
    if max_models is not None and total > max_models:
        models = models[:max_models]
    metric = str(ranking.get("metric", ""))
    row_h, top, bottom = 20, 34, 44
    labels = [_short(str(m["model"])) + (" *" if m.get("note") else "") for m in models]
    rank_texts = [f'{m["rank_low"]}–{m["rank_high"]}' if m["rank_low"] != m["rank_high"] else str(m["rank_low"])
                  for m in models]
    values = [_fmt(m.get("value")) for m in models]
    rank_w = max([text_width("rank"), *(text_width(t) for t in rank_texts)]) + 12
    label_w = max([text_width("model"), *(text_width(t) for t in labels)]) + 12
    value_w = max([text_width("value"), *(text_width(t) for t in values)]) + 12
    left = 8 + rank_w + label_w
    plot_w = max(120, width)
    total_w = left + plot_w + 12 + value_w + 8
    height = top + row_h * max(1, len(models)) + bottom
    points = [x for m in models for x in (m.get("low"), m.get("high"), m.get("value")) if x is not None
              and math.isfinite(x)]
    lo, hi = (min(points), max(points)) if points else (0.0, 1.0)
    ticks = _ticks(lo, hi)
    lo, hi = min(lo, ticks[0]), max(hi, ticks[-1])
    span = (hi - lo) or 1.0

    def xpos(v: float) -> float:
        return left + (v - lo) / span * plot_w

    shown = f"the best {len(models)} of {total} models" if len(models) < total else f"{total} models"
    desc = (f"{shown} ranked by {name} ({metric}), best first: each model's value with its interval "
            f"(a line) and its rank interval (left column); shaded bands group tiers of models whose rank "
            f"intervals overlap; * marks a model whose interval rests on cells without per-sample values.")
    out = _svg_open(ident, total_w, height, f"{name}: {metric} with intervals, ranked", desc)
    out.append(f'<text x="{8:.1f}" y="{top - 14}" font-weight="bold">rank</text>'
               f'<text x="{8 + rank_w:.1f}" y="{top - 14}" font-weight="bold">model</text>'
               f'<text x="{total_w - 8:.1f}" y="{top - 14}" font-weight="bold" text-anchor="end">value</text>')
    tier_of = [m.get("tier") for m in models]
    start = 0
    shade = 0
    for i in range(1, len(models) + 1):
        if i == len(models) or tier_of[i] != tier_of[start]:
            if shade % 2 == 0:
                out.append(f'<rect x="4" y="{top + start * row_h}" width="{total_w - 8:.1f}" '
                           f'height="{(i - start) * row_h}" fill="#f0f0f0"><title>tier {tier_of[start]}</title></rect>')
            shade += 1
            start = i
    for t in ticks:
        x = xpos(t)
        out.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{height - bottom + 4}" stroke="#cccccc"/>'
                   f'<text x="{x:.1f}" y="{height - bottom + 18}" text-anchor="middle">{t:g}</text>')
    out.append(f'<text x="{left + plot_w / 2:.1f}" y="{height - 8}" text-anchor="middle">{escape(metric)}</text>')
    for i, (m, label, rank_text, value) in enumerate(zip(models, labels, rank_texts, values)):
        y = top + i * row_h + row_h / 2
        tip = (f'{m["model"]}: {value} [{_fmt(m.get("low"))}, {_fmt(m.get("high"))}], rank {m["rank"]} '
               f'(could be {rank_text})' + (f' — {m["note"]}' if m.get("note") else ""))
        out.append(f'<g class="forest-row"><title>{escape(tip)}</title>'
                   f'<text x="8" y="{y + 4:.1f}">{escape(rank_text)}</text>'
                   f'<text x="{8 + rank_w:.1f}" y="{y + 4:.1f}">{escape(label)}</text>')
        low, high, v = m.get("low"), m.get("high"), m.get("value")
        if low is not None and high is not None:
            out.append(f'<line x1="{xpos(low):.1f}" y1="{y:.1f}" x2="{xpos(high):.1f}" y2="{y:.1f}" '
                       f'stroke="#222222" stroke-width="2"/>')
        if v is not None and math.isfinite(v):
            out.append(f'<circle cx="{xpos(v):.1f}" cy="{y:.1f}" r="4" fill="#2166ac" stroke="#222222"/>')
        out.append(f'<text x="{total_w - 8:.1f}" y="{y + 4:.1f}" text-anchor="end">{escape(value)}</text></g>')
    out.append("</svg>")
    return "".join(out)


def _colour(t: float) -> str:
    """The scale's colour at ``t`` in [0, 1]."""
    t = min(1.0, max(0.0, t))
    return _VIRIDIS[min(len(_VIRIDIS) - 1, int(t * len(_VIRIDIS)))]


def _ranks_of(values: Sequence[float | None]) -> list[float]:
    """Average ranks of the known values (1 = lowest)."""
    known = sorted((v, i) for i, v in enumerate(values) if v is not None and math.isfinite(v))
    out = [math.nan] * len(values)
    i = 0
    while i < len(known):
        j = i
        while j + 1 < len(known) and known[j + 1][0] == known[i][0]:
            j += 1
        for k in range(i, j + 1):
            out[known[k][1]] = (i + j) / 2 + 1
        i = j + 1
    return out


def heatmap(models: Sequence[str], rows: Sequence[tuple[str, Mapping[str, float | None]]], *, title: str,
            ident: str = "heatmap", max_rows: int = 60, max_models: int = 100, cell: int = 12) -> str:
    """A heatmap of ``rows`` (label, model → value) × ``models``, in the order given.

    Each row is coloured from its own lowest value (dark) to its highest
    (light), since the rows' metrics differ in scale; each cell's title gives
    the value.  More than ``max_rows`` rows: those whose models' ranks spread
    most (the standard deviation of the models' ranks in the row) are kept, in
    their order; more than ``max_models`` models: the first ones.  The caption
    says what was left out.
    """
    total_rows, total_models = len(rows), len(models)
    models = list(models)[:max_models]
    kept = list(rows)
    if total_rows > max_rows:
        spread = []
        for k, (_, per) in enumerate(rows):
            ranks = [r for r in _ranks_of([per.get(m) for m in models]) if not math.isnan(r)]
            mean = sum(ranks) / len(ranks) if ranks else 0.0
            spread.append((-(sum((r - mean) ** 2 for r in ranks) / len(ranks)) if ranks else 0.0, k))
        chosen = sorted(k for _, k in sorted(spread)[:max_rows])
        kept = [rows[k] for k in chosen]
    caption_parts = []
    if len(kept) < total_rows:
        caption_parts.append(f"{len(kept)} of {total_rows} rows shown: those whose models' ranks differ most")
    if len(models) < total_models:
        caption_parts.append(f"the first {len(models)} of {total_models} models shown")
    caption = "; ".join(caption_parts)
    row_labels = [_short(label) for label, _ in kept]
    col_labels = [_short(m, 32) for m in models]
    label_w = max([0.0, *(text_width(t) for t in row_labels)]) + 10
    col_h = max([0.0, *(text_width(t) for t in col_labels)]) * math.sin(math.radians(60)) + 14
    legend_h = 40 + (18 if caption else 0)
    left, top = 8 + label_w, 8 + col_h
    grid_w, grid_h = cell * len(models), cell * len(kept)
    overhang = max([0.0, *(text_width(t) for t in col_labels)]) * math.cos(math.radians(60))  # rotated labels
    width = max(left + grid_w + 8 + cell + overhang, 8 + text_width(caption) + 8, 8 + 280)
    height = top + grid_h + legend_h
    desc = (f"{len(kept)} rows × {len(models)} models; each row coloured from its lowest value (dark) to its "
            f"highest (light); the value of each cell is in its title." + (f" {caption}." if caption else ""))
    out = _svg_open(ident, width, height, title, desc)
    for j, label in enumerate(col_labels):
        x = left + j * cell + cell / 2 + 4
        out.append(f'<text class="col-label" transform="translate({x:.1f},{top - 6:.1f}) rotate(-60)">'
                   f'{escape(label)}<title>{escape(models[j])}</title></text>')
    for i, ((label, per), short) in enumerate(zip(kept, row_labels)):
        y = top + i * cell
        out.append(f'<text class="row-label" x="{left - 6:.1f}" y="{y + cell - 2:.1f}" text-anchor="end" '
                   f'font-size="{min(_FONT, cell)}">{escape(short)}<title>{escape(label)}</title></text>')
        values = [per.get(m) for m in models]
        known = [v for v in values if v is not None and math.isfinite(v)]
        lo, hi = (min(known), max(known)) if known else (0.0, 0.0)
        for j, v in enumerate(values):
            x = left + j * cell
            if v is None or not math.isfinite(v):
                fill, tip = "#eeeeee", f"{models[j]} / {label}: no value"
            else:
                fill = _colour((v - lo) / (hi - lo) if hi > lo else 0.5)
                tip = f"{models[j]} / {label}: {v:.2f}"
            out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}">'
                       f'<title>{escape(tip)}</title></rect>')
    y = top + grid_h + 14
    steps = len(_VIRIDIS)
    for k, c in enumerate(_VIRIDIS):
        out.append(f'<rect x="{8 + k * 16}" y="{y}" width="16" height="10" fill="{c}"/>')
    out.append(f'<text x="8" y="{y + 24}">row\'s lowest</text>'
               f'<text x="{8 + steps * 16:.1f}" y="{y + 24}" text-anchor="end">row\'s highest</text>'
               f'<text x="{8 + steps * 16 + 10:.1f}" y="{y + 9}">no value:</text>'
               f'<rect x="{8 + steps * 16 + 16 + text_width("no value:"):.1f}" y="{y}" width="10" height="10" '
               f'fill="#eeeeee" stroke="#999999"/>')
    if caption:
        out.append(f'<text x="8" y="{y + 42}" class="caption">{escape(caption)}</text>')
    out.append("</svg>")
    return "".join(out)


def ranking_heatmap(data: Mapping[str, Any], *, by: str | None = None, ident: str = "heatmap",
                    max_rows: int = 60, max_models: int = 100) -> str:
    """The dataset × model heatmap of ``run_ranking``'s JSON: the datasets' rankings as rows (in their
    order), the models as columns in the order of the ranking ``by`` (default: the data's default)."""
    rankings: Mapping[str, Any] = data.get("rankings") or {}
    by = by if by is not None else data.get("default")
    order_by = rankings.get(by) if by is not None else None
    models = [m["model"] for m in (order_by or {}).get("models", [])]
    seen = set(models)
    rows: list[tuple[str, dict[str, float | None]]] = []
    for abbr, ranking in rankings.items():
        if ranking.get("kind", "dataset") != "dataset":
            continue
        per = {m["model"]: m.get("value") for m in ranking.get("models", [])}
        for model in per:
            if model not in seen:  # a model the ordering ranking left out: last
                seen.add(model)
                models.append(model)
        rows.append((f"{abbr} ({ranking.get('metric', '')})", per))
    title = f"values of every dataset, models in the order of {by}" if by else "values of every dataset"
    return heatmap(models, rows, title=title, ident=ident, max_rows=max_rows, max_models=max_models)


def pair_matrix(pairs: Mapping[str, Any], *, ident: str = "pairs", cell: int = 28) -> str:
    """The paired comparison matrix of ``run_ranking(...)["pairs"]``: row model against column model,
    W (win), T (tie) or L (loss) on its colour, with a legend; the Holm-corrected p and the difference in
    each cell's title."""
    models = [str(m) for m in pairs.get("models") or []]
    cells = pairs.get("cells") or []
    labels = [_short(m, 32) for m in models]
    label_w = max([0.0, *(text_width(t) for t in labels)]) + 10
    col_h = max([0.0, *(text_width(t) for t in labels)]) * math.sin(math.radians(60)) + 14
    left, top = 8 + label_w, 8 + col_h
    n = len(models)
    legend = [("win", "row model significantly better"), ("tie", "no significant difference"),
              ("loss", "row model significantly worse")]
    confidence = pairs.get("confidence")
    level = f"{1 - confidence:.2g}" if isinstance(confidence, (int, float)) else "0.05"
    footnote = f"Holm-corrected across the pairs, at {level}"
    legend_w = max([*(text_width(t) + 32 for _, t in legend), text_width(footnote) + 8])
    overhang = max([0.0, *(text_width(t) for t in labels)]) * math.cos(math.radians(60))  # rotated labels
    width = max(left + n * cell + 8 + overhang, 8 + legend_w)
    height = top + n * cell + 22 * len(legend) + 34
    by, metric = pairs.get("by", ""), pairs.get("metric", "")
    desc = (f"paired comparisons of the top {n} models by {by} ({metric}): each cell reads row model against "
            f"column model — W a significant win, T no significant difference, L a significant loss, at "
            f"{level} after Holm's correction across the pairs; – not testable.")
    out = _svg_open(ident, width, height, f"paired comparisons by {by}", desc)
    for j, label in enumerate(labels):
        x = left + j * cell + cell / 2 + 4
        out.append(f'<text class="col-label" transform="translate({x:.1f},{top - 6:.1f}) rotate(-60)">'
                   f'{escape(label)}<title>{escape(models[j])}</title></text>')
    for i in range(n):
        y = top + i * cell
        out.append(f'<text class="row-label" x="{left - 6:.1f}" y="{y + cell / 2 + 4:.1f}" text-anchor="end">'
                   f'{escape(labels[i])}<title>{escape(models[i])}</title></text>')
        row = cells[i] if i < len(cells) else []
        for j in range(n):
            x = left + j * cell
            c = row[j] if j < len(row) else None
            if i == j:
                out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#ffffff" stroke="#999999"/>')
                continue
            if c is None:
                out.append(f'<g><title>{escape(models[i])} vs {escape(models[j])}: not testable</title>'
                           f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{UNTESTED}" stroke="#999999"/>'
                           f'<text x="{x + cell / 2:.1f}" y="{y + cell / 2 + 4:.1f}" text-anchor="middle">–</text></g>')
                continue
            result = str(c.get("result"))
            fill = _FILL.get(result, UNTESTED)
            ink = "#ffffff" if result in ("win", "loss") else "#000000"
            tip = (f"{models[i]} vs {models[j]}: {result}, difference {_fmt(c.get('delta'))}, "
                   f"Holm-corrected p {c.get('p', float('nan')):.3g}" + (f" ({c['test']})" if c.get("test") else ""))
            out.append(f'<g class="pair-{escape(result)}"><title>{escape(tip)}</title>'
                       f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="#ffffff"/>'
                       f'<text x="{x + cell / 2:.1f}" y="{y + cell / 2 + 4:.1f}" text-anchor="middle" fill="{ink}" '
                       f'font-weight="bold">{_LETTER.get(result, "?")}</text></g>')
    y = top + n * cell + 14
    for k, (result, text) in enumerate(legend):
        yy = y + k * 22
        ink = "#ffffff" if result in ("win", "loss") else "#000000"
        out.append(f'<g class="legend-{result}"><rect x="8" y="{yy}" width="18" height="18" fill="{_FILL[result]}"/>'
                   f'<text x="17" y="{yy + 13}" text-anchor="middle" fill="{ink}" font-weight="bold">'
                   f'{_LETTER[result]}</text><text x="32" y="{yy + 13}">{escape(text)}</text></g>')
    out.append(f'<text x="8" y="{y + 22 * len(legend) + 12}">{escape(footnote)}</text>')
    out.append("</svg>")
    return "".join(out)
