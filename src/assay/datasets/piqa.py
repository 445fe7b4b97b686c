"""PIQA: OpenCompass's ``PIQADataset``, ``PIQADatasetV2`` and ``PIQADatasetV3`` loaders.

Layout read (OpenCompass's ``opencompass/piqa`` → ``./data/piqa``)::

    data/piqa/train.jsonl  data/piqa/train-labels.lst   (split train)
    data/piqa/dev.jsonl    data/piqa/dev-labels.lst     (split validation)

Each ``.jsonl`` line ``{"id", "goal", "sol1", "sol2"}`` pairs with the line of
the ``.lst`` file holding its label (0 or 1).  The ``id`` is dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from assay.datasets._oc import as_datasets, int_label, read_labelled, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["PIQADataset", "PIQADatasetV2", "PIQADatasetV3"]


def _drop_id(item: dict[str, Any], where: str) -> dict[str, Any]:
    if "id" not in item:
        raise InputFileError(f"{where}: no 'id' key")
    return {k: v for k, v in item.items() if k != "id"}


def _splits(path: str, what: str, make: Callable[[str, dict[str, Any], str], dict[str, Any]]) -> dict[str, Any]:
    root = get_data_path(path)
    out = {}
    for split, data, labels in (("train", "train.jsonl", "train-labels.lst"), ("validation", "dev.jsonl", "dev-labels.lst")):
        out[split] = rows_table([make(w, item, label) for w, item, label in read_labelled(root, data, labels, what)], what)
    return out


def _v1(where: str, item: dict[str, Any], label: str) -> dict[str, Any]:
    row = dict(item)
    row["label"] = int_label(label, where)
    return _drop_id(row, where)


def _v2(where: str, item: dict[str, Any], label: str) -> dict[str, Any]:
    value = int_label(label, where)
    row = dict(item)
    if value < 0:
        row["answer"] = "NULL"
    elif value < 2:
        row["answer"] = "AB"[value]
    else:
        raise InputFileError(f"{where}: label {value} is not 0, 1 or negative")
    return _drop_id(row, where)


def _first(text: str, upper: bool, where: str) -> str:
    if not isinstance(text, str) or not text:
        raise InputFileError(f"{where}: expected non-empty text, got {text!r}")
    return (text[0].upper() if upper else text[0].lower()) + text[1:]


def _v3(where: str, item: dict[str, Any], label: str) -> dict[str, Any]:
    row = dict(item)
    row["label"] = int_label(label, where)
    row["goal"] = _first(row.get("goal"), True, where)  # type: ignore[arg-type]
    question = row["goal"].endswith(("?", "."))
    row["sol1"] = _first(row.get("sol1"), question, where)  # type: ignore[arg-type]
    row["sol2"] = _first(row.get("sol2"), question, where)  # type: ignore[arg-type]
    return _drop_id(row, where)


@LOAD_DATASET.register_module()
class PIQADataset(BaseDataset):
    """Splits ``train`` and ``validation``: each object without ``id``, plus ``label`` (an int)."""

    @staticmethod
    def load_table(path: str) -> dict[str, Any]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        return _splits(path, "PIQADataset", _v1)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(PIQADataset.load_table(path))


@LOAD_DATASET.register_module()
class PIQADatasetV2(BaseDataset):
    """Splits ``train`` and ``validation``: each object without ``id``, plus ``answer``
    (``'A'`` for label 0, ``'B'`` for 1, ``'NULL'`` for a negative label)."""

    @staticmethod
    def load_table(path: str) -> dict[str, Any]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        return _splits(path, "PIQADatasetV2", _v2)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(PIQADatasetV2.load_table(path))


@LOAD_DATASET.register_module()
class PIQADatasetV3(BaseDataset):
    """Like :class:`PIQADataset`, with ``goal`` capitalised and the solutions' first letter
    upper-cased when the goal ends in ``?`` or ``.``, lower-cased otherwise."""

    @staticmethod
    def load_table(path: str) -> dict[str, Any]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        return _splits(path, "PIQADatasetV3", _v3)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(PIQADatasetV3.load_table(path))
