"""The statistics of a result as the run index keeps them: their settings, their layout, and their lookup.

The run index (:mod:`assay.rundir.index`) keeps, per result file, the
statistics computed from its bytes as three lines of JSON — the values they
were computed for, each metric's cell, the unscorable counts — with the
settings they were computed with (:func:`index_settings`).  The worker that
writes a result puts its statistics in this layout (:func:`index_stats`);
a summary takes them from the index unparsed, for exactly the values it
shows (:func:`index_lookup`), or parsed (:func:`indexed_output`).

Beside them, per result file, the index keeps what the report reads of every
sample (:func:`index_samples`): the per-sample values of each metric (for
rank intervals and paired comparisons) and the sample browser's columns,
compressed, so that a report of fifty thousand results reads them from one
file instead of fifty thousand ``.stats`` files.  They are taken back with
:func:`sample_values_in` (the values) and :func:`columns_of` (the browser's columns).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from assay.fileio import loads_json
from assay.rundir.sidecar import STATS_FORMAT, stats_json_bytes
from assay.stats import CellStat, ResultStats, SampleColumns, SampleValues, StatsOptions, Unscorable

if TYPE_CHECKING:
    from assay.rundir.index import Snapshot
    from assay.rundir.sidecar import SavedStats

__all__ = [
    "INDEX_STATS_FORMAT",
    "SAMPLES_FORMAT",
    "IndexedStats",
    "column_parts",
    "columns_of",
    "index_lookup",
    "index_settings",
    "index_stats",
    "index_samples",
    "indexed_output",
    "packed_columns",
    "sample_values_in",
    "sample_values_reader",
    "sample_units_locator",
    "packed_units",
    "COUNTS_PACKING",
    "UnitsPlace",
    "samples_current",
    "samples_settings",
    "sidecar_samples",
    "values_key",
]


#: The version of the statistics' layout in the run index (part of the settings it is stored with).
INDEX_STATS_FORMAT = 3


def index_settings(options: StatsOptions) -> str:
    """What statistics in the run index were computed with: their layout and the interval settings.

    >>> index_settings(StatsOptions())
    '3.2 0.95 2000 20240101'
    """
    return f"{INDEX_STATS_FORMAT}.{STATS_FORMAT} {options.confidence!r} {options.resamples} {options.seed}"


def values_key(values: Mapping[str, float]) -> bytes:
    """The values statistics were computed for, as the run index keys them: JSON with sorted keys.

    >>> values_key({'f1': 0.5, 'accuracy': 50.0})
    b'{"accuracy":50.0,"f1":0.5}'
    """
    import orjson

    return orjson.dumps(dict(values), option=orjson.OPT_SORT_KEYS)


def index_stats(options: StatsOptions, output: ResultStats) -> tuple[str, bytes]:
    """Statistics as the run index keeps them: ``(settings, data)``.

    ``data`` is three lines: the values they were computed for
    (:func:`values_key`), ``{metric: CellStat JSON}`` and the unscorable JSON
    (``null`` when none), the JSON forms the summary's ``.json`` shows, so
    that a summary passes the second and third through as they are, without
    parsing them (see :func:`index_lookup`).  Compact JSON never holds
    a raw newline.  Statistics holding non-finite numbers (which JSON cannot
    spell) have their first line marked, so that only :func:`indexed_output`
    takes them.
    """
    from assay.fileio import has_non_finite

    u = output.unscorable
    cells = output.cells
    key = values_key({m: c.value for m, c in cells.items()})
    cells_data = {m: c.to_json() for m, c in cells.items()}
    u_data = None if u is None else u.to_json()
    odd_cells, odd_u = has_non_finite(cells_data), has_non_finite(u_data)
    if odd_cells or odd_u:  # JSON cannot pass them through: marked
        key = _NOT_PASSED + key
    cells_json = stats_json_bytes(cells_data, odd_cells)
    u_json = b"null" if not u_data else stats_json_bytes(u_data, odd_u)  # nothing known (a summary shows none)
    return index_settings(options), b"\n".join((key, cells_json, u_json))


#: What the run index holds for one (model, dataset), as it holds it: the cells' JSON
#: (``{metric: CellStat JSON}``) and the unscorable JSON (``None`` when none); see :func:`index_stats`.
IndexedStats = tuple[bytes, bytes | None]


#: Marks the first line of statistics holding NaN or infinities (see :func:`index_stats`).
_NOT_PASSED = b"~"


def _split_indexed(data: bytes, have: Mapping[str, float]) -> IndexedStats | None:
    """The cells' and unscorable JSON of the run index's ``data``; ``None`` when they were computed for
    other values than ``have`` (other metrics, other numbers) or are not in this layout."""
    key, _, rest = data.partition(b"\n")
    if key.removeprefix(_NOT_PASSED) != values_key(have):
        return None
    cells, sep, u = rest.partition(b"\n")
    if not sep:
        return None
    return cells, (None if u == b"null" or u == b"{}" else u)


def indexed_output(data: bytes, have: Mapping[str, float], confidence: float = 0.95) -> ResultStats | None:
    """The statistics of the summary's values ``have`` in the run index's ``data`` as a :class:`ResultStats`
    (cells without an interval take ``confidence``); ``None`` when they were computed for other values."""
    found = _split_indexed(data, have)
    if found is None:
        return None
    try:
        cells = loads_json(found[0])
        u = None if found[1] is None else loads_json(found[1])
        return ResultStats(
            {m: CellStat.from_json({"confidence": confidence, **cells[m]}) for m in have},
            {},
            None if u is None else Unscorable.from_json(u),
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def index_lookup(snapshot: Snapshot, options: StatsOptions) -> Callable[[str, str, Mapping[str, float]], IndexedStats | None]:
    """``lookup(folder, abbr, the summary's values)``: the statistics the run index holds for that
    result, as the JSON bytes it holds (see :data:`IndexedStats`), not parsed; ``None`` for the others,
    which are left to :func:`run_tasks`.

    Only results of one file whose statistics were computed from its present
    bytes, for the same values, with the same settings, are answered, and not
    statistics holding non-finite numbers (JSON cannot pass them through).
    """
    import orjson

    from assay.rundir.index import DIGEST, STATS, STATS_DIGESTS, STATS_SETTINGS

    dumps, sort_keys = orjson.dumps, orjson.OPT_SORT_KEYS
    rows, settings = snapshot.rows.get, index_settings(options)

    def lookup(folder: str, abbr: str, have: Mapping[str, float]) -> IndexedStats | None:
        # fifty thousand times for a leaderboard: values_key and _split_indexed inlined
        row = rows(f"{folder}/{abbr}.json")
        if row is None or row[STATS_SETTINGS] != settings or row[STATS_DIGESTS] != row[DIGEST]:
            return None
        found, _, rest = row[STATS].partition(b"\n")
        if found != dumps(have, option=sort_keys):  # also refuses statistics marked as holding non-finite numbers
            return None
        cells, sep, u = rest.partition(b"\n")
        return (cells, None if u == b"null" or u == b"{}" else u) if sep else None

    return lookup


#: The version of the samples' layout in the run index (part of the settings they are stored with).
#: Layout 1 (still read) kept the per-sample values as compressed JSON; layouts 2 and 3 keep them packed;
#: layout 3 writes the number of samples before the compressed browser's columns (see :func:`index_samples`).
SAMPLES_FORMAT = 3
#: The samples' layouts this version reads.
_READ_FORMATS = ("1", "2", "3")
#: The byte that begins the browser's columns of layout 3 (a zlib stream, which the columns of layouts 1
#: and 2 are, never begins with it), then the number of samples (4 bytes, big-endian; :data:`_NO_COLUMNS`: none).
_COUNTED = 0
_NO_COLUMNS = 0xFFFFFFFF


def samples_settings(text_limit: int) -> str:
    """What the samples in the run index were computed with: their layout and the browser's text limit.

    >>> samples_settings(600)
    '3.2 600'
    """
    return f"{SAMPLES_FORMAT}.{STATS_FORMAT} {text_limit}"


def samples_current(settings: str, text_limit: int | None = None) -> bool:
    """Whether samples stored with ``settings`` can be read by this version (this layout or one before it
    that it still reads, computed by the same rules), with the browser's text limit ``text_limit`` when one
    is given.

    >>> samples_current(samples_settings(80)), samples_current('1.2 600'), samples_current('0.1 600')
    (True, True, False)
    >>> samples_current('1.2 600', 600), samples_current(samples_settings(80), 600)
    (True, False)
    """
    layout, _, limit = settings.partition(" ")
    version, _, rules = layout.partition(".")
    return (version in _READ_FORMATS and rules == str(STATS_FORMAT)
            and (text_limit is None or limit == str(text_limit)))


#: How a metric's per-sample values are packed (layout 2): whole-number counts of right answers over
#: the runs, one byte each (the values are ``count / runs``), or the values as little-endian float64.
_COUNTS, _FLOATS = "u1", "f8"


def _packed(data: Any) -> tuple[list[Any], bytes] | None:
    """One metric's per-sample values (:meth:`assay.stats.SampleValues.to_json`) packed: ``([kind, scale,
    runs, basis, packing, count], bytes)``; ``None`` when they are not one number per sample."""
    import numpy as np

    try:
        units = np.asarray(data["units"], dtype=np.float64)
        runs = int(data["runs"])
        head = [str(data["kind"]), float(data["scale"]), runs, str(data["basis"])]
    except (KeyError, TypeError, ValueError):
        return None
    if units.ndim != 1:
        return None
    if 0 < runs < 256:
        counts = np.rint(units * runs)
        if ((counts >= 0) & (counts <= runs)).all():
            # kept as counts only when they give back every value to the last bit
            small = counts.astype(np.uint8)
            back = small / runs if runs != 1 else small.astype(np.float64)
            if back.astype("<f8").tobytes() == units.astype("<f8").tobytes():  # bit for bit: -0.0 is not a count
                return [*head, _COUNTS, len(units)], small.tobytes()
    return [*head, _FLOATS, len(units)], units.astype("<f8").tobytes()


def index_samples(saved: SavedStats) -> tuple[str, bytes]:
    """What the report reads of every sample of one result, as the run index keeps it: ``(settings, data)``.

    ``data`` is two parts, the first preceded by its length (4 bytes,
    big-endian): the per-sample values of each metric, packed so that a
    reader takes them without decompressing or parsing them — one line of
    JSON (``{"values", "no_samples", "samples"}``: the values, the metrics
    without per-sample values and why, and per metric ``[kind, scale, runs,
    basis, packing, count]``, see :class:`assay.stats.SampleValues`), then
    each metric's values in that order, as bytes: whole-number counts of
    right answers, one byte a sample, where they give back the values
    exactly (``count / runs``), else float64 (per-sample values that are not
    one number each are kept whole, as JSON, in the first line);
    then the sample browser's columns: a zero byte, the number of samples (4
    bytes, big-endian), and, zlib-compressed, the number of samples and each
    column's JSON, one a line, as the page writes them (:func:`column_parts`);
    when there are none, or a text cannot be written so, the number is
    ``0xFFFFFFFF`` and nothing follows.  A reader of one part leaves the other
    as it is; the report hands the compressed columns to the page as they are,
    knowing their number of samples without decompressing them
    (:func:`packed_columns`).  (Layout 2, still read, held the compressed
    columns alone, ``null`` when there were none; layout 1 also held the first
    part as compressed JSON.)

    >>> from assay.rundir.sidecar import REPORT_OPTIONS, SavedStats
    >>> saved = SavedStats('0' * 64, None, REPORT_OPTIONS, {'acc': 50.0}, ResultStats(columns=SampleColumns(
    ...     ['a', 'b'], ['A', 'B'], ['x', 'y'], ['A', 'C'], [1.0, 0.0])),
    ...     {'acc': {'kind': 'binary', 'units': [1.0, 0.0], 'scale': 100.0, 'runs': 1, 'basis': 'correct'}})
    >>> settings, data = index_samples(saved)
    >>> values, samples, _ = sample_values_in(settings, data)
    >>> settings, values, samples['acc'].units.tolist(), columns_of(data).ext
    ('3.2 600', {'acc': 50.0}, [1.0, 0.0], ['A', 'C'])
    """
    import orjson

    heads: dict[str, Any] = {}
    arrays: list[bytes] = []
    for metric, data in saved.samples.items():
        packed = _packed(data)
        if packed is None:
            heads[metric] = data
        else:
            heads[metric] = packed[0]
            arrays.append(packed[1])
    values = b"".join([stats_json_bytes({"values": saved.values, "no_samples": saved.no_samples, "samples": heads}),
                       b"\n", *arrays])
    found = saved.output.columns
    columns = bytes([_COUNTED]) + _NO_COLUMNS.to_bytes(4, "big")
    if found is not None:
        # a text orjson cannot write (a lone surrogate): none, the readers take the .stats file;
        # compact JSON never holds a raw newline
        with suppress(TypeError):
            text = b"\n".join([str(found.n).encode(), *(orjson.dumps(c) for c in _columns(found))])
            columns = bytes([_COUNTED]) + found.n.to_bytes(4, "big") + zlib.compress(text, 1)
    return samples_settings(saved.options.text_limit), len(values).to_bytes(4, "big") + values + columns


def sample_values_in(settings: str, data: bytes) -> tuple[dict[str, float], dict[str, SampleValues], dict[str, str]] | None:
    """The per-sample values in the run index's ``data`` (:func:`index_samples`, stored with ``settings``):
    ``(values, metric → SampleValues, no_samples)``; ``None`` when unreadable, of a layout this version
    does not read, or computed under other statistics rules (:func:`samples_current`).
    (:func:`sample_values_reader` reads many.)"""
    return sample_values_reader()(settings, data)


def sample_values_reader() -> Callable[[str, bytes], tuple[dict[str, float], dict[str, SampleValues], dict[str, str]] | None]:
    """:func:`sample_values_in` for many results: the first line of each (the values, the metrics without
    per-sample values, how the values are packed) parsed once per distinct bytes — results of 50 samples
    have at most 51 accuracies —, the values taken from their bytes without a copy through the text."""
    find = _packed_heads()
    readable: dict[str, bool] = {}  # samples_current of each settings text met (for layout 1)

    def read(settings: str, data: bytes) -> tuple[dict[str, float], dict[str, SampleValues], dict[str, str]] | None:
        try:
            if settings.partition(".")[0] == "1":
                ok = readable.get(settings)
                if ok is None:
                    ok = readable[settings] = samples_current(settings)
                if not ok:  # values computed under other statistics rules
                    return None
                end = 4 + int.from_bytes(data[:4], "big")
                found = loads_json(zlib.decompress(data[4:end]))
                return ({str(m): float(v) for m, v in found["values"].items()},
                        {str(m): SampleValues.from_json(sv) for m, sv in found["samples"].items()},
                        {str(m): str(r) for m, r in found["no_samples"].items()})
            located = find(settings, data)
            if located is None:
                return None
            (values, places, as_json, no_samples, _), start = located
            samples = {metric: SampleValues.from_json(how) for metric, how in as_json}
            for metric, ((kind, scale, runs, basis, packed, count), begin, _) in places.items():
                units = packed_units(data, packed, count, runs, start + begin)
                samples[metric] = SampleValues(kind, units, scale, runs, basis)  # type: ignore[arg-type]
            return values, samples, no_samples
        except (zlib.error, ValueError, KeyError, TypeError, AttributeError):
            return None

    return read


#: Where one metric's packed per-sample values lie in a result's samples (:func:`sample_units_locator`):
#: ``((kind, scale, runs, basis, packing, count), start, stop)``, ``start:stop`` the bytes from the start of the
#: packed values; the first part is what :class:`~assay.stats.SampleValues` is built from (``packing``:
#: :data:`COUNTS_PACKING`, or float64).
UnitsPlace = tuple[tuple[str, float, int, str, str, int], int, int]
#: The packing of per-sample values kept as whole-number counts of right runs, one byte a sample (the others
#: are little-endian float64).
COUNTS_PACKING = _COUNTS
def packed_units(data: bytes, packing: str, count: int, runs: int, offset: int = 0) -> Any:
    """The ``count`` per-sample values packed at ``offset`` in ``data`` as :func:`index_samples` packs them
    (``packing``: :data:`COUNTS_PACKING`, counts of right runs divided by ``runs`` here, or little-endian float64),
    as float64 units.

    >>> packed_units(bytes([2, 0, 1]), COUNTS_PACKING, 3, 2).tolist()
    [1.0, 0.0, 0.5]
    """
    import numpy as np

    if packing == _COUNTS:
        units = np.frombuffer(data, np.uint8, count, offset).astype(np.float64)
        if runs != 1:
            units /= runs
        return units
    return np.frombuffer(data, "<f8", count, offset).astype(np.float64)


#: The first line of a packed layout's samples, parsed: ``(values, metric → UnitsPlace, the metrics whose values
#: are kept as JSON with that JSON, no_samples, the packed values' length)``.
_PackedHead = tuple[dict[str, float], dict[str, UnitsPlace], list[tuple[str, Any]], dict[str, str], int]


def _parse_packed_head(line: bytes) -> _PackedHead | None:
    """The first line of a packed layout's samples (:func:`index_samples`), parsed; ``None`` when it is not one."""
    try:
        found = loads_json(line)
        values = {str(m): float(v) for m, v in found["values"].items()}
        places: dict[str, UnitsPlace] = {}
        as_json: list[tuple[str, Any]] = []
        size = 0
        for metric, how in found["samples"].items():
            if isinstance(how, dict):  # kept as JSON: no bytes in the packed part
                as_json.append((str(metric), how))
                continue
            kind, scale, runs, basis, packed, count = how
            if packed not in (_COUNTS, _FLOATS) or type(count) is not int or count < 0:
                return None
            stop = size + (count if packed == _COUNTS else 8 * count)
            places[str(metric)] = ((kind, scale, runs, basis, packed, count), size, stop)
            size = stop
        return values, places, as_json, {str(m): str(r) for m, r in found["no_samples"].items()}, size
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _packed_heads() -> Callable[[str, bytes], tuple[_PackedHead, int] | None]:
    """For many results of the packed layouts (2 and 3): the parsed first line of ``data`` (parsed once per
    distinct bytes) and where its packed values start; ``None`` for another layout, values computed under other
    rules (:func:`samples_current`), an unreadable line, or a length that is not the one the line gives."""
    heads: dict[bytes, _PackedHead | None] = {}
    readable: dict[str, bool] = {}

    def find(settings: str, data: bytes) -> tuple[_PackedHead, int] | None:
        ok = readable.get(settings)
        if ok is None:
            ok = readable[settings] = settings.partition(".")[0] in ("2", "3") and samples_current(settings)
        if not ok:
            return None
        try:
            end = 4 + int.from_bytes(data[:4], "big")
            newline = data.index(b"\n", 4, end)
        except ValueError:
            return None
        line = data[4:newline]
        if line in heads:
            head = heads[line]
        else:
            head = heads[line] = _parse_packed_head(line)
        if head is None or newline + 1 + head[4] != end or end > len(data):
            return None
        return head, newline + 1

    return find


