"""MBPP loaders under OpenCompass's names: ``MBPPDataset``, ``MBPPDatasetV2``,
``SanitizedMBPPDataset``, ``MBPPPlusDataset``.

Each reads the JSON-lines file OpenCompass reads (the path resolved by
:func:`assay.datasets.location.get_data_path`: ``'opencompass/mbpp'`` is
``./data/mbpp/mbpp.jsonl``, ``'opencompass/sanitized_mbpp'``
``./data/mbpp/sanitized-mbpp.jsonl``, ``'opencompass/mbpp_plus'``
``./data/mbpp_plus/mbpp_plus.jsonl``) and derives the same columns:

* ``test_list`` — the test assertions joined by newlines (the list is kept
  as ``test_case``, except in the sanitized set);
* ``test_list_2`` — the same text, the reference of ``MBPPEvaluator``;
* ``test_column`` — ``{'test_list_2': ..., 'task_id': ...}``, the reference
  of ``MBPPPassKEvaluator`` (not in ``MBPPDataset``).

Splits, as OpenCompass cuts them: MBPP's first 10 rows train, rows 10–509
test; the sanitized set's first 7 rows train, rows 7–263 test (its
``prompt`` column is renamed ``text``); MBPP+ is one test set.  ``num_repeats``
repeats the whole test split that many times (MBPP, sanitized) or each row
in place (MBPP+), as OpenCompass does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from assay.datasets.base import BaseDataset
from assay.datasets.local import read_jsonl_rows
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["MBPPDataset", "MBPPDatasetV2", "MBPPPlusDataset", "SanitizedMBPPDataset"]


def _rows(loader: str, path: str, local_mode: bool) -> list[dict[str, Any]]:
    file = Path(get_data_path(path, local_mode=local_mode))
    if not file.is_file():
        raise InputFileError(f"{loader}: file {file} does not exist (path {path!r})")
    rows = read_jsonl_rows(file, what=f"{loader} file")
    for i, row in enumerate(rows):
        for column in ("task_id", "test_list"):
            if column not in row:
                raise InputFileError(f"{loader}: file {file}, line {i + 1} has no {column!r}")
        if not isinstance(row["test_list"], list):
            raise InputFileError(f"{loader}: file {file}, line {i + 1}: test_list must be a list, got {type(row['test_list']).__name__}")
    return rows


def _repeats(loader: str, num_repeats: Any) -> int:
    if not isinstance(num_repeats, int) or isinstance(num_repeats, bool) or num_repeats < 1:
        raise InputFileError(f"{loader}: num_repeats must be a positive int, got {num_repeats!r}")
    return num_repeats


def _with_tests(row: dict[str, Any], *, keep_list: bool, column: bool) -> dict[str, Any]:
    out = dict(row)
    joined = "\n".join(str(t) for t in row["test_list"])
    if keep_list:
        out["test_case"] = list(row["test_list"])
    out["test_list"] = joined
    out["test_list_2"] = joined
    if column:
        out["test_column"] = {"test_list_2": joined, "task_id": row["task_id"]}
    return out


def _split(rows: list[dict[str, Any]], train_end: int, test_end: int, repeats: int) -> Any:
    import datasets

    train = datasets.Dataset.from_list(rows[:train_end])
    test = datasets.Dataset.from_list(rows[train_end:test_end] * repeats)
    return datasets.DatasetDict({"train": train, "test": test})


@LOAD_DATASET.register_module()
class MBPPDataset(BaseDataset):
    """MBPP (rows 10–509 test), references ``test_list_2``.

    Example:
        >>> MBPPDataset.load('opencompass/mbpp')  # doctest: +SKIP
    """

    @staticmethod
    def load(path: str, local_mode: bool = False, **kwargs: Any) -> Any:
        rows = [_with_tests(r, keep_list=True, column=False) for r in _rows("MBPPDataset", path, local_mode)]
        return _split(rows, 10, 510, 1)


@LOAD_DATASET.register_module()
class MBPPDatasetV2(BaseDataset):
    """MBPP with the ``test_column`` reference of ``MBPPPassKEvaluator``; the test split repeated ``num_repeats`` times.

    Example:
        >>> MBPPDatasetV2.load('opencompass/mbpp', num_repeats=10)  # doctest: +SKIP
    """

    @staticmethod
    def load(path: str, num_repeats: int = 1, **kwargs: Any) -> Any:
        repeats = _repeats("MBPPDatasetV2", num_repeats)
        rows = [_with_tests(r, keep_list=True, column=True) for r in _rows("MBPPDatasetV2", path, False)]
        return _split(rows, 10, 510, repeats)


@LOAD_DATASET.register_module()
class SanitizedMBPPDataset(BaseDataset):
    """Sanitized MBPP (rows 7–263 test; ``prompt`` renamed ``text``).

    Example:
        >>> SanitizedMBPPDataset.load('opencompass/sanitized_mbpp')  # doctest: +SKIP
    """

    @staticmethod
    def load(path: str, num_repeats: int = 1, **kwargs: Any) -> Any:
        repeats = _repeats("SanitizedMBPPDataset", num_repeats)
        rows = []
        for r in _rows("SanitizedMBPPDataset", path, False):
            if "prompt" not in r:
                raise InputFileError(f"SanitizedMBPPDataset: problem {r.get('task_id')!r} has no 'prompt'")
            r = dict(r)
            r["text"] = r.pop("prompt")
            rows.append(_with_tests(r, keep_list=False, column=True))
        return _split(rows, 7, 264, repeats)


@LOAD_DATASET.register_module()
class MBPPPlusDataset(BaseDataset):
    """MBPP+ (one test set), each problem repeated ``num_repeats`` times in a row.

    Example:
        >>> MBPPPlusDataset.load('opencompass/mbpp_plus')  # doctest: +SKIP
    """

    @staticmethod
    def load(path: str, num_repeats: int = 1, **kwargs: Any) -> Any:
        import datasets

        repeats = _repeats("MBPPPlusDataset", num_repeats)
        rows = [_with_tests(r, keep_list=True, column=True) for r in _rows("MBPPPlusDataset", path, False)]
        return datasets.Dataset.from_list([r for r in rows for _ in range(repeats)])
