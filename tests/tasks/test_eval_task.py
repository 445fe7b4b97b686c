"""End-to-end evaluation through the command line: configs, prediction folders, results."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from assay.cli import main
from assay.rundir.results import META_KEY, read_result

DATA = Path(__file__).parent.parent / "data"
RUN = "20250101_000000"


def _oc_work(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    shutil.copytree(DATA / "oc_style" / "predictions", work / RUN / "predictions")
    return work


def test_opencompass_style_config_evaluates_unchanged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    work = _oc_work(tmp_path)
    rc = main(["eval", str(DATA / "oc_style" / "eval_oc_style.py"), "-w", str(work), "-r", RUN])
    assert rc == 0, capsys.readouterr().err
    res = work / RUN / "results"
    chat_mcq = read_result(res / "chat-7b" / "mcq.json")
    assert chat_mcq["accuracy"] == 75.0
    assert chat_mcq["extraction"] == {"unextracted": 1, "total": 4}
    assert read_result(res / "reasoner-14b" / "mcq.json")["accuracy"] == 100.0  # <think> removed by the model-level postprocessor
    assert read_result(res / "chat-7b" / "mcq_ppl.json")["accuracy"] == 75.0
    assert read_result(res / "chat-7b" / "trivia.json")["score"] == pytest.approx(200 / 3)
    assert read_result(res / "reasoner-14b" / "trivia.json")["score"] == pytest.approx(100 / 3)
    # the resolved config is kept, with types as dotted paths
    dumped = list((work / RUN / "configs").glob("*.py"))
    assert len(dumped) == 1
    text = dumped[0].read_text()
    assert "'opencompass.openicl.icl_inferencer.GenInferencer'" in text
    assert "'opencompass.models.HuggingFacewithChatTemplate'" in text


def test_repeated_runs_and_g_pass_end_to_end(tmp_path: Path) -> None:
    """The 3-question, n=4, k=[2,4] fixture: run-major predictions A,B,X | A,X,X | A,B,C | X,B,X."""
    work = _oc_work(tmp_path)
    assert main(["eval", str(DATA / "oc_style" / "eval_oc_style.py"), "-w", str(work), "-r", RUN]) == 0
    toy = read_result(work / RUN / "results" / "chat-7b" / "toy.json")
    expected = {
        "accuracy (4 runs average)": 58.333333,
        "G-Pass@2_0.0": 83.333333,
        "G-Pass@2_0.25": 83.333333,
        "G-Pass@2_0.5": 83.333333,
        "G-Pass@2_0.75": 33.333333,
        "G-Pass@2_1.0": 33.333333,
        "mG-Pass@2": 33.333333,
        "G-Pass@4_0.0": 100.0,
        "G-Pass@4_0.25": 100.0,
        "G-Pass@4_0.5": 66.666667,
        "G-Pass@4_0.75": 66.666667,
        "G-Pass@4_1.0": 0.0,
        "mG-Pass@4": 33.333333,
    }
    for key, value in expected.items():
        assert toy[key] == pytest.approx(value, abs=1e-5), key
        if key.startswith(("G-", "mG-")):  # G-Pass keys are also reported per subdivision
            assert toy[f"toy/{key}"] == pytest.approx(value, abs=1e-5), key
    assert "accuracy" not in toy
    assert len(toy["details"]) == 3
    assert toy["details"][0]["correct"] == [True, True, True, False]
    assert toy[META_KEY]["n"] == 4 and toy[META_KEY]["num_samples"] == 3


def test_seed_evaluator_skeleton_runs_verbatim(tmp_path: Path) -> None:
    """The seed's MyEvaluator, unchanged, with both placements of pred_postprocessor."""
    rc = main(["eval", str(DATA / "seed" / "seed_config.py"), "-w", str(tmp_path / "w"), "--workers", "1"])
    assert rc == 0
    (run,) = (tmp_path / "w").iterdir()
    for abbr in ("qa_dataset", "qa_evaluator_level"):
        result = read_result(run / "results" / "seed-model" / f"{abbr}.json")
        # predictions PARIS, 5, JUPITER, '' against references PARIS, 4, JUPITER, BLUE
        assert result["accuracy"] == 50.0
        assert [d["correct"] for d in result["details"]] == [[True], [False], [True], [False]]
        assert result["details"][0]["answer"] == ["PARIS"]  # dataset_postprocessor ran on references
        assert result["extraction"]["unextracted"] == 1


def _write_chain_config(tmp_path: Path) -> Path:
    (tmp_path / "d.jsonl").write_text('{"q": "x", "a": "x|m|d|e"}\n{"q": "y", "a": "nope"}\n')
    preds = tmp_path / "preds"
    preds.mkdir()
    (preds / "chain.json").write_text(json.dumps({"0": {"prediction": "x"}, "1": {"prediction": ["y", "z"]}}))
    cfg = tmp_path / "chain_cfg.py"
    cfg.write_text(
        """
from assay.evaluate import BaseEvaluator

def mark_m(text):
    return text + '|m'

def mark_d(text):
    return text + '|d'

def mark_e(text):
    return text + '|e'

class Echo(BaseEvaluator):
    def __init__(self, pred_postprocessor=None):
        super().__init__(pred_postprocessor=pred_postprocessor)

    def score(self, predictions, references):
        return {'accuracy': 100.0 * sum(p == r for p, r in zip(predictions, references)) / len(predictions),
                'details': [{'pred': p} for p in predictions]}

datasets = [dict(abbr='chain', type='JsonlDataset', path='d.jsonl', reader_cfg=dict(output_column='a'),
                 eval_cfg=dict(pred_postprocessor=dict(type=mark_d),
                               evaluator=dict(type=Echo, pred_postprocessor=dict(type=mark_e))))]
models = [dict(abbr='m', predictions='preds', pred_postprocessor=dict(type=mark_m))]
"""
    )
    return cfg


