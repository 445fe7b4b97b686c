"""The NLU loaders' reading beyond the recorded library runs (``tests/benchmarks_oc`` compares those).

* ``CivilCommentsDataset`` keeps 10,000 shuffled test rows: compared with OpenCompass 0.5.4's
  output in brief (``scripts/record_oc_nlu.py``: rows, columns, the first rows, a digest of all);
* values OpenCompass stops on are errors naming the file, the line and the value;
* library configs whose data is not on disk are scored from the prediction files' ``gold``.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.datasets.nlu import AnliDataset, C3Dataset_V2, CHIDDatasetV2, WSCDatasetV2
from assay.datasets.nlu_choice import MaxminDataset
from assay.datasets.nlu_hub import CivilCommentsDataset, JigsawMultilingualDataset
from assay.datasets.nlu_qa import TydiQADataset
from assay.errors import InputFileError
from assay.rundir.results import read_result
from tests.benchmarks_oc._knowledge import ROOT, knowledge, metrics, same_number
from tests.benchmarks_oc.families import MODEL_ABBR, RUNS
from tests.benchmarks_oc.families_nlu import BUILDERS

RECORDED = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "nlu" / "civilcomments.json"


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _digest(rows: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False, separators=(",", ":")).encode("utf-8")).hexdigest()


def test_civil_comments_keeps_the_rows_opencompass_keeps(in_tmp: Path) -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    BUILDERS["civilcomments"](in_tmp)
    loaded = CivilCommentsDataset.load(**recorded["loader_kwargs"])
    assert sorted(loaded) == sorted(recorded["loaded"])
    for split, want in recorded["loaded"].items():
        rows = loaded[split].to_list()
        assert (len(rows), list(loaded[split].column_names)) == (want["rows"], want["columns"])
        assert rows[: len(want["head"])] == want["head"]
        assert _digest(rows) == want["sha256"], split


def test_civil_comments_with_too_few_test_rows_is_an_error_naming_the_count(in_tmp: Path) -> None:
    BUILDERS["civilcomments"](in_tmp)
    test = in_tmp / "civil_comments" / "test.jsonl"
    test.write_text("".join(test.read_text(encoding="utf-8").splitlines(keepends=True)[:20]), encoding="utf-8")
    with pytest.raises(InputFileError, match="the test split of civil_comments has 20 rows; OpenCompass takes 10000"):
        CivilCommentsDataset.load(path="civil_comments")


def _lines(path: Path, *rows: Any) -> str:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def test_values_opencompass_stops_on_are_errors_naming_file_line_and_value(in_tmp: Path) -> None:
    path = _lines(in_tmp / "dev.jsonl", {"context": "c", "hypothesis": "h", "label": "e"}, {"context": "c", "hypothesis": "h", "label": "x"})
    with pytest.raises(InputFileError, match=r"AnliDataset: file .*dev\.jsonl, line 2: label 'x' is not 'c', 'e' or 'n'"):
        AnliDataset.load_table(path)
    path = _lines(in_tmp / "val.jsonl", {"text": "t", "target": {"span1_text": "a", "span2_text": "it"}, "label": True})
    with pytest.raises(InputFileError, match=r"WSCDatasetV2: file .*val\.jsonl, line 1: label True is not 'true' or 'false'"):
        WSCDatasetV2.load_table(path)
    path = _lines(in_tmp / "chid.json", {"content": "#idiom#", "candidates": ["甲", "乙"], "answer": 9})
    with pytest.raises(InputFileError, match=r"CHIDDatasetV2: file .*chid\.json, line 1: answer 9 is not an int indexing 'ABCDEFG'"):
        CHIDDatasetV2.load_table(path)
    c3 = in_tmp / "c3.json"
    c3.write_text(json.dumps([[["段落"], [{"question": "问？", "choice": ["甲", "乙"], "answer": "丙"}], "id"]], ensure_ascii=False), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"C3Dataset_V2: file .*c3\.json, document 0, question 0: answer '丙' is not one of its choices"):
        C3Dataset_V2.load_table(str(c3))


def test_c3_v2_pads_missing_choices_and_labels_the_first_occurrence(in_tmp: Path) -> None:
    c3 = in_tmp / "c3.json"
    c3.write_text(json.dumps([[["第一段", "第二段"], [{"question": "问？", "choice": ["乙", "甲", "乙"], "answer": "乙"}], "id"]],
                             ensure_ascii=False), encoding="utf-8")
    assert C3Dataset_V2.load(str(c3)).to_list() == [
        {"content": "第一段第二段", "question": "问？", "choice0": "乙", "choice1": "甲", "choice2": "乙", "choice3": "[NULL]", "label": "A"}
    ]


def test_tydiqa_keeps_each_answer_once_in_first_seen_order(in_tmp: Path) -> None:
    (in_tmp / "dev").mkdir()
    _lines(in_tmp / "dev" / "english-dev.jsonl", {"question_text": "q", "answers": [{"text": "b"}, {"text": "a"}, {"text": "b"}]})
    assert TydiQADataset.load_table(str(in_tmp), "english").column_values("answer") == [["b", "a"]]


def test_maxmin_and_jigsaw_name_the_record_they_cannot_read(in_tmp: Path) -> None:
    (in_tmp / "test.json").write_text(json.dumps([{"idx": "m-1", "nl_tokens": ["a"], "pl_tokens": ["b"]}]), encoding="utf-8")
    (in_tmp / "answers.txt").write_text("m-2<CODESPLIT>max\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"MaxminDataset: file .*test\.json, item 0: idx 'm-1' has no line in the answers file"):
        MaxminDataset.load_table(str(in_tmp / "test.json"), str(in_tmp / "answers.txt"))
    (in_tmp / "t.csv").write_text("id,content,lang\n1,hola,es\n", encoding="utf-8")
    (in_tmp / "l.csv").write_text("id,toxic\n2,1\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"record 2: the label record \['2', '1'\] is not for id '1'"):
        JigsawMultilingualDataset.load_table(str(in_tmp / "t.csv"), str(in_tmp / "l.csv"), "es")


def _eval_library(run_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, Any]]:
    """``assay eval`` of a library config's recorded datasets, from the recorded prediction files."""
    run = next(r for r in RUNS if r.run_id == run_id)
    work = tmp_path / "work"
    shutil.copytree(ROOT / run_id / "predictions", work / "run" / "predictions")
    config = tmp_path / "eval_config.py"
    config.write_text(
        "from mmengine.config import read_base\n\n"
        f"with read_base():\n    from {run.module} import {run.variable}\n\n"
        f"datasets = [d for d in {run.variable} if (d['abbr'] if 'abbr' in d else d['path']) in {list(run.abbrs)!r}]\n"
        f"models = [dict(abbr={MODEL_ABBR!r}, path='oc/model')]\n",
        encoding="utf-8",
    )
    rc = main(["eval", str(config), "-w", str(work), "-r", "run", "--workers", "1"])
    assert rc == 0, capsys.readouterr().err[-2000:]
    return {abbr: read_result(work / "run" / "results" / MODEL_ABBR / f"{abbr}.json") for abbr in knowledge(run_id)["datasets"]}


