"""SuperGPQA as OpenCompass 0.5.4 reads it (``SuperGPQADataset``).

OpenCompass hands the config's ``path`` (``m-a-p/SuperGPQA``) to
``datasets.load_dataset(path, split='train')``; assay reads the same local
folder (relative to the working folder), else the dataset's copy in the
Hugging Face Hub's cache (``HF_HUB_CACHE``), and never downloads it.  The
prompt texts are the benchmark's own, kept in ``supergpqa_prompts.json``
beside this module.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from assay.datasets._oc import rows_table
from assay.datasets._oc_files import hub_location, hub_splits
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["SuperGPQADataset"]

_LOADER = "SuperGPQADataset"


@cache
def _prompts() -> dict[str, str]:
    with open(Path(__file__).with_name("supergpqa_prompts.json"), encoding="utf-8") as handle:
        texts: dict[str, str] = json.load(handle)
    return texts


@LOAD_DATASET.register_module()
class SuperGPQADataset(BaseDataset):
    """The ``train`` split's rows (of ``discipline``, ``field`` and ``subfield`` when given), each with
    ``infer_prompt`` (the prompt of ``prompt_mode`` — ``zero-shot`` or ``five-shot`` — filled with the
    question and its options lettered ``A)``, ``B)``, …) and ``prompt_mode`` added."""

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, prompt_mode: str, discipline: str | None = None, field: str | None = None,
             subfield: str | None = None, **kwargs: Any) -> Any:
        prompts = _prompts()
        if prompt_mode not in prompts:
            raise ConfigError(f"{_LOADER}: unsupported prompt_mode {prompt_mode!r} (one of {', '.join(prompts)})")
        train = hub_splits(_LOADER, path, split="train")
        missing = [c for c in ("question", "options") if c not in train.column_names]
        if missing:
            raise InputFileError(f"{_LOADER}: the 'train' split of {path!r} has no column {', '.join(map(repr, missing))} "
                                 f"(columns: {', '.join(train.column_names)})")
        rows = []
        for i, row in enumerate(train):
            if any(wanted is not None and row.get(column) != wanted
                   for column, wanted in (("discipline", discipline), ("field", field), ("subfield", subfield))):
                continue
            options = row["options"]
            if not isinstance(options, list):
                raise InputFileError(f"{_LOADER}: {path!r}, row {i}: options is {type(options).__name__} {options!r}, expected a list")
            body = row["question"] + "\n" + "\n".join(f"{chr(65 + n)}) {option}" for n, option in enumerate(options))
            rows.append(dict(row, infer_prompt=prompts[prompt_mode].format(body), prompt_mode=prompt_mode))
        return rows_table(rows, f"{path} (train)")
