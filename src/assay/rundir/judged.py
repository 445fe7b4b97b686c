"""The results of subjective evaluation, where and as OpenCompass 0.5.4 writes them.

A subjective task (a model, or a pair of models, on one dataset, judged by one
judge model) writes ``results/<models>_judged-by--<judge>/<dataset>.json``
(``<models>``: the model's abbr, or the pair's joined by ``_``;
``summarized-by--`` for a meta review): first the judge's outputs
(``"0".."N-1"`` → ``origin_prompt``, ``prediction``, ``gold``, as the judge's
inferencer writes them), then, in their place, what the dataset's
``dict_postprocessor`` made of them (the outputs themselves when it has
none).  Each is one JSON object, indented by 4, non-ASCII kept: the bytes
OpenCompass writes, so that its summarizers and assay's read the file as it
is.

What assay adds — the input fingerprint, what the judging cost, the unjudged
samples — goes beside it, in ``<dataset>.meta`` (one JSON object, its
``_meta``), never into the result, whose keys are OpenCompass's.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from assay.fileio import atomic_write_text, to_jsonable
from assay.rundir.layout import RunDir

__all__ = [
    "judged_abbr",
    "judged_meta_path",
    "judged_result_path",
    "subjective_summary_path",
    "read_judged_meta",
    "read_judged_result",
    "write_judged_meta",
    "write_judged_result",
]


def judged_abbr(model_abbrs: str | Sequence[str], judge_abbr: str, *, meta: bool = False) -> str:
    """The results folder of a subjective task: the models' abbrs and the judge's, as OpenCompass joins them.

    >>> judged_abbr('model-a', 'gpt-4o')
    'model-a_judged-by--gpt-4o'
    >>> judged_abbr(['gpt4-turbo', 'model-a'], 'judge', meta=True)
    'gpt4-turbo_model-a_summarized-by--judge'
    """
    names = [model_abbrs] if isinstance(model_abbrs, str) else list(model_abbrs)
    return "_".join([*names, ("summarized-by--" if meta else "judged-by--") + judge_abbr])


def judged_result_path(run_dir: RunDir, folder: str, dataset_abbr: str) -> Path:
    """``results/<folder>/<dataset>.json`` (``folder``: a :func:`judged_abbr`)."""
    return run_dir.result_path(folder, dataset_abbr)


def subjective_summary_path(run_dir: RunDir, time_str: str, judge_abbr: str) -> Path:
    """The table of every subjective score a judge gave, as OpenCompass's ``SubjectiveSummarizer`` names it:
    ``summary/<time>/Subjective_all_results-judged-by--<judge>.csv``.

    >>> subjective_summary_path(RunDir(Path('run')), '20250101_000000', 'gpt-4o').as_posix()
    'run/summary/20250101_000000/Subjective_all_results-judged-by--gpt-4o.csv'
    """
    return run_dir.summary / time_str / f"Subjective_all_results-judged-by--{judge_abbr}.csv"


def judged_meta_path(result_path: str | os.PathLike[str]) -> Path:
    """Where assay keeps what it adds to a subjective result: ``<dataset>.meta`` beside it.

    >>> judged_meta_path('run/results/m_judged-by--j/d.json').as_posix()
    'run/results/m_judged-by--j/d.meta'
    """
    return Path(result_path).with_suffix(".meta")


def write_judged_result(path: str | os.PathLike[str], result: dict[str, Any]) -> None:
    """Write a subjective result (or the judge's outputs) atomically, in OpenCompass's format."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(to_jsonable(result), indent=4, ensure_ascii=False))


def read_judged_result(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A subjective result file (or the judge's outputs).

    Raises:
        ValueError: naming the file, when it is not a JSON object.
    """
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ValueError(f"{os.fspath(path)}: a subjective result must hold a JSON object, got {type(data).__name__}")
    return data


def write_judged_meta(result_path: str | os.PathLike[str], meta: dict[str, Any]) -> Path:
    """Write ``{"_meta": meta}`` beside a subjective result; its path."""
    path = judged_meta_path(result_path)
    atomic_write_text(path, json.dumps({"_meta": to_jsonable(meta)}, indent=1, ensure_ascii=False))
    return path


def read_judged_meta(result_path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The ``_meta`` assay kept beside a subjective result, ``None`` when there is none (or it cannot be read)."""
    try:
        with open(judged_meta_path(result_path), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    meta = data.get("_meta") if isinstance(data, dict) else None
    return meta if isinstance(meta, dict) else None
