"""Laying scores out as rows (R-7.4, R-7.5) and rendering them as text, csv, markdown and JSON (R-7.6).

The renderings reproduce OpenCompass's byte layout: ``tabulate`` in its
``simple`` format (``floatfmt='.2f'``), csv joined with ``,`` (commas inside
cells become spaces in the ``.csv`` file), markdown with a ``|----- | ----- |``
separator, and the ``.txt`` file's sections between lines of 128 ``^``/``$``.

A value whose result is incomplete (its ``_meta.incomplete``), changed
after assay computed it, kept as it was by a run that failed to re-score
it, or a group computed from such values is followed
by :data:`~assay.groups.MARK` (``'39.13*'``) in every rendering, the
``.csv`` included, and listed under the table (:func:`render_marks`).

One deliberate difference: the text columns (``dataset``, ``version``,
``metric``, ``mode``) are never parsed as numbers, so a version hash such as
``'1e5000'`` or ``'012345'`` is shown as written.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any

from assay.audit.record import AUDIT_KEY
from assay.groups import MARK, Scores
from assay.summarize.leaderboard import DASH, HEADER, Leaderboard, Row

__all__ = [
    "HEADER",
    "build_rows",
    "default_row_keys",
    "format_value",
    "render_csv",
    "render_markdown",
    "render_marks",
    "render_marks_markdown",
    "render_raw",
    "render_sources",
    "render_sources_markdown",
    "render_tool_audits",
    "render_tool_audits_markdown",
    "source_column",
    "source_tags",
    "render_simple",
    "render_stdout",
    "render_txt",
    "rows_to_table",
]

_RULE = 128


def format_value(value: float) -> str:
    """A cell value with two decimals.

    >>> format_value(1), format_value(33.333)
    ('1.00', '33.33')
    """
    return f"{value:.2f}"


def default_row_keys(scores: Scores) -> list[tuple[str, str | None]]:
    """The rows shown when ``dataset_abbrs`` is omitted.

    Every metric of each dataset in config order (a dataset with no result for
    any model gets one row of ``-``), then every group metric not yet shown.
    """
    keys: list[tuple[str, str | None]] = []
    seen: set[tuple[str, str | None]] = set()
    for abbr in scores.dataset_abbrs:
        metrics = scores.metrics.get(abbr)
        if not metrics:
            keys.append((abbr, None))
            continue
        for metric in metrics:
            keys.append((abbr, metric))
            seen.add((abbr, metric))
    for name in scores.groups:
        for metric in scores.metrics.get(name, []):
            if (name, metric) not in seen:
                keys.append((name, metric))
                seen.add((name, metric))
    return keys


def _row_keys(dataset_abbrs: Sequence[Any]) -> list[tuple[str, str | None]]:
    keys: list[tuple[str, str | None]] = []
    for item in dataset_abbrs:
        if isinstance(item, str):
            keys.append((item, None))
        else:
            keys.append((str(item[0]), str(item[1])))
    return keys


def build_rows(
    scores: Scores,
    dataset_abbrs: Sequence[Any] | None = None,
    *,
    skip_placeholders: bool = False,
) -> list[Row]:
    """The table rows for ``dataset_abbrs`` (``None``: the default order).

    A bare abbr selects its primary metric; ``[abbr, metric]`` that metric;
    ``''``, an unknown abbr or a metric the abbr lacks give a placeholder row.
    """
    keys = default_row_keys(scores) if dataset_abbrs is None else _row_keys(dataset_abbrs)
    columns = scores.columns
    rows: list[Row] = []
    column_values = [scores.values[column] for column in columns]
    empty: dict[str, float] = {}
    for abbr, wanted in keys:
        metrics = scores.metrics.get(abbr)
        metric = wanted
        if metrics and metric is None:
            metric = metrics[0]
        if not metrics or metric not in metrics:
            if not skip_placeholders:
                reason = _placeholder_reason(scores, abbr, wanted)
                missing = {c: scores.cell_errors.get((c, abbr), reason) for c in columns}
                rows.append(Row(abbr, DASH, DASH, DASH, dict.fromkeys(columns), missing, placeholder=True))
            continue
        assert metric is not None
        values = [cv.get(abbr, empty).get(metric) for cv in column_values]
        missing = {}
        if None in values:
            missing = {c: _missing_reason(scores, c, abbr) for c, v in zip(columns, values) if v is None}
        marked: tuple[str, ...] = ()
        if scores.marks:
            marked = tuple(c for c, v in zip(columns, values) if v is not None and (c, abbr) in scores.marks)
        sources: dict[str, dict[str, Any]] = {}
        if scores.sources:
            sources = {c: scores.sources[(c, abbr)] for c, v in zip(columns, values)
                       if v is not None and (c, abbr) in scores.sources}
        rows.append(
            Row(abbr, scores.versions.get(abbr, DASH), metric, scores.modes.get(abbr, DASH), dict(zip(columns, values)),
                missing, marked=marked, sources=sources)
        )
    return rows


def render_marks(board: Leaderboard, abbrs: Collection[str] | None = None) -> str:
    """The list under the table of what each :data:`MARK` means (``''`` when no value is marked); with
    ``abbrs``, of the rows of those datasets and groups only (a table that shows some).

    >>> from assay.groups import CellMark
    >>> board = Leaderboard(['m1'], scores={'m1': {'ds': {'accuracy': 39.13}}}, dataset_abbrs=['ds'],
    ...                     marks={('m1', 'ds'): (CellMark('unjudged', 12, '12 of 23 judge requests failed'),)})
    >>> print(render_marks(board))
    * marks a value computed from fewer samples than it claims, with samples that could not be scored, from a result changed since, or not re-scored:
      m1 / ds: unjudged (12 samples): 12 of 23 judge requests failed
    """
    cells = board.marked_cells(abbrs)
    if not cells:
        return ""
    lines = [f"{MARK} marks a value computed from fewer samples than it claims, with samples that could not be "
             "scored, from a result changed since, or not re-scored:"]
    for column, abbr, marks in cells:
        lines.extend(f"  {column} / {abbr}: {m.describe()}" for m in marks)
    return "\n".join(lines)


def render_marks_markdown(board: Leaderboard, abbrs: Collection[str] | None = None) -> str:
    """:func:`render_marks` as a markdown list (``''`` when no value is marked)."""
    cells = board.marked_cells(abbrs)
    if not cells:
        return ""
    lines = [f"\\{MARK} marks a value computed from fewer samples than it claims, with samples that could not be "
             "scored, from a result changed since, or not re-scored:", ""]
    for column, abbr, marks in cells:
        lines.extend(f"- {column} / {abbr}: {m.describe()}" for m in marks)
    return "\n".join(lines) + "\n"


_TOOL_AUDITS = "Other tools' own extraction of the replies assay scored again:"


def _tool_audit_lines(board: Leaderboard, abbrs: Collection[str] | None) -> list[str]:
    """``column / abbr: sentence`` of each comparison with another tool's extraction, in the table's order."""
    lines = []
    shown = board.dataset_abbrs if abbrs is None else [a for a in board.dataset_abbrs if a in abbrs]
    for abbr in shown:
        metrics = board.metrics.get(abbr) or []
        for column in board.models:
            audit = board.tool_audits.get(column, {}).get(abbr)
            if audit is None:
                continue
            metric = metrics[0] if metrics else ""
            value = board.scores.get(column, {}).get(abbr, {}).get(metric)
            lines.append(f"{column} / {abbr}: {audit.note(metric, value)}")
    return lines


def render_tool_audits(board: Leaderboard, abbrs: Collection[str] | None = None) -> str:
    """The list under the table of what another tool's own extraction of the replies assay scored again would
    give (``''`` when no result compares one); with ``abbrs``, of those datasets' rows only.

    >>> from assay.audit import AuditRecord, ToolAudit
    >>> board = Leaderboard(['m1'], scores={'m1': {'ds': {'accuracy': 62.5}}}, dataset_abbrs=['ds'],
    ...                     metrics={'ds': ['accuracy']},
    ...                     tool_audits={'m1': {'ds': ToolAudit('lm_eval', 'strict-match',
    ...                                                         AuditRecord([], 24, 7, metrics={'accuracy': 50.0}))}})
    >>> print(render_tool_audits(board))
    Other tools' own extraction of the replies assay scored again:
      m1 / ds: lm_eval's strict-match extraction would give accuracy 50.00 instead of 62.50 (7 of 24 replies read differently)
    """
    lines = _tool_audit_lines(board, abbrs)
    return "\n".join([_TOOL_AUDITS, *(f"  {line}" for line in lines)]) if lines else ""


def render_tool_audits_markdown(board: Leaderboard, abbrs: Collection[str] | None = None) -> str:
    """:func:`render_tool_audits` as a markdown list (``''`` when no result compares one)."""
    lines = _tool_audit_lines(board, abbrs)
    return "\n".join([_TOOL_AUDITS, "", *(f"- {line}" for line in lines)]) + "\n" if lines else ""


MIXED = "mixed"


def _footnotes(board: Leaderboard) -> dict[tuple[str, str], str]:
    """(tool, version) → its footnote number, in the order the table's cells meet them."""
    out: dict[tuple[str, str], str] = {}
    for row in board.rows:
        for column in board.models:
            source = row.sources.get(column)
            if source is not None and "tool" in source:
                out.setdefault((str(source["tool"]), str(source.get("version", ""))), str(len(out) + 1))
    for source in board.sources.values():
        if "tool" in source:
            out.setdefault((str(source["tool"]), str(source.get("version", ""))), str(len(out) + 1))
    return out


