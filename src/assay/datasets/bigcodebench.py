"""The BigCodeBench loader: ``BigCodeBenchDataset``, as OpenCompass 0.5.4 reads it.

The path is resolved as OpenCompass resolves it (``'opencompass/bigcodebench'`` is
``./data/bigcodebench/`` under ``$COMPASS_DATA_CACHE``) and the folder's
``BigCodeBench-<release_version>.jsonl`` (``dataset_version='full'``) or
``BigCodeBench-Hard-<release_version>.jsonl`` (``'hard'``) is read: one problem per
line (``task_id``, ``complete_prompt``, ``instruct_prompt``, ``canonical_solution``,
``code_prompt``, ``test``, ``entry_point``, ``doc_struct``, ``libs``), the same rows
in the ``train`` and ``test`` splits.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from assay.datasets.base import BaseDataset
from assay.datasets.local import read_jsonl_rows
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["BigCodeBenchDataset", "bigcodebench_file"]


def bigcodebench_file(path: str, release_version: str, dataset_version: str, local_mode: bool = False) -> Path:
    """The BigCodeBench file OpenCompass reads for these arguments.

    Example:
        >>> bigcodebench_file('/data/bcb', 'v0.1.2', 'hard', local_mode=True).name
        'BigCodeBench-Hard-v0.1.2.jsonl'
    """
    if dataset_version not in ("full", "hard"):
        raise InputFileError(f"BigCodeBenchDataset: dataset_version must be 'full' or 'hard', got {dataset_version!r}")
    name = f"BigCodeBench-{release_version}.jsonl" if dataset_version == "full" else f"BigCodeBench-Hard-{release_version}.jsonl"
    return Path(get_data_path(path, local_mode=local_mode)).expanduser() / name


@LOAD_DATASET.register_module()
class BigCodeBenchDataset(BaseDataset):
    """BigCodeBench problems, the same rows in ``train`` and ``test``.

    Example:
        >>> BigCodeBenchDataset.load('opencompass/bigcodebench', dataset_version='hard')  # doctest: +SKIP
    """

    @staticmethod
    def load(path: str = "opencompass/bigcodebench", local_mode: bool = False, release_version: str = "v0.1.2",
             dataset_version: str = "full", **kwargs: Any) -> Any:
        import datasets

        file = bigcodebench_file(path, release_version, dataset_version, local_mode)
        if not file.is_file():
            raise InputFileError(f"BigCodeBenchDataset: file {file} does not exist (path {path!r}, "
                                 f"release_version {release_version!r}, dataset_version {dataset_version!r})")
        rows = read_jsonl_rows(file, what="BigCodeBench file")
        return datasets.DatasetDict({"train": datasets.Dataset.from_list(rows), "test": datasets.Dataset.from_list(rows)})
