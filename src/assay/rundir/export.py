"""A run directory exported for other readers (``assay export``): JSON Lines, or an OpenCompass work dir.

:func:`export_records` yields the lines of the JSON Lines export (schema
:data:`SCHEMA`, version :data:`SCHEMA_VERSION`, described in ``docs/export.md``):
one ``run`` line, then per result (model, dataset) one ``result`` line — its
metrics, the per-sample field and scale behind each, where its value came
from — followed by one ``sample`` line per sample of its details: its identity,
each metric's per-sample value, the reply (from the run's prediction files
when the details lack it), the extracted answer and the reference where the
result keeps them, and the tool that computed it.

:func:`write_opencompass` writes the files an OpenCompass work dir holds:
``results/<model>/<dataset>.json`` (the result files, byte for byte: assay's
result files are OpenCompass's, their ``_meta`` a nested dict OpenCompass's
summarizer ignores) and ``predictions/<model>/<dataset>.json`` in OpenCompass's
prediction format (``{"0": {"origin_prompt", "prediction", "gold"}, …}``) —
the run's prediction files merged where the result names them and they are
still there, else built from the details' replies and references.

Nothing in the run directory is written: every file goes to a folder built
beside the target and put in its place in one step (:func:`assay.fileio.replace_dir`),
or, for JSON Lines, written atomically.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.rundir.layout import RunDir
from assay.rundir.results import META_KEY, read_result

__all__ = ["SCHEMA", "SCHEMA_VERSION", "export_records", "result_files", "write_opencompass"]

#: The ``schema`` of the JSON Lines export's ``run`` line.
SCHEMA = "assay.export"
#: Its version: a reader of version 1 reads every line kind and field ``docs/export.md`` lists for it.
SCHEMA_VERSION = 1

#: The details' fields read as the reply, the extracted answer and the reference, first found first.
_REPLY = ("prediction", "origin_prediction", "response")
_EXTRACTED = ("extracted", "pred")
_REFERENCE = ("reference", "answer", "gold", "references", "target")


def result_files(run_dir: RunDir) -> list[tuple[str, str, Path]]:
    """(model folder, dataset abbr, path) of every result file of the run, sorted by model then dataset.

    Raises:
        InputFileError: ``run_dir`` is not a run directory (it has no ``results/`` folder).
    """
    root = run_dir.results
    if not root.is_dir():
        raise InputFileError(f"{run_dir.root}: not a run directory (it has no results/ folder)")
    out = []
    for model in sorted(p for p in root.iterdir() if p.is_dir()):
        for path in sorted(model.glob("*.json")):
            out.append((model.name, path.stem, path))
    return out


def _metrics(result: Mapping[str, Any]) -> dict[str, float]:
    return {k: v for k, v in result.items()
            if isinstance(v, (int, float)) and not isinstance(v, bool) and k != "details"}


def _first(detail: Mapping[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        if key in detail:
            return detail[key]
    return None


def _details(result: Mapping[str, Any]) -> list[tuple[str | int, Any]]:
    details = result.get("details")
    if isinstance(details, dict):
        return list(details.items())
    if isinstance(details, list):
        return list(enumerate(details))
    return []


def export_records(run_dir: RunDir, *, summary: str | None = None) -> Iterator[dict[str, Any]]:
    """The JSON Lines export of ``run_dir``, one dict per line (see the module's description).

    ``summary``: the summary ``.json`` the run's leaderboard was read from, named in the ``run`` line.

    Raises:
        InputFileError: not a run directory, or a result file that cannot be read (naming it).
    """
    from assay.rundir.sources import cell_source
    from assay.stats import sample_values

    files = result_files(run_dir)
    yield {
        "kind": "run", "schema": SCHEMA, "schema_version": SCHEMA_VERSION, "run": run_dir.root.name,
        "models": list(dict.fromkeys(m for m, _, _ in files)), "datasets": list(dict.fromkeys(d for _, d, _ in files)),
        "summary": summary,
    }
    for model, dataset, path in files:
        result = read_result(path)
        if not isinstance(result, dict):
            raise InputFileError(f"{path}: a result file holds an object, not {type(result).__name__}")
        meta = result.get(META_KEY)
        source = cell_source(meta.get("source")) if isinstance(meta, dict) else None
        metrics = _metrics(result)
        per_metric: dict[str, Any] = {}
        behind: dict[str, dict[str, Any]] = {}
        for metric in metrics:
            got = sample_values(result, metric)
            if isinstance(got, str) or got.kind == "corpus":
                behind[metric] = {"scale": None, "field": None, "why_none": got if isinstance(got, str) else
                                  "a corpus statistic: no per-sample value"}
                continue
            behind[metric] = {"scale": got.scale, "field": got.basis, "runs": got.runs}
            per_metric[metric] = got.units
        details = _details(result)
        line: dict[str, Any] = {
            "kind": "result", "model": model, "dataset": dataset, "file": f"results/{model}/{path.name}",
            "metrics": metrics, "n_samples": len(details) or None, "sample_values": behind, "source": source,
        }
        if "error" in result:
            line["error"] = str(result["error"])
        yield line
        tool = source["tool"] if source is not None else None
        replies: dict[str, Any] | None = None  # the prediction files' raw replies, read when the details lack them
        if details and not any(isinstance(d, Mapping) and _first(d, _REPLY) is not None for _, d in details):
            replies = _predictions_of(result)
            if replies is not None and len(replies) != len(details):
                replies = None
        for i, (key, detail) in enumerate(details):
            d = detail if isinstance(detail, Mapping) else {}
            identity = d.get("id", d.get("example_abbr", key))
            sample: dict[str, Any] = {
                "kind": "sample", "model": model, "dataset": dataset, "index": i, "id": identity,
                "values": {m: float(units[i]) for m, units in per_metric.items() if len(units) == len(details)},
            }
            for name, keys in (("prediction", _REPLY), ("extracted", _EXTRACTED), ("reference", _REFERENCE)):
                value = _first(d, keys)
                if value is None and name == "prediction" and replies is not None:
                    entry = replies.get(str(i))
                    value = entry.get("prediction") if isinstance(entry, Mapping) else None
                if value is not None:
                    sample[name] = value
            sample["source"] = tool
            yield sample


def _predictions_of(result: Mapping[str, Any]) -> dict[str, Any] | None:
    """The result's prediction files merged (OpenCompass's ``{"0": {…}, …}``), or ``None`` when it names none
    or one is gone."""
    meta = result.get(META_KEY)
    names = meta.get("prediction_files") if isinstance(meta, dict) else None
    if not isinstance(names, list) or not names:
        return None
    from assay.fileio import read_json

    merged: dict[str, Any] = {}
    for name in names:
        if not isinstance(name, str) or not os.path.isfile(name):
            return None
        data = read_json(name, what="prediction file")
        if not isinstance(data, dict):
            return None
        for entry in data.values():
            merged[str(len(merged))] = entry
    return merged


def _predictions_from_details(result: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, (_key, detail) in enumerate(_details(result)):
        d = detail if isinstance(detail, Mapping) else {}
        reply = _first(d, _REPLY)
        if reply is None:
            reply = _first(d, _EXTRACTED)
        out[str(i)] = {"origin_prompt": d.get("prompt", d.get("origin_prompt", "")), "prediction": reply,
                       "gold": _first(d, _REFERENCE)}
    return out


def write_opencompass(run_dir: RunDir, target: Path) -> list[tuple[str, str]]:
    """Write ``run_dir``'s results and predictions into ``target`` (a new folder) in OpenCompass's layout;
    (model, dataset) of every result written.

    Raises:
        InputFileError: not a run directory, or a result file that cannot be read (naming it).
    """
    from assay.fileio import atomic_write_bytes, atomic_write_json, read_bytes

    out = RunDir(target)
    written = []
    for model, dataset, path in result_files(run_dir):
        data = read_bytes(path, what="result file")
        result = read_result(path)
        if not isinstance(result, dict):
            raise InputFileError(f"{path}: a result file holds an object, not {type(result).__name__}")
        atomic_write_bytes(out.result_path(model, dataset), data, durable=False)
        predictions = _predictions_of(result)
        if predictions is None:
            predictions = _predictions_from_details(result)
        atomic_write_json(out.predictions / model / f"{dataset}.json", predictions, durable=False)
        written.append((model, dataset))
    return written
