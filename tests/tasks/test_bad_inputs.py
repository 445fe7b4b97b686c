"""Malformed inputs: each gets a message naming the file, component and field;
the other pairs' results are still written (task errors), or nothing runs at all
(configuration errors, reported up front)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.cli import main
from assay.rundir.results import read_result

BAD = Path(__file__).parent.parent / "data" / "bad"
CASES = sorted(p.name for p in BAD.iterdir() if p.is_dir() and not p.name.startswith("_"))


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= 15


@pytest.mark.parametrize("case", CASES)
def test_bad_input_is_reported_clearly(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = json.loads((BAD / case / "case.json").read_text())
    work = tmp_path / "work"
    rc = main(["eval", str(BAD / case / "config.py"), "-w", str(work), "--workers", "2"])
    err = capsys.readouterr().err
    if spec["kind"] == "config":
        assert rc == 2
        for fragment in spec["expect"]:
            assert fragment in err, f"{fragment!r} missing from: {err}"
        assert not list(work.glob("*/results/*/*.json")), "a config error must stop before any task runs"
        return
    assert rc == 1
    runs = list(work.iterdir())
    assert len(runs) == 1
    good = read_result(runs[0] / "results" / "m" / "good.json")
    assert good["accuracy"] == 100.0
    bad = read_result(runs[0] / "results" / "m" / "bad.json")
    assert "error" in bad
    for fragment in spec["expect"]:
        assert fragment in bad["error"], f"{fragment!r} missing from: {bad['error']}"
    # the command names the failed pair and its log
    assert "m/bad" in err and "log:" in err
    log = runs[0] / "logs" / "eval" / "m" / "bad.out"
    assert "Traceback" in log.read_text() or "error" in log.read_text()
