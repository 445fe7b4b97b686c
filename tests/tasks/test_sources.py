"""Other tools' logged replies scored again by assay (``datasets=[dict(predictions=dict(source=…))]``): the
recorded lm-evaluation-harness, inspect_ai and HELM outputs, each re-score computed here from the logged replies."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.errors import InputFileError
from assay.rundir.layout import RunDir
from assay.rundir.sources import write_source_predictions

DATA = Path(__file__).parents[1] / "data" / "sources"
LM_EVAL = DATA / "lm_eval" / "out"
INSPECT = DATA / "inspect_ai" / "logs" / "json"
HELM = DATA / "helm" / "benchmark_output" / "runs" / "assay"

GSM8K_EVAL = ("eval_cfg=dict(evaluator=dict(type='Gsm8kEvaluator'), pred_postprocessor=dict(type='gsm8k_postprocess')"
              "{extra})")


def _run(tmp_path: Path, body: str) -> tuple[int, Path | None]:
    config = tmp_path / "config.py"
    config.write_text(body + f"\nwork_dir = {str(tmp_path / 'out')!r}\n")
    status = main(["run", str(config)])
    runs = list((tmp_path / "out").iterdir()) if (tmp_path / "out").exists() else []
    return status, (runs[0] if runs else None)


def _result(run: Path, model: str, dataset: str) -> dict[str, Any]:
    return json.loads((run / "results" / model / f"{dataset}.json").read_text())


def _csv(run: Path) -> dict[tuple[str, str], dict[str, str]]:
    (path,) = (run / "summary").glob("summary_*.csv")
    return {(r["dataset"].replace(" ", ","), r["metric"].replace(" ", ",")): r for r in csv.DictReader(path.open())}


def _last_number(reply: str) -> str:
    """The last number of the text before any further ``Question:`` (as OpenCompass's gsm8k_postprocess reads a reply)."""
    numbers = re.findall(r"-?\d+\.\d+|-?\d+", reply.split("Question:")[0])
    return numbers[-1] if numbers else ""


def _lm_eval_samples(model: str, task: str, filter_name: str) -> list[dict[str, Any]]:
    (path,) = (LM_EVAL / model).glob(f"samples_{task}_*.jsonl")
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return sorted((r for r in rows if r["filter"] == filter_name), key=lambda r: r["doc_id"])


LM_EVAL_CONFIG = f"""
datasets = [dict(abbr='arith-assay',
                 predictions=dict(source='lm_eval', path={str(LM_EVAL)!r}, task='assay_arith', extraction='strict-match'),
                 {GSM8K_EVAL.format(extra=", dataset_postprocessor=dict(type='gsm8k_dataset_postprocess')")})]
sources = [dict(type='lm_eval', path={str(LM_EVAL)!r}, datasets={{'assay_arith': 'arith-lm_eval'}})]
"""


@pytest.fixture(scope="module")
def lm_eval_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    status, run = _run(tmp_path_factory.mktemp("lm_eval"), LM_EVAL_CONFIG)
    assert status == 0 and run is not None
    return run


def test_lm_evals_recorded_files_name_the_tasks_beside_them() -> None:
    """lm-evaluation-harness's results name the file of each task it ran: the task files recorded beside them."""
    tasks = LM_EVAL.parent / "tasks"
    found = sorted(LM_EVAL.glob("*/results_*.json"))
    assert [f.parent.name for f in found] == ["scripted-a", "scripted-b"]
    for results in found:
        configs = json.loads(results.read_text(encoding="utf-8"))["configs"]
        assert sorted(configs) == ["assay_arith", "assay_mcq_a", "assay_mcq_b"], results
        for task, config in configs.items():
            source = config["metadata"]["config_source"]
            assert (LM_EVAL.parent / source).parent == tasks and (LM_EVAL.parent / source).is_file(), (results, task, source)


def test_lm_eval_replies_scored_by_assay_give_the_accuracy_of_their_last_numbers(lm_eval_run: Path) -> None:
    for model in ("scripted-a", "scripted-b"):
        samples = _lm_eval_samples(model, "assay_arith", "strict-match")
        right = [_last_number(s["resps"][0][0]) == s["target"].split("#### ")[-1].replace(",", "") for s in samples]
        result = _result(lm_eval_run, model, "arith-assay")
        assert result["accuracy"] == pytest.approx(100 * sum(right) / len(right))
        assert len(result["details"]) == len(samples)


def test_the_summary_shows_lm_evals_number_and_assays_re_score_side_by_side(lm_eval_run: Path) -> None:
    rows = _csv(lm_eval_run)
    # scripted-a: lm-evaluation-harness's strict regex finds 12 of 24 right; OpenCompass's extraction 15
    assert rows[("arith-lm_eval", "exact_match,strict-match")]["scripted-a"] == "50.00"
    assert rows[("arith-assay", "accuracy")]["scripted-a"] == "62.50"
    assert rows[("arith-assay", "accuracy")]["scripted-b"] == f"{_result(lm_eval_run, 'scripted-b', 'arith-assay')['accuracy']:.2f}"


def test_the_result_names_the_tool_its_version_and_files(lm_eval_run: Path) -> None:
    meta = _result(lm_eval_run, "scripted-a", "arith-assay")["_meta"]
    rescored = meta["rescored"]
    assert rescored["tool"] == "lm_eval" and rescored["version"] == "0.4.13" and rescored["task"] == "assay_arith"
    assert Path(rescored["path"]).name.startswith("results_") and Path(rescored["samples_path"]).name.startswith("samples_assay_arith_")
    assert meta["evaluator"] == "Gsm8kEvaluator" and meta["references"] == "gold"
    assert "source" not in meta  # assay's own score, not the tool's


def test_lm_evals_own_extraction_is_compared_and_the_disagreements_counted(lm_eval_run: Path) -> None:
    for model in ("scripted-a", "scripted-b"):
        samples = _lm_eval_samples(model, "assay_arith", "strict-match")
        differ = [i for i, s in enumerate(samples) if s["filtered_resps"][0] != (_last_number(s["resps"][0][0]) or "NULL")]
        audit = _result(lm_eval_run, model, "arith-assay")["_meta"]["rescored"]["extraction_audit"]
        assert audit["corrections"][0]["corrected"] == "lm_eval strict-match"
        assert (audit["replies"], audit["differ"], audit["samples"]) == (len(samples), len(differ), differ)
        assert [r["corrected"] for r in audit["readings"]] == [[samples[i]["filtered_resps"][0]] for i in differ]
        # lm-evaluation-harness's answers, scored by the same evaluator, give lm-evaluation-harness's number
        reported = sum(s["exact_match"] for s in samples) / len(samples)
        assert audit["metrics"]["accuracy"] == pytest.approx(100 * reported)
    assert _result(lm_eval_run, "scripted-a", "arith-assay")["_meta"]["rescored"]["extraction_audit"]["differ"] > 0


def test_the_replies_are_the_runs_prediction_files_and_a_second_run_reuses_the_results(tmp_path: Path) -> None:
    status, run = _run(tmp_path, LM_EVAL_CONFIG)
    assert status == 0 and run is not None
    preds = json.loads((run / "predictions" / "scripted-a" / "arith-assay.json").read_text())
    first = _lm_eval_samples("scripted-a", "assay_arith", "strict-match")[0]
    assert preds["0"]["prediction"] == first["resps"][0][0] and preds["0"]["gold"] == first["target"]
    before = (run / "results" / "scripted-a" / "arith-assay.json").read_bytes()
    assert main(["run", str(tmp_path / "config.py"), "-r"]) == 0
    assert (run / "results" / "scripted-a" / "arith-assay.json").read_bytes() == before


def test_the_dry_run_names_the_tools_replies_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.py"
    config.write_text(LM_EVAL_CONFIG + f"\nwork_dir = {str(tmp_path / 'out')!r}\n")
    assert main(["run", str(config), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"ok +scripted-a/arith-assay: .*\n.*\n +replies of lm_eval 0\.4\.13 \(task 'assay_arith', model 'scripted-a', "
                     r"24 samples\): .*samples_assay_arith_", out), out
    assert not list(tmp_path.glob("out/*/predictions/**/*.json"))


def test_a_test_set_on_disk_gives_the_references_instead_of_the_logged_targets(tmp_path: Path) -> None:
    body = f"""
datasets = [dict(abbr='arith', type='JsonlDataset', path={str(DATA / 'lm_eval' / 'tasks' / 'arith.jsonl')!r},
                 reader_cfg=dict(input_columns=['question'], output_column='answer'),
                 predictions=dict(source='lm_eval', path={str(LM_EVAL / 'scripted-b')!r}, task='assay_arith'),
                 {GSM8K_EVAL.format(extra=", dataset_postprocessor=dict(type='gsm8k_dataset_postprocess')")})]
"""
    status, run = _run(tmp_path, body)
    assert status == 0 and run is not None
    result = _result(run, "scripted-b", "arith")
    assert "references" not in result["_meta"]  # the test set's answer column, not the logged targets
    rows = [json.loads(line) for line in (DATA / "lm_eval" / "tasks" / "arith.jsonl").read_text().splitlines() if line.strip()]
    samples = _lm_eval_samples("scripted-b", "assay_arith", "strict-match")
    right = [_last_number(s["resps"][0][0]) == row["answer"].split("#### ")[-1] for s, row in zip(samples, rows, strict=True)]
    assert result["accuracy"] == pytest.approx(100 * sum(right) / len(right))


def _reordered_lm_eval(tmp_path: Path, model: str, keep: Any = None) -> Path:
    """A copy of ``model``'s lm-evaluation-harness output whose arithmetic samples file holds the same rows in
    reverse order (as a run on several devices writes them, rank by rank), those ``keep`` accepts."""
    import shutil

    out = tmp_path / "lm_out" / model
    shutil.copytree(LM_EVAL / model, out)
    (path,) = out.glob("samples_assay_arith_*.jsonl")
    lines = [line for line in path.read_text().splitlines() if line.strip()]
    path.write_text("\n".join(line for line in reversed(lines) if keep is None or keep(json.loads(line))) + "\n")
    return out


TEST_SET = DATA / "lm_eval" / "tasks" / "arith.jsonl"


def _on_disk(replies: Path) -> str:
    return f"""
datasets = [dict(abbr='arith', type='JsonlDataset', path={str(TEST_SET)!r},
                 reader_cfg=dict(input_columns=['question'], output_column='answer'),
                 predictions=dict(source='lm_eval', path={str(replies)!r}, task='assay_arith'),
                 {GSM8K_EVAL.format(extra=", dataset_postprocessor=dict(type='gsm8k_dataset_postprocess')")})]
"""


def test_replies_logged_out_of_order_meet_their_own_rows_of_the_test_set(tmp_path: Path) -> None:
    status, run = _run(tmp_path, _on_disk(_reordered_lm_eval(tmp_path, "scripted-b")))
    assert status == 0 and run is not None
    rows = [json.loads(line) for line in TEST_SET.read_text().splitlines() if line.strip()]
    samples = _lm_eval_samples("scripted-b", "assay_arith", "strict-match")  # joined to the rows by doc_id
    right = [_last_number(s["resps"][0][0]) == rows[s["doc_id"]]["answer"].split("#### ")[-1] for s in samples]
    assert _result(run, "scripted-b", "arith")["accuracy"] == pytest.approx(100 * sum(right) / len(right))
    preds = json.loads((run / "predictions" / "scripted-b" / "arith.json").read_text())
    assert [p["source_key"] for p in preds.values()] == [str(i) for i in range(len(rows))]  # the file in doc_id order


@pytest.mark.parametrize(
    ("predictions", "message"),
    [
        ("helm", r"helm task 'simple_classification' .*cannot tell which row of the test set each reply answers: "
                 r"helm names its samples by ids of its own"),
        ("lm_eval", r"lm_eval task 'assay_arith' .*cannot tell which row of the test set each reply answers: "
                    r"its doc_ids are not the rows 0 to 22 of the task's documents \(no doc_id 3\)"),
    ],
)
def test_replies_that_name_no_row_of_the_test_set_are_refused_rather_than_paired_by_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], predictions: str, message: str
) -> None:
    if predictions == "helm":
        body = _on_disk(HELM).replace("source='lm_eval'", "source='helm'").replace("'assay_arith'", "'simple_classification'")
    else:
        body = _on_disk(_reordered_lm_eval(tmp_path, "scripted-b", keep=lambda row: row["doc_id"] != 3))
    status, run = _run(tmp_path, body)
    err = capsys.readouterr().err
    assert status != 0
    assert re.search(r"config\.py: datasets\[0\] \('arith'\) predictions: " + message, err), err
    assert run is None or not list(run.glob("results/**/*.json"))


