"""The HumanEval-X loader: ``HumanevalXDataset``, as OpenCompass 0.5.4 reads it.

The folder is resolved as OpenCompass resolves it (``get_data_path(path,
local_mode=True)``: a relative path under ``$COMPASS_DATA_CACHE`` when set),
and ``humanevalx_<language>.jsonl.gz`` in it is read, one row per non-blank
line, its fields as they are (``task_id``, ``prompt``, ``declaration``,
``canonical_solution``, ``test``, ``example_test``; Go's rows also ``import`` and
``test_setup``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from assay.datasets.base import BaseDataset
from assay.datasets.local import read_jsonl_rows
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["HUMANEVALX_LANGUAGES", "HumanevalXDataset"]

#: The languages OpenCompass's loader accepts.
HUMANEVALX_LANGUAGES = ("cpp", "go", "java", "js", "python", "rust")


@LOAD_DATASET.register_module()
class HumanevalXDataset(BaseDataset):
    """HumanEval-X problems of one language.

    Example:
        >>> HumanevalXDataset.load('./data/humanevalx', language='python')  # doctest: +SKIP
    """

    @staticmethod
    def load(path: str, language: str, **kwargs: Any) -> Any:
        import datasets

        if language not in HUMANEVALX_LANGUAGES:
            raise InputFileError(f"HumanevalXDataset: language must be one of {list(HUMANEVALX_LANGUAGES)}, got {language!r}")
        folder = Path(get_data_path(path, local_mode=True)).expanduser()
        file = folder / f"humanevalx_{language}.jsonl.gz"
        if not file.is_file():
            raise InputFileError(f"HumanevalXDataset: file {file} does not exist (path {path!r}, language {language!r})")
        rows = read_jsonl_rows(file, what="HumanEval-X file")
        if not rows:
            raise InputFileError(f"HumanEval-X file {file} holds no problems")
        return datasets.Dataset.from_list(rows)
