"""Matbench as OpenCompass 0.5.4 reads it (``MatbenchDataset``).

Layout (id ``opencompass/Matbench`` → ``./data/Matbench/``):
``matbench_base_fold_0_<task>_test.json``, a JSON list of objects with
``problem`` and ``answer`` (a number, or true/false), of which only those two
fields are kept.
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc_files import dataset, field, json_value
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["MatbenchDataset"]


@LOAD_DATASET.register_module()
class MatbenchDataset(BaseDataset):
    """The test fold of the Matbench ``task`` (``matbench_steels``, ``matbench_expt_gap``, …): ``problem`` and ``answer``."""

    @staticmethod
    def load(path: str, task: str, **kwargs: Any) -> Any:
        file = os.path.join(get_data_path(path), f"matbench_base_fold_0_{task}_test.json")
        items = json_value(file, "MatbenchDataset")
        if not isinstance(items, list):
            raise InputFileError(f"MatbenchDataset: {file} must hold a JSON list, got {type(items).__name__}")
        return dataset([
            {"problem": field(item, "problem", "MatbenchDataset", f"{file}, item {i}"),
             "answer": field(item, "answer", "MatbenchDataset", f"{file}, item {i}")}
            for i, item in enumerate(items)
        ])
