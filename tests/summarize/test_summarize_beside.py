"""A large summary writes its text files in a child process while it writes its .json: the same files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import assay.summarize._default as default_module
from assay.summarize import run_summarizer
from tests.summarize.builders import write_result


def _config(run: Path) -> dict[str, object]:
    models, abbrs = ["m1", "m2"], ["a", "b", "c"]
    for i, m in enumerate(models):
        for j, a in enumerate(abbrs):
            write_result(run, m, a, {"accuracy": 10.0 * i + j + 0.125, "f1": 1.5})
    return {
        "models": [{"abbr": m} for m in models],
        "datasets": [{"abbr": a} for a in abbrs],
        "work_dir": str(run),
        "summarizer": {"summary_groups": [{"name": "all", "subsets": abbrs}]},
    }


def _written(result: object) -> dict[str, bytes]:
    paths = result.paths  # type: ignore[attr-defined]
    return {kind: paths[kind].read_bytes() for kind in ("txt", "csv", "md")}


@pytest.fixture
def beside(monkeypatch: pytest.MonkeyPatch, beside_starts: list[bool], tmp_path: Path) -> list[bool]:
    """Every summary counts as large and reads its result files; the child processes that start are recorded."""
    monkeypatch.setattr(default_module, "BESIDE_MIN_VALUES", 1)
    monkeypatch.setenv("ASSAY_NO_INDEX", "1")
    return beside_starts


def test_text_files_written_beside_are_those_written_in_process(
    tmp_path: Path, beside: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = _config(tmp_path / "run")
    in_child = run_summarizer(config, time_str="20240101_000001")
    assert beside == [True]
    monkeypatch.setattr(default_module, "BESIDE_MIN_VALUES", 10**9)
    in_process = run_summarizer(config, time_str="20240101_000001")
    assert beside == [True]
    assert _written(in_child) == _written(in_process)
    assert in_child.text == in_process.text and "all" in in_child.text


def test_a_failing_child_leaves_the_files_to_the_summary(
    tmp_path: Path, beside: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = _config(tmp_path / "run")
    expected = run_summarizer(config, time_str="20240101_000001")
    real_write = default_module.atomic_write_text
    parent = os.getpid()

    def failing_in_child(path: object, text: str, **kw: object) -> None:
        if os.getpid() != parent:
            raise OSError("disk full")
        real_write(path, text, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(default_module, "atomic_write_text", failing_in_child)
    for path in expected.paths.values():
        path.unlink()
    again = run_summarizer(config, time_str="20240101_000001")
    assert beside == [True, True]
    assert _written(again) == _written(expected)
