"""Fake-Alignment (loader and consistency judge) against OpenCompass 0.5.4's recordings.

``scripts/record_oc_judge_d.py`` ran, with OpenCompass installed, the library
config on small files in the layout its loader reads
(``tests/data/oc_families/judge_d/cache/data/fake_alignment``): unchanged,
where OpenCompass's evaluator stops for want of a judge, and with one change, a
judge model (``judge_model_cfg``) at a local server answering each question
with a canned verdict; it recorded the loader's rows, the judge's requests, the
results and the judge-details files.  Here the same configs load the same rows;
the unchanged one is refused before anything runs, naming what it lacks; and
``assay eval`` of the judged one against a real local server giving the same
replies sends the same requests and computes OpenCompass's metrics, details
and judge-details files.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.errors import ConfigError, InputFileError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET
from tests.judge.fake_server import FakeJudge, by_item

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "judge_d"
EXPECTED = ROOT / "expected"
RUN = "20250101_000000"
MODEL = "oc-model"


def _record(case: str) -> dict[str, Any]:
    return json.loads((EXPECTED / f"{case}.json").read_text(encoding="utf-8"))


@pytest.fixture
def oc_env(oc_library: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT / "cache"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.chdir(ROOT / "cache")
    return oc_library


def _config(record: dict[str, Any], tmp_path: Path, base: str = "http://127.0.0.1:9/v1") -> Path:
    config = tmp_path / "config.py"
    config.write_text(record["config"].replace("{JUDGE_BASE}", base), encoding="utf-8")
    return config


@pytest.mark.parametrize("case", ["fake_alignment_gen", "fake_alignment_gen_judged"])
def test_library_config_loads_opencompass_rows(case: str, oc_env: Path, tmp_path: Path) -> None:
    """Three rows per question — the open question and both orders of the options — as OpenCompass's loader gives."""
    from assay import load_config

    record = _record(case)
    datasets = list(load_config(_config(record, tmp_path)).variables["datasets"])
    assert sorted(d["abbr"] for d in datasets) == sorted(record["datasets"])
    for ds in datasets:
        loader = record["datasets"][ds["abbr"]]["loader"]
        args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg")}
        assert args == loader["args"]
        assert ds["type"].__module__ == "assay.datasets.fake_alignment"
        rows = [dict(r) for r in ds["type"].load(**args)]
        assert json.loads(json.dumps(rows, ensure_ascii=False)) == loader["rows"], ds["abbr"]


def test_library_config_without_a_judge_is_refused(oc_env: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """OpenCompass's evaluator stops when it scores (recorded); assay's dry run says why before anything runs."""
    record = _record("fake_alignment_gen")
    assert all("judge_model_cfg is required" in e["exception"] for e in record["datasets"].values())
    with contextlib.suppress(SystemExit):
        main(["run", str(_config(record, tmp_path)), "-w", str(tmp_path / "work"), "--dry-run"])
    out = capsys.readouterr()
    assert "judge_model_cfg is required" in out.out + out.err
    with pytest.raises(ConfigError, match="judge_model_cfg is required"):
        ICL_EVALUATORS.get("FakeAlignmentJudgeEvaluator")()


def test_library_config_judges_as_opencompass(oc_env: Path, tmp_path: Path) -> None:
    """``assay eval`` with a judge: OpenCompass's requests, metrics, per-question details and judge-details files."""
    record = _record("fake_alignment_gen_judged")
    work = tmp_path / "work"
    shutil.copytree(ROOT / "predictions" / MODEL, work / RUN / "predictions" / MODEL)
    with FakeJudge(by_item(record["replies"])) as server:
        config = _config(record, tmp_path, server.base_url)
        with contextlib.suppress(SystemExit):
            main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
        bodies = list(server.bodies)
    want = [b for e in record["datasets"].values() for b in e["requests"]]
    assert sorted(json.dumps(b, sort_keys=True) for b in bodies) == sorted(json.dumps(b, sort_keys=True) for b in want)
    results = work / RUN / "results" / MODEL
    for abbr, entry in record["datasets"].items():
        result = json.loads((results / f"{abbr}.json").read_text(encoding="utf-8"))
        assert "error" not in result, result
        numbers = {k: v for k, v in entry["result"].items() if isinstance(v, (int, float))}
        others = {k: v[0] for k, v in entry["result"].items() if k not in numbers}  # OpenCompass lists them per run
        assert numbers and {k: result.get(k) for k in numbers} == pytest.approx(numbers, abs=1e-9), abbr
        assert {k: result.get(k) for k in others} == others, abbr
        # OpenCompass lists one detail per question, assay one per sample: each of the question's three rows
        assert len(result["details"]) == 3 * len(entry["details"])
        for got, expected in zip(result["details"][::3], entry["details"]):
            assert {k: got.get(k) for k in expected if k != "example_abbr"} == {
                k: v for k, v in expected.items() if k != "example_abbr"}, abbr
        for name, records in entry["files"].items():
            assert json.loads((results / name).read_text(encoding="utf-8")) == records, name


def test_question_missing_a_reply_is_named() -> None:
    ev = ICL_EVALUATORS.get("FakeAlignmentJudgeEvaluator")(judge_model_cfg=dict(type="OpenAISDK", path="j",
                                                                                  openai_api_base="http://127.0.0.1:9/v1"))
    rows = [{"original_idx": 0, "call_type": c, "id": 7, "question": "q", "category": "x"}
            for c in ("open_generation", "choice_forward")]
    result = ev.score(["a", "b"], None, rows)
    assert "7" in result["error"] and "choice_reverse" in result["error"]


def test_not_jsonl_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "safety.json"
    data.write_text("[]", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"safety\.json is not a \.jsonl file"):
        LOAD_DATASET.get("FakeAlignmentDataset").load(path=str(data))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "q", "category": "c"}\n', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"bad\.jsonl line 1 has no 'Positive Option', 'Negative Option'"):
        LOAD_DATASET.get("FakeAlignmentDataset").load(path=str(bad))


def test_pred_postprocessor_is_applied_before_judging() -> None:
    """The evaluator's ``pred_postprocessor`` reaches the replies (OpenCompass postprocesses them before scoring):
    the reasoning is stripped, so the choice replies no longer name both options."""
    rows = [{"original_idx": 0, "id": 0, "category": "c", "question": "q", "call_type": c}
            for c in ("open_generation", "choice_forward", "choice_reverse")]
    preds = ["<think>hmm</think>I cannot help with that.", "<think>A or B?</think>Option: [[A]]",
             "<think>A or B?</think>Option: [[B]]"]
    with FakeJudge(lambda messages, attempt: ("reply", "Judgement: [[safe]]")) as server:
        ev = ICL_EVALUATORS.get("FakeAlignmentJudgeEvaluator")(
            judge_model_cfg=dict(type="OpenAISDK", path="j", key="k", openai_api_base=server.base_url),
            pred_postprocessor=dict(type="extract-non-reasoning-content"), cache_path=False)
        result = ev.evaluate(1, 1, rows, predictions=preds, references=None, test_set=rows)
    assert result["cs_score"] == 100.0 and result["css_score"] == 100.0, result


def test_unknown_keyword_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"FakeAlignmentJudgeEvaluator.*judge_modle_cfg"):
        ICL_EVALUATORS.get("FakeAlignmentJudgeEvaluator")(judge_model_cfg=dict(type="OpenAISDK", path="j"),
                                                          judge_modle_cfg={})
