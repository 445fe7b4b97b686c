"""HellaSwag: OpenCompass's ``HellaswagDataset``, ``HellaswagDataset_V2``, ``HellaswagDataset_V3``,
``HellaswagDatasetwithICE`` and ``HellaswagDatasetClean`` loaders.

Layout read (OpenCompass's dataset ids → files)::

    opencompass/hellaswag      → data/hellaswag/hellaswag.jsonl
    opencompass/hellaswag_ice  → data/hellaswag/ holding
                                 hellaswag_train_sampled25.jsonl (split train) and
                                 hellaswag.jsonl (split val)
    data/hellaswag/hellaswag_val_contamination_annotations.json   (HellaswagDatasetClean)

Each line: ``{"query": "<activity>: <context>", "choices": [four endings], "gold": <0-3>, ...}``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from assay.datasets._oc import as_datasets, clean_status, field, json_objects, read_annotations, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["HellaswagDataset", "HellaswagDatasetClean", "HellaswagDataset_V2", "HellaswagDataset_V3", "HellaswagDatasetwithICE"]


def _endings(item: dict[str, Any], where: str) -> dict[str, Any]:
    choices = field(item, "choices", where)
    if not isinstance(choices, list) or len(choices) < 4:
        raise InputFileError(f"{where}: 'choices' must be a list of four endings, got {str(choices)[:80]!r}")
    return dict(zip("ABCD", choices))


def _context(item: dict[str, Any], where: str, cuts: int) -> str:
    """What follows the last of the query's first ``cuts`` ``': '`` separators."""
    query = field(item, "query", where)
    return str(query).split(": ", cuts)[-1]


def _letter(item: dict[str, Any], where: str) -> str:
    gold = field(item, "gold", where)
    if not isinstance(gold, int) or isinstance(gold, bool) or not -4 <= gold < 4:
        raise InputFileError(f"{where}: 'gold' must be an index 0-3, got {gold!r}")
    return "ABCD"[gold]


def _items(path: str, what: str) -> list[tuple[str, dict[str, Any]]]:
    return [(f"{what}: file {path}, line {i + 1}", item) for i, item in enumerate(json_objects(path, what))]


@LOAD_DATASET.register_module()
class HellaswagDataset(BaseDataset):
    """Columns ``ctx``, ``A``–``D`` and ``label`` (the int ``gold``).

    ``ctx`` is the query after its second ``': '`` (after the first when it
    has only one), so a context that itself holds ``': '`` loses its start,
    as in OpenCompass (whose V2 cuts at the first only).
    """

    @staticmethod
    def load_table(path: str) -> Any:
        """The examples as a table (what assay evaluates; no ``datasets`` import)."""
        file = get_data_path(path)
        rows = [{"ctx": _context(it, w, 2), **_endings(it, w), "label": field(it, "gold", w)} for w, it in _items(file, "HellaswagDataset")]
        return rows_table(rows, "HellaswagDataset")

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(HellaswagDataset.load_table(path))


@LOAD_DATASET.register_module()
class HellaswagDataset_V2(BaseDataset):
    """Columns ``ctx`` (the query after its first ``': '``), ``A``–``D`` and ``label`` (the gold letter)."""

    @staticmethod
    def load_table(path: str) -> Any:
        """The examples as a table (what assay evaluates; no ``datasets`` import)."""
        file = get_data_path(path)
        rows = [{"ctx": _context(it, w, 1), **_endings(it, w), "label": _letter(it, w)} for w, it in _items(file, "HellaswagDataset_V2")]
        return rows_table(rows, "HellaswagDataset_V2")

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(HellaswagDataset_V2.load_table(path))


@LOAD_DATASET.register_module()
class HellaswagDataset_V3(BaseDataset):
    """Columns ``query`` (whole), ``A``–``D`` and ``gold`` (the int index)."""

    @staticmethod
    def load_table(path: str) -> Any:
        """The examples as a table (what assay evaluates; no ``datasets`` import)."""
        file = get_data_path(path)
        rows = [{"query": field(it, "query", w), **_endings(it, w), "gold": field(it, "gold", w)} for w, it in _items(file, "HellaswagDataset_V3")]
        return rows_table(rows, "HellaswagDataset_V3")

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(HellaswagDataset_V3.load_table(path))


@LOAD_DATASET.register_module()
class HellaswagDatasetwithICE(BaseDataset):
    """Splits ``train`` (``hellaswag_train_sampled25.jsonl``, the in-context examples) and ``val``
    (``hellaswag.jsonl``), with the columns of :class:`HellaswagDataset_V2`."""

    @staticmethod
    def load_table(path: str) -> dict[str, Any]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        root = get_data_path(path)
        what = "HellaswagDatasetwithICE"
        out = {}
        for split, name in (("train", "hellaswag_train_sampled25.jsonl"), ("val", "hellaswag.jsonl")):
            rows = [{"ctx": _context(it, w, 1), **_endings(it, w), "label": _letter(it, w)} for w, it in _items(os.path.join(root, name), what)]
            out[split] = rows_table(rows, what)
        return out

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(HellaswagDatasetwithICE.load_table(path))


@LOAD_DATASET.register_module()
class HellaswagDatasetClean(BaseDataset):
    """:class:`HellaswagDataset`'s columns plus ``is_clean``, the contamination status of each line.

    The status is the first entry of the annotation keyed by the line's index
    (``'0'``, ``'1'``…) in ``hellaswag_val_contamination_annotations.json``
    (in the data file's folder), else ``'not labeled'``.  OpenCompass
    downloads that file when it is missing; assay reports it instead.
    """

    @staticmethod
    def load_table(path: str) -> Any:
        """The examples as a table (what assay evaluates; no ``datasets`` import)."""
        file = get_data_path(path)
        what = "HellaswagDatasetClean"
        notes = read_annotations(Path(os.path.dirname(file)) / "hellaswag_val_contamination_annotations.json", what)
        rows = [
            {"ctx": _context(it, w, 2), **_endings(it, w), "label": field(it, "gold", w), "is_clean": clean_status(notes, str(i))}
            for i, (w, it) in enumerate(_items(file, what))
        ]
        return rows_table(rows, what)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(HellaswagDatasetClean.load_table(path))
