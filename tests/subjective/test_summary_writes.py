"""A subjective summarizer that fails while writing leaves the files an earlier summary wrote as they were.

Each summarizer runs once, then again with the same time while the process may
not write a file past a few bytes (``RLIMIT_FSIZE``, as a full disk or a quota
stops a write part-way): every write fails in the middle, and every file under
``summary/`` must still hold the first summary's bytes — none truncated, none
half-appended, no temporary file left.
"""

from __future__ import annotations

import contextlib
import errno
import resource
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from assay.registry import SUMMARIZERS
from tests.subjective._recorded import config, summarizer_case, write_work_dir
from tests.subjective.recorded import library_config, recorded, write_results


@contextlib.contextmanager
def file_size_limit(limit: int) -> Iterator[None]:
    """No file of this process may grow past ``limit`` bytes: a write beyond fails with EFBIG."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the error, not the signal that would end the process
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, handler)


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _fails_leaving_the_first_summary(summarize: Callable[[], Any], work: Path, limit: int = 16) -> None:
    summarize()
    first = _files(work / "summary")
    assert first and all(len(data) > limit for data in first.values())
    with file_size_limit(limit), pytest.raises(OSError) as failed:
        summarize()
    assert failed.value.errno == errno.EFBIG
    assert _files(work / "summary") == first


PAIRWISE = ["arenahard", "arenahard_other_base", "compassarena", "compassarena_half_add", "compassbench", "wildbench"]


@pytest.mark.parametrize("case", PAIRWISE)
def test_pairwise_files_failing_mid_write_keep_the_earlier_ones(case: str, tmp_path: Path) -> None:
    inputs, _, _ = summarizer_case(case)
    work = tmp_path / "outputs" / "run"
    write_work_dir(work, inputs)
    summarizer = SUMMARIZERS.get(inputs["class"])
    _fails_leaving_the_first_summary(
        lambda: summarizer(config(work, inputs), **inputs["options"]).summarize(time_str=inputs["time"]), work)


def test_an_appended_table_failing_mid_write_keeps_the_earlier_lines(tmp_path: Path) -> None:
    """AlpacaEval appends to its table (as OpenCompass does): a failed append adds nothing, not half a row."""
    inputs, _, _ = summarizer_case("alpacaeval")
    work = tmp_path / "run"
    write_work_dir(work, inputs)

    def summarize() -> None:
        SUMMARIZERS.get("AlpacaSummarizer")(config(work, inputs)).summarize(time_str="t")

    summarize()
    (table,) = (work / "summary" / "t").iterdir()
    first = table.read_bytes()
    with file_size_limit(len(first) + 10), pytest.raises(OSError):  # room for part of the next rows only
        summarize()
    assert table.read_bytes() == first
    assert [p.name for p in table.parent.iterdir()] == [table.name]


def test_bradley_terry_files_failing_mid_write_keep_the_earlier_ones(tmp_path: Path) -> None:
    from tests.summarize.test_bradley_terry import _setup

    work = tmp_path / "work"
    inputs, _, _ = _setup("plain", work)
    summarizer = SUMMARIZERS.get("CompassArenaBradleyTerrySummarizer")
    _fails_leaving_the_first_summary(
        lambda: summarizer(inputs["config"], **inputs["options"]).summarize(time_str=inputs["time"]), work)


@pytest.mark.parametrize("family", ["flames", "fofo"])
def test_single_score_files_failing_mid_write_keep_the_earlier_ones(family: str, tmp_path: Path, oc_library: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    cases = recorded(family)["summary"]
    rec: dict[str, Any] = cases[sorted(cases)[0]]
    cfg = library_config(tmp_path, oc_library, monkeypatch, [tuple(rec["datasets_import"])], rec)
    cfg["eval"] = {"partitioner": {"models": rec["eval_models"]}}
    if family == "flames":
        cfg["judge_models"] = cfg["judge_models"][0]
    write_results(tmp_path / "work", rec)
    summarizer = SUMMARIZERS.get("FlamesSummarizer" if family == "flames" else "FofoSummarizer")
    _fails_leaving_the_first_summary(
        lambda: summarizer(config=cfg, **rec["options"]).summarize(time_str=rec["time"]), tmp_path / "work")


def test_common_files_failing_mid_write_keep_the_earlier_ones(tmp_path: Path, oc_library: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """CommonSummarizer's ``result.csv`` (written anew) and ``total_result.csv`` (appended to)."""
    rec: dict[str, Any] = recorded("common_multiround")["common"]
    cfg = library_config(tmp_path, oc_library, monkeypatch, [tuple(rec["datasets_import"])], rec)
    cfg["datasets"] = cfg["datasets"][: rec["datasets_kept"]]
    cfg["eval"] = {"partitioner": {"models": rec["eval_models"], "judge_models": cfg["judge_models"]}}
    write_results(tmp_path / "work", rec)
    summarizer = SUMMARIZERS.get("CommonSummarizer")
    _fails_leaving_the_first_summary(
        lambda: summarizer(config=cfg, **rec["options"]).summarize(time_str=rec["time"]), tmp_path / "work")


def test_the_judges_tables_failing_mid_write_keep_the_earlier_files(tmp_path: Path) -> None:
    """SubjectiveSummarizer's ``summary_<time>_by_<judge>.csv`` tables."""
    import json

    from assay.summarize import SubjectiveSummarizer
    from tests.subjective.test_subjective_summarizer import EXPECTED, RUN

    record = json.loads((EXPECTED / "summarizer.json").read_text(encoding="utf-8"))
    _fails_leaving_the_first_summary(
        lambda: SubjectiveSummarizer({"work_dir": str(tmp_path)}, function="subjective").summarize(
            subjective_scores=record["scores"], time_str=RUN), tmp_path)
