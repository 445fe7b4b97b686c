"""Reading inspect_ai's evaluation logs (``inspect eval … --log-format eval|json``).

inspect_ai writes one log per task and model, in one of two formats:

* ``.eval`` (its default): a zip archive whose entries are JSON documents, each
  Zstandard-compressed (zip method 93, which Python's own :mod:`zipfile` cannot
  read before 3.14; assay decompresses them with the ``zstandard`` package):
  ``header.json`` (the evaluation's settings under ``eval``, the plan, the
  ``results`` and ``stats``), ``samples/<id>_epoch_<n>.json`` (one per sample
  and epoch: its input, target, output, scores), ``reductions.json`` (each
  scorer's per-sample values reduced over epochs), ``summaries.json``, and
  ``_journal/start.json`` while the evaluation runs;
* ``.json``: the same content as one document, the samples under ``samples``.

:func:`read_inspect_ai` reads a log or a folder of them (``*.eval`` and the
``<time>_<task>_<id>.json`` logs, at any depth) into one
:class:`~assay.sources.model.ExternalRun` per (model, log), with one
:class:`~assay.sources.model.ExternalResult` whose dataset is the task's name:

* metrics: each scorer's metrics as ``results.scores[]`` reports them, keyed
  ``<score name>/<metric>`` (``match/accuracy``), on inspect's scale, its
  ``stderr`` metric not among them but as the standard error of the scorer's
  ``accuracy`` and ``mean`` (inspect's ``stderr``: the sample standard deviation
  over √n, as :func:`~assay.sources.model.mean_stderr`);
* samples keyed by inspect's sample id (as a string): the per-sample value of
  each scorer under the keys of its ``accuracy``/``mean`` metrics, taken from the
  log's ``reductions`` — the value inspect's reducer gave the sample over its
  epochs (``mean`` unless the task chose another), the values its metrics were
  computed from — or, in a log without reductions, the scores themselves
  (``C``/``P``/``I``/``N`` mapped to 1/0.5/0/0 as inspect's ``value_to_float``
  maps them, numbers as they are, averaged over epochs; a value inspect cannot
  map, such as a scorer's dict of values, gives none); the reply is the
  first epoch's completion, the reference the target, the prompt the input (a
  chat input: its messages' text, one per line), ``extracted`` each scorer's
  answer (``'match'``; with several epochs ``'match, epoch 2'`` … too), ``doc``
  the sample's choices, metadata and epochs.

The default reads the file format itself, inspect_ai not being a dependency of
assay; ``use_inspect=True`` reads through inspect_ai's own
``inspect_ai.log.read_eval_log`` where it is installed — both give the same records.
"""

from __future__ import annotations

import logging
import math
import os
import re
import struct
import zipfile
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.fileio import loads_json, read_json
from assay.sources.model import ExternalResult, ExternalRun, ExternalSample, SourceInfo

__all__ = ["TOOL", "log_files", "read_inspect_ai", "value_to_float"]

logger = logging.getLogger(__name__)

TOOL = "inspect_ai"
_WHAT = "inspect_ai log"
#: ``2026-12-01T22-46-01-00-00_assay-arith_Qt54AKewzQXrXL7YNGs9FR.json``: inspect's log names.
_LOG_NAME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}[-:]\d{2}[-:]\d{2}.*_[A-Za-z0-9]{22}\.json$")
_SAMPLE_ENTRY = re.compile(r"^samples/(?P<id>.+)_epoch_(?P<epoch>\d+)\.json$")
#: Metrics whose per-sample values are the scorer's values (their mean is the metric).
_MEAN_METRICS = ("accuracy", "mean")
_ZIP_ZSTD = 93
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")


