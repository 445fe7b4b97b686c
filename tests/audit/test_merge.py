"""The audit of a task scored in shards is the audit of the task scored whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.audit.test_run import _eval, _result, _write_run, fixed_gsm8k

__all__ = ["fixed_gsm8k"]

pytestmark = pytest.mark.usefixtures("no_builtin_pairs")


def test_sharded_audit_equals_the_whole(tmp_path: Path, fixed_gsm8k: None, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _write_run(tmp_path)
    assert _eval(cfg, tmp_path) == 0
    whole = _result(tmp_path)
    assert _eval(cfg, tmp_path, "--force", "--shard-size", "3") == 0
    assert "shards" in capsys.readouterr().err
    sharded = _result(tmp_path)
    assert sharded["extraction_audit"]["samples"] == whole["extraction_audit"]["samples"]
    for key in ("corrections", "replies", "differ", "samples", "readings"):
        assert sharded["extraction_audit"][key] == whole["extraction_audit"][key], key
    assert sharded["extraction_audit"]["metrics"]["accuracy"] == pytest.approx(whole["extraction_audit"]["metrics"]["accuracy"])
    assert sharded["accuracy"] == pytest.approx(whole["accuracy"])
