"""Reading prediction files (R-1.2).

Formats, for one (model, dataset):

* ``<abbr>.json``: one JSON object keyed ``"0".."N-1"``, each record holding
  ``prediction`` (a string, or a list of strings for several return sequences)
  and usually ``origin_prompt`` and ``gold``; other keys pass through;
* ``<abbr>_0.json``, ``<abbr>_1.json``, …: split files read in order and
  concatenated, used when ``<abbr>.json`` is absent.  A gap (``_2`` missing
  while ``_3`` exists) is an error naming the missing parts, unless a partial
  read is asked for (R-12.2): then the parts there are are read, and
  :attr:`Predictions.missing_parts` names the others;
* ``<abbr>.jsonl``: one record per line, ordered by an ``id`` field when every
  record has one, else in file order.

A record of OpenCompass's likelihood inferencers holds no ``prediction``, only
its statistics (``ppl``, ``mink``, ``loss``: perplexity, Min-K% and sliding
cross-entropy, with ``token_len`` or ``total_chr_num`` beside them), which
their evaluators read; its prediction is read as ``''`` (there is no reply).

A JSON object that gives a sample key more than once is read as OpenCompass
reads it (Python's ``json``: the last value wins), and reported: a warning
naming the file and the keys, and :attr:`Predictions.duplicates` (R-12.2).
The check costs a count of colons in the bytes against the parsed records;
only when the counts differ (or the file escapes a colon) are the keys read
again one by one.

Example:
    >>> import json, pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / 'toy.json').write_text(json.dumps({'0': {'prediction': 'A'}, '1': {'prediction': 'B', 'gold': 'B'}}))
    >>> p = load_predictions(d, 'toy')
    >>> p.columns()['prediction'], p.columns()['gold']
    (['A', 'B'], [None, 'B'])
"""

from __future__ import annotations

import logging
import operator
import os
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson

from assay._dataclass import FACTORY, DataclassMethods
from assay.errors import InputFileError
from assay.fileio import iter_jsonl

logger = logging.getLogger(__name__)

_PREDICTION = operator.methodcaller("get", "prediction")
#: The fields that make a record without ``prediction`` a likelihood inferencer's record.
_LIKELIHOOD_FIELDS = ("ppl", "mink", "loss")

__all__ = ["Predictions", "find_prediction_files", "load_predictions"]


@dataclass(init=False, repr=False, eq=False)
class Predictions(DataclassMethods):
    """The records of one (model, dataset), in sample order."""

    records: list[dict[str, Any]]
    files: list[Path] = field(default_factory=list)
    #: Fields present in the file but dropped while reading (see ``keep`` of :func:`load_predictions`).
    dropped: list[str] = field(default_factory=list)
    #: Split files only: the part number of each file of :attr:`files`, and the records each holds.
    parts: list[tuple[int, int]] = field(default_factory=list)
    #: Split files read partially: the part numbers missing before the last part found.
    missing_parts: list[int] = field(default_factory=list)
    #: Files whose JSON object gives a key more than once: file → each repeated occurrence's key, in file order.
    duplicates: dict[Path, list[str]] = field(default_factory=dict)

    def __init__(
        self,
        records: list[dict[str, Any]],
        files: list[Path] = FACTORY,
        dropped: list[str] = FACTORY,
        parts: list[tuple[int, int]] = FACTORY,
        missing_parts: list[int] = FACTORY,
        duplicates: dict[Path, list[str]] = FACTORY,
    ) -> None:
        self.records = records
        self.files = [] if files is FACTORY else files
        self.dropped = [] if dropped is FACTORY else dropped
        self.parts = [] if parts is FACTORY else parts
        self.missing_parts = [] if missing_parts is FACTORY else missing_parts
        self.duplicates = {} if duplicates is FACTORY else duplicates

    def duplicates_meta(self, first: int = 10) -> dict[str, Any] | None:
        """``{"count": records overridden, "files": {file: [first keys]}}`` for a result's ``_meta``; ``None`` when none."""
        if not self.duplicates:
            return None
        count = sum(map(len, self.duplicates.values()))
        return {"count": count, "files": {str(f): list(dict.fromkeys(keys))[:first] for f, keys in self.duplicates.items()}}

    def __len__(self) -> int:
        return len(self.records)

    def columns(self, only: Collection[str] | None = None) -> dict[str, list[Any] | None]:
        """Every field found in any record, as a column (``None`` where a record lacks it).

        With ``only``, the other fields are still named (their value is ``None``)
        but their columns are not built.
        """
        records = self.records
        keys: dict[str, None] = dict.fromkeys(records[0]) if records else {}
        if not set().union(*records).issubset(keys):  # some records have fields the first lacks
            for rec in records:
                for key in rec:
                    keys.setdefault(key, None)
        return {key: _column(records, key) if only is None or key in only else None for key in keys}

    @property
    def location(self) -> str:
        if len(self.files) == 1:
            return str(self.files[0])
        return f"{self.files[0]} … {self.files[-1].name} ({len(self.files)} files)" if self.files else "(no file)"


