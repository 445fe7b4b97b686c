"""Every command that reads a run directory refuses a run whose import of other tools' results did not finish,
naming the run's import marker, and leaves the run as it was.

The commands are taken from the command line's own table (:func:`assay.cli._command_modules`), so that a new
command taking a work directory is covered without a change here.  Each is pointed at the run alone: those that
take a config (``run``, ``eval``, ``summarize``) then read the run's dumped config.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

import pytest

from assay.cli import _command_modules, _parser, main
from assay.rundir.layout import RunDir
from assay.rundir.sources import write_sources
from assay.sources.lm_eval import read_lm_eval
from tests.sources.many_tasks import many_tasks

#: The commands known to read runs: the table must still hold them as readers.
KNOWN_READERS = {"run", "eval", "summarize", "report", "export", "verify", "compare", "index"}


def _subparser(name: str) -> argparse.ArgumentParser:
    parser = _parser(name)
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sub.choices[name]  # type: ignore[no-any-return]


def _takes_work_dir(parser: argparse.ArgumentParser) -> bool:
    return any(action.dest == "work_dir" for action in parser._actions)


def _argv(name: str, parser: argparse.ArgumentParser, run: Path, model: str, out: Path) -> list[str]:
    """The command pointed at ``run`` with the least it needs: a value for each required argument."""
    argv = [name]
    for action in parser._actions:
        if action.dest == "work_dir":
            argv += [str(run)] if not action.option_strings else [action.option_strings[0], str(run)]
        elif not action.option_strings and action.nargs is None:  # a required positional: a model name
            argv.append(model)
        elif action.option_strings and action.required:
            argv += [action.option_strings[0], action.choices[0] if action.choices else "x"]  # type: ignore[index]
        elif action.dest == "out":
            argv += [action.option_strings[0], str(out)]
    return argv


def _files(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def half_imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A run holding an import of lm-evaluation-harness's output whose every file was written and whose marker
    still says it did not finish (the importing command killed before it removed it)."""
    root = tmp_path_factory.mktemp("half")
    output = many_tasks(root / "lm_out", 3)
    run = RunDir(root / "work" / "20260101_000000")
    runs = read_lm_eval(output)
    imported = write_sources(run, runs, finish=False)
    assert run.import_marker.exists()
    return run.root, imported.models[0]


def _readers() -> list[Any]:
    return [m for m in _command_modules() if _takes_work_dir(_subparser(m.NAME))]


def test_the_known_readers_are_in_the_command_table() -> None:
    assert {m.NAME for m in _readers()} >= KNOWN_READERS


@pytest.mark.parametrize("name", [m.NAME for m in _readers()])
def test_every_command_reading_a_run_refuses_a_half_imported_one_naming_the_marker(
    name: str, half_imported: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    run, model = half_imported
    monkeypatch.chdir(tmp_path)
    before = _files(run.parent)
    argv = _argv(name, _subparser(name), run, model, tmp_path / "out")
    code = main(argv)
    captured = capsys.readouterr()
    assert code != 0, (argv, captured.out[-2000:])
    assert str(run) in captured.err and "did not finish" in captured.err, (argv, captured.err[-2000:])
    assert RunDir(run).import_marker.name in captured.err  # what to delete when the import is no longer wanted
    assert _files(run.parent) == before  # nothing written into the run, nothing of it lost
    assert os.listdir(tmp_path) == []  # nor anything beside it (``export``'s target)


#: A config file of the project's own: ``run`` and ``eval`` given it and ``-r`` write into the run named.
_CONFIG = Path(__file__).resolve().parents[2] / "examples" / "quickstart" / "config.py"


@pytest.mark.parametrize("name", ["run", "eval"])
@pytest.mark.parametrize("form", ["work and name", "run as work", "latest"])
def test_a_config_with_r_naming_a_half_imported_run_is_refused_too(
    name: str, form: str, half_imported: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A config file given does not pass over the check: ``-r`` names the run the scores would be written into."""
    run, _ = half_imported
    monkeypatch.chdir(tmp_path)
    before = _files(run.parent)
    where = {"work and name": ["-w", str(run.parent), "-r", run.name], "run as work": ["-w", str(run)],
             "latest": ["-w", str(run.parent), "-r"]}[form]
    code = main([name, str(_CONFIG), *where])
    captured = capsys.readouterr()
    assert code != 0, captured.out[-2000:]
    assert str(run) in captured.err and "did not finish" in captured.err, captured.err[-2000:]
    assert RunDir(run).import_marker.name in captured.err
    assert _files(run.parent) == before