def sample_units_locator() -> Callable[[str, bytes], tuple[dict[str, float], dict[str, UnitsPlace], int] | None]:
    """For many results of the packed layouts (2 and 3): where each metric's per-sample values lie in the run
    index's ``data``, not read — ``(values, metric → UnitsPlace, where the packed values start)``, so that a
    caller joins the values of many results into one array (the rankings: a dataset's models at once).

    The first line is parsed and checked as :func:`sample_values_reader` does (``None`` where it reads
    nothing).  A metric whose values are kept as JSON, or that has none, has no place (the caller reads those
    results with :func:`sample_values_reader`).

    >>> from assay.rundir.sidecar import REPORT_OPTIONS, SavedStats
    >>> saved = SavedStats('0' * 64, None, REPORT_OPTIONS, {'accuracy': 200 / 3}, ResultStats(),
    ...     {'accuracy': {'kind': 'binary', 'units': [1.0, 0.0, 1.0], 'scale': 100.0, 'runs': 1, 'basis': 'correct'}})
    >>> settings, data = index_samples(saved)
    >>> values, places, start = sample_units_locator()(settings, data)
    >>> (kind, scale, runs, basis, packing, count), begin, stop = places['accuracy']
    >>> (kind, packing, count), data[start + begin:start + stop]
    (('binary', 'u1', 3), b'\\x01\\x00\\x01')
    """
    find = _packed_heads()

    def locate(settings: str, data: bytes) -> tuple[dict[str, float], dict[str, UnitsPlace], int] | None:
        located = find(settings, data)
        return None if located is None else (located[0][0], located[0][1], located[1])

    return locate


