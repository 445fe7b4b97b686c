"""Reading lm-evaluation-harness's output files (``lm_eval --output_path … --log_samples``).

lm-evaluation-harness writes, per model, ``<output_path>/<model>/results_<time>.json``
(the metrics of every task and group, keyed ``metric,filter``, each with its
``metric_stderr,filter``; ``n-samples``; the task configs; the run's settings
and the tool's version) and, with ``--log_samples``, one
``samples_<task>_<time>.jsonl`` per task beside it: a line per document and
filter, with ``doc_id``, the document, the target, the requests, the raw
responses (``resps``), the filtered ones, the document/prompt/target hashes
and the per-sample value of every metric.

:func:`read_lm_eval` reads a results file, a folder of them, or an output
folder of model folders into :class:`~assay.sources.model.ExternalRun`
records: the values exactly as the file holds them (on the tool's 0–1 scale,
under its ``metric,filter`` keys), the samples merged per document across
filters.  Several results files of one model make one run; a task reported
in more than one keeps the newest file's result (the time in the file name).
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.fileio import iter_jsonl, read_bytes, read_json
from assay.sources.model import ExternalGroup, ExternalResult, ExternalRun, ExternalSample, SourceInfo

__all__ = ["TOOL", "read_lm_eval", "results_files"]

logger = logging.getLogger(__name__)

TOOL = "lm_eval"
_WHAT = "lm-evaluation-harness results file"
_SAMPLES_WHAT = "lm-evaluation-harness samples file"
#: ``results_2026-12-01T21-49-20.283052.json`` → the time part.
_RESULTS_NAME = re.compile(r"^(?P<stem>.*?)_?(?P<time>\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d+)\.json$")
#: Members of a task's results entry that are not metrics.
_NOT_METRICS = frozenset({"alias", "name", "sample_len", "sample_count", " ", ""})


def results_files(path: str | os.PathLike[str]) -> list[Path]:
    """The results files under ``path`` (itself, when it is a file), sorted by folder and time.

    A folder is searched at any depth for ``results_<time>.json`` (the name
    lm-evaluation-harness gives them).  Neither a file nor a folder holding one is an
    :class:`~assay.errors.InputFileError`.
    """
    p = Path(path)
    if p.is_file():
        return [p]
    if not p.is_dir():
        raise InputFileError(f"lm-evaluation-harness output {p} does not exist")
    found = sorted(p.rglob("results_*.json"), key=lambda f: (str(f.parent), _file_time(f)))
    if not found:
        raise InputFileError(f"lm-evaluation-harness output {p}: no results_<time>.json file in it or below it")
    return found


def _file_time(path: Path) -> str:
    m = _RESULTS_NAME.match(path.name)
    return m.group("time") if m else ""


def read_lm_eval(path: str | os.PathLike[str]) -> list[ExternalRun]:
    """The runs in lm-evaluation-harness's output at ``path``: one per model, in the order first found.

    Raises :class:`~assay.errors.InputFileError` naming the file (and line) for a
    results or samples file that is not lm-evaluation-harness's or is malformed.
    """
    runs: dict[str, ExternalRun] = {}
    for file in results_files(path):
        data = read_json(file, what=_WHAT)
        if not isinstance(data, dict) or not isinstance(data.get("results"), dict):
            raise InputFileError(f"{_WHAT} {file}: no 'results' object; is it lm-evaluation-harness's results_<time>.json?")
        model = _model_name(data, file)
        version = _version(data)
        run = runs.get(model)
        if run is None:
            run = runs[model] = ExternalRun(tool=TOOL, version=version, model=model, config=_run_config(data))
        elif version and run.version and version != run.version:
            logger.warning("%s: model %s was evaluated by lm-evaluation-harness %s and %s", file, model, run.version, version)
        run.paths.append(str(file))
        source = SourceInfo(TOOL, version, str(file))
        for task, entry in data["results"].items():
            if task in (data.get("groups") or {}):
                continue  # reported again under groups
            if not isinstance(entry, dict):
                raise InputFileError(f"{_WHAT} {file}: results[{task!r}] is {type(entry).__name__}, not an object")
            result = _result(task, entry, data, source, file)
            if task in run.results:
                logger.info("%s: task %s of model %s replaces the one in %s", file, task, model, run.results[task].source.path)
            run.results[task] = result
        for name, entry in (data.get("groups") or {}).items():
            if not isinstance(entry, dict):
                raise InputFileError(f"{_WHAT} {file}: groups[{name!r}] is {type(entry).__name__}, not an object")
            metrics, stderr = _metrics(entry, file, f"groups[{name!r}]")
            counts = entry.get("sample_count")
            counts = counts if isinstance(counts, dict) else {}
            members = _object(data, "group_subtasks", file).get(name) or []
            if not isinstance(members, list):
                raise InputFileError(f"{_WHAT} {file}: group_subtasks[{name!r}] is {type(members).__name__}, not a list")
            run.groups[name] = ExternalGroup(name=name, members=list(members), metrics=metrics, stderr=stderr,
                                             n_samples={k: int(v) for k, v in counts.items()})
    return list(runs.values())


def _object(data: dict[str, Any], key: str, file: Path) -> dict[str, Any]:
    """``data[key]``, an object (``{}`` when absent); another type is an error naming the file and the key."""
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputFileError(f"{_WHAT} {file}: {key!r} is {type(value).__name__}, not an object")
    return value


def _model_name(data: dict[str, Any], file: Path) -> str:
    for key in ("model_name", "model_name_sanitized"):
        name = data.get(key)
        if isinstance(name, str) and name:
            return name
    args = (data.get("config") or {}).get("model_args")
    if isinstance(args, dict) and isinstance(args.get("pretrained"), str):
        return args["pretrained"]
    if isinstance(args, str):
        m = re.search(r"(?:^|,)pretrained=([^,]+)", args)
        if m:
            return m.group(1)
    return file.parent.name


def _version(data: dict[str, Any]) -> str | None:
    version = data.get("lm_eval_version")
    return str(version) if version else None


def _run_config(data: dict[str, Any]) -> dict[str, Any]:
    config = dict(data.get("config") or {})
    for key in ("model_source", "git_hash", "date", "transformers_version", "chat_template_sha", "system_instruction_sha"):
        if key in data:
            config[key] = data[key]
    return config


def _metrics(entry: dict[str, Any], file: Path, where: str) -> tuple[dict[str, float], dict[str, float | None]]:
    metrics: dict[str, float] = {}
    stderr: dict[str, float | None] = {}
    for key, value in entry.items():
        if key in _NOT_METRICS or not isinstance(key, str) or "," not in key:
            continue
        metric, _, flt = key.partition(",")
        if metric.endswith("_stderr"):
            base = f"{metric[: -len('_stderr')]},{flt}"
            stderr[base] = None if value in ("N/A", None) else _number(value, file, f"{where}[{key!r}]")
            continue
        if isinstance(value, (list, dict)) or value in ("N/A", None):
            continue  # not a value a table shows (a corpus metric's pairs; not available)
        metrics[key] = _number(value, file, f"{where}[{key!r}]")
    return metrics, stderr


def _number(value: Any, file: Path, where: str) -> float:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            pass
    raise InputFileError(f"{_WHAT} {file}: {where} is {value!r}, not a number")


def _result(task: str, entry: dict[str, Any], data: dict[str, Any], source: SourceInfo, file: Path) -> ExternalResult:
    metrics, stderr = _metrics(entry, file, f"results[{task!r}]")
    config = _object(data, "configs", file).get(task) or {}
    if not isinstance(config, dict):
        raise InputFileError(f"{_WHAT} {file}: configs[{task!r}] is {type(config).__name__}, not an object")
    aggregation: dict[str, str] = {}
    for item in config.get("metric_list") or []:
        if isinstance(item, dict) and isinstance(item.get("metric"), str):
            agg = item.get("aggregation", "mean")
            aggregation[item["metric"]] = agg if isinstance(agg, str) else str(agg)
    counts = _object(data, "n-samples", file).get(task) or {}
    n = counts.get("effective", counts.get("original")) if isinstance(counts, dict) else None
    higher = _object(data, "higher_is_better", file).get(task) or {}
    if not isinstance(higher, dict):
        raise InputFileError(f"{_WHAT} {file}: higher_is_better[{task!r}] is {type(higher).__name__}, not an object")
    result = ExternalResult(
        dataset=task, metrics=metrics, stderr=stderr, source=source,
        n_samples=int(n) if isinstance(n, (int, float)) else None,
        higher_is_better={k: bool(v) for k, v in higher.items() if v is not None},
        aggregation=aggregation, config=dict(config),
    )
    samples_file = _samples_file(file, task)
    if samples_file is not None:
        result.samples = list(_read_samples(samples_file, config.get("output_type")))
        result.samples_path = str(samples_file)
    return result


def _samples_file(results: Path, task: str) -> Path | None:
    m = _RESULTS_NAME.match(results.name)
    if not m:
        return None
    candidate = results.parent / f"samples_{task}_{m.group('time')}.jsonl"
    return candidate if candidate.is_file() else None


def _prompt(arguments: Any) -> str | None:
    """The first request's prompt: ``{'gen_args_0': {'arg_0': …}}`` (0.4.3 and later) or ``[[prompt, …], …]``."""
    if isinstance(arguments, dict):
        first = arguments.get("gen_args_0")
        if isinstance(first, dict) and isinstance(first.get("arg_0"), str):
            return first["arg_0"]
    if isinstance(arguments, list) and arguments and isinstance(arguments[0], list) and arguments[0]:
        head = arguments[0][0]
        return head if isinstance(head, str) else None
    return None


