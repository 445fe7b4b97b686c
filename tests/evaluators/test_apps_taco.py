"""APPS and TACO library configs scored by ``assay eval`` as OpenCompass 0.5.4 scores them, the solutions run in the sandbox.

The fixture (``tests/data/oc_families/apps_taco``, written and recorded by
``scripts/record_oc_apps_taco.py``) holds five problems in each loader's layout
(a local ``codeparrot/apps`` folder, ``data/apps_mini`` saved to disk, TACO's
file in the Hugging Face Hub's cache) and replies right or wrong by hand:
APPS's right, wrong, right (a float printed with more digits), right, right;
TACO's wrong, right, raising, wrong, endless.  ``expected/<config>.json`` is what
OpenCompass's loaders and evaluators computed, its solutions loaded by a
stand-in for ``pyext`` (which does not install on Python 3.11; without it
OpenCompass scores every solution 0, ``metrics_without_pyext``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.rundir.results import read_result
from assay.sandbox import isolation_unavailable

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "apps_taco"
EXPECTED = ROOT / "expected"
RUN = "20250101_000000"
MODEL = "oc-model"
_NO_SANDBOX = isolation_unavailable("namespaces")
needs_sandbox = pytest.mark.skipif(_NO_SANDBOX is not None, reason=f"no namespace sandbox: {_NO_SANDBOX}")

#: hand-checked: each problem's verdict, in the fixture's order
HAND = {"apps": [True, False, True, True, True], "TACO": [False, True, False, False, False]}


def _unwrap(value: Any) -> Any:
    return value[0] if isinstance(value, list) and len(value) == 1 and isinstance(value[0], list) else value


@pytest.fixture
def fixture_env(oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("HF_HUB_CACHE", str(ROOT / "hub"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(ROOT)  # the configs' paths are relative to the working directory
    return oc_library


def _eval(record: dict[str, Any], tmp_path: Path) -> Path:
    module = "opencompass.configs.datasets." + record["config"][: -len(".py")].replace("/", ".")
    cfg = tmp_path / "config.py"
    cfg.write_text(
        "from mmengine.config import read_base\n\n"
        f"with read_base():\n    from {module} import {record['variable']}\n\n"
        f"datasets = {record['variable']}\n"
        f"models = [dict(abbr={MODEL!r}, path='org/model')]\n",
        encoding="utf-8",
    )
    predictions = tmp_path / "work" / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in record["datasets"]:
        shutil.copy(ROOT / "predictions" / f"{abbr}.json", predictions / f"{abbr}.json")
    assert main(["eval", str(cfg), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1"]) == 0
    return tmp_path / "work" / RUN / "results" / MODEL


@needs_sandbox
@pytest.mark.parametrize("config", [p.stem for p in sorted(EXPECTED.glob("*.json"))])
def test_library_config_gives_opencompass_results(config: str, fixture_env: Path, tmp_path: Path) -> None:
    record = json.loads((EXPECTED / f"{config}.json").read_text(encoding="utf-8"))
    results = _eval(record, tmp_path)
    for abbr, entry in record["datasets"].items():
        got = read_result(results / f"{abbr}.json")
        assert "error" not in got, (abbr, got.get("error"))
        for key, value in entry["metrics"].items():
            if key == "detail":
                continue
            assert got[key] == pytest.approx(value, abs=1e-9), (abbr, key)
        want_detail = {k: {str(t): v for t, v in per.items()} for k, per in entry["metrics"]["detail"].items()}
        assert {k: {str(t): v for t, v in per.items()} for k, per in got["detail"].items()} == want_detail
        per_task = [_unwrap(d["results"]) for d in got["details"]]
        assert per_task == [runs[0] for runs in entry["results"].values()], abbr
        if abbr in HAND:
            assert [d["is_correct"] == [True] or d["is_correct"] is True for d in got["details"]] == HAND[abbr]
        assert entry["metrics_without_pyext"]["pass@1"] == 0.0  # OpenCompass 0.5.4 on Python 3.11


def test_loaders_give_opencompass_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.datasets.apps import APPS_miniDataset, APPSDataset, TACODataset

    monkeypatch.setenv("HF_HUB_CACHE", str(ROOT / "hub"))
    monkeypatch.chdir(ROOT)
    for config, load in (("apps_gen_c7893a", lambda: APPSDataset.load("codeparrot/apps")),
                         ("apps_mini_gen_c7893a", lambda: APPS_miniDataset.load("./data/apps_mini")),
                         ("taco_gen_c7893a", lambda: TACODataset.load("BAAI/TACO"))):
        record = json.loads((EXPECTED / f"{config}.json").read_text(encoding="utf-8"))
        rows = next(iter(record["datasets"].values()))["rows"]
        test = load()["test"]
        assert [{k: row[k] for k in ("problem_id", "starter", "difficulty", "input_output")} for row in test] == rows
    record = json.loads((EXPECTED / "taco_levels_gen_411572.json").read_text(encoding="utf-8"))
    for abbr, entry in record["datasets"].items():
        test = TACODataset.load("BAAI/TACO", difficulty=abbr.split("-", 1)[1])["test"]
        assert list(test["problem_id"]) == [r["problem_id"] for r in entry["rows"]]


def test_loaders_name_what_is_missing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from assay.datasets.apps import APPSDataset, TACODataset
    from assay.errors import InputFileError

    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputFileError, match="'codeparrot/apps' is not a local folder"):
        APPSDataset.load("codeparrot/apps")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-hub"))
    with pytest.raises(InputFileError, match="not in the Hugging Face Hub's cache"):
        TACODataset.load("BAAI/TACO")
    monkeypatch.setenv("HF_HUB_CACHE", str(ROOT / "hub"))
    with pytest.raises(InputFileError, match="no test problem of difficulty 'IMPOSSIBLE'"):
        TACODataset.load("BAAI/TACO", difficulty="IMPOSSIBLE")
