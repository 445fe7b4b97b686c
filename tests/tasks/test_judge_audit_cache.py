"""The extraction audit of a judge-scored dataset asks the judge only for the answers it reads differently:
its requests identical to the scoring's are answered from the run's judge cache, and a rerun asks nothing."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from assay.audit import declare_correction, withdraw_correction
from assay.cli import main
from assay.postprocess.math import gsm8k_postprocess
from assay.registry import TEXT_POSTPROCESSORS
from tests.judge.fake_server import FakeJudge

pytestmark = pytest.mark.usefixtures("no_builtin_pairs")

FIXED = "tests-judge-audit-gsm8k-fixed"


@TEXT_POSTPROCESSORS.register_module(FIXED)
def gsm8k_fixed(text: str) -> str:
    """A corrected GSM8K reading: the last number with its thousands separators removed."""
    numbers = re.findall(r"-?\d[\d,]*(?:\.\d+)?", str(text))
    return numbers[-1].replace(",", "") if numbers else ""


REPLIES = ["So the total is 1,234 dollars.", "I think 7", "no idea", "Answer: 45.", "It costs $2,500 in all.", "5",
           "We get 3,000 apples.", "12"]
REFERENCES = ["1234", "7", "5", "45", "2500", "5", "3000", "13"]


@pytest.fixture
def fixed_gsm8k() -> Any:
    declare_correction("gsm8k_postprocess", FIXED)
    try:
        yield
    finally:
        withdraw_correction("gsm8k_postprocess")


def _evaluator(kind: str, base_url: str, judge: str) -> str:
    judge_cfg = f"dict(type='OpenAISDK', path={judge!r}, key='k-123456', openai_api_base={base_url!r}, retry=1, timeout=30)"
    generic = (f"dict(type='GenericLLMEvaluator', judge_cfg={judge_cfg},\n"
               "    prompt_template=dict(type='RawPromptTemplate', messages=[\n"
               "        dict(role='user', content='Question: {question}\\nGold: {obj_gold}\\nAnswer: {prediction}\\n')]))")
    if kind == "cascade":
        return f"dict(type='CascadeEvaluator', rule_evaluator=dict(type='AccEvaluator'), llm_evaluator={generic}, parallel=True)"
    if kind == "gaokao":
        return f"dict(type='GaoKaoMATHEvaluator', model_name={judge!r}, url=[{base_url!r}])"
    return generic


def _config(tmp_path: Path, base_url: str, judge: str = "judge-model", kind: str = "generic") -> Path:
    (tmp_path / "d.jsonl").write_text("".join(json.dumps({"question": f"q{i}", "answer": a}) + "\n" for i, a in enumerate(REFERENCES)))
    preds = tmp_path / "work" / "RUN" / "predictions" / "m"
    preds.mkdir(parents=True, exist_ok=True)
    (preds / "d.json").write_text(json.dumps({str(i): {"origin_prompt": [{"role": "HUMAN", "prompt": f"q{i}"}], "prediction": r}
                                              for i, r in enumerate(REPLIES)}))
    cfg = tmp_path / "cfg.py"
    cfg.write_text(
        f"evaluator = {_evaluator(kind, base_url, judge)}\n"
        "datasets = [dict(abbr='d', type='JsonlDataset', path='d.jsonl', reader_cfg=dict(input_columns=['question'], output_column='answer'),"
        " eval_cfg=dict(evaluator=evaluator, pred_postprocessor=dict(type='gsm8k_postprocess')))]\n"
        "models = [dict(abbr='m')]\n"
    )
    return cfg


def _grade(messages: list[dict[str, Any]], attempt: int) -> tuple[Any, ...]:
    """Correct when the answer is the gold one: ``A``/``B`` to the generic prompt, ``\\boxed{yes}``/``{no}`` to the Gaokao one."""
    text = messages[-1]["content"]
    if "标准答案：" in text:
        gold = text.split("标准答案：")[1].split("\n")[0]
        answer = text.split("考生答案：")[1].split("\n")[0]
        return ("reply", "\\boxed{yes}" if gold == answer else "\\boxed{no}")
    gold = text.split("Gold: ")[1].split("\n")[0]
    answer = text.split("Answer: ")[1].split("\n")[0]
    return ("reply", "A" if gold == answer else "B")


def _run(cfg: Path, tmp_path: Path, *extra: str) -> dict[str, Any]:
    assert main(["run", str(cfg), "-w", str(tmp_path / "work"), "-r", "RUN", "--workers", "1", *extra]) == 0
    return json.loads((tmp_path / "work" / "RUN" / "results" / "m" / "d.json").read_text(encoding="utf-8"))


def _accuracy(answers: list[str]) -> float:
    return 100 * sum(a == r for a, r in zip(answers, REFERENCES)) / len(REFERENCES)


@pytest.mark.parametrize("kind", ["generic", "cascade", "gaokao"])
def test_the_audit_asks_the_judge_only_for_the_answers_read_differently(kind: str, tmp_path: Path, fixed_gsm8k: None) -> None:
    official = [gsm8k_postprocess(r) for r in REPLIES]
    corrected = [gsm8k_fixed(r) for r in REPLIES]
    differing = [i for i, (a, b) in enumerate(zip(official, corrected)) if a != b]
    assert 0 < len(differing) < len(REPLIES)
    with FakeJudge(_grade) as server:
        cfg = _config(tmp_path, server.base_url, kind=kind)
        result = _run(cfg, tmp_path)
        # n requests for the scoring, one more for each answer the corrected reading changes: no request twice
        assert server.requests == len(REPLIES) + len(differing)
        assert set(Counter(server.per_prompt).values()) == {1}
        assert result["accuracy"] == pytest.approx(_accuracy(official))
        audit = result["extraction_audit"]
        assert audit["samples"] == differing
        assert audit["metrics"]["accuracy"] == pytest.approx(_accuracy(corrected))
        assert [r["corrected"] for r in audit["readings"]] == [[corrected[i]] for i in differing]

        sent = server.requests
        again = _run(cfg, tmp_path, "--force")  # scored again: every reply, both readings, from the run's cache
        assert server.requests == sent
        assert again["extraction_audit"]["metrics"] == audit["metrics"]
        assert again["accuracy"] == result["accuracy"]


def test_another_judge_model_is_asked_again_by_both_the_scoring_and_the_audit(tmp_path: Path, fixed_gsm8k: None) -> None:
    """The run's cache holds one judge's replies: a run judged by another model asks it for everything."""
    differing = [i for i, r in enumerate(REPLIES) if gsm8k_postprocess(r) != gsm8k_fixed(r)]
    with FakeJudge(_grade) as server:
        _run(_config(tmp_path, server.base_url), tmp_path)
        sent = server.requests
        result = _run(_config(tmp_path, server.base_url, judge="other-judge"), tmp_path, "--force")
        assert server.requests - sent == len(REPLIES) + len(differing)
        assert {b["model"] for b in server.bodies[sent:]} == {"other-judge"}
        assert result["extraction_audit"]["samples"] == differing


@pytest.mark.parametrize("kind", ["generic", "cascade", "gaokao"])
def test_the_audits_judge_requests_are_counted_in_the_results_judge_usage(kind: str, tmp_path: Path, fixed_gsm8k: None) -> None:
    differing = [i for i, r in enumerate(REPLIES) if gsm8k_postprocess(r) != gsm8k_fixed(r)]
    with FakeJudge(_grade) as server:
        result = _run(_config(tmp_path, server.base_url, kind=kind), tmp_path)
        judge = result["_meta"]["judge"]
        # every request the server received is in _meta.judge: the scoring's and the audit's
        assert judge["requests"] == server.requests == len(REPLIES) + len(differing)
        assert judge["calls"] - judge["cached"] == len(REPLIES) + len(differing)
        again = _run(_config(tmp_path, server.base_url, kind=kind), tmp_path, "--force")["_meta"]["judge"]
        # scored again: both readings' prompts answered from the run's cache, none sent
        assert again["requests"] == 0 and again["calls"] == again["cached"] >= len(REPLIES) + len(differing)


def test_the_dry_run_counts_the_audits_judge_requests(tmp_path: Path, fixed_gsm8k: None, capsys: pytest.CaptureFixture[str]) -> None:
    """GenericLLMEvaluator, whose prompts the dry run renders: the estimate is what the run then sends."""
    kind = "generic"
    differing = [i for i, r in enumerate(REPLIES) if gsm8k_postprocess(r) != gsm8k_fixed(r)]
    total = len(REPLIES) + len(differing)
    with FakeJudge(_grade) as server:
        cfg = _config(tmp_path, server.base_url, kind=kind)
        capsys.readouterr()
        assert main(["run", str(cfg), "-w", str(tmp_path / "work"), "-r", "RUN", "--dry-run"]) == 0
        assert f"judge judge-model: {total} calls ({total} prompts, 0 in the reply cache" in capsys.readouterr().out
        assert server.requests == 0
        _run(cfg, tmp_path)
        assert server.requests == total  # the estimate was the requests the run sent
        capsys.readouterr()
        assert main(["run", str(cfg), "-w", str(tmp_path / "work"), "-r", "RUN", "--dry-run", "--force"]) == 0
        assert f"judge judge-model: 0 calls ({total} prompts, {total} in the reply cache" in capsys.readouterr().out
