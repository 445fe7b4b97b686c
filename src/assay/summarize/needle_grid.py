"""NeedleBench's depth × length grids, read from the dataset abbrs and the results themselves.

A NeedleBench dataset abbr names where its needle was put:
``Length{length}Depth{depth}_{kind}`` (one depth per dataset: single-needle
retrieval ``origin_<lang>_<size>`` and multi-needle reasoning
``<n>needle_<lang>_<size>``, metric ``score``) or ``Length{length}_{kind}``
(multi-needle retrieval ``parallel_<lang>_<size>``, one metric ``Depth<d>`` per
depth).  :func:`needle_grids` lays a model's values of one kind out as a grid:
one row per depth, one column per length, each cell naming the result and
metric it came from, so that the report can show the cell's interval.

:func:`opencompass_plot_grids` computes the grids OpenCompass 0.5.4's
NeedleBench summarizers draw as heatmaps under ``summary/plots/`` (the kinds,
the file names and the "overall" grids that average several kinds), from the
same values; :func:`draw_grid` draws one as a PNG (matplotlib, imported when a
grid is drawn) with every cell's value written in it.

>>> values = {'m': {'Length1000Depth0_origin_en_4k': {'score': 90.0},
...                 'Length1000Depth50_origin_en_4k': {'score': 70.0},
...                 'Length2000Depth0_origin_en_4k': {'score': 80.0},
...                 'Length1000_parallel_en_4k': {'Depth0': 40.0, 'Depth50': 60.0, 'average_score': 50.0}}}
>>> grids = needle_grids(values, list(values['m']))
>>> [(g.kind, g.depths, g.lengths, g.matrix) for g in grids]
[('origin_en_4k', [0.0, 50.0], [1000, 2000], [[90.0, 80.0], [70.0, None]]), ('parallel_en_4k', [0.0, 50.0], [1000], [[40.0], [60.0]])]
>>> grids[0].label, grids[0].cells[(50.0, 1000)]
('Single-Needle-Retrieval-EN-4K', ('Length1000Depth50_origin_en_4k', 'score'))
"""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assay._dataclass import DataclassMethods
from assay.fileio import atomic_write_bytes

__all__ = [
    "MODEL_TITLES",
    "NeedleGrid",
    "draw_grid",
    "grid_image_size",
    "kind_label",
    "needle_grids",
    "opencompass_plot_grids",
    "read_grid_metadata",
]

