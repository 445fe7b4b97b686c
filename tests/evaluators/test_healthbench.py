"""HealthBench (loader and rubric grader) against OpenCompass 0.5.4's recordings.

``scripts/record_oc_judge_d.py`` ran, with OpenCompass installed, the library
config on small files in the layout its loader reads (a local folder named like
the Hugging Face dataset, under ``tests/data/oc_families/judge_d/cache``), its
grader a local server answering each rubric item with a canned reply — some
items first with replies OpenCompass asks again for (not JSON, a
``criteria_met`` that is a string, an empty reply) — and recorded the loader's
rows, the requests the grader got and the results.  Here the library config,
imported unchanged, loads the same rows, and ``assay eval`` against a real
local server giving the same replies sends the same requests and computes
OpenCompass's ``accuracy``.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.errors import ConfigError
from assay.evaluate.base import INCOMPLETE_KEY
from assay.registry import ICL_EVALUATORS, LOAD_DATASET
from tests.evaluators._library import config_datasets, judged_family_env
from tests.judge.fake_server import FakeJudge, use_as_oc_judge

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "judge_d"
RECORD = ROOT / "expected" / "healthbench_gen_831613.json"
RUN = "20250101_000000"
MODEL = "oc-model"


def _record() -> dict[str, Any]:
    return json.loads(RECORD.read_text(encoding="utf-8"))


def scripted(replies: list[Any]) -> Any:
    """The recording's grader: messages saying ``item N`` get ``replies[N % len]``, a list its entries in turn
    for the same messages asked again (the last one from then on)."""

    def script(messages: list[dict[str, Any]], attempt: int) -> tuple[Any, ...]:
        match = re.search(r"item (\d+)", "\n".join(str(m.get("content")) for m in messages))
        choice = replies[(int(match.group(1)) if match else 0) % len(replies)]
        return ("reply", choice[min(attempt, len(choice)) - 1] if isinstance(choice, list) else choice)

    return script


def _sorted(bodies: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(b, sort_keys=True, ensure_ascii=False) for b in bodies)


@pytest.fixture
def oc_env(oc_library: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    judged_family_env(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    return oc_library


def test_library_config_loads_opencompass_rows(oc_env: Path, tmp_path: Path) -> None:
    """Each subset of the library config: OpenCompass's rows, with the conversation's reply slot (``prompt_trans``)."""
    record = _record()
    datasets = config_datasets(record["config"], tmp_path)
    assert sorted(d["abbr"] for d in datasets) == sorted(record["datasets"])
    for ds in datasets:
        loader = record["datasets"][ds["abbr"]]["loader"]
        args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg")}
        assert args == loader["args"]
        assert ds["type"].__module__ == "assay.datasets.healthbench"
        rows = [dict(r) for r in ds["type"].load(**args)]
        assert json.loads(json.dumps(rows, ensure_ascii=False)) == loader["rows"], ds["abbr"]


def _eval(record: dict[str, Any], tmp_path: Path, server: FakeJudge, work: Path) -> None:
    if not (work / RUN / "predictions").exists():
        shutil.copytree(ROOT / "predictions" / MODEL, work / RUN / "predictions" / MODEL)
    config = tmp_path / "config.py"
    config.write_text(record["config"], encoding="utf-8")
    with contextlib.suppress(SystemExit):
        main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])


def test_library_config_grades_as_opencompass(oc_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``assay eval``: OpenCompass's grader requests (each item asked again while its reply holds no boolean
    ``criteria_met``) and its ``accuracy``; scored again, nothing is asked (the accepted replies are cached)."""
    record = _record()
    work = tmp_path / "work"
    with FakeJudge(scripted(record["replies"])) as server:
        use_as_oc_judge(server, monkeypatch)
        _eval(record, tmp_path, server, work)
        want = [b for e in record["datasets"].values() for b in e["requests"]]
        assert _sorted(server.bodies) == _sorted(want)
        for abbr, entry in record["datasets"].items():
            result = json.loads((work / RUN / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
            assert "error" not in result, result
            assert result["accuracy"] == entry["result"]["accuracy"], abbr
        for path in (work / RUN / "results" / MODEL).glob("*.json"):
            path.unlink()
        _eval(record, tmp_path, server, work)
        assert len(server.bodies) == len(want)
        assert (work / RUN / "results" / MODEL / "healthbench.json").is_file()


def test_unknown_subset_names_it(oc_env: Path) -> None:
    with pytest.raises(ConfigError, match="subset='easy'"):
        LOAD_DATASET.get("HealthBenchDataset").load(path="huihuixu/healthbench", subset="easy")


def _row(points: list[Any]) -> dict[str, Any]:
    return {"prompt": [{"role": "user", "content": "q"}], "prompt_id": "x-1",
            "rubrics": [{"criterion": f"c{i}", "points": p, "tags": []} for i, p in enumerate(points)]}


def test_sample_without_positive_points_is_refused_before_asking(monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenCompass stops with an AssertionError there; assay says which sample, and asks the grader nothing."""
    with FakeJudge(lambda m, a: ("reply", '{"criteria_met": true}')) as server:
        monkeypatch.setenv("OC_JUDGE_MODEL", "judge-model")
        monkeypatch.setenv("OC_JUDGE_API_BASE", server.base_url)
        ev = ICL_EVALUATORS.get("HealthBenchEvaluator")(cache_path=False)
        result = ev.score(["a", "b"], ["x-0", "x-1"], [_row([3]), _row([-2, 0])])
        assert "x-1" in result["error"] and "positive points" in result["error"]
        assert server.requests == 0


def test_grader_that_never_answers_leaves_the_sample_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rubric item whose replies never hold a boolean ``criteria_met`` is asked ``max_grading_attempts`` times,
    then its sample is left out of ``accuracy`` and listed as incomplete (OpenCompass asks for ever)."""
    def script(messages: list[dict[str, Any]], attempt: int) -> tuple[Any, ...]:
        return ("reply", "no idea" if "c9" in messages[-1]["content"] else '{"criteria_met": true}')

    with FakeJudge(script) as server:
        monkeypatch.setenv("OC_JUDGE_MODEL", "judge-model")
        monkeypatch.setenv("OC_JUDGE_API_BASE", server.base_url)
        ev = ICL_EVALUATORS.get("HealthBenchEvaluator")(max_grading_attempts=3, cache_path=False)
        bad = {**_row([4]), "rubrics": [{"criterion": "c9", "points": 4, "tags": []}]}
        result = ev.score(["a", "b"], ["x-0", "x-1"], [_row([2, -1]), bad])
        assert result["accuracy"] == pytest.approx(0.5)  # (2 - 1) / 2 for the first sample alone
        assert [(e["kind"], e["count"]) for e in result[INCOMPLETE_KEY]] == [("unjudged", 1)]
        assert "no boolean criteria_met" in result[INCOMPLETE_KEY][0]["detail"]
        assert server.requests == 2 + 3


def test_accuracy_is_opencompass_to_the_last_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    """``accuracy`` equals OpenCompass's exactly (its NumPy mean sums the 32 scores pairwise, which here ends one bit
    away from summing them in turn), recorded by ``scripts/record_oc_judge_d.py`` with a grader finding an item met
    when its criterion says it holds."""
    record = json.loads((ROOT / "expected" / "healthbench_accuracy.json").read_text(encoding="utf-8"))
    rows = record["rows"]

    def script(messages: list[dict[str, Any]], attempt: int) -> tuple[Any, ...]:
        met = "criterion-holds" in "\n".join(str(m.get("content")) for m in messages)
        return ("reply", json.dumps({"explanation": "", "criteria_met": met}))

    with FakeJudge(script) as server:
        monkeypatch.setenv("OC_JUDGE_MODEL", "judge-model")
        monkeypatch.setenv("OC_JUDGE_API_BASE", server.base_url)
        result = ICL_EVALUATORS.get("HealthBenchEvaluator")(cache_path=False).score(
            list(record["predictions"]), [r["prompt_id"] for r in rows], rows)
    assert result["accuracy"] == record["accuracy"]


def test_grader_without_oc_judge_api_base_is_asked_at_openai_base_url(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``OC_JUDGE_API_BASE`` unset the grader is the one ``OPENAI_BASE_URL`` names, as OpenCompass's OpenAI
    client finds it; the replies go nowhere else."""
    with FakeJudge(lambda m, a: ("reply", '{"explanation": "", "criteria_met": true}')) as server:
        monkeypatch.setenv("OC_JUDGE_MODEL", "judge-model")
        monkeypatch.setenv("OC_JUDGE_API_KEY", "sk-judge-test")
        monkeypatch.delenv("OC_JUDGE_API_BASE", raising=False)
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        result = ICL_EVALUATORS.get("HealthBenchEvaluator")(cache_path=False).score(["a"], ["x-0"], [_row([2, 1])])
        assert server.requests == 2
    assert result["accuracy"] == 1.0
