"""Secrets never land in run directories (R-12.5): dumped configs hold ``'<redacted>'``, and a
re-run from a dumped config reads the key from the environment or says which variable to set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.cli import main
from tests.judge.fake_server import FakeJudge

SECRETS = ("sk-inline-judge-0001", "sk-model-0002", "sk-header-0003", "sk-top-0004", "hf-token-0005")

CONFIG = """
from opencompass.evaluator import GenericLLMEvaluator
from opencompass.openicl.icl_prompt_template import PromptTemplate

api_key = 'sk-top-0004'
template = dict(type=PromptTemplate, template=dict(round=[dict(role='HUMAN', prompt='Q: {{question}}\\nAnswer: {{prediction}}')]))
judge = dict(type='OpenAISDK', path='judge-model', key='sk-inline-judge-0001', openai_api_base='{url}', retry=1,
             timeout=5, max_workers=2, extra_body=dict(headers={{'X-Api-Key': 'sk-header-0003'}}))
datasets = [dict(abbr='qa', type='JsonlDataset', path='d.jsonl', reader_cfg=dict(input_columns=['question'], output_column='answer'),
                 eval_cfg=dict(evaluator=dict(type=GenericLLMEvaluator, prompt_template=template, judge_cfg=judge)))]
models = [dict(abbr='m', predictions='preds', key='sk-model-0002', token='hf-token-0005',
               headers={{'Authorization': 'Bearer sk-header-0003'}}, openai_api_key='ENV')]
"""


@pytest.fixture
def judge() -> FakeJudge:
    with FakeJudge(lambda messages, attempt: ("reply", "A")) as server:
        yield server


@pytest.fixture
def config(tmp_path: Path, judge: FakeJudge, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("OC_JUDGE_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # the dumped config's relative paths are read from here
    (tmp_path / "d.jsonl").write_text('{"question": "1+1", "answer": "2"}\n{"question": "2+2", "answer": "4"}\n')
    (tmp_path / "preds").mkdir()
    records = {"0": {"prediction": "2", "gold": "2"}, "1": {"prediction": "4", "gold": "4"}}
    (tmp_path / "preds" / "qa.json").write_text(json.dumps(records))
    cfg = tmp_path / "cfg.py"
    cfg.write_text(CONFIG.format(url=judge.base_url))
    return cfg


def _dumped(work: Path) -> list[str]:
    return [p.read_text() for p in sorted(work.glob("*/configs/*.py"))]


def test_dumped_configs_hold_no_secret_and_a_rerun_reuses_the_result(config: Path, tmp_path: Path, judge: FakeJudge) -> None:
    work = tmp_path / "w"
    assert main(["run", str(config), "-w", str(work), "--workers", "1", "--no-report"]) == 0
    assert judge.requests == 2 and all(h.get("Authorization") == "Bearer sk-inline-judge-0001" for h in judge.headers)
    (text,) = _dumped(work)
    for secret in SECRETS:
        assert secret not in text
    assert "'key': '<redacted>'" in text and "'Authorization': '<redacted>'" in text and "api_key = '<redacted>'" in text
    assert "'openai_api_key': 'ENV'" in text
    assert f"'openai_api_base': '{judge.base_url}'" in text  # everything else as it was
    (run,) = work.iterdir()
    # the dumped config is read again: summarize and a re-run need no key (the result is reused)
    assert main(["summarize", "-w", str(work), "-r", "--no-report"]) == 0
    assert main(["eval", "-w", str(work), "-r", "--workers", "1"]) == 0
    assert judge.requests == 2
    for text in _dumped(work):
        assert not any(secret in text for secret in SECRETS)
    assert json.loads((run / "results" / "m" / "qa.json").read_text())["_meta"]["fingerprint"]


def test_a_rerun_from_a_dumped_config_takes_the_key_from_the_environment(
    config: Path, tmp_path: Path, judge: FakeJudge, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    work = tmp_path / "w"
    assert main(["eval", str(config), "-w", str(work), "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["eval", "-w", str(work), "-r", "--workers", "1", "--force"]) == 1
    err = capsys.readouterr().err
    assert "the judge's API key was redacted when the config was dumped; set OC_JUDGE_API_KEY or OPENAI_API_KEY" in err
    assert judge.requests == 2, "no request went out with the placeholder"
    monkeypatch.setenv("OC_JUDGE_API_KEY", "sk-from-env-0006")
    assert main(["eval", "-w", str(work), "-r", "--workers", "1", "--force"]) == 0
    assert judge.requests == 4 and judge.headers[-1]["Authorization"] == "Bearer sk-from-env-0006"
    assert not any("sk-from-env-0006" in text for text in _dumped(work))


URL_CONFIG = """
from opencompass.evaluator import GenericLLMEvaluator
from opencompass.openicl.icl_prompt_template import PromptTemplate

