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

from typing import Any

from assay.datasets._oc import load_local_hf
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["MMLU_PRO_LETTERS", "MMLUProDataset"]

#: The option letters MMLU-Pro's loader knows (it fails on a question with more options).
MMLU_PRO_LETTERS = "ABCDEFGHIJKLMNOP"

_COT_PREFIX = "A: Let's think step by step."


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
