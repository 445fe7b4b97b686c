"""OpenCompass's subjective library configs run by ``assay run`` judge as OpenCompass 0.5.4 judges.

Each case (recorded by ``scripts/record_oc_subjective.py`` in
``tests/data/oc_families/subjective/expected``) is a run config importing
OpenCompass's library configs unchanged — AlignBench and MT-Bench (single
scores), AlpacaEval (pairs against a reference model's answers, the answers'
order drawn at random) and Arena-Hard (pairs judged in both orders), and
Arena-Hard over every pair of three models — with a judge model pointed at a
real local server that answers every request with a reply derived from its
messages.  assay runs the same config on the same predictions, and the test
compares the judge tasks, the request bodies (keyed by their messages) and
every result file with OpenCompass's.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.rundir.layout import RunDir
from tests.judge.fake_server import FakeJudge, Script, subjective_reply, write_judged_config

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "subjective"
EXPECTED = ROOT / "expected"
RUN = "20250101_000000"


def _record(case: str) -> dict[str, Any]:
    return json.loads((EXPECTED / f"{case}.json").read_text(encoding="utf-8"))


def _key(body: dict[str, Any]) -> str:
    import hashlib

    return hashlib.sha256(json.dumps(body.get("messages"), sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:20]


def _setup(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path) -> tuple[dict[str, Any], Path]:
    record = _record(case)
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT / "cache"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.chdir(ROOT / "cache")
    work = tmp_path / "work"
    for model in sorted({m for t in record["tasks"] for m in t["models"][0].split("_")} | {"model-a", "model-b"}):
        src = ROOT / "predictions" / model
        if src.is_dir():
            shutil.copytree(src, work / RUN / "predictions" / model, dirs_exist_ok=True)
    return record, work


def _run(record: dict[str, Any], work: Path, tmp_path: Path, server: FakeJudge, *extra: str) -> int:
    config = write_judged_config(tmp_path / "config.py", record["config"], server)
    try:
        return main(["run", str(config), "-w", str(work), "-r", RUN, "--workers", "1", *extra])
    except SystemExit as exc:  # pragma: no cover - the command line's exit
        return int(exc.code or 0)


def _retrying_once(config: str) -> str:
    """The recorded config with its judge asking once again after a failed request (not twice)."""
    return config.replace("retry=2", "retry=1")


def _down_for_hawaii(down: dict[str, bool]) -> Script:
    """The subjective judge, but HTTP 503 for the Hawaii prompts while ``down["on"]``."""

    def script(messages: list[dict[str, Any]], attempt: int) -> tuple[Any, ...]:
        if down["on"] and "Hawaii" in json.dumps(messages):
            return ("status", 503)
        return ("reply", subjective_reply(messages))

    return script


def _results(work: Path) -> dict[str, Any]:
    results = work / RUN / "results"
    return {p.relative_to(results).as_posix(): json.loads(p.read_text(encoding="utf-8"))
            for p in sorted(results.rglob("*.json")) if "_judged-by--" in p.parent.name}


@pytest.mark.slow
@pytest.mark.parametrize("case", ["single", "pairwise", "allpair", "variants", "packed"])
def test_subjective_config_judges_as_opencompass(case: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record, work = _setup(case, tmp_path, monkeypatch, oc_library)
    with FakeJudge(lambda messages, attempt: ("reply", subjective_reply(messages))) as server:
        _run(record, work, tmp_path, server)
        bodies, headers = list(server.bodies), list(server.headers)
    got: dict[str, list[Any]] = {}
    for body in bodies:
        got.setdefault(_key(body), []).append(body)
    # the same requests, body for body (keyed by their messages: the judge is called from threads)
    assert sorted(got) == sorted(record["requests"])
    for key, expected in record["requests"].items():
        assert got[key] == expected, key
    assert {v for h in headers for k, v in h.items() if k.lower() == "authorization"} == set(record["authorization"])
    # every result file: OpenCompass's folders, names and content
    assert _results(work) == record["results"]


@pytest.mark.slow
def test_second_run_sends_no_request(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rerun (forced to judge again) takes every reply from the run's cache: the judge gets no request."""
    record, work = _setup("single", tmp_path, monkeypatch, oc_library)
    with FakeJudge(lambda messages, attempt: ("reply", subjective_reply(messages))) as server:
        _run(record, work, tmp_path, server)
        first = len(server.bodies)
        _run(record, work, tmp_path, server, "--force")
        assert first == sum(len(v) for v in record["requests"].values())
        assert len(server.bodies) == first
    assert _results(work) == record["results"]


