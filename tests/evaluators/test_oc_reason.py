"""Math word problems (CMO fill-in-the-blank, SVAMP, GSM-Hard, Math401, MGSM, SciBench, Mastermath), QuALITY,
CHARM's reasoning tasks and ProcessBench, against OpenCompass 0.5.4.

The recordings are made by ``scripts/record_oc_reason.py`` with OpenCompass
installed: its own eval task scored the prediction files under
``tests/data/oc_families/reason/predictions`` on the data under ``cache``.
Each case imports a config of OpenCompass's library unchanged (through
``read_base``, the library from the ``oc_library`` fixture) and runs
``assay eval`` on the same prediction files, once with the data on disk (the files' ``gold`` replaced, so that only the
data gives the references) and once without it (the references then come from
the files' ``gold``); every
metric and every sample's prediction and verdict must be OpenCompass's.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.errors import ConfigError, InputFileError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET, TEXT_POSTPROCESSORS

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "reason"
EXPECTED = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "expected").glob("*.json"))}
VECTORS = json.loads((ROOT / "vectors.json").read_text(encoding="utf-8"))
RUN = "20250101_000000"
MODEL = "oc-model"


def _config(record: dict[str, Any]) -> str:
    module = "opencompass.configs.datasets." + record["config"][: -len(".py")].replace("/", ".")
    variable = record["variable"]
    keep = "" if record["kept"] is None else f" if d['abbr'] in {record['kept']!r}"
    return (f"from mmengine.config import read_base\n\nwith read_base():\n    from {module} import {variable}\n\n"
            f"datasets = [d for d in {variable}{keep}]\nmodels = [dict(abbr={MODEL!r}, path='org/model')]\n")


def _rows(details: Any) -> list[dict[str, Any]]:
    """The per-sample details, each field of assay's one-run lists read as its one value."""
    rows = list(details.values()) if isinstance(details, dict) else list(details)
    return [{k: v[0] if isinstance(v, list) and len(v) == 1 else v for k, v in d.items()} for d in rows if isinstance(d, dict)]


def _own_details(details: Any) -> list[dict[str, Any]]:
    """The evaluator's own per-sample fields (OpenCompass's eval task adds the sample's name)."""
    return [{k: v for k, v in d.items() if k != "example_abbr"} for d in _rows(details)]


def _eval(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path, *, with_data: bool) -> Path:
    record = EXPECTED[case]
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    if with_data:
        data = tmp_path / "cache"
        shutil.copytree(ROOT / "cache", data)
    else:
        data = tmp_path / "empty"
        data.mkdir()
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(data))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no ~/.cache/opencompass copy either
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))  # nor a copy in the Hub's cache
    monkeypatch.chdir(data)
    config = tmp_path / "config.py"
    config.write_text(_config(record), encoding="utf-8")
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in record["datasets"]:
        replies = json.loads((ROOT / "predictions" / f"{abbr}.json").read_text(encoding="utf-8"))
        if with_data:  # the references must come from the data: the files' gold is made useless
            replies = {key: dict(reply, gold="not the reference") for key, reply in replies.items()}
        (predictions / f"{abbr}.json").write_text(json.dumps(replies, ensure_ascii=False), encoding="utf-8")
    main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
    return work / RUN / "results" / MODEL


#: Cases whose evaluator or postprocessor is the family's own; the others' (MATHEvaluator, Gsm8kEvaluator,
#: AccEvaluator with mathbench_postprocess) are scored from gold by their own tests, and here from the data only.
OWN_SCORING = {"math401_gen", "mgsm_gen", "scibench_gen", "mastermath2024v1_gen", "charm_reason_gen", "charm_reason_cot_only_gen_f7b7d3",
               "processbench_gen"}  # QuALITY's reads the test set: data only
SCORE_CASES = [(case, True) for case in sorted(EXPECTED)] + [(case, False) for case in sorted(OWN_SCORING)]


