"""lm-evaluation-harness's own output files (recorded by ``scripts/record_lm_eval.py``) read by assay."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from assay.errors import ConfigError, InputFileError
from assay.sources import mean_stderr, read_source
from assay.sources.lm_eval import read_lm_eval

OUT = Path(__file__).parent.parent / "data" / "sources" / "lm_eval" / "out"


def _printed_rows(path: Path) -> list[tuple[str, str, str, str, str]]:
    """(task or group, filter, metric, value, stderr) of every row of lm-evaluation-harness's printed task table."""
    rows, task = [], ""
    for line in path.read_text().split("\n\n")[0].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 9 or cells[0] in ("Tasks",) or (set(cells[0]) <= {"-"} and cells[0]):
            continue
        name = cells[0].removeprefix("- ").strip() or task
        task = name
        rows.append((name, cells[2], cells[4], cells[6], cells[8]))
    return rows


@pytest.mark.parametrize("model", ["scripted-a", "scripted-b"])
def test_every_number_lm_eval_printed_is_read_back(model: str) -> None:
    (run,) = [r for r in read_lm_eval(OUT) if r.model == model]
    assert run.tool == "lm_eval" and run.version == "0.4.13"
    rows = _printed_rows(OUT / model / "printed.md")
    assert len(rows) == 8
    for name, flt, metric, value, stderr in rows:
        entry = run.groups[name] if name in run.groups else run.results[name]
        key = f"{metric},{flt}"
        assert f"{entry.metrics[key]:.4f}" == value, (name, key)
        assert f"{entry.stderr[key]:.4f}" == stderr, (name, key)


def test_logged_samples_give_the_reported_means_and_standard_errors() -> None:
    for run in read_lm_eval(OUT):
        for result in run.results.values():
            assert result.samples and result.check() == []
            for metric, value in result.metrics.items():
                values = result.sample_values(metric)
                assert len(values) == result.n_samples
                assert sum(values) / len(values) == pytest.approx(value, abs=1e-12)
                assert mean_stderr(values) == pytest.approx(result.stderr[metric], rel=1e-9)


def test_samples_keep_identity_reply_extraction_and_hashes() -> None:
    (run,) = [r for r in read_lm_eval(OUT / "scripted-a")]
    arith = run.results["assay_arith"]
    first = arith.samples[0]
    assert first.key == "0" and first.doc is not None and first.doc["id"] == "arith-0"
    assert first.prompt == "Question: What is 22 plus 11?\nAnswer:"
    assert first.reply == "I think it is 33."
    # the two filters of the same reply: the strict one finds no '####', the flexible one takes the number
    assert first.extracted == {"strict-match": "[invalid]", "flexible-extract": "33."}
    assert first.values == {"exact_match,strict-match": 0.0, "exact_match,flexible-extract": 1.0}
    assert set(first.hashes) == {"doc_hash", "prompt_hash", "target_hash"}
    mcq = run.results["assay_mcq_a"].samples[0]
    assert mcq.reply is None and mcq.extracted == {} and set(mcq.values) == {"acc,none", "acc_norm,none"}
    suite = run.groups["assay_mcq_suite"]
    assert suite.members == ["assay_mcq_a", "assay_mcq_b"] and suite.n_samples == {"acc,none": 28, "acc_norm,none": 28}


def test_one_results_file_or_a_model_folder_reads_as_the_whole_output() -> None:
    (file,) = sorted((OUT / "scripted-b").glob("results_*.json"))
    (one,) = read_source("lm_eval", file)
    (whole,) = [r for r in read_source("lm_eval", OUT) if r.model == "scripted-b"]
    assert one.results.keys() == whole.results.keys()
    assert {k: v.metrics for k, v in one.results.items()} == {k: v.metrics for k, v in whole.results.items()}


def _copy(tmp_path: Path, model: str = "scripted-a") -> Path:
    target = tmp_path / "out" / model
    shutil.copytree(OUT / model, target)
    return target


def test_a_truncated_samples_file_is_an_error_naming_the_file_and_line(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (samples,) = folder.glob("samples_assay_mcq_b_*.jsonl")
    data = samples.read_bytes()
    samples.write_bytes(data[: len(data) // 2])  # cut inside a line, as a killed writer leaves it
    lines = samples.read_bytes().count(b"\n") + 1
    with pytest.raises(InputFileError, match=rf"samples file {re.escape(str(samples))}, line {lines}: not valid JSON"):
        read_lm_eval(tmp_path / "out")


def test_a_malformed_or_foreign_results_file_is_an_error_naming_it(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (results,) = folder.glob("results_*.json")
    text = results.read_text()
    results.write_text(text[:200])
    with pytest.raises(InputFileError, match=rf"results file {re.escape(str(results))} is not valid JSON"):
        read_lm_eval(tmp_path / "out")
    results.write_text('{"accuracy": 50.0}')
    with pytest.raises(InputFileError, match=rf"{re.escape(str(results))}: no 'results' object"):
        read_lm_eval(tmp_path / "out")
    results.write_text(text.replace('"acc,none": 0.6875', '"acc,none": "high"'))
    with pytest.raises(InputFileError, match=r"results\['assay_mcq_a'\]\['acc,none'\] is 'high', not a number"):
        read_lm_eval(tmp_path / "out")


def test_a_repeated_sample_a_missing_folder_and_an_unknown_tool_are_errors(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (samples,) = folder.glob("samples_assay_mcq_a_*.jsonl")
    first = samples.read_text().splitlines()[0]
    samples.write_text(samples.read_text() + first + "\n")
    with pytest.raises(InputFileError, match=r"line 17: doc_id 0 appears twice for filter 'none'"):
        read_lm_eval(tmp_path / "out")
    with pytest.raises(InputFileError, match=r"no results_<time>\.json file"):
        (tmp_path / "empty").mkdir()
        read_lm_eval(tmp_path / "empty")
    with pytest.raises(InputFileError, match="does not exist"):
        read_lm_eval(tmp_path / "nowhere")
    with pytest.raises(ConfigError, match="unknown source tool 'helmet'; assay reads: helm, inspect_ai, lm_eval"):
        read_source("helmet", tmp_path)


def test_without_logged_samples_the_numbers_still_read(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    for samples in folder.glob("samples_*.jsonl"):
        samples.unlink()
    (run,) = read_lm_eval(tmp_path / "out")
    assert run.results["assay_arith"].samples == [] and run.results["assay_arith"].metrics["exact_match,strict-match"] == 0.5
    assert run.results["assay_arith"].check() == []
