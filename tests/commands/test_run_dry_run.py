"""``assay run|eval CONFIG --dry-run`` and tasks that cannot run in a real run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from assay.cli import main

CONFIG = """
from assay.evaluate.base import BaseEvaluator


class MissingEvaluator(BaseEvaluator):
    _assay_standin = True


reader = dict(input_columns=['q'], output_column='answer')
ok = dict(abbr='ok', type='JsonlDataset', path='d.jsonl', reader_cfg=reader,
          eval_cfg=dict(evaluator=dict(type='AccEvaluator')))
gold = dict(abbr='gold', type='JsonlDataset', path='absent.jsonl', reader_cfg=reader,
            eval_cfg=dict(evaluator=dict(type='AccEvaluator'), dataset_postprocessor=dict(type='first-capital')))
blocked = dict(abbr='blocked', type='JsonlDataset', path='d.jsonl', reader_cfg=reader,
               eval_cfg=dict(evaluator=dict(type=MissingEvaluator)))
datasets = [ok, gold]
models = [dict(abbr='m', predictions='preds')]
summarizer = dict(summary_groups=[dict(name='avg', subsets=['ok', 'gold'])])
"""


def _config(tmp_path: Path, *, blocked: bool = False) -> Path:
    (tmp_path / "d.jsonl").write_text('{"q": "x", "answer": "A"}\n{"q": "y", "answer": "B"}\n')
    preds = tmp_path / "preds"
    preds.mkdir(exist_ok=True)
    for abbr in ("ok", "gold", "blocked"):
        records = {"0": {"prediction": "A", "gold": "a A"}, "1": {"prediction": "C", "gold": "b B"}}
        (preds / f"{abbr}.json").write_text(json.dumps(records))
    cfg = tmp_path / "cfg.py"
    cfg.write_text(CONFIG + ("datasets.append(blocked)\n" if blocked else ""))
    return cfg


@pytest.mark.parametrize("command", ["run", "eval"])
def test_dry_run_lists_every_task_and_exits_0_when_all_can_run(tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    cfg = _config(tmp_path)
    work = tmp_path / "w"
    assert main([command, str(cfg), "-w", str(work), "--dry-run"]) == 0
    out = capsys.readouterr().out.splitlines()
    tasks = [line for line in out if line.startswith(("ok", "CANNOT"))]
    assert tasks == [
        "ok     m/ok: loader JsonlDataset [built in]; evaluator AccEvaluator [built in]; postprocessors none; references from data",
        "ok     m/gold: loader JsonlDataset [built in]; evaluator AccEvaluator [built in]; "
        "postprocessors dataset first-capital [built in]; references from gold",
    ]
    assert any("absent.jsonl" in line and "`gold`" in line for line in out)
    assert out[-1] == "2 tasks: 2 can run, 0 cannot"
    assert not work.exists(), "a dry run writes nothing"


def test_dry_run_exits_1_and_lists_the_tasks_that_cannot_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _config(tmp_path, blocked=True)
    assert main(["eval", str(cfg), "-w", str(tmp_path / "w"), "--dry-run"]) == 1
    out = capsys.readouterr().out
    assert "CANNOT m/blocked: loader JsonlDataset [built in]; evaluator MissingEvaluator [stand-in]" in out
    assert "3 tasks: 2 can run, 1 cannot" in out
    tail = out.split("tasks that cannot run:\n", 1)[1]
    assert tail.startswith("  m/blocked: eval_cfg.evaluator.type is") and "MissingEvaluator. assay does not implement" in tail


def test_dry_run_exits_2_for_a_configuration_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _config(tmp_path)
    cfg.write_text(cfg.read_text().replace("models = [dict(abbr='m', predictions='preds')]", "models = [dict(abbr='m'), dict(abbr='m')]"))
    assert main(["eval", str(cfg), "-w", str(tmp_path / "w"), "--dry-run"]) == 2
    assert "model abbr 'm' is used twice" in capsys.readouterr().err
    cfg.write_text(CONFIG + "summarizer = dict(summary_groups=[dict(name='avg')])\n")
    assert main(["run", str(cfg), "-w", str(tmp_path / "w"), "--dry-run"]) == 2  # the summary is checked too


def test_dry_run_checks_the_predictions_of_the_run_it_would_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _config(tmp_path)
    cfg.write_text(cfg.read_text().replace("predictions='preds'", "path='m'"))
    work = tmp_path / "w"
    assert main(["eval", str(cfg), "-w", str(work), "--dry-run"]) == 1
    assert "(new)" in capsys.readouterr().out
    run = work / "20240101_000000" / "predictions" / "m"
    run.mkdir(parents=True)
    for abbr in ("ok", "gold"):
        (run / f"{abbr}.json").write_text((tmp_path / "preds" / f"{abbr}.json").read_text())
    assert main(["eval", str(cfg), "-w", str(work), "-r", "--dry-run"]) == 0


def test_a_real_run_fails_only_the_tasks_that_cannot_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _config(tmp_path, blocked=True)
    work = tmp_path / "w"
    assert main(["eval", str(cfg), "-w", str(work), "--workers", "1"]) == 1
    err = capsys.readouterr().err
    assert "m/blocked cannot run: eval_cfg.evaluator.type is" in err
    (run,) = work.iterdir()
    results = {p.stem: json.loads(p.read_text()) for p in (run / "results" / "m").glob("*.json")}
    assert results["ok"]["accuracy"] == 50.0
    assert results["gold"]["accuracy"] == 50.0 and results["gold"]["_meta"]["references"] == "gold"
    assert "MissingEvaluator. assay does not implement" in results["blocked"]["error"]
    assert "3 tasks: 2 scored, 0 reused, 1 failed" in err


#: One mistake of each kind OpenCompass's config library holds, in datasets of their own.
BAD_DATASETS = """
ok2 = dict(ok, abbr='ok2')
datasets += [
    dict(ok, abbr='tuple', reader_cfg=(reader,)),
    dict(ok, abbr='none', eval_cfg=dict(evaluator=None)),
    {k: v for k, v in dict(ok, abbr='notype').items() if k != 'type'},
    dict(ok, abbr='unknown', eval_cfg=dict(evaluator=dict(type='NoSuchEvaluator'))),
    dict(ok, abbr='dup'), dict(ok, abbr='dup', path='absent.jsonl'),
    ok2, dict(ok2),
]
"""
BAD_TASKS = {
    "m/tuple": "datasets[2] ('tuple'): reader_cfg must be a dict, got (",
    "m/none": "datasets[3] ('none'): eval_cfg.evaluator must be dict(type=...), got None",
    "m/notype": "datasets[4] ('notype'): no loader 'type'",
    "m/unknown": "datasets[5] ('unknown'): eval_cfg.evaluator.type='NoSuchEvaluator' is not a registered name",
    "m/dup": "datasets[6] ('dup'): dataset abbr 'dup' is used by datasets[6], datasets[7] with different configs",
}


def _bad_config(tmp_path: Path) -> Path:
    cfg = _config(tmp_path)
    cfg.write_text(cfg.read_text() + BAD_DATASETS)
    for abbr in ("ok2", "dup", "tuple", "none", "notype", "unknown"):
        (tmp_path / "preds" / f"{abbr}.json").write_text((tmp_path / "preds" / "ok.json").read_text())
    return cfg


def test_a_bad_dataset_fails_only_its_tasks_in_a_dry_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    cfg = _bad_config(tmp_path)
    assert main(["eval", str(cfg), "-w", str(tmp_path / "w"), "--dry-run"]) == 1
    out = capsys.readouterr().out
    assert "ok     m/ok:" in out and "ok     m/gold:" in out and "ok     m/ok2:" in out
    assert "CANNOT m/notype: loader (none) [missing]" in out
    assert "evaluator NoSuchEvaluator [unknown]" in out
    tail = out.split("tasks that cannot run:\n", 1)[1].splitlines()
    for task, why in BAD_TASKS.items():
        assert any(line.startswith(f"  {task}: {cfg}: {why}") for line in tail), (task, tail)
    assert sum(line.startswith("  m/dup: ") for line in tail) == 2, "both datasets named 'dup' are affected"
    # the repeated ok2 is one task, said so
    assert "9 tasks: 3 can run, 6 cannot" in out
    assert "datasets[9] = datasets[8] ('ok2')" in caplog.text


def test_a_real_run_scores_the_good_datasets_and_names_the_bad_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _bad_config(tmp_path)
    work = tmp_path / "w"
    assert main(["run", str(cfg), "-w", str(work), "--workers", "1", "--no-report"]) == 1
    err = capsys.readouterr().err
    (run,) = work.iterdir()
    results = {p.stem: json.loads(p.read_text()) for p in (run / "results" / "m").glob("*.json")}
    assert results["ok"]["accuracy"] == results["ok2"]["accuracy"] == results["gold"]["accuracy"] == 50.0
    for task, why in BAD_TASKS.items():
        assert f"{task} cannot run: {cfg}: {why}" in err
        assert why.split("): ", 1)[1] in results[task.split("/")[1]]["error"]  # both 'dup' tasks write one file
    assert "9 tasks: 3 scored, 0 reused, 6 failed" in err


JUDGED = """
judge_cfg = dict(type='OpenAISDK', path='judge-model', key='k-123456', openai_api_base={url!r}, retry=1, timeout=30,
                 max_out_len=16, temperature=0, price=dict(input=1.0, output=4.0))
