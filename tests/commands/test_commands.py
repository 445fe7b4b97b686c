"""Every ``assay`` command is a module of :mod:`assay.commands`, listed by ``assay --help`` in a fixed order."""

from __future__ import annotations

import importlib
import re

import pytest

from assay.cli import main

COMMANDS = ["run", "eval", "summarize", "list", "compare", "export", "index", "report", "verify"]


def test_help_lists_every_command_in_order_each_served_by_its_module(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    listed = re.findall(r"^    (\w+)", capsys.readouterr().out, flags=re.M)
    assert listed == COMMANDS
    for name in COMMANDS:
        module = importlib.import_module(f"assay.commands.{name}")
        assert name == module.NAME and callable(module.add_arguments) and callable(module.run)

