"""Social IQa: OpenCompass's ``siqaDataset``, ``siqaDataset_V2`` and ``SiqaDatasetV3`` loaders.

Layout read (OpenCompass's ``opencompass/siqa`` → ``./data/siqa``)::

    data/siqa/train.jsonl  data/siqa/train-labels.lst   (split train)
    data/siqa/dev.jsonl    data/siqa/dev-labels.lst     (split validation)

Each ``.jsonl`` line ``{"context", "question", "answerA", "answerB", "answerC"}``
pairs with the line of the ``.lst`` file holding its label (1, 2 or 3).
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import as_datasets, field, int_label, read_labelled, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["SiqaDatasetV3", "siqaDataset", "siqaDataset_V2"]


def _splits(path: str, what: str, make: Any) -> dict[str, Any]:
    root = get_data_path(path)
    out = {}
    for split, data, labels in (("train", "train.jsonl", "train-labels.lst"), ("validation", "dev.jsonl", "dev-labels.lst")):
        out[split] = rows_table([make(w, item, label) for w, item, label in read_labelled(root, data, labels, what)], what)
    return out


def _letter(letters: str, index: int, where: str) -> str:
    try:
        return letters[index]
    except IndexError:
        raise InputFileError(f"{where}: label {index} is out of range") from None


def _v1(where: str, item: dict[str, Any], label: str) -> dict[str, Any]:
    return {**item, "label": int_label(label, where)}


def _v2(where: str, item: dict[str, Any], label: str) -> dict[str, Any]:
    value = int_label(label, where)
    answers = [field(item, f"answer{L}", where) for L in "ABC"]
    row = dict(item)
    row["all_labels"] = {"candidates": [[f"{L}. {a}", L, a] for L, a in zip("ABC", answers)], "label": value - 1}
    row["label"] = _letter(" ABC", value, where)
    return row


def _v3(where: str, item: dict[str, Any], label: str) -> dict[str, Any]:
    row = dict(item)
    for letter in "ABC":
        row[letter] = field(row, f"answer{letter}", where)
        del row[f"answer{letter}"]
    row["answer"] = _letter("ABC", int_label(label, where) - 1, where)
    return row


@LOAD_DATASET.register_module()
class siqaDataset(BaseDataset):
    """Splits ``train`` and ``validation``: each object plus ``label`` (the int 1–3)."""

    @staticmethod
    def load_table(path: str) -> dict[str, Any]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        return _splits(path, "siqaDataset", _v1)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(siqaDataset.load_table(path))


@LOAD_DATASET.register_module()
class siqaDataset_V2(BaseDataset):
    """Each object plus ``all_labels`` (``{'candidates': [['A. text', 'A', 'text'], …], 'label': i - 1}``,
    what :class:`~assay.evaluators.siqa.EDAccEvaluator` reads) and ``label`` the letter (``' ABC'[i]``)."""

    @staticmethod
    def load_table(path: str) -> dict[str, Any]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        return _splits(path, "siqaDataset_V2", _v2)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(siqaDataset_V2.load_table(path))


@LOAD_DATASET.register_module()
class SiqaDatasetV3(BaseDataset):
    """Each object with ``answerA``–``answerC`` renamed ``A``–``C`` (moved to the end), plus
    ``answer``, the letter (``'ABC'[i - 1]``; a label 0 gives ``'C'``, as in OpenCompass)."""

    @staticmethod
    def load_table(path: str) -> dict[str, Any]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        return _splits(path, "SiqaDatasetV3", _v3)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(SiqaDatasetV3.load_table(path))
