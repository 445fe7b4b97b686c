"""The LCBench loader: ``LCDataset``, as OpenCompass 0.5.4 reads it.

The ``.jsonl`` file (resolved as OpenCompass resolves the path) holds one
LeetCode contest problem per line (``text``, ``test_list``, ``Contest id``,
``Difficulty``, …).  Its first five lines are the ``train`` split, the rest
``test`` (repeated ``num_repeats`` times); with ``difficulty`` other than
``'ALL'`` both keep only the rows of that ``Difficulty``.  Each row gains
``test_case`` (the assertions, a list), ``test_list`` (them joined by
newlines) and ``test_column`` (``test_list_2``: the joined assertions,
``task_id``: the contest id).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from assay.datasets.base import BaseDataset
from assay.datasets.local import read_jsonl_rows
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["LCDataset"]


def _prepared(row: dict[str, Any], file: Path, line: int) -> dict[str, Any]:
    tests = row.get("test_list")
    if not isinstance(tests, list):
        raise InputFileError(f"LCDataset: file {file}, line {line}: test_list must be a list of assertions, got {tests!r:.80}")
    if "Contest id" not in row:
        raise InputFileError(f"LCDataset: file {file}, line {line} has no 'Contest id'")
    joined = "\n".join(str(t) for t in tests)
    return {**row, "test_case": list(tests), "test_list": joined,
            "test_column": {"test_list_2": joined, "task_id": row["Contest id"]}}


@LOAD_DATASET.register_module()
class LCDataset(BaseDataset):
    """LCBench problems: ``train`` (the first five) and ``test`` (the rest, ``num_repeats`` times).

    Example:
        >>> LCDataset.load('./data/LCBench2023/LCBench2023.jsonl')  # doctest: +SKIP
    """

    @staticmethod
    def load(path: str, num_repeats: int = 1, difficulty: str = "ALL", local_mode: bool = False, **kwargs: Any) -> Any:
        import datasets

        if not isinstance(num_repeats, int) or isinstance(num_repeats, bool) or num_repeats < 1:
            raise InputFileError(f"LCDataset: num_repeats must be a positive int, got {num_repeats!r}")
        file = Path(get_data_path(path, local_mode=local_mode)).expanduser()
        if not file.is_file():
            raise InputFileError(f"LCDataset: file {file} does not exist (path {path!r})")
        rows = [_prepared(row, file, i + 1) for i, row in enumerate(read_jsonl_rows(file, what="LCBench file"))]
        train, test = rows[:5], rows[5:]
        if difficulty != "ALL":
            train = [r for r in train if r.get("Difficulty") == difficulty]
            test = [r for r in test if r.get("Difficulty") == difficulty]
        return datasets.DatasetDict({"train": datasets.Dataset.from_list(train),
                                     "test": datasets.Dataset.from_list(test * num_repeats)})