def _tag(board: Leaderboard, notes: dict[tuple[str, str], str], column: str, abbr: str, source: dict[str, Any]) -> str:
    if "tool" in source:
        return f"[{notes[(str(source['tool']), str(source.get('version', '')))]}]"
    if source.get("mixed"):
        return f"[{MIXED}]"
    numbers = []  # a group of one tool's values: that tool's footnotes
    for leaf in (source.get("from") or {}):
        leaf_source = board.sources.get((column, leaf))
        if leaf_source is not None and "tool" in leaf_source:
            number = notes.get((str(leaf_source["tool"]), str(leaf_source.get("version", ""))))
            if number is not None and number not in numbers:
                numbers.append(number)
    return f"[{','.join(numbers) or '?'}]"


def source_tags(board: Leaderboard, table: Sequence[Sequence[str]]) -> list[list[str]]:
    """``table`` (the header, then one line per row of ``board.rows``) with each value another tool computed
    followed by its footnote (``'62.50[1]'``: :func:`render_sources` says what ``[1]`` is; ``[mixed]``: a
    group of values from several sources).  A value assay computed is shown as it is.

    >>> board = Leaderboard(['m1', 'm2'], rows=[Row('d', values={'m1': 1.0, 'm2': 2.0},
    ...                     sources={'m2': {'tool': 'lm_eval', 'version': '0.4.8'}})])
    >>> source_tags(board, board.table())[1][4:]
    ['1.00', '2.00[1]']
    >>> source_tags(board, [board.table()[0], ['d', '-', '-', '-', '1.00', '2.00 [1.50, 2.50]']])[1][5]
    '2.00[1] [1.50, 2.50]'
    """
    notes = _footnotes(board)
    if not notes and not board.sources:
        return [list(r) for r in table]
    out = [list(table[0])]
    first = len(table[0]) - len(board.models)
    for line, row in zip(table[1:], board.rows):
        line = list(line)
        for j, column in enumerate(board.models):
            source = row.sources.get(column)
            shown = line[first + j]
            if source is not None and shown != DASH:  # right after the value, before an interval
                value, sep, rest = shown.partition(" ")
                line[first + j] = f"{value}{_tag(board, notes, column, row.dataset, source)}{sep}{rest}"
        out.append(line)
    out.extend(list(r) for r in table[len(board.rows) + 1:])
    return out


