"""IFEval as OpenCompass 0.5.4 reads it (``IFEvalDataset``).

Layout (id ``opencompass/IFEval`` → ``./data/ifeval/input_data.jsonl``): one
prompt per line, ``{"key": 1000, "prompt": ..., "instruction_id_list": [...],
"kwargs": [{...}, ...]}`` (Google's ``input_data.jsonl``).
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import dataset, field, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.registry import LOAD_DATASET

__all__ = ["IFEvalDataset"]


@LOAD_DATASET.register_module()
class IFEvalDataset(BaseDataset):
    """Rows ``{'prompt', 'reference'}``, ``reference`` being the whole line (a dict).

    As the table is built by ``datasets``, each ``kwargs`` dict gets every
    argument name used anywhere in the file (``None`` where absent);
    ``IFEvaluator`` drops those again.  ``path`` goes through
    :func:`~assay.datasets.location.get_data_path`.
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        file = get_data_path(path)
        rows = []
        for i, line in enumerate(jsonl_rows(file, "IFEvalDataset"), 1):
            rows.append({"prompt": field(line, "prompt", "IFEvalDataset", f"{file}, line {i}"), "reference": line})
        return dataset(rows)
