"""The generation families' file loaders: bad files named (the rows themselves are compared with
OpenCompass 0.5.4's in ``tests/benchmarks_oc``, on the files of ``tests/benchmarks_oc/families_gen.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET
from tests.benchmarks_oc.families import build_data


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_narrativeqa_set_of_no_split_names_the_row(root: Path) -> None:
    build_data("narrativeqa", root)
    table = root / "data" / "narrativeqa" / "qaps.csv"
    table.write_text(table.read_text(encoding="utf-8") + "doc1,dev,Who?,a,b,,,\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"NarrativeQADataset: .*qaps\.csv, row 10: set 'dev' is none of"):
        LOAD_DATASET.get("NarrativeQADataset").load(path="./data/narrativeqa/")


def test_narrativeqa_leaves_out_a_question_whose_document_is_missing(root: Path) -> None:
    build_data("narrativeqa", root)
    loaded = LOAD_DATASET.get("NarrativeQADataset").load(path="./data/narrativeqa/")
    assert {split: len(loaded[split]) for split in loaded} == {"train": 1, "valid": 5, "test": 1}  # 8 questions, 1 document missing


def test_flores_files_of_different_lengths_are_named(root: Path) -> None:
    build_data("flores", root)
    (root / "data" / "flores_first100" / "devtest" / "fra_Latn.devtest").write_text("une ligne\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"devtest/eng_Latn\.devtest has 6 lines but .*devtest/fra_Latn\.devtest has 1"):
        LOAD_DATASET.get("FloresFirst100Dataset").load(path="opencompass/flores", name="eng_Latn-fra_Latn")


def test_flores_name_must_be_a_language_pair(root: Path) -> None:
    with pytest.raises(ConfigError, match=r"name 'eng_Latn' is not a language pair"):
        LOAD_DATASET.get("FloresFirst100Dataset").load(path="opencompass/flores", name="eng_Latn")


def test_mmlu_arabic_row_of_five_cells_names_file_and_row(root: Path) -> None:
    build_data("MMLUArabic", root)
    file = root / "data" / "MMLUArabic" / "test" / "anatomy_test.csv"
    file.write_text(file.read_text(encoding="utf-8") + "q,a,b,c,D\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"MMLUArabicDataset: .*anatomy_test\.csv, row 7 has 5 cells, expected 6"):
        LOAD_DATASET.get("MMLUArabicDataset").load(path="./data/MMLUArabic/", name="anatomy")


def test_xiezhi_answer_that_is_no_option_names_the_line(root: Path) -> None:
    build_data("xiezhi", root)
    file = root / "data" / "xiezhi" / "xiezhi_spec_eng" / "xiezhi.v1.json"
    lines = [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines()]
    lines[1]["answer"] = "none of these"
    file.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"XiezhiDataset: .*xiezhi_spec_eng/xiezhi\.v1\.json, line 2: the answer 'none of these'"):
        LOAD_DATASET.get("XiezhiDataset").load(path="./data/xiezhi/", name="xiezhi_spec_eng")


def test_xsum_line_that_is_no_json_is_named(root: Path) -> None:
    build_data("Xsum", root)
    file = root / "data" / "Xsum" / "dev.jsonl"
    file.write_text(file.read_text(encoding="utf-8") + "{not json\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"XsumDataset: .*dev\.jsonl, line 8 is not JSON"):
        LOAD_DATASET.get("XsumDataset").load(path="opencompass/xsum")


def test_summscreen_without_its_tms_folder_names_it(root: Path) -> None:
    build_data("summscreen", root)
    for file in (root / "data" / "SummScreen" / "SummScreen_raw" / "tms").iterdir():
        file.unlink()
    (root / "data" / "SummScreen" / "SummScreen_raw" / "tms").rmdir()
    with pytest.raises(InputFileError, match=r"SummScreenDataset: no such folder: .*SummScreen_raw/tms"):
        LOAD_DATASET.get("SummScreenDataset").load(path="./data/SummScreen/")


def test_govrep_report_without_subsections_names_the_file(root: Path) -> None:
    build_data("govrepcrs", root)
    file = root / "data" / "govrep" / "gov-report" / "crs" / "R4.json"
    report = json.loads(file.read_text(encoding="utf-8"))
    del report["reports"]["subsections"]
    file.write_text(json.dumps(report), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"GovRepcrsDataset: .*crs/R4\.json: 'reports' has no 'subsections' field"):
        LOAD_DATASET.get("GovRepcrsDataset").load(path="./data/govrep/")


def test_cmb_hides_the_test_answers_and_drops_one_character_options(root: Path) -> None:
    build_data("cmb", root)
    loaded = LOAD_DATASET.get("CMBDataset").load(path="./data/CMB/")
    assert set(loaded["test"]["answer"]) == {"NULL"}
    by_question = {q.split(" (")[0]: text for q, text in zip(loaded["val"]["question"], loaded["val"]["option_str"])}
    assert by_question["七乘以八等于多少？"] == "A. 54\nB. 56\nC. 58\nD. 64"
    assert by_question["哪种金属在室温下是液体？"] == ""  # every option is one character


def test_mmlu_cf_without_the_category_s_splits_names_them(root: Path) -> None:
    build_data("mmlu_cf", root)
    with pytest.raises(InputFileError, match=r"MMLUCFDataset: 'microsoft/MMLU-CF' has no split 'Biology_dev' \(splits: Math_dev"):
        LOAD_DATASET.get("MMLUCFDataset").load(path="microsoft/MMLU-CF", name="Biology")


def test_mmmlu_without_a_local_copy_says_where_it_looked(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_CACHE", str(root / "hub"))
    with pytest.raises(InputFileError, match=r"MMMLUDataset: 'openai/MMMLU' is neither a local folder nor a dataset in the "
                                             r"Hugging Face Hub's cache.*huggingface-cli download openai/MMMLU"):
        LOAD_DATASET.get("MMMLUDataset").load(path="openai/MMMLU", name="mmlu_AR-XY")


def test_medqa_without_answer_idx_names_the_columns(root: Path) -> None:
    build_data("MedQA", root)
    file = root / "xuxuxuxuxu" / "MedQA_US_test" / "train.jsonl"
    rows = [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines()]
    file.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "answer_idx"}) + "\n" for r in rows), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"MedQADataset: the 'train' split of 'xuxuxuxuxu/MedQA_US_test' has no column 'answer_idx'"):
        LOAD_DATASET.get("MedQADataset").load(path="xuxuxuxuxu/MedQA_US_test")


def test_rolebench_role_without_description_names_the_line(root: Path) -> None:
    build_data("rolebench", root)
    file = root / "ZenMoore" / "RoleBench" / "rolebench-zh" / "general" / "test.jsonl"
    file.write_text(file.read_text(encoding="utf-8") + json.dumps({"role": "无名氏", "question": "?", "generated": ["a"]}) + "\n",
                    encoding="utf-8")
    with pytest.raises(InputFileError, match=r"rolebench-zh/general/test\.jsonl, line 4: the role '无名氏' has no description"):
        LOAD_DATASET.get("InstructionGeneralizationChineseDataset").load(path="ZenMoore/RoleBench")


def test_py150_line_that_is_no_json_is_named(root: Path) -> None:
    build_data("py150", root)
    file = root / "data" / "py150" / "test.json"
    file.write_text(file.read_text(encoding="utf-8") + "<s> x = <NUM_LIT> <EOL>\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"Py150Dataset: .*test\.json, line 6 is not JSON once its literals are restored"):
        LOAD_DATASET.get("Py150Dataset").load(path="data/py150/test.json")
