"""The fake judge server is imported by the judge recording scripts, which run under OpenCompass's Python."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent


def test_the_fake_judge_imports_without_pytest() -> None:
    """OpenCompass's environment has no pytest: the recording scripts' server must import without it."""
    code = ("import sys; sys.modules['pytest'] = None; sys.path.insert(0, sys.argv[1]); "
            "from tests.judge.fake_server import FakeJudge; print(FakeJudge.__name__)")
    done = subprocess.run([sys.executable, "-c", code, str(REPO)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "FakeJudge"