def test_inspect_ai_replies_scored_again_with_models_mapped(tmp_path: Path) -> None:
    body = f"""
datasets = [dict(abbr='arith',
                 predictions=dict(source='inspect_ai', path={str(INSPECT)!r}, task='assay_arith', extraction='match',
                                  models={{'mockllm/scripted-a': 'a', 'mockllm/scripted-b': 'b'}}),
                 {GSM8K_EVAL.format(extra='')})]
"""
    status, run = _run(tmp_path, body)
    assert status == 0 and run is not None
    for path, model in zip(sorted(INSPECT.glob("*assay-arith*.json")), ("a", "b"), strict=True):
        log = json.loads(path.read_text())
        samples = log["samples"]
        replies = [s["output"]["choices"][0]["message"]["content"] for s in samples]
        right = [_last_number(r) == s["target"] for r, s in zip(replies, samples, strict=True)]
        result = _result(run, model, "arith")
        assert result["accuracy"] == pytest.approx(100 * sum(right) / len(right))
        audit = result["_meta"]["rescored"]["extraction_audit"]
        answers = [s["scores"]["match"]["answer"] for s in samples]
        assert audit["differ"] == sum(a != _last_number(r) for a, r in zip(answers, replies, strict=True)) > 0
        assert result["_meta"]["rescored"]["model"] == f"mockllm/scripted-{model}"


