"""The benchmark-family loaders on files a user gets wrong, and where they look for data.

Their output on well-formed files is compared with OpenCompass's in
``tests/benchmarks_oc/test_families_direct.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.datasets.agieval import AGIEvalDataset_v2
from assay.datasets.arc import ARCDataset
from assay.datasets.boolq import BoolQDataset
from assay.datasets.gpqa import GPQADataset
from assay.datasets.mmlu import MMLUDataset, MMLUDatasetClean
from assay.datasets.mmlu_pro import MMLUProDataset
from assay.datasets.winogrande import WinograndeDatasetV2
from assay.errors import ConfigError, InputFileError


@pytest.fixture
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _mmlu(root: Path, name: str = "anatomy", test: str = "q,a,b,c,d,A\n") -> None:
    for split, text in (("dev", "q,a,b,c,d,B\n"), ("test", test)):
        (root / "data" / "mmlu" / split).mkdir(parents=True, exist_ok=True)
        (root / "data" / "mmlu" / split / f"{name}_{split}.csv").write_text(text, encoding="utf-8")


def test_a_dataset_id_reads_under_the_working_directory(cwd: Path) -> None:
    _mmlu(cwd)
    splits = MMLUDataset.load_table("opencompass/mmlu", "anatomy")
    assert splits["test"].column_values("target") == ["A"]
    assert splits["dev"].column_names == ["input", "A", "B", "C", "D", "target"]


def test_compass_data_cache_moves_the_data(cwd: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path_factory.mktemp("cache")
    _mmlu(cache)
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(cache))
    assert MMLUDataset.load("opencompass/mmlu", "anatomy")["test"][0]["target"] == "A"


def test_a_missing_file_is_named(cwd: Path) -> None:
    with pytest.raises(InputFileError, match=r"MMLUDataset\('anatomy'\).*data/mmlu/dev/anatomy_dev.csv does not exist"):
        MMLUDataset.load_table("opencompass/mmlu", "anatomy")


def test_a_short_record_is_named_with_its_file(cwd: Path) -> None:
    _mmlu(cwd, test="q,a,b,c,d,A\nq2,a,b,c,D\n")
    with pytest.raises(InputFileError, match=r"anatomy_test.csv, record 1 has 5 fields, expected 6"):
        MMLUDataset.load_table("opencompass/mmlu", "anatomy")


def test_missing_contamination_annotations_are_reported_not_downloaded(cwd: Path) -> None:
    _mmlu(cwd)
    with pytest.raises(InputFileError, match=r"MMLU_test_contamination_annotations.json do not exist.*local files only"):
        MMLUDatasetClean.load_table("opencompass/mmlu", "anatomy")


def test_contamination_status_comes_from_the_annotations(cwd: Path) -> None:
    _mmlu(cwd, test="q0,a,b,c,d,A\nq1,a,b,c,d,B\n")
    notes = {"anatomy 1": ["input contamination", 0.9]}
    (cwd / "data" / "mmlu" / "test" / "MMLU_test_contamination_annotations.json").write_text(json.dumps(notes))
    test = MMLUDatasetClean.load_table("opencompass/mmlu", "anatomy")["test"]
    assert test.column_values("is_clean") == ["not labeled", "input contamination"]


def test_mmlu_pro_never_asks_the_hub(cwd: Path) -> None:
    with pytest.raises(InputFileError, match=r"data/mmlu_pro does not exist.*never the Hugging Face Hub"):
        MMLUProDataset.load("opencompass/mmlu_pro", "math")


def test_boolq_builder_name_survives_being_made_a_path(cwd: Path) -> None:
    (cwd / "data" / "SuperGLUE" / "BoolQ").mkdir(parents=True)
    rows = [{"question": "q", "passage": "p", "idx": 0, "label": "true"}, {"question": "r", "passage": "p", "idx": 1, "label": False}]
    (cwd / "data" / "SuperGLUE" / "BoolQ" / "val.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows[:1]) + json.dumps({**rows[1], "label": "false"}) + "\n")
    for path in ("json", str(cwd / "configs" / "json")):  # a config loader may have rewritten 'json' against its folder
        data = BoolQDataset.load(path=path, data_files="opencompass/boolq", split="train")
        assert data["answer"] == [1, 0]


def test_gpqa_rotates_the_options_from_the_first_question(cwd: Path) -> None:
    header = ["x"] * 7 + ["Question", "Correct Answer", "Incorrect Answer 1", "Incorrect Answer 2", "Incorrect Answer 3"]
    rows = [header] + [["x"] * 7 + [f"q{i}", "right", "w1", "w2", "w3"] for i in range(4)]
    (cwd / "data" / "gpqa").mkdir(parents=True)
    (cwd / "data" / "gpqa" / "g.csv").write_text("".join(",".join(r) + "\n" for r in rows))
    table = GPQADataset.load_table("./data/gpqa/", "g.csv")
    assert table.column_values("answer") == ["D", "C", "B", "A"]
    assert [table.column_values(c)[0] for c in "ABCD"] == ["w1", "w2", "w3", "right"]


def test_arc_keeps_four_choice_questions_and_maps_numeric_keys(cwd: Path) -> None:
    def item(i: int, labels: str, key: str) -> str:
        choices = [{"text": f"t{c}", "label": c} for c in labels]
        return json.dumps({"id": str(i), "question": {"stem": f"s{i}", "choices": choices}, "answerKey": key}) + "\n"

    path = cwd / "arc.jsonl"
    text = (item(0, "1234", "3") + item(1, "ABC", "A") + item(2, "ABCD", "D")).encode()
    path.write_bytes(text.replace(b'"s2"', b'"s\xff2"'))  # a byte that is not UTF-8 is dropped, as OpenCompass drops it
    table = ARCDataset.load_table(str(path), "ARC-Challenge")
    assert table.column_values("answerKey") == ["C", "D"]
    assert table.column_values("textA") == ["t1", "tA"]
    assert table.column_values("question") == ["s0", "s2"]


def test_winogrande_needs_a_blank(cwd: Path) -> None:
    (cwd / "data" / "winogrande").mkdir(parents=True)
    (cwd / "data" / "winogrande" / "dev.jsonl").write_text(json.dumps({"sentence": "no blank here", "option1": "a", "option2": "b", "answer": "1"}) + "\n")
    with pytest.raises(InputFileError, match=r"dev.jsonl, line 1: the sentence has no blank"):
        WinograndeDatasetV2.load_table("opencompass/winogrande")


def test_agieval_supports_only_the_zero_shot_setting(cwd: Path) -> None:
    with pytest.raises(ConfigError, match="only the 'zero-shot' setting"):
        AGIEvalDataset_v2.load_table("opencompass/agieval", "lsat-ar", "few-shot")
