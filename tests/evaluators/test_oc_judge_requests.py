"""OpenCompass's LLM-judge configs run by ``assay eval`` send OpenCompass's requests and score as it does.

Each case (recorded by ``scripts/record_oc_judge_requests.py`` in
``tests/data/oc_families/judge/expected``) is a config importing one of
OpenCompass 0.5.4's library configs unchanged (``aime2024_llmjudge``,
``math_500_llmjudge``, ``gpqa_cascade_eval``, the cascade and raw-prompt
variants; a few change one thing: ``parallel=True``, a ``judge_cfg`` of their
own).  assay evaluates the same predictions against a real local judge server
that answers every request with a reply derived from its messages
(:func:`tests.judge.fake_server.hashed_verdict`), and the test compares: the
request bodies (messages, model, ``max_tokens``, ``n``, ``temperature``) and
the API key sent with them, the metrics of the result file, and the judge-reply
files written beside it, with what OpenCompass sent, computed and wrote.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from tests.evaluators._library import judged_family_env
from tests.judge.fake_server import FakeJudge, hashed_verdict, in_stable_order, use_as_oc_judge, write_judged_config

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "judge"
EXPECTED = ROOT / "expected"
RUN = "20250101_000000"
MODEL = "oc-model"


def _cases() -> list[Any]:
    return [pytest.param(p.stem, id=p.stem) for p in sorted(EXPECTED.glob("*.json"))]


def _numbers(metrics: dict[str, Any]) -> dict[str, float]:
    return {k: v for k, v in metrics.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}


@pytest.mark.slow
@pytest.mark.parametrize("case", _cases())
def test_judge_config_sends_opencompass_requests(case: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = json.loads((EXPECTED / f"{case}.json").read_text(encoding="utf-8"))
    judged_family_env(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in record["datasets"]:
        shutil.copy(ROOT / "predictions" / f"{abbr}.json", predictions / f"{abbr}.json")

    with FakeJudge(lambda messages, attempt: ("reply", hashed_verdict(messages))) as server:
        use_as_oc_judge(server, monkeypatch)
        config = write_judged_config(tmp_path / "config.py", record["config"], server)
        main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
        bodies, headers = list(server.bodies), list(server.headers)

    results = work / RUN / "results" / MODEL
    expected_bodies = [b for entry in record["datasets"].values() for b in entry["requests"]]
    # the same requests, body for body (the judge is called from threads: compared sorted)
    assert in_stable_order(bodies) == in_stable_order(expected_bodies)
    expected_auth = {a for entry in record["datasets"].values() for a in entry["authorization"]}
    assert {v for h in headers for k, v in h.items() if k.lower() == "authorization"} == expected_auth

    for abbr, entry in record["datasets"].items():
        assert "exception" not in entry, entry.get("exception")
        result = json.loads((results / f"{abbr}.json").read_text(encoding="utf-8"))
        assert "error" not in result, result
        expected = _numbers(entry["result"])
        got = {k: result[k] for k in expected if k in result}
        assert got == pytest.approx(expected, abs=1e-9), abbr
        if "cascade_stats" in entry["result"]:
            stats = entry["result"]["cascade_stats"]
            stats = stats[0] if isinstance(stats, list) else stats  # OpenCompass lists it once per replica
            assert {k: result["cascade_stats"][k] for k in stats} == pytest.approx(stats, abs=1e-9), abbr
        # per sample: the judge's reply, and the cascade's verdicts of the rule, the judge and both
        assert len(result["details"]) == len(entry["details"])
        for i, (got, want) in enumerate(zip(result["details"], entry["details"])):
            if "cascade_correct" in want:
                assert got["cascade_correct"] == want["cascade_correct"], (abbr, i)
                assert [r["correct"] for r in got["rule_evaluation"]] == [r["correct"] for r in want["rule_evaluation"]], (abbr, i)
                judged = [x for x in got.get("llm_evaluation") or [] if x is not None]
                expected_judged = want.get("llm_evaluation") or []
                assert [(x["llm_correct"], x["judge_response"]) for x in judged] == [
                    (x["llm_correct"], x["prediction"]) for x in expected_judged], (abbr, i)
            else:
                assert got["judge_response"] == want["prediction"], (abbr, i)
        # the judge-reply files: OpenCompass's names, beside the result, its records
        for name, records in entry["files"].items():
            if not name.endswith(".json"):
                continue
            written = json.loads((results / name).read_text(encoding="utf-8"))
            assert written == records, name


LIBRARY = json.loads((ROOT / "library_prompts.json").read_text(encoding="utf-8"))
#: The meta templates of scripts/record_oc_judge_requests.py's LIBRARY_META_TEMPLATES, in its order.
LIBRARY_META_TEMPLATES = [
    {"round": [{"role": "HUMAN", "api_role": "HUMAN"}, {"role": "BOT", "api_role": "BOT", "generate": True}]},
    {"round": [{"role": "HUMAN", "api_role": "HUMAN"}, {"role": "BOT", "api_role": "BOT", "generate": True}],
     "reserved_roles": [{"role": "SYSTEM", "api_role": "SYSTEM"}]},
    None,
]


def _library_entry(reader_cfg: dict[str, Any]) -> dict[str, Any]:
    columns = [c for c in [*(reader_cfg.get("input_columns") or []), reader_cfg.get("output_column") or "answer"]
               if isinstance(c, str)]
    entry: dict[str, Any] = {c: f"<{c} {{prediction}} $x^{{2}}$>" for c in columns}
    entry.update(prediction="P {reference}", obj_gold="G", reference="R")
    return entry


def _judge_evaluators(evaluator: Any) -> list[dict[str, Any]]:
    if not isinstance(evaluator, dict):
        return []
    found = [evaluator] if "prompt_template" in evaluator and "judge_cfg" in evaluator else []
    return found + _judge_evaluators(evaluator.get("llm_evaluator"))


@pytest.mark.slow
def test_every_library_judge_prompt_renders_to_opencompass_messages(oc_library: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Every judge prompt of the library configs (138 files, recorded from OpenCompass), for one sample
    whose fields hold placeholders and braces, with three meta templates: the same messages."""
    import hashlib

    from assay import load_config
    from assay.judge import api_messages, api_prompt, template_prompt

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    differ = []
    for rel, variables in sorted(LIBRARY.items()):
        module = "opencompass.configs.datasets." + rel[: -len(".py")].replace("/", ".")
        config = tmp_path / "config.py"
        config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                          f"    from {module} import {', '.join(variables)}\n", encoding="utf-8")
        loaded = load_config(config).variables
        for variable, expected in variables.items():
            got = []
            for ds in loaded[variable]:
                for ev in _judge_evaluators(ds.get("eval_cfg", {}).get("evaluator")):
                    for meta in LIBRARY_META_TEMPLATES:
                        entry = _library_entry(ds.get("reader_cfg", {}))
                        try:
                            messages = api_messages(api_prompt(template_prompt(ev["prompt_template"], entry), meta))
                        except Exception as exc:
                            got.append(f"error: {type(exc).__name__}")
                            continue
                        text = json.dumps(messages, sort_keys=True, ensure_ascii=False)
                        got.append(hashlib.sha256(text.encode()).hexdigest()[:16])
            if got != expected:
                differ.append(f"{rel}:{variable}")
    assert not differ, differ


