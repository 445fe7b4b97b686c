"""WritingBench's criterion scores read, and its queries loaded with their judge prompts, as OpenCompass 0.5.4."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.registry import DICT_POSTPROCESSORS
from assay.subjective.writingbench import writingbench_postprocess
from tests.subjective.recorded import library_rows, recorded, run_postprocess

REC = recorded("writingbench")


@pytest.mark.parametrize("case", sorted(REC["postprocess"]))
def test_the_postprocessor_gives_opencompass_scores(case: str) -> None:
    """``overall`` and per domain; a quoted number or a score outside the JSON key is not read."""
    rec = REC["postprocess"][case]
    assert list(run_postprocess(writingbench_postprocess, rec).items()) == list(rec["result"].items())
    assert DICT_POSTPROCESSORS.get("writingbench") is writingbench_postprocess


def test_the_loader_builds_opencompass_judge_prompts(tmp_path: Path, oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One prompt per criterion (a dict criterion shown as Python shows it, braces in the query kept)."""
    rec = REC["loader"]
    assert library_rows(tmp_path, oc_library, monkeypatch, rec["datasets_import"]) == rec["rows"]
