"""MMLU: OpenCompass's ``MMLUDataset`` and ``MMLUDatasetClean`` loaders.

Layout read (OpenCompass's ``opencompass/mmlu`` → ``./data/mmlu/``)::

    data/mmlu/dev/<name>_dev.csv     five few-shot questions
    data/mmlu/test/<name>_test.csv   the evaluated questions
    data/mmlu/test/MMLU_test_contamination_annotations.json   (MMLUDatasetClean only)

Each CSV has no header and six fields per record: question, the four options,
the answer letter.  Rows keep the file's order.
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

__all__ = ["MMLUDataset", "MMLUDatasetClean"]

_COLUMNS = ("input", "A", "B", "C", "D", "target")


def _read(root: str, name: str, split: str, what: str) -> list[dict[str, Any]]:
    path = os.path.join(root, split, f"{name}_{split}.csv")
    rows = []
    for i, record in enumerate(csv_rows(path, what)):
        if len(record) != 6:
            raise InputFileError(f"{what}: file {path}, record {i} has {len(record)} fields, expected 6 (question, A, B, C, D, answer)")
        rows.append(dict(zip(_COLUMNS, record)))
    return rows


@LOAD_DATASET.register_module()
class MMLUDataset(BaseDataset):
    """MMLU, one subject: splits ``dev`` and ``test`` with the columns ``input``,
    ``A``–``D`` and ``target`` (the answer letter).

    ``path`` goes through :func:`~assay.datasets.location.get_data_path`
    (``'opencompass/mmlu'`` → ``./data/mmlu/``); ``name`` is the subject
    (``college_biology``).  See the module docstring for the files read.
    """

    @staticmethod
    def load_table(path: str, name: str, **kwargs: Any) -> dict[str, Any]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        root = get_data_path(path)
        what = f"MMLUDataset({name!r})"
        return {split: rows_table(_read(root, name, split, what), what) for split in ("dev", "test")}

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        return as_datasets(MMLUDataset.load_table(path, name, **kwargs))


@LOAD_DATASET.register_module()
class MMLUDatasetClean(BaseDataset):
    """MMLU with each test question's contamination status in an ``is_clean`` column.

    The status is the first entry of the annotation keyed ``'<name> <row
    index>'`` in ``test/MMLU_test_contamination_annotations.json``, else
    ``'not labeled'``.  OpenCompass downloads that file when it is missing;
    assay reports it instead.
    """

    @staticmethod
    def load_table(path: str, name: str) -> dict[str, Any]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        root = get_data_path(path)
        what = f"MMLUDatasetClean({name!r})"
        notes = read_annotations(Path(root) / "test" / "MMLU_test_contamination_annotations.json", what)
        dev = _read(root, name, "dev", what)
        test = [{**row, "is_clean": clean_status(notes, f"{name} {i}")} for i, row in enumerate(_read(root, name, "test", what))]
        return {"dev": rows_table(dev, what), "test": rows_table(test, what)}

    @staticmethod
    def load(path: str, name: str) -> Any:
        return as_datasets(MMLUDatasetClean.load_table(path, name))