def _order(record: dict[str, Any], dataset: str) -> dict[str, list[tuple[str, str]]]:
    """Per results folder of ``dataset``: which model's answer went first and second, sample by sample."""
    out = {}
    for name, result in record.items():
        folder, file = name.split("/")
        if file == f"{dataset}.json":
            out[folder] = [(result[str(i)]["gold"]["answer1"], result[str(i)]["gold"]["answer2"]) for i in range(len(result))]
    return out


@pytest.mark.slow
def test_random_and_double_orders(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``infer_order='random'`` puts the same answer first as OpenCompass for every sample (and the draw is
    not all one way); ``'double'`` judges every sample in both orders."""
    record, work = _setup("pairwise", tmp_path, monkeypatch, oc_library)
    with FakeJudge(lambda messages, attempt: ("reply", subjective_reply(messages))) as server:
        _run(record, work, tmp_path, server)
    results = _results(work)
    expected_random = _order(record["results"], "alpaca_eval")
    got_random = _order(results, "alpaca_eval")
    assert got_random == expected_random
    for folder, pairs in got_random.items():  # the draw goes both ways
        assert len({first for first, _ in pairs}) == 2, folder
    for folder, pairs in _order(results, "arenahard").items():
        half = len(pairs) // 2
        assert pairs[half:] == [(b, a) for a, b in pairs[:half]], folder
        assert {a for a, _ in pairs[:half]} == {"gpt4-0314"}


@pytest.mark.slow
def test_failed_and_garbage_replies_are_counted_unjudged(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A request the judge keeps failing and a reply without a verdict are counted unjudged beside the
    result; the result keeps OpenCompass's keys (an empty reply where none came); the run is partial."""
    record, work = _setup("single", tmp_path, monkeypatch, oc_library)

    def script(messages: list[dict[str, Any]], attempt: int) -> tuple[Any, ...]:
        text = messages[-1]["content"]
        if "Hawaii" in text and "Assistant A" in text:
            return ("status", 500)
        return ("reply", "Rating: [[6]]" if "Rating" in json.dumps(messages) else "no score here")

    with FakeJudge(script) as server:
        config = write_judged_config(tmp_path / "config.py", _retrying_once(record["config"]), server)
        status = main(["run", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
    assert status == 1
    folder = work / RUN / "results" / "model-a_judged-by--judge-model"
    result = json.loads((folder / "mtbench_0.0.json").read_text(encoding="utf-8"))
    assert [result[k]["prediction"] for k in ("0", "1")] == ["", "Rating: [[6]]"]
    meta = json.loads((folder / "mtbench_0.0.meta").read_text(encoding="utf-8"))["_meta"]
    assert list(meta["unjudged"]["failed"]) == ["0"] and meta["unjudged"]["unreadable"] == []
    assert meta["incomplete"][0]["kind"] == "unjudged" and meta["incomplete"][0]["count"] == 1
    align = json.loads((folder / "alignment_bench.meta").read_text(encoding="utf-8"))["_meta"]
    assert align["unjudged"]["unreadable"] == ["0", "1", "2"] and align["unjudged"]["count"] == 3


@pytest.mark.slow
def test_dry_run_lists_judge_tasks_and_calls_left(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``--dry-run`` lists each judge task with its samples and the judge calls it needs beyond the reply
    cache (all of them before a run, none after), and calls no judge."""
    record, work = _setup("pairwise", tmp_path, monkeypatch, oc_library)
    with FakeJudge(lambda messages, attempt: ("reply", subjective_reply(messages))) as server:
        assert _run(record, work, tmp_path, server, "--dry-run") == 0
        before = capsys.readouterr().out
        assert server.requests == 0
        assert not RunDir(work / RUN).judge_cache.exists()  # a dry run creates no reply cache
        _run(record, work, tmp_path, server)
        capsys.readouterr()
        assert _run(record, work, tmp_path, server, "--dry-run") == 0
        after = capsys.readouterr().out
    assert ("judge gpt4-turbo_model-a_judged-by--judge-model/alpaca_eval: 7 samples, infer_order random\n"
            "         judge judge-model: 7 calls (7 prompts, 0 in the reply cache)") in before
    assert ("judge gpt4-0314_model-b_judged-by--judge-model/arenahard: 6 samples, infer_order double\n"
            "         judge judge-model: 6 calls (6 prompts, 0 in the reply cache)") in before
    assert "judge judge-model: 0 calls (6 prompts, 6 in the reply cache)" in after
    assert "4 judge tasks: 4 can run, 0 cannot; 26 judge calls to make" in before
    assert "4 judge tasks: 4 can run, 0 cannot; 0 judge calls to make" in after


_POSTPROCESSED = '''
from opencompass.registry import DICT_POSTPROCESSORS


@DICT_POSTPROCESSORS.register_module('test_mean_rating')
def mean_rating(output, output_path, scale):
    import json
    import re

    with open(output_path, encoding='utf-8') as f:
        on_disk = json.load(f)
    scores = [float(m.group(1)) * scale for v in output.values() if (m := re.search(r'Rating: \\[\\[([\\d.]+)\\]\\]', v['prediction']))]
    return {'score': sum(scores) / len(scores) if scores else None, 'judged': len(scores), 'of': len(output),
            'outputs_on_disk': on_disk == output, 'keys': sorted(output['0'])}


_mt = datasets[-1]
datasets[-1] = dict(_mt, eval_cfg=dict(_mt['eval_cfg'], evaluator=dict(
    _mt['eval_cfg']['evaluator'], dict_postprocessor=dict(type='test_mean_rating', scale=10))))
'''


@pytest.mark.slow
def test_dict_postprocessor_called_with_opencompass_signature(oc_library: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The dataset's ``dict_postprocessor`` is found in ``DICT_POSTPROCESSORS`` (here one the config registers) and
    called as OpenCompass calls it: the judge's outputs, the result's path (holding those outputs then) and its
    options; what it returns is the result."""
    record, work = _setup("single", tmp_path, monkeypatch, oc_library)
    record = dict(record, config=record["config"].replace("\neval = dict(", _POSTPROCESSED + "\neval = dict("))
    with FakeJudge(lambda messages, attempt: ("reply", "Good. Rating: [[7]]" if "Hawaii" in json.dumps(messages)
                                              else subjective_reply(messages))) as server:
        _run(record, work, tmp_path, server)
    results = work / RUN / "results"
    for model in ("model-a", "model-b"):
        got = json.loads((results / f"{model}_judged-by--judge-model" / "mtbench_0.0.json").read_text(encoding="utf-8"))
        outputs = record["results"][f"{model}_judged-by--judge-model/mtbench_0.0.json"]
        assert got["of"] == 2 and got["outputs_on_disk"] is True and got["keys"] == ["gold", "origin_prompt", "prediction"]
        assert got["judged"] >= 1 and got["score"] is not None and got["score"] >= 10
        assert len(outputs) == 2
    # the other dataset keeps the judge's outputs as its result
    align = json.loads((results / "model-a_judged-by--judge-model" / "alignment_bench.json").read_text(encoding="utf-8"))
    assert sorted(align) == ["0", "1", "2"]


@pytest.mark.slow
def test_postprocessed_results_are_opencompass(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``_new`` library configs (AlignBench, MT-Bench, AlpacaEval read by their ``dict_postprocessor``): for each
    dataset whose postprocessor assay implements, the requests and the result files — the postprocessor's dict —
    are OpenCompass's.  Skipped, naming them, while assay implements none of the postprocessors' names."""
    from assay import load_config
    from assay.tasks.plan import unavailable_components

    record, work = _setup("postprocessed", tmp_path, monkeypatch, oc_library)
    config = tmp_path / "config.py"
    config.write_text(record["config"].replace("{JUDGE_BASE}", "http://127.0.0.1:9/v1"), encoding="utf-8")
    datasets = load_config(config).datasets
    missing = {str(ds["abbr"]): sorted({name for _, name in unavailable_components(ds)}) for ds in datasets}
    ready = [abbr for abbr, names in missing.items() if not names]
    if not ready:
        pytest.skip(f"assay does not implement {', '.join(sorted({n for names in missing.values() for n in names}))}")
    with FakeJudge(lambda messages, attempt: ("reply", subjective_reply(messages))) as server:
        _run(record, work, tmp_path, server)
    results = _results(work)
    for name, expected in record["results"].items():
        if name.split("/")[1][: -len(".json")] in ready:
            assert results.get(name) == expected, name
@pytest.mark.slow
def test_rerun_asks_only_for_failed_requests_and_keeps_opencompass_results(oc_library: Path, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A partial result (requests that failed) is judged again by the next run, which sends only the failed
    requests; a result OpenCompass wrote (no ``.meta``) is kept as it is and its task sends nothing."""
    record, work = _setup("single", tmp_path, monkeypatch, oc_library)
    results = work / RUN / "results"
    written_by_oc = results / "model-b_judged-by--judge-model" / "alignment_bench.json"
    written_by_oc.parent.mkdir(parents=True)
    written_by_oc.write_text(json.dumps(record["results"]["model-b_judged-by--judge-model/alignment_bench.json"]), encoding="utf-8")
    before = written_by_oc.read_bytes()
    down = {"on": True}
    with FakeJudge(_down_for_hawaii(down)) as server:
        config = write_judged_config(tmp_path / "config.py", _retrying_once(record["config"]), server)
        assert main(["run", str(config), "-w", str(work), "-r", RUN, "--workers", "1"]) == 1
        failed = [b for b in server.bodies if "Hawaii" in json.dumps(b["messages"])]
        sent = len(server.bodies)
        down["on"] = False
        assert main(["run", str(config), "-w", str(work), "-r", RUN, "--workers", "1"]) == 0
        again = server.bodies[sent:]
    assert failed and {json.dumps(b, sort_keys=True) for b in again} == {json.dumps(b, sort_keys=True) for b in failed}
    assert written_by_oc.read_bytes() == before
    expected = {k: v for k, v in record["results"].items() if k != "model-b_judged-by--judge-model/alignment_bench.json"}
    assert {k: v for k, v in _results(work).items() if k in expected} == expected


def test_a_forced_run_with_failed_requests_keeps_opencompass_result_and_writes_beside_it(
        oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--force`` while the judge fails some requests: OpenCompass's complete result stays byte for byte and
    assay's partial one is ``<dataset>.assay.json`` beside it, said in the meta (R-12.1) — again on a second
    partial run; the run that gets every reply writes the result in its place and removes the side file."""
    from assay.rundir.judged import judged_meta_path

    record, work = _setup("single", tmp_path, monkeypatch, oc_library)
    theirs = work / RUN / "results" / "model-b_judged-by--judge-model" / "mtbench_0.0.json"
    theirs.parent.mkdir(parents=True)
    theirs.write_text(json.dumps(record["results"]["model-b_judged-by--judge-model/mtbench_0.0.json"]), encoding="utf-8")
    before = theirs.read_bytes()
    beside = theirs.with_name("mtbench_0.0.assay.json")
    # what a failed task leaves beside it: a meta holding only the error (the result is still OpenCompass's)
    judged_meta_path(theirs).write_text(json.dumps({"_meta": {"error": "AssayError: judge down"}}), encoding="utf-8")
    down = {"on": True}
    with FakeJudge(_down_for_hawaii(down)) as server:
        config = write_judged_config(tmp_path / "config.py", _retrying_once(record["config"]), server)
        for args in (["--force"], []):
            assert main(["run", str(config), "-w", str(work), "-r", RUN, "--workers", "1", *args]) == 1
            assert theirs.read_bytes() == before and beside.is_file()
            meta = json.loads(judged_meta_path(theirs).read_text())["_meta"]
            assert meta["beside"] == beside.name and "not written by assay" in meta["incomplete"][0]["detail"]
        down["on"] = False
        assert main(["run", str(config), "-w", str(work), "-r", RUN, "--workers", "1"]) == 0
    assert theirs.read_bytes() != before and not beside.exists()
    assert "beside" not in json.loads(judged_meta_path(theirs).read_text())["_meta"]


def test_a_run_stopped_while_judging_leaves_the_previous_result(oc_library: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A run stopped while judging (Ctrl-C, or killed after writing half of its work) never leaves the judge's
    raw outputs in the result's place: OpenCompass's result is back byte for byte, is not taken for assay's
    and its task sends nothing; a result assay wrote comes back with its meta (R-12.1)."""
    from assay.rundir.judged import begin_judging, judged_meta_path

    record, work = _setup("single", tmp_path, monkeypatch, oc_library)
    results = work / RUN / "results"
    written_by_oc = results / "model-b_judged-by--judge-model" / "alignment_bench.json"
    written_by_oc.parent.mkdir(parents=True)
    written_by_oc.write_text(json.dumps(record["results"]["model-b_judged-by--judge-model/alignment_bench.json"]), encoding="utf-8")
    before = written_by_oc.read_bytes()
    # the state a run killed mid-task leaves: the previous result set aside, raw outputs in its place
    begin_judging(written_by_oc, None)
    written_by_oc.write_text('{"0": {"prediction": "half"}}', encoding="utf-8")
    asked: list[str] = []

    def script(messages: list[dict[str, Any]], attempt: int) -> tuple[Any, ...]:
        asked.append(json.dumps(messages))
        return ("reply", subjective_reply(messages))

    with FakeJudge(script) as server:
        config = write_judged_config(tmp_path / "config.py", record["config"], server)
        assert main(["run", str(config), "-w", str(work), "-r", RUN, "--workers", "1"]) == 0
        assert written_by_oc.read_bytes() == before and not judged_meta_path(written_by_oc).exists()
        assert not any(p.name.endswith(".previous") for p in results.rglob("*"))
        # Ctrl-C while judging a result assay wrote: the result and its meta stay as they were
        mine = results / "model-a_judged-by--judge-model" / "alignment_bench.json"
        kept, kept_meta = mine.read_bytes(), judged_meta_path(mine).read_bytes()

        def interrupted(*args: Any, **kwargs: Any) -> Any:
            mine.write_text('{"0": {"prediction": "half"}}', encoding="utf-8")
            raise KeyboardInterrupt

        from assay.evaluators.lm_evaluator import LMEvaluator

        monkeypatch.setattr(LMEvaluator, "score", interrupted)
        assert main(["run", str(config), "-w", str(work), "-r", RUN, "--workers", "1", "--force"]) == 130
    assert mine.read_bytes() == kept and judged_meta_path(mine).read_bytes() == kept_meta


@pytest.mark.slow
def test_verify_does_not_look_for_judged_datasets_in_model_folders(oc_library: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """``assay verify`` of a subjective run reports no result of a judged dataset missing from ``results/<model>/``:
    the judge tasks write theirs under ``results/<model>_judged-by--<judge>/``."""
    record, work = _setup("single", tmp_path, monkeypatch, oc_library)
    with FakeJudge(lambda messages, attempt: ("reply", subjective_reply(messages))) as server:
        _run(record, work, tmp_path, server)
    assert sorted(_results(work)) == sorted(record["results"])
    capsys.readouterr()
    main(["verify", str(work / RUN)])
    out = capsys.readouterr()
    assert "json: missing" not in out.out + out.err
    assert "0 results unreadable or missing" in out.out + out.err


@pytest.mark.slow
def test_missing_predictions_fail_that_task_only(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A model without a prediction file fails its judge task, naming the file looked for; the other tasks run."""
    record, work = _setup("single", tmp_path, monkeypatch, oc_library)
    gone = work / RUN / "predictions" / "model-b" / "mtbench_0.0.json"
    gone.unlink()
    with FakeJudge(lambda messages, attempt: ("reply", subjective_reply(messages))) as server:
        assert _run(record, work, tmp_path, server) == 1
    err = capsys.readouterr().err
    assert f"model-b_judged-by--judge-model/mtbench_0.0 failed (InputFileError: no predictions for dataset 'mtbench_0.0': looked for {gone}" in err
    results = _results(work)
    assert sorted(results) == sorted(k for k in record["results"] if k != "model-b_judged-by--judge-model/mtbench_0.0.json")
    meta = json.loads((gone.parent.parent.parent / "results" / "model-b_judged-by--judge-model" / "mtbench_0.0.meta")
                      .read_text(encoding="utf-8"))["_meta"]
    assert str(gone) in meta["error"]


@pytest.mark.slow
@pytest.mark.parametrize("case", ["single", "pairwise"])
def test_subjective_summary_is_opencompass(case: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``summarizer=dict(type=SubjectiveSummarizer, function='subjective')``: the datasets' own summarizers and the
    judges' tables write OpenCompass's files (a group whose summarizer fails in OpenCompass on these replies is
    left out of the config).  Skipped, naming them, while assay lacks a group's summarizer."""
    from assay import load_config
    from assay.opencompass import is_standin

    record, work = _setup(case, tmp_path, monkeypatch, oc_library)
    failed = [prefix for prefix, got in record["summary"]["scores"].items() if isinstance(got, dict) and "exception" in got]
    text = record["config"] + (
        f"\ndatasets = [d for d in datasets if d['abbr'].split('_')[0] not in {failed!r}]\n"
        "summarizer = dict(type='SubjectiveSummarizer', function='subjective')\n")
    record = dict(record, config=text)
    config = tmp_path / "config.py"
    config.write_text(text.replace("{JUDGE_BASE}", "http://127.0.0.1:9/v1"), encoding="utf-8")
    missing = sorted({getattr(ds["summarizer"]["type"], "__name__", str(ds["summarizer"]["type"]))
                      for ds in load_config(config).datasets if is_standin(ds["summarizer"]["type"])})
    if missing:
        pytest.skip(f"assay does not implement {', '.join(missing)}")
    with FakeJudge(lambda messages, attempt: ("reply", subjective_reply(messages))) as server:
        assert _run(record, work, tmp_path, server) == 0
    (folder,) = [p for p in (work / RUN / "summary").iterdir() if p.is_dir()]
    got = {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*")) if p.is_file()}
    expected = {name.split("/", 1)[1]: body for name, body in record["summary"]["files"].items()
                if not any(prefix.replace("arenahard", "arena_hard") in name for prefix in failed)}
    assert got == expected



@pytest.mark.slow
def test_a_partial_result_is_marked_in_the_judges_tables(oc_library: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A judge request that failed leaves its sample unjudged: ``SubjectiveSummarizer``'s table of the datasets'
    summarizers follows the values of that model in that benchmark — and only those — by ``*``."""
    record, work = _setup("single", tmp_path, monkeypatch, oc_library)
    failing: list[str] = []

    def script(messages: list[dict[str, Any]], attempt: int) -> tuple[Any, ...]:
        text = messages[-1]["content"]
        if ("Hawaii" in text and not failing) or failing == [text]:  # the first model's (judged first) only
            failing[:] = [text]
            return ("status", 500)
        return ("reply", "Rating: [[6]]" if "Rating" in json.dumps(messages) else subjective_reply(messages))

    extra = "\nsummarizer = dict(type='SubjectiveSummarizer', function='subjective')\n"
    with FakeJudge(script) as server:
        config = write_judged_config(tmp_path / "config.py", _retrying_once(record["config"] + extra), server)
        assert main(["run", str(config), "-w", str(work), "-r", RUN, "--workers", "1"]) == 1  # partial
    (table,) = (work / RUN / "summary").glob("*/Subjective_all_results-judged-by--judge-model.csv")
    rows = [line.split(",") for line in table.read_text().splitlines()]
    header = rows[0]
    marked = {(row[0], header[i]) for row in rows[1:] for i, cell in enumerate(row) if cell.endswith("*")}
    assert marked and {model for _, model in marked} == {"model-a"}
    assert all(dataset.lower().startswith("mtbench") for dataset, _ in marked)
    assert all(not cell.endswith("*") for row in rows[1:] if not row[0].lower().startswith("mtbench") for cell in row)