def value_to_float(value: Any) -> float | None:
    """A score's value as inspect's default ``value_to_float`` maps it: ``'C'`` 1, ``'P'`` 0.5,
    ``'I'``/``'N'`` 0, yes/true 1 and no/false 0, numbers (and numeric strings) as they are;
    ``None`` for what inspect cannot map (it warns and counts 0).

    >>> [value_to_float(v) for v in ('C', 'P', 'I', 'N', 'yes', '0.25', 3, True, [1])]
    [1.0, 0.5, 0.0, 0.0, 1.0, 0.25, 3.0, 1.0, None]
    """
    if value == "C":
        return 1.0
    if value == "P":
        return 0.5
    if value in ("I", "N"):
        return 0.0
    if isinstance(value, (bool, int, float)):
        return float(value)
    if isinstance(value, str):
        text = value.lower()
        if text in ("yes", "true"):
            return 1.0
        if text in ("no", "false"):
            return 0.0
        try:
            number = float(text)
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def log_files(path: str | os.PathLike[str]) -> list[Path]:
    """The logs at ``path``: itself when it is a file, else every ``*.eval`` and inspect-named ``*.json`` below it, sorted.

    Neither a file nor a folder holding a log is an :class:`~assay.errors.InputFileError`.
    """
    p = Path(path)
    if p.is_file():
        return [p]
    if not p.is_dir():
        raise InputFileError(f"inspect_ai logs {p} do not exist")
    found = sorted(f for f in p.rglob("*") if f.is_file() and (f.suffix == ".eval" or _LOG_NAME.match(f.name)))
    if not found:
        raise InputFileError(f"inspect_ai logs {p}: no .eval or <time>_<task>_<id>.json log in it or below it")
    return found


def read_inspect_ai(path: str | os.PathLike[str], *, use_inspect: bool = False) -> list[ExternalRun]:
    """The runs in inspect_ai's logs at ``path`` (a log or a folder): one per model, in the order first found;
    a task logged more than once for a model (a retried evaluation) keeps the log that comes last in
    file-name order — inspect's names start with the time, so the newest in one folder.

    ``use_inspect`` reads each log through inspect_ai's own ``read_eval_log`` (an
    :class:`ImportError` where it is not installed) instead of the file format.
    A log that is not inspect_ai's, or is malformed, truncated or corrupt, is an
    :class:`~assay.errors.InputFileError` naming the file (and the zip entry); a log
    without results (an evaluation that failed or still runs) is skipped with a warning.
    """
    runs: dict[str, ExternalRun] = {}
    for file in log_files(path):
        if use_inspect:
            header, samples, reductions = _read_with_inspect(file)
        elif file.suffix == ".eval":
            header, samples, reductions = _read_eval_zip(file)
        else:
            header, samples, reductions = _read_json_log(file)
        run = _run(file, header, samples, reductions)
        if run is None:
            continue
        merged = runs.get(run.model)
        if merged is None:
            runs[run.model] = run
            continue
        for task, result in run.results.items():
            if task in merged.results:
                logger.info("%s: task %s of model %s replaces the one in %s", file, task, run.model, merged.results[task].source.path)
            merged.results[task] = result
        merged.paths += run.paths
    return list(runs.values())


# -- the two formats -------------------------------------------------------------------------------------------------


def _read_json_log(file: Path) -> tuple[dict[str, Any], list[Any], list[Any] | None]:
    data = read_json(file, what=_WHAT)
    if not isinstance(data, dict) or not isinstance(data.get("eval"), dict):
        raise InputFileError(f"{_WHAT} {file}: no 'eval' object; is it an inspect_ai log?")
    samples = data.get("samples") or []
    if not isinstance(samples, list):
        raise InputFileError(f"{_WHAT} {file}: 'samples' is {type(samples).__name__}, not a list")
    reductions = data.get("reductions")
    return data, samples, reductions if isinstance(reductions, list) else None


