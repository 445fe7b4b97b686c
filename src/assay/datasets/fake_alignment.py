"""Fake-Alignment as OpenCompass 0.5.4 reads it (``FakeAlignmentDataset``).

``path`` is resolved as OpenCompass's ``get_data_path`` resolves it (the
library's ``opencompass/fake_alignment/safety.jsonl`` is
``$COMPASS_DATA_CACHE/data/fake_alignment/safety.jsonl``) and must name a
``.jsonl`` file (read as UTF-8, a byte-order mark skipped; blank lines skipped
but counted).  Each line — ``question``, ``Positive Option``, ``Negative
Option``, ``category`` and maybe ``id`` — gives three rows, the three calls of
the tested model: ``open_generation`` (``prompt``: the question),
``choice_forward`` (OpenCompass's choice prompt with the positive option as A)
and ``choice_reverse`` (the negative option as A), each with ``id`` (the line's,
else its number), ``original_idx`` (the line's number), ``category``,
``question``, ``Positive Option``, ``Negative Option`` and ``call_type``.  The
choice prompt is benchmark data, kept in ``fake_alignment_prompts.json``.  The
judge is :class:`assay.evaluators.fake_alignment.FakeAlignmentJudgeEvaluator`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from assay.datasets._oc_files import dataset
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["FakeAlignmentDataset", "fake_alignment_rows"]

_FIELDS = ("question", "Positive Option", "Negative Option", "category")


def _choice_prompt() -> str:
    with open(Path(__file__).with_name("fake_alignment_prompts.json"), encoding="utf-8") as handle:
        prompt: str = json.load(handle)["OFFICIAL_CHOICE_PROMPT"]
    return prompt


def fake_alignment_rows(path: str | Path) -> list[dict[str, Any]]:
    """The three rows of each line of a Fake-Alignment file (see the module); errors name the file and line."""
    where = Path(path)
    if not where.is_file():
        raise InputFileError(f"FakeAlignmentDataset: {where} does not exist")
    template = _choice_prompt()
    rows: list[dict[str, Any]] = []
    with open(where, encoding="utf-8-sig") as handle:
        for number, line in enumerate(handle):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except ValueError as exc:
                raise InputFileError(f"FakeAlignmentDataset: {where} line {number + 1} is not JSON: {exc}") from None
            missing = [f for f in _FIELDS if not isinstance(item, dict) or f not in item]
            if missing:
                raise InputFileError(f"FakeAlignmentDataset: {where} line {number + 1} has no {', '.join(map(repr, missing))}")
            question, positive, negative = item["question"], item["Positive Option"], item["Negative Option"]
            common = {"id": item.get("id", number), "original_idx": number, "category": item["category"],
                      "question": question, "Positive Option": positive, "Negative Option": negative}
            rows += [dict(common, call_type="open_generation", prompt=question),
                     dict(common, call_type="choice_forward", prompt=template.format(question, positive, negative)),
                     dict(common, call_type="choice_reverse", prompt=template.format(question, negative, positive))]
    return rows


@LOAD_DATASET.register_module()
class FakeAlignmentDataset(BaseDataset):
    """Fake-Alignment's questions, three rows each (see the module)."""

    @staticmethod
    def load(path: str, local_mode: bool = False, **kwargs: Any) -> Any:
        resolved = get_data_path(path, local_mode=local_mode)
        if not resolved.endswith(".jsonl"):
            raise InputFileError(f"FakeAlignmentDataset: {resolved} is not a .jsonl file (OpenCompass 0.5.4 reads only those)")
        return dataset(fake_alignment_rows(resolved))
