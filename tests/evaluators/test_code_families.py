"""HumanEval and MBPP families scored end to end, equal to OpenCompass 0.5.4's recorded numbers.

The fixture (``tests/data/oc_families/code``) holds small problems in OpenCompass's
data layout, prediction files as OpenCompass writes them (a correct solution in
fences with prose, a bare body, wrong indentation, failing tests, an exception,
an endless loop, think tags, two code blocks, an empty reply, ...) and, under
``expected/``, what OpenCompass computed on them (``scripts/record_oc_code.py``).

``test_*_settings`` run configs whose dataset entries carry the settings of
OpenCompass's configs; ``test_*_default_configs`` import OpenCompass's own config
files unchanged (they need its config library, the ``oc_library`` fixture).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.rundir.results import read_result
from assay.sandbox import bwrap_available

FIXTURE = Path(__file__).parent.parent / "data" / "oc_families" / "code"
RUN = "20250101_000000"

pytestmark = pytest.mark.skipif(bwrap_available() is not None, reason=f"no namespace sandbox: {bwrap_available()}")

_HEAD = """
from opencompass.datasets import (HumanevalDataset, HumanEvalEvaluator, humaneval_postprocess_v2, MBPPDataset,
    MBPPDatasetV2, SanitizedMBPPDataset, MBPPEvaluator, MBPPPassKEvaluator, HumanEvalPlusEvaluator, MBPPPlusDataset,
    LCBCodeExecutionDataset, LCBCodeExecutionEvaluator, LCBTestOutputPredictionDataset, LCBTestOutputEvaluator,
    LCBCodeGenerationDataset, LCBCodeGenerationEvaluator)
from opencompass.models import HuggingFacewithChatTemplate
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

infer = dict(prompt_template=dict(type=PromptTemplate, template=dict(round=[dict(role='HUMAN', prompt='{prompt}')])),
             retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer))
he_reader = dict(input_columns=['prompt'], output_column='task_id', train_split='test')
he_eval = dict(evaluator=dict(type=HumanEvalEvaluator), pred_role='BOT', k=[1, 10, 100],
               pred_postprocessor=dict(type=humaneval_postprocess_v2))
models = [dict(type=HuggingFacewithChatTemplate, abbr='chat-model', path='org/chat-model', max_out_len=1024, batch_size=8)]
"""

SETTINGS = {
    "eval_humaneval": """
datasets = [
    dict(abbr='openai_humaneval', type=HumanevalDataset, path='opencompass/humaneval', reader_cfg=he_reader,
         infer_cfg=infer, eval_cfg=he_eval),
    dict(abbr='openai_humaneval_repeat10', type=HumanevalDataset, path='opencompass/humaneval', num_repeats=10,
         reader_cfg=he_reader, infer_cfg=infer, eval_cfg=he_eval),
]
""",
    "eval_humaneval_repeat": """
datasets = [
    dict(abbr='openai_humaneval', type=HumanevalDataset, path='opencompass/humaneval', reader_cfg=he_reader,
         infer_cfg=infer, eval_cfg=dict(evaluator=dict(type=HumanEvalEvaluator), pred_role='BOT',
                                        pred_postprocessor=dict(type=humaneval_postprocess_v2)), n=5, k=3),
]
""",
    "eval_mbpp": """
reader = dict(input_columns=['text', 'test_list'], output_column='test_list_2')
datasets = [
    dict(type=MBPPDataset, abbr='mbpp', path='opencompass/mbpp', reader_cfg=reader, infer_cfg=infer,
         eval_cfg=dict(evaluator=dict(type=MBPPEvaluator), pred_role='BOT')),
    dict(type=MBPPDatasetV2, abbr='mbpp_passk', path='opencompass/mbpp', infer_cfg=infer,
         reader_cfg=dict(input_columns=['text', 'test_list'], output_column='test_column'),
         eval_cfg=dict(evaluator=dict(type=MBPPPassKEvaluator), pred_role='BOT')),
    dict(type=SanitizedMBPPDataset, abbr='sanitized_mbpp', path='opencompass/sanitized_mbpp', reader_cfg=reader,
         infer_cfg=infer, eval_cfg=dict(evaluator=dict(type=MBPPEvaluator), pred_role='BOT')),
]
""",
    "eval_mbpp_repeat": """
datasets = [
    dict(type=MBPPDataset, abbr='mbpp', path='opencompass/mbpp', infer_cfg=infer,
         reader_cfg=dict(input_columns=['text', 'test_list'], output_column='test_list_2'),
         eval_cfg=dict(evaluator=dict(type=MBPPEvaluator), pred_role='BOT'), n=5, k=3),
]
""",
    "eval_plus": """
datasets = [
    dict(abbr='humaneval_plus', type=HumanevalDataset, path='opencompass/humaneval', reader_cfg=he_reader,
         infer_cfg=infer, eval_cfg=dict(he_eval, evaluator=dict(type=HumanEvalPlusEvaluator))),
    dict(type=MBPPPlusDataset, abbr='mbpp_plus', path='opencompass/mbpp_plus', infer_cfg=infer,
         reader_cfg=dict(input_columns=['text', 'test_list'], output_column='task_id'),
         eval_cfg=dict(evaluator=dict(type=MBPPEvaluator, metric='MBPPPlus'), pred_role='BOT')),
]
""",
    "eval_livecodebench": """
