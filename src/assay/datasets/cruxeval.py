"""CRUXEval as OpenCompass 0.5.4 reads it (``CRUXEvalDataset``).

OpenCompass passes ``path`` (``'cruxeval-org/cruxeval'`` in its configs) to
``datasets.load_dataset(path, split='test')`` as it is, without its data
location rules.  Here ``path`` must be a local folder (or file) in a layout
``datasets`` reads — a copy of the hub dataset, e.g. ``data/test-*.parquet``,
or ``test.jsonl`` — with the columns ``code``, ``input``, ``output`` (and
``id``); a hub id that is no local path is refused, since assay reads local
files only.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import load_local_hf
from assay.datasets.base import BaseDataset
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["CRUXEVAL_INPUT_FIELDS", "CRUXEvalDataset"]

#: The columns the CRUXEval-O prompt reads (OpenCompass's name).
CRUXEVAL_INPUT_FIELDS = ["code", "input"]


@LOAD_DATASET.register_module()
class CRUXEvalDataset(BaseDataset):
    """The ``test`` split of the dataset at ``path``, read by ``datasets`` from local files only.

    >>> CRUXEvalDataset.load('path/to/cruxeval')[0]['output']  # doctest: +SKIP
    "'bcksrutq'"
    """

    @staticmethod
    def load(path: str = "cruxeval-org/cruxeval", **kwargs: Any) -> Any:
        dataset = load_local_hf("CRUXEvalDataset", path=path, split="test")
        missing = [c for c in ("code", "input", "output") if c not in dataset.column_names]
        if missing:
            raise InputFileError(f"CRUXEvalDataset: the test split read from {path} lacks the column(s) {', '.join(missing)}")
        return dataset
