"""Fixtures for the summarizer tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    d = tmp_path / "20240101_000000"
    d.mkdir()
    return d
