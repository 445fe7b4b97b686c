"""The extraction audit in the summary ``.json`` and the HTML report, checked in a headless browser.

Needs the Debian packages ``chromium`` and ``chromium-driver`` and the PyPI
package ``selenium`` for the browser part; skipped (with the reason) when one is missing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from assay.audit import declare_correction, withdraw_correction
from assay.cli import main
from assay.fileio import read_json
from assay.postprocess.math import gsm8k_postprocess
from tests.audit.test_run import FIXED, REFERENCES, REPLIES, gsm8k_fixed
from tests.report.pages import wait_drawn

RUN = "RUN"
#: the second model answers with bare numbers: both extractors read them alike
PLAIN_REPLIES = list(REFERENCES)

pytestmark = pytest.mark.usefixtures("no_builtin_pairs")


def _accuracy(answers: list[Any]) -> float:
    return 100 * sum(str(a) == r for a, r in zip(answers, REFERENCES)) / len(REFERENCES)


@pytest.fixture
def audited_run(tmp_path: Path) -> Iterator[Path]:
    """``assay run`` of two models on a GSM8K-style dataset, with a declared corrected extractor."""
    (tmp_path / "gsm.jsonl").write_text("".join(json.dumps({"q": f"q{i}", "answer": a}) + "\n" for i, a in enumerate(REFERENCES)))
    for model, replies in (("m1", REPLIES), ("m2", PLAIN_REPLIES)):
        preds = tmp_path / "work" / RUN / "predictions" / model
        preds.mkdir(parents=True)
        for abbr in ("gsm", "plain"):
            (preds / f"{abbr}.json").write_text(json.dumps({str(i): {"prediction": r} for i, r in enumerate(replies)}))
    cfg = tmp_path / "config.py"
    cfg.write_text(
        "reader = dict(input_columns=['q'], output_column='answer')\n"
        "datasets = [\n"
        "    dict(abbr='gsm', type='JsonlDataset', path='gsm.jsonl', reader_cfg=reader,\n"
        "         eval_cfg=dict(pred_postprocessor=dict(type='gsm8k_postprocess'), evaluator=dict(type='AccEvaluator'))),\n"
        "    dict(abbr='plain', type='JsonlDataset', path='gsm.jsonl', reader_cfg=reader,\n"
        "         eval_cfg=dict(pred_postprocessor=dict(type='general_postprocess'), evaluator=dict(type='AccEvaluator'))),\n"
        "]\n"
        "models = [dict(abbr='m1'), dict(abbr='m2')]\n"
    )
    declare_correction("gsm8k_postprocess", FIXED)
    try:
        assert main(["run", str(cfg), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1"]) == 0
    finally:
        withdraw_correction("gsm8k_postprocess")
    yield tmp_path / "work" / RUN


def _expected() -> tuple[list[int], float, float]:
    official = [gsm8k_postprocess(r) for r in REPLIES]
    corrected = [gsm8k_fixed(r) for r in REPLIES]
    differing = [i for i, (a, b) in enumerate(zip(official, corrected)) if a != b]
    return differing, _accuracy(official), _accuracy(corrected)


def test_summary_json_carries_the_audit_never_a_row(audited_run: Path) -> None:
    (path,) = (audited_run / "summary").glob("summary_*.json")
    summary = read_json(path, what="summary")
    differing, official, would_be = _expected()
    audit = summary["extraction_audits"]["m1"]["gsm"]
    assert audit["differ"] == len(differing) and audit["samples"] == differing
    assert audit["metrics"]["accuracy"] == pytest.approx(would_be)
    assert summary["scores"]["m1"]["gsm"] == {"accuracy": pytest.approx(official)}
    assert summary["extraction_audits"]["m2"]["gsm"]["differ"] == 0
    assert "plain" not in summary["extraction_audits"]["m1"]
    assert [r["dataset"] for r in summary["rows"]] == ["gsm", "plain"]  # no row of its own



def test_report_shows_the_audit_and_its_samples_two_clicks_away(audited_run: Path, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    (page,) = (audited_run / "summary").glob("summary_*.html")
    browser.get(page.as_uri())
    differing, official, would_be = _expected()

    browser.find_element(By.CSS_SELECTOR, "button.view-tab[data-view='table']").click()

    def cell(dataset: str, column: int) -> Any:
        return browser.find_element(By.XPATH, f"//table[@id='full-table']//tr[td[1]='{dataset}']/td[{4 + column}]")

    m1 = cell("gsm", 1)
    assert m1.find_element(By.CSS_SELECTOR, ".v").text == f"{official:.2f}"  # the official value stays
    sentence = (
        f"{len(differing)} of {len(REPLIES)} replies read differently by the corrected extractor; "
        f"accuracy would be {would_be:.2f} instead of {official:.2f}"
    )
    # a small badge, its sentence on hover, and on click with the way to its samples
    badge = m1.find_element(By.CSS_SELECTOR, "button.badge.audit")
    assert badge.text == "≠" and badge.get_attribute("title") == sentence
    # no badge where nothing differs (the hover text says so) or where there is no counterpart
    m2 = cell("gsm", 2)
    assert not m2.find_elements(By.CSS_SELECTOR, ".badge.audit")
    assert f"all {len(REPLIES)} replies read the same by the corrected extractor" in m2.get_attribute("title")
    for column in (1, 2):
        plain = cell("plain", column)
        assert not plain.find_elements(By.CSS_SELECTOR, ".badge.audit") and "extractor" not in plain.get_attribute("title")

    # two clicks: the sentence, then the dataset's browser open on m1's samples read differently
    badge.click()
    popover = browser.find_element(By.ID, "popover")
    assert sentence in popover.text
    popover.find_element(By.CSS_SELECTOR, "a.audit-link").click()
    section = browser.find_element(By.CSS_SELECTOR, "details.ds[data-dataset='gsm']")
    wait_drawn(section)
    assert section.get_attribute("open") is not None
    assert section.find_element(By.CSS_SELECTOR, ".sel-rel").get_attribute("value") == "audit"
    assert section.find_element(By.CSS_SELECTOR, ".count").text == str(len(differing))
    rows = section.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert [int(r.get_attribute("data-index")) for r in rows] == differing
    # each row shows the corrected reading beside the official one, with its verdict
    for row, i in zip(rows, differing):
        fix = row.find_elements(By.CSS_SELECTOR, "td .fix")
        assert len(fix) == 1  # m1 only
        assert fix[0].find_element(By.CSS_SELECTOR, ".ext").text == gsm8k_fixed(REPLIES[i])
        verdict = "right" if gsm8k_fixed(REPLIES[i]) == REFERENCES[i] else "wrong"
        assert verdict in fix[0].text


def test_report_rebuilt_from_the_summary_json_keeps_the_audit(audited_run: Path) -> None:
    """``assay report`` reads the summary ``.json``: the notes and the browser's audit come from it."""
    from assay.report import build_report_data, cell_tip

    data = build_report_data(audited_run, None)
    differing, official, would_be = _expected()
    row = next(i for i, r in enumerate(data["rows"]) if r["dataset"] == "gsm")
    assert data["extras"][f"{row}:0"]["audit"].endswith(f"accuracy would be {would_be:.2f} instead of {official:.2f}")
    assert "audit" not in data["extras"].get(f"{row}:1", {}) and "read the same" in cell_tip(data, row, 1)
    (table,) = (d for d in data["datasets"] if d["abbr"] == "gsm")
    assert table["audit"][0]["samples"] == differing and table["audit"][1]["samples"] == []
    assert table["audit"][0]["ext"] == [gsm8k_fixed(REPLIES[i]) for i in differing]
    (plain,) = (d for d in data["datasets"] if d["abbr"] == "plain")
    assert "audit" not in plain