#: The display names OpenCompass's NeedleBench plots give some model abbrs (their titles and file names).
MODEL_TITLES: dict[str, str] = {
    "llama-2-7b-chat-hf": "LLaMA-2-7B", "llama-2-13b-chat-hf": "LLaMA-2-13B", "llama-2-70b-chat-hf": "LLaMA-2-70B",
    "baichuan2-7b-chat-hf": "Baichuan2-7B", "baichuan2-13b-chat-hf": "Baichuan2-13B", "yi-6b-chat-hf": "Yi-6B",
    "yi-34b-chat-hf": "Yi-34B", "deepseek-67b-chat-hf": "DeepSeek-67B", "wizardlm-70b-v1.0-vllm": "WizardLM-70B",
    "qwen-14b-chat-hf": "Qwen-14B", "qwen-72b-chat-hf": "Qwen-72B", "qwen-72b-chat-vllm": "Qwen-72B-vLLM",
    "internlm2-chat-7b-turbomind": "InternLM2-7B-200K", "internlm2-chat-20b-turbomind": "InternLM2-20B-200K",
    "internlm2-chat-7b-hf": "InternLM2-7B", "internlm2-chat-20b-hf": "InternLM2-20B", "qwen-7b-chat-hf": "Qwen-7B",
    "chatglm3-6b-hf": "ChatGLM3-6B", "chatglm3-6b-32k-hf": "ChatGLM3-6B-32K", "zephyr-7b-beta-vllm": "Zephyr-7B Beta",
    "mistral-7b-instruct-v0.2-vllm": "Mistral-7B Inst. v0.2", "mistral-7b-instruct-v0.1-vllm": "Mistral-7B Inst. v0.1",
    "mixtral-8x7b-instruct-v0.1-vllm": "Mixtral-8x7B Inst. v0.1", "orionstar-yi-34b-chat-hf": "OrionStar-Yi-34B",
    "orionstar-14b-long-chat-vllm": "Orion-14B-LongChat", "internlm-chat-7b-hf": "InternLM-7B",
    "gemma-2b-it-hf": "Gemma-2B", "gemma-7b-it-hf": "Gemma-7B", "qwen1.5-0.5b-chat-hf": "Qwen-1.5-0.5B",
    "qwen1.5-1.8b-chat-hf": "Qwen-1.5-1.8B", "qwen1.5-4b-chat-hf": "Qwen-1.5-4B", "qwen1.5-14b-chat-hf": "Qwen-1.5-14B",
    "qwen1.5-72b-chat-hf": "Qwen-1.5-72B", "qwen1.5-1.8b-chat-vllm": "Qwen-1.5-1.8B",
    "qwen1.5-14b-chat-vllm": "Qwen-1.5-14B-vLLM", "qwen1.5-72b-chat-vllm": "Qwen-1.5-72B-vLLM", "glm4_notools": "GLM-4",
    "claude-3-opus": "Claude-3-Opus", "glm-4-9b-chat-1m-vllm": "GLM4-9B-Chat-1M",
    "internlm2_5-7b-chat-1m-turbomind": "InternLM2.5-7B-Chat-1M",
    "internlm3-8b-instruct-turbomind": "InternLM3-8B-Instruct", "llama-3.1-8b-instruct-vllm": "LLaMA-3.1-8B",
    "qwen2.5-1.5b-instruct-vllm": "Qwen-2.5-1.5B", "qwen2.5-7b-instruct-vllm": "Qwen-2.5-7B",
    "qwen2.5-14b-instruct-vllm": "Qwen-2.5-14B", "qwen2.5-32b-instruct-vllm": "Qwen-2.5-32B",
    "qwen2_5-72b-instruct-vllm": "Qwen-2.5-72B", "gemma-3-4b-it-vllm": "Gemma-3-4B", "gemma-3-12b-it-vllm": "Gemma-3-12B",
    "gemma-3-27b-it-vllm": "Gemma-3-27B", "glm-4-9b-chat-vllm": "GLM4-9B-Chat", "llama-3.1-70b-instruct-vllm": "LLaMA-3.1-70B",
}

#: The context sizes, needle counts and languages OpenCompass draws plots for.
PLOT_SIZES = ("4k", "8k", "32k", "128k", "200k", "256k", "1000k")
PLOT_NEEDLES = (2, 3, 4, 5)
PLOT_LANGUAGES = ("en", "zh")

_ONE_DEPTH = re.compile(r"^Length(\d+)Depth(\d+(?:\.\d+)?)_(.+)$")
_ALL_DEPTHS = re.compile(r"^Length(\d+)_(.+)$")
_DEPTH_METRIC = re.compile(r"^Depth(\d+(?:\.\d+)?)$")
_KIND = re.compile(r"^(?:(?P<n>\d+)needle|(?P<t>origin|parallel))_(?P<lang>[a-z]+)_(?P<size>.+)$")


def kind_label(kind: str) -> str:
    """The name OpenCompass gives a kind of NeedleBench dataset (``kind`` itself for others).

    >>> kind_label('origin_zh_128k'), kind_label('3needle_en_4k'), kind_label('parallel_en_1000k')
    ('Single-Needle-Retrieval-ZH-128K', '3-Needle-Reasoning-EN-4K', 'Multi-Needle-Retrieval-EN-1000K')
    >>> kind_label('custom_kind')
    'custom_kind'
    """
    m = _KIND.match(kind)
    if m is None:
        return kind
    tail = f"{m['lang'].upper()}-{m['size'].upper()}"
    if m["n"] is not None:
        return f"{m['n']}-Needle-Reasoning-{tail}"
    return f"{'Single' if m['t'] == 'origin' else 'Multi'}-Needle-Retrieval-{tail}"


