"""Components of OpenCompass's library that cannot be scored offline: the dry run says why, plainly."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.cli import main
from assay.opencompass import OFFLINE_LIMITS, OFFLINE_REASONS, unavailable_message


def test_every_limit_names_a_documented_reason() -> None:
    assert OFFLINE_LIMITS
    for dotted, (reason, detail) in OFFLINE_LIMITS.items():
        assert reason in OFFLINE_REASONS, dotted
        assert detail and dotted.startswith("opencompass.")
    docs = (Path(__file__).resolve().parents[2] / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    for reason, meaning in OFFLINE_REASONS.items():
        assert f"| {reason} |" in docs and meaning in docs


def test_message_says_the_reason_and_keeps_the_other_names() -> None:
    lcb = "opencompass.datasets.livecodebench_pro.livecodebench_pro_evaluator.LCBProEvaluator"
    message = unavailable_message([lcb, "opencompass.datasets.x.XDataset"])
    assert message.startswith(f"{lcb} cannot be scored offline (remote service): OpenCompass submits each program")
    assert "assay does not implement opencompass.datasets.x.XDataset" in message


@pytest.mark.parametrize(("folder", "file", "said"), [
    ("livecodebench_pro", "livecodebench_pro_gen", "LCBProEvaluator cannot be scored offline (remote service)"),
    ("MMBench", "MMBench_DEV_EN_vlmevalkit_gen", "VLMEvalKitEvaluator cannot be scored offline (multimodal)"),
    ("teval", "teval_en_gen_1ac254", "TEvalEvaluator cannot be scored offline (model weights)"),
    ("dingo", "dingo_gen", "DingoEvaluator cannot be scored offline (model weights): OpenCompass hands the replies to "
                           "dingo-python's llm_base rules"),
    ("truthfulqa", "truthfulqa_gen_5ddc62", "TruthfulQAEvaluator cannot be scored offline (scorer outside PyPI)"),
    ("SciReasoner", "unconditional_RNA_gen", "RNA_Evaluator cannot be scored offline (program outside PyPI and Debian): "
                                             "unconditional RNA generation folds each reply with ViennaRNA's RNAfold program"),
    ("codecompass", "codecompass_gen_079a6c", "CodeCompassEvaluator cannot be scored offline (Hub loading script): it "
                                              "loads the whole of opencompass/CodeCompass"),
    ("IFBench", "IFBench_gen", "IFBenchEvaluator cannot be scored offline (NLTK data): IFBench's checkers read NLTK's English stop words"),
])
def test_dry_run_says_why_a_library_file_cannot_be_scored_offline(
    oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    folder: str, file: str, said: str,
) -> None:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text(
        "from mmengine.config import read_base\n\nwith read_base():\n"
        f"    from opencompass.configs.datasets.{folder}.{file} import *\n"
        "datasets = [d for k, v in list(locals().items()) if k.endswith('datasets') and isinstance(v, list) for d in v]\n"
        "models = [dict(abbr='m', path='org/m')]\n", encoding="utf-8")
    assert main(["eval", str(config), "-w", str(tmp_path / "work"), "--dry-run"]) == 1
    out = capsys.readouterr()
    assert said in out.out + out.err
