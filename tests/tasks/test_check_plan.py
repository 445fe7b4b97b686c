"""check_plan: which implementation serves each component of each task, and whether it can run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.config import load_config
from assay.errors import ConfigError
from assay.rundir.layout import RunDir
from assay.tasks.plan import check_plan

CONFIG = """
from assay.evaluate.base import BaseEvaluator
from assay.registry import TEXT_POSTPROCESSORS


class MissingEvaluator(BaseEvaluator):
    '''What a name assay does not implement resolves to.'''
    _assay_standin = True


class MissingLoader:
    _assay_standin = True


class MineEvaluator(BaseEvaluator):
    def score(self, predictions, references):
        return {'accuracy': 0.0}


def mine_post(text):
    return text


# OpenCompass's own class, as it is served when OpenCompass is installed
OwnEvaluator = type('OwnEvaluator', (MineEvaluator,), {'__module__': 'opencompass.openicl.icl_evaluator'})

reader = dict(input_columns=['q'], output_column='answer')
datasets = [
    dict(abbr='plain', type='JsonlDataset', path='d.jsonl', reader_cfg=reader,
         eval_cfg=dict(evaluator=dict(type='AccEvaluator'), pred_postprocessor=dict(type='first-capital'))),
    dict(abbr='mine', type='JsonlDataset', path='d.jsonl', reader_cfg=reader,
         eval_cfg=dict(evaluator=dict(type=MineEvaluator), pred_postprocessor=dict(type=mine_post))),
    dict(abbr='missing-eval', type='JsonlDataset', path='d.jsonl', reader_cfg=reader,
         eval_cfg=dict(evaluator=dict(type=MissingEvaluator))),
    dict(abbr='missing-loader', type=MissingLoader, path='d.jsonl', reader_cfg=reader,
         eval_cfg=dict(evaluator=dict(type=OwnEvaluator),
                       dataset_postprocessor=dict(type='opencompass.utils.text_postprocessors.first_capital_postprocess'))),
    dict(abbr='no-data', type='opencompass.datasets.CustomDataset', path='opencompass/gsm8k', reader_cfg=reader,
         eval_cfg=dict(evaluator=dict(type='HumanEvalEvaluator'))),
]
models = [dict(abbr='m', predictions='preds', pred_postprocessor=dict(type='first-capital'))]
"""


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d.jsonl").write_text('{"q": "x", "answer": "A"}\n')
    (tmp_path / "preds").mkdir()
    for abbr in ("plain", "mine", "missing-eval", "missing-loader"):
        (tmp_path / "preds" / f"{abbr}.json").write_text(json.dumps({"0": {"prediction": "A", "gold": "A"}}))
    cfg = tmp_path / "cfg.py"
    cfg.write_text(CONFIG)
    return cfg


def test_each_component_is_marked_with_its_origin(config: Path) -> None:
    checks = {c.dataset: c for c in check_plan(load_config(config))}
    plain = checks["plain"]
    assert plain.loader.describe() == "JsonlDataset [built in]"
    assert plain.evaluator.describe() == "AccEvaluator [built in]"
    assert [(p.role, p.describe()) for p in plain.postprocessors] == [
        ("model pred", "first-capital [built in]"),
        ("pred", "first-capital [built in]"),
    ]
    assert plain.references == "data" and plain.can_run and plain.data is not None and plain.data.exists
    mine = checks["mine"]
    assert mine.evaluator.origin == "user-registered" and mine.postprocessors[1].origin == "user-registered"
    assert mine.can_run
    assert checks["missing-loader"].evaluator.origin == "OpenCompass"
    assert checks["missing-loader"].postprocessors[-1].role == "dataset"


def test_a_stand_in_evaluator_makes_only_its_task_unrunnable(config: Path) -> None:
    checks = {c.dataset: c for c in check_plan(load_config(config))}
    missing = checks["missing-eval"]
    assert missing.evaluator.origin == "stand-in" and not missing.can_run
    (problem,) = missing.problems
    assert "eval_cfg.evaluator.type is" in problem and "MissingEvaluator. assay does not implement" in problem
    assert "install OpenCompass" in problem and "register an implementation under the name" in problem
    assert checks["plain"].can_run and checks["mine"].can_run


def test_a_stand_in_loader_takes_references_from_gold(config: Path) -> None:
    check = {c.dataset: c for c in check_plan(load_config(config))}["missing-loader"]
    assert check.loader.origin == "stand-in"
    assert check.references == "gold" and check.can_run
    assert "MissingLoader is a stand-in" in check.notes[0]
    assert "references from gold" in check.line() and check.line().startswith("ok")


def test_absent_data_with_an_evaluator_that_reads_the_test_set_cannot_run(config: Path) -> None:
    check = {c.dataset: c for c in check_plan(load_config(config))}["no-data"]
    assert not check.can_run and check.line().startswith("CANNOT")
    reasons = " ".join(check.problems)
    assert "dataset id 'opencompass/gsm8k' not found" in reasons and "./data/gsm8k/" in reasons
    assert "HumanEvalEvaluator reads the test set" in reasons


def test_prediction_files_are_checked_with_a_run_directory(config: Path, tmp_path: Path) -> None:
    without = {c.dataset: c for c in check_plan(load_config(config))}
    # the model names its predictions folder: checked even without a run directory
    assert any("no predictions for dataset 'no-data'" in p for p in without["no-data"].problems)
    cfg = config.read_text().replace("predictions='preds', ", "")
    config.write_text(cfg)
    assert check_plan(load_config(config))[0].can_run  # nothing says where predictions are: not checked
    run = RunDir(tmp_path / "w" / "20240101_000000")
    assert all(any("prediction folder" in p for p in c.problems) for c in check_plan(load_config(config), run))


def test_a_configuration_error_of_the_whole_config_raises(config: Path) -> None:
    config.write_text(config.read_text().replace("models = [dict(abbr='m',", "models = [dict(abbr='',"))
    with pytest.raises(ConfigError, match=r"models\[0\].*'abbr' must be a non-empty string"):
        check_plan(load_config(config))


def test_a_mistake_in_one_dataset_makes_only_its_task_unrunnable(config: Path) -> None:
    config.write_text(config.read_text().replace("type='AccEvaluator'", "type='NoSuchEvaluator'", 1))
    checks = {c.dataset: c for c in check_plan(load_config(config))}
    plain = checks.pop("plain")
    assert not plain.can_run and plain.evaluator.describe() == "NoSuchEvaluator [unknown]"
    (problem,) = plain.problems
    assert problem.startswith(f"{config}: datasets[0] ('plain'): eval_cfg.evaluator.type='NoSuchEvaluator' is not a registered name")
    assert checks["mine"].can_run and checks["missing-loader"].can_run


def test_planning_resolves_each_tasks_postprocessors_and_audit_once(config: Path, tmp_path: Path) -> None:
    from assay.postprocess.general import first_capital_postprocess
    from assay.tasks.plan import plan_tasks

    config.write_text(config.read_text().replace("pred_postprocessor=dict(type='first-capital'))),",
                                                 "pred_postprocessor=dict(type='first_option_postprocess', options='ABCD'))),", 1))
    tasks = {t.dataset_abbr: t for t in plan_tasks(load_config(config), RunDir(tmp_path / "run"))}
    plain = tasks["plain"].chain
    assert plain is not None
    assert plain.types[0] is first_capital_postprocess and plain.types[1].__name__ == "first_option_postprocess"
    assert plain.types[2] is None
    # the audit the workers run, planned with the task: the official extractor and its corrected counterpart
    assert [(c["at"], c["official"], c["corrected"]) for c in plain.audit.describe()] == [
        ("eval_cfg.pred_postprocessor", "first_option_postprocess", "first_option_extract")]
    assert tasks["mine"].chain is not None and tasks["mine"].chain.audit is None
