"""Regenerate ``src/assay/datasets/data_locations.json`` from an OpenCompass source tree.

The table maps OpenCompass dataset ids (``opencompass/gsm8k``) to the local path
OpenCompass reads them from (``./data/gsm8k``).  It is a list of facts; run::

    python scripts/extract_data_locations.py PATH/TO/opencompass/utils/datasets_info.py

with the file from an unpacked OpenCompass 0.5.4 wheel.  The file is read as
Python literals (``ast``), never imported or executed.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "assay" / "datasets" / "data_locations.json"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    tree = ast.parse(Path(argv[0]).read_text(encoding="utf-8"))
    mapping: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "DATASETS_MAPPING" for t in node.targets):
            table = ast.literal_eval(node.value)
            for dataset_id, entry in table.items():
                local = entry.get("local")
                if isinstance(local, str):
                    mapping[dataset_id] = local
    if not mapping:
        print(f"{argv[0]}: no DATASETS_MAPPING found", file=sys.stderr)
        return 1
    OUT.write_text(json.dumps(dict(sorted(mapping.items())), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(mapping)} dataset ids written to {OUT.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
