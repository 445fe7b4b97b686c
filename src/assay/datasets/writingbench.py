"""WritingBench as OpenCompass 0.5.4 reads it (``WritingBenchDataset``).

Layout: ``<path>/<name>.jsonl`` (through :func:`~assay.datasets.location.get_data_path`,
local mode), one query per line with ``index``, ``domain1``, ``domain2``,
``query`` and ``criteria`` (a list).  Each criterion gets its judge prompt:
WritingBench's evaluation template (kept in ``writingbench_prompt.json``
beside this module as OpenCompass 0.5.4 has it, recorded by
``scripts/record_oc_subjective_single.py``) with the query and the criterion
filled in and ``{prediction}`` left for the judged answer.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from assay.datasets._oc_files import dataset, field, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["WritingBenchDataset", "writingbench_judge_template"]


@cache
def writingbench_judge_template() -> str:
    """WritingBench's evaluation template (``{question}``, ``{criteria}``, ``{prediction}``)."""
    with open(Path(__file__).with_name("writingbench_prompt.json"), encoding="utf-8") as handle:
        template: str = json.load(handle)["judge_template"]
    return template


@LOAD_DATASET.register_module()
class WritingBenchDataset(BaseDataset):
    """One row per query: ``question`` and ``judge`` (``index``, ``domain1``, ``domain2``, ``query`` and
    ``judge_prompt_list``, one prompt per criterion)."""

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        file = os.path.join(get_data_path(path, local_mode=True), f"{name}.jsonl")
        template = writingbench_judge_template()
        rows = []
        for n, data in enumerate(jsonl_rows(file, "WritingBenchDataset"), 1):
            where = f"{file}, line {n}"
            query = field(data, "query", "WritingBenchDataset", where)
            criteria = field(data, "criteria", "WritingBenchDataset", where)
            if not isinstance(criteria, list):
                raise InputFileError(f"WritingBenchDataset: {where}: 'criteria' must be a list, got {criteria!r:.80}")
            prompts = [template.format(question=query, criteria=c, prediction="{prediction}") for c in criteria]
            rows.append({"question": query, "judge": {
                "index": field(data, "index", "WritingBenchDataset", where),
                "domain1": field(data, "domain1", "WritingBenchDataset", where),
                "domain2": field(data, "domain2", "WritingBenchDataset", where),
                "query": query, "judge_prompt_list": prompts}})
        return dataset(rows)
