"""Reading prediction files (R-1.2).

Formats, for one (model, dataset):

* ``<abbr>.json``: one JSON object keyed ``"0".."N-1"``, each record holding
  ``prediction`` (a string, or a list of strings for several return sequences)
  and usually ``origin_prompt`` and ``gold``; other keys pass through;
* ``<abbr>_0.json``, ``<abbr>_1.json``, …: split files read in order and
  concatenated, used when ``<abbr>.json`` is absent;
* ``<abbr>.jsonl``: one record per line, ordered by an ``id`` field when every
  record has one, else in file order.

Example:
    >>> import json, pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / 'toy.json').write_text(json.dumps({'0': {'prediction': 'A'}, '1': {'prediction': 'B', 'gold': 'B'}}))
    >>> p = load_predictions(d, 'toy')
    >>> p.columns()['prediction'], p.columns()['gold']
    (['A', 'B'], [None, 'B'])
"""

from __future__ import annotations

import hashlib
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from assay.errors import InputFileError

logger = logging.getLogger(__name__)

__all__ = ["Predictions", "find_prediction_files", "load_predictions"]


@dataclass
class Predictions:
    """The records of one (model, dataset), in sample order."""

    records: list[dict[str, Any]]
    files: list[Path] = field(default_factory=list)
    digest: str = ""

    def __len__(self) -> int:
        return len(self.records)

    def columns(self) -> dict[str, list[Any]]:
        """Every field found in any record, as a column (``None`` where a record lacks it)."""
        keys: dict[str, None] = {}
        for rec in self.records:
            for key in rec:
                keys.setdefault(key, None)
        return {key: [rec.get(key) for rec in self.records] for key in keys}

    @property
    def location(self) -> str:
        if len(self.files) == 1:
            return str(self.files[0])
        return f"{self.files[0]} … {self.files[-1].name} ({len(self.files)} files)" if self.files else "(no file)"


def find_prediction_files(folder: str | os.PathLike[str], abbr: str) -> list[Path]:
    """The file(s) holding ``abbr``'s predictions in ``folder``.

    Raises:
        InputFileError: naming every file that was looked for.
    """
    d = Path(folder)
    whole = d / f"{abbr}.json"
    if whole.is_file():
        return [whole]
    parts: list[Path] = []
    while (d / f"{abbr}_{len(parts)}.json").is_file():
        parts.append(d / f"{abbr}_{len(parts)}.json")
    if parts:
        return parts
    jsonl = d / f"{abbr}.jsonl"
    if jsonl.is_file():
        return [jsonl]
    if not d.is_dir():
        raise InputFileError(f"prediction folder {d} does not exist")
    raise InputFileError(f"no predictions for dataset {abbr!r}: looked for {whole}, {d / (abbr + '_0.json')} and {jsonl}")


def load_predictions(folder: str | os.PathLike[str], abbr: str) -> Predictions:
    """Read and validate the predictions of dataset ``abbr`` from ``folder``."""
    files = find_prediction_files(folder, abbr)
    digest = hashlib.sha256()
    records: list[dict[str, Any]] = []
    for path in files:
        data = path.read_bytes()
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
        if path.suffix == ".jsonl":
            records.extend(_parse_jsonl(data, path))
        else:
            records.extend(_parse_json(data, path))
    nulls = 0
    for rec in records:
        if rec.get("prediction") is None:
            rec["prediction"] = ""
            nulls += 1
    if nulls:
        logger.warning("%s: %d records have a null prediction; they are scored as empty replies", files[0], nulls)
    return Predictions(records=records, files=files, digest=digest.hexdigest())


def _check_record(rec: Any, path: Path, where: str) -> dict[str, Any]:
    if not isinstance(rec, dict):
        raise InputFileError(f"prediction file {path}: record {where} must be a JSON object, got {type(rec).__name__}")
    if "prediction" not in rec:
        raise InputFileError(f"prediction file {path}: record {where} has no 'prediction' field (fields: {', '.join(sorted(rec)) or 'none'})")
    pred = rec["prediction"]
    if not (pred is None or isinstance(pred, (str, dict)) or (isinstance(pred, list) and all(isinstance(p, (str, dict)) or p is None for p in pred))):
        raise InputFileError(
            f"prediction file {path}: record {where} has prediction of type {type(pred).__name__} "
            f"({pred!r:.60}); expected a string or a list of strings"
        )
    return rec


def _parse_json(data: bytes, path: Path) -> list[dict[str, Any]]:
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
    n = len(obj)
    expected = {str(i) for i in range(n)}
    if set(obj) != expected:
        missing = sorted(int(k) for k in expected - set(obj))[:5]
        extra = sorted(set(obj) - expected, key=lambda k: (len(k), k))[:5]
        detail = []
        if missing:
            detail.append(f"missing keys {[str(m) for m in missing]}")
        if extra:
            detail.append(f"unexpected keys {extra}")
        raise InputFileError(
            f"prediction file {path}: keys must be the contiguous indices \"0\"..\"{n - 1}\"; " + ", ".join(detail)
        )
    return [_check_record(obj[str(i)], path, f'"{i}"') for i in range(n)]


def _parse_jsonl(data: bytes, path: Path) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for lineno, line in enumerate(data.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise InputFileError(f"prediction file {path}, line {lineno}: not valid JSON ({exc})") from None
        records.append(_check_record(rec, path, f"on line {lineno}"))
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