def _read_eval_zip(file: Path) -> tuple[dict[str, Any], list[Any], list[Any] | None]:
    try:
        archive = zipfile.ZipFile(file)
    except FileNotFoundError:
        raise InputFileError(f"{_WHAT} {file} does not exist") from None
    except (zipfile.BadZipFile, OSError) as exc:
        raise InputFileError(f"{_WHAT} {file} is not a readable zip archive (truncated or not an .eval log?): {exc}") from None
    with archive, open(file, "rb") as raw:
        names = archive.namelist()
        if "header.json" in names:
            header = _entry(archive, raw, file, "header.json")
        elif "_journal/start.json" in names:
            header = _entry(archive, raw, file, "_journal/start.json")  # still running: no results yet
        else:
            raise InputFileError(f"{_WHAT} {file}: no header.json nor _journal/start.json entry; is it an .eval log?")
        if not isinstance(header, dict) or not isinstance(header.get("eval"), dict):
            raise InputFileError(f"{_WHAT} {file}, entry header.json: no 'eval' object")
        samples = [_entry(archive, raw, file, name) for name in names if _SAMPLE_ENTRY.match(name)]
        reductions = _entry(archive, raw, file, "reductions.json") if "reductions.json" in names else None
    return header, samples, reductions if isinstance(reductions, list) else None


def _in_dataset_order(header: dict[str, Any], samples: list[Any]) -> list[Any]:
    """Samples in the dataset's order (``eval.dataset.sample_ids``), each sample's epochs in order: the order of
    a sample's entries in an ``.eval`` archive, and of ``samples`` in a ``.json`` log, is the order they finished."""
    ids = ((header.get("eval") or {}).get("dataset") or {}).get("sample_ids") or []
    order = {str(i): n for n, i in enumerate(ids)}

    def key(row: Any) -> tuple[int, int]:
        if not isinstance(row, dict):
            return (len(order), 0)
        epoch = row.get("epoch")
        return (order.get(str(row.get("id")), len(order)), epoch if isinstance(epoch, int) else 0)

    return sorted(samples, key=key)


def _entry(archive: zipfile.ZipFile, raw: Any, file: Path, name: str) -> Any:
    """One entry's JSON: stored and deflated entries through :mod:`zipfile`, Zstandard ones decompressed here."""
    info = archive.getinfo(name)
    where = f"{_WHAT} {file}, entry {name}"
    try:
        if info.compress_type != _ZIP_ZSTD:
            data = archive.read(name)
        else:
            data = _zstd_entry(info, raw, where)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError) as exc:
        raise InputFileError(f"{where}: cannot be read ({exc})") from None
    try:
        return loads_json(data)
    except ValueError as exc:
        raise InputFileError(f"{where} is not valid JSON: {exc}") from None


def _zstd_entry(info: zipfile.ZipInfo, raw: Any, where: str) -> bytes:
    try:
        import zstandard
    except ImportError:  # pragma: no cover - a dependency of assay
        raise InputFileError(f"{where} is Zstandard-compressed: install the 'zstandard' package") from None
    raw.seek(info.header_offset)
    head = raw.read(_LOCAL_HEADER.size)
    if len(head) < _LOCAL_HEADER.size or head[:4] != b"PK\x03\x04":
        raise InputFileError(f"{where}: no local header at offset {info.header_offset} (a truncated or damaged archive)")
    fields = _LOCAL_HEADER.unpack(head)
    raw.seek(info.header_offset + _LOCAL_HEADER.size + fields[-2] + fields[-1])
    compressed = raw.read(info.compress_size)
    if len(compressed) < info.compress_size:
        raise InputFileError(f"{where}: {len(compressed)} of its {info.compress_size} compressed bytes (a truncated archive)")
    try:
        # inspect writes large entries as several frames: read across them
        reader = zstandard.ZstdDecompressor().stream_reader(compressed, read_across_frames=True)
        data = reader.read()
        while chunk := reader.read():
            data += chunk
    except zstandard.ZstdError as exc:
        raise InputFileError(f"{where}: not valid Zstandard data ({exc})") from None
    if len(data) != info.file_size or zlib.crc32(data) != info.CRC:
        raise InputFileError(f"{where}: decompressed content does not match the archive's size and CRC (a damaged entry)")
    return data


