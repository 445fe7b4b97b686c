"""MathBench's, SQuAD 2.0's and LAMBADA's loaders against OpenCompass 0.5.4's on the same files.

``tests/data/oc_families/mathbench_squad20_lambada/loaded/<case>.json`` holds,
for each dataset of a library config, the loader's arguments and the rows
OpenCompass's loader built from the small data files beside it (recorded by
``scripts/record_oc_mathbench_squad20_lambada.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.datasets._oc import as_datasets
from assay.datasets.lambada import lambadaDataset
from assay.datasets.mathbench import MathBenchDataset
from assay.datasets.squad20 import SQuAD20Dataset
from assay.errors import ConfigError, InputFileError

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "mathbench_squad20_lambada"
LOADERS = {"MathBench": MathBenchDataset, "squad20": SQuAD20Dataset, "lambada": lambadaDataset}


def _cases() -> list[Any]:
    cases = []
    for path in sorted((ROOT / "loaded").glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        for abbr, entry in record["datasets"].items():
            cases.append(pytest.param(record["config"].split("/")[0], entry, id=f"{path.stem}/{abbr}"))
    return cases


def _rows(value: Any) -> Any:
    value = as_datasets(value)
    if isinstance(value, dict) or hasattr(value, "keys"):
        return {split: value[split].to_list() for split in value}
    return value.to_list()


@pytest.mark.parametrize(("family", "entry"), _cases())
def test_loader_builds_opencompass_rows(family: str, entry: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT / "data"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    got = _rows(LOADERS[family].load(**entry["loader_kwargs"]))
    expected = entry["rows"]
    if family == "squad20":  # OpenCompass lists a question's distinct answers in a set's order, which varies by process
        assert [{**r, "answers": sorted(r["answers"])} for r in got] == [{**r, "answers": sorted(r["answers"])} for r in expected]
        assert all(r["answers"][-1] == "impossible to answer" for r in got if "impossible to answer" in r["answers"])
    else:
        assert got == expected


def _write(path: Path, lines: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_mathbench_circular_rows_carry_the_rotated_letter_of_the_right_option(tmp_path: Path) -> None:
    row = {"question": " Q? ", "options": ["w", "x", "y", "z"], "answer": "B", "extra": 1}
    _write(tmp_path / "s" / "single_choice_en.jsonl", [json.dumps(row)])
    rows = _rows(MathBenchDataset.load(str(tmp_path / "s"), "single_choice_en"))
    assert [r["answer"] for r in rows] == ["0--B--ABCD", "0--A--BCDA", "0--D--CDAB", "0--C--DABC"]
    assert rows[1]["question"] == "Q?\nA. x\nB. y\nC. z\nD. w\n"
    assert list(rows[0]) == ["question", "options", "answer", "extra"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"question": "q", "options": ["a", "b", "c"], "answer": "A"}', "expected a list of 4 or more options"),
        ('{"question": "q", "options": ["a", "b", "c", "d"], "answer": "E"}', "'answer' is 'E'"),
        ('{"options": ["a", "b", "c", "d"], "answer": "A"}', "has no 'question' field"),
        ("not json", "is not JSON"),
    ],
)
def test_mathbench_bad_line_is_an_error_naming_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    good = json.dumps({"question": "q", "options": ["a", "b", "c", "d"], "answer": "A"})
    path = _write(tmp_path / "s" / "single_choice_cn.jsonl", [good, line])
    with pytest.raises(InputFileError, match="MathBenchDataset") as info:
        MathBenchDataset.load(str(tmp_path / "s"), "single_choice_cn")
    assert str(path) in str(info.value) and "line 2" in str(info.value) and message in str(info.value)


def test_squad_question_without_is_impossible_is_an_error_naming_the_question(tmp_path: Path) -> None:
    data = {"data": [{"paragraphs": [{"context": "c", "qas": [{"question": "q", "answers": [{"text": "a"}]}]}]}]}
    path = tmp_path / "dev-v2.0.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputFileError, match="SQuAD20Dataset") as info:
        SQuAD20Dataset.load(str(path))
    assert str(path) in str(info.value) and "question 0" in str(info.value) and "is_impossible" in str(info.value)


def test_lambada_from_a_hub_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATASET_SOURCE", "ModelScope")
    with pytest.raises(ConfigError, match="opencompass/lambada"):
        lambadaDataset.load("opencompass/lambada")
