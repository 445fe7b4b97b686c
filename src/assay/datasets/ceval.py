"""C-Eval: OpenCompass's ``CEvalDataset`` and ``CEvalDatasetClean`` loaders.

Layout read (OpenCompass's ``opencompass/ceval-exam`` → ``./data/ceval/formal_ceval``)::

    data/ceval/formal_ceval/dev/<name>_dev.csv
    data/ceval/formal_ceval/val/<name>_val.csv
    data/ceval/formal_ceval/test/<name>_test.csv
    data/ceval/formal_ceval/val/ceval_contamination_annotations.json   (CEvalDatasetClean only)

Each CSV has a header record naming its columns (``id``, ``question``,
``A``–``D`` and, where the split has them, ``answer`` and ``explanation``);
rows lacking ``answer`` or ``explanation`` get ``''``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from assay.datasets._oc import as_datasets, clean_status, csv_rows, read_annotations, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["CEvalDataset", "CEvalDatasetClean"]

_SPLITS = ("dev", "val", "test")


def _read(root: str, name: str, split: str, what: str) -> list[dict[str, Any]]:
    path = os.path.join(root, split, f"{name}_{split}.csv")
    records = csv_rows(path, what)
    if not records:
        raise InputFileError(f"{what}: file {path} is empty (a header record is expected)")
    header = records[0]
    rows = []
    for record in records[1:]:
        row: dict[str, Any] = dict(zip(header, record))
        row.setdefault("explanation", "")
        row.setdefault("answer", "")
        rows.append(row)
    return rows


@LOAD_DATASET.register_module()
class CEvalDataset(BaseDataset):
    """C-Eval, one subject: splits ``dev``, ``val`` and ``test`` with the CSV's columns.

    ``path`` goes through :func:`~assay.datasets.location.get_data_path`
    (with ``local_mode``, as OpenCompass passes it); ``name`` is the subject
    (``computer_network``).  A split whose file has no rows is left out, as
    OpenCompass leaves it out.  See the module docstring for the files read.
    """

    @staticmethod
    def load_table(path: str, name: str, local_mode: bool = False) -> dict[str, Any]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        root = get_data_path(path, local_mode=local_mode)
        what = f"CEvalDataset({name!r})"
        splits = {split: _read(root, name, split, what) for split in _SPLITS}
        return {split: rows_table(rows, what) for split, rows in splits.items() if rows}

    @staticmethod
    def load(path: str, name: str, local_mode: bool = False) -> Any:
        return as_datasets(CEvalDataset.load_table(path, name, local_mode))


@LOAD_DATASET.register_module()
class CEvalDatasetClean(BaseDataset):
    """C-Eval with each ``val`` question's contamination status in an ``is_clean`` column.

    The status is the first entry of the annotation keyed ``'<name>-<row
    index>'`` in ``val/ceval_contamination_annotations.json``, else ``'not
    labeled'``.  OpenCompass downloads that file when it is missing; assay
    reports it instead.
    """

    @staticmethod
    def load_table(path: str, name: str) -> dict[str, Any]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        root = get_data_path(path)
        what = f"CEvalDatasetClean({name!r})"
        splits: dict[str, list[dict[str, Any]]] = {}
        for split in _SPLITS:
            rows = _read(root, name, split, what)
            if split == "val":
                notes = read_annotations(Path(root) / "val" / "ceval_contamination_annotations.json", what)
                rows = [{**row, "is_clean": clean_status(notes, f"{name}-{i}")} for i, row in enumerate(rows)]
            splits[split] = rows
        return {split: rows_table(rows, what) for split, rows in splits.items() if rows}

    @staticmethod
    def load(path: str, name: str) -> Any:
        return as_datasets(CEvalDatasetClean.load_table(path, name))