def _column(records: list[dict[str, Any]], key: str) -> list[Any]:
    """Each record's ``key`` (``None`` where a record lacks it)."""
    try:
        return list(map(operator.itemgetter(key), records))  # the usual case: every record has it
    except KeyError:
        return list(map(operator.methodcaller("get", key), records))


def find_prediction_files(folder: str | os.PathLike[str], abbr: str, *, partial: bool = False) -> list[Path]:
    """The file(s) holding ``abbr``'s predictions in ``folder``.

    Split files ``<abbr>_0.json``, ``<abbr>_1.json``, … must be contiguous from
    ``_0``; with ``partial``, the parts there are are returned even with a gap.

    Raises:
        InputFileError: naming every file that was looked for, or the missing
            parts of split files and the folder.
    """
    d = Path(folder)
    whole = d / f"{abbr}.json"
    if whole.is_file():
        return [whole]
    found, missing = split_prediction_parts(d, abbr)
    if missing and not partial:
        raise InputFileError(_gap_message(d, abbr, found, missing))
    if found:
        return [path for _, path in found]
    jsonl = d / f"{abbr}.jsonl"
    if jsonl.is_file():
        return [jsonl]
    if not d.is_dir():
        from assay.rundir.layout import missing_folder_message

        raise InputFileError(missing_folder_message(d, "prediction folder"))
    raise InputFileError(f"no predictions for dataset {abbr!r}: looked for {whole}, {d / (abbr + '_0.json')} and {jsonl}")


_PART = re.compile(r"_(0|[1-9][0-9]*)\.json")


def split_prediction_parts(folder: Path, abbr: str) -> tuple[list[tuple[int, Path]], list[int]]:
    """The split prediction files ``<abbr>_<k>.json`` in ``folder``, by part number, and the
    part numbers missing before the last one found.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> for k in (0, 1, 3):
    ...     _ = (d / f'svamp_{k}.json').write_text('{}')
    >>> found, missing = split_prediction_parts(d, 'svamp')
    >>> [(k, p.name) for k, p in found], missing
    ([(0, 'svamp_0.json'), (1, 'svamp_1.json'), (3, 'svamp_3.json')], [2])
    """
    prefix = f"{abbr}_"
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix)]
    except OSError:
        return [], []
    numbers = sorted({int(m.group(1)) for n in names if (m := _PART.fullmatch(n, len(abbr))) and (folder / n).is_file()})
    found = [(k, folder / f"{abbr}_{k}.json") for k in numbers]
    present = set(numbers)
    missing = [k for k in range(numbers[-1]) if k not in present] if numbers else []
    return found, missing


def _gap_message(folder: Path, abbr: str, found: list[tuple[int, Path]], missing: list[int]) -> str:
    names = ", ".join(f"{abbr}_{k}.json" for k in missing[:10]) + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
    there = ", ".join(f"_{k}" for k, _ in found[:12]) + (" …" if len(found) > 12 else "")
    return (
        f"split predictions of {abbr!r} in {folder} are incomplete: {names} missing "
        f"(parts there: {there}); their samples would not be scored. Restore the missing part(s), "
        "or ask for a partial score (assay eval --allow-partial, or eval=dict(allow_partial=True) in the config)"
    )


