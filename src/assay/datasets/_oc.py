"""Helpers for the loaders that mirror OpenCompass's dataset classes (private).

They read files the way those classes read them (text mode with universal
newlines, the same JSON and CSV parsers) and build tables with the columns
``datasets.Dataset.from_list`` gives: the first row's keys, in its order.
Errors name the file, the line and the offending value.
"""

from __future__ import annotations

import csv
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from assay.datasets.table import RowTable
from assay.errors import InputFileError

__all__: list[str] = []

#: Where OpenCompass would have fetched a missing contamination-annotation file from.
ANNOTATIONS_HINT = (
    "OpenCompass downloads it from the Contamination_Detector releases "
    "(github.com/liyucheng09/Contamination_Detector) on first use; assay reads local files only, "
    "so put the file there"
)


def rows_table(rows: list[dict[str, Any]], where: str) -> RowTable:
    """The rows as a table whose columns are the first row's keys (``Dataset.from_list``'s rule).

    Keys a later row adds are dropped; keys it lacks are ``None``.

    >>> t = rows_table([{'a': 1}, {'a': 2, 'b': 3}, {}], 'rows')
    >>> t.column_names, t.column_values('a')
    (['a'], [1, 2, None])
    """
    if not rows:
        return RowTable([], where)
    keys = list(rows[0])
    same = [r if list(r) == keys else {k: r.get(k) for k in keys} for r in rows]
    return RowTable(same, where)


def as_datasets(value: Any) -> Any:
    """A loader's tables as ``datasets`` objects: a table gives a ``Dataset``, a dict of them a ``DatasetDict``."""
    import datasets

    if isinstance(value, dict):
        return datasets.DatasetDict({split: as_datasets(part) for split, part in value.items()})
    if isinstance(value, RowTable):
        return datasets.Dataset(value.to_arrow())
    return value


def open_text(path: str | Path, what: str, errors: str | None = None) -> Any:
    """``path`` opened for reading text as OpenCompass's loaders open it (UTF-8, universal newlines)."""
    try:
        return open(path, encoding="utf-8", errors=errors)
    except FileNotFoundError:
        raise InputFileError(f"{what}: file {path} does not exist") from None
    except OSError as exc:
        raise InputFileError(f"{what}: file {path} cannot be read: {exc}") from None


def csv_rows(path: str | Path, what: str) -> list[list[str]]:
    """The records of a CSV file, as ``csv.reader`` gives them on a file opened in text mode.

    A line break inside a quoted field reads as ``\\n``, whatever the file holds.
    """
    with open_text(path, what) as fh:
        try:
            return list(csv.reader(fh))
        except (csv.Error, UnicodeDecodeError) as exc:
            raise InputFileError(f"{what}: file {path} is not readable CSV: {exc}") from None