template = dict(type='RawPromptTemplate', messages=[dict(role='user', content='Q: {{q}}\\nGold: {{obj_gold}}\\nAnswer: {{prediction}}')])
judge = dict(type='GenericLLMEvaluator', judge_cfg=judge_cfg, prompt_template=template)
reader = dict(input_columns=['q'], output_column='answer')
datasets = [
    dict(abbr='judged', type='JsonlDataset', path='d.jsonl', reader_cfg=reader, n=2, eval_cfg=dict(evaluator=judge)),
    dict(abbr='cascade', type='JsonlDataset', path='d.jsonl', reader_cfg=reader, eval_cfg=dict(evaluator=dict(
        type='CascadeEvaluator', rule_evaluator=dict(type='AccEvaluator'), llm_evaluator=judge, parallel=False))),
]
models = [dict(abbr='m', predictions='preds')]
"""


def test_dry_run_says_how_many_judge_calls_each_judged_task_would_make(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sample × replica, minus the prompts the run's reply cache holds (rendered as the run renders
    them), with the cost's bound at the price set; the cascade's count marked as an upper bound."""
    from tests.judge.fake_server import FakeJudge

    monkeypatch.setitem(sys.modules, "tiktoken", None)  # prompt tokens by the UTF-8 rule
    (tmp_path / "d.jsonl").write_text("".join(json.dumps({"q": f"{i}+{i}", "answer": str(2 * i)}) + "\n" for i in range(3)))
    (tmp_path / "preds").mkdir()
    answers = ["0", "3", "4", "0", "2", "5"]  # two runs of three samples
    (tmp_path / "preds" / "judged.json").write_text(json.dumps({str(i): {"prediction": a} for i, a in enumerate(answers)}))
    (tmp_path / "preds" / "cascade.json").write_text(json.dumps({str(i): {"prediction": a} for i, a in enumerate(answers[:3])}))
    flaky = {"Q: 1+1\nGold: 2\nAnswer: 3"}  # this prompt fails in the real run below

    def grade(messages, attempt):
        text = messages[-1]["content"]
        return ("status", 500) if text in flaky else ("reply", "A")

    work = tmp_path / "w"
    with FakeJudge(grade) as server:
        cfg = tmp_path / "cfg.py"
        cfg.write_text(JUDGED.format(url=server.base_url))
        assert main(["run", str(cfg), "-w", str(work), "-r", "RUN", "--dry-run"]) == 0
        out = capsys.readouterr().out
        assert server.requests == 0 and not work.exists()
        lines = [line.strip() for line in out.splitlines() if line.strip().startswith("judge ")]
        # each prompt as sent, "Q: 0+0\nGold: 0\nAnswer: 0": 24 bytes, +4 for its message, +3 for the reply
        assert lines[0].startswith("judge judge-model: 6 calls (6 prompts, 0 in the reply cache); cost at most 0.0006 "
                                   "(prompt tokens 186 by UTF-8 bytes")
        assert "replies 96 at max_out_len" in lines[0]  # 6 × 16
        assert lines[1].startswith("judge judge-model: at most 3 calls (3 prompts, 0 in the reply cache) — an upper bound: "
                                   "parallel=False: the judge sees only the samples the rule step does not find correct")

        main(["run", str(cfg), "-w", str(work), "-r", "RUN", "--workers", "1"])
        capsys.readouterr()
        sent = server.requests
        assert main(["run", str(cfg), "-w", str(work), "-r", "RUN", "--dry-run"]) == 0
        out = capsys.readouterr().out
        assert server.requests == sent
        lines = [line.strip() for line in out.splitlines() if line.strip().startswith(("judge ", "no judge calls"))]
        # the failed prompt is asked again; the cascade's result is complete (its judge saw "3" only): reused
        assert lines[0].startswith("judge judge-model: 1 calls (6 prompts, 5 in the reply cache); cost at most")
        assert lines[1] == "no judge calls: the result would be reused (inputs unchanged)"
