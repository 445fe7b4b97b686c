"""``assay compare`` across tools: an lm-evaluation-harness model and an inspect_ai model that answered the same
questions (``tests/data/sources/inspect_ai/data/arith_shared.json`` holds twenty of lm-evaluation-harness's
``arith.jsonl`` questions under ids of its own, shuffled, one of them twice, and two questions of its own)."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.rundir.compare import align_results
from assay.sources import read_source
from assay.stats import binomial_two_sided_p, t_interval

DATA = Path(__file__).parents[1] / "data" / "sources"
LM_EVAL = DATA / "lm_eval"
SHARED = DATA / "inspect_ai" / "logs" / "shared"
OTHER = DATA / "inspect_ai" / "logs" / "eval"  # inspect's own arithmetic questions: another dataset
LM_METRIC, INSPECT_METRIC = "exact_match,strict-match", "match/accuracy"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One run directory with both tools' results, their arithmetic tasks mapped to one dataset name."""
    root = tmp_path_factory.mktemp("across")
    config = root / "config.py"
    config.write_text(
        "models = []\ndatasets = []\nsources = [\n"
        f"    dict(type='lm_eval', path={str(LM_EVAL / 'out')!r}, datasets={{'assay_arith': 'arith'}}),\n"
        f"    dict(type='inspect_ai', path={str(SHARED)!r}, datasets={{'assay_arith_shared': 'arith'}}),\n"
        f"    dict(type='inspect_ai', path={str(OTHER)!r}, datasets={{'assay_arith': 'arith'}},\n"
        "         models={'mockllm/scripted-a': 'other-a', 'mockllm/scripted-b': 'other-b'}),\n"
        "]\n"
    )
    run = root / "w" / "20250101_000000"
    (run / "results").mkdir(parents=True)
    assert main(["summarize", str(config), "-w", str(run), "--no-report"]) == 0
    return run


def _compare(run: Path, capsys: pytest.CaptureFixture[str], *args: str, status: int = 0) -> tuple[str, dict[str, Any]]:
    capsys.readouterr()
    assert main(["compare", "-w", str(run), *args]) == status
    out = capsys.readouterr().out
    newest = max((run / "summary").glob("compare_*.json"), key=lambda p: p.stat().st_mtime_ns)
    (row,) = json.loads(newest.read_text())["datasets"]
    return out, row


def _across(run: Path, capsys: pytest.CaptureFixture[str], *extra: str, status: int = 0) -> tuple[str, dict[str, Any]]:
    return _compare(run, capsys, "scripted-a", "mockllm__scripted-b", "--datasets", "arith",
                    "--metric", LM_METRIC, "--metric-b", INSPECT_METRIC, *extra, status=status)


def _lm_eval_by_question() -> dict[str, float]:
    """lm-evaluation-harness's strict-match verdict per question, from its own samples file."""
    (path,) = (LM_EVAL / "out" / "scripted-a").glob("samples_assay_arith_*.jsonl")
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    return {r["doc"]["question"]: r["exact_match"] for r in rows if r["filter"] == "strict-match"}


def _inspect_by_question() -> dict[str, float]:
    """inspect_ai's match verdict per question: the log's per-sample values, joined to the dataset file's inputs."""
    inputs = {row["id"]: row["input"] for row in json.loads((DATA / "inspect_ai" / "data" / "arith_shared.json").read_text())}
    (run,) = read_source("inspect_ai", SHARED)
    out: dict[str, float] = {}
    for sample in run.results["assay_arith_shared"].samples:
        question = inputs[sample.key]
        out[question] = math.nan if question in out else sample.values[INSPECT_METRIC]  # a repeated question: no pair
    return out


