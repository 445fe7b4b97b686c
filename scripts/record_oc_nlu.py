"""Record what OpenCompass 0.5.4's ``CivilCommentsDataset`` loads, in brief.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_nlu.py [--out FILE]

The loader keeps 10,000 shuffled rows of the test split, too many to record
whole: in a temporary folder it builds the local copy ``civil_comments/`` of
``tests/benchmarks_oc/families_nlu.py`` and records, per split, the number of
rows, the columns, the first rows and the SHA-256 of all rows as JSON
(``tests/data/oc_families/nlu/civilcomments.json``, which
``tests/datasets/test_nlu.py`` compares assay's namesake with).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from _oc_recording import write_json

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "oc_families" / "nlu" / "civilcomments.json"

sys.path.insert(0, str(ROOT))
from tests.benchmarks_oc.families_nlu import BUILDERS  # noqa: E402

#: rows of each split recorded in full
HEAD = 30


def digest(rows: list[dict[str, Any]]) -> str:
    """The SHA-256 of the rows as compact JSON (what the test computes the same way)."""
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False, separators=(",", ":")).encode("utf-8")).hexdigest()


def summary(dataset_dict: Any) -> dict[str, Any]:
    out = {}
    for split, part in dataset_dict.items():
        rows = part.to_list()
        out[split] = {"rows": len(rows), "columns": list(part.column_names), "head": rows[:HEAD], "sha256": digest(rows)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    from opencompass.datasets.civilcomments import CivilCommentsDataset

    old = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            BUILDERS["civilcomments"](Path(tmp))
            loaded = summary(CivilCommentsDataset.load(path="civil_comments"))
        finally:
            os.chdir(old)
    record = {"opencompass": importlib.metadata.version("opencompass"), "loader": "CivilCommentsDataset",
              "loader_kwargs": {"path": "civil_comments"}, "loaded": loaded}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_json(args.out, record)
    print(f"wrote {args.out}: " + ", ".join(f"{s} {v['rows']} rows" for s, v in loaded.items()))


if __name__ == "__main__":
    main()
