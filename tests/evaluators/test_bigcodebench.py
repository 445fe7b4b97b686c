"""BigCodeBench: OpenCompass 0.5.4's loader rows and code extraction, and the unit tests run in the sandbox.

``scripts/record_oc_bigcodebench.py`` recorded, with OpenCompass installed, the
loader's rows on the fixture files (``tests/data/oc_families/bigcodebench``), its
code extraction on many replies and the solutions its evaluator writes for the
remote service.  The library configs run unchanged here; assay runs each
problem's unit tests in the sandbox, and the verdicts are checked by hand: the
fixture's replies are correct or wrong on purpose.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.sandbox import bwrap_available

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "bigcodebench"
RECORDED = json.loads((FIXTURE / "recorded.json").read_text(encoding="utf-8"))
RUN = "20250101_000000"

#: the library config of each fixture prediction file
CONFIGS = {
    "bigcodebench_full_instruct": "bigcodebench_full_instruct_gen_8815eb",
    "bigcodebench_full_complete": "bigcodebench_full_complete_gen_faf748",
    "bigcodebench_hard_instruct": "bigcodebench_hard_instruct_gen_8815eb",
    "bigcodebench_hard_complete": "bigcodebench_hard_complete_gen_faf748",
}
#: each reply's verdict, checked by hand (the fixture's problem needing pandas is unscorable: the
#: sandbox's Python has numpy, not pandas)
STATUSES = {
    "bigcodebench_full_instruct": ["pass", "fail", "pass", "missing", "timeout"],
    "bigcodebench_full_complete": ["pass", "pass", "pass", "missing", "pass"],
    "bigcodebench_hard_instruct": ["pass", "fail", "pass"],
    "bigcodebench_hard_complete": ["fail", "fail", "pass"],
}

needs_sandbox = pytest.mark.skipif(bwrap_available() is not None, reason=f"no namespace sandbox: {bwrap_available()}")


@pytest.fixture
def data_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(FIXTURE / "cache"))


@pytest.mark.parametrize("case", RECORDED["extraction"], ids=[str(i) for i in range(len(RECORDED["extraction"]))])
def test_code_extraction_equals_opencompass(case: dict[str, Any]) -> None:
    from assay.evaluators.bigcodebench import bigcodebench_extract_code

    assert bigcodebench_extract_code(case["reply"], case["entrypoint"]) == case["solution"]


@pytest.mark.parametrize("version", ["full", "hard"])
def test_loader_rows_equal_opencompass(version: str, data_cache: None) -> None:
    from assay.registry import LOAD_DATASET

    ds = LOAD_DATASET.get("BigCodeBenchDataset").load(path="opencompass/bigcodebench", dataset_version=version)
    assert {split: [dict(r) for r in ds[split]] for split in ds} == RECORDED["loader"][version]


def test_loader_names_the_missing_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.datasets.bigcodebench import BigCodeBenchDataset
    from assay.errors import InputFileError

    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path))
    with pytest.raises(InputFileError, match=r"BigCodeBench-Hard-v0\.1\.2\.jsonl does not exist"):
        BigCodeBenchDataset.load(path="opencompass/bigcodebench", dataset_version="hard")


def _unwrap(value: Any) -> Any:
    """A detail field of the one run (the result groups them per sample, a list over runs)."""
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def _config(tmp_path: Path) -> Path:
    imports = "\n".join(
        f"    from opencompass.configs.datasets.bigcodebench.{module} import {abbr}_datasets as {abbr}"
        for abbr, module in CONFIGS.items()
    )
    cfg = tmp_path / "eval_bigcodebench.py"
    cfg.write_text(
        "from mmengine.config import read_base\n\nfrom opencompass.models import HuggingFacewithChatTemplate\n\n"
        f"with read_base():\n{imports}\n\n"
        f"datasets = [{', '.join('*' + abbr for abbr in CONFIGS)}]\n"
        "for d in datasets:\n    d['eval_cfg']['evaluator']['timeout'] = 10\n"
        "models = [dict(type=HuggingFacewithChatTemplate, abbr='chat-model', path='org/chat-model', max_out_len=1024)]\n",
        encoding="utf-8",
    )
    return cfg


@needs_sandbox
def test_library_configs_run_the_solutions_opencompass_sends(
    tmp_path: Path, data_cache: None, oc_library: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The four library configs unchanged (the time limit lowered): the solutions are OpenCompass's, each
    verdict is the hand-checked one, the problem needing a library the sandbox lacks is unscorable and named."""
    from assay.cli import main
    from assay.rundir.results import read_result

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    work = tmp_path / "work"
    shutil.copytree(FIXTURE / "predictions", work / RUN / "predictions")
    # the two tasks with the problem needing pandas are partial: the run says so with its exit status
    assert main(["eval", str(_config(tmp_path)), "-w", str(work), "-r", RUN]) == 1
    for abbr, statuses in STATUSES.items():
        result = read_result(work / RUN / "results" / "chat-model" / f"{abbr}.json")
        details = [{key: _unwrap(value) for key, value in d.items()} for d in result["details"]]
        assert [d["solution"] for d in details] == [c["solution"] for c in RECORDED["submitted"][abbr]["contents"]], abbr
        got = ["missing" if d["outcome"] == "missing-dependency" else d["status"] for d in details]
        assert got == statuses, abbr
        scored = [s for s in statuses if s != "missing"]
        assert result["pass@1"] == pytest.approx(100 * scored.count("pass") / len(scored)), abbr
        assert [d["correct"] for d in details] == [s == "pass" for s in statuses]
        if "missing" in statuses:
            assert result["missing_libraries"] == ["pandas"]
            (entry,) = result["_meta"]["incomplete"]
            assert entry["kind"] == "not_executed" and entry["count"] == 1 and "pandas" in entry["detail"]
    wrong = {key: _unwrap(value) for key, value in
             read_result(work / RUN / "results" / "chat-model" / "bigcodebench_full_instruct.json")["details"][1].items()}
    assert list(wrong["details"]) == ["test_case"] and "AssertionError" in wrong["details"]["test_case"]


