"""HumanEval Pro and MBPP Pro: OpenCompass 0.5.4's loaders and the programs its evaluators send, run in the sandbox.

``scripts/record_oc_code_pro.py`` recorded, with OpenCompass installed, the loaders'
rows on small problem files in its layout (``tests/data/oc_families/code_pro``) and
the programs (name, code) and prompts its evaluators hand to the code service.  The
library configs run unchanged here; each reply's status (right, wrong, a syntax
error, an endless loop, right without a fence, the first of two blocks raising) is
checked by hand.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.sandbox import bwrap_available

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "code_pro"
RECORDED = json.loads((FIXTURE / "recorded.json").read_text(encoding="utf-8"))
RUN = "20250101_000000"
FAMILIES = {
    "humaneval_pro": ("HumanevalevalProDataset", "opencompass/humaneval_pro", "humaneval_pro_gen_3dc067", "humanevalpro_datasets"),
    "mbpp_pro": ("MBPPProDataset", "opencompass/mbpp_pro", "mbpp_pro_gen_3dc067", "mbpppro_datasets"),
}

needs_sandbox = pytest.mark.skipif(bwrap_available() is not None, reason=f"no namespace sandbox: {bwrap_available()}")


@pytest.fixture
def data_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(FIXTURE / "cache"))


@pytest.mark.parametrize("abbr", sorted(FAMILIES))
def test_loader_rows_equal_opencompass(abbr: str, data_cache: None) -> None:
    from assay.registry import LOAD_DATASET

    loader, path, _, _ = FAMILIES[abbr]
    assert [dict(r) for r in LOAD_DATASET.get(loader).load(path=path)] == RECORDED[abbr]["rows"]


def test_loader_names_the_missing_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.datasets.code_pro import MBPPProDataset
    from assay.errors import InputFileError

    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path))
    with pytest.raises(InputFileError, match=r"MBPPProDataset: file .*mbpp_pro\.json does not exist"):
        MBPPProDataset.load(path="opencompass/mbpp_pro")


def _unwrap(value: Any) -> Any:
    return value[0] if isinstance(value, list) and len(value) == 1 else value


@needs_sandbox
def test_library_configs_run_the_programs_opencompass_sends(tmp_path: Path, data_cache: None, oc_library: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.cli import main
    from assay.rundir.results import read_result

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    imports = "\n".join(f"    from opencompass.configs.datasets.{abbr}.{module} import {name}"
                        for abbr, (_, _, module, name) in FAMILIES.items())
    cfg = tmp_path / "eval_pro.py"
    cfg.write_text(
        "from mmengine.config import read_base\n\nfrom opencompass.models import HuggingFacewithChatTemplate\n\n"
        f"with read_base():\n{imports}\n\n"
        "datasets = [*humanevalpro_datasets, *mbpppro_datasets]\n"
        "for d in datasets:\n    d['eval_cfg']['evaluator']['timeout'] = 5\n"
        "models = [dict(type=HuggingFacewithChatTemplate, abbr='chat-model', path='org/chat-model', max_out_len=1024)]\n",
        encoding="utf-8",
    )
    work = tmp_path / "work"
    shutil.copytree(FIXTURE / "predictions", work / RUN / "predictions")
    assert main(["eval", str(cfg), "-w", str(work), "-r", RUN]) == 0
    for abbr in FAMILIES:
        result = read_result(work / RUN / "results" / "chat-model" / f"{abbr}.json")
        details = [{k: _unwrap(v) for k, v in d.items()} for d in result["details"]]
        assert [d["code"] for d in details] == [s["code"] for s in RECORDED[abbr]["sent"]], abbr
        assert [d["name"] for d in details] == [s["name"] for s in RECORDED[abbr]["sent"]], abbr
        assert [d["prompt"] for d in details] == RECORDED[abbr]["prompts"], abbr
        assert [d["status"] for d in details] == RECORDED["statuses"], abbr
        assert result["pass@1"] == pytest.approx(100 * RECORDED["statuses"].count("OK") / len(details))


def test_only_python_is_run() -> None:
    from assay.evaluators.code_service import HumanevalProEvaluator

    with pytest.raises(ValueError, match=r"only Python programs are run .* got 'cpp'"):
        HumanevalProEvaluator(language="cpp")
