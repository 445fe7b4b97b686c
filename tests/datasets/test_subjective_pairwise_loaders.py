"""The pairwise subjective benchmarks' loaders against OpenCompass 0.5.4's.

``tests/data/subjective/pairwise/loaders/`` holds small files in the layout
OpenCompass's loaders read (CompassArena, WildBench, CompassBench) and the rows
its own loaders built from them (``scripts/record_oc_subjective_pairwise.py``);
assay's loader of the same name, reached through the registry, must give the
same columns and rows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

ROOT = Path(__file__).resolve().parent.parent / "data" / "subjective" / "pairwise" / "loaders"
CASES = json.loads((ROOT / "loaded.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_loader_gives_opencompass_rows(case: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT / "data")
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    loaded = LOAD_DATASET.get(case["class"]).load(**case["kwargs"])
    assert loaded.column_names == case["columns"]
    assert json.loads(json.dumps([dict(r) for r in loaded], ensure_ascii=False)) == case["rows"]


def test_wildbench_loader_names_the_line_without_turns(tmp_path: Path) -> None:
    bad = tmp_path / "wb.jsonl"
    bad.write_text(json.dumps({"session_id": "s", "turn": [], "checklist": [], "primary_tag": "Math", "secondary_tag": []}) + "\n")
    with pytest.raises(InputFileError, match=r"WildBenchDataset: file .*wb\.jsonl, line 1: 'turn' must be a non-empty list"):
        LOAD_DATASET.get("WildBenchDataset").load(path=str(bad))


def test_compassbench_loader_names_the_question_without_language(tmp_path: Path) -> None:
    (tmp_path / "cb.json").write_text(json.dumps([{"question": "q", "others": {"level": "easy"}, "category": "c"}]))
    with pytest.raises(InputFileError, match=r"CompassBenchDataset\('cb'\): file .*cb\.json, question 0: no 'language'"):
        LOAD_DATASET.get("CompassBenchDataset").load(path=str(tmp_path), name="cb")
