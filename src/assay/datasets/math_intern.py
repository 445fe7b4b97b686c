"""MATH as OpenCompass 0.5.4's internal MATH configs read it (``MATHInternDataset``).

Layout: one JSON file, ``{"0": {"problem": ..., "solution": "... \\boxed{5} ..."}, ...}``.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import dataset_dict, field, json_value
from assay.datasets.base import BaseDataset
from assay.errors import InputFileError
from assay.postprocess.math import extract_boxed_answer
from assay.registry import LOAD_DATASET

__all__ = ["MATHInternDataset"]


@LOAD_DATASET.register_module()
class MATHInternDataset(BaseDataset):
    """MATH problems: ``problem`` and ``solution``, the latter reduced to its last ``\\boxed{}`` (``None`` without one).

    ``path`` is the JSON file itself, opened as given: unlike ``MATHDataset``,
    OpenCompass's loader does not resolve dataset ids, so the library's config
    (``path='opencompass/math'``, a folder id) cannot load there, and does not
    here either.  Both ``test`` and ``train`` splits hold all the problems,
    in the file's order.

    >>> import json, pathlib, tempfile
    >>> f = pathlib.Path(tempfile.mkdtemp()) / 'math.json'
    >>> _ = f.write_text(json.dumps({'0': {'problem': '1+1?', 'solution': 'It is $\\\\boxed{2}$.'}}))
    >>> MATHInternDataset.load(str(f))['test'][0]
    {'problem': '1+1?', 'solution': '2'}
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        data = json_value(path, "MATHInternDataset")
        if not isinstance(data, dict):
            raise InputFileError(f"MATHInternDataset: {path} must hold a JSON object of problems keyed by id, got {type(data).__name__}")
        rows = []
        for key, item in data.items():
            where = f"{path}, problem {key!r}"
            rows.append({
                "problem": field(item, "problem", "MATHInternDataset", where),
                "solution": extract_boxed_answer(field(item, "solution", "MATHInternDataset", where)),
            })
        return dataset_dict({"test": rows, "train": rows})