def load_predictions(
    folder: str | os.PathLike[str],
    abbr: str,
    *,
    keep: Collection[str] | None = None,
    contents: Mapping[Path, bytes] | None = None,
    partial: bool = False,
) -> Predictions:
    """Read and validate the predictions of dataset ``abbr`` from ``folder``.

    Args:
        keep: the record fields a big file needs (``prediction`` is always
            kept); while a big file is parsed in blocks, the others are dropped,
            which saves memory, and their names listed in
            :attr:`Predictions.dropped`.  ``None`` keeps every field.
        contents: the bytes of files the caller has read already, by path
            (as :func:`find_prediction_files` names them); they are not read again.
        partial: read split files with a gap (see :func:`find_prediction_files`);
            :attr:`Predictions.missing_parts` names the parts missing.

    A big pretty-printed JSON file (as OpenCompass writes them) is parsed in
    blocks of records, so the file's bytes and the parsed records of all of it
    are never held at once.
    """
    files = find_prediction_files(folder, abbr, partial=partial)
    records: list[dict[str, Any]] = []
    sizes: list[int] = []
    keep_set = None if keep is None else frozenset(keep) | {"prediction"}
    dropped: dict[str, None] = {}
    duplicates: dict[Path, list[str]] = {}
    for path in files:
        streamed = None
        if path.suffix != ".jsonl" and not (contents and path in contents) and path.stat().st_size > STREAM_THRESHOLD:
            streamed = _parse_json_blocks(path, keep_set, dropped, duplicates)
        if streamed is not None:
            records.extend(streamed)
            sizes.append(len(streamed))
            continue
        data = contents.get(path) if contents else None
        if data is None:
            data = path.read_bytes()
        part = _parse_jsonl(data, path) if path.suffix == ".jsonl" else _parse_json(data, path, duplicates)
        del data
        records.extend(part)
        sizes.append(len(part))
    nulls = 0
    for rec in records if None in map(_PREDICTION, records) else ():
        if rec.get("prediction") is None:
            rec["prediction"] = ""
            nulls += 1
    if nulls:
        logger.warning("%s: %d records have a null prediction; they are scored as empty replies", files[0], nulls)
    for path, keys in duplicates.items():
        shown = ", ".join(repr(k) for k in list(dict.fromkeys(keys))[:10])
        logger.warning(
            "prediction file %s gives %d sample key(s) more than once (%s%s); the last value of each is used, as OpenCompass reads it",
            path, len(keys), shown, " …" if len(set(keys)) > 10 else "",
        )
    preds = Predictions(records=records, files=files, dropped=list(dropped), duplicates=duplicates)
    numbers = [int(m.group(1)) for f in files if (m := _PART.fullmatch(f.name, len(abbr)))]
    if len(numbers) == len(files) and files[0].name.startswith(f"{abbr}_"):  # split files
        preds.parts = list(zip(numbers, sizes))
        present = set(numbers)
        preds.missing_parts = [k for k in range(numbers[-1]) if k not in present]
    return preds


#: Files above this size are parsed in blocks of records (see _parse_json_blocks).
STREAM_THRESHOLD = 32 << 20
_BLOCK = 16 << 20


def _parse_json_blocks(
    path: Path, keep: frozenset[str] | None, dropped: dict[str, None], duplicates: dict[Path, list[str]]
) -> list[dict[str, Any]] | None:
    """Parse a pretty-printed ``{"0": {...}, "1": {...}}`` file a block of records at a time.

    Returns the records, or ``None`` when the layout is not recognised or
    anything does not parse; the caller then reads the file whole, which also
    gives the precise error message.

    Relies on the layout ``json.dump(..., indent=N)`` writes: each top-level
    member starts on its own line with the same indentation, deeper lines are
    indented further, and JSON strings hold no raw newline.  A block is cut
    just before a line ``,<newline><indent>"``, so each piece is a run of
    whole members.
    """
    obj: dict[str, Any] = {}
    labelled: set[str] = set()
    repeated: list[str] = []
    with path.open("rb") as fh:
        head = fh.read(_BLOCK)
        brace = head.find(b"{")
        if brace < 0 or head[:brace].strip():
            return None
        line = head.find(b"\n", brace) + 1
        quote = head.find(b'"', line)
        indent = head[line:quote]
        if line <= 0 or quote < 0 or not indent or indent.strip(b" \t") or head[brace + 1 : line].strip():
            return None
        separator = re.compile(rb",\r?\n" + re.escape(indent) + rb'"')
        buffer = head[brace + 1 :]
        del head
        while True:
            block = fh.read(_BLOCK)
            if not block:
                break
            buffer += block
            del block
            last = None
            for match in separator.finditer(buffer, max(0, len(buffer) - _BLOCK - 64)):
                last = match
            if last is None:
                continue
            if not _parse_members(buffer[: last.start()], obj, keep, dropped, labelled, repeated):
                return None
            buffer = buffer[last.start() + 1 :]
        tail = buffer.rstrip()
        if not tail.endswith(b"}") or not _parse_members(tail[:-1], obj, keep, dropped, labelled, repeated):
            return None
    if repeated:
        duplicates[path] = repeated
    return _records_in_order(obj, path, labelled, repeated)