def _legend(board: Leaderboard) -> list[tuple[str, str]]:
    """(footnote, what it says) of every footnote the table shows."""
    notes = _footnotes(board)
    shown = {(c, r.dataset) for r in board.rows for c in r.sources}
    lines = []
    for (tool, version), number in notes.items():
        cells: dict[str, list[str]] = {}
        percent = False
        for (column, abbr), source in board.sources.items():
            if (column, abbr) in shown and source.get("tool") == tool and str(source.get("version", "")) == version:
                files = cells.setdefault(column, [])
                files += [n for f in source.get("files", [])[:1] if (n := _file_name(f)) not in files]
                percent = percent or any(v != 1 for v in (source.get("scale") or {}).values())
        if not cells:
            continue
        where = "; ".join(
            f"{column} ({', '.join(files[:2])}{f' and {len(files) - 2} more' if len(files) > 2 else ''})" if files else column
            for column, files in cells.items()
        )
        scale = " (its fractions shown in percent; its own values in each result's _meta.source)" if percent else ""
        lines.append((f"[{number}]", f"computed by {tool} {version}{scale}: {where}".replace("  ", " ")))
    mixed = [(c, r.dataset, r.sources[c]) for r in board.rows for c in board.models
             if c in r.sources and r.sources[c].get("mixed")]
    if mixed:
        items = []
        for column, abbr, source in mixed:
            by_tool: dict[str, list[str]] = {}
            for leaf, tool in (source.get("from") or {}).items():
                by_tool.setdefault(str(tool), []).append(str(leaf))
            items.append(f"{column} / {abbr}: " + "; ".join(f"{t} ({', '.join(ls)})" for t, ls in by_tool.items()))
        lines.append((f"[{MIXED}]", "a group of values from several sources: " + " | ".join(items)))
    return lines


