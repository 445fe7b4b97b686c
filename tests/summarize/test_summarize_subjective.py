"""DefaultSubjectiveSummarizer (assay.summarize) writes OpenCompass 0.5.4's per-judge summary of a subjective run."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from assay.registry import SUMMARIZERS
from tests.subjective.recorded import recorded

REC = recorded("default")


def _config(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch, case: dict[str, Any]) -> dict[str, Any]:
    """The library's ``_new`` configs loaded by assay, with the case's models, judge and result files."""
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    lines = ["from mmengine.config import read_base", "", "with read_base():"]
    lines += [f"    from {module} import {name} as d{k}" for k, (module, name) in enumerate(case["imports"])]
    lines += ["", f"datasets = [{', '.join(f'*d{k}' for k in range(len(case['imports'])))}]",
              f"models = {case['models']!r}",
              f"judge_models = [dict(abbr={case['judge']!r}, path='judge/{case['judge']}')]",
              "summarizer = dict(type='DefaultSubjectiveSummarizer')",
              f"work_dir = {str(tmp_path / 'work')!r}"]
    (tmp_path / "config.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for folder, by_dataset in case["folders"].items():
        (tmp_path / "work" / "results" / folder).mkdir(parents=True)
        for abbr, result in by_dataset.items():
            (tmp_path / "work" / "results" / folder / f"{abbr}.json").write_text(json.dumps(result), encoding="utf-8")
    return dict(load_config(tmp_path / "config.py").variables)


def _summary(tmp_path: Path) -> dict[str, str]:
    root = tmp_path / "work" / "summary"
    return {str(p.relative_to(root)): p.read_bytes().decode("utf-8") for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("case", ["library", "groups", "rows"])
def test_the_summary_is_opencompass_byte_for_byte(case: str, tmp_path: Path, oc_library: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """AlignBench's and MT-Bench's postprocessed results and a pairwise dataset with a base model (its folder
    ``<base>_<model>_judged-by--<judge>``): the .txt (tabulate, csv and raw sections) and the .csv as OpenCompass
    writes them, with summary groups (plain, by metric, weighted) and with chosen rows."""
    rec = REC["summary"][case]
    cfg = _config(tmp_path, oc_library, monkeypatch, rec)
    # the _new configs name assay's postprocessors
    from assay.subjective import alignbench_postprocess, mtbench_postprocess

    posts = {d["abbr"]: d["eval_cfg"]["evaluator"]["dict_postprocessor"]["type"] for d in cfg["datasets"][:4]}
    assert posts == {"alignment_bench": alignbench_postprocess, "mtbench_0.0": mtbench_postprocess,
                     "mtbench_0.1": mtbench_postprocess, "mtbench_0.7": mtbench_postprocess}
    summarizer = SUMMARIZERS.get(cfg["summarizer"]["type"])(cfg, **rec["options"])
    result = summarizer.summarize(time_str=rec["time"])
    assert _summary(tmp_path) == rec["files"]
    assert sorted(result.paths) == ["csv", "txt"]


def test_a_partial_result_and_its_groups_are_marked(tmp_path: Path, oc_library: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A result whose judge requests partly failed (its ``.meta`` lists them as the judge task writes it): its
    value and those of the groups computed from it are followed by ``*`` in the .csv and the .txt, listed under
    the tabulate table; every other cell is OpenCompass's."""
    from assay.evaluate.base import incomplete_entry
    from assay.rundir.judged import write_judged_meta

    rec = REC["summary"]["groups"]
    cfg = _config(tmp_path, oc_library, monkeypatch, rec)
    model = rec["models"][0]["abbr"]
    result = tmp_path / "work" / "results" / f"{model}_judged-by--{rec['judge']}" / "mtbench_0.0.json"
    write_judged_meta(result, {"models": [model], "dataset": "mtbench_0.0", "judge_model": rec["judge"],
                               "incomplete": [incomplete_entry("unjudged", 2, "2 of 9 judge requests failed (HTTP 500)")]})
    SUMMARIZERS.get("DefaultSubjectiveSummarizer")(cfg, **rec["options"]).summarize(time_str=rec["time"])
    name = f"summary_{rec['time']}_by_{rec['judge']}.csv"
    got, want = _summary(tmp_path)[name].splitlines(), rec["files"][name].splitlines()
    column = want[0].split(",").index(model)
    marked = {row.split(",")[0] for row in got if row.split(",")[column].endswith("*")}
    groups = {g["name"] for g in rec["options"]["summary_groups"] if "mtbench_0.0" in str(g["subsets"])}
    assert "mtbench_0.0" in marked and groups and groups <= marked
    assert marked <= {"mtbench_0.0", *groups}
    assert [row.replace("*", "") for row in got] == want  # the values themselves are OpenCompass's
    assert all("*" not in c for row in got for i, c in enumerate(row.split(",")) if i != column)
    text = _summary(tmp_path)[name.replace(".csv", ".txt")]
    assert f"  {model} / mtbench_0.0: unjudged (2 samples): 2 of 9 judge requests failed (HTTP 500)" in text


