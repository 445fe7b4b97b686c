"""FollowBench as OpenCompass 0.5.4 reads it (``FollowBenchDataset``).

Layout: ``<path>/<name>.json`` (through :func:`~assay.datasets.location.get_data_path`,
local mode), a list of items with ``instruction``, ``judge_prompt`` and the
fields the judge's postprocessor reads (``level``, …).  Only ``cate='llm'``
(judged by a model) exists, as in OpenCompass.
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc_files import dataset, field, json_value
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["FollowBenchDataset"]


@LOAD_DATASET.register_module()
class FollowBenchDataset(BaseDataset):
    """One row per item: ``instruction``, ``judge_prompt`` and ``judge`` (the whole item)."""

    @staticmethod
    def load(path: str, name: str, cate: str, *args: Any, **kwargs: Any) -> Any:
        if cate != "llm":
            raise ConfigError(f"FollowBenchDataset: cate={cate!r} is not implemented (OpenCompass has only 'llm')")
        file = os.path.join(get_data_path(path, local_mode=True), f"{name}.json")
        items = json_value(file, "FollowBenchDataset")
        if not isinstance(items, list):
            raise InputFileError(f"FollowBenchDataset: {file} must hold a JSON list, got {type(items).__name__}")
        rows = []
        for i, item in enumerate(items):
            where = f"{file}, item {i}"
            rows.append({"instruction": field(item, "instruction", "FollowBenchDataset", where),
                         "judge_prompt": field(item, "judge_prompt", "FollowBenchDataset", where), "judge": item})
        return dataset(rows)
