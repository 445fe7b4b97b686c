"""DS-1000: OpenCompass 0.5.4's loaders, postprocessors and evaluators, the checks run in the sandbox.

``scripts/record_oc_ds1000.py`` recorded, with OpenCompass installed, its loaders'
rows on small problems in DS-1000's layout (``tests/data/oc_families/ds1000``), its
postprocessors, ``DS1000Evaluator``'s verdict on each solution (right, right with a
loop ``stringTest`` refuses — OpenCompass ignores its answer —, printing where
``stringTest`` raises, wrong, right for one test case of two, crashing) and its
metrics, the file ``DS1000ServiceEvaluator`` posts, and ``DS1000InterpreterEvaluator``
on agent steps.  The library configs run unchanged here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.sandbox import bwrap_available

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "ds1000"
RECORDED = json.loads((FIXTURE / "recorded.json").read_text(encoding="utf-8"))
CACHE = FIXTURE / "cache"
RUN = "20250101_000000"

needs_sandbox = pytest.mark.skipif(bwrap_available() is not None, reason=f"no namespace sandbox: {bwrap_available()}")


@pytest.fixture
def data_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(CACHE))


def _rel(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _rel(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rel(v) for v in value]
    return value.replace(str(CACHE), "<cache>") if isinstance(value, str) else value


@pytest.mark.parametrize("call", RECORDED["loader"], ids=[f"{c['loader']}-{c['args']}" for c in RECORDED["loader"]])
def test_loader_rows_equal_opencompass(call: dict[str, Any], data_cache: None) -> None:
    from assay.registry import LOAD_DATASET

    ds = LOAD_DATASET.get(call["loader"]).load(path="./data/ds1000_data/", **call["args"])
    assert _rel({split: [dict(r) for r in ds[split]] for split in ds}) == call["splits"]


def test_loader_names_a_missing_library_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.datasets.ds1000 import DS1000Dataset
    from assay.errors import InputFileError

    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path))
    with pytest.raises(InputFileError, match=r"ds1000_data/Scipy/Insertion does not exist"):
        DS1000Dataset.load("./data/ds1000_data/", libs="Scipy")
    with pytest.raises(InputFileError, match=r"libs must name libraries .* got 'Jax'"):
        DS1000Dataset.load("./data/ds1000_data/", libs="Jax")


@pytest.mark.parametrize("case", RECORDED["postprocess"], ids=[str(i) for i in range(len(RECORDED["postprocess"]))])
def test_postprocessors_equal_opencompass(case: dict[str, Any]) -> None:
    from assay.registry import TEXT_POSTPROCESSORS

    for name in ("ds1000_postprocess", "ds1000_completion_postprocess", "ds1000_matplotlib_postprocess"):
        assert TEXT_POSTPROCESSORS.get(name.removesuffix("_postprocess"))(case["reply"]) == case[name], name


@needs_sandbox
@pytest.mark.parametrize("name", ["predictions/ds1000_Numpy", "predictions_compl/ds1000_Numpy"])
def test_evaluator_verdicts_and_accuracy_equal_opencompass(name: str, data_cache: None) -> None:
    from assay.datasets.ds1000 import DS1000Dataset
    from assay.evaluators.ds1000 import DS1000Evaluator

    want = RECORDED["evaluator"][name]
    mode = "Completion" if "compl" in name else "Insertion"
    refs = list(DS1000Dataset.load("./data/ds1000_data/", libs="Numpy", mode=mode)["test"]["test_column"])
    res = DS1000Evaluator(timeout=20).score(want["solutions"], refs)
    assert [d["correct"] for d in res["details"]] == want["passed"]
    assert res["accuracy"] == want["metrics"]["accuracy"]


def _config(tmp_path: Path, module: str, abbrs: tuple[str, ...]) -> Path:
    cfg = tmp_path / f"{module}.py"
    cfg.write_text(
        "from mmengine.config import read_base\n\nfrom opencompass.models import HuggingFacewithChatTemplate\n\n"
        f"with read_base():\n    from opencompass.configs.datasets.ds1000.{module} import ds1000_datasets\n\n"
        f"datasets = [d for d in ds1000_datasets if d['abbr'] in {abbrs!r}]\n"
        "for d in datasets:\n    d['eval_cfg']['evaluator']['timeout' if 'lib' not in d['eval_cfg']['evaluator'] else 'step_timeout'] = 20\n"
        "models = [dict(type=HuggingFacewithChatTemplate, abbr='chat-model', path='org/chat-model', max_out_len=1024)]\n",
        encoding="utf-8",
    )
    return cfg


def _eval(tmp_path: Path, module: str, predictions: str, abbrs: tuple[str, ...]) -> tuple[int, Path]:
    from assay.cli import main

    work = tmp_path / "work"
    shutil.copytree(FIXTURE / predictions, work / RUN / "predictions")
    code = main(["eval", str(_config(tmp_path, module, abbrs)), "-w", str(work), "-r", RUN])
    return code, work / RUN / "results" / "chat-model"


@needs_sandbox
@pytest.mark.parametrize(("module", "predictions"), [("ds1000_gen_cbc84f", "predictions"), ("ds1000_compl_gen_cbc84f", "predictions_compl")])
def test_library_configs_give_opencompass_accuracy(module: str, predictions: str, tmp_path: Path, data_cache: None,
                                                   oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The library configs unchanged (the time limit lowered): Numpy's accuracy is OpenCompass's; the
    Pandas problem is unscorable here (the sandbox's Python has numpy, not pandas) and named."""
    from assay.rundir.results import read_result

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    abbrs = ("ds1000_Numpy", "ds1000_Pandas") if predictions == "predictions" else ("ds1000_Numpy",)
    code, results = _eval(tmp_path, module, predictions, abbrs)
    assert code == (1 if "ds1000_Pandas" in abbrs else 0)  # a partial task: its exit status says so
    numpy = read_result(results / "ds1000_Numpy.json")
    assert numpy["accuracy"] == RECORDED["evaluator"][f"{predictions}/ds1000_Numpy"]["metrics"]["accuracy"]
    if "ds1000_Pandas" in abbrs:
        pandas = read_result(results / "ds1000_Pandas.json")
        assert "accuracy" not in pandas and pandas["missing_libraries"] == ["pandas"]
        assert pandas["_meta"]["incomplete"][0]["count"] == 1


