"""``assay verify`` recomputes the extraction audit of a result."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from assay.audit import declare_correction, withdraw_correction
from assay.cli import main
from tests.audit.test_run import FIXED, RUN, _write_run

pytestmark = pytest.mark.usefixtures("no_builtin_pairs")


@pytest.fixture
def declared() -> Iterator[None]:
    declare_correction("gsm8k_postprocess", FIXED)
    try:
        yield
    finally:
        withdraw_correction("gsm8k_postprocess")


@pytest.fixture
def run(tmp_path: Path, declared: None) -> Path:
    cfg = _write_run(tmp_path)
    assert main(["run", str(cfg), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1", "--no-report"]) == 0
    return tmp_path / "work" / RUN


def _verify(run: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    rc = main(["verify", str(run.parent), "-r", run.name, "-v"])
    return rc, capsys.readouterr().out


def _edit(run: Path, change: Any) -> None:
    path = run / "results" / "m" / "gsm.json"
    data = json.loads(path.read_text())
    change(data["extraction_audit"])
    path.write_text(json.dumps(data, indent=4))


def test_an_untouched_audit_passes_and_is_checked(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out = _verify(run, capsys)
    assert rc == 0, out
    assert "extraction_audit" not in out  # nothing about it unchecked: counts, samples, readings and accuracy recomputed


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda a: a.update(differ=a["differ"] + 1), "extraction_audit.differ"),
        (lambda a: a["metrics"].update(accuracy=a["metrics"]["accuracy"] + 12.5), "extraction_audit.metrics.accuracy"),
        (lambda a: a["samples"].__setitem__(0, a["samples"][0] + 1), "extraction_audit.samples"),
        (lambda a: a["readings"][0]["corrected"].__setitem__(0, "999"), "extraction_audit.readings"),
        (lambda a: a["readings"][0]["correct"].__setitem__(0, not a["readings"][0]["correct"][0]), "extraction_audit.metrics.accuracy"),
    ],
)
def test_a_hand_edited_audit_is_found(run: Path, capsys: pytest.CaptureFixture[str], change: Any, named: str) -> None:
    _edit(run, change)
    rc, out = _verify(run, capsys)
    assert rc == 1
    assert f"MISMATCH results/m/gsm.json: {named}" in out


def test_without_the_declaration_the_replies_are_not_read_again(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    withdraw_correction("gsm8k_postprocess")
    try:
        rc, out = _verify(run, capsys)
    finally:
        declare_correction("gsm8k_postprocess", FIXED)
    assert rc == 0
    assert "not checked: results/m/gsm.json: extraction_audit.differ (no corrected counterpart is declared now" in out
    # the would-be accuracy is still recomputed from the details
    _edit(run, lambda a: a["metrics"].update(accuracy=0.5))
    withdraw_correction("gsm8k_postprocess")
    try:
        rc, out = _verify(run, capsys)
    finally:
        declare_correction("gsm8k_postprocess", FIXED)
    assert rc == 1 and "extraction_audit.metrics.accuracy" in out
