"""BIG-Bench Extra Hard as OpenCompass 0.5.4 reads it (``BBEHDataset``).

Layout (``path`` as the library's configs give it, ``opencompass/bbeh``,
resolved by :func:`~assay.datasets.location.get_data_path` to ``./data/bbeh/``)::

    <task>/task.json     {"examples": [{"input", "target", ...}, ...], ...}
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["BBEHDataset"]


@LOAD_DATASET.register_module()
class BBEHDataset(BaseDataset):
    """One BBEH task: the objects of ``<task>/task.json``'s ``examples`` list, in order (``input``, ``target``)."""

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        file = os.path.join(get_data_path(path), name, "task.json")
        what = f"BBEHDataset({name!r})"
        data = read_json(file, what)
        examples = data.get("examples") if isinstance(data, dict) else None
        if not isinstance(examples, list) or not all(isinstance(e, dict) for e in examples):
            raise InputFileError(f"{what}: file {file} must hold an object whose 'examples' is a list of objects")
        return rows_table(examples, f"{file}")
