"""MRCR (v2) as OpenCompass 0.5.4 reads it (``MRCRDataset``).

OpenCompass hands ``path`` (``'giulio98/MRCR_v2_common'``) and ``subset``
(``'2needle_in_4096_8192'``, …, ``'8needle_upto_128K'``) to
``datasets.load_dataset(path, subset, split='test')``.  Here ``path`` must be
a local folder that ``datasets`` reads with the subset as configuration name
(a copy of the dataset whose ``README.md`` lists one configuration per
subset), found in the working directory, beside the config, under
``$COMPASS_DATA_CACHE`` or ``~/.cache/opencompass``; nothing is fetched from
the Hugging Face Hub.

Each record has ``context`` (the conversation), ``question`` (which earlier
reply to repeat, and the random string to prepend: ``Prepend <prefix> to
…``) and ``answers`` (the expected reply first).  The rows are ``context``,
``question`` and ``gold``: the JSON text ``{"answer": <first answer>,
"prefix": <prefix>}`` that :class:`~assay.evaluators.mrcr.MRCREvaluator`
reads (the prefix ``''`` when the question has no ``Prepend … to``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from assay.datasets._oc import as_datasets, field, load_local_hf, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.table import RowTable
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["MRCRDataset"]

_PREPEND = re.compile(r"Prepend\s+(\S+)\s+to")


def _row(sample: dict[str, Any], where: str) -> dict[str, Any]:
    question = field(sample, "question", where)
    if not isinstance(question, str):
        raise InputFileError(f"{where}: 'question' is {str(question)[:80]!r}, not text")
    found = _PREPEND.search(question)
    answer = field(field(sample, "answers", where), 0, where)
    gold = json.dumps({"answer": answer, "prefix": found.group(1) if found else ""})
    return {"context": field(sample, "context", where), "question": question, "gold": gold}


@LOAD_DATASET.register_module()
class MRCRDataset(BaseDataset):
    """The ``test`` split of ``subset``: ``context``, ``question`` and ``gold`` (see the module)."""

    @staticmethod
    def load_table(path: str = "giulio98/MRCR_v2_common", subset: str = "2needle_in_4096_8192", **kwargs: Any) -> RowTable:
        """The rows as a table (what assay evaluates)."""
        what = "MRCRDataset"
        loaded = load_local_hf(what, path=path, name=subset, split="test")
        where = f"{what}: {path} (subset {subset!r})"
        return rows_table([_row(sample, f"{where}, test record {i}") for i, sample in enumerate(loaded)], what)

    @staticmethod
    def load(path: str = "giulio98/MRCR_v2_common", subset: str = "2needle_in_4096_8192", **kwargs: Any) -> Any:
        return as_datasets(MRCRDataset.load_table(path, subset, **kwargs))
