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

These are the names OpenCompass writes its own judge's replies under, so
re-scoring an OpenCompass work directory in place meets files holding
replies assay did not ask for.  :func:`write_judge_replies` never replaces a
file with one that lacks a reply it held (R-12.1): when a request failed
whose prompt the file there holds a reply to, that file is left byte for
byte as it is and assay's replies go beside it, to
``<dataset>_replica<i>.assay.json`` (:func:`side_replies_path`).  Kept
whole rather than merged sample by sample: a file mixing two judges'
replies would read as one judge's, and assay's own file still says which
requests failed and why.  Once a later run has every reply the file held,
it takes the file's place and the side file is removed.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path
from typing import Any

from assay.fileio import atomic_write_text, to_jsonable

logger = logging.getLogger(__name__)

__all__ = ["judge_replies_path", "lost_replies", "read_judge_replies", "side_replies_path", "write_judge_replies"]

#: Inserted before ``.json`` in the name of the file assay's replies go to when the usual one is kept.
SIDE_SUFFIX = ".assay"


def judge_replies_path(output_dir: str | os.PathLike[str], replica: int = 0) -> Path:
    """The judge-reply file of an evaluator given the output stem ``results/<model>/<dataset>``.

    >>> judge_replies_path('run/results/m/d', 0).as_posix()
    'run/results/m/d_replica0.json'
    >>> judge_replies_path('run/results/m/d_llm_judge', 1).as_posix()
    'run/results/m/d_llm_judge_replica1.json'
    """
    return Path(f"{os.fspath(output_dir)}_replica{int(replica)}.json")


def side_replies_path(path: str | os.PathLike[str]) -> Path:
    """Where assay's replies go when the judge-reply file ``path`` holds replies they lack.

    >>> side_replies_path('run/results/m/d_replica0.json').as_posix()
    'run/results/m/d_replica0.assay.json'
    """
    p = Path(path)
    return p.with_name(f"{p.stem}{SIDE_SUFFIX}{p.suffix}")


def _prompt_key(record: Mapping[str, Any]) -> str:
    return json.dumps(to_jsonable(record.get("origin_prompt")), sort_keys=True, ensure_ascii=False)


def lost_replies(old: Mapping[str, Any], new: Mapping[str, Any]) -> int:
    """How many records of ``new`` have no reply where ``old`` holds one to the same prompt.

    Records are matched by their ``origin_prompt`` (a cascade numbers the samples it judged
    from 0, so the same number need not be the same sample); a record bears a reply when
    its ``prediction`` is not ``None``.

    >>> old = {'0': {'origin_prompt': 'q1', 'prediction': 'A'}, '1': {'origin_prompt': 'q2', 'prediction': 'B'}}
    >>> lost_replies(old, {'0': {'origin_prompt': 'q1', 'prediction': None}, '1': {'origin_prompt': 'q2', 'prediction': 'A'}})
    1
    >>> lost_replies(old, {'0': {'origin_prompt': 'q3', 'prediction': None}})
    0
    """
    answered = {_prompt_key(r) for r in old.values() if isinstance(r, Mapping) and r.get("prediction") is not None}
    return sum(1 for r in new.values() if isinstance(r, Mapping) and r.get("prediction") is None and _prompt_key(r) in answered)


def write_judge_replies(path: str | os.PathLike[str], records: dict[str, Any]) -> Path:
    """Write judge-reply records (atomically) in OpenCompass's layout; the file written.

    That is ``path``, unless the file there holds a reply to a prompt that
    ``records`` has none for (see :func:`lost_replies`) or cannot be read as
    a judge-reply file: then it is left as it is, the records go to
    :func:`side_replies_path` and a warning names both.  When ``path`` is
    written, a side file an earlier run left there is removed.
    """
    target = Path(path)
    side = side_replies_path(target)
    if target.exists():
        try:
            old = read_judge_replies(target)
        except (OSError, ValueError) as exc:
            lost, why = -1, f"cannot be read as a judge-reply file ({exc})"
        else:
            lost = lost_replies(old, records)
            why = f"holds replies to {lost} prompt(s) whose judge request failed this time"
        if lost:
            atomic_write_text(side, json.dumps(to_jsonable(records), indent=4, ensure_ascii=False))
            logger.warning("%s %s: kept as it is; this evaluation's judge replies are in %s", target, why, side.name)
            return side
    atomic_write_text(target, json.dumps(to_jsonable(records), indent=4, ensure_ascii=False))
    with suppress(FileNotFoundError):
        side.unlink()
    return target


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
