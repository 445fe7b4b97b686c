"""The benchmark families scored end to end by ``assay eval``, against OpenCompass 0.5.4's recordings.

Each recorded run (a config of OpenCompass's library and the datasets kept
from it) is scored from the prediction files OpenCompass's output handlers
wrote (gen, PPL and log-likelihood records, with ``gold``), on the data built
in OpenCompass's local layout under the working directory.  Every metric of
every dataset must equal OpenCompass's.

* ``test_library_config_scores_like_opencompass`` runs the config itself,
  unchanged: the test's config imports it from OpenCompass's config library
  (``from opencompass.configs.datasets.mmlu.mmlu_gen import mmlu_datasets``
  inside ``read_base()``), the library found through ``ASSAY_OPENCOMPASS``.
* ``test_recorded_config_scores_like_opencompass`` runs the same dataset
  configs written out (types by name, data paths absolute), for the runs whose
  predictions need no generic extractor, so the PPL and log-likelihood records
  and the families' own postprocessors go through the whole pipeline.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.datasets.location import is_dataset_id, local_location
from assay.rundir.results import read_result
from tests.benchmarks_oc._knowledge import ROOT, knowledge, metrics, recorded_runs, same_number
from tests.benchmarks_oc.families import MODEL_ABBR, Run, build_data

RUN_DIR = "20250101_000000"
RUNS = recorded_runs()

#: Postprocessors of the families' own modules (the generic extractors are tested with their owners).
OWN = {"bbh_mcq_postprocess", "GPQA_Simple_Eval_postprocess", "cmrc_postprocess", "drcd_postprocess"}


def _workspace(run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Build the run's data under ``tmp_path/data`` and its predictions under ``tmp_path/work``; work from there."""
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    build_data(run.family, tmp_path)
    work = tmp_path / "work"
    shutil.copytree(ROOT / run.run_id / "predictions", work / RUN_DIR / "predictions")
    monkeypatch.chdir(tmp_path)
    return work


def _check(run: Run, work: Path) -> None:
    data = knowledge(run.run_id)
    for abbr, entry in data["datasets"].items():
        result = read_result(work / RUN_DIR / "results" / MODEL_ABBR / f"{abbr}.json")
        assert "error" not in result, f"{abbr}: {result.get('error')}"
        want, got = metrics(entry["result"]), metrics(result)
        assert set(want) <= set(got), f"{abbr}: missing metrics {set(want) - set(got)}"
        for key, value in want.items():
            assert same_number(got[key], value), f"{abbr} {key}: assay {got[key]} != OpenCompass {value}"


_MODELS = "models = [dict(abbr={model!r}, type='opencompass.models.HuggingFacewithChatTemplate', path='oc/model')]\n"


@pytest.mark.parametrize("run", RUNS, ids=[r.run_id for r in RUNS])
def test_library_config_scores_like_opencompass(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    work = _workspace(run, tmp_path, monkeypatch)
    config = tmp_path / f"eval_{run.run_id}.py"
    config.write_text(
        "from mmengine.config import read_base\n\n"
        "with read_base():\n"
        f"    from {run.module} import {run.variable}\n\n"
        # a dataset without abbr is named as OpenCompass names it: its path, then its name
        f"datasets = [d for d in {run.variable} if (d['abbr'] if 'abbr' in d else (d['path'] + ('_' + d['name'] if 'name' in d else ''))"
        f".replace('/', '_')) in {list(run.abbrs)!r}]\n"
        + _MODELS.format(model=MODEL_ABBR),
        encoding="utf-8",
    )
    rc = main(["eval", str(config), "-w", str(work), "-r", RUN_DIR, "--workers", "1"])
    assert rc == 0, capsys.readouterr().err[-2000:]
    _check(run, work)


def _local(path: Any, root: Path) -> Any:
    if not isinstance(path, str) or os.path.isabs(path):
        return path
    return str(root / (local_location(path) if is_dataset_id(path) else path))


def _dataset_cfg(abbr: str, entry: dict[str, Any], root: Path) -> dict[str, Any]:
    kwargs = dict(entry["loader_kwargs"])
    for key in ("path", "data_files"):
        if key in kwargs and not (key == "path" and entry["loader"] == "BoolQDataset"):
            kwargs[key] = _local(kwargs[key], root)
    return {"abbr": abbr, "type": entry["loader"], **kwargs, "reader_cfg": entry["reader_cfg"], "eval_cfg": entry["eval_cfg"]}


def _needs_no_generic_extractor(run: Run) -> bool:
    for entry in knowledge(run.run_id)["datasets"].values():
        post = entry["eval_cfg"].get("pred_postprocessor")
        if post and post.get("type") not in OWN:
            return False
    return True


SELF_CONTAINED = [r for r in RUNS if _needs_no_generic_extractor(r)]


@pytest.mark.parametrize("run", SELF_CONTAINED, ids=[r.run_id for r in SELF_CONTAINED])
def test_recorded_config_scores_like_opencompass(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    work = _workspace(run, tmp_path, monkeypatch)
    datasets = [_dataset_cfg(abbr, entry, tmp_path) for abbr, entry in knowledge(run.run_id)["datasets"].items()]
    config = tmp_path / f"eval_{run.run_id}.py"
    config.write_text(f"datasets = {datasets!r}\n" + _MODELS.format(model=MODEL_ABBR), encoding="utf-8")
    rc = main(["eval", str(config), "-w", str(work), "-r", RUN_DIR, "--workers", "1"])
    assert rc == 0, capsys.readouterr().err[-2000:]
    _check(run, work)


def test_the_self_contained_runs_cover_ppl_and_log_likelihood_records() -> None:
    modes = {entry["mode"] for run in SELF_CONTAINED for entry in knowledge(run.run_id)["datasets"].values()}
    assert {"GenInferencer", "PPLInferencer", "LLInferencer"} <= modes
    assert len(SELF_CONTAINED) >= 20