def _read_with_inspect(file: Path) -> tuple[dict[str, Any], list[Any], list[Any] | None]:
    from inspect_ai.log import read_eval_log  # optional: the tool's own reader

    try:
        log = read_eval_log(str(file))
    except Exception as exc:  # inspect raises its own and pydantic's errors
        raise InputFileError(f"{_WHAT} {file}: inspect_ai cannot read it: {exc}") from None
    data = log.model_dump(mode="json", exclude_none=False)
    samples = data.pop("samples", None) or []
    reductions = data.pop("reductions", None)
    return data, samples, reductions if isinstance(reductions, list) else None


# -- the mapping -----------------------------------------------------------------------------------------------------


def _run(file: Path, header: dict[str, Any], samples: list[Any], reductions: list[Any] | None) -> ExternalRun | None:
    ev = header["eval"]
    task, model = ev.get("task"), ev.get("model")
    if not isinstance(task, str) or not isinstance(model, str):
        raise InputFileError(f"{_WHAT} {file}: eval.task and eval.model must be strings, got {task!r} and {model!r}")
    results = header.get("results")
    if not isinstance(results, dict):
        logger.warning("%s: the evaluation of %s on %s has status %r and no results; skipped", file, model, task, header.get("status"))
        return None
    if header.get("status") not in ("success", None):
        logger.warning("%s: the evaluation of %s on %s has status %r; its results are read as they are",
                       file, model, task, header.get("status"))
    packages = ev.get("packages") or {}
    if not isinstance(packages, dict):
        raise InputFileError(f"{_WHAT} {file}: eval.packages is {type(packages).__name__}, not an object")
    version = packages.get("inspect_ai")
    version = str(version) if version else None
    source = SourceInfo(TOOL, version, str(file))
    metrics: dict[str, float] = {}
    stderr: dict[str, float | None] = {}
    aggregation: dict[str, str] = {}
    per_scorer: dict[str, list[str]] = {}
    scored: int | None = None
    entries = results.get("scores") or []
    if not isinstance(entries, list):
        raise InputFileError(f"{_WHAT} {file}: results.scores is {type(entries).__name__}, not a list")
    names = [e.get("name") for e in entries if isinstance(e, dict)]
    for n, score in enumerate(entries):
        if not isinstance(score, dict) or not isinstance(score.get("name"), str):
            raise InputFileError(f"{_WHAT} {file}: results.scores[{n}] has no name")
        name = score["name"]
        if names.count(name) > 1:
            # one scorer reduced over epochs by several reducers (``Epochs(n, ['mean', 'max'])``): one entry
            # each; their metrics are told apart by the reducer, and no per-sample values are attached to them
            # (each sample has one value per reducer)
            if not isinstance(score.get("reducer"), str):
                raise InputFileError(f"{_WHAT} {file}: results.scores holds scorer {name!r} twice without a reducer")
            name = f"{name}[{score['reducer']}]"
        found = score.get("metrics") or {}
        if not isinstance(found, dict):
            raise InputFileError(f"{_WHAT} {file}: results.scores[{n}].metrics is {type(found).__name__}, not an object")
        error = None
        for metric, entry in found.items():
            value = entry.get("value") if isinstance(entry, dict) else entry
            where = f"results.scores[{n}] ({name}).metrics.{metric}"
            if metric == "stderr":
                error = _number(value, file, where)
                continue
            key = f"{name}/{metric}"
            metrics[key] = _number(value, file, where)
            aggregation[key] = "mean" if metric in _MEAN_METRICS else metric
            if metric in _MEAN_METRICS and name == score["name"]:
                per_scorer.setdefault(name, []).append(key)
        for key in per_scorer.get(name, []):
            stderr[key] = error
        if isinstance(score.get("scored_samples"), int):
            scored = score["scored_samples"] if scored is None else max(scored, score["scored_samples"])
    if scored is None:
        completed = results.get("completed_samples")
        scored = completed if isinstance(completed, int) else None
    result = ExternalResult(
        dataset=task, metrics=metrics, stderr=stderr, source=source, n_samples=scored, aggregation=aggregation,
        config={k: ev.get(k) for k in ("task_args", "dataset", "config", "scorers", "model_args", "solver", "task_version")
                if ev.get(k) is not None},
    )
    result.samples = _samples(file, _in_dataset_order(header, samples), reductions, per_scorer)
    if result.samples:
        result.samples_path = str(file)
    run_config = {k: ev.get(k) for k in ("eval_id", "run_id", "created", "model_generate_config", "model_base_url", "config")
                  if ev.get(k) is not None}
    run_config["status"] = header.get("status")
    if isinstance(header.get("plan"), dict):
        run_config["plan"] = header["plan"]
    run = ExternalRun(tool=TOOL, version=version, model=model, config=run_config, paths=[str(file)])
    run.results[task] = result
    return run