def _columns(found: SampleColumns) -> tuple[list[Any], ...]:
    return found.ids, found.ref, found.raw, found.ext, found.ok


def packed_columns(data: bytes) -> tuple[int, memoryview | None] | None:
    """The sample browser's columns in the run index's ``data`` (:func:`index_samples`) as they are kept, not
    decompressed: ``(number of samples, the zlib stream)``, ``(0, None)`` when it has none; ``None`` when
    the number is not kept before them (a layout before 3, or unreadable data: :func:`column_parts` reads them).

    >>> from assay.rundir.sidecar import REPORT_OPTIONS, SavedStats
    >>> saved = SavedStats('0' * 64, None, REPORT_OPTIONS, {'acc': 50.0}, ResultStats(columns=SampleColumns(
    ...     ['a', 'b'], ['A', 'B'], ['x', 'y'], ['A', 'C'], [1.0, 0.0])), {})
    >>> n, stream = packed_columns(index_samples(saved)[1])
    >>> n, zlib.decompress(stream).split(b'\\n')[4]
    (2, b'["A","C"]')
    """
    try:
        at = 4 + int.from_bytes(data[:4], "big")
        if data[at] != _COUNTED:
            return None
        n = int.from_bytes(data[at + 1:at + 5], "big")
    except (IndexError, TypeError):
        return None
    if n == _NO_COLUMNS:
        return 0, None
    return n, memoryview(data)[at + 5:]  # no copy of the bytes


