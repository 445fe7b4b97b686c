"""PHYBench as OpenCompass 0.5.4 reads it (``PhyBenchDataset``).

Layout (id ``opencompass/PHYBench`` → ``./data/phybench``): the folder holds
``PHYBench-fullques_v1.json``, a JSON list of problems, each with ``content``
(the question) and ``answer`` (a LaTeX expression).
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc_files import dataset, field, json_value
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["PhyBenchDataset"]

FILE_NAME = "PHYBench-fullques_v1.json"


@LOAD_DATASET.register_module()
class PhyBenchDataset(BaseDataset):
    """PHYBench's problems as the columns ``input`` (``content``) and ``target`` (``answer``), in file order.

    ``path`` goes through :func:`~assay.datasets.location.get_data_path`.
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        file = os.path.join(get_data_path(path), FILE_NAME)
        problems = json_value(file, "PhyBenchDataset")
        if not isinstance(problems, list):
            raise InputFileError(f"PhyBenchDataset: {file}: expected a JSON list of problems, found {type(problems).__name__}")
        rows = []
        for i, problem in enumerate(problems):
            where = f"{file}, problem {i}"
            rows.append({"input": field(problem, "content", "PhyBenchDataset", where),
                         "target": field(problem, "answer", "PhyBenchDataset", where)})
        return dataset(rows)