@dataclass(repr=False, eq=False)
class NeedleGrid(DataclassMethods):
    """One depth × length grid of one model.

    Attributes:
        model: the model column.
        kind: the dataset kind (``origin_en_4k``), or the overall grid's name.
        label: its display name (``Single-Needle-Retrieval-EN-4K``).
        depths: the rows, ascending (depth percent).
        lengths: the columns, ascending (context length in tokens).
        matrix: ``matrix[i][j]``: the value at ``depths[i]``, ``lengths[j]`` (``None``: no value).
        cells: (depth, length) → (dataset abbr, metric) the value came from (per-kind grids).
        overall: the mean over lengths of each length's mean over depths, as OpenCompass prints it on
            the heatmap (``None`` for an empty grid).
    """

    model: str
    kind: str
    label: str
    depths: list[float]
    lengths: list[int]
    matrix: list[list[float | None]]
    cells: dict[tuple[float, int], tuple[str, str]] = field(default_factory=dict)
    overall: float | None = None

    @property
    def title(self) -> str:
        """The model's display name on the heatmap (:data:`MODEL_TITLES`, else the abbr)."""
        return MODEL_TITLES.get(self.model, self.model)

    def column_means(self) -> list[float | None]:
        """Each length's mean over the depths that have a value."""
        out: list[float | None] = []
        for j in range(len(self.lengths)):
            got = [row[j] for row in self.matrix if row[j] is not None]
            out.append(sum(got) / len(got) if got else None)  # type: ignore[arg-type]
        return out

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "kind": self.kind, "label": self.label, "depths": self.depths,
                "lengths": self.lengths, "matrix": self.matrix, "overall": self.overall}


def _overall(means: Sequence[float | None]) -> float | None:
    got = [m for m in means if m is not None]
    return sum(got) / len(got) if got else None


def _pivot(model: str, kind: str, label: str, points: Sequence[tuple[float, int, float | None]],
           sources: Mapping[tuple[float, int], tuple[str, str]] | None = None) -> NeedleGrid:
    """The grid of (depth, length, value) points: the mean of a cell's values; rows and columns without any
    value left out, as a pivot table of the values leaves them out."""
    sums: dict[tuple[float, int], list[float]] = {}
    for depth, length, value in points:
        if value is not None and not (isinstance(value, float) and math.isnan(value)):
            sums.setdefault((depth, length), []).append(float(value))
    depths = sorted({d for d, _ in sums})
    lengths = sorted({n for _, n in sums})
    matrix: list[list[float | None]] = [
        [(sum(v) / len(v)) if (v := sums.get((d, n))) else None for n in lengths] for d in depths
    ]
    cells = {k: s for k, s in (sources or {}).items() if k in sums}
    grid = NeedleGrid(model, kind, label, depths, lengths, matrix, cells)
    grid.overall = _overall(grid.column_means())
    return grid


def _parse(abbr: str) -> tuple[int, float | None, str] | None:
    """(length, depth or ``None`` for a dataset of every depth, kind) of a NeedleBench abbr, else ``None``."""
    m = _ONE_DEPTH.match(abbr)
    if m is not None:
        return int(m[1]), float(m[2]), m[3]
    m = _ALL_DEPTHS.match(abbr)
    if m is not None:
        return int(m[1]), None, m[2]
    return None


def needle_grids(values: Mapping[str, Mapping[str, Mapping[str, float]]], abbrs: Sequence[str],
                 models: Sequence[str] | None = None) -> list[NeedleGrid]:
    """One grid per model and NeedleBench kind among ``abbrs``, from ``values`` (model → abbr → metric → value).

    A dataset of one depth gives its ``score`` (its first metric when it has
    no ``score``); a dataset of every depth gives each ``Depth<d>`` metric.
    Kinds come in the order their first dataset appears in ``abbrs``; a model
    without any value of a kind has no grid of it.
    """
    kinds: dict[str, list[tuple[str, int, float | None]]] = {}
    for abbr in abbrs:
        parsed = _parse(abbr)
        if parsed is not None:
            length, depth, kind = parsed
            kinds.setdefault(kind, []).append((abbr, length, depth))
    grids: list[NeedleGrid] = []
    for model in (list(values) if models is None else models):
        got = values.get(model, {})
        for kind, members in kinds.items():
            points: list[tuple[float, int, float | None]] = []
            sources: dict[tuple[float, int], tuple[str, str]] = {}
            for abbr, length, depth in members:
                result = got.get(abbr)
                if not result:
                    continue
                if depth is not None:
                    metric = "score" if "score" in result else next(iter(result))
                    points.append((depth, length, result.get(metric)))
                    sources[(depth, length)] = (abbr, metric)
                    continue
                for metric, value in result.items():
                    m = _DEPTH_METRIC.match(metric)
                    if m is not None:
                        points.append((float(m[1]), length, value))
                        sources[(float(m[1]), length)] = (abbr, metric)
            if points:
                grid = _pivot(model, kind, kind_label(kind), points, sources)
                if grid.depths:
                    grids.append(grid)
    return grids


