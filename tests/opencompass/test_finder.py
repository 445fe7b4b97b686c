"""OpenCompass import compatibility (R-2.5): assay's objects, inert markers, clear errors."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from assay.config import load_config, plainify
from assay.errors import ConfigError
from assay.opencompass import opencompass_mode

#: Where OpenCompass is fully installed, its own objects serve the names assay's built-ins do not replace.
aliases_only = pytest.mark.skipif(opencompass_mode() == "full", reason="OpenCompass is fully installed: its own objects serve")

CONFIG = """
from opencompass.registry import ICL_EVALUATORS, TEXT_POSTPROCESSORS, LOAD_DATASET
from opencompass.openicl.icl_evaluator import BaseEvaluator, AccEvaluator, EMEvaluator
from opencompass.utils.text_postprocessors import first_capital_postprocess, general_postprocess, extract_non_reasoning_content
from opencompass.datasets import JsonlDataset
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import GenInferencer, PPLInferencer, LLInferencer
from opencompass.models import HuggingFacewithChatTemplate, TurboMindModel
objs = dict(ICL_EVALUATORS=ICL_EVALUATORS, TEXT_POSTPROCESSORS=TEXT_POSTPROCESSORS, LOAD_DATASET=LOAD_DATASET,
            BaseEvaluator=BaseEvaluator, AccEvaluator=AccEvaluator, EMEvaluator=EMEvaluator,
            first_capital_postprocess=first_capital_postprocess, general_postprocess=general_postprocess,
            extract_non_reasoning_content=extract_non_reasoning_content, JsonlDataset=JsonlDataset)
infer_cfg = dict(prompt_template=dict(type=PromptTemplate, template='{q}'), retriever=dict(type=ZeroRetriever),
                 inferencer=dict(type=GenInferencer))
markers = [PromptTemplate, ZeroRetriever, GenInferencer, PPLInferencer, LLInferencer, HuggingFacewithChatTemplate, TurboMindModel]
"""


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory) -> dict:
    path = tmp_path_factory.mktemp("compat") / "cfg.py"
    path.write_text(CONFIG)
    return load_config(path).variables


@aliases_only
def test_imports_give_assays_objects(loaded: dict) -> None:
    import assay.registry as reg
    from assay.datasets.local import JsonlDataset
    from assay.evaluate.base import BaseEvaluator
    from assay.evaluators.exact import AccEvaluator, EMEvaluator
    from assay.postprocess.general import extract_non_reasoning_content, first_capital_postprocess, general_postprocess

    objs = loaded["objs"]
    assert objs["ICL_EVALUATORS"] is reg.ICL_EVALUATORS
    assert objs["TEXT_POSTPROCESSORS"] is reg.TEXT_POSTPROCESSORS
    assert objs["LOAD_DATASET"] is reg.LOAD_DATASET
    assert objs["BaseEvaluator"] is BaseEvaluator
    assert objs["AccEvaluator"] is AccEvaluator and objs["EMEvaluator"] is EMEvaluator
    assert objs["first_capital_postprocess"] is first_capital_postprocess
    assert objs["general_postprocess"] is general_postprocess
    assert objs["extract_non_reasoning_content"] is extract_non_reasoning_content
    assert objs["JsonlDataset"] is JsonlDataset


@aliases_only
def test_inference_classes_are_inert_markers_with_opencompass_names(loaded: dict) -> None:
    from assay.opencompass import is_inert

    for marker in loaded["markers"]:
        assert is_inert(marker)
        with pytest.raises(ConfigError, match="inference component"):
            marker()
    gen = loaded["infer_cfg"]["inferencer"]["type"]
    assert f"{gen.__module__}.{gen.__qualname__}" == "opencompass.openicl.icl_inferencer.GenInferencer"


def test_infer_cfg_hashes_to_opencompass_version(loaded: dict) -> None:
    dumped = json.dumps(plainify(loaded["infer_cfg"]), sort_keys=True)
    assert hashlib.sha256(dumped.encode()).hexdigest()[:6] == "4d3a0b"


@aliases_only
def test_a_name_opencompass_lacks_too_loads_and_fails_when_used(tmp_path: Path) -> None:
    from assay.opencompass import ComponentUnavailable, is_standin

    cfg = tmp_path / "cfg.py"
    cfg.write_text("from opencompass.datasets import TotallyUnknownThing\n"
                   "from opencompass.utils.no_such_module import no_such_postprocess\n")
    variables = load_config(cfg).variables
    thing = variables["TotallyUnknownThing"]
    assert is_standin(thing) and isinstance(thing, type) and is_standin(variables["no_such_postprocess"])
    with pytest.raises(ComponentUnavailable, match=r"opencompass\.datasets\.TotallyUnknownThing: neither assay nor OpenCompass 0\.5\.4 defines"):
        thing()


def test_packaged_configs_say_how_to_get_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import assay.opencompass as oc

    monkeypatch.delenv("ASSAY_OPENCOMPASS", raising=False)
    if oc.library_root() is not None:
        pytest.skip("OpenCompass's config library is installed here")
    cfg = tmp_path / "cfg.py"
    cfg.write_text("from opencompass.configs.datasets.gsm8k.gsm8k_gen import gsm8k_datasets\n")
    with pytest.raises(ConfigError, match=r"config library is not installed; get its files with `pip install --no-deps opencompass==0\.5\.4`"):
        load_config(cfg)


def test_deeper_module_paths_resolve_to_the_same_objects(tmp_path: Path) -> None:
    cfg = tmp_path / "cfg.py"
    cfg.write_text("from opencompass.openicl.icl_evaluator.icl_hf_evaluator import AccEvaluator\n")
    from assay.evaluators import AccEvaluator

    assert load_config(cfg).variables["AccEvaluator"] is AccEvaluator


@aliases_only
def test_seed_imports_work_in_a_plain_module_without_opencompass() -> None:
    code = (
        "import assay.opencompass as c; c.install()\n"
        "from opencompass.openicl.icl_evaluator import BaseEvaluator\n"
        "from opencompass.registry import ICL_EVALUATORS\n"
        "import assay.evaluate, assay.registry\n"
        "assert BaseEvaluator is assay.evaluate.BaseEvaluator and ICL_EVALUATORS is assay.registry.ICL_EVALUATORS\n"
        "import importlib.util; assert importlib.util.find_spec('mmengine.config') is not None\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
