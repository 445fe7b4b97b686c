"""Helpers of the loaders named after OpenCompass's (private): reading its local files."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from assay.errors import InputFileError

__all__: list[str] = []


def require_file(path: str | os.PathLike[str], loader: str) -> Path:
    """``path`` as a ``Path`` when it is a file; else an error naming the loader and the path."""
    p = Path(path)
    if not p.is_file():
        raise InputFileError(f"{loader}: {'expected a file, found a folder' if p.is_dir() else 'no such file'}: {p}")
    return p


def jsonl_rows(path: str | os.PathLike[str], loader: str) -> list[dict[str, Any]]:
    """The JSON objects of a ``.jsonl`` file, one per line; errors name the loader, file and line."""
    from assay.datasets.local import read_jsonl_rows

    return read_jsonl_rows(require_file(path, loader), what=f"{loader} file")


def json_value(path: str | os.PathLike[str], loader: str) -> Any:
    """The JSON value held by a file; errors name the loader and the file."""
    from assay.fileio import read_json

    return read_json(require_file(path, loader), what=f"{loader} file")


def field(row: Any, key: str, loader: str, where: str) -> Any:
    """``row[key]``; a clear error naming the loader, the place and the missing key otherwise."""
    if not isinstance(row, dict):
        raise InputFileError(f"{loader}: {where} is not a JSON object (got {type(row).__name__})")
    if key not in row:
        raise InputFileError(f"{loader}: {where} has no {key!r} field (fields: {', '.join(map(str, row)) or 'none'})")
    return row[key]


def dataset(rows: list[dict[str, Any]]) -> Any:
    """``datasets.Dataset.from_list(rows)``, as OpenCompass's loaders build their tables."""
    import datasets

    return datasets.Dataset.from_list(rows)


def dataset_dict(splits: dict[str, list[dict[str, Any]]]) -> Any:
    """A ``datasets.DatasetDict`` of ``Dataset.from_list`` tables, one per split."""
    import datasets

    return datasets.DatasetDict({name: datasets.Dataset.from_list(rows) for name, rows in splits.items()})
