"""HealthBench as OpenCompass 0.5.4 reads it (``HealthBenchDataset``).

OpenCompass hands ``path`` (the Hugging Face id ``huihuixu/healthbench``) with
one data file, chosen by ``subset``, to ``datasets.load_dataset``:

* ``''``: ``2025-05-07-06-14-12_oss_eval.jsonl``;
* ``'hard'``: ``hard_2025-05-08-21-00-10.jsonl``;
* ``'consensus'``: ``consensus_2025-05-09-20-00-46.jsonl``.

assay reads the same file from the local folder ``path`` (relative to the
working folder), else from the dataset's copy in the Hugging Face Hub's cache,
and never downloads it.  Each row keeps the file's columns (``prompt``, the
conversation; ``rubrics``, each ``criterion``, ``points`` and ``tags``;
``example_tags``; ``prompt_id``; …) and gains ``prompt_trans``: the
conversation with an empty assistant message appended, which the library's
prompt template hands the model.  Another ``subset`` is an error naming it
(OpenCompass raises a bare ``Exception``).  The rubric grader is
:class:`assay.evaluators.healthbench.HealthBenchEvaluator`.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import hub_location, hub_splits
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import ConfigError
from assay.registry import LOAD_DATASET

__all__ = ["HEALTHBENCH_FILES", "HealthBenchDataset"]

#: ``subset`` → the data file OpenCompass 0.5.4 reads
HEALTHBENCH_FILES = {
    "": "2025-05-07-06-14-12_oss_eval.jsonl",
    "hard": "hard_2025-05-08-21-00-10.jsonl",
    "consensus": "consensus_2025-05-09-20-00-46.jsonl",
}


def _with_reply_slot(row: dict[str, Any]) -> dict[str, Any]:
    return {"prompt_trans": [*row["prompt"], {"role": "assistant", "content": ""}]}


@LOAD_DATASET.register_module()
class HealthBenchDataset(BaseDataset):
    """HealthBench's conversations and rubrics of one ``subset`` (see the module)."""

    @staticmethod
    def data_location(path: str = "huihuixu/healthbench", **kwargs: Any) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str = "huihuixu/healthbench", **kwargs: Any) -> Any:
        subset = kwargs.get("subset")
        if subset not in HEALTHBENCH_FILES:
            raise ConfigError(f"HealthBenchDataset: subset={subset!r} is not one of "
                              f"{', '.join(repr(s) for s in HEALTHBENCH_FILES)} (OpenCompass 0.5.4 knows only these)")
        table = hub_splits("HealthBenchDataset", path, split="test", data_files={"test": HEALTHBENCH_FILES[subset]})
        if "prompt" not in table.column_names:
            from assay.errors import InputFileError

            raise InputFileError(f"HealthBenchDataset: {path}/{HEALTHBENCH_FILES[subset]} has no column 'prompt' "
                                 f"(columns: {', '.join(table.column_names) or 'none'})")
        return table.map(_with_reply_slot)