# -- OpenCompass's plots ----------------------------------------------------------------------------


def _kind_rows(model_values: Mapping[str, Mapping[str, float]], all_abbrs: Sequence[str], kind: str,
               ) -> list[tuple[str, float | None]]:
    """OpenCompass's rows of one kind for one model: (``Length…Depth…`` key, value) of every abbr containing it."""
    rows: list[tuple[str, float | None]] = []
    every_depth = "parallel" in kind
    for abbr in all_abbrs:
        if kind not in abbr:
            continue
        base = abbr.replace(kind, "").strip("_")
        result = model_values.get(abbr)
        if every_depth:
            for metric, value in (result or {}).items():
                key = f"{base}{metric}"
                if "average_score" not in key:
                    rows.append((key, value))
        else:
            rows.append((base, (result or {}).get("score")))
    return rows


def _key_point(key: str) -> tuple[float, int] | None:
    """(depth, length) of a ``Length{n}Depth{d}`` key, read as OpenCompass reads it (``None``: unreadable)."""
    try:
        length = int(key.split("Length")[1].split("Depth")[0])
        depth = float(key.split("Depth")[1].split("_")[0])
    except (IndexError, ValueError):
        return None
    return depth, length


def _grid_of_rows(model: str, kind: str, label: str, rows: Sequence[tuple[str, float | None]]) -> NeedleGrid:
    points = [(p[0], p[1], v) for key, v in rows if (p := _key_point(key)) is not None]
    return _pivot(model, kind, label, points)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def _merged_rows(model_values: Mapping[str, Mapping[str, float]], all_abbrs: Sequence[str], kinds: Sequence[str],
                 mean: bool) -> list[tuple[str, float | None]]:
    """OpenCompass's rows of an overall grid: the keys every kind has a value for, averaged across the kinds.

    With single-needle (``origin``), multi-needle retrieval (``parallel``) and
    reasoning (``needle``) kinds all present, each key's value is
    ``0.4·origin + 0.3·parallel + 0.3·reasoning`` (``mean``: the plain mean of
    the three), each the mean of its kinds; otherwise the mean of the first of
    those three classes that has kinds (the others are left out).  A kind
    without any row leaves no key: no overall grid.
    """
    tables: list[dict[str, float | None]] = []
    for kind in kinds:
        rows = _kind_rows(model_values, all_abbrs, kind)
        if not rows:
            return []
        table: dict[str, float | None] = {}
        for key, value in rows:
            table.setdefault(key, value)
        tables.append(table)
    if not tables:
        return []
    keys = list(dict.fromkeys(k for t in tables for k in t))
    origin = [i for i, k in enumerate(kinds) if "origin" in k]
    parallel = [i for i, k in enumerate(kinds) if "parallel" in k]
    needle = [i for i, k in enumerate(kinds) if "needle" in k]
    out: list[tuple[str, float | None]] = []
    for key in keys:
        row = [t.get(key) for t in tables]
        if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in row):
            continue  # OpenCompass drops every key some kind lacks
        vals: list[float] = [float(v) for v in row]  # type: ignore[arg-type]
        if origin and parallel and needle:
            o, p, n = (_mean([vals[i] for i in ix]) for ix in (origin, parallel, needle))
            out.append((key, (o + p + n) / 3 if mean else o * 0.4 + p * 0.3 + n * 0.3))
        else:
            chosen = origin or parallel or needle
            out.append((key, _mean([vals[i] for i in chosen]) if chosen else 0.0))
    return out


