"""Another tool's own extraction of the replies assay scores again, shown wherever the extraction audit is: the
summary's text, markdown and ``.json``, the HTML report (badge, sentence, sample browser) and ``assay verify``.

The figures are computed here from the recorded lm-evaluation-harness samples: its ``strict-match`` answers
(``filtered_resps``) and their ``exact_match``, and the last number of each reply (as the dataset's
``gsm8k_postprocess`` reads it)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from tests.tasks.test_sources import LM_EVAL_CONFIG, _last_number, _lm_eval_samples, _run

MODELS = ("scripted-a", "scripted-b")
ABBR = "arith-assay"


def _expected(model: str) -> dict[str, Any]:
    """What the recorded samples give: the samples lm-evaluation-harness's strict-match reads differently from
    the last number of the reply, its answers there, its accuracy and assay's."""
    samples = _lm_eval_samples(model, "assay_arith", "strict-match")
    ours = [_last_number(s["resps"][0][0]) for s in samples]
    theirs = [s["filtered_resps"][0] for s in samples]
    targets = [s["target"].split("#### ")[-1].replace(",", "") for s in samples]
    differ = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
    return {
        "replies": len(samples), "differ": differ, "theirs": [theirs[i] for i in differ],
        "tool": 100 * sum(s["exact_match"] for s in samples) / len(samples),
        "assay": 100 * sum(a == t for a, t in zip(ours, targets)) / len(samples),
    }


def _sentence(model: str) -> str:
    e = _expected(model)
    return (f"lm_eval's strict-match extraction would give accuracy {e['tool']:.2f} instead of {e['assay']:.2f} "
            f"({len(e['differ'])} of {e['replies']} replies read differently)")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    status, found = _run(tmp_path_factory.mktemp("tool_audit"), LM_EVAL_CONFIG)
    assert status == 0 and found is not None
    return found


def test_the_summary_lists_what_the_tools_own_extraction_would_give(run: Path) -> None:
    (md,) = (run / "summary").glob("summary_*.md")
    (txt,) = (run / "summary").glob("summary_*.txt")
    for model in MODELS:
        assert _expected(model)["differ"]  # the recorded replies are read differently by the two
        line = f"{model} / {ABBR}: {_sentence(model)}"
        assert f"- {line}" in md.read_text()
        assert f"  {line}" in txt.read_text()
    assert "Other tools' own extraction of the replies assay scored again:" in md.read_text()


def test_the_summary_json_keeps_the_comparison_apart_from_the_extraction_audits(run: Path) -> None:
    from assay.summarize import Leaderboard

    (path,) = (run / "summary").glob("summary_*.json")
    summary = json.loads(path.read_text())
    board = Leaderboard.from_json(path)
    for model in MODELS:
        e = _expected(model)
        record = summary["tool_extraction_audits"][model][ABBR]
        assert (record["tool"], record["extraction"]) == ("lm_eval", "strict-match")
        assert (record["replies"], record["differ"], record["samples"]) == (e["replies"], len(e["differ"]), e["differ"])
        assert [r["corrected"] for r in record["readings"]] == [[t] for t in e["theirs"]]
        assert record["metrics"]["accuracy"] == pytest.approx(e["tool"])
        # assay's own audit (gsm8k_postprocess against its corrected counterpart) stays the declared pair's
        own = summary.get("extraction_audits", {}).get(model, {}).get(ABBR)
        assert own is None or all(c["at"] != "source extraction" for c in own["corrections"])
        read = board.tool_audits[model][ABBR]  # read back as the report and verify read it
        assert read.note("accuracy", board.scores[model][ABBR]["accuracy"]) == _sentence(model)


def test_the_report_data_carries_the_sentence_and_each_sample_read_differently(run: Path) -> None:
    from assay.report import build_report_data

    data = build_report_data(run, None)  # from the summary .json, as assay report reads it
    row = next(i for i, r in enumerate(data["rows"]) if r["dataset"] == ABBR)
    (table,) = (d for d in data["datasets"] if d["abbr"] == ABBR)
    for k, model in enumerate(data["models"]):
        e = _expected(model)
        assert data["extras"][f"{row}:{k}"]["tool_audit"] == _sentence(model)
        tool = table["tool"][table["models"].index(model)]
        assert tool["name"] == "lm_eval strict-match"
        assert tool["samples"] == e["differ"] and tool["ext"] == e["theirs"]


