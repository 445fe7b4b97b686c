"""LiveMathBench as OpenCompass 0.5.4 reads it (``LiveMathBenchDataset``).

Layout (``path=''`` with ``$COMPASS_DATA_CACHE``, or id ``opencompass/LiveMathBench``
→ ``./data/LiveMathBench/``)::

    <path>/<version>/<split>_<language>.jsonl     e.g. 202412/CNMO_en.jsonl: {"question": ...,
                                                   "answer": ..., "question_type": ...} per line
"""

from __future__ import annotations

import itertools
import os
from typing import Any

from assay.datasets._oc_files import dataset, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["LiveMathBenchDataset"]

# The dataset's prompt templates (one per language), with and without the step-by-step request.
_PROMPTS = {
    "en": ("Here is a math question, please reasoning step by step, and put your answer in \\boxed{{}}.\n{question}\n",
           ", please reasoning step by step"),
    "cn": ("下面是一个数学问题，请逐步推理，并把最终答案放置于\\boxed{{}}中。\n{question}\n", "，请逐步推理"),
}


@LOAD_DATASET.register_module()
class LiveMathBenchDataset(BaseDataset):
    """The problems of every ``(split, language)`` pair, in that order, plus a ``prompt`` column.

    ``prompt`` is the language's template (English for ``'en'``, Chinese for
    anything else) filled with the question, without the step-by-step
    request when ``cot`` is false.  OpenCompass's loader also writes
    ``subdivision``/``idx`` columns, which its dataset base class then
    overwrites with the dataset's abbreviation and the row number; they are
    left out here, so the test set gets those final values.  ``path`` goes
    through :func:`~assay.datasets.location.get_data_path`; a path still
    naming a hub dataset (``opencompass/…``) is refused (OpenCompass would
    download it).
    """

    @staticmethod
    def load(
        path: str,
        dataset_splits: list[str] | tuple[str, ...] = ("CNMO", "CCEE", "AMC", "WLPMC"),
        dataset_languages: list[str] | tuple[str, ...] = ("cn", "en"),
        cot: bool = True,
        version: str = "202412",
        **kwargs: Any,
    ) -> Any:
        root = get_data_path(path)
        if root.startswith("opencompass/"):
            raise ConfigError(f"LiveMathBenchDataset: {path!r} names a hub dataset; assay reads local files only "
                              "(put the files under ./data/LiveMathBench/<version>/ or $COMPASS_DATA_CACHE)")
        rows: list[dict[str, Any]] = []
        for split, language in itertools.product(dataset_splits, dataset_languages):
            file = os.path.join(root, version, f"{split}_{language}.jsonl")
            if not os.path.exists(file):
                raise InputFileError(f"LiveMathBenchDataset: {file} does not exist (split {split!r}, language {language!r}, version {version!r})")
            template, cot_text = _PROMPTS["en" if language == "en" else "cn"]
            if not cot:
                template = template.replace(cot_text, "")
            for i, example in enumerate(jsonl_rows(file, "LiveMathBenchDataset"), 1):
                if "question" not in example:
                    raise InputFileError(f"LiveMathBenchDataset: {file}, line {i} has no 'question'")
                example.pop("subdivision", None)
                example.pop("idx", None)
                example["prompt"] = template.format(question=example["question"])
                rows.append(example)
        return dataset(rows)
