"""Starting ``python -m assay`` as a separate process group, for tests that kill a run halfway."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any


def spawn_assay(*args: str, cwd: Path, stderr: Any = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    """``python -m assay ARGS`` in its own session (so that the whole group can be killed)."""
    return subprocess.Popen(
        [sys.executable, "-m", "assay", *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True
    )