def _copy(run: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "work" / run.name
    shutil.copytree(run, copy)
    return copy


def test_verify_checks_both_records_of_an_untouched_run(run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Both records of a result scoring the tool's replies are checked: the tool's comparison and assay's own
    audit of the declared pair, the tool's models having no postprocessor of their own in the config."""
    copy = _copy(run, tmp_path)
    assert main(["verify", str(copy)]) == 0
    out = capsys.readouterr().out
    assert "MISMATCH" not in out and " 0 do not match, 0 could not be checked" in out


def test_verify_finds_an_edited_would_be_accuracy_and_names_the_record(run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = _copy(run, tmp_path)
    path = copy / "results" / "scripted-a" / f"{ABBR}.json"
    data = json.loads(path.read_text())
    data["_meta"]["rescored"]["extraction_audit"]["metrics"]["accuracy"] += 10
    path.write_text(json.dumps(data, indent=4))
    assert main(["verify", str(copy)]) == 1
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if "_meta.rescored.extraction_audit.metrics.accuracy" in ln)
    assert line.startswith(f"MISMATCH results/scripted-a/{ABBR}.json: ")
    recomputed = re.search(r"recomputed ([-\d.e]+)", line)
    assert recomputed is not None and float(recomputed.group(1)) == pytest.approx(_expected("scripted-a")["tool"])
    assert sum("MISMATCH" in ln for ln in out.splitlines()) == 1


def test_verify_finds_a_tool_answer_changed_in_the_prediction_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The tool's answers are read again from the prediction file: one changed there no longer gives the recorded
    count of replies read differently; assay's own audit (a declared pair) is not involved and still matches."""
    status, copy = _run(tmp_path, LM_EVAL_CONFIG)  # a run of its own: the result names its prediction files
    assert status == 0 and copy is not None
    path = copy / "predictions" / "scripted-b" / f"{ABBR}.json"
    records = json.loads(path.read_text())
    e = _expected("scripted-b")
    same = next(i for i in range(e["replies"]) if i not in e["differ"])  # a sample both read alike: now read differently
    records[str(same)]["source_extracted"] = "-1"
    path.write_text(json.dumps(records, indent=2))
    assert main(["verify", str(copy)]) == 1
    out = capsys.readouterr().out
    mismatches = [ln for ln in out.splitlines() if "MISMATCH" in ln]
    assert any(f"results/scripted-b/{ABBR}.json: _meta.rescored.extraction_audit.differ" in ln for ln in mismatches), out
    assert not any(": extraction_audit." in ln for ln in mismatches), out





@pytest.mark.slow
def test_the_report_shows_the_tools_reading_as_a_badge_and_in_the_sample_browser(run: Path, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    (page,) = (run / "summary").glob("summary_*.html")
    browser.get(page.as_uri())
    browser.find_element(By.CSS_SELECTOR, "button.view-tab[data-view='table']").click()
    models = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#full-table thead th")][4:]
    column = models.index("scripted-a") + 1
    cell = browser.find_element(By.XPATH, f"//table[@id='full-table']//tr[td[1]='{ABBR}']/td[{4 + column}]")
    e = _expected("scripted-a")
    assert cell.find_element(By.CSS_SELECTOR, ".v").text == f"{e['assay']:.2f}"  # assay's value stays
    badge = cell.find_element(By.CSS_SELECTOR, "button.badge.tool-audit")
    assert badge.text == "≠ lm_eval strict-match" and badge.get_attribute("title") == _sentence("scripted-a")
    # the other datasets' cells have no such badge
    assert len(browser.find_elements(By.CSS_SELECTOR, "#full-table button.badge.tool-audit")) == len(MODELS)

    badge.click()
    popover = browser.find_element(By.ID, "popover")
    assert _sentence("scripted-a") in popover.text
    popover.find_element(By.CSS_SELECTOR, "a.audit-link[data-rel='tool']").click()
    section = browser.find_element(By.CSS_SELECTOR, f"details.ds[data-dataset='{ABBR}']")
    assert section.get_attribute("open") is not None
    assert section.find_element(By.CSS_SELECTOR, ".sel-rel").get_attribute("value") == "tool"
    assert section.find_element(By.CSS_SELECTOR, ".count").text == str(len(e["differ"]))
    rows = section.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert [int(r.get_attribute("data-index")) for r in rows] == e["differ"]
    position = [th.text for th in section.find_elements(By.CSS_SELECTOR, "thead th")].index("scripted-a")
    for row, theirs in zip(rows, e["theirs"]):
        reading = row.find_elements(By.CSS_SELECTOR, "td")[position].find_element(By.CSS_SELECTOR, ".tool-reading")
        assert reading.text.startswith("lm_eval strict-match:")
        assert reading.find_element(By.CSS_SELECTOR, ".ext").text == theirs


def test_a_task_split_into_shards_compares_the_tools_answers_as_a_whole_one_does(run: Path, tmp_path: Path) -> None:
    """24 samples in shards of 10: each shard compares its replies, the merge gives the record of the whole task."""
    status, split = _run(tmp_path, LM_EVAL_CONFIG + "eval = dict(shard_size=10)\n")
    assert status == 0 and split is not None
    for model in MODELS:
        log = (split / "logs" / "eval" / model / f"{ABBR}.out").read_text()
        assert "split into 3 shards" in log
        e = _expected(model)
        record = json.loads((split / "results" / model / f"{ABBR}.json").read_text())["_meta"]["rescored"]["extraction_audit"]
        whole = json.loads((run / "results" / model / f"{ABBR}.json").read_text())["_meta"]["rescored"]["extraction_audit"]
        assert (record["replies"], record["differ"], record["samples"]) == (e["replies"], len(e["differ"]), e["differ"])
        assert record["metrics"]["accuracy"] == pytest.approx(e["tool"])
        assert record == whole