mirror = 'https://mirror.example/data.jsonl?token=sk-url-query-0008&split=test'
template = dict(type=PromptTemplate, template=dict(round=[dict(role='HUMAN', prompt='Q: {{question}}\\nAnswer: {{prediction}}')]))
judge = dict(type='OpenAISDK', path='judge-model', key='ENV', openai_api_base='{url}', retry=1, timeout=5, max_workers=2)
datasets = [dict(abbr='qa', type='JsonlDataset', path='d.jsonl', reader_cfg=dict(input_columns=['question'], output_column='answer'),
                 eval_cfg=dict(evaluator=dict(type=GenericLLMEvaluator, prompt_template=template, judge_cfg=judge)))]
models = [dict(abbr='m', predictions='preds')]
"""


def _url_config(tmp_path: Path, base_url: str) -> Path:
    (tmp_path / "d.jsonl").write_text('{"question": "1+1", "answer": "2"}\n{"question": "2+2", "answer": "4"}\n')
    (tmp_path / "preds").mkdir(exist_ok=True)
    records = {"0": {"prediction": "2", "gold": "2"}, "1": {"prediction": "4", "gold": "4"}}
    (tmp_path / "preds" / "qa.json").write_text(json.dumps(records))
    cfg = tmp_path / "cfg.py"
    cfg.write_text(URL_CONFIG.format(url=base_url))
    return cfg


def test_credentials_inside_urls_never_reach_the_run_directory(
    tmp_path: Path, judge: FakeJudge, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OC_JUDGE_API_KEY", "sk-env-0009")
    monkeypatch.chdir(tmp_path)
    with_password = judge.base_url.replace("http://", "http://judge-user:sk-url-pass-0007@")
    work = tmp_path / "w"
    assert main(["run", str(_url_config(tmp_path, with_password)), "-w", str(work), "--workers", "1", "--no-report"]) == 0
    assert judge.requests == 2
    (text,) = _dumped(work)
    assert "sk-url-pass-0007" not in text and "sk-url-query-0008" not in text
    assert "judge-user:<redacted>@127.0.0.1" in text
    assert "mirror.example/data.jsonl?token=<redacted>&split=test" in text
    capsys.readouterr()
    # the dumped URL cannot be filled from the environment: the judge is not asked through it
    assert main(["eval", "-w", str(work), "-r", "--workers", "1", "--force"]) == 1
    err = capsys.readouterr().err
    assert "held credentials that were redacted when the config was dumped" in err and "sk-url-pass-0007" not in err
    assert judge.requests == 2


def test_a_failing_judge_url_with_credentials_is_reported_without_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.judge.fake_server import free_port

    monkeypatch.setenv("OC_JUDGE_API_KEY", "sk-env-0009")
    monkeypatch.chdir(tmp_path)
    url = f"http://judge-user:sk-url-pass-0007@127.0.0.1:{free_port()}/v1"  # nothing listens there
    work = tmp_path / "w"
    assert main(["run", str(_url_config(tmp_path, url)), "-w", str(work), "--workers", "1", "--no-report"]) == 1
    captured = capsys.readouterr()
    assert "sk-url-pass-0007" not in captured.out + captured.err
    written = [p.read_bytes() for p in work.rglob("*") if p.is_file()]
    assert written and not any(b"sk-url-pass-0007" in data for data in written)
