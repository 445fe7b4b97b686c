"""TriviaQA as OpenCompass 0.5.4 reads it (``TriviaQADataset``, ``TriviaQADatasetV2``, ``TriviaQADatasetV3``).

Layouts (id ``opencompass/trivia_qa`` → ``./data/triviaqa/``)::

    <path>/trivia-dev.qa.csv        question<TAB>['answer', 'alias', ...]     (TriviaQADataset)
    <path>/trivia-test.qa.csv
    <path>/triviaqa-validation.jsonl   {"question": ..., "answer": [...]}    (TriviaQADatasetV2)
    <path>/triviaqa-train.jsonl
    <file>.jsonl                                                              (TriviaQADatasetV3)
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc_files import dataset, dataset_dict, jsonl_rows
from assay.datasets._qa_csv import read_qa_csv
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.registry import LOAD_DATASET

__all__ = ["TriviaQADataset", "TriviaQADatasetV2", "TriviaQADatasetV3"]


@LOAD_DATASET.register_module()
class TriviaQADataset(BaseDataset):
    """Splits ``dev`` and ``test`` of ``{'question', 'answer'}``.

    ``answer`` is the list of accepted answers in ``dev``; in ``test`` it is
    the first element of the file's list (as in OpenCompass, whose configs
    evaluate ``dev``).  Both files must exist.  ``path`` goes through
    :func:`~assay.datasets.location.get_data_path`.

    >>> TriviaQADataset.load('opencompass/trivia_qa')['dev'][0]['answer'][:2]  # doctest: +SKIP
    ['David Seville', 'David Seville']
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        root = get_data_path(path)
        return dataset_dict({
            split: read_qa_csv(os.path.join(root, f"trivia-{split}.qa.csv"), "TriviaQADataset", first_answer_only=split == "test")
            for split in ("dev", "test")
        })


@LOAD_DATASET.register_module()
class TriviaQADatasetV2(BaseDataset):
    """Splits ``validation`` and ``train``, each line's fields as they are.  Both files must exist."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        root = get_data_path(path)
        return dataset_dict({
            split: jsonl_rows(os.path.join(root, f"triviaqa-{split}.jsonl"), "TriviaQADatasetV2") for split in ("validation", "train")
        })


@LOAD_DATASET.register_module()
class TriviaQADatasetV3(BaseDataset):
    """One JSONL file, each line's fields as they are."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        return dataset(jsonl_rows(get_data_path(path), "TriviaQADatasetV3"))
