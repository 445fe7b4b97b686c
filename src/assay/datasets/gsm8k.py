"""GSM8K as OpenCompass 0.5.4 reads it (``GSM8KDataset``).

Layout (OpenCompass's ``data/gsm8k``, id ``opencompass/gsm8k``)::

    <path>/train.jsonl    {"question": ..., "answer": "...\\n#### 72"} per line
    <path>/test.jsonl
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc_files import dataset_dict, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.registry import LOAD_DATASET

__all__ = ["GSM8KDataset"]


@LOAD_DATASET.register_module()
class GSM8KDataset(BaseDataset):
    """GSM8K's ``train`` and ``test`` splits, rows as in the files (``question``, ``answer``, …).

    ``path`` goes through :func:`~assay.datasets.location.get_data_path`
    (``opencompass/gsm8k`` → ``./data/gsm8k/``, under ``$COMPASS_DATA_CACHE``
    when set); both ``train.jsonl`` and ``test.jsonl`` must exist there, as
    OpenCompass opens both.  The reference keeps its worked solution: configs
    take the number after ``####`` with ``gsm8k_dataset_postprocess``.

    >>> GSM8KDataset.load('opencompass/gsm8k')['test'][0]['answer']  # doctest: +SKIP
    'Janet sells 16 - 3 - 4 = <<16-3-4=9>>9 duck eggs a day...\\n#### 18'
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        root = get_data_path(path)
        return dataset_dict({split: jsonl_rows(os.path.join(root, f"{split}.jsonl"), "GSM8KDataset") for split in ("train", "test")})
