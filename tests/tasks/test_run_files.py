"""A run writes the same bytes as the run recorded in ``tests/data/run_files``: every result file, every
``.stats`` file, every run-index entry, the summary ``.json`` (with the extraction audits' records) and every
task's log of a varied case (see ``tests/tasks/_run_files.py``), in this process and in forked workers.

What depends on the machine (the folder of the run), on the moment (the summary's time, the logs' times and
durations) or on assay's own source (its version, the digests of the evaluator's and the corrected
postprocessors' source files, hence the fingerprint and the result's digest; a traceback's frames) is
replaced by placeholders; everything else is compared byte for byte.  After an intended
change of what a run writes, record again with ``python scripts/record_run_files.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.rundir.results import META_KEY
from assay.tasks.fingerprint import fingerprint_of
from tests.tasks._run_files import COMMANDS, RUN, produce

DATA = Path(__file__).resolve().parents[1] / "data" / "run_files"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_run_writes_the_recorded_files(name: str, tmp_path: Path) -> None:
    expected = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    got = produce(name, tmp_path.resolve())
    assert sorted(got) == sorted(expected), "another set of files was written"
    differing = [key for key in expected if got[key] != expected[key]]
    for key in differing[:3]:  # the first difference of each, for the failure message
        a, b = got[key], expected[key]
        at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        print(f"{key}: at {at}: written {a[max(0, at - 80):at + 80]!r}\n    recorded {b[max(0, at - 80):at + 80]!r}")
    assert not differing, f"{len(differing)} files differ from the recording: {differing[:10]}"


def test_the_placeholders_stand_for_consistent_values(tmp_path: Path) -> None:
    """The fingerprint the comparison leaves out is still the digest of the inputs each result records,
    and the failed task's error record and the statistics' digests are there to compare."""
    produce("eval", tmp_path.resolve())
    results = tmp_path / "runs" / RUN / "results"
    checked = 0
    for path in sorted(results.rglob("*.json")):
        meta = json.loads(path.read_bytes())[META_KEY]
        if "fingerprint" in meta:
            assert meta["fingerprint"] == fingerprint_of(meta["inputs"]), path
            checked += 1
    assert checked == len(list(results.rglob("*.json"))) - 1  # all but the failed task's error record
    assert "error" in json.loads((results / "model-a" / "short.json").read_bytes())
