"""ClimaQA and PHYSICS as OpenCompass 0.5.4 reads them (``ClimaQADataset``, ``PHYSICSDataset``).

Both keep one folder per task under the dataset id's location
(:func:`~assay.datasets.location.get_data_path`: ``opencompass/ClimaQA-Gold``
→ ``./data/climaqa_gold``, ``opencompass/ClimaQA-Silver`` →
``./data/climaqa_silver``, ``opencompass/PHYSICS-textonly`` →
``./data/PHYSICS-textonly``), read by ``datasets.load_dataset`` as a local
folder (any file format it reads), its ``train`` split taken.  The library
configs have an LLM judge grade the replies (``GenericLLMEvaluator``).
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import load_local_hf
from assay.datasets._oc_files import pick_split, require_columns
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["ClimaQADataset", "PHYSICSDataset"]


def _train(loader: str, folder: str) -> Any:
    if not os.path.isdir(folder):
        raise InputFileError(f"{loader}: no such folder: {folder}")
    return pick_split(load_local_hf(loader, path=folder), "train", loader, folder)


@LOAD_DATASET.register_module()
class ClimaQADataset(BaseDataset):
    """The ``train`` split of ``<path>/<task>`` (tasks ``mcq``, ``cloze``, ``ffq``), its columns as they are
    plus ``input`` (last): the ``Question``, then a newline and the ``Options`` where the table has that
    column and the row's value is not null; ``Answer`` renamed ``target`` in its place."""

    @staticmethod
    def load(path: str, task: str, **kwargs: Any) -> Any:
        folder = os.path.join(get_data_path(path), task)
        table = _train("ClimaQADataset", folder)
        require_columns(table, ("Question", "Answer"), "ClimaQADataset", folder)
        options = table["Options"] if "Options" in table.column_names else [None] * len(table)
        inputs = [q if o is None else q + "\n" + o for q, o in zip(table["Question"], options)]
        return table.add_column("input", inputs).rename_column("Answer", "target")


@LOAD_DATASET.register_module()
class PHYSICSDataset(BaseDataset):
    """The ``train`` split of ``<path>/<name>`` (``atomic_dataset_textonly``, …), ``questions`` renamed
    ``input`` in its place, plus ``target`` (last): each of the row's ``final_answers`` as
    ``Answer <i>: <answer>`` followed by a newline (the empty text when there are none)."""

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        folder = os.path.join(get_data_path(path), name)
        table = _train("PHYSICSDataset", folder)
        require_columns(table, ("questions", "final_answers"), "PHYSICSDataset", folder)
        targets = []
        for i, answers in enumerate(table["final_answers"]):
            if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
                raise InputFileError(f"PHYSICSDataset: {folder} row {i}: final_answers must be a list of texts, got {answers!r}")
            targets.append("".join(f"Answer {j}: {a}\n" for j, a in enumerate(answers, 1)))
        return table.rename_column("questions", "input").add_column("target", targets)
