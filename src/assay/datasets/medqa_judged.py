"""ClinicBench, PubMedQA and ScienceQA as OpenCompass 0.5.4 reads them (``ClinicBenchDataset``,
``PubMedQADataset``, ``ScienceQADataset``).

OpenCompass hands the config's ``path`` (``xuxuxuxuxu/Pharmacology-QA``,
``qiaojin/PubMedQA``, ``derek-thomas/ScienceQA``) to ``datasets.load_dataset``;
assay reads the same local folder (relative to the working folder), else the
dataset's copy in the Hugging Face Hub's cache (``HF_HUB_CACHE``), and never
downloads it.  The library configs show the question and its lettered
``choices`` and have an LLM judge compare the reply with ``label``
(``GenericLLMEvaluator``).
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import dataset, hub_location, hub_splits, pick_split, require_columns
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["ClinicBenchDataset", "PubMedQADataset", "ScienceQADataset"]

#: PubMedQA's choices, and the label each ``final_decision`` gives (any other decision is ``maybe``'s)
_PUBMEDQA_CHOICES = "A. yes\nB. no\nC. maybe"
_PUBMEDQA_LABELS = {"yes": "A. yes", "no": "B. no"}


@LOAD_DATASET.register_module()
class ClinicBenchDataset(BaseDataset):
    """The ``train`` split as it is (the library config reads ``question``, ``choices`` and ``label``)."""

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str) -> Any:
        return pick_split(hub_splits("ClinicBenchDataset", path), "train", "ClinicBenchDataset", repr(path))


@LOAD_DATASET.register_module()
class PubMedQADataset(BaseDataset):
    """The ``train`` split of the ``pqa_labeled`` configuration, each row with its columns and two more.

    ``question`` becomes ``CONTEXTS: <context>`` (the row's ``context`` as
    Python writes a dict: ``{'contexts': [...], ...}``), a newline,
    ``QUESTION: <question>``; ``choices`` is ``A. yes``, ``B. no``, ``C. maybe``
    on three lines; ``label`` is the choice of ``final_decision`` (``yes`` →
    ``A. yes``, ``no`` → ``B. no``, anything else → ``C. maybe``).
    """

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str) -> Any:
        table = pick_split(hub_splits("PubMedQADataset", path, name="pqa_labeled"), "train", "PubMedQADataset",
                           f"the 'pqa_labeled' configuration of {path!r}")
        require_columns(table, ("context", "question", "final_decision"), "PubMedQADataset",
                        f"the 'train' split of {path!r} ('pqa_labeled')")
        rows = []
        for row in table:
            row = dict(row)
            row["question"] = f"CONTEXTS: {row['context']}\nQUESTION: {row['question']}"
            row["choices"] = _PUBMEDQA_CHOICES
            row["label"] = _PUBMEDQA_LABELS.get(row["final_decision"], "C. maybe")
            rows.append(row)
        return dataset(rows)


@LOAD_DATASET.register_module()
class ScienceQADataset(BaseDataset):
    """The questions of the ``test`` split without an image, each row with its columns, ``choices``
    rewritten and ``label`` added (last).

    ``choices`` becomes one line per choice, ``A. <choice>`` and on, each
    ending in a newline; ``label`` is the correct one's ``<letter>. <choice>``
    (``answer`` is its index).  A question with an image is left out.
    """

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str) -> Any:
        table = pick_split(hub_splits("ScienceQADataset", path), "test", "ScienceQADataset", repr(path))
        require_columns(table, ("image", "choices", "answer"), "ScienceQADataset", f"the 'test' split of {path!r}")
        rows = []
        for i, row in enumerate(table):
            if row["image"] is not None:
                continue
            row = dict(row)
            choices, answer = row["choices"], row["answer"]
            if not isinstance(choices, list) or not isinstance(answer, int) or not 0 <= answer < len(choices):
                raise InputFileError(f"ScienceQADataset: the 'test' split of {path!r}, row {i}: answer {answer!r} is not "
                                     f"the index of one of its choices {choices!r}")
            row["label"] = f"{chr(65 + answer)}. {choices[answer]}"
            row["choices"] = "".join(f"{chr(65 + j)}. {c}\n" for j, c in enumerate(choices))
            rows.append(row)
        return dataset(rows)
