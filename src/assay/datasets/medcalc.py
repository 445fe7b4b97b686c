"""MedCalc-Bench as OpenCompass 0.5.4 reads it (``MedCalc_BenchDataset``).

Layout read (a local copy of the ``ncbi/MedCalc-Bench-v1.0`` dataset; ``path``
is taken as it is, as OpenCompass passes it to ``datasets.load_dataset``)::

    <path>/data/test-00000-of-00001.parquet
    <path>/data/train-00000-of-00001.parquet

The ``test`` split is read.  Its columns are named like ``Calculator ID``;
with ``prompt_mode='zero-shot'`` each row also gets them under snake-case
names (``calculator_id``, ``lower_limit``, ``ground_truth_answer``, …),
which the configs' prompts and ``MedCalcOfficial_Evaluator`` read.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import load_local_hf
from assay.datasets.base import BaseDataset
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["MedCalc_BenchDataset"]

#: Each dataset column and the snake-case name the zero-shot rows also carry it under.
_SNAKE_CASE = {
    "Row Number": "row_number",
    "Calculator ID": "calculator_id",
    "Calculator Name": "calculator_name",
    "Category": "category",
    "Output Type": "output_type",
    "Note ID": "note_id",
    "Note Type": "note_type",
    "Patient Note": "patient_note",
    "Question": "question",
    "Relevant Entities": "relevant_entities",
    "Ground Truth Answer": "ground_truth_answer",
    "Lower Limit": "lower_limit",
    "Upper Limit": "upper_limit",
    "Ground Truth Explanation": "ground_truth_explanation",
}


def _with_snake_case(row: dict[str, Any]) -> dict[str, Any]:
    for column, name in _SNAKE_CASE.items():
        row[name] = row[column]
    return row


@LOAD_DATASET.register_module()
class MedCalc_BenchDataset(BaseDataset):
    """The ``test`` split under ``path`` (the rows as they are, plus snake-case columns for ``prompt_mode='zero-shot'``).

    >>> MedCalc_BenchDataset.load('path/to/MedCalc-Bench-v1.0', 'zero-shot')[0]['calculator_id']  # doctest: +SKIP
    2
    """

    @staticmethod
    def load(path: str, prompt_mode: str, **kwargs: Any) -> Any:
        files = {"test": "data/test-00000-of-00001.parquet", "train": "data/train-00000-of-00001.parquet"}
        dataset = load_local_hf("MedCalc_BenchDataset", path=path, data_files=files, split="test")
        if prompt_mode == "zero-shot":
            missing = [c for c in _SNAKE_CASE if c not in dataset.column_names]
            if missing:
                raise InputFileError(f"MedCalc_BenchDataset: the test split read from {path} lacks the column(s) {', '.join(missing)}")
            dataset = dataset.map(_with_snake_case, load_from_cache_file=False, keep_in_memory=True)
        return dataset