def test_a_group_of_several_shared_metrics_has_opencompass_rows(tmp_path: Path, oc_library: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A group of MT-Bench's three temperatures shares nine metrics: OpenCompass lists them in a set's order
    (its hash seed's), assay in the first dataset's; the rows and their values are OpenCompass's."""
    rec = REC["summary"]["groups_set_order"]
    cfg = _config(tmp_path, oc_library, monkeypatch, rec)
    SUMMARIZERS.get("DefaultSubjectiveSummarizer")(cfg, **rec["options"]).summarize(time_str=rec["time"])
    name = f"summary_{rec['time']}_by_{rec['judge']}.csv"
    got, want = _summary(tmp_path)[name].splitlines(), rec["files"][name].splitlines()
    assert sorted(got) == sorted(want) and sum(r.startswith("mtbench_avg,") for r in got) == 9


def test_a_metric_one_model_lacks_is_shown_as_a_dash(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    """One model's MT-Bench result without ``math`` (no readable rating): OpenCompass stops on an assertion;
    assay writes the table with ``-`` in that cell, every other cell as the full table has it, and warns."""
    rec = REC["summary"]["metric_missing"]
    assert rec["error"].startswith("AssertionError") and rec["files"] == {}
    cfg = _config(tmp_path, oc_library, monkeypatch, rec)
    with caplog.at_level(logging.WARNING):
        SUMMARIZERS.get("DefaultSubjectiveSummarizer")(cfg).summarize(time_str=rec["time"])
    assert "showing every metric" in caplog.text
    csv = _summary(tmp_path)[f"summary_{rec['time']}_by_{rec['judge']}.csv"].splitlines()
    whole = {tuple(r.split(",")[:3]): r for r in REC["summary"]["library"]["files"][
        f"summary_{rec['time']}_by_{rec['judge']}.csv"].splitlines()}
    math_row = next(r for r in csv if r.startswith("mtbench_0.0,") and ",math," in r)
    assert math_row.endswith(",-")
    assert math_row[: -len(",-")] == whole[tuple(math_row.split(",")[:3])].rsplit(",", 1)[0]
    assert [r for r in csv if ",math," not in r and r.startswith("mtbench_0.0,")] == [
        r for k, r in whole.items() if k[0] == "mtbench_0.0" and k[2] != "math"]


def test_assay_summarize_writes_the_subjective_summary(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``assay summarize`` on a run holding only ``<model>_judged-by--<judge>/`` folders (no ``<model>/``) runs the
    configured DefaultSubjectiveSummarizer: OpenCompass's csv, and its .txt after the time stamp line."""
    from assay.cli import main

    rec = REC["summary"]["library"]
    _config(tmp_path, oc_library, monkeypatch, rec)
    run = tmp_path / "work" / "run1"
    (tmp_path / "work" / "results").rename(tmp_path / "run1-results")
    run.mkdir()
    (tmp_path / "run1-results").rename(run / "results")
    text = (tmp_path / "config.py").read_text(encoding="utf-8")
    (tmp_path / "config.py").write_text(text.replace(f"work_dir = {str(tmp_path / 'work')!r}\n", ""), encoding="utf-8")
    assert main(["summarize", str(tmp_path / "config.py"), "-w", str(tmp_path / "work"), "-r", "run1", "--no-report"]) == 0
    (txt,) = (run / "summary").glob(f"summary_*_by_{rec['judge']}.txt")
    (csv,) = (run / "summary").glob(f"summary_*_by_{rec['judge']}.csv")
    want_txt = rec["files"][f"summary_{rec['time']}_by_{rec['judge']}.txt"]
    assert csv.read_text(encoding="utf-8") == rec["files"][f"summary_{rec['time']}_by_{rec['judge']}.csv"]
    assert txt.read_text(encoding="utf-8").split("\n", 1)[1] == want_txt.split("\n", 1)[1]
    assert "mtbench_0.7" in capsys.readouterr().out
