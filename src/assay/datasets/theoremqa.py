"""TheoremQA as OpenCompass 0.5.4 reads it (``TheoremQADataset``, ``TheoremQADatasetV3``).

Layouts::

    data/TheoremQA/test.csv               Question,Answer,Answer_type,Picture   (TheoremQADataset)
    data/TheoremQA/theoremqa_test.json    [{"Question": ..., "Answer": 3.5, "Answer_type": "float", ...}]
                                                                                (TheoremQADatasetV3)
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import dataset, json_value, require_file
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["TheoremQADataset", "TheoremQADatasetV3"]


@LOAD_DATASET.register_module()
class TheoremQADataset(BaseDataset):
    """Split ``test`` of the CSV file, read by ``datasets``' CSV builder as OpenCompass does.

    Column types are inferred by pandas, so an ``Answer`` column of numbers
    becomes numbers (and the references are compared as such).  ``path``
    goes through :func:`~assay.datasets.location.get_data_path` with
    ``local_mode=True``.
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        import datasets

        file = require_file(get_data_path(path, local_mode=True), "TheoremQADataset")
        return datasets.load_dataset("csv", data_files={"test": str(file)})


@LOAD_DATASET.register_module()
class TheoremQADatasetV3(BaseDataset):
    """The JSON list of problems, every field kept, ``Answer`` turned into its ``str()``
    (``3.5`` → ``'3.5'``, ``True`` → ``'True'``, ``[1, 2]`` → ``'[1, 2]'``).

    ``path`` goes through :func:`~assay.datasets.location.get_data_path` with
    ``local_mode=True``.
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        file = get_data_path(path, local_mode=True)
        data = json_value(file, "TheoremQADatasetV3")
        if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
            raise InputFileError(f"TheoremQADatasetV3: {file} must hold a JSON list of problem objects")
        for i, item in enumerate(data):
            if "Answer" not in item:
                raise InputFileError(f"TheoremQADatasetV3: {file}, problem {i} has no 'Answer'")
            item["Answer"] = _python_str(item["Answer"])
        return dataset(data)


def _python_str(value: Any) -> str:
    """``str(value)`` of the Python value JSON gives (``True``, not ``true``)."""
    return str(value)