def test_inspect_ai_replies_of_several_epochs_say_only_the_first_is_scored(tmp_path: Path) -> None:
    pytest.importorskip("zstandard")  # the .eval archives of the epochs log are Zstandard-compressed
    epochs = DATA / "inspect_ai" / "logs" / "epochs"
    body = f"""
datasets = [dict(abbr='arith', predictions=dict(source='inspect_ai', path={str(epochs)!r}, task='assay_arith'),
                 {GSM8K_EVAL.format(extra='')})]
"""
    status, run = _run(tmp_path, body)
    assert status == 0 and run is not None
    result = _result(run, "mockllm__scripted-a", "arith")
    assert result["_meta"]["rescored"]["epochs"] == {"logged": 2, "scored": 1}
    assert len(result["details"]) == result["_meta"]["rescored"]["samples"] == 12  # one reply per sample, not per epoch


def test_helm_completions_scored_again_against_their_single_reference(tmp_path: Path) -> None:
    body = f"""
datasets = [dict(abbr='parity', predictions=dict(source='helm', path={str(HELM)!r}, task='simple_classification'),
                 eval_cfg=dict(evaluator=dict(type='EMEvaluator')))]
"""
    status, run = _run(tmp_path, body)
    assert status == 0 and run is not None
    for model in ("assay__scripted-a", "assay__scripted-b"):
        (folder,) = HELM.glob(f"simple_classification:model={model.replace('__', '_')}")
        state = json.loads((folder / "scenario_state.json").read_text())
        pairs = []
        for state_ in state["request_states"]:
            reply = state_["result"]["completions"][0]["text"]
            (ref,) = [r["output"]["text"] for r in state_["instance"]["references"] if "correct" in r["tags"]]
            pairs.append(reply.strip() == ref)
        assert _result(run, model, "parity")["score"] == pytest.approx(100 * sum(pairs) / len(pairs))
    # the exact match minds the case: scripted-b's 'odd' for 'Odd' is wrong, as in HELM's exact_match (0.5) and
    # unlike its quasi_exact_match (0.75)
    rows = _csv(run)
    assert rows[("parity", "score")]["assay__scripted-b"] == "50.00"


