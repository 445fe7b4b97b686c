"""HumanEval Pro's and MBPP Pro's loaders: ``HumanevalevalProDataset`` and ``MBPPProDataset``, as OpenCompass 0.5.4 reads them.

The path is resolved as OpenCompass resolves it (``'opencompass/humaneval_pro'`` is
``./data/humaneval_pro/humaneval_pro.json`` under ``$COMPASS_DATA_CACHE``,
``'opencompass/mbpp_pro'`` ``./data/mbpp_pro/mbpp_pro.json``).  HumanEval Pro's file
is one JSON list of problems; MBPP Pro's, despite its name, holds one JSON object
per line.  Each problem (``id``, ``raw_problem``, ``new_problem``, ``test_code``, …)
is a row of the one dataset returned.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from assay.datasets.base import BaseDataset
from assay.datasets.local import read_jsonl_rows
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["HumanevalevalProDataset", "MBPPProDataset"]


def _file(loader: str, path: str, local_mode: bool) -> Path:
    file = Path(get_data_path(path, local_mode=local_mode)).expanduser()
    if not file.is_file():
        raise InputFileError(f"{loader}: file {file} does not exist (path {path!r})")
    return file


@LOAD_DATASET.register_module()
class HumanevalevalProDataset(BaseDataset):
    """HumanEval Pro's problems, from a JSON list.

    Example:
        >>> HumanevalevalProDataset.load('opencompass/humaneval_pro')  # doctest: +SKIP
    """

    @staticmethod
    def load(path: str, local_mode: bool = False, **kwargs: Any) -> Any:
        import datasets

        file = _file("HumanevalevalProDataset", path, local_mode)
        try:
            rows = orjson.loads(file.read_bytes())
        except orjson.JSONDecodeError as exc:
            raise InputFileError(f"HumanevalevalProDataset: file {file} is not valid JSON: {exc}") from None
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise InputFileError(f"HumanevalevalProDataset: file {file} must hold a JSON list of problem objects")
        return datasets.Dataset.from_list(rows)


@LOAD_DATASET.register_module()
class MBPPProDataset(BaseDataset):
    """MBPP Pro's problems, one JSON object per line.

    Example:
        >>> MBPPProDataset.load('opencompass/mbpp_pro')  # doctest: +SKIP
    """

    @staticmethod
    def load(path: str, local_mode: bool = False, **kwargs: Any) -> Any:
        import datasets

        file = _file("MBPPProDataset", path, local_mode)
        return datasets.Dataset.from_list(read_jsonl_rows(file, what="MBPP Pro file"))
