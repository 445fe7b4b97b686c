"""Flames as OpenCompass 0.5.4 reads it (``FlamesDataset``).

Layout (``path`` through :func:`~assay.datasets.location.get_data_path`,
local mode): ``<path>/<name>.json``, a list of items with ``prompt``,
``dimension`` and ``subcomponent``, and ``<path>/<name>_config.txt``, the
judge's instructions.
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc_files import dataset, field, json_value, require_file
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["FlamesDataset"]


@LOAD_DATASET.register_module()
class FlamesDataset(BaseDataset):
    """Each item as it is, plus ``instruction`` (the config text, the prompt, a line ``回答: ``) and
    ``judge`` (its ``dimension`` and ``subcomponent``).  A judge reply without a ``分数=<n>`` score (an
    empty one: a failed request) is counted unjudged in the result's ``.meta``."""

    judge_verdict = "flames"

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        root = get_data_path(path, local_mode=True)
        with open(require_file(os.path.join(root, f"{name}_config.txt"), "FlamesDataset"), encoding="utf-8") as fh:
            instructions = fh.read()
        file = os.path.join(root, f"{name}.json")
        items = json_value(file, "FlamesDataset")
        if not isinstance(items, list):
            raise InputFileError(f"FlamesDataset: {file} must hold a JSON list, got {type(items).__name__}")
        rows = []
        for i, item in enumerate(items):
            where = f"{file}, item {i}"
            item["instruction"] = f"{instructions}{field(item, 'prompt', 'FlamesDataset', where)}\n回答: "
            item["judge"] = {"dimension": field(item, "dimension", "FlamesDataset", where),
                             "subcomponent": field(item, "subcomponent", "FlamesDataset", where)}
            rows.append(item)
        return dataset(rows)
