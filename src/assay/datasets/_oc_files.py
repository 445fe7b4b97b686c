"""Helpers of the loaders named after OpenCompass's (private): reading its local files."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from assay.datasets.location import DataLocation
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


def dataset(rows: list[dict[str, Any]], source: str | None = None) -> Any:
    """``datasets.Dataset.from_list(rows)``, as OpenCompass's loaders build their tables.

    With ``source`` (the loader and its file, e.g. ``'CaLMDataset: data/x.json'``; row ``n`` being the
    file's line ``n``), rows that disagree on a field's type — which Arrow cannot hold in one column —
    give an error naming the file, the field and the two rows instead of Arrow's own.
    """
    import datasets
    import pyarrow as pa

    try:
        return datasets.Dataset.from_list(rows)
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        clash = None if source is None else _type_clash(rows)
        if clash is None:
            raise
        name, (first, first_kind), (other, other_kind) = clash
        raise InputFileError(f"{source}: field {name!r} is {first_kind} in line {first} but {other_kind} in line {other}; "
                             f"a field keeps one type in every line ({type(exc).__name__}: {exc})") from None


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _type_clash(rows: list[Any], prefix: str = "", lines: list[int] | None = None
                ) -> tuple[str, tuple[int, str], tuple[int, str]] | None:
    """The first field (dotted path into objects, ``[]`` into lists) whose values in ``rows`` are of two
    kinds, with the line of the first value of each kind; ``None`` when there is none."""
    numbers = lines or list(range(1, len(rows) + 1))
    fields: dict[str, list[tuple[int, Any]]] = {}
    for line, row in zip(numbers, rows):
        if isinstance(row, dict):
            for key, value in row.items():
                fields.setdefault(str(key), []).append((line, value))
    for key, values in fields.items():
        name = f"{prefix}{key}"
        seen: dict[str, int] = {}
        for line, value in values:
            if value is not None:
                seen.setdefault(_kind(value), line)
        if len(seen) > 1:
            (k1, l1), (k2, l2) = list(seen.items())[:2]
            return name, (l1, k1), (l2, k2)
        if seen.keys() == {"an object"}:
            inner = [(line, value) for line, value in values if value is not None]
            found = _type_clash([v for _, v in inner], f"{name}.", [line for line, _ in inner])
        elif seen.keys() == {"a list"}:
            items = [(line, item) for line, value in values if value is not None for item in value]
            found = _type_clash([{"[]": item} for _, item in items], name, [line for line, _ in items])
        else:
            found = None
        if found is not None:
            return found
    return None


def dataset_dict(splits: dict[str, list[dict[str, Any]]]) -> Any:
    """A ``datasets.DatasetDict`` of ``Dataset.from_list`` tables, one per split."""
    import datasets

    return datasets.DatasetDict({name: datasets.Dataset.from_list(rows) for name, rows in splits.items()})


def _cached_snapshot(repo: str) -> str | None:
    """The folder of ``repo``'s files in the Hugging Face Hub's cache (``HF_HUB_CACHE`` read now), else ``None``."""
    try:
        from huggingface_hub import snapshot_download

        return str(snapshot_download(repo_id=repo, repo_type="dataset", local_files_only=True,
                                     cache_dir=os.environ.get("HF_HUB_CACHE") or None))
    except Exception:
        return None


def hub_location(path: str) -> DataLocation:
    """Where ``datasets.load_dataset(path)`` finds a dataset without downloading it: the local folder ``path``
    (relative to the working folder), else the dataset's copy in the Hugging Face Hub's cache."""
    folder = Path(path).expanduser()
    looked = (str(folder.absolute()), f"{path} in the Hugging Face Hub's cache")
    if folder.is_dir():
        return DataLocation(path, folder.absolute(), True, looked)
    snapshot = _cached_snapshot(path)
    return DataLocation(path, Path(snapshot or path), snapshot is not None, looked)


def hub_splits(loader: str, path: str, split: str | None = None, name: str | None = None,
               data_files: Any = None) -> Any:
    """``datasets.load_dataset`` of :func:`hub_location` (its configuration ``name``, or the ``data_files`` given,
    relative to the dataset's folder; one ``split``, or all), rows in memory; errors name the loader."""
    import datasets

    where = hub_location(path)
    if not where.exists:
        raise InputFileError(
            f"{loader}: {path!r} is neither a local folder nor a dataset in the Hugging Face Hub's cache "
            f"(looked for {', '.join(where.looked_at)}); assay does not download it: put the dataset's files in "
            f"the folder {Path(path).expanduser().absolute()} or fetch it once (huggingface-cli download {path} --repo-type dataset)"
        )
    try:
        with tempfile.TemporaryDirectory(prefix="assay-hub-") as cache:  # the rows are kept in memory
            return datasets.load_dataset(str(where.path), name, split=split, cache_dir=cache, keep_in_memory=True,
                                         **({"data_files": data_files} if data_files is not None else {}))
    except Exception as exc:  # the datasets library's own errors name the file
        raise InputFileError(f"{loader}: {where.path} cannot be read as a dataset: {exc}") from None


def pick_split(tables: Any, split: str, loader: str, where: Any) -> Any:
    """``tables[split]`` of a ``DatasetDict``; else an error naming the loader, the data and the splits it has."""
    if split not in tables:
        raise InputFileError(f"{loader}: {where} has no {split!r} split (splits: {', '.join(tables) or 'none'})")
    return tables[split]


def require_columns(table: Any, columns: tuple[str, ...], loader: str, where: Any) -> None:
    """An error naming the loader, the data and the missing columns when ``table`` lacks one of ``columns``."""
    missing = [c for c in columns if c not in table.column_names]
    if missing:
        raise InputFileError(f"{loader}: {where} has no column {', '.join(map(repr, missing))} "
                             f"(columns: {', '.join(table.column_names) or 'none'})")
