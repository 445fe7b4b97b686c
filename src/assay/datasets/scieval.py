"""SciEval's multiple-choice questions, as OpenCompass 0.5.4's ``SciEvalDataset`` reads them.

The ``test`` split of the dataset ``path`` (configuration ``name``), read with
``datasets.load_dataset`` from a local folder of that path or the Hugging Face
Hub's cache (never downloaded).  A record is kept when its ``type`` is
``multiple-choice``, it has an answer (``answer``, else ``answers``: its first
item is the ``target`` — of a string, its first character) and its
``question`` reads as a stem followed by ``A.`` … ``D.`` options and
``Answer:``; it becomes ``input`` (the stem), ``A``–``D`` and ``target``,
each stripped of surrounding white space.

``category`` keeps only the records whose ``category`` equals it.  The
library's configs pass a *list* (``['biology']``), which no record's category
equals: OpenCompass 0.5.4 then loads no question at all, and so does this
namesake (the loaded table is empty).
"""

from __future__ import annotations

import re
from typing import Any

from assay.datasets._oc_files import dataset_dict, hub_location, hub_splits
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["SciEvalDataset"]

# stem, then the four options in order, then "Answer:"; "." matches new lines too
_QUESTION = re.compile(r"^(?P<stem>.*?)A\.\s*(?P<A>.*?)\s*B\.\s*(?P<B>.*?)\s*C\.\s*(?P<C>.*?)\s*D\.\s*(?P<D>.*?)Answer:", re.S)


@LOAD_DATASET.register_module()
class SciEvalDataset(BaseDataset):
    """SciEval's ``test`` split, multiple-choice questions only, as a ``DatasetDict`` of that split."""

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, name: str | None = None, **kwargs: Any) -> Any:
        loader = "SciEvalDataset"
        category = kwargs.get("category")
        table = hub_splits(loader, path, split="test", name=name)
        rows = []
        for i, record in enumerate(table):
            if record.get("type") != "multiple-choice":
                continue
            if category is not None and record.get("category") != category:
                continue
            answers = record.get("answer") or record.get("answers") or []
            if not answers:
                continue
            question = record.get("question", "")
            if not isinstance(question, str):
                raise InputFileError(f"{loader}: {path!r}, 'test' split, row {i}: 'question' is {question!r:.80}, expected text")
            try:
                target = answers[0]
            except (TypeError, KeyError) as exc:
                raise InputFileError(f"{loader}: {path!r}, 'test' split, row {i}: the answer {answers!r:.80} is not a "
                                     f"list or text ({type(exc).__name__})") from None
            match = _QUESTION.search(question)
            if match is None:
                continue
            rows.append({"input": match["stem"].strip(), **{opt: match[opt].strip() for opt in "ABCD"}, "target": target})
        return dataset_dict({"test": rows})
