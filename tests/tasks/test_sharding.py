"""Sharding: a big dataset scored by a sample-decomposable evaluator is split into shards
and merged into the result of scoring it whole — metrics, details, repeated runs and G-Pass@k."""

from __future__ import annotations

import inspect
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.registry import ICL_EVALUATORS
from assay.rundir.results import META_KEY, read_result
from assay.tasks.shards import ShardPart, merge_metrics

SAMPLES = 13
RUNS = 3
SHARD = 4  # 13 samples -> shards of 3, 3, 3, 4

# Per evaluator: candidate predictions, references, and extra prediction-file fields (name -> values).
INPUTS: dict[str, dict[str, Any]] = {
    "AccEvaluator": {"preds": ["A", "B", "C", "D", ""], "refs": ["A", "B", "C", "D"]},
    "AccwithDetailsEvaluator": {"preds": ["A", "B", "C"], "refs": ["A", "C"]},
    "MusrEvaluator": {"preds": ["ANSWER: 2", "Reasoning\nANSWER: (1) her", "answer: 2", ""], "refs": [2, 1]},
    "BBHEvaluator": {"preds": ["So the answer is yes.", "So the answer is no.", "I cannot tell"], "refs": ["yes", "no"]},
    "BBHEvaluator_mcq": {"preds": ["A", "B", "C"], "refs": ["A", "B"]},
    "EDAccEvaluator": {
        "preds": ["tea please", "coffee", "B", ""],
        "refs": [{"candidates": [["A. tea", "A", "tea"], ["B. coffee", "B", "coffee"]], "label": k} for k in (0, 1)],
    },
    "SQuAD20Evaluator": {"preds": ["Paris.", "The answer is Seine", "impossible to answer", ""], "refs": [["Paris"], ["Seine", "impossible to answer"]]},
    "EMEvaluator": {"preds": ["Paris.", "London", "the Eiffel Tower"], "refs": [["Paris", "paris"], ["Eiffel Tower"]]},
    "Gsm8kEvaluator": {"preds": ["42", "41.0", "7", ""], "refs": ["42", "7"]},
    "CharmReasonEvaluator": {"preds": ["A", "B", "C", ""], "refs": ["A", "B", "C"]},
    "TabMWPEvaluator": {"preds": ["The answer is $1.40.", "(B)", "It will be 12 cm long.", ""],
                        "refs": [{"answer": "$1.40", "unit": None, "choices": None}, {"answer": "pear", "unit": None, "choices": ["apple", "pear"]},
                                 {"answer": "12", "unit": "cm", "choices": None}]},
    "MastermathDatasetv1Evaluator": {"preds": ["A", "B", "C", ""], "refs": ["A", "B", "D"]},
    "ARCPrizeEvaluator": {"preds": ["[[1, 2]]", "It is [[3], [4]]", "[[1, 2], [x]]", "no grid", "[[5]]"],
                          "refs": [[[1, 2]], [[3], [4]], [[5, 6]]]},
    "Math401Evaluator": {"preds": ["4992", "2.79", "1/3", "-9.0001", ""], "refs": ["4992", "2.7900", "-9"]},
    "MATHEvaluator": {"preds": ["\\frac{1}{2}", "0.5", "2", "x+1"], "refs": ["\\frac12", "2"]},
    "MATHVerifyEvaluator": {"preds": ["$\\boxed{2}$", "$\\boxed{\\frac{1}{2}}$", "no idea"], "refs": ["2", "\\frac{1}{2}"]},
    "MathEEDEvaluator": {"preds": ["\\boxed{\\frac{m v^2}{2}}", "\\boxed{m v}", "v = 2 g"], "refs": ["\\frac{1}{2} m v^2", "2 g h"]},
    "RougeEvaluator": {"preds": ["the cat sat on the mat", "a dog", "cats sit"], "refs": ["the cat sat", "a dog barked"]},
    "JiebaRougeEvaluator": {"preds": ["今天天气很好", "我喜欢猫", "天气"], "refs": ["今天天气不错", "我喜欢狗"]},
    "AveragePPLEvaluator": {"preds": ["x"], "refs": ["x"], "fields": {"ppl": [1.5, 2.25, 3.0, 10.125]}},
    "AverageMinKEvaluator": {"preds": ["x"], "refs": ["x"], "fields": {"mink": [-0.5, -1.25, -3.0]}},
    # the last reference is the answer's keywords; "A" would normalize to no word, which raises as in OpenCompass
    "LVEvalOPTF1Evaluator": {"preds": ["Paris is big", "It is Rome", "", "Rome city"], "refs": [["Paris", "Paris"], ["Rome", "Rome city"]]},
    "MRCREvaluator": {
        "preds": ["xK2p# A poem about tapirs", "xK2p# A poem about otters", "A poem about tapirs", ""],
        "refs": ['{"answer": "xK2p# A poem about tapirs", "prefix": "xK2p#"}', '{"answer": "q9# Two lines", "prefix": "q9#"}'],
    },
    # evaluators reading test-set columns: "columns" adds them to every row, "subjects" names the subdivisions
    "TheoremQAEvaluatorV3": {"preds": ["3.14", "2", "True", ""], "refs": ["3.14", "2"], "columns": {"Answer_type": "float"}},
    "MedmcqaEvaluator": {
        "preds": ["A", "The answer is B.", "C or D", "none"], "refs": ["A", "B", "C"],
        "columns": {"prompt_mode": "zero-shot", "options": ["w", "x", "y", "z"], "label": "A", "subject_name": "Anatomy",
                    "topic_name": None, "choice_type": "single"},
    },
    "MedXpertQAEvaluator": {
        "preds": ["A", "The answer is B.", "C or D"], "refs": ["A", "B", "C"],
        "columns": {"prompt_mode": "zero-shot", "options": {"A": "w", "B": "x", "C": "y", "D": "z"}, "label": "A"},
    },
    "MedbulletsEvaluator": {
        "preds": ["A", "The answer is B.", "E", ""], "refs": ["A", "B", "C"],
        "columns": {"prompt_mode": "zero-shot", "options": ["w", "x", "y", "z"], "label": "A", "question_type": "step1"},
    },
    "NejmaibenchEvaluator": {
        "preds": ["A", "(B)", "none"], "refs": ["A", "B", "C"],
        "columns": {"prompt_mode": "zero-shot", "options": ["w", "x", "y", "z"], "label": "A", "Subject": "Cardiology"},
    },
    "CMPhysBenchEvaluator": {
        "preds": ["\\boxed{\\frac{1}{2} m v^2}", "\\boxed{3.2e-19}", "\\boxed{x^2+2}", "no idea"],
        "refs": [["\\frac{m v^2}{2}", "Magnetism"], ["3.2 \\times 10^{-19}", "Optics"], ["x^2 + 1", "Solid State"]],
    },
    "LiveMathBenchEvaluator": {
        "preds": ["\\boxed{2}", "\\boxed{\\frac{1}{2}}", "no idea"],
        "refs": ["2", "\\frac{1}{2}"],
        "columns": {"question_type": "问答"},
        "subjects": ["LiveMathBench_en", "LiveMathBench_cn"],
    },
}