@pytest.mark.parametrize(
    "readings",
    [
        # one run, verdicts true and false; no verdicts; several runs; a long text; fewer readings than samples
        [{"official": ["A"], "corrected": ["B"], "correct": [True]}, {"official": ["C"], "corrected": ["D"], "correct": [False]},
         {"official": ["E"], "corrected": ["F"]}],
        [{"official": ["A", "B", "C"], "corrected": ["B", "B", "C"], "correct": [True, True, False]},
         {"official": ["A", "B"], "corrected": [None, 3], "correct": [False, True]}],
        [{"official": ["A"], "corrected": ["x" * 500], "correct": [True]}],
    ],
)
def test_the_browser_reads_an_audit_alike_whether_its_readings_are_built_or_not(readings: list[dict[str, Any]]) -> None:
    """A summary's records read from JSON give the sample browser the same audit columns, to the byte, as the
    same records with their readings built (the columns are read from the readings' JSON then)."""
    import orjson

    from assay.audit import AuditRecord
    from assay.report._samples import _audit_columns

    data = {"corrections": [], "replies": 8, "differ": 4, "samples": [0, 2, 3, 9], "readings": readings,
            "metrics": {"accuracy": 50.0}}
    lazy = AuditRecord.from_json(json.loads(json.dumps(data)))
    built = AuditRecord.from_json(json.loads(json.dumps(data)))
    assert lazy.plain_readings() is not None and built.readings and built.plain_readings() is None
    for n, limit in ((10, 200), (3, 200), (10, 20)):
        got = _audit_columns(lazy, n, limit)
        assert got is not None and len(got["ok"]) == len(got["samples"])
        assert orjson.dumps(got) == orjson.dumps(_audit_columns(built, n, limit))