@pytest.mark.parametrize(("case", "with_data"), SCORE_CASES, ids=[f"{c}-{'data' if d else 'gold'}" for c, d in SCORE_CASES])
def test_library_config_scores_as_opencompass(case: str, with_data: bool, oc_library: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    results = _eval(case, tmp_path, monkeypatch, oc_library, with_data=with_data)
    for abbr, entry in EXPECTED[case]["datasets"].items():
        result = json.loads((results / f"{abbr}.json").read_text(encoding="utf-8"))
        assert "error" not in result, (abbr, result)
        for key, value in entry["result"].items():
            assert result[key] == pytest.approx(value, abs=1e-12), (abbr, key)
        if {"correct", "match"} & set(_rows(entry["details"])[0]):  # the evaluator's own details
            # (OpenCompass's grouping of details per sample drops a field named 'predictions': MGSM's; assay keeps it)
            oc_rows = _own_details(entry["details"])
            assert [{k: d[k] for k in oc} for d, oc in zip(_own_details(result["details"]), oc_rows, strict=True)] == oc_rows, abbr
        else:  # OpenCompass formats the details of an evaluator that gives none (AccEvaluator)
            assert [d.get("pred", d.get("predictions")) for d in _rows(result["details"])] == entry["predictions"], abbr


#: Each dataset whose loader is the family's own (Math401's is MathBench's, tested with it).
LOADER_CASES = [(case, abbr) for case, record in EXPECTED.items() for abbr in record["datasets"] if case != "math401_gen"]


@pytest.mark.parametrize(("case", "abbr"), LOADER_CASES, ids=[f"{c}-{a}" for c, a in LOADER_CASES])
def test_library_config_loads_opencompass_rows(case: str, abbr: str, oc_library: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    record = EXPECTED[case]
    shutil.copytree(ROOT / "cache", tmp_path / "cache")
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.chdir(tmp_path / "cache")
    config = tmp_path / "config.py"
    config.write_text(_config(record), encoding="utf-8")
    (ds,) = [d for d in load_config(config).variables["datasets"] if d["abbr"] == abbr]
    assert ds["type"].__module__.startswith("assay.datasets.")
    args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg")}
    table = ds["type"].load(**args)
    rows = table.to_arrow().to_pylist() if hasattr(table, "to_arrow") else table.to_list()
    post = ds["eval_cfg"].get("dataset_postprocessor")
    if post:  # the recorded rows are the test set the evaluator saw: its references read by this
        column = ds["reader_cfg"]["output_column"]
        rows = [dict(r, **{column: post["type"](r[column])}) for r in rows]
    # OpenCompass's test set also numbers its rows (idx) and names the dataset (subdivision)
    assert rows == [{k: v for k, v in r.items() if k not in ("idx", "subdivision")} for r in record["datasets"][abbr]["test_rows"]]


@pytest.mark.parametrize(("text", "lang", "expected"), VECTORS["mgsm_postprocess"])
def test_mgsm_postprocess_matches_opencompass(text: str, lang: str, expected: str) -> None:
    assert TEXT_POSTPROCESSORS.get("mgsm_postprocess")(text, lang=lang) == expected


@pytest.mark.parametrize(("text", "expected"), VECTORS["scibench_postprocess"])
def test_scibench_postprocess_matches_opencompass(text: str, expected: str) -> None:
    assert TEXT_POSTPROCESSORS.get("scibench")(text) == expected


@pytest.mark.parametrize(("text", "expected"), VECTORS["charm_reason_postprocess"])
def test_charm_reason_postprocess_matches_opencompass(text: str, expected: str) -> None:
    assert TEXT_POSTPROCESSORS.get("charm-reason")(text) == expected


def test_math401_evaluator_matches_opencompass() -> None:
    case = VECTORS["Math401Evaluator"]
    assert ICL_EVALUATORS.get("Math401Evaluator")().score(case["predictions"], case["references"]) == case["result"]


def test_mgsm_postprocess_names_an_unknown_language() -> None:
    with pytest.raises(ConfigError, match=r"mgsm_postprocess: unknown lang 'xx'"):
        TEXT_POSTPROCESSORS.get("mgsm_postprocess")("Answer: 3", lang="xx")


def test_mgsm_line_without_a_tab_names_the_file_and_line(tmp_path: Path) -> None:
    file = tmp_path / "mgsm_en.tsv"
    file.write_text("Q one\t1\nQ two has no answer\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"MGSMSDataset: file .*mgsm_en\.tsv, line 2 has 1 tab-separated field"):
        LOAD_DATASET.get("MGSMSDataset").load(str(file))


def test_svamp_answer_that_is_not_a_number_names_the_line(tmp_path: Path) -> None:
    file = tmp_path / "SVAMP.jsonl"
    file.write_text(json.dumps({"Body": "b", "Question": "q", "Answer": 3}) + "\n"
                    + json.dumps({"Body": "b", "Question": "q", "Answer": "three"}) + "\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"SVAMPDataset: .*SVAMP\.jsonl, line 2: .*Answer 'three'"):
        LOAD_DATASET.get("SVAMPDataset").load(str(file))


def test_cmo_line_without_gold_answer_names_the_field(tmp_path: Path) -> None:
    file = tmp_path / "cmo.jsonl"
    file.write_text(json.dumps({"origin_prompt": "p"}) + "\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"CMOFibDataset: .*cmo\.jsonl, line 1 has no 'gold_answer' field"):
        LOAD_DATASET.get("CMOFibDataset").load(str(file))


def test_scibench_file_that_is_not_a_list_names_it(tmp_path: Path) -> None:
    (tmp_path / "atkins.json").write_text('{"problem_text": "p"}', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"ScibenchDataset: file .*atkins\.json holds a JSON dict"):
        LOAD_DATASET.get("ScibenchDataset").load(str(tmp_path), name="atkins")


def test_mastermath_short_record_names_the_file_and_record(tmp_path: Path) -> None:
    (tmp_path / "m.csv").write_text("id,question,A,B,C,D,answer\n1,q,a,b,c,d,A\n2,q,a,b\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"MastermathDatasetv1: file .*m\.csv, record 3 has 4 field\(s\)"):
        LOAD_DATASET.get("MastermathDatasetv1").load(str(tmp_path), "m.csv")


def test_quality_label_out_of_range_names_the_question(tmp_path: Path) -> None:
    question = {"question": "q", "options": ["a", "b", "c", "d"], "gold_label": 5, "difficult": 0}
    (tmp_path / "dev").write_text(json.dumps({"article": "x", "questions": [question]}) + "\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"QuALITYDataset: .*dev, line 1, question 0: gold_label 5"):
        LOAD_DATASET.get("QuALITYDataset").load(str(tmp_path / "dev"))


def test_quality_without_easy_questions_is_an_error_record() -> None:
    result = ICL_EVALUATORS.get("QuALITYEvaluator")().score(["A"], ["A"], [{"difficult": 1}])
    assert "no easy question" in result["error"]


def test_charm_file_without_examples_names_it(tmp_path: Path) -> None:
    (tmp_path / "task.json").write_text('[{"input": "q", "target": "(A)"}]', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"CharmDataset: file .*task\.json holds no 'examples' list"):
        LOAD_DATASET.get("CharmDataset").load(str(tmp_path), "task")


def test_s3eval_loader_reads_the_test_split_as_opencompass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "cache" / "FangyuLei", tmp_path / "FangyuLei")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.chdir(tmp_path)
    case = VECTORS["S3EvalDataset"]
    assert LOAD_DATASET.get("S3EvalDataset").load(**case["args"]).to_arrow().to_pylist() == case["rows"]


def test_s3eval_evaluator_matches_opencompass() -> None:
    case = VECTORS["S3EvalEvaluator"]
    result = ICL_EVALUATORS.get("S3EvalEvaluator")().score(case["predictions"], case["references"])
    assert result["score"] == case["result"]["score"]
    assert [d["score"] for d in result["details"]] == [1, 0.8, 0.4, 1, 1, 0]  # a table's rows, a list's items, numbers, words


def test_s3eval_library_config_without_reader_cfg_is_an_error_record_naming_it(oc_library: Path, tmp_path: Path,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "cache" / "FangyuLei", tmp_path / "FangyuLei")
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.py").write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                                        "    from opencompass.configs.datasets.s3eval.s3eval_gen import s3eval_datasets\n\n"
                                        f"datasets = s3eval_datasets\nmodels = [dict(abbr={MODEL!r}, path='org/model')]\n")
    predictions = tmp_path / "work" / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    replies = {str(i): {"origin_prompt": "q", "prediction": r, "gold": g}
               for i, (r, g) in enumerate(zip(VECTORS["S3EvalEvaluator"]["predictions"], VECTORS["S3EvalEvaluator"]["references"]))}
    (predictions / "s3eval.json").write_text(json.dumps(replies), encoding="utf-8")
    main(["eval", str(tmp_path / "config.py"), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1"])
    result = json.loads((tmp_path / "work" / RUN / "results" / MODEL / "s3eval.json").read_text(encoding="utf-8"))
    assert "names no reader_cfg output_column" in result["error"]