#: OpenCompass's overall heatmaps: (the text on it and in its file name, the kinds it averages).
_OVERALL = (("Overall Score", ("needle", "origin", "parallel")),
            ("Single-Retrieval Overall Score", ("origin",)),
            ("Multi-Retrieval Overall Score", ("parallel",)),
            ("Multi-Reasoning Overall Score", ("needle",)))


def opencompass_plot_grids(values: Mapping[str, Mapping[str, Mapping[str, float]]], models: Sequence[str],
                           abbrs: Sequence[str], *, mean: bool = False) -> list[tuple[str, NeedleGrid]]:
    """The heatmaps OpenCompass 0.5.4's NeedleBench summarizers draw, as (file under ``plots/``, grid).

    ``abbrs``: every dataset and group abbr of the summary (OpenCompass reads
    them from its raw section).  For each model: one heatmap per NeedleBench
    kind of the sizes the abbrs name (``<label>/<title>_<label>.png``), then
    ``<title>_Overall_Score.png`` and the single-retrieval, multi-retrieval and
    multi-reasoning overall ones (``mean``: ``NeedleBenchSummarizerV2``'s plain
    mean instead of the 0.4/0.3/0.3 weights).  OpenCompass reads each kind's
    rows by substring (an abbr containing ``origin_en_4k``), a one-depth
    dataset's ``score`` (a missing one a gap), every metric of a multi-needle
    retrieval dataset but ``average_score``; file names have spaces replaced by
    ``_``.  Empty grids are not drawn.
    """
    sizes = [s for s in PLOT_SIZES if any(f"_{s}" in a for a in abbrs)]
    reasoning = [f"{n}needle_{lang}_{s}" for n in PLOT_NEEDLES for lang in PLOT_LANGUAGES for s in sizes]
    origin = [f"origin_{lang}_{s}" for lang in PLOT_LANGUAGES for s in sizes]
    parallel = [f"parallel_{lang}_{s}" for lang in PLOT_LANGUAGES for s in sizes]
    classes = {"needle": reasoning, "origin": origin, "parallel": parallel}
    out: list[tuple[str, NeedleGrid]] = []
    for model in models:
        got = values.get(model, {})
        title = MODEL_TITLES.get(model, model)
        for kind in (*reasoning, *origin, *parallel):
            label = kind_label(kind)
            grid = _grid_of_rows(model, kind, label, _kind_rows(got, abbrs, kind))
            if grid.depths:
                out.append((f"{label}/{(title + '_' + label).replace(' ', '_')}.png", grid))
        for label, parts in _OVERALL:
            kinds = [k for part in parts for k in classes[part]]
            grid = _grid_of_rows(model, label, label, _merged_rows(got, abbrs, kinds, mean))
            if grid.depths:
                out.append((f"{(title + '_' + label).replace(' ', '_')}.png", grid))
    return out


# -- drawing ----------------------------------------------------------------------------------------

#: The PNG text chunk holding a drawn grid as JSON (depths, lengths, matrix, overall, model, kind).
GRID_CHUNK = "assay:needle-grid"
_DPI = 100
_CELL_W, _CELL_H, _MARGIN_W, _MARGIN_H = 0.9, 0.32, 2.4, 1.6


def grid_image_size(depths: int, lengths: int) -> tuple[int, int]:
    """The pixel size (width, height) of the PNG :func:`draw_grid` draws for a grid of this shape."""
    return (round((_MARGIN_W + _CELL_W * lengths) * _DPI), round((_MARGIN_H + _CELL_H * depths) * _DPI))


def _length_label(length: int) -> str:
    return f"{length // 1000}k" if length >= 1000 else str(length)