def _parse_members(
    members: bytes,
    obj: dict[str, Any],
    keep: frozenset[str] | None,
    dropped: dict[str, None],
    labelled: set[str],
    repeated: list[str],
) -> bool:
    text = b"{" + members + b"}"
    try:
        part = orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    repeated.extend(repeated_keys(text, part))
    if len(obj):
        repeated.extend(key for key in part if key in obj)  # given again in a later block
    for key, rec in part.items():
        if isinstance(rec, dict) and _is_label_record(rec):
            labelled.add(key)  # noted before its label fields may be dropped
        if keep is not None and isinstance(rec, dict) and "prediction" in rec and not keep.issuperset(rec):
            for field_name in rec:
                if field_name not in keep:
                    dropped.setdefault(field_name, None)
            rec = {k: v for k, v in rec.items() if k in keep}
        obj[key] = rec
    return True


def _is_label_record(rec: dict[str, Any]) -> bool:
    """A PPL or log-likelihood record (``'label: <label>'`` fields): its prediction is the chosen label, maybe a number."""
    return any(key.startswith("label: ") for key in rec)


def _is_probability_record(rec: dict[str, Any]) -> bool:
    """A conditional-probability record (OpenCompass's ``CLPInferencer``: ``pred_label`` beside it): its prediction is
    one probability per choice."""
    pred = rec.get("prediction")
    return ("pred_label" in rec and isinstance(pred, list) and bool(pred)
            and all(isinstance(p, (int, float)) and not isinstance(p, bool) for p in pred))


def _check_record(rec: Any, path: Path, where: str, label_record: bool = False) -> dict[str, Any]:
    if not isinstance(rec, dict):
        raise InputFileError(f"prediction file {path}: record {where} must be a JSON object, got {type(rec).__name__}")
    if "prediction" not in rec and any(key in rec for key in _LIKELIHOOD_FIELDS):
        rec["prediction"] = ""  # a likelihood inferencer's statistics: no reply
    if "prediction" not in rec:
        raise InputFileError(f"prediction file {path}: record {where} has no 'prediction' field (fields: {', '.join(sorted(rec)) or 'none'})")
    pred = rec["prediction"]
    if not (
        pred is None
        or isinstance(pred, (str, dict))
        or (isinstance(pred, list) and all(isinstance(p, (str, dict)) or p is None for p in pred))
        or (isinstance(pred, (int, float)) and (label_record or _is_label_record(rec)))
        or _is_probability_record(rec)
    ):
        raise InputFileError(
            f"prediction file {path}: record {where} has prediction of type {type(pred).__name__} "
            f"({pred!r:.60}); expected a string or a list of strings"
        )
    return rec


def repeated_keys(data: bytes, obj: dict[str, Any]) -> list[str]:
    """The keys the JSON object in ``data`` (parsed: ``obj``) gives again after their first time, in file order.

    Cheap when there are none: every key of the text is followed by one colon
    outside strings, and ``obj`` serialized again holds the colons of the keys
    it kept and of its strings (never escaped).  Without a repeated key (at any
    depth) and without a colon escaped as ``\\u003a``, the two counts are
    equal; a repeated key adds at least one colon to the text.  Only when they
    differ, or the text escapes ``\\u003…``, are the keys read again one by one.

    >>> repeated_keys(b'{"0": {"p": "a:b"}, "1": {"p": "c"}, "0": {"p": "d"}}', {"0": {"p": "d"}, "1": {"p": "c"}})
    ['0']
    >>> repeated_keys(b'{"0": {"p": "a:b"}}', {"0": {"p": "a:b"}})
    []
    """
    try:
        if _colons(data) == _colons(orjson.dumps(obj)) and b"\\u003" not in data:
            return []
    except (TypeError, orjson.JSONEncodeError):
        pass
    import json

    top: list[list[str]] = [[]]

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: set[str] = set()
        again = []
        for key, _ in pairs:
            if key in seen:
                again.append(key)
            seen.add(key)
        top[0] = again  # the outermost object is completed last
        return dict(pairs)

    json.loads(data, object_pairs_hook=pairs_hook)
    return top[0]


