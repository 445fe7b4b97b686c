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
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from assay.config.abbr import model_abbr
from assay.errors import ConfigError
from assay.fileio import atomic_write_text, to_jsonable
from assay.rundir.layout import RunDir

__all__ = [
    "begin_judging",
    "end_judging",
    "keep_previous_beside",
    "partial_judged",
    "judged_abbr",
    "judged_folder",
    "judge_abbrs",
    "judged_usage",
    "judged_meta_path",
    "judged_result_path",
    "subjective_summary_path",
    "summarizer_dir",
    "read_judged_meta",
    "recover_interrupted",
    "results_dir",
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


def judged_folder(run_dir: RunDir, model_abbrs: str | Sequence[str], judge_abbr: str, *, meta: bool = False) -> Path:
    """``results/<models>_judged-by--<judge>/``: the folder of a subjective task's results (see :func:`judged_abbr`).

    >>> judged_folder(RunDir(Path('run')), ['base', 'model-a'], 'gpt-4o').as_posix()
    'run/results/base_model-a_judged-by--gpt-4o'
    """
    return run_dir.results / judged_abbr(model_abbrs, judge_abbr, meta=meta)


def summarizer_dir(run_dir: RunDir, time_str: str) -> Path:
    """``summary/<time>/``: where OpenCompass's subjective summarizers write their files (not created here).

    >>> summarizer_dir(RunDir(Path('run')), '20250101_000000').as_posix()
    'run/summary/20250101_000000'
    """
    return run_dir.summary / time_str


def judged_result_path(run_dir: RunDir, folder: str, dataset_abbr: str) -> Path:
    """``results/<folder>/<dataset>.json`` (``folder``: a :func:`judged_abbr`)."""
    return run_dir.result_path(folder, dataset_abbr)


def subjective_summary_path(run_dir: RunDir, time_str: str, judge_abbr: str) -> Path:
    """The table of every subjective score a judge gave, as OpenCompass's ``SubjectiveSummarizer`` names it:
    ``summary/<time>/Subjective_all_results-judged-by--<judge>.csv``.

    >>> subjective_summary_path(RunDir(Path('run')), '20250101_000000', 'gpt-4o').as_posix()
    'run/summary/20250101_000000/Subjective_all_results-judged-by--gpt-4o.csv'
    """
    return summarizer_dir(run_dir, time_str) / f"Subjective_all_results-judged-by--{judge_abbr}.csv"


def results_dir(config: Mapping[str, Any]) -> Path:
    """``<work_dir>/results`` of a run config (its ``work_dir`` is the run directory), as the summarizers find it."""
    work_dir = config.get("work_dir")
    if not isinstance(work_dir, (str, Path)) or not str(work_dir):
        raise ConfigError(f"the run config has no work_dir (got {work_dir!r}): the summarizer cannot find its results")
    return RunDir(Path(work_dir)).results


def judge_abbrs(config: Mapping[str, Any], who: str) -> list[str]:
    """The abbr of each of ``judge_models``; a clear error naming ``who`` without any."""
    judges = config.get("judge_models")
    if not judges or not isinstance(judges, Sequence) or isinstance(judges, (str, bytes)):
        raise ConfigError(f"{who}: the run config has no judge_models (got {judges!r:.80}): whose verdicts to summarize?")
    return [model_abbr(dict(j)) for j in judges]


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


def _backup_path(result_path: Path) -> Path:
    return result_path.with_name(result_path.name + ".previous")


def begin_judging(result_path: str | os.PathLike[str], old_meta: dict[str, Any] | None) -> None:
    """Before a judge task rewrites a subjective result: keep what is there and mark the task as judging.

    The result file already there is copied to ``<dataset>.json.previous`` and
    the ``.meta`` says ``judging`` (with the meta it had, if any), so that a
    run killed from here on (``kill -9``, a full disk, Ctrl-C) is never
    mistaken for a finished one: :func:`recover_interrupted` puts the previous
    result and meta back before the next run decides what to do (R-12.1).
    """
    path = Path(result_path)
    if path.is_file():
        from assay.fileio import atomic_write_bytes

        atomic_write_bytes(_backup_path(path), path.read_bytes())
    write_judged_meta(path, {"judging": True, "before": old_meta})


def _beside_path(result_path: Path) -> Path:
    return result_path.with_name(result_path.stem + ".assay.json")


def keep_previous_beside(result_path: str | os.PathLike[str]) -> Path:
    """A partial result must not replace a complete one assay did not write (R-12.1): the result just
    written moves beside it, to ``<dataset>.assay.json`` (its path returned), and the one kept by
    :func:`begin_judging` is back in place (copied: a run stopped here still finds the kept one)."""
    from assay.fileio import atomic_write_bytes

    path = Path(result_path)
    side = _beside_path(path)
    os.replace(path, side)
    atomic_write_bytes(path, _backup_path(path).read_bytes())
    return side


def end_judging(result_path: str | os.PathLike[str], *, beside: bool = False) -> None:
    """After the result and its meta are written: the copy kept by :func:`begin_judging` goes, and so does a
    partial result once kept beside the file (:func:`keep_previous_beside`), unless this one is that."""
    path = Path(result_path)
    _backup_path(path).unlink(missing_ok=True)
    if not beside:
        _beside_path(path).unlink(missing_ok=True)


def recover_interrupted(result_path: str | os.PathLike[str], meta: dict[str, Any] | None) -> dict[str, Any] | None:
    """Undo a judge task that stopped between :func:`begin_judging` and its end; the meta now in force.

    When ``meta`` says ``judging``, the result kept before is put back (or, when
    there was none, the half-written one removed) and the meta it had restored
    (or removed); otherwise nothing changes and ``meta`` is returned.
    """
    if not meta or not meta.get("judging"):
        return meta
    path = Path(result_path)
    backup = _backup_path(path)
    if backup.is_file():
        os.replace(backup, path)
    else:
        path.unlink(missing_ok=True)
    before = meta.get("before")
    if isinstance(before, dict):
        write_judged_meta(path, before)
        return before
    judged_meta_path(path).unlink(missing_ok=True)
    return None


_SUMMED = ("calls", "cached", "failed", "requests", "prompt_tokens", "completion_tokens", "usage_unknown", "seconds",
           "cost", "unjudged", "samples")


def judged_usage(run_dir: RunDir) -> dict[tuple[str, str], dict[str, Any]]:
    """What judging each (model, dataset) of the run's subjective results cost, from the ``<dataset>.meta`` files.

    The key is the judged model (of a pair, the compared one: the second) and
    the dataset; the value the meta's ``judge`` record (calls, tokens, seconds,
    cost, …) with ``unjudged`` (the samples the judge gave no readable verdict)
    and ``samples`` added, and ``against`` (the base models, when paired).
    Where a model has several results of one dataset (several base models or
    judges), the counts are added up, an unknown one (``None``) staying
    unknown, and the judges and bases listed.  A meta that cannot be read is
    left out.

    Example:
        >>> import tempfile
        >>> run = RunDir(Path(tempfile.mkdtemp()))
        >>> path = judged_result_path(run, judged_abbr(['base', 'm'], 'j'), 'd')
        >>> write_judged_result(path, {})
        >>> _ = write_judged_meta(path, {'models': ['base', 'm'], 'dataset': 'd', 'samples': 4,
        ...                              'judge': {'model': 'j', 'calls': 4, 'cost': None}, 'unjudged': {'count': 1}})
        >>> judged_usage(run)
        {('m', 'd'): {'model': 'j', 'calls': 4, 'cost': None, 'unjudged': 1, 'samples': 4, 'against': ['base']}}
    """
    found: dict[tuple[str, str], dict[str, Any]] = {}
    if not run_dir.results.is_dir():
        return found
    for folder in sorted(run_dir.results.iterdir()):
        if not folder.is_dir() or ("_judged-by--" not in folder.name and "_summarized-by--" not in folder.name):
            continue
        for meta_file in sorted(folder.glob("*.meta")):
            meta = read_judged_meta(meta_file.with_suffix(".json"))
            models = meta.get("models") if meta else None
            if not meta or not isinstance(meta.get("judge"), dict) or not isinstance(models, list) or not models:
                continue
            unjudged = meta.get("unjudged")
            usage = dict(meta["judge"])
            usage["unjudged"] = unjudged.get("count") if isinstance(unjudged, dict) else None
            usage["samples"] = meta.get("samples")
            if len(models) > 1:
                usage["against"] = [str(m) for m in models[:-1]]
            key = (str(models[-1]), str(meta.get("dataset") or meta_file.stem))
            found[key] = _added(found[key], usage) if key in found else usage
    return found


def partial_judged(run_dir: RunDir) -> set[tuple[str, str, str]]:
    """The run's partial subjective results: (judged model — of a pair, the compared one —, judge, dataset) of
    each whose ``<dataset>.meta`` lists ``incomplete`` entries (judge requests that failed) for the result
    file itself (not for a partial result written beside one assay did not write).

    Example:
        >>> import tempfile
        >>> run = RunDir(Path(tempfile.mkdtemp()))
        >>> path = judged_result_path(run, judged_abbr(['base', 'm'], 'j'), 'd')
        >>> write_judged_result(path, {})
        >>> _ = write_judged_meta(path, {'models': ['base', 'm'], 'judge_model': 'j', 'dataset': 'd',
        ...                              'incomplete': [{'kind': 'unjudged', 'count': 1, 'detail': ''}]})
        >>> partial_judged(run)
        {('m', 'j', 'd')}
    """
    found: set[tuple[str, str, str]] = set()
    if not run_dir.results.is_dir():
        return found
    for folder in sorted(run_dir.results.iterdir()):
        if not folder.is_dir() or "_judged-by--" not in folder.name:
            continue
        for meta_file in sorted(folder.glob("*.meta")):
            meta = read_judged_meta(meta_file.with_suffix(".json"))
            if not meta or not meta.get("incomplete") or meta.get("beside"):
                continue
            models = meta.get("models") if isinstance(meta.get("models"), list) else []
            found.add((str(models[-1]) if models else "", str(meta.get("judge_model") or ""),
                       str(meta.get("dataset") or meta_file.stem)))
    return found


def _added(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """Two usage records of one (model, dataset) as one: counts added (unknown stays unknown), judges and bases listed."""
    out = dict(first)
    for name in _SUMMED:
        if name in first or name in second:
            a, b = first.get(name), second.get(name)
            out[name] = None if a is None or b is None else a + b
    judges = [*(first["model"] if isinstance(first.get("model"), list) else [first.get("model")])]
    if second.get("model") not in judges:
        judges.append(second.get("model"))
    out["model"] = judges if len(judges) > 1 else judges[0]
    against = [*first.get("against", []), *(b for b in second.get("against", []) if b not in first.get("against", []))]
    if against:
        out["against"] = against
    return out