def _number(value: Any, file: Path, where: str) -> float:
    if isinstance(value, (bool, int, float)):
        return float(value)
    raise InputFileError(f"{_WHAT} {file}: {where} is {value!r}, not a number")


def _prompt(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # chat messages: their text, one per line
        parts = []
        for message in value:
            content = message.get("content") if isinstance(message, dict) else None
            if isinstance(content, str):
                parts.append(content)
            elif isinstance(content, list):
                parts.extend(c["text"] for c in content if isinstance(c, dict) and isinstance(c.get("text"), str))
        return "\n".join(parts)
    return None


def _samples(
    file: Path, samples: Iterable[Any], reductions: list[Any] | None, per_scorer: dict[str, list[str]]
) -> list[ExternalSample]:
    out: dict[str, ExternalSample] = {}
    epochs: dict[str, dict[str, list[float]]] = {}  # id → scorer → values over epochs
    for n, row in enumerate(samples):
        if not isinstance(row, dict) or "id" not in row:
            raise InputFileError(f"{_WHAT} {file}: samples[{n}] has no 'id' (not a logged sample)")
        key = str(row["id"])
        epoch = row.get("epoch", 1)
        sample = out.get(key)
        if sample is None:
            output = row.get("output") or {}
            sample = out[key] = ExternalSample(
                key=key, reply=output.get("completion") if isinstance(output, dict) else None,
                reference=row.get("target"), prompt=_prompt(row.get("input")),
                doc={k: row[k] for k in ("choices", "metadata") if row.get(k)},
            )
        assert sample.doc is not None
        sample.doc.setdefault("epochs", []).append(epoch)
        for scorer, score in (row.get("scores") or {}).items():
            if not isinstance(score, dict):
                continue
            answer = score.get("answer")
            if answer is not None:
                sample.extracted[scorer if epoch == 1 else f"{scorer}, epoch {epoch}"] = answer
            value = value_to_float(score.get("value"))
            if value is not None:
                epochs.setdefault(key, {}).setdefault(scorer, []).append(value)
    reduced: dict[tuple[str, str], float] = {}
    for n, reduction in enumerate(reductions or []):
        if not isinstance(reduction, dict) or not isinstance(reduction.get("scorer"), str):
            raise InputFileError(f"{_WHAT} {file}: reductions[{n}] has no scorer")
        for m, item in enumerate(reduction.get("samples") or []):
            if not isinstance(item, dict) or "sample_id" not in item:
                raise InputFileError(f"{_WHAT} {file}: reductions[{n}].samples[{m}] has no sample_id")
            value = value_to_float(item.get("value"))
            if value is not None:
                reduced[(str(item["sample_id"]), reduction["scorer"])] = value
    for key, sample in out.items():
        for scorer, keys in per_scorer.items():
            if (key, scorer) in reduced:
                value = reduced[(key, scorer)]
            else:
                values = epochs.get(key, {}).get(scorer)
                if not values:
                    continue
                value = math.fsum(values) / len(values)
            for metric in keys:
                sample.values[metric] = value
        if sample.doc is not None and sample.doc.get("epochs") == [1]:
            del sample.doc["epochs"]
    return list(out.values())
