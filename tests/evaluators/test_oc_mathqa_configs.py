"""OpenCompass's own dataset configs of the math, open-QA and IFEval families, run by ``assay eval``.

Each case imports a config of OpenCompass 0.5.4's library unchanged
(``from opencompass.configs.datasets.gsm8k.gsm8k_gen import gsm8k_datasets``
inside ``read_base``), evaluates the fixture prediction files in a work dir
laid out as OpenCompass's, and compares every metric of every result file with
what OpenCompass's own eval task wrote (``expected/<case>.json``, recorded by
``scripts/record_oc_mathqa.py``).  The library comes from the ``oc_library``
fixture.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from tests.evaluators.test_oc_mathqa import _metric_keys_as_assay_names_them

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "mathqa"
EXPECTED = ROOT / "expected"
RUN = "20250101_000000"
MODEL = "oc-model"


def _cases() -> list[Any]:
    return [pytest.param(p.stem, id=p.stem) for p in sorted(EXPECTED.glob("*.json"))]


def _config(record: dict[str, Any]) -> str:
    module = "opencompass.configs.datasets." + record["config"][: -len(".py")].replace("/", ".")
    variable = record["variable"]
    lines = [
        "from mmengine.config import read_base",
        "",
        "with read_base():",
        f"    from {module} import {variable}",
        "",
        f"datasets = [dict(d, **{record['overrides']!r}) for d in {variable}]",
        f"models = [dict(abbr={MODEL!r}, path='org/model')]",
    ]
    return "\n".join(lines) + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("case", _cases())
def test_opencompass_config_gives_opencompass_metrics(case: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = json.loads((EXPECTED / f"{case}.json").read_text(encoding="utf-8"))
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT / "cache"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(ROOT / "cache")
    config = tmp_path / "config.py"
    config.write_text(_config(record), encoding="utf-8")
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr, entry in record["datasets"].items():
        shutil.copy(ROOT / "predictions" / entry["prediction_file"], predictions / f"{abbr}.json")

    main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])

    for abbr, entry in record["datasets"].items():
        result = json.loads((work / RUN / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        if "exception" in entry:  # OpenCompass stopped on this dataset: assay records an error
            assert "error" in result, result
            continue
        assert "error" not in result, result
        for key, value in _metric_keys_as_assay_names_them(entry).items():
            assert result[key] == pytest.approx(value, abs=1e-9), (abbr, key)
