"""FewCLUE's TNEWS and CLUEWSC loaders: without the data, and a label they cannot map.

Rows and scores on the data are compared with OpenCompass 0.5.4's in
``tests/benchmarks_oc`` (the ``FewCLUE_tnews``/``FewCLUE_cluewsc`` runs).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.datasets.fewclue import (
    CluewscDatasetV2,
    CslDatasetV2,
    TNewsDataset,
    TNewsDatasetV2,
    WiCDataset,
    WiCDatasetV2,
)
from assay.errors import InputFileError
from tests.datasets.test_huggingface import _eval, _same_metrics


@pytest.mark.parametrize(
    ("run_id", "missing"),
    [("FewCLUE_tnews_ppl_d10e8a", "'./data/FewCLUE/tnews/dev_few_all.json' not found"),
     ("FewCLUE_cluewsc_gen", "'./data/FewCLUE/cluewsc/dev_few_all.json' not found"),
     ("FewCLUE_csl_ppl_841b62", "'./data/FewCLUE/csl/dev_few_all.json' not found"),
     ("SuperGLUE_WiC_gen", "'./data/SuperGLUE/WiC/val.jsonl' not found")],
)
def test_library_config_without_its_data_is_scored_from_gold_as_opencompass_scores_it(
    run_id: str, missing: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "no-data"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    results = _eval(run_id, tmp_path, capsys)
    note = next(iter(results.values()))["_meta"]["references_note"]
    assert note.startswith("the test set is not on disk: ") and missing in note, note
    for result in results.values():
        assert result["_meta"]["references"] == "gold"
    _same_metrics(results, run_id)


def test_an_unknown_category_or_label_is_an_error_naming_file_and_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    path = tmp_path / "dev.json"
    path.write_text(json.dumps({"sentence": "s", "label_desc": "news_tech"}) + "\n" + json.dumps({"sentence": "t", "label_desc": "news_pets"}) + "\n",
                    encoding="utf-8")
    with pytest.raises(InputFileError, match=r"TNewsDatasetV2: file .*dev\.json, line 2: label_desc 'news_pets' is not one of TNEWS's"):
        TNewsDatasetV2.load_table(str(path))
    with pytest.raises(InputFileError, match="label_desc 'news_pets'"):
        TNewsDataset.load(path="json", data_files=str(path), split="train")
    path.write_text(json.dumps({"target": {"span1_text": "a", "span2_text": "b"}, "text": "ab", "label": "yes"}) + "\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"CluewscDatasetV2: file .*dev\.json, line 1: label 'yes' is not 'true' or 'false'"):
        CluewscDatasetV2.load_table(str(path))


def test_wic_reads_only_the_text_true_as_true_and_csl_joins_its_keywords(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    path = tmp_path / "val.jsonl"
    path.write_text(json.dumps({"word": "w", "label": "true"}) + "\n" + json.dumps({"word": "w", "label": "false"}) + "\n", encoding="utf-8")
    assert list(WiCDataset.load(path="json", data_files=str(path), split="train")["answer"]) == [1, 0]
    path.write_text(json.dumps({"word": "w", "label": True}) + "\n" + json.dumps({"word": "w", "label": False}) + "\n", encoding="utf-8")
    assert list(WiCDataset.load(path="json", data_files=str(path), split="train")["answer"]) == [0, 0]  # a JSON true reads as 0
    with pytest.raises(InputFileError, match=r"WiCDatasetV2: file .*val\.jsonl, line 1: label True is not 'true' or 'false'"):
        WiCDatasetV2.load_table(str(path))
    path.write_text(json.dumps({"abst": "a", "keyword": ["甲", "乙"], "label": "1"}) + "\n", encoding="utf-8")
    assert CslDatasetV2.load(str(path)).to_list() == [{"abst": "a", "keywords": "甲，乙", "label": "B"}]
