"""The MultiPL-E HumanEval loader: ``HumanevalMultiDataset``, as OpenCompass 0.5.4 reads it.

The folder is resolved as OpenCompass resolves it (``get_data_path(path,
local_mode=True)``: a relative path under ``$COMPASS_DATA_CACHE`` when set),
and ``humaneval-<language>-<version>.jsonl`` in it is read, one row per line,
its fields as they are (MultiPL-E's ``name``, ``language``, ``prompt``,
``doctests``, ``original``, ``prompt_terminology``, ``tests``,
``stop_tokens``), each row ``num_repeats`` times in a row.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from assay.datasets.base import BaseDataset
from assay.datasets.local import read_jsonl_rows
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["HUMANEVAL_MULTI_LANGUAGES", "HUMANEVAL_MULTI_VERSIONS", "HumanevalMultiDataset"]

#: The language keys OpenCompass's loader accepts (MultiPL-E's file extensions).
HUMANEVAL_MULTI_LANGUAGES = (
    "cpp", "cs", "d", "go", "java", "jl", "js", "lua", "php", "pl", "py", "r", "rb", "rkt", "rs", "scala", "sh", "swift", "ts",
)
#: MultiPL-E's prompt versions.
HUMANEVAL_MULTI_VERSIONS = ("keep", "transform", "reworded", "remove")


@LOAD_DATASET.register_module()
class HumanevalMultiDataset(BaseDataset):
    """MultiPL-E's HumanEval problems of one language and prompt version.

    Example:
        >>> HumanevalMultiDataset.load('./data/multi-data/humaneval_multipl-e/', 'py', 'reworded')  # doctest: +SKIP
    """

    @staticmethod
    def load(path: str, language: str, version: str, num_repeats: int = 1, **kwargs: Any) -> Any:
        import datasets

        if language not in HUMANEVAL_MULTI_LANGUAGES:
            raise InputFileError(f"HumanevalMultiDataset: language must be one of {list(HUMANEVAL_MULTI_LANGUAGES)}, got {language!r}")
        if version not in HUMANEVAL_MULTI_VERSIONS:
            raise InputFileError(f"HumanevalMultiDataset: version must be one of {list(HUMANEVAL_MULTI_VERSIONS)}, got {version!r}")
        folder = Path(get_data_path(path, local_mode=True)).expanduser()
        file = folder / f"humaneval-{language}-{version}.jsonl"
        if not file.is_file():
            raise InputFileError(f"HumanevalMultiDataset: file {file} does not exist (path {path!r}, language {language!r})")
        rows = read_jsonl_rows(file, what="MultiPL-E HumanEval file")
        if not rows:
            raise InputFileError(f"MultiPL-E HumanEval file {file} holds no problems")
        return datasets.Dataset.from_list([row for row in rows for _ in range(int(num_repeats))])
