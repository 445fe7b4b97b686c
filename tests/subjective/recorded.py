"""Running assay's subjective postprocessors and summarizers on what OpenCompass 0.5.4 was recorded on.

``tests/data/subjective/single/<family>.json`` (``scripts/record_oc_subjective_single.py``)
holds, for each family, judged samples with OpenCompass's postprocessor result,
and result folders with what OpenCompass's summarizer returned and wrote.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parents[1] / "data" / "subjective" / "single"


def recorded(family: str) -> dict[str, Any]:
    return json.loads((DATA / f"{family}.json").read_text(encoding="utf-8"))


def library_config(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch, imports: list[tuple[str, str]],
                   case: dict[str, Any]) -> dict[str, Any]:
    """A run config importing the library's ``imports`` unchanged, loaded by assay, with the case's models and judge."""
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    lines = ["from mmengine.config import read_base", "", "with read_base():"]
    for k, (module, name) in enumerate(imports):
        lines.append(f"    from {module} import {name} as datasets_{k}")
    lines += ["", f"datasets = [{', '.join(f'*datasets_{k}' for k in range(len(imports)))}]",
              f"models = {case['models']!r}",
              f"judge_models = [dict(abbr={case['judge']!r}, path='judge/{case['judge']}')]",
              "eval = dict(partitioner=dict(models=models))",
              f"work_dir = {str(tmp_path / 'work')!r}"]
    path = tmp_path / "config.py"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return dict(load_config(path).variables)


def write_results(work: Path, case: dict[str, Any]) -> None:
    """The case's judged samples as ``results/<model>_judged-by--<judge>/<dataset>.json``."""
    for model, by_dataset in case["results"].items():
        folder = work / "results" / f"{model}_judged-by--{case['judge']}"
        folder.mkdir(parents=True, exist_ok=True)
        for abbr, samples in by_dataset.items():
            (folder / f"{abbr}.json").write_text(json.dumps(samples, ensure_ascii=False), encoding="utf-8")


def summary_files(work: Path) -> dict[str, str]:
    """Every file under ``summary/``, by its path there, byte for byte (decoded)."""
    root = work / "summary"
    return {str(p.relative_to(root)): p.read_bytes().decode("utf-8") for p in sorted(root.rglob("*")) if p.is_file()}


def run_postprocess(func: Any, case: dict[str, Any]) -> dict[str, Any]:
    samples = copy.deepcopy(case["samples"])
    result = dict(func(samples, "outputs/results/m_judged-by--j/x.json", **case["kwargs"]))
    assert result.pop("details") == case["samples"]
    return json.loads(json.dumps(result))


def library_rows(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch, datasets_import: list[str]) -> dict[str, Any]:
    """Each dataset of a library config (imported unchanged through assay) loaded by assay's loader of its
    ``type`` from the recorded local files, as ``abbr → rows``."""
    from assay.datasets.build import FRAMEWORK_KEYS
    from assay.registry import LOAD_DATASET

    monkeypatch.setenv("COMPASS_DATA_CACHE", str(DATA))
    cfg = library_config(tmp_path, oc_library, monkeypatch, [tuple(datasets_import)],  # type: ignore[list-item]
                         {"models": [], "judge": "j"})
    loaded = {}
    for dataset in cfg["datasets"]:
        kind = dataset["type"]
        loader = LOAD_DATASET.get(kind) if isinstance(kind, str) else kind
        kwargs = {k: v for k, v in dataset.items() if k not in FRAMEWORK_KEYS}
        loaded[dataset["abbr"]] = json.loads(json.dumps(loader.load(**kwargs).to_list(), ensure_ascii=False))
    return loaded
