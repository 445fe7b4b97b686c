"""Code-benchmark loaders: OpenCompass's layouts, columns and splits, and LiveCodeBench's encoded tests."""

from __future__ import annotations

import base64
import json
import pickle
import zlib
from pathlib import Path

import pytest

from assay.datasets.humaneval import HumanevalDataset
from assay.datasets.livecodebench import (
    LCBCodeExecutionDataset,
    LCBCodeGenerationDataset,
    LCBTestOutputPredictionDataset,
    decode_private_tests,
    release_files,
)
from assay.datasets.mbpp import MBPPDataset, MBPPDatasetV2, MBPPPlusDataset, SanitizedMBPPDataset
from assay.errors import InputFileError

FIXTURE = Path(__file__).parent.parent / "data" / "oc_families" / "code"
LOADERS = json.loads((FIXTURE / "expected" / "lcb_loaders.json").read_text())


@pytest.fixture(autouse=True)
def data_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(FIXTURE))


def test_humaneval_reads_opencompass_layout_and_repeats() -> None:
    ds = HumanevalDataset.load("opencompass/humaneval", num_repeats=3)
    assert len(ds) == 27
    assert ds["task_id"][:4] == ["HumanEval/0"] * 3 + ["HumanEval/1"]


def test_mbpp_splits_and_columns() -> None:
    dd = MBPPDataset.load("opencompass/mbpp")
    assert len(dd["train"]) == 10 and len(dd["test"]) == 13
    row = dd["test"][0]
    assert row["task_id"] == 11
    assert row["test_list"] == row["test_list_2"] == "\n".join(row["test_case"])
    assert "test_column" not in dd["test"].column_names
    v2 = MBPPDatasetV2.load("opencompass/mbpp", num_repeats=2)["test"]
    assert len(v2) == 26 and v2["task_id"][13] == 11  # the whole split, repeated
    assert v2[0]["test_column"] == {"test_list_2": row["test_list_2"], "task_id": 11}
    san = SanitizedMBPPDataset.load("opencompass/sanitized_mbpp")
    assert len(san["train"]) == 7 and len(san["test"]) == 13
    assert san["test"][0]["text"] == row["text"] and "prompt" not in san["test"].column_names
    plus = MBPPPlusDataset.load("opencompass/mbpp_plus", num_repeats=2)
    assert len(plus) == 26 and plus["task_id"][:3] == ["Mbpp/11", "Mbpp/11", "Mbpp/12"]


def test_missing_files_are_named() -> None:
    with pytest.raises(InputFileError, match=r"MBPPDataset: file .*nope\.jsonl does not exist"):
        MBPPDataset.load("nope.jsonl")
    with pytest.raises(InputFileError, match="LCBCodeExecutionDataset"):
        LCBCodeExecutionDataset.load("no_such_folder")


@pytest.mark.parametrize(
    ("case", "kwargs"),
    [
        ("release_v1", {"release_version": "release_v1"}),
        ("release_v2", {"release_version": "release_v2"}),
        ("release_v2_from_june", {"release_version": "release_v2", "start_date": "2023-06-01"}),
        ("release_v2_until_june", {"release_version": "release_v2", "end_date": "2023-06-01"}),
    ],
)
def test_lcb_code_generation_equals_opencompass(case: str, kwargs: dict[str, str]) -> None:
    test = LCBCodeGenerationDataset.load(**kwargs)["test"]
    got = [{"question_id": r["question_id"], "evaluation_sample": r["evaluation_sample"]} for r in test]
    assert got == LOADERS[f"code_generation/{case}"]


def test_lcb_execution_and_test_output_equal_opencompass() -> None:
    assert list(LCBCodeExecutionDataset.load()["test"]["evaluation_sample"]) == LOADERS["code_execution"]
    test = LCBTestOutputPredictionDataset.load()["test"]
    got = [{k: r[k] for k in ("evaluation_sample", "testcase_input", "testcase_output")} for r in test]
    assert got == LOADERS["test_output"]


def test_release_files() -> None:
    assert release_files("release_latest")[-1] == "test6.jsonl"
    assert release_files("v1_v3") == ["test.jsonl", "test2.jsonl", "test3.jsonl"]
    with pytest.raises(InputFileError, match="release_v9"):
        release_files("release_v9")


class _Boom:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (print, ("this must never run",))


def test_encoded_private_tests_never_load_globals(capsys: pytest.CaptureFixture[str]) -> None:
    plain = [{"input": "1\n", "output": "2\n", "testtype": "stdin"}]
    packed = base64.b64encode(zlib.compress(pickle.dumps(json.dumps(plain)))).decode()
    assert decode_private_tests(packed) == plain
    hostile = base64.b64encode(zlib.compress(pickle.dumps(_Boom()))).decode()
    with pytest.raises(pickle.UnpicklingError, match=r"refusing to load builtins\.print"):
        decode_private_tests(hostile)
    assert "must never run" not in capsys.readouterr().out
