"""AdvGLUE (``Adv*Dataset``, ``AccDropEvaluator``): the accuracy the attacks cost, as OpenCompass 0.5.4 computes it.

The library configs' rows and scores are compared with OpenCompass's in
``tests/benchmarks_oc`` (the ``adv_glue`` runs); here, the evaluator's halves
and errors, the loader's originals, and the configs scored from ``gold``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.datasets.advglue import AdvRteDataset, AdvSst2Dataset
from assay.errors import InputFileError
from assay.evaluators.advglue import AccDropEvaluator
from tests.datasets.test_huggingface import _eval, _same_metrics


def test_the_first_half_is_scored_against_the_second() -> None:
    result = AccDropEvaluator().score(["A", "B", "B", "A", "B", "B"], ["A", "A", "B", "A", "A", "B"])
    assert result == pytest.approx({"acc_after": 200 / 3, "acc_before": 200 / 3, "acc_drop": 0.0})
    helped = AccDropEvaluator().score(["A", "A", "B", "A"], ["A", "A", "A", "A"])
    assert helped["acc_drop"] == pytest.approx(-1.0)  # the attacks helped: a negative drop


def test_odd_batches_and_no_original_right_are_error_records() -> None:
    assert "3 samples, an odd number" in AccDropEvaluator().score(["A", "B", "A"], ["A", "A", "A"])["error"]
    assert "acc_before is 0" in AccDropEvaluator().score(["A", "B"], ["A", "A"])["error"]


def test_examples_without_an_original_are_dropped_and_the_originals_follow(tmp_path: Path) -> None:
    path = tmp_path / "dev_ann.json"
    sst2 = [
        {"idx": 0, "label": 1, "sentence": "good moive", "type": "word", "original_sentence": "good movie"},
        {"idx": 1, "label": 0, "sentence": "bad", "type": "word"},
        {"idx": 2, "label": 0, "sentence": "awfull", "type": "word", "original_sentence": "awful"},
    ]
    path.write_text(json.dumps({"sst2": sst2}), encoding="utf-8")
    rows = AdvSst2Dataset.load(str(path)).to_list()
    assert [(r["sentence"], r["type"], r["label_option"]) for r in rows] == [
        ("good moive", "word", "B"), ("awfull", "word", "A"), ("good movie", "original", "B"), ("awful", "original", "A"),
    ]


def test_a_task_without_type_or_examples_is_an_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "dev_ann.json"
    path.write_text(json.dumps({"rte": [{"label": 0, "sentence1": "a", "original_sentence1": "b"}]}), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"AdvRteDataset: file .*dev_ann\.json: the 'rte' examples have no 'type'"):
        AdvRteDataset.load_table(str(path))
    with pytest.raises(InputFileError, match=r"AdvSst2Dataset: file .*dev_ann\.json has no non-empty 'sst2' list"):
        AdvSst2Dataset.load_table(str(path))


@pytest.mark.parametrize("run_id", ["adv_glue_sst2_gen", "adv_glue_mnli_mm_gen"])
def test_library_config_without_its_data_is_scored_from_gold_as_opencompass_scores_it(
    run_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "no-data"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    results = _eval(run_id, tmp_path, capsys)
    assert all(result["_meta"]["references"] == "gold" for result in results.values())
    _same_metrics(results, run_id)
