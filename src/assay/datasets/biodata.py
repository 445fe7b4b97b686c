"""The biology-instruction tasks, as OpenCompass 0.5.4 reads them (``BiodataTaskDataset``).

Layout (id ``opencompass/biology-instruction`` → ``./data/biology-instruction-fixed``):
``<task>.jsonl``, one question a line: ``prompt``, ``ground_truth`` (a
number, a string or a record of numbers by key) and ``meta_data`` with
``ans_type`` (``cls``, ``number``, ``dict`` or ``string``) and, for
``string``, ``task``.
"""

from __future__ import annotations

import os
import random
from typing import Any

from assay.datasets._oc_files import dataset, field, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["BiodataTaskDataset"]

#: The instruction appended to a question, by answer type (and, for ``string``, by task).
HINTS: dict[str, str] = {
    "cls": 'Please use "yes" or "no" as your answer, and put your answer within \\boxed{}.',
    "number": "Please put your answer number within \\boxed{}.",
    "Function EC": 'Please put the final enzyme within \\boxed{} using "EC number", such as "ECx.x.x.x". '
                   'Please split by "," if there are multiple enzymes.',
    "Non-coding RNA Function Classification": "You should choose from [leader, tRNA, 5_8S_rRNA, ribozyme, CD-box, "
                                              "Intron_gpII, IRES, 5S_rRNA, scaRNA, miRNA, riboswitch, Intron_gpI, "
                                              "HACA-box]. Please put your final answer within \\boxed{}.",
    "Modification Prediction": "You should choose from [AtoI, m6A, none, m1A, m5C, m5U, m6Am, m7G, Cm, Am, Gm, Um, "
                               "Psi]. Please put your final answer within \\boxed{}, split by \",\" if there are "
                               "multiple answers.",
}


def _prompt(row: dict[str, Any], where: str) -> str:
    meta = field(row, "meta_data", "BiodataTaskDataset", where)
    kind = field(meta, "ans_type", "BiodataTaskDataset", f"{where}, meta_data")
    prompt = field(row, "prompt", "BiodataTaskDataset", where)
    if kind == "dict":
        gold = field(row, "ground_truth", "BiodataTaskDataset", where)
        if not isinstance(gold, dict):
            raise InputFileError(f"BiodataTaskDataset: {where}: ans_type 'dict' needs a ground_truth record, "
                                 f"got {gold!r}")
        keys = "".join(f'"{key}": xx, ' for key in gold)
        return f"{prompt}Please put your final answer with \\boxed{{}} in json format, such as {{{keys}"[:-2] + "}"
    if kind in ("cls", "number"):
        return f"{prompt}\n{HINTS[kind]}"
    if kind != "string":
        raise InputFileError(f"BiodataTaskDataset: {where}: unknown meta_data.ans_type {kind!r} "
                             "(known: cls, number, dict, string)")
    task = field(meta, "task", "BiodataTaskDataset", f"{where}, meta_data")
    if task not in HINTS or task in ("cls", "number"):
        raise InputFileError(f"BiodataTaskDataset: {where}: no instruction for the string task {task!r} (known: "
                             "Function EC, Non-coding RNA Function Classification, Modification Prediction)")
    return f"{prompt}\n{HINTS[task]}"


@LOAD_DATASET.register_module()
class BiodataTaskDataset(BaseDataset):
    """One biology-instruction task: the rows of ``<task>.jsonl`` as written, ``prompt`` followed by the
    instruction of its answer type (a dict answer's: its keys, as ``{"key": xx, …}``).

    With ``mini_set``, a tenth of the rows (at least one) drawn by ``random.seed(1024)``'s
    ``random.sample``, in the order drawn.
    """

    @staticmethod
    def load(path: str, task: str, mini_set: bool = False, **kwargs: Any) -> Any:
        file = os.path.join(get_data_path(path), f"{task}.jsonl")
        rows = []
        for i, row in enumerate(jsonl_rows(file, "BiodataTaskDataset")):
            rows.append({**row, "prompt": _prompt(row, f"{file}, row {i + 1}")})
        if mini_set:
            rows = random.Random(1024).sample(rows, max(1, len(rows) // 10))
        return dataset(rows)
