"""CMRC 2018 and DRCD (``CMRCDataset``, ``DRCDDataset``, ``cmrc_postprocess``, ``drcd_postprocess``).

Their rows, references and scores on the data are compared with OpenCompass
0.5.4's in ``tests/benchmarks_oc`` (the ``CLUE_CMRC``/``CLUE_DRCD`` runs); here:
the library configs without the data, scored from the prediction files'
``gold``, and what a malformed file says.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.datasets.cmrc import CMRCDataset, DRCDDataset
from assay.errors import InputFileError
from tests.datasets.test_huggingface import _eval, _same_metrics


@pytest.mark.parametrize("run_id", ["CLUE_CMRC_gen", "CLUE_DRCD_gen", "CLUE_DRCD_gen_8484b9"])
def test_library_config_without_its_data_is_scored_from_gold_as_opencompass_scores_it(
    run_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "no-data"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    results = _eval(run_id, tmp_path, capsys)
    for result in results.values():
        assert result["_meta"]["references"] == "gold"
        assert result["_meta"]["references_note"].startswith("the test set is not on disk: dataset id 'opencompass/")
    _same_metrics(results, run_id)


def test_answers_given_twice_are_listed_once_in_their_first_order(tmp_path: Path) -> None:
    qas = [{"question": "谁？", "answers": [{"text": "李白"}, {"text": "杜甫"}, {"text": "李白"}]}]
    path = tmp_path / "dev.json"
    path.write_text(json.dumps({"data": [{"paragraphs": [{"context": "李白和杜甫", "qas": qas}]}]}), encoding="utf-8")
    assert DRCDDataset.load(str(path)).to_list() == [{"context": "李白和杜甫", "question": "谁？", "answers": ["李白", "杜甫"]}]


def test_a_question_without_answers_is_an_error_naming_file_article_paragraph_and_question(tmp_path: Path) -> None:
    path = tmp_path / "dev.json"
    qas = [{"question": "q1", "answers": [{"text": "a"}]}, {"question": "q2"}]
    path.write_text(json.dumps({"data": [{"paragraphs": [{"context": "c", "qas": qas}]}]}), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"CMRCDataset: .*dev\.json, article 0, paragraph 0, question 1 has no 'answers' list"):
        CMRCDataset.load_table(str(path))
