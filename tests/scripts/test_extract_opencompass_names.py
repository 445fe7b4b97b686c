"""``scripts/extract_opencompass_names.py``: the name table's layout, a line per part, and what assay reads of it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from assay.opencompass import names

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "src" / "assay" / "opencompass" / "opencompass_names.json"


def _script() -> object:
    spec = importlib.util.spec_from_file_location("extract_opencompass_names", ROOT / "scripts" / "extract_opencompass_names.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_table_is_laid_out_as_the_script_writes_it() -> None:
    """The shipped table is one JSON object with a line per module, as the script writes it: a run reads the lines of
    the modules its config imports (a table written whole on one line would be parsed whole)."""
    text = TABLE.read_text(encoding="utf-8")
    table = json.loads(text)
    assert _script().dump_table(table) == text  # type: ignore[attr-defined]
    assert len(text.splitlines()) == len(table["modules"]) + 4


def test_reading_by_lines_gives_the_table_parsed_whole() -> None:
    """Every module's entry, the registered names, the version and ``requires`` read line by line are the table's."""
    table = json.loads(TABLE.read_text(encoding="utf-8"))
    modules = names._modules()
    assert len(modules) == len(table["modules"]) and list(modules) == list(table["modules"])
    assert all(modules.get(name) == entry for name, entry in table["modules"].items())
    assert names._registered() == table["registered"]
    assert names._header() == {"opencompass_version": table["opencompass_version"], "requires": table["requires"]}
    assert "opencompass.no_such_module" not in modules and modules.get("opencompass.no_such_module") is None
    with pytest.raises(KeyError):
        modules["opencompass.no_such_module"]
