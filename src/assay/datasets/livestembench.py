"""LiveStemBench as OpenCompass 0.5.4 reads it (``LiveStemBenchDataset``).

Layout (id ``opencompass/livestembench`` → ``./data/livestembench/``): a
folder holding one ``<version>.json`` per subject (the library configs read
``livestembench_bio``, ``livestembench_che``, ``livestembench_phy``; the
loader's default is ``livestembench-20241227``), each a JSON list of objects
with ``question``, ``answer`` and ``options`` (a list of option lines, empty
for open questions).  The configs grade the replies with an LLM judge and
``livereasonbench_postprocess``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from assay.datasets._oc_files import dataset_dict, field, json_value
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["LiveStemBenchDataset"]


@LOAD_DATASET.register_module()
class LiveStemBenchDataset(BaseDataset):
    """``question`` and ``answer`` of each object of ``<path>/<version>.json``, in both ``train`` and ``test``.

    A non-empty ``options`` list is appended to the question, a newline before
    it and between its lines.  ``num_examples`` (when set and not 0) keeps
    that many questions drawn as OpenCompass draws them
    (``random.Random(0).sample``), which it allows only with ``n_repeats=1``;
    ``n_repeats`` repeats the whole list that many times.
    """

    @staticmethod
    def load(path: str, num_examples: int | None = None, n_repeats: int = 1,
             version: str = "livestembench-20241227", **kwargs: Any) -> Any:
        file = Path(get_data_path(path)) / f"{version}.json"
        examples = json_value(file, "LiveStemBenchDataset")
        if not isinstance(examples, list):
            raise InputFileError(f"LiveStemBenchDataset: {file} holds a JSON {type(examples).__name__}, not a list of questions")
        rows = []
        for i, example in enumerate(examples):
            where = f"{file} question {i}"
            question, answer = field(example, "question", "LiveStemBenchDataset", where), field(example, "answer", "LiveStemBenchDataset", where)
            options = field(example, "options", "LiveStemBenchDataset", where)
            if not isinstance(options, (list, str)):
                raise InputFileError(f"LiveStemBenchDataset: {where}: options must be a list of lines, got {options!r}")
            if len(options) > 0:
                question = question + "\n" + "\n".join(options)
            rows.append({"question": question, "answer": answer})
        if num_examples:
            if n_repeats != 1:
                raise InputFileError(f"LiveStemBenchDataset: num_examples={num_examples!r} is allowed only with "
                                     f"n_repeats=1, got n_repeats={n_repeats!r} (file {file})")
            if num_examples > len(rows):
                raise InputFileError(f"LiveStemBenchDataset: num_examples={num_examples!r} is more than the "
                                     f"{len(rows)} questions of {file}")
            rows = random.Random(0).sample(rows, num_examples)
        rows = rows * n_repeats
        return dataset_dict({"train": rows, "test": rows})