def test_postprocessors_apply_model_then_dataset_then_evaluator(tmp_path: Path) -> None:
    cfg = _write_chain_config(tmp_path)
    assert main(["eval", str(cfg), "-w", str(tmp_path / "w")]) == 0
    (run,) = (tmp_path / "w").iterdir()
    result = read_result(run / "results" / "m" / "chain.json")
    assert result["details"][0]["pred"] == ["x|m|d|e"]
    # a list prediction (several return sequences) is postprocessed element-wise
    assert result["details"][1]["pred"] == [["y|m|d|e", "z|m|d|e"]]
    assert result["accuracy"] == 50.0


def test_reuse_recomputes_only_changed_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    work = _oc_work(tmp_path)
    cfg = str(DATA / "oc_style" / "eval_oc_style.py")
    assert main(["eval", cfg, "-w", str(work), "-r", RUN, "--workers", "1"]) == 0
    capsys.readouterr()
    res = work / RUN / "results"
    before = {p: p.read_bytes() for p in res.rglob("*.json")}
    # change one prediction file: only that pair is recomputed
    pred = work / RUN / "predictions" / "chat-7b" / "mcq.json"
    data = json.loads(pred.read_text())
    data["2"]["prediction"] = "C"
    pred.write_text(json.dumps(data))
    assert main(["eval", cfg, "-w", str(work), "-r", "--workers", "1"]) == 0
    err = capsys.readouterr().err
    assert "chat-7b/mcq ok" in err
    assert "chat-7b/mcq_ppl reused" in err
    assert read_result(res / "chat-7b" / "mcq.json")["accuracy"] == 100.0
    for p, content in before.items():
        if p.name != "mcq.json" or p.parent.name != "chat-7b":
            assert p.read_bytes() == content, f"{p} was rewritten"
    # --force recomputes everything
    assert main(["eval", cfg, "-w", str(work), "-r", "--workers", "1", "--force"]) == 0
    assert "reused" not in capsys.readouterr().err.split("tasks:")[0]


def test_no_dump_eval_details_drops_details(tmp_path: Path) -> None:
    work = _oc_work(tmp_path)
    assert main(["eval", str(DATA / "oc_style" / "eval_oc_style.py"), "-w", str(work), "-r", RUN, "--no-dump-eval-details"]) == 0
    result = read_result(work / RUN / "results" / "chat-7b" / "mcq.json")
    assert "details" not in result and result["accuracy"] == 75.0


def test_error_result_is_recomputed_on_reuse(tmp_path: Path) -> None:
    work = _oc_work(tmp_path)
    cfg = str(DATA / "oc_style" / "eval_oc_style.py")
    pred = work / RUN / "predictions" / "chat-7b" / "mcq.json"
    good = pred.read_bytes()
    pred.write_text("{")
    assert main(["eval", cfg, "-w", str(work), "-r", RUN]) == 1
    assert "error" in read_result(work / RUN / "results" / "chat-7b" / "mcq.json")
    pred.write_bytes(good)
    assert main(["eval", cfg, "-w", str(work), "-r", RUN]) == 0
    assert read_result(work / RUN / "results" / "chat-7b" / "mcq.json")["accuracy"] == 75.0


def test_evaluator_code_that_sees_the_test_set_gets_a_datasets_object(tmp_path: Path) -> None:
    """``score(test_set=...)`` and an ``evaluate`` of one's own receive a ``datasets.Dataset`` with the evaluated rows."""
    (tmp_path / "d.jsonl").write_text("".join(json.dumps({"q": f"q{i}", "answer": "AB"[i % 2]}) + "\n" for i in range(6)))
    preds = tmp_path / "work" / RUN / "predictions" / "m"
    preds.mkdir(parents=True)
    for abbr in ("rows", "whole"):
        (preds / f"{abbr}.json").write_text(json.dumps({str(i): {"prediction": "A"} for i in range(4)}))
    (tmp_path / "probe_eval.py").write_text(
        "from assay.evaluate import BaseEvaluator\n"
        "class SeesRows(BaseEvaluator):\n"
        "    def score(self, predictions, references, test_set):\n"
        "        return {'n': len(test_set), 'kind': type(test_set).__module__.split('.')[0], 'q': list(test_set['q'])}\n"
        "class OwnEvaluate(BaseEvaluator):\n"
        "    def score(self, predictions, references):\n"
        "        return {'accuracy': 0.0}\n"
        "    def evaluate(self, k, n, original_dataset, **kwargs):\n"
        "        return {'kind': type(original_dataset).__module__.split('.')[0], 'rows': len(original_dataset)}\n"
    )
    (tmp_path / "config.py").write_text(
        "from probe_eval import OwnEvaluate, SeesRows\n"
        "common = dict(type='JsonlDataset', path='d.jsonl', reader_cfg=dict(input_columns=['q'], output_column='answer', test_range='[1:5]'))\n"
        "datasets = [dict(abbr='rows', eval_cfg=dict(evaluator=dict(type=SeesRows)), **common),\n"
        "            dict(abbr='whole', eval_cfg=dict(evaluator=dict(type=OwnEvaluate)), **common)]\n"
        "models = [dict(abbr='m')]\n"
    )
    assert main(["eval", str(tmp_path / "config.py"), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1"]) == 0
    rows = read_result(tmp_path / "work" / RUN / "results" / "m" / "rows.json")
    assert (rows["n"], rows["kind"], rows["q"]) == (4, "datasets", ["q1", "q2", "q3", "q4"])
    whole = read_result(tmp_path / "work" / RUN / "results" / "m" / "whole.json")
    assert (whole["kind"], whole["rows"]) == ("datasets", 4)
