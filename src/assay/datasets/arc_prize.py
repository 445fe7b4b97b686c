"""The ARC Prize public evaluation sets as OpenCompass 0.5.4 reads them (``ARCPrizeDataset``).

Layout (the library's configs: ``path='opencompass/arc_prize_public_evaluation'`` or
``'opencompass/arc_agi_2_public_evaluation'``, ``version='arc_agi_1'`` or ``'arc_agi_2'``)::

    <folder>/<task id>.json    {"train": [{"input": grid, "output": grid}, ...],
                                "test": [{"input": grid, "output": grid}, ...]}

A grid is a list of rows of integers.  Only the files named by the version's
task list are read (400 tasks of ARC-AGI-1's public evaluation set, 120 of
ARC-AGI-2's; ``arc_prize_tasks.json`` holds the ids), the others in the folder
are skipped.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

from assay.datasets._oc import field, read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["ARCPrizeDataset"]

_TASKS = Path(__file__).with_name("arc_prize_tasks.json")


@functools.cache
def _task_files(version: str) -> frozenset[str]:
    table: dict[str, list[str]] = json.loads(_TASKS.read_text(encoding="utf-8"))
    if version not in table:
        raise ConfigError(f"ARCPrizeDataset: version {version!r} is not one of {sorted(table)}")
    return frozenset(f"{task}.json" for task in table[version])


@LOAD_DATASET.register_module()
class ARCPrizeDataset(BaseDataset):
    """One row per task: ``training_data`` (its ``train`` pairs), ``input_test_data`` and
    ``output_test_data`` (the input and output grids of its first ``test`` pair; any
    further test pair is not read).

    The rows come in the order the folder lists its files (``os.listdir``, as
    OpenCompass reads them: the file system's order, not sorted).

    >>> ARCPrizeDataset.load('opencompass/arc_prize_public_evaluation', version='arc_agi_1')  # doctest: +SKIP
    """

    @staticmethod
    def load(path: str, version: str, **kwargs: Any) -> Any:
        loader = "ARCPrizeDataset"
        wanted = _task_files(version)
        folder = get_data_path(path)
        try:
            names = os.listdir(folder)
        except OSError as exc:
            raise InputFileError(f"{loader}: cannot list the task folder {folder} (path {path!r}): {exc.strerror}") from None
        rows = []
        for name in names:
            if name not in wanted:
                continue
            filename = os.path.join(folder, name)
            task = read_json(filename, loader)
            where = f"{loader}: file {filename}"
            test = field(field(task, "test", where), 0, f"{where}, test")
            rows.append({"training_data": field(task, "train", where),
                         "input_test_data": field(test, "input", f"{where}, test[0]"),
                         "output_test_data": field(test, "output", f"{where}, test[0]")})
        return rows_table(rows, folder)
