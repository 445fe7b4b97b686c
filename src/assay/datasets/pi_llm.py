"""PI-LLM (proactive interference in key-value tracking) as OpenCompass 0.5.4 reads it (``PILLMDataset``).

OpenCompass hands the config's ``path`` (``giantfish-fly/pi-llm``) and ``subset`` (``core`` or
``sequential_additional``) to ``datasets.load_dataset``; assay reads the same local folder
(relative to the working folder, its ``README.md`` naming the configurations' files), else the
dataset's copy in the Hugging Face Hub's cache, and never downloads it.  Of the ``test`` split
it keeps, by ``experiment_filter``, the rows whose ``experiment`` contains ``exp_updates`` (and
not ``randomoff``), ``exp_keys``, ``exp_valuelength`` or ``extra_exp_updates_randomoff``
(``exp_sequential``); then the first ``max_samples``.  A ``prompt`` that is a string is read as
the JSON of the chat messages, else taken as one user message.  Rows keep every column.
"""

from __future__ import annotations

import json
from typing import Any

from assay.datasets._oc import rows_table
from assay.datasets._oc_files import hub_location, hub_splits
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["PILLMDataset"]

_LOADER = "PILLMDataset"


def _kept(experiment_filter: str | None, experiment: str) -> bool:
    if experiment_filter == "exp_updates":
        return "exp_updates" in experiment and "randomoff" not in experiment
    if experiment_filter in ("exp_keys", "exp_valuelength"):
        return experiment_filter in experiment
    if experiment_filter == "exp_sequential":
        return "extra_exp_updates_randomoff" in experiment
    return True


def _messages(prompt: Any) -> Any:
    if not isinstance(prompt, str):
        return prompt
    try:
        return json.loads(prompt)
    except json.JSONDecodeError:
        return [{"role": "user", "content": prompt}]


@LOAD_DATASET.register_module()
class PILLMDataset(BaseDataset):
    """The ``test`` split of configuration ``subset``, filtered by experiment (see the module)."""

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, subset: str = "core", experiment_filter: str | None = None, max_samples: int | None = None,
             **kwargs: Any) -> Any:
        splits = hub_splits(_LOADER, path, name=subset)
        if "test" not in splits:
            raise InputFileError(f"{_LOADER}: configuration {subset!r} of {path!r} has no 'test' split "
                                 f"(splits: {', '.join(splits) or 'none'})")
        rows = [dict(r) for r in splits["test"]]
        if experiment_filter:
            rows = [r for r in rows if _kept(experiment_filter, r.get("experiment") or "")]
        if max_samples:
            rows = rows[:max_samples]
        for row in rows:
            row["prompt"] = _messages(row.get("prompt"))
        return rows_table(rows, f"{path} ({subset})")
