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



def test_a_signal_the_process_ignores_stays_ignored() -> None:
    """Under ``nohup`` (SIGHUP ignored) a hangup does not stop a command; SIGTERM, not ignored, still does."""
    import os
    import signal

    from assay.commands import Terminated
    from assay.commands._options import terminated_by_signals

    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with terminated_by_signals():
            os.kill(os.getpid(), signal.SIGHUP)
            with pytest.raises(Terminated):
                os.kill(os.getpid(), signal.SIGTERM)
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before)
