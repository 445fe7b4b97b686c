"""MATH as OpenCompass 0.5.4 reads it (``MATHDataset``).

Layout (OpenCompass's ``data/math``, id ``opencompass/math``)::

    <path>/math.json      {"0": {"problem": ..., "solution": "... \\boxed{5} ..."}, "1": ...}

``file_name`` names another file of the folder.  (MATH-500's configs read
``test_prm800k_500.jsonl`` there with ``CustomDataset`` instead.)
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc_files import dataset_dict, field, json_value
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.postprocess.math import extract_boxed_answer
from assay.registry import LOAD_DATASET

__all__ = ["MATHDataset"]


@LOAD_DATASET.register_module()
class MATHDataset(BaseDataset):
    """MATH problems: ``problem`` and ``solution``, the latter reduced to its last ``\\boxed{}``.

    The file is a JSON object whose values are problems, read in the object's
    order.  ``solution`` is the content of the last ``\\boxed{…}`` of the
    worked solution, or ``None`` when it has none (as in OpenCompass; such a
    reference never matches).  Both ``test`` and ``train`` splits hold all
    the problems.  ``path`` goes through
    :func:`~assay.datasets.location.get_data_path`.

    >>> MATHDataset.load('opencompass/math')['test'][0]['solution']  # doctest: +SKIP
    '\\\\frac{1}{2}'
    """

    @staticmethod
    def load(path: str, file_name: str = "math.json", **kwargs: Any) -> Any:
        file = os.path.join(get_data_path(path), file_name)
        data = json_value(file, "MATHDataset")
        if not isinstance(data, dict):
            raise InputFileError(f"MATHDataset: {file} must hold a JSON object of problems keyed by id, got {type(data).__name__}")
        rows = []
        for key, item in data.items():
            where = f"{file}, problem {key!r}"
            solution = field(item, "solution", "MATHDataset", where)
            rows.append({"problem": field(item, "problem", "MATHDataset", where), "solution": extract_boxed_answer(solution)})
        return dataset_dict({"test": rows, "train": rows})