def test_the_dry_run_names_the_libraries_the_data_needs(tmp_path: Path, data_cache: None, oc_library: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.config import load_config
    from assay.tasks.plan import check_plan

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    checks = {c.dataset: c for c in check_plan(load_config(_config(tmp_path)))}
    assert any("pandas (1 problems)" in n for n in checks["bigcodebench_full_instruct"].notes)
    assert not any("lacks libraries" in n for n in checks["bigcodebench_hard_instruct"].notes)  # no pandas problem


@needs_sandbox
def test_a_module_listed_in_libs_missing_at_run_time_is_unscorable_and_another_is_wrong(data_cache: None) -> None:
    """A ``ModuleNotFoundError`` for a module the problem's ``libs`` list makes it unscorable; for a module
    the solution made up, the solution is wrong."""
    from datasets import Dataset

    from assay.evaluators.bigcodebench import BigCodeBenchEvaluator

    test = "import unittest\nclass TestCases(unittest.TestCase):\n    def test_one(self):\n        self.assertEqual(task_func(), 1)\n"
    rows = [
        {"task_id": "t/0", "entry_point": "task_func", "test": test, "libs": "['json']"},
        {"task_id": "t/1", "entry_point": "task_func", "test": test, "libs": "['json']"},
    ]
    replies = ["def task_func():\n    import json.nonexistent_part\n    return 1",
               "import made_up_module_xyz\ndef task_func():\n    return 1"]
    res = BigCodeBenchEvaluator(timeout=20).score(replies, None, Dataset.from_list(rows))
    assert [d["outcome"] for d in res["details"]] == ["missing-dependency", "failed"]
    assert res["pass@1"] == 0.0 and res["outcomes"] == {"failed": 1, "missing-dependency": 1}
