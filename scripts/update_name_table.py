"""Write ``src/assay/_names.py``: where each built-in name is registered and exported.

The registries (``assay.registry``) and the lazily filled packages
(``assay.postprocess``, ``assay.evaluators``, ``assay.datasets``) import only
the module defining a name asked for, as this table says.  Run this after
adding, renaming or moving a registered or exported name::

    python scripts/update_name_table.py          # rewrite the table
    python scripts/update_name_table.py --check  # exit 1 if it is out of date

The table is built by importing every built-in module in this fresh
interpreter (``assay._discover.name_table_source``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, exit 1 when the table differs")
    args = parser.parse_args()
    sys.path.insert(0, str(SRC))
    from assay._discover import name_table_source

    text = name_table_source()
    target = SRC / "assay" / "_names.py"
    current = target.read_text() if target.exists() else ""
    if args.check:
        if current != text:
            print(f"{target} is out of date: run python scripts/update_name_table.py", file=sys.stderr)
            return 1
        return 0
    if current != text:
        target.write_text(text)
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
