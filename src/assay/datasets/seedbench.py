"""SeedBench as OpenCompass 0.5.4 reads it (``SeedBenchDataset``).

Layout (id ``opencompass/seedbench`` → ``./data/SeedBench``): the configs'
``data_files`` (``zero-shot/1-1.json``, ``one-shot/3-5.json``, …) below that
folder, JSON (a list, or one object per line) with ``instruction``,
``question`` and ``answer``.  ``datasets.load_dataset(<folder>,
data_files=...)`` reads them, as in OpenCompass, and the loader returns the
``split`` asked for, else the first one (``train``).
"""

from __future__ import annotations

import tempfile
from typing import Any

from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["SeedBenchDataset"]

_LOADER = "SeedBenchDataset"


@LOAD_DATASET.register_module()
class SeedBenchDataset(BaseDataset):
    """One SeedBench task file, as ``datasets`` reads it."""

    @staticmethod
    def load(data_files: str, path: str, split: str | None = None, **kwargs: Any) -> Any:
        import datasets

        folder = get_data_path(path)
        try:
            with tempfile.TemporaryDirectory(prefix="assay-seedbench-") as cache:  # the rows are kept in memory
                table = datasets.load_dataset(folder, data_files=data_files, cache_dir=cache, keep_in_memory=True, **kwargs)
        except FileNotFoundError as exc:
            raise InputFileError(f"{_LOADER}: {data_files!r} is not a file below {folder}: {exc}") from None
        except Exception as exc:  # the datasets library's own errors name the file
            raise InputFileError(f"{_LOADER}: {data_files!r} below {folder} cannot be read as a dataset: {exc}") from None
        if split is None:
            split = next(iter(table))
        if split not in table:
            raise ConfigError(f"{_LOADER}: split {split!r} not found in {data_files!r}; available splits: {list(table)}")
        return table[split]
