"""BIG-Bench Hard: OpenCompass's ``BBHDataset`` loader.

Layout read (OpenCompass's ``opencompass/bbh`` → ``./data/BBH/data``)::

    data/BBH/data/<name>.json    {"examples": [{"input": ..., "target": ...}, ...]}

one file per task (``temporal_sequences.json``, ``word_sorting.json``, …).
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import as_datasets, read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["BBHDataset"]


@LOAD_DATASET.register_module()
class BBHDataset(BaseDataset):
    """One BBH task: the objects of the file's ``examples`` list, in order
    (usually the columns ``input`` and ``target``).

    ``path`` goes through :func:`~assay.datasets.location.get_data_path`;
    ``name`` is the task.
    """

    @staticmethod
    def load_table(path: str, name: str) -> Any:
        """The examples as a table (what assay evaluates; no ``datasets`` import)."""
        file = os.path.join(get_data_path(path), f"{name}.json")
        what = f"BBHDataset({name!r})"
        data = read_json(file, what)
        examples = data.get("examples") if isinstance(data, dict) else None
        if not isinstance(examples, list) or not all(isinstance(e, dict) for e in examples):
            raise InputFileError(f"{what}: file {file} must hold an object whose 'examples' is a list of objects")
        return rows_table(examples, what)

    @staticmethod
    def load(path: str, name: str) -> Any:
        return as_datasets(BBHDataset.load_table(path, name))