@needs_sandbox
def test_service_evaluator_reads_what_opencompass_posts(tmp_path: Path, data_cache: None, oc_library: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The service config unchanged: the predictions are OpenCompass's posted ones, read the service's way
    (its extraction) and scored in percent with two decimals, each verdict the one OpenCompass's own check
    gives the reply."""
    from assay.rundir.results import read_result

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    code, results = _eval(tmp_path, "ds1000_service_eval_gen_cbc84f", "predictions", ("ds1000_Numpy",))
    assert code == 0
    result = read_result(results / "ds1000_Numpy.json")
    posted = RECORDED["service"]["predictions/ds1000_Numpy"]
    details = result["details"]
    assert [d["prediction"][0] for d in details] == [posted[str(i)]["prediction"] for i in range(len(posted))]
    assert result["accuracy"] == round(100 * 2 / 6, 2)
    assert [d["correct"][0] for d in details] == RECORDED["evaluator"]["predictions/ds1000_Numpy"]["passed"]


@needs_sandbox
def test_service_evaluator_sends_a_long_reply_as_empty(data_cache: None) -> None:
    """OpenCompass posts a reply longer than 10,000 characters as ''; so does assay's namesake."""
    from assay.datasets.ds1000 import DS1000Dataset
    from assay.evaluators.ds1000 import DS1000ServiceEvaluator

    posted = RECORDED["service"]["predictions/ds1000_Pandas"]
    (ref,) = DS1000Dataset.load("./data/ds1000_data/", libs="Pandas")["test"]["test_column"]
    res = DS1000ServiceEvaluator(lib="Pandas", step_timeout=20).score(["x" * 10001], [ref])
    assert res["details"][0]["prediction"] == posted["1"]["prediction"] == ""


def test_interpreter_evaluator_equals_opencompass() -> None:
    from assay.evaluators.ds1000 import DS1000InterpreterEvaluator

    steps = RECORDED["interpreter"]["steps"]
    assert DS1000InterpreterEvaluator().score([""] * len(steps), [""] * len(steps), steps) == RECORDED["interpreter"]["metrics"]
