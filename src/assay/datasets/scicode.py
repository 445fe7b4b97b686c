"""SciCode's problems, as OpenCompass 0.5.4's ``SciCodeDataset`` reads them.

``<data path>/SciCode_datasets.json`` (``with_bg=True``:
``SciCode_datasets_with_background.json``), a JSON list of problems, each with
its ``id``, its ``import`` lines, the prompts of its steps and, per step, the
test cases (``test``); the rows are the list's objects as they are.  The test
cases' target values are in ``<data path>/test_data/<step>.h5``, read by
``SciCodeEvaluator`` (:mod:`assay.evaluators.scicode`).
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc_files import dataset, json_value
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["SciCodeDataset", "scicode_problems"]


def scicode_problems(path: str, with_bg: Any, owner: str) -> list[dict[str, Any]]:
    """The problems of SciCode's file under ``path`` (with or without the steps' background); errors name ``owner``."""
    name = "SciCode_datasets_with_background.json" if with_bg else "SciCode_datasets.json"
    file = os.path.join(get_data_path(path, local_mode=True), name)
    problems = json_value(file, owner)
    if not isinstance(problems, list) or not all(isinstance(p, dict) for p in problems):
        raise InputFileError(f"{owner}: {file} must hold a JSON list of problems (objects), got {type(problems).__name__}")
    return problems


@LOAD_DATASET.register_module()
class SciCodeDataset(BaseDataset):
    """SciCode's problems, one row per problem (its steps are the turns of a multi-turn prompt)."""

    @staticmethod
    def load(path: str, with_bg: Any, **kwargs: Any) -> Any:
        return dataset(scicode_problems(path, with_bg, "SciCodeDataset"))
