"""AlpacaEval's, CompassArena's, WildBench's (and MT-Bench's ``judge_type='pair'``) pairwise summarizers against OpenCompass 0.5.4's.

Each case of ``tests/data/subjective/pairwise/summarizers/`` holds raw judge
outputs in OpenCompass's result folders (three models against one base model or
three), what OpenCompass's summarizer returned (or the error it raised) and the
files it wrote; assay's summarizer of the same name must return the same and
write the same bytes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assay.registry import SUMMARIZERS
from tests.subjective._recorded import config, summarizer_case, summarizer_cases, write_work_dir

CASES = [c for c in summarizer_cases() if not c.startswith("arenahard")]


@pytest.mark.parametrize("case", CASES)
def test_summarizer_writes_what_opencompass_writes(case: str, tmp_path: Path) -> None:
    inputs, returned, files = summarizer_case(case)
    work = tmp_path / "outputs" / "run"
    write_work_dir(work, inputs)
    summarizer = SUMMARIZERS.get(inputs["class"])
    if isinstance(returned, dict) and "error" in returned:  # assay fails too, naming what OpenCompass's error names
        with pytest.raises(Exception, match=re.escape(re.findall(r"'([^']+)'", returned["error"])[-1])):
            summarizer(config(work, inputs), **inputs["options"]).summarize(time_str=inputs["time"])
        return
    got = summarizer(config(work, inputs), **inputs["options"]).summarize(time_str=inputs["time"])
    assert got == returned
    out = work / "summary" / inputs["time"]
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in files.iterdir())
    for recorded in files.iterdir():
        assert (out / recorded.name).read_bytes() == recorded.read_bytes(), recorded.name


def test_alpaca_summarizer_appends_as_opencompass_does(tmp_path: Path) -> None:
    """A second summary with the same time adds its lines to the same file (OpenCompass opens it with 'a+')."""
    inputs, _, files = summarizer_case("alpacaeval")
    work = tmp_path / "run"
    write_work_dir(work, inputs)
    for _ in range(2):
        SUMMARIZERS.get("AlpacaSummarizer")(config(work, inputs)).summarize(time_str="t")
    name = "AlpacaEval2-judged-by--judge-model.csv"
    assert (work / "summary" / "t" / name).read_bytes() == (files / name).read_bytes() * 2
