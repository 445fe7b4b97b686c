"""The driver that runs a compiled or non-Python test program: its verdict line stays readable."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from assay.evaluators._compiled_driver import MARKER, RESULT_LIMIT, driver_program, read_verdict


def test_a_verdict_with_a_huge_standard_error_is_cut_so_its_line_stays_within_the_sandbox_output_limit(tmp_path: Path) -> None:
    """A program writing 200,000 characters on standard error (a stack overflow's trace) still gets its verdict,
    its message cut to the first RESULT_LIMIT characters; uncut, the line would pass the sandbox's 64 KB."""
    flood = "import sys; sys.stderr.write('at Problem.Add ()\\n' * 10000); sys.exit(1)"
    step = {"kind": "run", "argv": [sys.executable, "-c", flood], "timeout": 60, "timeout_result": "Timeout",
            "by_status": {}, "otherwise": "Exception: {err}"}
    (tmp_path / "driver.py").write_text(driver_program({}, [step]), encoding="utf-8")
    done = subprocess.run([sys.executable, "driver.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode != 0
    line = next(x for x in done.stdout.splitlines() if x.startswith(MARKER))
    assert len(line) < 64 * 1024
    kind, result = read_verdict(done.stdout) or ("", "")
    assert kind == "failed"
    assert result.startswith("Exception: at Problem.Add ()\n") and len(result) == RESULT_LIMIT
