"""SuperGLUE BoolQ: OpenCompass's ``BoolQDataset``, ``BoolQDatasetV2`` and ``BoolQDatasetV3`` loaders.

Layout read (OpenCompass's ``opencompass/boolq`` → ``./data/SuperGLUE/BoolQ/val.jsonl``)::

    data/SuperGLUE/BoolQ/val.jsonl

Each line: ``{"question", "passage", "idx", "label": "true" | "false"}`` (the
label as a string).
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import as_datasets, field, json_objects, load_local_hf, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["BoolQDataset", "BoolQDatasetV2", "BoolQDatasetV3"]

_BUILDERS = ("json", "csv", "parquet", "text", "arrow")


def _with_answer(example: dict[str, Any]) -> dict[str, Any]:
    example["answer"] = 1 if example["label"] == "true" else 0
    return example


@LOAD_DATASET.register_module()
class BoolQDataset(BaseDataset):
    """``datasets.load_dataset(**kwargs)`` on local files, plus ``answer``: 1 where ``label``
    is the string ``'true'``, else 0 (a JSON ``true`` gives 0, as in OpenCompass).

    The configs pass ``path='json'``, ``data_files='opencompass/boolq'`` (which
    goes through :func:`~assay.datasets.location.get_data_path`) and
    ``split='train'``.  Only local files are read.
    """

    @staticmethod
    def load(**kwargs: Any) -> Any:
        options = dict(kwargs)
        if "data_files" in options:
            options["data_files"] = get_data_path(options["data_files"])
        path = options.get("path")
        if isinstance(path, str) and os.path.basename(path) in _BUILDERS and not os.path.exists(path):
            options["path"] = os.path.basename(path)  # a builder name that config loading made into a path
        dataset = load_local_hf("BoolQDataset", **options)
        for part in dataset.values() if isinstance(dataset, dict) else [dataset]:
            if "label" not in part.column_names:
                raise InputFileError(f"BoolQDataset: the data read from {options.get('data_files') or path} has no 'label' column")
        return dataset.map(_with_answer, keep_in_memory=True)


def _lines(path: str, what: str) -> list[tuple[str, dict[str, Any]]]:
    file = get_data_path(path) if what != "BoolQDatasetV3" else get_data_path(path, local_mode=True)
    return [(f"{what}: file {file}, line {i + 1}", row) for i, row in enumerate(json_objects(file, what))]


@LOAD_DATASET.register_module()
class BoolQDatasetV2(BaseDataset):
    """The file's objects with ``label`` ``'true'``/``'false'`` turned into ``'A'``/``'B'``."""

    @staticmethod
    def load_table(path: str) -> Any:
        """The examples as a table (what assay evaluates; no ``datasets`` import)."""
        rows = []
        for where, line in _lines(path, "BoolQDatasetV2"):
            label = field(line, "label", where)
            if label not in ("true", "false"):
                raise InputFileError(f"{where}: label {label!r} is not the string 'true' or 'false'")
            rows.append({**line, "label": "A" if label == "true" else "B"})
        return rows_table(rows, "BoolQDatasetV2")

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(BoolQDatasetV2.load_table(path))


@LOAD_DATASET.register_module()
class BoolQDatasetV3(BaseDataset):
    """The file's objects with the passage's title cut (what precedes its first ``' -- '``;
    a passage without one becomes ``''``) and the question's first letter upper-cased.

    ``path`` goes through :func:`~assay.datasets.location.get_data_path` with ``local_mode``.
    """

    @staticmethod
    def load_table(path: str) -> Any:
        """The examples as a table (what assay evaluates; no ``datasets`` import)."""
        rows = []
        for where, line in _lines(path, "BoolQDatasetV3"):
            passage, question = field(line, "passage", where), field(line, "question", where)
            if not isinstance(question, str) or not question:
                raise InputFileError(f"{where}: question must be non-empty text, got {question!r}")
            rows.append({**line, "passage": " -- ".join(str(passage).split(" -- ")[1:]), "question": question[0].upper() + question[1:]})
        return rows_table(rows, "BoolQDatasetV3")

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(BoolQDatasetV3.load_table(path))