lcb_reader = dict(input_columns=['prompt'], output_column='evaluation_sample')
datasets = [
    dict(type=LCBCodeGenerationDataset, abbr='lcb_code_generation', path='opencompass/code_generation_lite',
         reader_cfg=dict(input_columns=['question_content', 'format_prompt'], output_column='question_id'),
         infer_cfg=infer, eval_cfg=dict(evaluator=dict(type=LCBCodeGenerationEvaluator, num_process_evaluate=4, timeout=6),
                                        pred_role='BOT')),
    dict(type=LCBCodeExecutionDataset, abbr='lcb_code_execution', path='opencompass/execution-v2', reader_cfg=lcb_reader,
         infer_cfg=infer, eval_cfg=dict(evaluator=dict(type=LCBCodeExecutionEvaluator), pred_role='BOT')),
    dict(type=LCBTestOutputPredictionDataset, abbr='lcb_test_output', path='opencompass/test_generation',
         reader_cfg=lcb_reader, infer_cfg=infer, eval_cfg=dict(evaluator=dict(type=LCBTestOutputEvaluator), pred_role='BOT')),
]
""",
}
PREDICTIONS = {"eval_livecodebench": "predictions", "eval_mbpp_repeat": "predictions_repeat", "eval_humaneval": "predictions", "eval_humaneval_repeat": "predictions_repeat", "eval_mbpp": "predictions", "eval_plus": "predictions"}


def _expected(config: str) -> dict[str, dict[str, Any]]:
    folder = FIXTURE / "expected" / config / "chat-model"
    return {p.stem: json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))}


def _run(tmp_path: Path, config_file: Path, predictions: str) -> Path:
    work = tmp_path / "work"
    shutil.copytree(FIXTURE / predictions, work / RUN / "predictions")
    assert main(["eval", str(config_file), "-w", str(work), "-r", RUN]) == 0
    return work / RUN / "results" / "chat-model"


def _unwrap(value: Any) -> Any:
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def _assay_key(oc_key: str, abbr: str) -> str:
    """G-Pass keys per subdivision use the full abbr in assay (a deliberate difference):
    OpenCompass reports 'openai/G-Pass@3_0.5' for the dataset 'openai_humaneval'."""
    head, sep, metric = oc_key.partition("/")
    if sep and "G-Pass@" in metric and abbr.split("_")[0] == head:
        return f"{abbr}/{metric}"
    return oc_key


def _check(results: Path, expected: dict[str, dict[str, Any]]) -> None:
    assert expected
    for abbr, want in expected.items():
        got = read_result(results / f"{abbr}.json")
        assert "error" not in got, got.get("error")
        for oc_key, value in want["metrics"].items():
            key = _assay_key(oc_key, abbr)
            assert key in got, (abbr, key, sorted(got))
            assert got[key] == pytest.approx(value, rel=1e-12, abs=1e-12), (abbr, key)
        if want["details"] and any(want["details"]):  # OpenCompass wrote per-sample details
            details = got["details"]
            assert len(details) == len(want["details"]), abbr
            for i, (mine, theirs) in enumerate(zip(details, want["details"])):
                for field in ("is_correct", "correct", "result", "base_result", "plus_result", "eval_result"):
                    if field in theirs:
                        assert _unwrap(mine[field]) == _unwrap(theirs[field]), (abbr, i, field)


@pytest.fixture
def data_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(FIXTURE))
    monkeypatch.setenv("HUMANEVAL_OVERRIDE_PATH", str(FIXTURE / "data" / "HumanEvalPlus-fixture.jsonl"))
    monkeypatch.setenv("MBPP_OVERRIDE_PATH", str(FIXTURE / "data" / "MbppPlus-fixture.jsonl"))


@pytest.mark.slow
@pytest.mark.parametrize("config", sorted(SETTINGS))
def test_opencompass_settings_give_opencompass_numbers(config: str, tmp_path: Path, data_cache: None) -> None:
    cfg = tmp_path / f"{config}.py"
    cfg.write_text(_HEAD + SETTINGS[config])
    results = _run(tmp_path, cfg, PREDICTIONS[config])
    _check(results, _expected(config))


@pytest.mark.slow
@pytest.mark.parametrize("config", sorted(SETTINGS))
def test_default_configs_unchanged_give_opencompass_numbers(
    config: str, tmp_path: Path, data_cache: None, oc_library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fixture configs import OpenCompass's dataset configs (``humaneval_gen``, ``mbpp_gen``, ...) unchanged."""
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    results = _run(tmp_path, FIXTURE / f"{config}.py", PREDICTIONS[config])
    _check(results, _expected(config))


def test_mbpp_outcomes_keep_could_not_execute_apart(tmp_path: Path, data_cache: None) -> None:
    """The endless loop is a timeout (not executed); wrong answers and crashes are verdicts."""
    from assay.datasets.mbpp import MBPPDataset
    from assay.evaluators.mbpp import MBPPEvaluator

    test = MBPPDataset.load("opencompass/mbpp")["test"]
    preds = json.loads((FIXTURE / "predictions" / "chat-model" / "mbpp.json").read_text())
    replies = [preds[str(i)]["prediction"] for i in range(len(preds))]
    res = MBPPEvaluator(isolation="namespaces", timeout=3).score(replies, list(test["test_list_2"]))
    assert res["outcomes"]["timeout"] == 1
    assert res["outcomes"]["passed"] == res["pass"] == 6
    assert res["outcomes"]["failed"] == res["failed"] + res["wrong_answer"] == 6
    by_result = {d["result"] for d in res["details"]}
    assert by_result == {"pass", "failed", "wrong_answer", "timeout"}
