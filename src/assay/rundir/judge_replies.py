"""The judge-reply files of LLM-judged results, where and as OpenCompass 0.5.4 writes them.

A judge evaluator whose result is ``results/<model>/<dataset>.json`` writes
its judge's replies beside it, one file per run of the samples (replica):

* ``results/<model>/<dataset>_replica<i>.json`` — ``GenericLLMEvaluator``;
* ``results/<model>/<dataset>_llm_judge_replica<i>.json`` — the judge step of
  ``CascadeEvaluator`` (only the samples it judged, renumbered from 0).

Each is one JSON object (indented by 4, non-ASCII kept) mapping ``"0".."N-1"``
to ``{"origin_prompt": <the prompt as the judge model parsed it>,
"prediction": <the reply>, "gold": <the reference>}`` — OpenCompass's
inference output format.  A reply that never arrived (assay goes on where
OpenCompass stops) has ``"prediction": null`` and ``"judge_error"``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from assay.fileio import atomic_write_text, to_jsonable

__all__ = ["judge_replies_path", "read_judge_replies", "write_judge_replies"]


def judge_replies_path(output_dir: str | os.PathLike[str], replica: int = 0) -> Path:
    """The judge-reply file of an evaluator given the output stem ``results/<model>/<dataset>``.

    >>> judge_replies_path('run/results/m/d', 0).as_posix()
    'run/results/m/d_replica0.json'
    >>> judge_replies_path('run/results/m/d_llm_judge', 1).as_posix()
    'run/results/m/d_llm_judge_replica1.json'
    """
    return Path(f"{os.fspath(output_dir)}_replica{int(replica)}.json")


def write_judge_replies(path: str | os.PathLike[str], records: dict[str, Any]) -> None:
    """Write judge-reply records (atomically) in OpenCompass's layout."""
    atomic_write_text(path, json.dumps(to_jsonable(records), indent=4, ensure_ascii=False))


def read_judge_replies(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The records of a judge-reply file.

    Raises:
        ValueError: naming the file, when it is not a JSON object.
    """
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ValueError(f"{os.fspath(path)}: a judge-reply file must hold a JSON object, got {type(data).__name__}")
    return data
