"""CompassBench v1.3's objective questions as OpenCompass 0.5.4 reads them (``CompassBenchObjectiveV1_3``).

The configs name each file by its path (``./data/compassbench_v1_3/knowledge/single_choice_cn.jsonl``):
one JSON object per line, read as UTF-8 with undecodable bytes dropped, as OpenCompass opens it.
"""

from __future__ import annotations

import json
from typing import Any

from assay.datasets._oc_files import dataset, require_file
from assay.datasets.base import BaseDataset
from assay.datasets.wikibench import choice_rows
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["CompassBenchObjectiveV1_3"]

_LOADER = "CompassBenchObjectiveV1_3"


@LOAD_DATASET.register_module()
class CompassBenchObjectiveV1_3(BaseDataset):
    """The file's questions, read by ``name`` as WikiBench's are
    (:class:`~assay.datasets.wikibench.WikiBenchDataset`): a name with ``cloze``
    keeps ``question`` and ``answer`` stripped; one with ``circular`` writes each
    question four times, its options rotated (``ABCD``, ``BCDA``, ``CDAB``,
    ``DABC``) and its answer ``'<line>--<letter>--<rotation>'`` for openicl's
    ``CircularEvaluator``; any other appends the lettered options to the question.
    """

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        file = require_file(path, _LOADER)
        entries = []
        with open(file, encoding="utf-8", errors="ignore") as fh:
            for lineno, line in enumerate(fh, 1):
                try:
                    entries.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise InputFileError(f"{_LOADER}: {file}, line {lineno} is not JSON: {exc}") from None
        return dataset(choice_rows(entries, name, _LOADER, str(file)))
