"""The sample browser's data: one chunk per dataset, read in worker processes for large runs.

Each chunk is one dataset's columns, every model side by side (see
:func:`sample_table`), as the compact JSON the page reads when the dataset is
opened.  A chunk is read from the run index, where the eval workers put each
result's columns (:func:`assay.rundir.stats_index.index_samples`), else from
the ``.stats`` files they wrote beside each result while they hold its present
bytes (what is read there is then kept in the index for the next report), else
from the result and prediction files.  A run of many results is read by forked
workers, one dataset at a time, each returning its chunk's bytes.

Where the index keeps every model's columns of a dataset compressed with their
number of samples, the chunk holds them as they are kept (``packed``: base64
of each model's compressed columns): nothing is decompressed or written again
for the page, which decompresses a dataset's columns when it is opened
(:func:`unpack_samples` reads them as it does).
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import orjson

from assay._dataclass import DataclassMethods
from assay.audit import AuditRecord, ToolAudit
from assay.stats import SAMPLE_TEXT

_T = TypeVar("_T")

logger = logging.getLogger(__name__)


def payload(value: Any) -> bytes:
    """``value`` as compact JSON for a ``<script type="application/json">`` element.

    Every ``<`` is written as ``\\u003c``, so that no text in the data can
    close the element or open a comment, and the element's content stays plain
    JSON.  orjson writes it; the standard library takes over for what orjson
    refuses (a lone surrogate, written as an escape, or an integer beyond 64 bits).

    >>> payload({'t': ['</script>', 'é'], 'ok': [0.5, None]})
    b'{"t":["\\\\u003c/script>","\\xc3\\xa9"],"ok":[0.5,null]}'
    """
    try:
        data = orjson.dumps(value)
    except TypeError:
        data = json.dumps(value, separators=(",", ":")).encode("ascii")
    return data.replace(b"<", b"\\u003c")


def _audit_columns(audit: AuditRecord | None, n: int, limit: int) -> dict[str, Any] | None:
    """The sample browser's view of one model's audit: the differing samples and their corrected readings."""
    from assay.stats import browser_text

    if audit is None or audit.error is not None:
        return None
    samples = [j for j in audit.samples if 0 <= j < n]
    plain = audit.plain_readings()
    if plain is not None:  # the readings as read from JSON: the same columns, without building them
        return _plain_audit_columns(samples, plain, limit)
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


def _plain_audit_columns(samples: list[int], plain: list[dict[str, Any]], limit: int) -> dict[str, Any]:
    """:func:`_audit_columns` of readings as :meth:`~assay.audit.AuditRecord.plain_readings` gives them (their
    verdicts true or false: 1.0 or 0.0 here, as a :class:`~assay.audit.Reading` holds them)."""
    from assay.stats import browser_text

    ext: list[str] = []
    ok: list[float | None] = []
    count = len(plain)
    for k in range(len(samples)):
        reading = plain[k] if k < count else None
        corrected = reading["corrected"] if reading is not None else None
        correct = reading.get("correct") if reading is not None else None
        if corrected is not None and len(corrected) == 1 and type(corrected[0]) is str and len(corrected[0]) <= limit:
            ext.append(corrected[0])
        else:
            ext.append(browser_text(corrected, limit))
        if correct is not None and len(correct) == 1:
            ok.append(1.0 if correct[0] else 0.0)
            continue
        verdicts = [1.0 if v else 0.0 for v in correct or []]
        ok.append(round(sum(verdicts) / len(verdicts), 6) if verdicts else None)
    return {"samples": samples, "ext": ext, "ok": ok}


def _tool_columns(audit: ToolAudit | None, n: int, limit: int) -> dict[str, Any] | None:
    """The sample browser's view of one model's comparison with another tool's extraction: the tool and its
    extraction (``name``), the samples it reads differently, its readings and their verdicts."""
    if audit is None:
        return None
    found = _audit_columns(audit.record, n, limit)
    return None if found is None else {"name": f"{audit.tool} {audit.extraction}", **found}


def _add_tool_columns(out: dict[str, Any], tool_audits: Any, columns: Sequence[str], abbr: str, n: int, limit: int) -> None:
    """Put each model's :func:`_tool_columns` under the chunk's ``tool`` when any model has one."""
    if not tool_audits:
        return
    tool = [_tool_columns(tool_audits.get(c, {}).get(abbr), n, limit) for c in columns]
    if any(t is not None for t in tool):
        out["tool"] = tool


def filled_refs(refs: list[Any], others: Iterable[Sequence[Any]]) -> list[Any]:
    """``refs`` (the first model's references) with each empty one taken from the next model's that has one;
    ``others`` (the other models' references, in order) is read only while some are empty.

    >>> filled_refs(['a', '', None], iter([['x', '', 'z'], ['y', 'b', 'w']]))
    ['a', 'b', 'z']
    """
    rest = iter(others)
    empty = [i for i, r in enumerate(refs) if not r]
    while empty:
        theirs = next(rest, None)
        if theirs is None:
            break
        for i in empty:
            refs[i] = theirs[i]
        empty = [i for i in empty if not refs[i]]
    return refs


def sample_table(
    tables: Any, columns: list[str], abbr: str, audits: Any = None, limit: int = SAMPLE_TEXT, tool_audits: Any = None,
) -> dict[str, Any] | None:
    """The sample browser's data of one dataset, or ``None`` when no model has details.

    ``tables`` holds each model's :class:`assay.stats.SampleColumns`.  Models
    whose sample count is not the most models' are left out (:func:`_of_one_count`);
    the ids are the first model's kept, each reference the first non-empty one.  ``audits`` give
    each model's extraction audit (the chunk's ``audit``), ``tool_audits`` each
    model's comparison with another tool's own extraction (its ``tool``), by column and dataset.
    """
    per_model, n = _of_one_count([(column, found.n, found) for column in columns
                                  if (found := tables.columns.get((column, abbr))) is not None], abbr)
    if not per_model or n is None:
        return None
    refs = filled_refs(list(per_model[0][1].ref), (found.ref for _, found in per_model[1:]))
    out = {"abbr": abbr, "n": n, "models": [c for c, _ in per_model], "ids": per_model[0][1].ids,
           "ref": refs, "raw": [f.raw for _, f in per_model], "ext": [f.ext for _, f in per_model],
           "ok": [f.ok for _, f in per_model]}
    audit = [_audit_columns((audits or {}).get(c, {}).get(abbr), n, limit) for c, _ in per_model]
    if any(a is not None for a in audit):
        out["audit"] = audit
    _add_tool_columns(out, tool_audits, [c for c, _ in per_model], abbr, n, limit)
    return out

#: Runs with at least this many (model, dataset) results to read from files (not from the run index) are
#: read by worker processes.
FORK_AT = 2_000


@dataclass(repr=False, eq=False)
class _Tables(DataclassMethods):
    """The few parts of :class:`assay.rundir.statistics.SampleTables` a chunk is built from."""

    columns: dict[tuple[str, str], Any] = field(default_factory=dict)


@dataclass(repr=False, eq=False)
class Source(DataclassMethods):
    """Where the chunks are read from: the run, its model columns and folders, the datasets, the audits,
    and each result's digest as the run index has it (``None``: computed from the file)."""

    root: Path
    columns: list[str]
    abbrs: list[str]
    folders: dict[str, str]
    audits: Any
    digests: dict[tuple[str, str], str | None]
    text_limit: int
    #: (column, abbr) → what the run index holds of the result's samples (:func:`assay.rundir.stats_index.index_samples`)
    indexed: dict[tuple[str, str], bytes] = field(default_factory=dict)
    #: what was read from ``.stats`` files for want of the index's samples, for the index:
    #: (path relative to ``results/``, digest, settings, data)
    repairs: list[tuple[str, str, str, bytes]] = field(default_factory=list)
    #: column → dataset → its comparison with another tool's own extraction (:class:`assay.audit.ToolAudit`)
    tool_audits: Any = None


#: One result's columns as the page writes them: the number of samples, then the JSON of ids, ref, raw,
#: ext and ok (see :func:`assay.rundir.stats_index.column_parts`).
Parts = tuple[int, bytes, bytes, bytes, bytes, bytes]


def _parts(source: Source, column: str, abbr: str, repairs: list[tuple[str, str, str, bytes]]) -> Parts | None:
    """One (model, dataset)'s columns as JSON, unparsed: as the run index holds them, else written from
    :func:`_columns`; ``None`` without columns.

    Raises:
        TypeError: a text orjson cannot write (the caller writes the chunk as :func:`payload` does).
    """
    from assay.rundir.stats_index import column_parts

    held = source.indexed.get((column, abbr))
    if held is not None:
        found = column_parts(held)
        if found is not None:
            return found
    columns = _columns(source, column, abbr, repairs)
    if columns is None:
        return None
    dumps = orjson.dumps
    return columns.n, dumps(columns.ids), dumps(columns.ref), dumps(columns.raw), dumps(columns.ext), dumps(columns.ok)


def _columns(source: Source, column: str, abbr: str, repairs: list[tuple[str, str, str, bytes]]) -> Any:
    """One (model, dataset)'s columns: from the run index, else from its ``.stats`` file while it matches
    (what it holds then goes to ``repairs``), else read from the files."""
    from assay.rundir.layout import RunDir
    from assay.rundir.sidecar import load_columns
    from assay.rundir.statistics import Task, run_task
    from assay.rundir.stats_index import columns_of, samples_current, sidecar_samples
    from assay.stats import StatsOptions

    held = source.indexed.get((column, abbr))
    if held is not None:
        found = columns_of(held)
        if found is not None:
            return found
    folder = source.folders.get(column, column)
    path = RunDir(source.root).result_path(folder, abbr)
    digest = source.digests.get((column, abbr))
    found = None
    if digest is not None and held is None:  # an index without this result's samples: kept there now
        read = sidecar_samples(str(path), digest)
        if read is not None:
            repairs.append((f"{folder}/{abbr}.json", digest, *read))
            if samples_current(read[0], source.text_limit):
                found = columns_of(read[1])
    elif path.is_file():
        found = load_columns(path, digest, source.text_limit)
    if found is not None:
        return found
    return run_task(Task(column, abbr, folder, {}, True), str(source.root), StatsOptions(text_limit=source.text_limit)).columns


#: One dataset's chunk: its abbr, its number of samples, the JSON bytes the page holds.
Chunk = tuple[str, int, bytes]


def chunk(source: Source, abbr: str, repairs: list[tuple[str, str, str, bytes]] | None = None) -> Chunk | None:
    """One dataset's chunk; ``None`` when no model has details of it.  What is read from ``.stats`` files
    for the index goes to ``repairs`` (default: ``source.repairs``)."""
    kept = source.repairs if repairs is None else repairs
    packed = _packed(source, abbr)
    if packed is not None:
        return packed
    try:
        return _spliced(source, abbr, kept)
    except TypeError:  # a text orjson cannot write: the table built and written as payload() writes it
        pass
    tables = _Tables({(c, abbr): _columns(source, c, abbr, kept) for c in source.columns})
    table = sample_table(tables, source.columns, abbr, source.audits, source.text_limit, source.tool_audits)
    return None if table is None else (abbr, table["n"], payload(table))


def _packed(source: Source, abbr: str) -> Chunk | None:
    """:func:`chunk` of a dataset every model of which has its columns in the run index with their number of
    samples (:func:`assay.rundir.stats_index.packed_columns`): each model's compressed columns handed to the page
    as they are kept (base64, under ``packed``; the page decompresses them when the dataset is opened, as
    :func:`unpack_samples` does); ``None`` when a model's are not kept so (the chunk is then read as before)."""
    import base64

    from assay.rundir.stats_index import packed_columns

    found_all: list[tuple[str, int, memoryview]] = []
    indexed = source.indexed.get
    for column in source.columns:
        held = indexed((column, abbr))
        found = packed_columns(held) if held is not None else None
        if found is None or found[1] is None:  # not in the index so, or no columns there: read as before
            return None
        found_all.append((column, found[0], found[1]))
    kept, n = _of_one_count(found_all, abbr)
    if not kept or n is None:
        return None
    b64encode = base64.b64encode
    per_model = [(column, b'"' + b64encode(columns) + b'"') for column, columns in kept]
    fragment = orjson.Fragment
    out: dict[str, Any] = {"abbr": abbr, "n": n, "models": [c for c, _ in per_model],
                           "packed": [fragment(b) for _, b in per_model]}
    _add_audit_columns(out, source, [c for c, _ in per_model], abbr, n)
    data = orjson.dumps(out)
    return abbr, n, data.replace(b"<", b"\\u003c") if b"<" in data else data


def unpack_samples(data: dict[str, Any]) -> dict[str, Any]:
    """A dataset's sample data as the page reads it (a chunk of a report's sample files, parsed): a chunk whose
    columns are packed (``packed``: each model's compressed columns, base64) with its columns unpacked as the
    page unpacks them — the ids the first model's, each reference the first non-empty one, ``raw``, ``ext``
    and ``ok`` one list per model; any other chunk as it is.

    >>> import base64, zlib
    >>> pack = lambda text: base64.b64encode(zlib.compress(text.encode())).decode()
    >>> unpack_samples({'abbr': 'd', 'n': 2, 'models': ['a', 'b'], 'packed': [
    ...     pack('2\\n["1","2"]\\n["x",""]\\n["r1","r2"]\\n["x","y"]\\n[1.0,0.0]'),
    ...     pack('2\\n["1","2"]\\n["x","z"]\\n["s1","s2"]\\n["x","z"]\\n[1.0,1.0]')]})['ref']
    ['x', 'z']
    """
    if "packed" not in data:
        return data
    import base64
    import zlib

    columns = [[orjson.loads(line) for line in zlib.decompress(base64.b64decode(b)).split(b"\n")]
               for b in data["packed"]]
    out = {k: v for k, v in data.items() if k != "packed"}
    refs = filled_refs(list(columns[0][2]), (c[2] for c in columns[1:])) if columns else []
    out.update(ids=columns[0][1] if columns else [], ref=refs, raw=[c[3] for c in columns],
               ext=[c[4] for c in columns], ok=[c[5] for c in columns])
    return out


def _add_audit_columns(out: dict[str, Any], source: Source, models: list[str], abbr: str, n: int) -> None:
    """Put the models' extraction audits (``audit``) and comparisons with another tool (``tool``) into a chunk,
    when any has one."""
    audits = source.audits or {}
    if any(abbr in per for per in audits.values()):  # a dataset no model has an audit of has no audit column
        audit = [_audit_columns(audits.get(c, {}).get(abbr), n, source.text_limit) for c in models]
        if any(a is not None for a in audit):
            out["audit"] = audit
    _add_tool_columns(out, source.tool_audits, models, abbr, n, source.text_limit)


def _spliced(source: Source, abbr: str, repairs: list[tuple[str, str, str, bytes]]) -> Chunk | None:
    """:func:`chunk` from each model's columns as JSON, spliced into the chunk unparsed: the bytes
    :func:`payload` writes of :func:`sample_table`, only the references parsed (to fill those the first
    model lacks)."""
    from assay.rundir.stats_index import column_parts

    found_all: list[tuple[str, int, Parts]] = []
    indexed = source.indexed.get
    for column in source.columns:
        held = indexed((column, abbr))  # the run index's columns, taken here at once (fifty thousand times)
        found = column_parts(held) if held is not None else None
        if found is None:
            found = _parts(source, column, abbr, repairs)
        if found is not None:
            found_all.append((column, found[0], found))
    per_model, n = _of_one_count(found_all, abbr)
    if not per_model or n is None:
        return None
    refs = filled_refs(orjson.loads(per_model[0][1][2]), (orjson.loads(found[2]) for _, found in per_model[1:]))
    fragment = orjson.Fragment
    out: dict[str, Any] = {
        "abbr": abbr, "n": n, "models": [c for c, _ in per_model], "ids": fragment(per_model[0][1][1]), "ref": refs,
        "raw": [fragment(f[3]) for _, f in per_model], "ext": [fragment(f[4]) for _, f in per_model],
        "ok": [fragment(f[5]) for _, f in per_model],
    }
    _add_audit_columns(out, source, [c for c, _ in per_model], abbr, n)
    return abbr, n, orjson.dumps(out).replace(b"<", b"\\u003c")


def _of_one_count(found: list[tuple[str, int, _T]], abbr: str) -> tuple[list[tuple[str, _T]], int | None]:
    """The models of ``found`` ((model, its number of samples of ``abbr``, its columns)) whose number of samples is
    the most models' (the first model's among counts as common), with their columns, and that number; the others
    are left out of the browser, with a warning.

    >>> _of_one_count([("a", 3, "x"), ("b", 2, "y"), ("c", 2, "z")], "d")
    ([('b', 'y'), ('c', 'z')], 2)
    >>> _of_one_count([("a", 3, "x"), ("b", 2, "y")], "d")
    ([('a', 'x')], 3)
    """
    if not found:
        return [], None
    # the first of the most common counts, in the models' order (most_common keeps the first met among equals)
    ((n, _),) = Counter(count for _, count, _ in found).most_common(1)
    kept = []
    for column, count, columns in found:
        if count != n:
            logger.warning("report: %s has %d samples of %s, others %d; left out of the browser", column, count,
                           abbr, n)
            continue
        kept.append((column, columns))
    return kept, n


def from_tables(
    tables: Any, columns: Sequence[str], abbrs: Sequence[str], audits: Any, limit: int, tool_audits: Any = None,
) -> list[Chunk]:
    """The chunks of sample tables already read (with the statistics)."""
    out = []
    for abbr in dict.fromkeys(abbrs):
        table = sample_table(tables, list(columns), abbr, audits, limit, tool_audits)
        if table is not None:
            out.append((abbr, table["n"], payload(table)))
    return out


def read_chunks(source: Source, *, workers: int | None = None) -> list[Chunk]:
    """Every dataset's chunk, in the datasets' order (those without details left out).

    ``workers``: processes to read with; default: the usable CPUs when at
    least :data:`FORK_AT` results are to be read from files, else this process
    only (what the run index holds is spliced here: a result's columns cost a
    few microseconds, less than what forked workers add).
    """
    from assay._pool import usable_cpus

    abbrs = list(dict.fromkeys(source.abbrs))
    if workers is None:
        wanted = set(abbrs)
        from_files = len(abbrs) * len(source.columns) - sum(1 for _, a in source.indexed if a in wanted)
        workers = usable_cpus() if from_files >= FORK_AT else 1
    workers = min(workers, len(abbrs))
    done: dict[str, Chunk | None] = {}
    if workers > 1:
        done = _forked(source, abbrs, workers)
    for abbr in abbrs:
        if abbr not in done:  # in this process: a small run, or what no worker reported
            done[abbr] = chunk(source, abbr)
    return [found for abbr in abbrs if (found := done[abbr]) is not None]


def _forked(source: Source, abbrs: list[str], workers: int) -> dict[str, Chunk | None]:
    """The chunks read by ``workers`` forked processes, a dataset at a time; what they could not read is left out."""
    from assay._pool import ForkPool

    def work(i: int, emit: Any) -> None:
        try:
            repairs: list[tuple[str, str, str, bytes]] = []
            emit(("chunk", chunk(source, abbrs[i], repairs), repairs))
        except Exception as exc:  # read again in the parent, which reports it
            emit(("error", f"{type(exc).__name__}: {exc}"))

    chunk(source, abbrs[0])  # imports what the workers need once, before forking
    out: dict[str, Chunk | None] = {}
    try:
        pool = ForkPool(workers, work, name="assay-report")
    except OSError as exc:
        logger.info("could not start %d worker processes (%s)", workers, exc)
        return out
    queue = list(range(len(abbrs) - 1, -1, -1))
    try:
        while queue or pool.idle() < workers:
            while queue and pool.idle():
                pool.submit(queue.pop())
            for i, event in pool.events():
                if event[0] == "chunk":
                    out[abbrs[i]] = event[1]
                    source.repairs.extend(event[2])
                elif event[0] in ("error", "died"):
                    logger.debug("report: worker could not read %s: %s", abbrs[i], event[1])
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.close()
    return out


#: The layout of a chunk (bumped when it changes: chunks of another layout are not reused). Layout 2 may hold
#: packed columns, which the pages of earlier versions cannot read.
CHUNK_FORMAT = 2
#: The file listing the chunks in a report's sample folder: ``{"format", "chunks": {key: samples}}``.
MANIFEST = "manifest.json"


def chunk_keys(source: Source, abbrs: Sequence[str]) -> dict[str, str | None]:
    """What each dataset's chunk of ``abbrs`` is made of, as a digest: the text limit, and per model its folder,
    the digest of its result's bytes and its extraction audit (and comparison with another tool); ``None`` when a
    digest is unknown (no run index).  Each model's folder and audits are looked up once."""
    import hashlib

    audits, tools, digests = source.audits or {}, source.tool_audits or {}, source.digests
    empty: dict[str, Any] = {}
    models = [(column, source.folders.get(column, column), audits.get(column) or empty, tools.get(column) or empty)
              for column in source.columns]
    dumps, sha256 = orjson.dumps, hashlib.sha256
    out: dict[str, str | None] = {}
    for abbr in abbrs:
        parts: list[Any] = [CHUNK_FORMAT, source.text_limit]
        for column, folder, audited, tooled in models:
            digest = digests.get((column, abbr))
            if digest is None:
                parts = []
                break
            audit = audited.get(abbr)
            tool = tooled.get(abbr)
            parts.append([column, folder, digest, None if audit is None else audit.to_json(),
                          *([] if tool is None else [tool.to_json()])])
        out[abbr] = sha256(dumps(parts)).hexdigest()[:32] if parts else None
    return out


def chunk_file(key: str) -> str:
    """The name of a chunk's file in a report's sample folder."""
    return f"{key}.js"


def chunk_script(key: str, payload: bytes) -> bytes:
    """A chunk as the ``<script>`` file the page loads: a call handing it over."""
    return b'assaySamples("' + key.encode() + b'",' + payload + b");\n"


def script_payload(key: str, data: bytes) -> bytes | None:
    """The chunk a :func:`chunk_script` holds; ``None`` when it is not one of ``key``."""
    head = b'assaySamples("' + key.encode() + b'",'
    tail = b");\n"
    return data[len(head):-len(tail)] if data.startswith(head) and data.endswith(tail) else None


def earlier_chunks(summary_dir: Path) -> dict[str, tuple[Path, int]]:
    """The chunks of the run's earlier reports' sample folders, by key: (their file, their sample count).

    Every folder with a readable manifest of this chunk layout counts; the
    newest folder's file is taken where several hold a key.
    """
    import orjson

    out: dict[str, tuple[Path, int]] = {}
    manifests = []
    for manifest in summary_dir.glob(f"summary_*_files/{MANIFEST}"):
        try:
            manifests.append((manifest.stat().st_mtime_ns, manifest))
        except OSError:
            continue
    for _, manifest in sorted(manifests):
        try:
            data = orjson.loads(manifest.read_bytes())
            if data.get("format") != CHUNK_FORMAT:
                continue
            for key, n in data["chunks"].items():
                path = manifest.parent / chunk_file(key)
                if path.is_file():
                    out[key] = (path, int(n))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
    return out
