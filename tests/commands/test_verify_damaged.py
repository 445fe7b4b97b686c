"""``assay verify`` and ``assay index --check`` exit 1 on a result file that is garbage, truncated or missing.

Each names the file and what is wrong.  A result is expected by the run
index (it was indexed), by the ``.stats`` file its worker wrote beside it,
and, for ``verify``, by the run's config (every model × dataset it plans).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from assay.cli import main

EXAMPLE = Path(__file__).parents[2] / "examples" / "quickstart" / "config.py"
TARGET = "results/chat-small/quick_numeric.json"


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("verify") / "w"
    assert main(["eval", str(EXAMPLE), "-w", str(work)]) == 0
    (run,) = work.iterdir()
    return run


@pytest.fixture
def run(evaluated: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "w" / evaluated.name
    shutil.copytree(evaluated, copy)
    return copy


def _garbage(run: Path) -> None:
    (run / TARGET).write_bytes(b"\x00\x17 not a result at all")


def _truncated(run: Path) -> None:
    data = (run / TARGET).read_bytes()
    (run / TARGET).write_bytes(data[: len(data) // 2])


def _deleted(run: Path) -> None:
    (run / TARGET).unlink()


def _deleted_with_its_statistics_and_the_index(run: Path) -> None:
    (run / TARGET).unlink()
    (run / TARGET).with_suffix(".stats").unlink()
    (run / "index.sqlite").unlink()


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "garbage": (_garbage, f"{TARGET}: cannot be read"),
    "truncated": (_truncated, f"{TARGET}: cannot be read"),
    "deleted": (_deleted, f"{TARGET}: missing"),
    "deleted with its statistics and the index": (_deleted_with_its_statistics_and_the_index,
                                                   f"{TARGET}: missing: the run's config plans model 'chat-small' on "
                                                   "dataset 'quick_numeric'"),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_verify_names_the_file_and_exits_1(run: Path, capsys: pytest.CaptureFixture[str], damage: str) -> None:
    harm, message = DAMAGE[damage]
    assert main(["verify", str(run.parent)]) == 0  # intact: every planned result is there and readable
    harm(run)
    capsys.readouterr()
    assert main(["verify", str(run.parent)]) == 1
    out = capsys.readouterr().out
    assert f"PROBLEM {message}" in out, out
    assert "1 results unreadable or missing" in out


@pytest.mark.parametrize("damage", ["garbage", "truncated", "deleted"])
def test_index_check_names_the_file_and_exits_1(run: Path, capsys: pytest.CaptureFixture[str], damage: str) -> None:
    harm, message = DAMAGE[damage]
    assert main(["index", str(run.parent), "--check"]) == 0  # intact
    harm(run)
    capsys.readouterr()
    assert main(["index", str(run.parent), "--check"]) == 1
    captured = capsys.readouterr()
    assert f"problem: {message}" in captured.out, captured.out
    assert "unreadable or missing" in captured.err
    if damage == "deleted":  # the index has let go of the entry: the .stats file still expects the result
        assert main(["index", str(run.parent), "--check"]) == 1
        assert f"problem: {TARGET}: missing: its statistics" in capsys.readouterr().out
