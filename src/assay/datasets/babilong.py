"""BABILong as OpenCompass 0.5.4 reads it (``BabiLongDataset``).

Layout (OpenCompass's ``data/babilong/data``, id ``opencompass/babilong``)::

    <path>/<task>/<split_name>.json    [{"input": ..., "question": ..., "target": ...}, …]

``task`` is one of ``qa1`` … ``qa10``, ``split_name`` one of ``0k``, ``1k``,
``2k``, ``4k``, ``8k``, ``16k``, ``32k``, ``64k``, ``128k``, ``256k``, ``512k``,
``1m``.  Each sample becomes one row whose ``prompt`` and ``answer`` are
lists of one element (``[text]``, ``[target]``), as OpenCompass builds them;
``BabiLongEvaluator`` reads the first element of the ``gold`` the inferencer
wrote from that ``answer``.

The prompt carries, as ``use_instruction``, ``use_examples`` and
``use_post_prompt`` ask (all three by default, as the library configs leave
them), BABILong's instruction, worked examples and answer-format note of the
task: benchmark data, kept in ``babilong_prompts.json`` beside this module as
OpenCompass 0.5.4 has them (recorded by ``scripts/record_oc_ruler.py``).
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from assay.datasets._oc_files import dataset, field, json_value
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["BabiLongDataset"]

#: The tasks OpenCompass's loader accepts.
TASKS = tuple(f"qa{i}" for i in range(1, 11))
#: The context lengths it accepts.
SPLITS = ("0k", "1k", "2k", "4k", "8k", "16k", "32k", "64k", "128k", "256k", "512k", "1m")

#: The layout of one prompt: the task's instruction, examples and post-prompt, then the sample.
_LAYOUT = "{instruction}\n\n{examples}\n\n{post_prompt}\n\n<context>\n{context}\n</context>\n\nQuestion: {question}"


@cache
def task_prompts() -> dict[str, dict[str, str]]:
    """BABILong's texts per task: ``{'qa1': {'instruction': …, 'examples': …, 'post_prompt': …}, …}``."""
    with open(Path(__file__).with_name("babilong_prompts.json"), encoding="utf-8") as handle:
        texts: dict[str, dict[str, str]] = json.load(handle)
    return texts


@LOAD_DATASET.register_module()
class BabiLongDataset(BaseDataset):
    """One BABILong task at one context length: rows ``{'prompt': [text], 'answer': [target]}``.

    ``path`` goes through :func:`~assay.datasets.location.get_data_path`.
    The prompt is laid out as OpenCompass lays it out — the task's
    instruction, examples and post-prompt (each empty when its ``use_…``
    flag is false), each followed by a blank line, then the sample's context
    (stripped) between ``<context>`` tags and ``Question: …``, the whole
    stripped — and equals OpenCompass's for every setting of the three
    flags.

    Raises:
        InputFileError: an unknown task or split name (OpenCompass asserts
            them), a missing file, or a sample without ``input``,
            ``question`` or ``target``.

    >>> BabiLongDataset.load('opencompass/babilong', 'qa1', '4k')[0]['answer']  # doctest: +SKIP
    ['bathroom']
    """

    @staticmethod
    def load(
        path: str,
        task: str,
        split_name: str,
        use_instruction: bool = True,
        use_examples: bool = True,
        use_post_prompt: bool = True,
        **kwargs: Any,
    ) -> Any:
        if task not in TASKS:
            raise InputFileError(f"BabiLongDataset: task {task!r} is not one of {', '.join(TASKS)}")
        if split_name not in SPLITS:
            raise InputFileError(f"BabiLongDataset: split_name {split_name!r} is not one of {', '.join(SPLITS)}")
        texts = task_prompts()[task]
        used = {"instruction": use_instruction, "examples": use_examples, "post_prompt": use_post_prompt}
        parts = {part: texts[part] if on else "" for part, on in used.items()}
        file = os.path.join(get_data_path(path), task, f"{split_name}.json")
        samples = json_value(file, "BabiLongDataset")
        if not isinstance(samples, list):
            raise InputFileError(f"BabiLongDataset: {file} holds {type(samples).__name__}, expected a list of samples")
        rows = []
        for i, sample in enumerate(samples):
            where = f"{file}, sample {i}"
            target = field(sample, "target", "BabiLongDataset", where)
            context = field(sample, "input", "BabiLongDataset", where)
            question = field(sample, "question", "BabiLongDataset", where)
            if not isinstance(context, str):
                raise InputFileError(f"BabiLongDataset: {where}: 'input' is {type(context).__name__}, expected text")
            text = _LAYOUT.format(context=context.strip(), question=question, **parts)
            rows.append({"prompt": [text.strip()], "answer": [target]})
        return dataset(rows)