def test_two_tools_align_by_question_and_report_what_did_not(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, row = _across(run, capsys)
    alignment = row["alignment"]
    assert alignment["mode"] == "content"
    assert {k: alignment[k] for k in ("samples_a", "samples_b", "aligned", "unaligned_a", "unaligned_b",
                                      "duplicates_a", "duplicates_b", "ambiguous_a", "ambiguous_b", "conflicts")} == {
        "samples_a": 24, "samples_b": 23, "aligned": 19, "unaligned_a": 4, "unaligned_b": 2,
        "duplicates_a": 1, "duplicates_b": 2, "ambiguous_a": 0, "ambiguous_b": 0, "conflicts": 0,
    }
    examples = alignment["examples"]
    # lm-evaluation-harness's documents 0-3 were not asked through inspect; document 5 was asked there twice
    assert examples["unaligned_a"] == ["0", "1", "2", "3"] and examples["duplicates_a"] == ["5"]
    assert sorted(examples["unaligned_b"]) == ["sum-new-1", "sum-new-2"]
    assert sorted(examples["duplicates_b"]) == ["sum-5", "sum-5-again"]
    assert row["n"] == 19
    assert ("arith: aligned 19 of 24 (A) and 23 (B) samples by content; A unaligned 4 (0, 1, 2, 3); "
            "B unaligned 2 (") in out
    assert "A duplicates refused 1 (5)" in out


def test_the_paired_test_is_that_of_the_same_questions_computed_directly(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, row = _across(run, capsys)
    lm, insp = _lm_eval_by_question(), _inspect_by_question()
    shared = [q for q in lm if q in insp and not math.isnan(insp[q])]
    assert len(shared) == 19
    a = [lm[q] for q in shared]
    b = [insp[q] for q in shared]
    a_only = sum(x == 1 and y == 0 for x, y in zip(a, b))
    b_only = sum(x == 0 and y == 1 for x, y in zip(a, b))
    assert (row["a_only"], row["b_only"]) == (a_only, b_only) and a_only + b_only > 0
    assert row["test"] == "mcnemar-exact"
    assert row["p"] == pytest.approx(binomial_two_sided_p(a_only, b_only))
    assert row["value_a"] == pytest.approx(100 * sum(a) / 19) and row["value_b"] == pytest.approx(100 * sum(b) / 19)
    _, se, half = t_interval([100 * (x - y) for x, y in zip(a, b)], 0.95)
    assert row["se"] == pytest.approx(se) and row["diff"] == pytest.approx(100 * (sum(a) - sum(b)) / 19)
    assert (row["low"], row["high"]) == (pytest.approx(row["diff"] - half), pytest.approx(row["diff"] + half))


def test_each_pair_is_one_question_asked_through_both_tools(run: Path) -> None:
    def side(folder: str) -> tuple[Path, str, str, dict[str, Any]]:
        return run, folder, "arith", json.loads((run / "results" / folder / "arith.json").read_text())

    a, b = side("scripted-a"), side("mockllm__scripted-b")
    alignment = align_results(a, b, "content")
    assert not isinstance(alignment, str)
    details_a, details_b = a[3]["details"], b[3]["details"]
    for i, j in alignment.pairs:
        lm_doc, insp = details_a[i], details_b[j]
        assert lm_doc["question"] == insp["question"] == insp["prompt"]
        assert lm_doc["prompt"] == f"Question: {insp['prompt']}\nAnswer:"
        assert lm_doc["reference"].endswith(f"#### {insp['reference']}")
        assert lm_doc[LM_METRIC] == _lm_eval_by_question()[insp["question"]]
        assert insp[INSPECT_METRIC] == _inspect_by_question()[insp["question"]]


def test_too_few_aligned_samples_are_refused_with_the_counts(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the one dataset refused: nothing was compared, which the exit status says (the table and the JSON say why)
    out, row = _across(run, capsys, "--min-aligned", "0.9", status=1)
    assert "p" not in row and row["alignment"]["aligned"] == 19
    assert row["reason"] == ("too few samples align by content: 19 of 24 (A) and 23 (B), 21 needed "
                             "(--min-aligned 0.9); are these the same dataset?")
    assert "too few samples align by content" in out
    # by the tools' ids nothing aligns: lm-evaluation-harness numbers its documents, inspect_ai names them
    _, by_id = _across(run, capsys, "--align", "id", status=1)
    assert "p" not in by_id and by_id["alignment"]["aligned"] == 0 and by_id["alignment"]["unaligned_a"] == 24


def test_another_dataset_under_the_same_name_is_refused(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """inspect's own arithmetic task shares one question with lm-evaluation-harness's: far too few."""
    out, row = _compare(run, capsys, "scripted-a", "other-b", "--datasets", "arith",
                        "--metric", LM_METRIC, "--metric-b", INSPECT_METRIC, status=1)
    assert "p" not in row and "diff" not in row
    assert row["alignment"]["aligned"] == 1 and (row["alignment"]["samples_a"], row["alignment"]["samples_b"]) == (24, 12)
    assert row["reason"].startswith("too few samples align by content: 1 of 24 (A) and 12 (B), 6 needed")
    assert "are these the same dataset?" in out


def test_a_comparison_that_compared_nothing_exits_non_zero_and_says_so(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["compare", "-w", str(run), "scripted-a", "other-b", "--datasets", "arith",
                 "--metric", LM_METRIC, "--metric-b", INSPECT_METRIC]) == 1
    err = capsys.readouterr().err
    assert "assay compare: nothing was compared — every dataset was refused (arith: too few samples align by content" in err
    assert list((run / "summary").glob("compare_scripted-a_vs_other-b_*.json"))  # what was found is still written


def test_without_metric_names_two_tools_are_asked_for_them(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, row = _compare(run, capsys, "scripted-a", "mockllm__scripted-b", "--datasets", "arith", status=1)
    assert row["reason"] == "the two results share no metric (name each model's with --metric and --metric-b)"


def test_one_tools_results_pair_by_id_checked_by_the_document_hash(
    run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Model B's samples in another order still pair with model A's by ``doc_id``; a document whose hash differs
    between the two is refused and counted."""
    _, straight = _compare(run, capsys, "scripted-a", "scripted-b", "--datasets", "arith", "--metric", LM_METRIC)
    assert straight["alignment"]["mode"] == "id" and straight["alignment"]["aligned"] == 24
    copy = tmp_path / "w" / run.name
    shutil.copytree(run, copy, ignore=shutil.ignore_patterns("summary", "index.sqlite*", ".assay.lock"))
    path = copy / "results" / "scripted-b" / "arith.json"
    data = json.loads(path.read_text())
    data["details"].reverse()
    path.write_text(json.dumps(data))
    _, reversed_ = _compare(copy, capsys, "scripted-a", "scripted-b", "--datasets", "arith", "--metric", LM_METRIC)
    assert {k: reversed_[k] for k in ("n", "a_only", "b_only", "p", "diff")} == {
        k: straight[k] for k in ("n", "a_only", "b_only", "p", "diff")}
    data["details"][0]["doc_hash"] = "0" * 64  # doc_id 23 in model B's order
    path.write_text(json.dumps(data))
    _, hashed = _compare(copy, capsys, "scripted-a", "scripted-b", "--datasets", "arith", "--metric", LM_METRIC)
    assert hashed["alignment"]["conflicts"] == 1 and hashed["n"] == 23
    assert hashed["alignment"]["examples"]["conflicts"] == [{"a": "23", "b": "23", "why": "different document hashes"}]


def test_assay_own_result_pairs_with_a_tools_by_the_question_its_prompt_quotes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """assay scores saved predictions of lm-evaluation-harness's questions under a template of its own; compared
    with lm-evaluation-harness's model, the questions pair whatever the order of the predictions."""
    rows = [json.loads(line) for line in (LM_EVAL / "tasks" / "arith.jsonl").read_text().splitlines()]
    order = list(range(len(rows)))[::-1]  # assay's dataset lists them the other way round
    (tmp_path / "arith.jsonl").write_text("".join(json.dumps(rows[k]) + "\n" for k in order))
    preds = {}
    for n, k in enumerate(order):
        number = int(rows[k]["answer"].rsplit("#### ", 1)[1])
        reply = f"The answer is {number if k % 3 else number + 1}."
        preds[str(n)] = {"origin_prompt": [{"role": "HUMAN", "prompt": f"Q: {rows[k]['question']}\nA:"}], "prediction": reply}
    (tmp_path / "predictions" / "own").mkdir(parents=True)
    (tmp_path / "predictions" / "own" / "arith.json").write_text(json.dumps(preds))
    config = tmp_path / "config.py"
    config.write_text(
        "from opencompass.datasets import Gsm8kEvaluator, JsonlDataset, gsm8k_dataset_postprocess, gsm8k_postprocess\n"
        "datasets = [dict(abbr='arith', type=JsonlDataset, path='arith.jsonl',\n"
        "    reader_cfg=dict(input_columns=['question'], output_column='answer'),\n"
        "    eval_cfg=dict(evaluator=dict(type=Gsm8kEvaluator), pred_postprocessor=dict(type=gsm8k_postprocess),\n"
        "                  dataset_postprocessor=dict(type=gsm8k_dataset_postprocess)))]\n"
        "models = [dict(abbr='own', path='own', predictions='predictions/own')]\n"
        f"sources = [dict(type='lm_eval', path={str(LM_EVAL / 'out' / 'scripted-a')!r}, datasets={{'assay_arith': 'arith'}})]\n"
    )
    work = tmp_path / "w"
    assert main(["run", str(config), "-w", str(work), "--no-report"]) == 0
    (run,) = work.iterdir()
    _, row = _compare(run, capsys, "own", "scripted-a", "--datasets", "arith", "--metric", "accuracy", "--metric-b", LM_METRIC)
    assert row["alignment"]["mode"] == "content" and row["alignment"]["aligned"] == 24 and row["n"] == 24
    lm = _lm_eval_by_question()
    own = {rows[k]["question"]: float(k % 3 != 0) for k in order}
    a_only = sum(own[q] == 1 and lm[q] == 0 for q in lm)
    b_only = sum(own[q] == 0 and lm[q] == 1 for q in lm)
    assert (row["a_only"], row["b_only"]) == (a_only, b_only)
    assert row["p"] == pytest.approx(binomial_two_sided_p(a_only, b_only))
    by_position = [(float(order[n] % 3 != 0), lm[rows[n]["question"]]) for n in range(len(rows))]
    assert (sum(x > y for x, y in by_position), sum(x < y for x, y in by_position)) != (a_only, b_only)


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "0", "2", "half"])
def test_a_min_aligned_that_is_no_share_of_the_samples_is_refused_by_name(
    run: Path, value: str, capsys: pytest.CaptureFixture[str],
) -> None:
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        main(["compare", "-w", str(run), "scripted-a", "mockllm__scripted-b", "--datasets", "arith",
              "--metric", LM_METRIC, "--metric-b", INSPECT_METRIC, "--min-aligned", value])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"--min-aligned: {value!r} is not" in err and "above 0 and at most 1" in err and "Traceback" not in err


def test_a_fraction_against_a_percent_is_compared_in_percent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.py"
    config.write_text(
        "models = []\ndatasets = []\nsources = [\n"
        f"    dict(type='lm_eval', path={str(LM_EVAL / 'out')!r}, datasets={{'assay_arith': 'arith'}}, percent=False),\n"
        f"    dict(type='inspect_ai', path={str(SHARED)!r}, datasets={{'assay_arith_shared': 'arith'}}),\n"
        "]\n"
    )
    fraction_run = tmp_path / "w" / "20250101_000000"
    (fraction_run / "results").mkdir(parents=True)
    assert main(["summarize", str(config), "-w", str(fraction_run), "--no-report"]) == 0
    assert json.loads((fraction_run / "results" / "scripted-a" / "arith.json").read_text())[LM_METRIC] <= 1  # lm-eval's 0–1
    _, row = _across(fraction_run, capsys)
    lm, insp = _lm_eval_by_question(), _inspect_by_question()
    shared = [q for q in lm if q in insp and not math.isnan(insp[q])]
    a, b = [lm[q] for q in shared], [insp[q] for q in shared]
    assert row["value_a"] == pytest.approx(100 * sum(a) / len(a)) and row["value_b"] == pytest.approx(100 * sum(b) / len(b))
    assert row["diff"] == pytest.approx(100 * (sum(a) - sum(b)) / len(a))
    assert row["test"] == "mcnemar-exact"
    assert (row["a_only"], row["b_only"]) == (sum(x == 1 and y == 0 for x, y in zip(a, b)), sum(x == 0 and y == 1 for x, y in zip(a, b)))