@pytest.mark.parametrize(
    ("run_id", "missing"),
    [("CLUE_C3_gen", "./data/CLUE/C3/dev_0.json"), ("nqcn_gen", "./data/nq_cn"), ("tydiqa_gen", "opencompass/tydiqa"),
     ("crowspairs_gen", "crows_pairs"), ("XCOPA_ppl", "xcopa"), ("jigsawmultilingual_clp", "data/jigsawmultilingual/test.csv")],
)
def test_library_config_without_its_data_is_scored_from_gold_as_opencompass_scores_it(
    run_id: str, missing: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The references come from the prediction files' ``gold`` because the data is not on disk; the numbers are
    OpenCompass's on the data.  (StrategyQA cannot be: OpenCompass's prediction files leave out a ``False`` gold.)"""
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "no-data"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    results = _eval_library(run_id, tmp_path, capsys)
    for abbr, result in results.items():
        assert result["_meta"]["references"] == "gold", abbr
        note = result["_meta"]["references_note"]
        assert note.startswith("the test set is not on disk: ") and missing in note, note
        want, got = metrics(knowledge(run_id)["datasets"][abbr]["result"]), metrics(result)
        assert want and set(want) <= set(got), (abbr, got)
        for key, value in want.items():
            assert same_number(got[key], value), f"{abbr} {key}: assay {got[key]} != OpenCompass {value}"