@pytest.mark.parametrize(
    ("predictions", "message"),
    [
        (f"dict(source='lm_eval', path={str(LM_EVAL / 'absent')!r}, task='assay_arith')", ".path '.*absent': .* does not exist"),
        (f"dict(source='lm_eval', path={str(LM_EVAL)!r}, task='assay_arithm')",
         ".task 'assay_arithm': the lm_eval output at .* has no such task; it has: assay_arith, assay_mcq_a, assay_mcq_b"),
        (f"dict(source='lm_eval', path={str(LM_EVAL)!r}, task='assay_mcq_a')", "sample '0' has no logged reply"),
        (f"dict(source='lm_eval', path={str(LM_EVAL)!r}, task='assay_arith', extraction='strict')",
         "has no extraction 'strict'; it has: flexible-extract, strict-match"),
        (f"dict(source='lm_evaluation', path={str(LM_EVAL)!r}, task='assay_arith')", ".source is 'lm_evaluation'"),
    ],
)
def test_a_wrong_source_is_an_error_naming_the_config_the_dataset_and_the_value_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], predictions: str, message: str
) -> None:
    body = f"datasets = [dict(abbr='arith-assay', predictions={predictions}, {GSM8K_EVAL.format(extra='')})]\n"
    status, run = _run(tmp_path, body)
    err = capsys.readouterr().err
    assert status != 0
    assert re.search(rf"config\.py: datasets\[0\] \('arith-assay'\) predictions.*{message}", err), err
    assert run is None or not list(run.glob("results/**/*.json"))