@pytest.mark.slow
def test_opencompass_reply_files_in_a_work_dir_scored_in_place_are_kept_when_a_request_fails(
        oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An OpenCompass work directory holding OpenCompass's judge-reply file (as it wrote it for this config),
    scored in place by ``assay eval`` with a judge that refuses one of the prompts: OpenCompass's file is
    left byte for byte, assay's replies go beside it and the result says where (R-12.1)."""
    case = "math_500_llmjudge_gen_6ff468"
    record = json.loads((EXPECTED / f"{case}.json").read_text(encoding="utf-8"))
    (abbr, entry), = record["datasets"].items()
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT / "cache"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(ROOT / "cache")
    work = tmp_path / "work"
    (work / RUN / "predictions" / MODEL).mkdir(parents=True)
    shutil.copy(ROOT / "predictions" / f"{abbr}.json", work / RUN / "predictions" / MODEL / f"{abbr}.json")
    results = work / RUN / "results" / MODEL
    results.mkdir(parents=True)
    (name, theirs), = entry["files"].items()
    written = json.dumps(theirs, indent=4, ensure_ascii=False)
    (results / name).write_text(written, encoding="utf-8")
    refused = entry["requests"][1]["messages"][-1]["content"]

    def judge(messages: list[dict[str, Any]], attempt: int) -> tuple[Any, ...]:
        return ("status", 400) if messages[-1]["content"] == refused else ("reply", hashed_verdict(messages))

    with FakeJudge(judge) as server:
        use_as_oc_judge(server, monkeypatch)
        config = write_judged_config(tmp_path / "config.py", record["config"], server)
        main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])

    assert (results / name).read_text(encoding="utf-8") == written
    ours = json.loads((results / name.replace(".json", ".assay.json")).read_text(encoding="utf-8"))
    assert len(ours) == len(theirs)
    failed = [k for k, r in ours.items() if r["prediction"] is None]
    assert len(failed) == 1 and "HTTP 400" in ours[failed[0]]["judge_error"]
    # every other record is OpenCompass's, prompt and reply (the judge answers a prompt as it answered OpenCompass)
    assert {k: r for k, r in ours.items() if k not in failed} == {k: r for k, r in theirs.items() if k not in failed}
    result = json.loads((results / f"{abbr}.json").read_text(encoding="utf-8"))
    (unjudged,) = result["_meta"]["incomplete"]
    assert unjudged["kind"] == "unjudged" and f"{name} holds replies to some of them and was kept" in unjudged["detail"]
