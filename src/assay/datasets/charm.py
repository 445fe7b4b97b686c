"""CHARM's reasoning tasks as OpenCompass 0.5.4 reads them (``CharmDataset``).

Layout (the library's configs: ``path='data/CHARM/reasoning'`` or
``'data/CHARM/reasoning_Translate-EN'``, ``name`` a task; read with
``local_mode``, under ``$COMPASS_DATA_CACHE`` when set)::

    <path>/<name>.json    {"examples": [{"input": ..., "target": "(A)"}, ...], ...}
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["CharmDataset"]


@LOAD_DATASET.register_module()
class CharmDataset(BaseDataset):
    """The task file's ``examples``, one row each, as they are.

    >>> CharmDataset.load('data/CHARM/reasoning', 'Chinese_Time_Understanding')[0]['target']  # doctest: +SKIP
    '(B)'
    """

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        loader = "CharmDataset"
        filename = os.path.join(get_data_path(path, local_mode=True), f"{name}.json")
        data = read_json(filename, loader)
        examples = data.get("examples") if isinstance(data, dict) else None
        if not isinstance(examples, list) or not all(isinstance(e, dict) for e in examples):
            raise InputFileError(f"{loader}: file {filename} holds no 'examples' list of objects "
                                 f"(got {type(examples if isinstance(data, dict) else data).__name__})")
        return rows_table(examples, filename)