@pytest.mark.parametrize("content", ["", "{not json"])
def test_an_empty_or_unreadable_tool_output_is_an_error_naming_the_config_and_the_dataset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    out = tmp_path / "lm_out"
    out.mkdir()
    if content:
        (out / "results_2026-01-01T00-00-00.json").write_text(content)
    body = (f"datasets = [dict(abbr='arith-assay', predictions=dict(source='lm_eval', path={str(out)!r}, task='assay_arith'), "
            f"{GSM8K_EVAL.format(extra='')})]\n")
    status, run = _run(tmp_path, body)
    err = capsys.readouterr().err
    assert status != 0
    assert re.search(rf"config\.py: datasets\[0\] \('arith-assay'\) predictions\.path '{re.escape(str(out))}': .*{re.escape(str(out))}", err), err
    assert run is None or not list(run.glob("results/**/*.json"))


def test_a_prediction_file_not_taken_from_a_tool_is_never_replaced(tmp_path: Path) -> None:
    run_dir = RunDir(tmp_path / "run")
    own = run_dir.prediction_dir("m") / "arith.json"
    own.parent.mkdir(parents=True)
    own.write_text(json.dumps({"0": {"prediction": "42", "gold": "42"}}))
    with pytest.raises(InputFileError, match=r"arith\.json holds predictions that were not taken from another tool"):
        write_source_predictions(run_dir, "m", "arith", {"0": {"prediction": "41", "gold": "42", "source_key": "0"}}, "lm_eval")
    assert json.loads(own.read_text())["0"]["prediction"] == "42"


def test_a_summary_from_the_dumped_config_finds_the_models_when_the_source_path_was_relative(tmp_path: Path) -> None:
    conf = tmp_path / "conf"
    conf.mkdir()
    (conf / "lm_out").symlink_to(LM_EVAL, target_is_directory=True)
    body = f"""
datasets = [dict(abbr='arith-assay', predictions=dict(source='lm_eval', path='lm_out', task='assay_arith'),
                 {GSM8K_EVAL.format(extra=", dataset_postprocessor=dict(type='gsm8k_dataset_postprocess')")})]
work_dir = {str(tmp_path / 'out')!r}
"""
    (conf / "config.py").write_text(body)
    assert main(["run", str(conf / "config.py")]) == 0
    (run,) = list((tmp_path / "out").iterdir())
    for summary in (run / "summary").iterdir():
        summary.unlink()
    # the dumped config lies in the run's configs/ folder, where 'lm_out' is not
    assert main(["summarize", "-w", str(run)]) == 0
    rows = _csv(run)
    for model in ("scripted-a", "scripted-b"):
        assert rows[("arith-assay", "accuracy")][model] == f"{_result(run, model, 'arith-assay')['accuracy']:.2f}"


def test_the_tools_models_score_only_its_replies_and_the_configs_models_only_their_own_datasets(tmp_path: Path) -> None:
    from assay.config import load_config
    from assay.tasks import plan_tasks

    config = tmp_path / "config.py"
    config.write_text(f"""
models = [dict(abbr='scripted-a', pred_postprocessor=dict(type='first_capital_postprocess')), dict(abbr='own-only')]
datasets = [dict(abbr='own', type='JsonlDataset', path={str(DATA / 'lm_eval' / 'tasks' / 'arith.jsonl')!r},
                 reader_cfg=dict(input_columns=['question'], output_column='answer'),
                 eval_cfg=dict(evaluator=dict(type='AccEvaluator'))),
            dict(abbr='arith-assay', predictions=dict(source='lm_eval', path={str(LM_EVAL)!r}, task='assay_arith'),
                 {GSM8K_EVAL.format(extra='')})]
""")
    tasks = plan_tasks(load_config(config), RunDir(tmp_path / "run"))
    assert sorted(t.name for t in tasks) == ["own-only/own", "scripted-a/arith-assay", "scripted-a/own", "scripted-b/arith-assay"]
    fed = {t.name: t for t in tasks}["scripted-a/arith-assay"]
    # the config's model of the same abbr lends its postprocessor; the replies go to the run's prediction folder
    assert fed.model["pred_postprocessor"] == {"type": "first_capital_postprocess"}
    assert fed.prediction_dir == tmp_path / "run" / "predictions" / "scripted-a"