def json_lines(path: str | Path, what: str, *, strip: bool = False, errors: str | None = None) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for each line of a JSON Lines file; every line must hold JSON.

    ``strip`` parses each line stripped of surrounding white space (some loaders do).
    A blank line is an error, as it is for OpenCompass's loaders.
    """
    with open_text(path, what, errors=errors) as fh:
        try:
            lines = list(fh)
        except UnicodeDecodeError as exc:
            raise InputFileError(f"{what}: file {path} is not UTF-8 text: {exc}") from None
    for lineno, line in enumerate(lines, 1):
        try:
            yield lineno, json.loads(line.strip() if strip else line)
        except json.JSONDecodeError as exc:
            shown = line.strip()[:80]
            raise InputFileError(f"{what}: file {path}, line {lineno} is not JSON ({exc.msg}): {shown!r}") from None


def json_objects(path: str | Path, what: str, **options: Any) -> list[dict[str, Any]]:
    """The JSON objects of a JSON Lines file (each line must hold an object)."""
    rows = []
    for lineno, value in json_lines(path, what, **options):
        if not isinstance(value, dict):
            raise InputFileError(f"{what}: file {path}, line {lineno} holds {type(value).__name__}, expected a JSON object")
        rows.append(value)
    return rows


def read_json(path: str | Path, what: str) -> Any:
    """A whole JSON file."""
    with open_text(path, what) as fh:
        try:
            return json.load(fh)
        except json.JSONDecodeError as exc:
            raise InputFileError(f"{what}: file {path} is not JSON: {exc}") from None


def field(row: Any, key: Any, where: str) -> Any:
    """``row[key]``, or an error naming ``where`` and the missing key."""
    try:
        return row[key]
    except (KeyError, IndexError, TypeError):
        raise InputFileError(f"{where}: no {key!r} in {str(row)[:120]!r}") from None


def each_row(rows: list[Any], make: Callable[[Any, str], dict[str, Any]], where: str) -> list[dict[str, Any]]:
    """``make(row, 'where, row i')`` for each row."""
    return [make(row, f"{where}, row {i}") for i, row in enumerate(rows)]


def read_annotations(path: Path, what: str) -> dict[str, Any]:
    """A local contamination-annotation file (``{row id: [status, ...]}``)."""
    if not path.exists():
        raise InputFileError(f"{what}: contamination annotations {path} do not exist. {ANNOTATIONS_HINT}.")
    data = read_json(path, what)
    if not isinstance(data, dict):
        raise InputFileError(f"{what}: contamination annotations {path} must hold a JSON object")
    return data


def clean_status(notes: dict[str, Any], key: str) -> Any:
    """The contamination status OpenCompass gives a row: the annotation's first entry, else ``'not labeled'``."""
    if key in notes:
        return notes[key][0]
    return "not labeled"


def read_labelled(root: str, data_name: str, label_name: str, what: str) -> list[tuple[str, dict[str, Any], str]]:
    """``(where, object, label line)`` for each line of a data file and its label file.

    The files must have as many lines; a data line must hold a JSON object.
    """
    data_path, label_path = os.path.join(root, data_name), os.path.join(root, label_name)
    items = list(json_lines(data_path, what, strip=True))
    with open_text(label_path, what) as fh:
        labels = fh.readlines()
    if len(items) != len(labels):
        raise InputFileError(f"{what}: {data_path} has {len(items)} lines but {label_path} has {len(labels)}")
    out = []
    for (lineno, item), label in zip(items, labels):
        where = f"{what}: file {data_path}, line {lineno}"
        if not isinstance(item, dict):
            raise InputFileError(f"{where}: expected a JSON object, got {type(item).__name__}")
        out.append((where, item, label))
    return out


def int_label(label: str, where: str) -> int:
    """A label line as an int."""
    try:
        return int(label.strip())
    except ValueError:
        raise InputFileError(f"{where}: label {label.strip()!r} is not an integer") from None


def load_local_hf(what: str, **kwargs: Any) -> Any:
    """``datasets.load_dataset(**kwargs)`` on local files only, kept in memory.

    ``path`` must be an existing local folder or file, or the name of one of
    ``datasets``' file builders (``json``, ``csv``, ``parquet``, ``text``,
    ``arrow``) with local ``data_files``.  The files are prepared in a
    temporary cache, so nothing is left in the user's Hugging Face cache.
    """
    import datasets

    path = kwargs.get("path")
    if not isinstance(path, str) or not path:
        raise InputFileError(f"{what}: path must be a local folder or file, got {path!r}")
    builders = {"json", "csv", "parquet", "text", "arrow"}
    if path not in builders and not os.path.exists(path):
        raise InputFileError(f"{what}: {path} does not exist (assay reads local files only, never the Hugging Face Hub)")
    files = kwargs.get("data_files")
    for file in [files] if isinstance(files, str) else list(files or []) if isinstance(files, (list, tuple)) else []:
        if not os.path.exists(file):
            raise InputFileError(f"{what}: data file {file} does not exist")
    with tempfile.TemporaryDirectory(prefix="assay-hf-") as cache:
        try:
            return datasets.load_dataset(**{**kwargs, "cache_dir": cache, "keep_in_memory": True})
        except (OSError, ValueError, datasets.exceptions.DatasetNotFoundError) as exc:
            raise InputFileError(f"{what}: datasets cannot read {path}: {exc}") from exc