def _colons(data: bytes) -> int:
    """How many ``:`` bytes ``data`` holds (``count``: no copy of the file, and as fast whatever the colons' density).

    >>> _colons(b'{"a": "b:c"}')
    2
    """
    return data.count(b":")


def _parse_json(data: bytes, path: Path, duplicates: dict[Path, list[str]] | None = None) -> list[dict[str, Any]]:
    if not data.strip():
        raise InputFileError(f"prediction file {path} is empty")
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise InputFileError(f"prediction file {path} is not valid JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise InputFileError(
            f"prediction file {path} must hold a JSON object keyed \"0\"..\"N-1\", got a {type(obj).__name__}"
            + (" (a list of records belongs in a .jsonl file, one per line)" if isinstance(obj, list) else "")
        )
    repeated = repeated_keys(data, obj)
    if repeated and duplicates is not None:
        duplicates[path] = repeated
    return _records_in_order(obj, path, (), repeated)


@lru_cache(maxsize=8)
def _index_names(n: int) -> list[str]:
    """``["0", …, str(n - 1)]``, built once per size (the files of one dataset share it); read-only."""
    return [str(i) for i in range(n)]


_PREDICTION_ITEM = operator.itemgetter("prediction")


def _records_in_order(
    obj: dict[str, Any], path: Path, labelled: Collection[str] = (), repeated: Collection[str] = ()
) -> list[dict[str, Any]]:
    n = len(obj)
    names = _index_names(n)
    if list(obj) == names:  # the usual case: "0".."n-1" in order
        records = list(obj.values())
    else:
        expected = set(names)
        if obj.keys() != expected:
            missing = sorted(int(k) for k in expected - set(obj))[:5]
            extra = sorted(set(obj) - expected, key=lambda k: (len(k), k))[:5]
            detail = []
            if missing:
                detail.append(f"missing keys {[str(m) for m in missing]}")
            if extra:
                detail.append(f"unexpected keys {extra}")
            if repeated:
                detail.append(f"keys given more than once {list(dict.fromkeys(repeated))[:5]}")
            raise InputFileError(
                f"prediction file {path}: keys must be the contiguous indices \"0\"..\"{n - 1}\"; " + ", ".join(detail)
            )
        records = [obj[name] for name in names]
    try:
        # the usual case, checked in one sweep: JSON objects (only they take a string key) with a string prediction
        usual = set(map(type, map(_PREDICTION_ITEM, records))) == {str} and set(map(type, records)) == {dict}
    except (KeyError, TypeError):
        usual = False
    if usual:
        return records
    return [_check_record(rec, path, f'"{i}"', names[i] in labelled) for i, rec in enumerate(records)]


def _parse_jsonl(data: bytes, path: Path) -> list[dict[str, Any]]:
    records = [
        _check_record(rec, path, f"on line {lineno}") for lineno, rec in iter_jsonl(data.splitlines(), what="prediction file", path=path)
    ]
    if not records:
        raise InputFileError(f"prediction file {path} holds no records")
    if all("id" in r for r in records):
        try:
            ids = [int(r["id"]) for r in records]
        except (TypeError, ValueError):
            raise InputFileError(f"prediction file {path}: every 'id' must be an integer") from None
        if sorted(ids) != list(range(len(records))):
            raise InputFileError(f"prediction file {path}: ids must be 0..{len(records) - 1}, each once")
        ordered: list[dict[str, Any]] = [{}] * len(records)
        for i, r in zip(ids, records):
            ordered[i] = r
        return ordered
    return records
