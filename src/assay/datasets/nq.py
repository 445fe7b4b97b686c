"""Natural Questions as OpenCompass 0.5.4 reads it (``NaturalQuestionDataset``, ``NQOpenDataset``).

Layouts::

    <path>/nq-dev.qa.csv      question<TAB>['answer', ...]     (NaturalQuestionDataset;
    <path>/nq-test.qa.csv                                        id opencompass/natural_question → ./data/nq/)
    <path>/nq-open-validation.jsonl   {"question": ..., "answer": [...]}   (NQOpenDataset;
    <path>/nq-open-train.jsonl                                    id opencompass/nq_open → ./data/nq-open/)
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc_files import dataset_dict, field, jsonl_rows
from assay.datasets._qa_csv import read_qa_csv
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["NQOpenDataset", "NaturalQuestionDataset"]


@LOAD_DATASET.register_module()
class NaturalQuestionDataset(BaseDataset):
    """Splits ``dev`` and ``test`` of ``{'question', 'answer'}``.

    ``answer`` is the list of accepted answers in ``test`` (the split the
    configs evaluate); in ``dev`` it is the first element of the file's list.
    Both files must exist.  ``path`` goes through
    :func:`~assay.datasets.location.get_data_path`.
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        root = get_data_path(path)
        return dataset_dict({
            split: read_qa_csv(os.path.join(root, f"nq-{split}.qa.csv"), "NaturalQuestionDataset", first_answer_only=split == "dev")
            for split in ("dev", "test")
        })


@LOAD_DATASET.register_module()
class NQOpenDataset(BaseDataset):
    """Splits ``validation`` and ``train``, each line's fields as they are, except that
    ``train``'s ``answer`` is reduced to its first element.  Both files must exist."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        root = get_data_path(path)
        splits = {}
        for split in ("validation", "train"):
            file = os.path.join(root, f"nq-open-{split}.jsonl")
            rows = jsonl_rows(file, "NQOpenDataset")
            if split == "train":
                for i, row in enumerate(rows, 1):
                    answers = field(row, "answer", "NQOpenDataset", f"{file}, line {i}")
                    try:
                        row["answer"] = answers[0]
                    except (TypeError, IndexError, KeyError):
                        raise InputFileError(f"NQOpenDataset: {file}, line {i}: 'answer' has no first element: {answers!r:.80}") from None
            splits[split] = rows
        return dataset_dict(splits)