_GENERIC = {"predictions", "references", "origin_prompt"}


def _decomposable() -> list[str]:
    import assay.evaluators  # noqa: F401  (registers the built-in catalogue)

    names: dict[Any, str] = {}
    for name, obj in ICL_EVALUATORS.items():
        if getattr(obj, "sample_decomposable", False) and obj.__module__.startswith("assay.") and obj not in names:
            names[obj] = name
    return sorted(names.values())


def _inputs(name: str) -> dict[str, Any]:
    if name in INPUTS:
        return INPUTS[name]
    params = set(inspect.signature(ICL_EVALUATORS.get(name).score).parameters) - {"self"}
    if params <= _GENERIC:  # any (predictions, references) evaluator can be fed letters
        return {"preds": ["A", "B", "C"], "refs": ["A", "B"]}
    pytest.fail(f"{name} is sample-decomposable but tests/tasks/test_sharding.py has no inputs for its score{params}")


def _write(tmp_path: Path, name: str) -> Path:
    spec = _inputs(name)
    rng = random.Random(name)
    refs = [spec["refs"][i % len(spec["refs"])] for i in range(SAMPLES)]
    subjects = spec.get("subjects", ["algebra", "geometry"])
    with (tmp_path / "data.jsonl").open("w") as fh:
        for i, ref in enumerate(refs):
            row = {"question": f"q{i}", "answer": ref, "subdivision": subjects[(i // 2) % 2], "idx": i, **spec.get("columns", {})}
            fh.write(json.dumps(row) + "\n")
    records = {}
    for r in range(RUNS):
        for i in range(SAMPLES):
            record: dict[str, Any] = {"prediction": rng.choice(spec["preds"]), "origin_prompt": f"q{i}", "gold": refs[i]}
            for field, pool in spec.get("fields", {}).items():
                record[field] = rng.choice(pool)
            records[str(r * SAMPLES + i)] = record
    (tmp_path / "preds").mkdir()
    (tmp_path / "preds" / "d.json").write_text(json.dumps(records, indent=4, ensure_ascii=False))
    cfg = tmp_path / "cfg.py"
    cfg.write_text(
        f"datasets = [dict(abbr='d', type='JsonlDataset', path='data.jsonl', n={RUNS}, k=[1, 2],\n"
        f"                 reader_cfg=dict(input_columns=['question'], output_column='answer'),\n"
        f"                 eval_cfg=dict(evaluator=dict(type={name!r})))]\n"
        "models = [dict(abbr='m', predictions='preds')]\n"
    )
    return cfg


def _eval(cfg: Path, work: Path, shard_size: int, *extra: str) -> dict[str, Any]:
    assert main(["eval", str(cfg), "-w", str(work), "-r", "RUN", "--workers", "1", "--shard-size", str(shard_size), *extra]) == 0
    return read_result(work / "RUN" / "results" / "m" / "d.json")


def _assert_same(sharded: dict[str, Any], whole: dict[str, Any]) -> None:
    """The same metrics to the last bit: splitting never changes a result (R-12.4)."""
    assert list(sharded) == list(whole), "metric order differs"
    for key, value in whole.items():
        if isinstance(value, float) and math.isnan(value):
            assert math.isnan(sharded[key]), key
        else:
            assert sharded[key] == value and type(sharded[key]) is type(value), (key, sharded[key], value)


def test_every_decomposable_builtin_evaluator_is_covered() -> None:
    names = _decomposable()
    assert "AccEvaluator" in names
    for name in names:
        _inputs(name)


@pytest.mark.parametrize(
    "name",
    # MATHVerifyEvaluator, MathEEDEvaluator and CMPhysBenchEvaluator start their worker processes once per shard
    [pytest.param(n, marks=pytest.mark.slow) if n in ("MATHVerifyEvaluator", "MathEEDEvaluator", "CMPhysBenchEvaluator")
     else n for n in _decomposable()],
)
def test_sharded_equals_unsharded(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _write(tmp_path, name)
    whole = _eval(cfg, tmp_path / "whole", 0)
    capsys.readouterr()
    sharded = _eval(cfg, tmp_path / "sharded", SHARD)
    assert "4 shards" in capsys.readouterr().err, "the task should have been split"
    assert "error" not in whole, whole.get("error")
    _assert_same(sharded, whole)
    assert not (tmp_path / "sharded" / "RUN" / ".shards" / "m" / "d").exists(), "shard files are removed after the merge"


def test_sharded_g_pass_and_details_match(tmp_path: Path) -> None:
    cfg = _write(tmp_path, "AccEvaluator")
    whole = _eval(cfg, tmp_path / "whole", 0)
    sharded = _eval(cfg, tmp_path / "sharded", SHARD)
    assert whole["details"] == sharded["details"] and len(whole["details"]) == SAMPLES
    assert "algebra/G-Pass@2_0.5" in whole and "geometry/mG-Pass@2" in whole
    assert sharded["extraction"] == whole["extraction"] == {"unextracted": whole["extraction"]["unextracted"], "total": SAMPLES * RUNS}
    # byte-for-byte the same file but for float rounding of averaged metrics
    assert whole[META_KEY] == sharded[META_KEY]


def test_sharded_without_details(tmp_path: Path) -> None:
    cfg = _write(tmp_path, "AccEvaluator")
    whole = _eval(cfg, tmp_path / "whole", 0, "--no-dump-eval-details")
    sharded = _eval(cfg, tmp_path / "sharded", SHARD, "--no-dump-eval-details")
    assert "details" not in sharded
    _assert_same(sharded, whole)


def test_sharded_in_worker_processes_equals_in_process(tmp_path: Path) -> None:
    cfg = _write(tmp_path, "AccEvaluator")
    inline = _eval(cfg, tmp_path / "inline", SHARD)
    assert main(["eval", str(cfg), "-w", str(tmp_path / "pool"), "-r", "RUN", "--workers", "2", "--shard-size", str(SHARD)]) == 0
    assert (tmp_path / "pool" / "RUN" / "results" / "m" / "d.json").read_bytes() == (
        tmp_path / "inline" / "RUN" / "results" / "m" / "d.json"
    ).read_bytes()
    assert "accuracy (3 runs average)" in inline


def test_corpus_level_evaluator_runs_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _write(tmp_path, "AccEvaluator")
    cfg.write_text(cfg.read_text().replace("'AccEvaluator'", "'BleuEvaluator'"))
    _eval(cfg, tmp_path / "w", SHARD)
    err = capsys.readouterr().err
    assert "m/d ok" in err and "shards" not in err


def test_merge_weights_by_samples_and_subdivision_counts() -> None:
    a = ShardPart({"accuracy": 50.0, "x/G-Pass@2_0.0": 100.0, "G-Pass@2_0.0": 100.0}, 4, {"x": 1, "y": 3})
    b = ShardPart({"accuracy": 100.0, "x/G-Pass@2_0.0": 0.0, "G-Pass@2_0.0": 0.0}, 1, {"x": 1})
    merged, notes = merge_metrics([a, b])
    assert merged["accuracy"] == 60.0
    assert merged["x/G-Pass@2_0.0"] == 50.0  # weighted by the subdivision's samples: 1 and 1
    assert merged["G-Pass@2_0.0"] == 80.0
    assert notes == []
    # a non-numeric value that differs between shards is reported
    _, notes = merge_metrics([ShardPart({"kind": "a"}, 1), ShardPart({"kind": "b"}, 1)])
    assert notes and "kind" in notes[0]


@pytest.mark.parametrize("first", ["whole", "sharded"])
def test_a_result_scored_again_in_another_split_is_not_called_changed(
    first: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A result that assay scores again, split into shards where it was scored whole or the other way
    round, is assay's: the summary does not say it changed after it was computed, with the run index
    or rebuilt from the files."""
    cfg = _write(tmp_path, "AccEvaluator")
    sizes = [0, SHARD] if first == "whole" else [SHARD, 0]
    _eval(cfg, tmp_path / "w", sizes[0])
    _eval(cfg, tmp_path / "w", sizes[1], "--force", "--no-dump-eval-details")
    run = tmp_path / "w" / "RUN"
    for _ in range(2):
        capsys.readouterr()
        assert main(["summarize", str(cfg), "-w", str(run)]) == 0
        captured = capsys.readouterr()
        assert "changed after assay computed it" not in captured.err + captured.out
        (run / "index.sqlite").unlink()


def test_shards_merge_as_split_result_files_do(tmp_path: Path) -> None:
    """The two ways one evaluation comes in parts give one answer: a metric some part lacks is left out by both,
    and the weighted means are the same bits (rounded once, as the exact mean of the parts' values)."""
    from assay.rundir.results import merge_split_results
    from assay.summarize import run_summarizer
    from tests.summarize.builders import write_result

    parts = [({"accuracy": 97.8, "f1": 0.5}, 1), ({"accuracy": 88.3}, 2)]
    shards, notes = merge_metrics([ShardPart(dict(result), n) for result, n in parts])
    split = merge_split_results([(f"d_{i}", dict(result), n) for i, (result, n) in enumerate(parts)])
    assert shards == {"accuracy": 91.46666666666667}  # (97.8 + 2 × 88.3) / 3
    assert {k: v for k, v in split.items() if k != "_meta"} == shards
    assert split["_meta"]["dropped_metrics"] == ["f1"] and "f1" in notes[0]
    # the summary of split result files shows that number, and no f1
    run_dir = tmp_path / "run"
    for i, (result, n) in enumerate(parts):
        write_result(run_dir, "m1", f"d_{i}", {**result, "_meta": {"num_samples": n}})
    summary = run_summarizer({"models": [{"abbr": "m1"}], "datasets": [{"abbr": "d"}], "work_dir": str(run_dir)}, time_str="t")
    assert summary.table[1:] == [["d", "-", "accuracy", "-", "91.47"]]