def column_parts(data: bytes) -> tuple[int, bytes, bytes, bytes, bytes, bytes] | None:
    """The sample browser's columns in the run index's ``data`` (:func:`index_samples`) unparsed: the number
    of samples and the JSON of ``ids``, ``ref``, ``raw``, ``ext`` and ``ok``, as orjson writes them;
    ``None`` when it has none or is unreadable."""
    counted = packed_columns(data)  # layout 3: the number of samples before the columns
    if counted is not None and counted[1] is None:
        return None
    try:
        stream = counted[1] if counted is not None else None
        if stream is None:  # an earlier layout: the columns alone after the values
            stream = memoryview(data)[4 + int.from_bytes(data[:4], "big"):]
        text = zlib.decompress(stream)  # no copy of the bytes
        if text == b"null":
            return None
        n, ids, ref, raw, ext, ok = text.split(b"\n")
        return int(n), ids, ref, raw, ext, ok
    except (zlib.error, ValueError):
        return None


def columns_of(data: bytes) -> SampleColumns | None:
    """The sample browser's columns in the run index's ``data`` (:func:`index_samples`), parsed; ``None``
    when it has none or is unreadable."""
    parts = column_parts(data)
    if parts is None:
        return None
    try:
        return SampleColumns(*(loads_json(p) for p in parts[1:]))
    except ValueError:
        return None


def sidecar_samples(result_path: str, digest: str | None) -> tuple[str, bytes] | None:
    """:func:`index_samples` of the ``.stats`` file beside a result, while it was computed from the
    result's present bytes (``digest``, when the caller knows it); ``None`` otherwise.

    A run indexed before the index kept samples is read from its ``.stats``
    files once, and what is read kept in the index (:meth:`assay.rundir.index.Snapshot.put_samples`).
    """
    from assay.rundir.sidecar import load_stats

    saved = load_stats(result_path, digest)
    return None if saved is None else index_samples(saved)