def _file_name(path: str) -> str:
    return path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]


def render_sources(board: Leaderboard) -> str:
    """The legend under the text table of the footnotes :func:`source_tags` adds (``''`` when there are none).

    >>> board = Leaderboard(['m1'], rows=[Row('d', values={'m1': 62.5})], dataset_abbrs=['d'],
    ...                     sources={('m1', 'd'): {'tool': 'lm_eval', 'version': '0.4.8', 'files': ['out/results.json']}})
    >>> board.rows[0].sources = {'m1': board.sources[('m1', 'd')]}
    >>> print(render_sources(board))
    Values another tool computed (assay computed the others):
      [1] computed by lm_eval 0.4.8: m1 (results.json)
    """
    legend = _legend(board)
    if not legend:
        return ""
    return "\n".join(["Values another tool computed (assay computed the others):",
                      *(f"  {note} {text}" for note, text in legend)])


def render_sources_markdown(board: Leaderboard) -> str:
    """:func:`render_sources` as a markdown list (``''`` when there are no footnotes)."""
    legend = _legend(board)
    if not legend:
        return ""
    lines = ["Values another tool computed (assay computed the others):", ""]
    lines.extend(f"- \\{note[:-1]}\\] {text}" for note, text in legend)
    return "\n".join(lines) + "\n"


def source_column(board: Leaderboard, table: Sequence[Sequence[str]]) -> list[list[str]]:
    """``table`` with a last column ``source`` naming, per row, the model columns whose value another tool
    computed and that tool (``'m2: lm_eval 0.4.8; m3: inspect_ai 0.3.105'``; a group:
    ``'m2: lm_eval+assay'``), for the ``.csv``: its value columns stay plain numbers.  The table as it is
    when no value came from another tool.

    >>> board = Leaderboard(['m1', 'm2'], rows=[Row('d', values={'m1': 1.0, 'm2': 2.0},
    ...                     sources={'m2': {'tool': 'lm_eval', 'version': '0.4.8'}})], sources={('m2', 'd'): {}})
    >>> source_column(board, board.table())
    [['dataset', 'version', 'metric', 'mode', 'm1', 'm2', 'source'], ['d', '-', '-', '-', '1.00', '2.00', 'm2: lm_eval 0.4.8']]
    """
    if not board.sources:
        return [list(r) for r in table]
    out = [[*table[0], "source"]]
    for line, row in zip(table[1:], board.rows):
        said = []
        for column in board.models:
            source = row.sources.get(column)
            if source is None:
                continue
            if "tool" in source:
                said.append(f"{column}: {source['tool']} {source.get('version', '')}".rstrip())
            else:
                said.append(f"{column}: {'+'.join(str(t) for t in source.get('tools') or [])}")
        out.append([*line, "; ".join(said)])
    return out


def _placeholder_reason(scores: Scores, abbr: str, metric: str | None) -> str:
    if not abbr:
        return "separator"
    if abbr in scores.metrics:
        return f"{abbr!r} has no metric {metric!r}"
    if abbr in scores.dataset_abbrs:
        return "no result for any model"
    return f"{abbr!r} is neither a dataset of the run nor a computed group"


