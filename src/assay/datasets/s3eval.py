"""S3Eval as OpenCompass 0.5.4 reads it (``S3EvalDataset``).

OpenCompass hands the config's ``path`` (``FangyuLei/s3eval``) to
``datasets.load_dataset(path)`` and reads its ``test`` split; assay reads the
same local folder (relative to the working folder), else the dataset's copy in
the Hugging Face Hub's cache (``HF_HUB_CACHE``), and never downloads it.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import rows_table
from assay.datasets._oc_files import hub_location, hub_splits
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["S3EvalDataset"]


@LOAD_DATASET.register_module()
class S3EvalDataset(BaseDataset):
    """The ``test`` split's ``input`` and ``output`` (the SQL task and its answer: a value, a comma-separated
    list or a Markdown table)."""

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        loader = "S3EvalDataset"
        splits = hub_splits(loader, path)
        if "test" not in splits:
            raise InputFileError(f"{loader}: {path!r} has no 'test' split (splits: {', '.join(splits) or 'none'})")
        test = splits["test"]
        missing = [c for c in ("input", "output") if c not in test.column_names]
        if missing:
            raise InputFileError(f"{loader}: the 'test' split of {path!r} has no column {', '.join(map(repr, missing))} "
                                 f"(columns: {', '.join(test.column_names)})")
        return rows_table([{"input": r["input"], "output": r["output"]} for r in test], f"{path} (test)")
