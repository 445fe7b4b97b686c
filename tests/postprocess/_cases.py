"""Loading the data files that drive the postprocessor tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "data" / "postprocess"
GOLDEN = DATA / "golden"


def load_cases(name: str) -> list[dict[str, Any]]:
    return list(json.loads((DATA / name).read_text(encoding="utf-8"))["cases"])


def load_jsonl(name: str) -> list[dict[str, Any]]:
    with (GOLDEN / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
