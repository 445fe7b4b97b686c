"""MultiPL-E's HumanEval and MBPP problems: ``MultiplEDataset``, as OpenCompass 0.5.4 reads them.

The folder is resolved as OpenCompass resolves it (``get_data_path``: the
library's ``opencompass/multipl_e`` is ``./data/multipl_e``, under
``$COMPASS_DATA_CACHE`` when set), and ``<tag>-<language>.jsonl`` in it is
read, one row per line, its fields as they are (MultiPL-E's ``name``,
``language``, ``prompt``, ``doctests``, ``original``, ``prompt_terminology``,
``tests``, ``stop_tokens``).  The tag is ``humaneval`` or ``mbpp``; the
language must be one of MultiPL-E's for that tag (:data:`MULTIPLE_LANGUAGES`),
as OpenCompass checks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from assay.datasets.base import BaseDataset
from assay.datasets.local import read_jsonl_rows
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["MULTIPLE_LANGUAGES", "MultiplEDataset"]

#: The language keys OpenCompass's loader accepts for each tag (MultiPL-E's file extensions; MBPP has no Dart).
MULTIPLE_LANGUAGES: dict[str, tuple[str, ...]] = {
    "humaneval": ("adb", "clj", "cpp", "cs", "d", "dart", "elixir", "go", "hs", "java", "jl", "js", "lua", "ml", "php",
                  "pl", "py", "r", "rb", "rkt", "rs", "scala", "sh", "swift", "ts"),
    "mbpp": ("adb", "clj", "cpp", "cs", "d", "elixir", "go", "hs", "java", "jl", "js", "lua", "ml", "php", "pl", "py",
             "r", "rb", "rkt", "rs", "scala", "sh", "swift", "ts"),
}


@LOAD_DATASET.register_module()
class MultiplEDataset(BaseDataset):
    """MultiPL-E's problems of one tag (``humaneval`` or ``mbpp``) and language.

    Example:
        >>> MultiplEDataset.load('opencompass/multipl_e', language='cpp', tag='mbpp')  # doctest: +SKIP
    """

    @staticmethod
    def load(path: str, language: str, tag: str = "humaneval", local_mode: bool = False, **kwargs: Any) -> Any:
        import datasets

        if tag not in MULTIPLE_LANGUAGES:
            raise InputFileError(f"MultiplEDataset: tag must be one of {list(MULTIPLE_LANGUAGES)}, got {tag!r}")
        if language not in MULTIPLE_LANGUAGES[tag]:
            raise InputFileError(f"MultiplEDataset: language for tag {tag!r} must be one of {list(MULTIPLE_LANGUAGES[tag])}, "
                                 f"got {language!r}")
        folder = Path(get_data_path(path, local_mode=local_mode)).expanduser()
        file = folder / f"{tag}-{language}.jsonl"
        if not file.is_file():
            raise InputFileError(f"MultiplEDataset: file {file} does not exist (path {path!r}, tag {tag!r}, language {language!r})")
        rows = read_jsonl_rows(file, what="MultiPL-E file")
        if not rows:
            raise InputFileError(f"MultiPL-E file {file} holds no problems")
        return datasets.Dataset.from_list(rows)
