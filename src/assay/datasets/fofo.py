"""FoFo as OpenCompass 0.5.4 reads it (``FofoDataset``).

Layout: ``<path>/<name>.json``, a list of prompts with ``instruction``, ``id``,
``domain``, ``sub_domain``, ``format`` and ``format_type``.  ``path`` goes
through :func:`~assay.datasets.location.get_data_path` (local mode).
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc_files import dataset, field, json_value
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["FofoDataset"]


@LOAD_DATASET.register_module()
class FofoDataset(BaseDataset):
    """One row per prompt: ``question`` (its ``instruction``) and ``judge``: ``lan`` (``cn`` when the
    name has ``cn`` in it, else ``en``), ``id``, ``domain``, ``sub_domain``, ``format``,
    ``format_type`` and ``question``.
    """

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        file = os.path.join(get_data_path(path, local_mode=True), f"{name}.json")
        problems = json_value(file, "FofoDataset")
        if not isinstance(problems, list):
            raise InputFileError(f"FofoDataset: {file} must hold a JSON list of prompts, got {type(problems).__name__}")
        rows = []
        for i, problem in enumerate(problems):
            where = f"{file}, prompt {i}"
            question = field(problem, "instruction", "FofoDataset", where)
            judge = {"lan": "cn" if "cn" in name else "en"}
            judge.update({k: field(problem, k, "FofoDataset", where) for k in ("id", "domain", "sub_domain", "format", "format_type")})
            judge["question"] = question
            rows.append({"question": question, "judge": judge})
        return dataset(rows)
