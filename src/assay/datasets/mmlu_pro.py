"""MMLU-Pro: OpenCompass's ``MMLUProDataset`` loader.

Layout read (OpenCompass's ``opencompass/mmlu_pro`` → ``./data/mmlu_pro``): a
local folder (or file) that ``datasets.load_dataset`` reads, usually the
Hugging Face layout::

    data/mmlu_pro/data/test-00000-of-00001.parquet
    data/mmlu_pro/data/validation-00000-of-00001.parquet

with the columns ``question_id``, ``question``, ``options`` (a list),
``answer`` (a letter), ``answer_index``, ``cot_content``, ``category``,
``src``.  Split names come from the file names, as ``datasets`` infers them.
Only local paths are read: a path that does not exist is an error, never a
download from the Hub.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["MMLU_PRO_LETTERS", "MMLUProDataset", "load_local_hf"]

#: The option letters MMLU-Pro's loader knows (it fails on a question with more options).
MMLU_PRO_LETTERS = "ABCDEFGHIJKLMNOP"

_COT_PREFIX = "A: Let's think step by step."


def load_local_hf(what: str, **kwargs: Any) -> Any:
    """``datasets.load_dataset(**kwargs)`` on local files only, kept in memory.

    ``path`` must be an existing local folder or file, or the name of one of
    ``datasets``' file builders (``json``, ``csv``, ``parquet``, ``text``,
    ``arrow``) with local ``data_files``.  The files are prepared in a
    temporary cache, so nothing is left in the user's Hugging Face cache.
    """
    import datasets

    path = kwargs.get("path")
    if not isinstance(path, str) or not path:
        raise InputFileError(f"{what}: path must be a local folder or file, got {path!r}")
    builders = {"json", "csv", "parquet", "text", "arrow"}
    if path not in builders and not os.path.exists(path):
        raise InputFileError(f"{what}: {path} does not exist (assay reads local files only, never the Hugging Face Hub)")
    files = kwargs.get("data_files")
    for file in [files] if isinstance(files, str) else list(files or []) if isinstance(files, (list, tuple)) else []:
        if not os.path.exists(file):
            raise InputFileError(f"{what}: data file {file} does not exist")
    with tempfile.TemporaryDirectory(prefix="assay-hf-") as cache:
        try:
            return datasets.load_dataset(**kwargs, cache_dir=cache, keep_in_memory=True)
        except (OSError, ValueError, datasets.exceptions.DatasetNotFoundError) as exc:
            raise InputFileError(f"{what}: datasets cannot read {path}: {exc}") from exc


def _with_option_strings(row: dict[str, Any]) -> dict[str, Any]:
    """A row with ``answer_string`` (the answer's ``'X. text\\n'`` line) and ``options_str`` added,
    and the "Let's think step by step." prefix cut from ``cot_content``."""
    options = row["options"]
    if len(options) > len(MMLU_PRO_LETTERS):
        raise InputFileError(f"MMLUProDataset: question {row.get('question_id')!r} has {len(options)} options; at most 16 are supported")
    row["answer_string"] = ""
    lines = []
    for letter, option in zip(MMLU_PRO_LETTERS, options):
        if option == "N/A":
            continue
        line = f"{letter}. {option}\n"
        lines.append(line)
        if row["answer"] == letter:
            row["answer_string"] = line
    row["options_str"] = "".join(lines).strip()
    cot = row["cot_content"]
    if not isinstance(cot, str):
        raise InputFileError(f"MMLUProDataset: question {row.get('question_id')!r} has cot_content {cot!r}, expected a string")
    row["cot_content"] = cot.removeprefix(_COT_PREFIX).strip()
    return row


@LOAD_DATASET.register_module()
class MMLUProDataset(BaseDataset):
    """MMLU-Pro, the questions of one ``category``, every split the files give.

    Adds the columns ``answer_string`` (``'C. the option\\n'``, ``''`` when
    the answer letter names no option) and ``options_str`` (the options as
    ``'A. …'`` lines, ``'N/A'`` options left out, keeping their letters), and
    cuts the leading "A: Let's think step by step." from ``cot_content``.
    """

    @staticmethod
    def load(path: str, category: str) -> Any:
        local = get_data_path(path)
        loaded = load_local_hf(f"MMLUProDataset({category!r})", path=local)
        chosen = loaded.filter(lambda row: row["category"] == category, keep_in_memory=True)
        return chosen.map(_with_option_strings, keep_in_memory=True)
