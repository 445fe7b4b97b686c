"""``CIBenchStepEvaluator`` against OpenCompass 0.5.4's CIBench scoring code.

OpenCompass cannot build its ``CIBenchEvaluator``; ``scripts/record_oc_cibench.py``
moved aside what stops it (the read-only ``output_dir``, the missing
``opencompass.lagent``, which only format the Markdown copies it writes) and ran
its scoring code unchanged: ``single_exp`` and ``score`` on hand-made runs
(``scoring.json``; the images under ``images/``, named relative to the folder
it reads them from) and ``score`` on the prediction files of each library
config's datasets (``expected/<case>.json``, ``scored``).  The tests score the
same inputs with assay — directly, and through ``assay eval`` on the library
configs imported unchanged with the evaluator chosen in the config.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.registry import ICL_EVALUATORS

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "cibench"
SCORING = json.loads((ROOT / "scoring.json").read_text(encoding="utf-8"))
EXPECTED = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "expected").glob("*.json"))}
CASES = [(case, abbr) for case, record in EXPECTED.items() for abbr in record["datasets"]]
RUN = "20250101_000000"


def _evaluator() -> Any:
    return ICL_EVALUATORS.get("CIBenchStepEvaluator")()


def test_hand_made_runs_score_as_opencompass_scoring_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("skimage")
    shutil.copytree(ROOT / "images", tmp_path / "images")
    monkeypatch.chdir(tmp_path)
    inputs = SCORING["inputs"]
    result = _evaluator().score([""] * len(inputs["steps"]), inputs["references"], inputs["steps"], inputs["origin_prompt"])
    details = result.pop("details")
    assert result == pytest.approx(SCORING["metrics"], rel=1e-12, abs=0)
    assert set(result) == set(SCORING["metrics"])
    for detail, expected in zip(details, SCORING["experiments"], strict=True):
        assert detail["steps"] == expected["outputs"]
        assert {k: v for k, v in detail.items() if k not in ("steps", "experiment")} == {
            k: [float(x) for x in v] for k, v in expected["result"].items()}


def test_images_are_read_from_the_working_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("skimage")
    monkeypatch.chdir(tmp_path)  # no images/ here: the image steps score 0
    inputs = SCORING["inputs"]
    result = _evaluator().score([""], inputs["references"][:1], inputs["steps"][:1], inputs["origin_prompt"][:1])
    assert result["vis_sim"] == 0
    assert result["general_correct"] == pytest.approx(200 / 3)


def _config(record: dict[str, Any], abbr: str) -> str:
    module = "opencompass.configs.datasets." + record["config"][: -len(".py")].replace("/", ".")
    return (f"from mmengine.config import read_base\n\nwith read_base():\n    from {module} import {record['variable']}\n\n"
            f"datasets = [d for d in {record['variable']} if d['abbr'] == {abbr!r}]\n"
            "for d in datasets:\n    d['eval_cfg']['evaluator'] = dict(type='CIBenchStepEvaluator')\n"
            "models = [dict(abbr='m', path='org/m')]\n")


@pytest.mark.parametrize(("case", "abbr"), CASES, ids=[f"{c}-{a}" for c, a in CASES])
def test_library_config_scores_as_opencompass_scoring_code(case: str, abbr: str, oc_library: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("skimage")
    record = EXPECTED[case]
    work = tmp_path / "cwd"
    shutil.copytree(ROOT / "data", work / "data")
    shutil.copytree(ROOT / "images", work / "images")
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    monkeypatch.chdir(work)
    config = tmp_path / "config.py"
    config.write_text(_config(record, abbr), encoding="utf-8")
    out = tmp_path / "work"
    prediction = out / RUN / "predictions" / "m" / f"{abbr}.json"
    prediction.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "predictions" / case / f"{abbr}.json", prediction)
    assert main(["eval", str(config), "-w", str(out), "-r", RUN]) == 0
    result = json.loads((out / RUN / "results" / "m" / f"{abbr}.json").read_text(encoding="utf-8"))
    expected = record["datasets"][abbr]["scored"]
    assert {k: result[k] for k in expected} == pytest.approx(expected, rel=1e-12, abs=0)


def test_a_step_type_the_notebook_does_not_score_is_an_error() -> None:
    ref = {"outputs": ["1"], "tags": ["general"], "metadata": {"step_types": ["general"]}, "experiment": "./x.ipynb"}
    result = _evaluator().score([""], [ref], [[[]]], [["q"]])
    assert result == {"error": "CIBenchStepEvaluator: sample 0 (./x.ipynb): step type 'general' is not scored in a notebook "
                               "with step_types (scored: exec, num, text, vis)"}


def test_steps_and_references_of_different_lengths_are_an_error() -> None:
    ref = {"outputs": ["1"], "tags": ["general"], "metadata": {}, "experiment": "./x.ipynb"}
    assert _evaluator().score(["", ""], [ref, ref], [[[]]], [["q"], ["q"]]) == {
        "error": "CIBenchStepEvaluator: 1 step lists but 2 references"}


def test_without_scikit_image_the_dry_run_and_the_image_steps_say_so(oc_library: Path, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from assay.evaluators.cibench import IMAGES_MISSING

    for module in ("skimage", "skimage.metrics", "skimage.transform"):  # not importable, and find_spec finds nothing
        monkeypatch.setitem(sys.modules, module, None)
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    shutil.copytree(ROOT / "data", tmp_path / "cwd" / "data")
    monkeypatch.chdir(tmp_path / "cwd")
    case, abbr = "CIBench_template_gen_e6b12a", "cibench_template/pandas"
    config = tmp_path / "config.py"
    config.write_text(_config(EXPECTED[case], abbr), encoding="utf-8")
    main(["eval", str(config), "-w", str(tmp_path / "work"), "--dry-run"])
    out = capsys.readouterr()
    assert f"{IMAGES_MISSING}; missing: scikit-image" in out.out + out.err
    inputs = SCORING["inputs"]
    result = _evaluator().score([""], inputs["references"][:1], inputs["steps"][:1], inputs["origin_prompt"][:1])
    assert set(result) == {"error"} and result["error"].startswith(f"CIBenchStepEvaluator: {IMAGES_MISSING}: ")
