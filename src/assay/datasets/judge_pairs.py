"""The pairwise judge benchmarks whose model under test is the judge, as OpenCompass 0.5.4 reads them:
``JudgeBenchDataset`` and ``RewardBenchDataset``.

Layout: ``<path>/<name>`` (through :func:`~assay.datasets.location.get_data_path`, local mode;
the configs' ``./data/judgeeval/judgebench`` with ``judgebench.json``, ``./data/judgeeval/rewardbench``
with one file per subset), a JSON list of items with ``prompt``, ``chosen``, ``rejected``,
``chosen_model``, ``rejected_model``, ``winner`` (``'A'`` or ``'B'``) and ``subset``.
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc_files import dataset, field, json_value
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["JudgeBenchDataset", "RewardBenchDataset", "judge_pair_rows"]


def judge_pair_rows(path: str, name: str, loader: str) -> list[dict[str, Any]]:
    """One row per item: ``question`` (the prompt), ``answerA`` and ``answerB`` and the reference ``judge``.

    A winner ``'B'`` swaps the two answers and their models, so ``answerA`` is the chosen answer
    only when ``winner`` is ``'A'`` (OpenCompass 0.5.4's reading, kept); ``judge`` holds the
    prompt, both answers, ``subset``, ``winner``, ``model_a``, ``model_b``, ``dataset_name``
    (``'rewardbench'``, for both benchmarks, as there) and ``lan`` (``'en'``).
    """
    file = os.path.join(get_data_path(path, local_mode=True), name)
    items = json_value(file, loader)
    if not isinstance(items, list):
        raise InputFileError(f"{loader}: {file} holds a JSON {type(items).__name__}, not a list of items")
    rows = []
    for i, item in enumerate(items):
        where = f"{file}, item {i}"
        keys = ("chosen", "rejected", "chosen_model", "rejected_model", "prompt", "winner", "subset")
        a, b, model_a, model_b, prompt, winner, subset = (field(item, k, loader, where) for k in keys)
        if winner == "B":
            a, b, model_a, model_b = b, a, model_b, model_a
        rows.append({"question": prompt, "answerA": a, "answerB": b,
                     "judge": {"prompt": prompt, "Answer_A": a, "Answer_B": b, "subset": subset, "winner": winner,
                               "model_a": model_a, "model_b": model_b, "dataset_name": "rewardbench", "lan": "en"}})
    return rows


@LOAD_DATASET.register_module()
class JudgeBenchDataset(BaseDataset):
    """JudgeBench's pairs (:func:`judge_pair_rows`)."""

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        return dataset(judge_pair_rows(path, name, "JudgeBenchDataset"))


@LOAD_DATASET.register_module()
class RewardBenchDataset(BaseDataset):
    """RewardBench's pairs, one subset per file (:func:`judge_pair_rows`)."""

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        return dataset(judge_pair_rows(path, name, "RewardBenchDataset"))