def _missing_reason(scores: Scores, column: str, abbr: str) -> str:
    error = scores.cell_errors.get((column, abbr))
    if error is not None:
        return error
    if abbr in scores.values[column]:
        return "metric not reported by this model"
    return "no result file"


def rows_to_table(rows: Sequence[Row], columns: Sequence[str]) -> list[list[str]]:
    """Header plus rows, as strings."""
    return [[*HEADER, *columns]] + [r.cells(columns) for r in rows]


_NUMBERS = re.compile(r"(?:-?\d{1,13}\.\d\d\n)*-?\d{1,13}\.\d\d")  # a column of two-decimal numbers, one per line


def _is_float(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _column_kinds(table: Sequence[Sequence[str]], text_columns: int) -> list[bool] | None:
    """Per column, whether tabulate treats it as numeric; ``None`` when the fast layout cannot be sure.

    It can be sure of tables of printable ASCII cells without surrounding
    blanks, whose value columns hold no empty cell: each column is then
    text, or numbers in two-decimal spelling.
    """
    width = len(table[0])
    if any(len(row) != width for row in table):
        return None
    text = "\n".join("\t".join(row) for row in table)
    if (
        not text.isascii()
        or text.count("\t") != (width - 1) * len(table)  # a tab inside a cell
        or text.count("\n") != len(table) - 1  # a newline inside a cell
        or not text.replace("\t", "").replace("\n", "").isprintable()
        or any(edge in text for edge in (" \t", "\t ", " \n", "\n "))  # a cell starting or ending with a space
        or text.startswith(" ")
        or text.endswith(" ")
    ):
        return None
    if "" in table[0][text_columns:]:
        return None
    kinds: list[bool] = []
    for j, col in enumerate(zip(*table[1:])):
        if j < text_columns:
            kinds.append(False)
        elif "" in col:
            return None
        elif _NUMBERS.fullmatch("\n".join(col)):
            kinds.append(True)
        elif any(c in ("True", "False") or c[:2].lower() in ("0x", "0o", "0b") for c in col):
            return None  # tabulate has its own rules for booleans and prefixed integers
        elif any(not _is_float(c) for c in col):
            kinds.append(False)
        else:  # numbers in another spelling: let tabulate decide
            return None
    return kinds


def render_simple(table: Sequence[Sequence[str]], text_columns: int = len(HEADER)) -> str:
    """The table as ``tabulate(table, headers='firstrow', floatfmt='.2f')`` prints it.

    The first ``text_columns`` columns are never parsed as numbers.  Tables of
    plain ASCII cells and two-decimal numbers are laid out directly (the same
    bytes, much faster); anything else goes through :mod:`tabulate`.

    >>> print(render_simple([['dataset', 'version', 'metric', 'mode', 'm1'], ['a', '-', 'acc', 'gen', '5.00']]))
    dataset    version    metric    mode      m1
    ---------  ---------  --------  ------  ----
    a          -          acc       gen     5.00
    """
    kinds = _column_kinds(table, text_columns) if len(table) > 1 else None
    if kinds is None:
        from tabulate import tabulate  # imported only here: it reads its own version through importlib.metadata

        return tabulate(
            [list(r) for r in table],
            headers="firstrow",
            floatfmt=".2f",
            disable_numparse=list(range(min(text_columns, len(table[0])))) if table else False,
        )
    header, body = table[0], table[1:]
    widths = [max(len(h) + 2, max(map(len, col))) for h, col in zip(header, zip(*body))]
    # one format per row: each cell padded to its column's width, numbers to the right
    layout = "  ".join(f"{{:{'>' if right else '<'}{w}}}" for w, right in zip(widths, kinds)).format
    lines = [layout(*header).rstrip(), "  ".join("-" * w for w in widths)]
    lines.extend(layout(*row).rstrip() for row in body)
    return "\n".join(lines)


def render_csv(table: Sequence[Sequence[str]], *, for_file: bool = True) -> str:
    """Rows joined with ``,``.

    In the ``.csv`` file (``for_file``) commas inside cells become spaces and the
    text ends with a newline; the ``.txt`` file's csv section keeps cells as
    they are and has no final newline.

    >>> render_csv([['dataset', 'm1'], ['a,b', '1.00']])
    'dataset,m1\\na b,1.00\\n'
    """
    if for_file:
        return "\n".join(_csv_line(row) for row in table) + "\n"
    return "\n".join(",".join(row) for row in table)


def _csv_line(row: Sequence[str]) -> str:
    line = ",".join(row)
    if line.count(",") == len(row) - 1:  # no comma inside a cell
        return line
    return ",".join(c.replace(",", " ") for c in row)


def render_markdown(table: Sequence[Sequence[str]]) -> str:
    """The markdown table, each line ending with a newline.

    >>> print(render_markdown([['dataset', 'm1'], ['a', '1.00']]), end='')
    | dataset | m1 |
    |----- | -----|
    | a | 1.00 |
    """
    if not table:
        return ""
    lines = ["| " + " | ".join(table[0]) + " |", "|" + " | ".join("-----" for _ in table[0]) + "|"]
    lines.extend("| " + " | ".join(row) + " |" for row in table[1:])
    return "\n".join(lines) + "\n"


#: The per-sample lists of an extraction audit record.
_PER_SAMPLE = ("samples", "readings")


def _without_samples(result: Any) -> Any:
    """``result`` as the raw section shows it: its extraction audit record without the per-sample lists
    (the differing samples and their readings, thousands on a large run; the summary ``.json`` keeps them),
    as the details are left out."""
    if type(result) is not dict or type(result.get(AUDIT_KEY)) is not dict or not any(k in result[AUDIT_KEY] for k in _PER_SAMPLE):
        return result
    return {**result, AUDIT_KEY: {k: v for k, v in result[AUDIT_KEY].items() if k not in _PER_SAMPLE}}


def render_raw(scores: Scores) -> str:
    """The raw section: per model, every result dict (without details, and without the per-sample lists of
    its extraction audit record) and every error.

    >>> s = Scores(columns=['m1'])
    >>> s.raw['m1']['a'] = {'accuracy': 50}
    >>> s.raw['m1']['b'] = {'accuracy': 25.0, 'extraction_audit': {'replies': 4, 'differ': 1, 'samples': [2],
    ...                     'readings': [{'official': ['A'], 'corrected': ['B']}], 'metrics': {'accuracy': 50.0}}}
    >>> print(render_raw(s))
    -------------------------------
    Model: m1
    a: {'accuracy': 50}
    b: {'accuracy': 25.0, 'extraction_audit': {'replies': 4, 'differ': 1, 'metrics': {'accuracy': 50.0}}}
    """
    abbrs: dict[str, None] = {}
    for column in scores.columns:
        abbrs.update(dict.fromkeys(scores.raw[column]))
    lines: list[str] = []
    for column in scores.columns:
        raw = scores.raw[column]
        lines.append("-" * 31)
        lines.append(f"Model: {column}")
        lines.extend(f"{abbr}: {_without_samples(raw[abbr])!r}" if abbr in raw else f"{abbr}: {{}}" for abbr in abbrs)
    return "\n".join(lines)


def render_txt(time_str: str, simple: str, table: Sequence[Sequence[str]], markdown: str, raw: str) -> str:
    """The ``summary_<time>.txt`` file: tabulate, csv, markdown and raw sections."""
    top, bottom = "^" * _RULE, "$" * _RULE
    divider = "-" * _RULE + " THIS IS A DIVIDER " + "-" * _RULE
    return (
        f"{time_str}\n"
        f"tabulate format\n{top}\n{simple}\n{bottom}\n\n"
        f"{divider}\n\n"
        f"csv format\n{top}\n{render_csv(table, for_file=False)}\n{bottom}\n\n"
        f"markdown format\n{top}\n{markdown}\n{bottom}\n"
        f"{divider}\n\n"
        f"raw format\n{top}\n{raw}\n{bottom}\n"
    )


def render_stdout(simple: str, markdown: str) -> str:
    """What the command line prints (``print(text)`` reproduces OpenCompass's output)."""
    return f"{simple}\n\n\nThe markdown format results is as below:\n\n{markdown}"
