"""Record the files a varied run writes, for ``tests/tasks/test_run_files.py``.

The case (config, test sets, prediction files) is ``tests/tasks/_run_files.py``; each command of its
``COMMANDS`` runs on it in a temporary folder, and its result files, ``.stats`` files, run-index
entries, summary ``.json`` and task logs, normalized, are written to ``tests/data/run_files/<command>.json``.  Record again only after
an intended change of what a run writes: the test's purpose is that no other change alters a byte.

Usage::

    python scripts/record_run_files.py
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.tasks._run_files import COMMANDS, produce  # noqa: E402

OUT = REPO / "tests" / "data" / "run_files"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in COMMANDS:
        with tempfile.TemporaryDirectory(prefix="assay-run-files-") as folder:
            files = produce(name, Path(folder).resolve())
        path = OUT / f"{name}.json"
        path.write_text(json.dumps(files, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(REPO)}: {len(files)} files")


if __name__ == "__main__":
    main()