def _read_samples(path: Path, output_type: Any) -> Iterator[ExternalSample]:
    generated = output_type == "generate_until"
    samples: dict[str, ExternalSample] = {}
    seen: set[tuple[str, str]] = set()
    lines = read_bytes(path, what=_SAMPLES_WHAT).splitlines()
    for lineno, row in iter_jsonl(lines, what=_SAMPLES_WHAT, path=path):
        if not isinstance(row, dict) or "doc_id" not in row:
            raise InputFileError(f"{_SAMPLES_WHAT} {path}, line {lineno}: no 'doc_id' (not a logged sample)")
        key = str(row["doc_id"])
        flt = str(row.get("filter", "none"))
        if (key, flt) in seen:
            raise InputFileError(f"{_SAMPLES_WHAT} {path}, line {lineno}: doc_id {key} appears twice for filter {flt!r}")
        seen.add((key, flt))
        sample = samples.get(key)
        if sample is None:
            resps = row.get("resps")
            reply = None
            if generated and isinstance(resps, list) and resps and isinstance(resps[0], list) and resps[0]:
                reply = resps[0][0] if isinstance(resps[0][0], str) else None
            doc = row.get("doc")
            sample = samples[key] = ExternalSample(
                key=key, reply=reply, reference=row.get("target"), prompt=_prompt(row.get("arguments")),
                hashes={h: row[h] for h in ("doc_hash", "prompt_hash", "target_hash") if isinstance(row.get(h), str)},
                doc=doc if isinstance(doc, dict) else None,
            )
        if generated:
            filtered = row.get("filtered_resps")
            sample.extracted[flt] = filtered[0] if isinstance(filtered, list) and filtered else filtered
        for metric in row.get("metrics") or []:
            value = row.get(metric)
            if isinstance(value, (bool, int, float)):
                sample.values[f"{metric},{flt}"] = float(value)
            # other values (a corpus metric's (reference, prediction) pair) are not per-sample scores
    yield from samples.values()
