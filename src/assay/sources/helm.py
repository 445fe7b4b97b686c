"""Reading HELM's run folders (``helm-run``'s ``benchmark_output/runs/<suite>/<run name>/``).

HELM writes one folder per run (one scenario with its arguments, one model):
``run_spec.json`` (the run's name, the scenario spec, the adapter spec with the
``model`` and ``model_deployment``, the metric specs), ``stats.json`` (every
statistic as ``{"name": {"name", "split", "perturbation"?}, "count", "sum",
"sum_squared", "min", "max", "mean", "variance", "stddev"}``),
``per_instance_stats.json`` (the same statistics per instance and train
trial), ``scenario_state.json`` (each request state: the instance with its
references, the prompt sent, the completions) and, after ``helm-summarize``,
``instances.json`` and ``display_predictions.json``.

:func:`read_helm` reads a run folder, a suite folder, ``runs/`` or
``benchmark_output/`` into :class:`~assay.sources.model.ExternalRun` records,
one per model (the adapter spec's ``model``; its ``model_deployment`` when no
model is named):

- one :class:`~assay.sources.model.ExternalResult` per run folder; its dataset
  is the run's name without the model's arguments (``simple_mcqa:model=x`` →
  ``simple_mcqa``; ``mmlu:subject=anatomy,model=x`` → ``mmlu:subject=anatomy``);
- its metrics are HELM's ``mean`` of each statistic (``name.name`` as the
  metric's key) of one split: ``test`` where the run has it, else ``valid``;
  the statistics of perturbed instances (robustness, fairness …) are left out,
  as are statistics HELM counted nothing for (``count`` 0);
- HELM's ``stddev`` is the spread between train trials (each trial's mean is
  one value), not a standard error; the standard error kept is that of the
  per-instance values (:func:`~assay.sources.model.mean_stderr`: their sample
  standard deviation over √n, n counting every instance in every train
  trial), and ``None`` for a statistic HELM computed over the whole run
  (a calibration error, a macro F1);
- the samples are the unperturbed instances of ``per_instance_stats.json``,
  keyed by instance id (``id60``), with ``@<trial>`` when the run has several
  train trials (``id60@1``); the reply is the first completion of the
  instance's (first) request state, the prompt that request's prompt, the
  reference the texts of the references HELM tags ``correct`` (a list), the
  document the instance; for a multiple-choice prompt, ``extracted`` holds
  the reference the lettered reply maps to (``{'output_mapping': 'Even'}``).

HELM does not write its version into the run folder: the records' version is ``None``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.fileio import read_json
from assay.sources.model import ExternalResult, ExternalRun, ExternalSample, SourceInfo, mean_stderr

__all__ = ["TOOL", "dataset_name", "read_helm", "run_folders"]

logger = logging.getLogger(__name__)

TOOL = "helm"
_SPLITS = ("test", "valid")
#: the run-name arguments that name the model rather than the scenario
_MODEL_ARGS = ("model", "model_deployment")


def run_folders(path: str | os.PathLike[str]) -> list[Path]:
    """The HELM run folders at or below ``path`` (a folder holding ``run_spec.json``), sorted.

    Neither a folder nor one holding a run folder is an :class:`~assay.errors.InputFileError`.
    """
    p = Path(path)
    if p.is_file() and p.name == "run_spec.json":
        return [p.parent]
    if not p.is_dir():
        raise InputFileError(f"HELM output {p} does not exist or is not a folder")
    found = sorted(spec.parent for spec in p.rglob("run_spec.json"))
    if not found:
        raise InputFileError(f"HELM output {p}: no run folder (with a run_spec.json) in it or below it")
    return found


def dataset_name(run_name: str) -> str:
    """The run's name without the model's arguments.

    >>> dataset_name('mmlu:subject=anatomy,method=multiple_choice_joint,model=openai_gpt2')
    'mmlu:subject=anatomy,method=multiple_choice_joint'
    >>> dataset_name('simple_mcqa:model=simple_model1')
    'simple_mcqa'
    """
    scenario, sep, args = run_name.partition(":")
    if not sep:
        return run_name
    kept = [a for a in args.split(",") if a.partition("=")[0] not in _MODEL_ARGS]
    return f"{scenario}:{','.join(kept)}" if kept else scenario


def read_helm(path: str | os.PathLike[str]) -> list[ExternalRun]:
    """The runs in HELM's output at ``path``: one per model, in the order first found.

    Raises :class:`~assay.errors.InputFileError` naming the file for a run folder
    whose files are missing, malformed or not HELM's, and naming both folders
    when two runs give the same model's result on the same dataset (two suites
    of one run: point at one suite).
    """
    runs: dict[str, ExternalRun] = {}
    for folder in run_folders(path):
        spec_file = folder / "run_spec.json"
        spec = read_json(spec_file, what="HELM run spec")
        if not isinstance(spec, dict) or not isinstance(spec.get("adapter_spec"), dict):
            raise InputFileError(f"HELM run spec {spec_file}: no 'adapter_spec' object; is it HELM's run_spec.json?")
        adapter = spec["adapter_spec"]
        model = adapter.get("model") or adapter.get("model_deployment")
        if not isinstance(model, str) or not model:
            raise InputFileError(f"HELM run spec {spec_file}: adapter_spec names no model ({adapter.get('model')!r})")
        name = spec.get("name")
        dataset = dataset_name(name if isinstance(name, str) else folder.name)
        run = runs.get(model)
        if run is None:
            run = runs[model] = ExternalRun(tool=TOOL, version=None, model=model,
                                            config={"model_deployment": adapter.get("model_deployment")})
        if dataset in run.results:
            raise InputFileError(f"HELM run folders {run.results[dataset].source.path} and {spec_file} both give model "
                                 f"{model!r} on {dataset!r}; read one suite at a time")
        run.paths.append(str(folder))
        run.results[dataset] = _result(folder, dataset, spec)
    return list(runs.values())


def _number(value: Any, file: Path, where: str) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise InputFileError(f"HELM stats file {file}: {where} is {value!r}, not a number")


def _stat_name(stat: Any, file: Path, where: str) -> tuple[str, str, bool]:
    """(metric, split, perturbed) of one statistic; anything else is an error naming the file and the entry."""
    name = stat.get("name") if isinstance(stat, dict) else None
    if not isinstance(name, dict) or not isinstance(name.get("name"), str):
        raise InputFileError(f"HELM stats file {file}: {where} is not a statistic (no name.name): {str(stat)[:120]}")
    perturbed = name.get("perturbation") is not None or name.get("sub_split") is not None
    return name["name"], str(name.get("split")), perturbed


def _stats(file: Path, what: str) -> list[Any]:
    data = read_json(file, what=what)
    if not isinstance(data, list):
        raise InputFileError(f"{what} {file}: a {type(data).__name__}, not a list of statistics; is it HELM's {file.name}?")
    return data


def _split(stats: list[Any], file: Path) -> str:
    splits = set()
    for i, stat in enumerate(stats):
        _metric, split, perturbed = _stat_name(stat, file, f"entry {i}")
        if not perturbed:
            splits.add(split)
    for split in _SPLITS:
        if split in splits:
            return split
    raise InputFileError(f"HELM stats file {file}: no unperturbed statistic of the test or valid split (splits: {sorted(splits)})")


def _result(folder: Path, dataset: str, spec: dict[str, Any]) -> ExternalResult:
    stats_file = folder / "stats.json"
    stats = _stats(stats_file, "HELM stats file")
    split = _split(stats, stats_file)
    metrics: dict[str, float] = {}
    for i, stat in enumerate(stats):
        metric, s, perturbed = _stat_name(stat, stats_file, f"entry {i}")
        if perturbed or s != split or not stat.get("count"):
            continue
        metrics[metric] = _number(stat.get("mean"), stats_file, f"entry {i} ({metric}).mean")
    result = ExternalResult(
        dataset=dataset, metrics=metrics, source=SourceInfo(TOOL, None, str(folder / "run_spec.json")),
        config={k: spec[k] for k in ("scenario_spec", "adapter_spec", "metric_specs", "groups") if k in spec},
    )
    result.config["split"] = split
    per_instance = folder / "per_instance_stats.json"
    if per_instance.is_file():
        trials = int(spec["adapter_spec"].get("num_train_trials") or 1)
        result.samples = list(_samples(per_instance, split, trials, set(metrics)))
        result.samples_path = str(per_instance)
        _attach_requests(folder / "scenario_state.json", result.samples, trials)
        result.n_samples = len({s.doc["id"] if s.doc else s.key for s in result.samples}) if result.samples else None
    for metric in metrics:
        values = result.sample_values(metric)
        result.stderr[metric] = mean_stderr(values) if values else None
        if not values:
            result.aggregation[metric] = "run"  # computed by HELM over the whole run, not a mean of per-instance values
    return result


def _key(instance_id: str, trial: int, trials: int) -> str:
    return instance_id if trials <= 1 else f"{instance_id}@{trial}"


def _samples(file: Path, split: str, trials: int, metrics: set[str]) -> Iterator[ExternalSample]:
    what = "HELM per-instance stats file"
    data = read_json(file, what=what)
    if not isinstance(data, list):
        raise InputFileError(f"{what} {file}: a {type(data).__name__}, not a list of instances; is it HELM's {file.name}?")
    seen: set[str] = set()
    for i, entry in enumerate(data):
        if not isinstance(entry, dict) or not isinstance(entry.get("instance_id"), str) or not isinstance(entry.get("stats"), list):
            raise InputFileError(f"{what} {file}: entry {i} has no instance_id and stats: {str(entry)[:120]}")
        if entry.get("perturbation") is not None:
            continue
        trial = entry.get("train_trial_index", 0)
        key = _key(entry["instance_id"], trial if isinstance(trial, int) else 0, trials)
        if key in seen:
            raise InputFileError(f"{what} {file}: entry {i}: instance {entry['instance_id']} appears twice for train trial {trial}")
        seen.add(key)
        sample = ExternalSample(key=key)
        for j, stat in enumerate(entry["stats"]):
            metric, s, perturbed = _stat_name(stat, file, f"entry {i}, stat {j}")
            if perturbed or s != split or not stat.get("count") or metric not in metrics:
                continue
            sample.values[metric] = _number(stat.get("mean"), file, f"entry {i}, stat {j} ({metric}).mean")
        yield sample


def _attach_requests(file: Path, samples: list[ExternalSample], trials: int) -> None:
    """Reply, prompt, references and document of each sample from HELM's request states (first state per instance)."""
    if not file.is_file():
        return
    what = "HELM scenario state"
    data = read_json(file, what=what)
    states = data.get("request_states") if isinstance(data, dict) else None
    if not isinstance(states, list):
        raise InputFileError(f"{what} {file}: no 'request_states' list; is it HELM's scenario_state.json?")
    by_key = {s.key: s for s in samples}
    done: set[str] = set()
    for i, state in enumerate(states):
        instance = state.get("instance") if isinstance(state, dict) else None
        if not isinstance(instance, dict) or not isinstance(instance.get("id"), str):
            raise InputFileError(f"{what} {file}: request_states[{i}] has no instance with an id")
        if instance.get("perturbation") is not None:
            continue
        trial = state.get("train_trial_index", 0)
        key = _key(instance["id"], trial if isinstance(trial, int) else 0, trials)
        sample = by_key.get(key)
        if sample is None or key in done:
            continue
        done.add(key)
        request = state.get("request") if isinstance(state.get("request"), dict) else {}
        result = state.get("result") if isinstance(state.get("result"), dict) else {}
        completions = result.get("completions") or []
        if completions and isinstance(completions[0], dict) and isinstance(completions[0].get("text"), str):
            sample.reply = completions[0]["text"]
        prompt = request.get("prompt")
        sample.prompt = prompt if isinstance(prompt, str) else None
        sample.reference = [
            ref["output"].get("text") for ref in instance.get("references") or []
            if isinstance(ref, dict) and "correct" in (ref.get("tags") or []) and isinstance(ref.get("output"), dict)
        ]
        mapping = state.get("output_mapping")
        if isinstance(mapping, dict) and sample.reply is not None and sample.reply.strip() in mapping:
            sample.extracted["output_mapping"] = mapping[sample.reply.strip()]
        sample.doc = instance
