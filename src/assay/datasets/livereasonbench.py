"""LiveReasonBench as OpenCompass 0.5.4 reads it (``LiveReasonBenchDataset``).

Layout (id ``opencompass/LiveReasonBench`` → ``./data/LiveReasonBench/``): a
folder holding one ``<version>.json`` per release (``livereasonbench-20241202``,
``livereasonbench-20250428``), each a JSON list of objects with ``question``
and ``answer``.  The configs grade the replies with an LLM judge and
``livereasonbench_postprocess`` (:mod:`assay.judge`).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from assay.datasets._oc_files import dataset_dict, json_value
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["LiveReasonBenchDataset"]


@LOAD_DATASET.register_module()
class LiveReasonBenchDataset(BaseDataset):
    """The objects of ``<path>/<version>.json``, as they are, in both ``train`` and ``test``.

    ``num_examples`` (when set and not 0) keeps that many objects drawn as
    OpenCompass draws them (``random.Random(0).sample``, so the same ones in
    the same order), which it allows only with ``n_repeats=1``; ``n_repeats``
    repeats the whole list that many times.  ``path`` goes through
    :func:`~assay.datasets.location.get_data_path`.

    >>> LiveReasonBenchDataset.load('opencompass/LiveReasonBench')['test'][0]['answer']  # doctest: +SKIP
    '42'
    """

    @staticmethod
    def load(path: str, num_examples: int | None = None, n_repeats: int = 1,
             version: str = "livereasonbench-20241202", **kwargs: Any) -> Any:
        file = Path(get_data_path(path)) / f"{version}.json"
        examples = json_value(file, "LiveReasonBenchDataset")
        if not isinstance(examples, list):
            raise InputFileError(f"LiveReasonBenchDataset: {file} holds a JSON {type(examples).__name__}, not a list of questions")
        if num_examples:
            if n_repeats != 1:
                raise InputFileError(f"LiveReasonBenchDataset: num_examples={num_examples!r} is allowed only with "
                                     f"n_repeats=1, got n_repeats={n_repeats!r} (file {file})")
            if num_examples > len(examples):
                raise InputFileError(f"LiveReasonBenchDataset: num_examples={num_examples!r} is more than the "
                                     f"{len(examples)} questions of {file}")
            examples = random.Random(0).sample(examples, num_examples)
        examples = examples * n_repeats
        return dataset_dict({"train": examples, "test": examples})
