"""LCBench library configs scored by ``assay eval`` as OpenCompass 0.5.4 scores them, the programs run in the sandbox.

The fixture (``tests/data/oc_families/lcbench``, ``scripts/make_lcbench_fixtures.py``)
holds LCBench's files in OpenCompass's layout (five example problems, four test
problems) and replies of the shapes models give (``[BEGIN] '…' [DONE]``, a
``class Solution`` in a fence, two fenced blocks of which the second is right, a
wrong answer, a syntax error, a string where an integer is due);
``expected/<config>.json`` is what OpenCompass's loader and ``LCPassKEvaluator``
computed on them (``scripts/record_oc_lcbench.py``).  By hand: English replies
right, right, right (second block), wrong; Chinese wrong (a string), right,
a syntax error, right; the repeated configs right on every third repetition.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.evaluators.lcbench import LCEvaluator, LCPassKEvaluator, lc_code_blocks, lc_test_program
from assay.rundir.results import read_result
from assay.sandbox import isolation_unavailable

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "lcbench"
EXPECTED = ROOT / "expected"
RUN = "20250101_000000"
MODEL = "oc-model"
_NO_SANDBOX = isolation_unavailable("namespaces")
pytestmark = pytest.mark.skipif(_NO_SANDBOX is not None, reason=f"no namespace sandbox: {_NO_SANDBOX}")

#: hand-checked verdicts of the configs run once
HAND = {
    "lcbench_en": ["pass", "pass", "pass", "wrong_answer"],
    "lcbench_cn": ["wrong_answer", "pass", "failed", "pass"],
}


def _unwrap(value: Any) -> Any:
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def _reply_verdicts(details: dict[str, dict[str, Any]]) -> list[str]:
    """OpenCompass's per-block details folded per reply: pass when a block passed, else the first block's verdict."""
    replies: dict[int, list[tuple[int, str]]] = {}
    for key, d in details.items():
        index, block, _ = (int(x) for x in key.split("_"))
        replies.setdefault(index, []).append((block, d["result"]))
    out = []
    for index in sorted(replies):
        blocks = sorted(replies[index])
        out.append("pass" if any(r == "pass" for _, r in blocks) else blocks[0][1])
    return out


def _eval(config: str, record: dict[str, Any], tmp_path: Path) -> Path:
    module = "opencompass.configs.datasets." + record["config"][: -len(".py")].replace("/", ".")
    cfg = tmp_path / "config.py"
    cfg.write_text(
        "from mmengine.config import read_base\n\n"
        f"with read_base():\n    from {module} import {record['variable']}\n\n"
        f"datasets = {record['variable']}\n"
        f"models = [dict(abbr={MODEL!r}, path='org/model')]\n",
        encoding="utf-8",
    )
    predictions = tmp_path / "work" / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in record["datasets"]:
        shutil.copy(ROOT / "predictions" / f"{abbr}.json", predictions / f"{abbr}.json")
    assert main(["eval", str(cfg), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1"]) == 0
    return tmp_path / "work" / RUN / "results" / MODEL


@pytest.mark.parametrize("config", [p.stem for p in sorted(EXPECTED.glob("*.json"))])
def test_library_config_gives_opencompass_metrics_and_verdicts(
    config: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = json.loads((EXPECTED / f"{config}.json").read_text(encoding="utf-8"))
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    results = _eval(config, record, tmp_path)
    for abbr, entry in record["datasets"].items():
        got = read_result(results / f"{abbr}.json")
        assert "error" not in got, (abbr, got.get("error"))
        for key, value in entry["metrics"].items():
            assert got[key] == pytest.approx(value, abs=1e-9), (abbr, key)
        verdicts = [_unwrap(d["result"]) for d in got["details"]]
        assert verdicts == _reply_verdicts(entry["details"]), abbr
        assert [_unwrap(d["task_id"]) for d in got["details"]] == entry["contest_ids"], abbr
        if abbr in HAND:
            assert verdicts == HAND[abbr]


def test_code_blocks_and_the_solution_class_wrapper() -> None:
    assert lc_code_blocks("'```python\\ndef f(): return 1\\n```'") == ["def f(): return 1"]  # a string literal reply
    assert lc_code_blocks("```py\ndef f(): return 1\n```") == ["def f(): return 1"]  # the tag line dropped
    assert lc_code_blocks("no fence, a \\ backslash") == ["no fence, a  backslash"]
    program = lc_test_program("assert f(1) == 2\nassert g(2) == 3", "class Solution:\n    pass")
    assert "Solution().f(1)" in program and "Solution().g(2)" in program
    assert "Solution()" not in lc_test_program("assert f(1) == 2", "def f(x): return x + 1")


def test_lc_evaluator_counts_each_reply_once_under_its_deciding_block() -> None:
    tests = "assert inc(1) == 2"
    replies = [
        "```python\ndef inc(x): return x\n```\n```python\ndef inc(x): return x + 1\n```",  # the second block passes
        "```python\ndef inc(x): raise ValueError\n```\n```python\ndef inc(x): return x\n```",  # the first block decides
        "def inc(x):\n    while True:\n        pass",
    ]
    res = LCEvaluator(timeout=2, isolation="namespaces").score(replies, [tests] * 3)
    assert (res["pass"], res["failed"], res["timeout"], res["wrong_answer"]) == (1, 1, 1, 0)
    assert res["score"] == pytest.approx(100 / 3)
    assert [d["num_attempts"] for d in res["details"]] == [2, 2, 1]
    assert res["details"][2]["outcome"] == "timeout"


def test_pass_at_k_pools_replies_by_contest() -> None:
    ref = {"test_list_2": "assert inc(1) == 2", "task_id": "weekly-1"}
    other = {"test_list_2": "assert dec(1) == 0", "task_id": "weekly-2"}
    res = LCPassKEvaluator(k=[1, 2], isolation="namespaces").score(
        ["def inc(x): return x + 1", "def inc(x): return x", "def dec(x): return x - 1", "def dec(x): return x - 1"],
        [ref, ref, other, other],
    )
    assert res["pass@1"] == 75.0 and res["pass@2"] == 100.0


def test_the_loader_splits_filters_and_names_a_bad_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from assay.datasets.lcbench import LCDataset
    from assay.errors import InputFileError

    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT))
    ds = LCDataset.load("./data/LCBench2023/LCBench2023.jsonl", difficulty="EASY", num_repeats=2)
    assert len(ds["train"]) == 2 and ds["test"]["Contest id"] == ["weekly-contest-401", "weekly-contest-403"] * 2
    assert ds["test"][0]["test_column"] == {"task_id": "weekly-contest-401", "test_list_2": ds["test"][0]["test_list"]}
    assert ds["test"][0]["test_case"][1] == "assert sumDigits(n = 123) == 6"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "x", "test_list": "assert f() == 1", "Contest id": "c"}\n', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"bad\.jsonl, line 1: test_list must be a list"):
        LCDataset.load(str(bad))
