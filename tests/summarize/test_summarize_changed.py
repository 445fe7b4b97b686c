"""``summarize`` says which results changed after assay computed them, and marks their values.

assay keeps the SHA-256 of each result's bytes as its worker wrote them in the
``.stats`` file beside it; a result whose bytes no longer match (edited by
hand, replaced) is named on stderr, marked ``*`` in the table and listed in
the ``.json``, on every later summary too: the run index keeps, beside the
digest of the present bytes, the one of the bytes assay wrote, so a summary
that takes the index as it is (a large run, checked beside the summary)
tells it too.  A result assay did not write is never called changed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main

EXAMPLE = Path(__file__).parents[2] / "examples" / "quickstart" / "config.py"


@pytest.fixture
def run(tmp_path: Path) -> Path:
    work = tmp_path / "w"
    assert main(["eval", str(EXAMPLE), "-w", str(work)]) == 0
    (run_dir,) = work.iterdir()
    return run_dir


def _edit(path: Path, metric: str, value: float) -> None:
    result = json.loads(path.read_text(encoding="utf-8"))
    result[metric] = value
    path.write_text(json.dumps(result), encoding="utf-8")


def _as_if_written_elsewhere(run: Path, model: str, abbr: str) -> None:
    """Leave ``results/<model>/<abbr>.json`` as OpenCompass leaves its results: no statistics beside it and
    no record in the run index that assay wrote it (the index is rebuilt from the files, taking what assay
    wrote from the other results' ``.stats`` files)."""
    (run / "results" / model / f"{abbr}.stats").unlink()
    (run / "index.sqlite").unlink()


def _summarize(run: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str, dict]:
    assert main(["summarize", str(EXAMPLE), "-w", str(run.parent), "-r", run.name]) == 0
    out, err = capsys.readouterr()
    newest = max((run / "summary").glob("summary_*.json"))
    return out, err, json.loads(newest.read_text(encoding="utf-8"))


def test_a_result_edited_by_hand_is_named_and_marked(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    _, err, payload = _summarize(run, capsys)
    assert "changed after assay computed it" not in err and "changed_results" not in payload

    _edit(run / "results" / "chat-small" / "quick_mcq.json", "accuracy", 99.0)
    _as_if_written_elsewhere(run, "reasoner", "quick_short")
    _edit(run / "results" / "reasoner" / "quick_short.json", "score", 12.5)
    for _ in range(2):  # the second summary reads the run index, repaired by the first one
        out, err, payload = _summarize(run, capsys)
        assert "warning: results/chat-small/quick_mcq.json changed after assay computed it" in err
        line = next(x for x in out.splitlines() if x.startswith("quick_mcq "))
        assert "99.00*" in line and "90.00*" not in line  # the other model's result is as written
        assert "  chat-small / quick_mcq: changed: results/chat-small/quick_mcq.json changed after assay computed it" in out
        assert payload["changed_results"] == [
            {"model": "chat-small", "dataset": "quick_mcq", "file": "results/chat-small/quick_mcq.json"}]
        assert {(m["model"], m["dataset"], m["kind"]) for m in payload["incomplete"]} >= {
            ("chat-small", "quick_mcq", "changed"), ("chat-small", "quickstart", "changed")}
        assert any("quick_mcq.json changed after assay computed it" in w["message"] for w in payload["warnings"])
        assert "quick_short" not in err
        line = next(x for x in out.splitlines() if x.startswith("quick_short "))
        assert "12.50" in line and "*" not in line



def test_a_large_run_summarized_from_its_index_as_it_is_names_an_edited_result(
    run: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    beside_starts: Any
) -> None:
    """A summary of a run of 2,000 results or more takes the run index as it is and checks the files
    beside it (here forced for a small run); an edit it confirmed is still named and marked."""
    import assay.rundir.index as index_module

    monkeypatch.setattr(index_module, "DEFER_MIN_FILES", 1)
    _as_if_written_elsewhere(run, "reasoner", "quick_short")
    capsys.readouterr()
    _summarize(run, capsys)  # the index built from the files
    # replaced by hand with a result in OpenCompass's form (metrics only)
    (run / "results" / "chat-small" / "quick_mcq.json").write_text('{"accuracy": 99.0}', encoding="utf-8")
    _edit(run / "results" / "reasoner" / "quick_short.json", "score", 12.5)
    for _ in range(3):  # the first finds the edits and repairs the index; the next ones take it as it is
        out, err, payload = _summarize(run, capsys)
        assert "warning: results/chat-small/quick_mcq.json changed after assay computed it" in err
        assert "99.00*" in next(x for x in out.splitlines() if x.startswith("quick_mcq "))
        assert payload["changed_results"] == [
            {"model": "chat-small", "dataset": "quick_mcq", "file": "results/chat-small/quick_mcq.json"}]
        line = next(x for x in out.splitlines() if x.startswith("quick_short "))
        assert "12.50" in line and "*" not in line and "quick_short" not in err
    index_checks = [started for what, started in zip(beside_starts.what, beside_starts, strict=True)
                    if what.startswith("checking the run index")]
    assert index_checks == [True] * 3  # each summary after the first (which built the index) took it as it was