def draw_grid(grid: NeedleGrid, path: Path) -> Path:
    """Draw ``grid`` as a heatmap PNG at ``path``: depth rows × length columns, every cell's value written in
    it, each length's mean over depths under its label, the overall score in the title.

    The grid itself goes into the PNG as the text chunk :data:`GRID_CHUNK`
    (:func:`read_grid_metadata` reads it back).  The image is
    :func:`grid_image_size` pixels.
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.colors import LinearSegmentedColormap
    from matplotlib.figure import Figure

    n_depths, n_lengths = len(grid.depths), len(grid.lengths)
    width, height = grid_image_size(n_depths, n_lengths)
    fig = Figure(figsize=(width / _DPI, height / _DPI), dpi=_DPI)
    ax = fig.add_axes((1.3 / (width / _DPI), 1.0 / (height / _DPI),
                       (_CELL_W * n_lengths) / (width / _DPI), (_CELL_H * n_depths) / (height / _DPI)))
    cmap = LinearSegmentedColormap.from_list("needle", ["#d7263d", "#f2c14e", "#2a9d8f"]).with_extremes(bad="#e5e7eb")
    data = [[math.nan if v is None else v for v in row] for row in grid.matrix]
    image = ax.imshow(data, cmap=cmap, vmin=0, vmax=100, aspect="auto", interpolation="nearest")
    for i, row in enumerate(grid.matrix):
        for j, v in enumerate(row):
            ax.text(j, i, "-" if v is None else f"{v:.1f}", ha="center", va="center", fontsize=7,
                    color="#111827")
    means = grid.column_means()
    ax.set_xticks(range(n_lengths), [f"{_length_label(n)}\n{'-' if m is None else f'{m:.2f}'}"
                                     for n, m in zip(grid.lengths, means)], fontsize=7)
    ax.set_yticks(range(n_depths), [f"{d:g}" for d in grid.depths], fontsize=7)
    ax.set_xlabel("Token Length (mean over depths)", fontsize=8)
    ax.set_ylabel("Depth Percent(%)", fontsize=8)
    overall = "-" if grid.overall is None else f"{grid.overall:.2f}"
    ax.set_title(f"{grid.title}\n{grid.label}: {overall}", fontsize=9)
    cax = fig.add_axes((1 - 0.8 / (width / _DPI), 1.0 / (height / _DPI), 0.15 / (width / _DPI),
                        (_CELL_H * n_depths) / (height / _DPI)))
    fig.colorbar(image, cax=cax)
    meta = json.dumps(grid.to_json(), separators=(",", ":"))
    image_bytes = io.BytesIO()
    fig.savefig(image_bytes, format="png", dpi=_DPI, metadata={GRID_CHUNK: meta})
    atomic_write_bytes(path, image_bytes.getvalue())
    return path


def read_grid_metadata(path: Path) -> dict[str, Any]:
    """The grid a PNG of :func:`draw_grid` holds, and its pixel size (``width``, ``height``).

    Reads the PNG's chunks directly; raises ``ValueError`` naming the file
    when it is not a PNG or holds no grid.
    """
    import struct
    import zlib

    data = Path(path).read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG file")
    pos, size, grid = 8, None, None
    while pos + 8 <= len(data):
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
        if zlib.crc32(ctype + body) & 0xFFFFFFFF != crc:
            raise ValueError(f"{path}: chunk {ctype!r} fails its CRC")
        if ctype == b"IHDR":
            size = struct.unpack(">II", body[:8])
        elif ctype in (b"tEXt", b"iTXt", b"zTXt"):
            key, _, rest = body.partition(b"\0")
            if key.decode("latin-1") == GRID_CHUNK:
                if ctype == b"tEXt":
                    grid = json.loads(rest.decode("latin-1"))
                elif ctype == b"zTXt":
                    grid = json.loads(zlib.decompress(rest[1:]).decode("latin-1"))
                else:
                    flag, _method, rest = rest[0], rest[1], rest[2:]
                    _lang, _, rest = rest.partition(b"\0")
                    _tkey, _, text = rest.partition(b"\0")
                    grid = json.loads((zlib.decompress(text) if flag else text).decode("utf-8"))
        if ctype == b"IEND":
            break
        pos += 12 + length
    if size is None or grid is None:
        raise ValueError(f"{path}: no {'image header' if size is None else GRID_CHUNK + ' chunk'}")
    return {**grid, "width": size[0], "height": size[1]}
