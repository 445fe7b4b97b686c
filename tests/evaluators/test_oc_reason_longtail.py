"""KOR-Bench, SuperGPQA, BBEH, ZebraLogic, TabMWP, Omni-MATH's loader and the Game of 24 against OpenCompass 0.5.4.

The recordings are made by ``scripts/record_oc_reason_longtail.py`` with
OpenCompass installed: its own eval task scored the prediction files under
``tests/data/oc_families/reason_longtail/predictions`` on the data under
``cache``.  Each case imports a config of OpenCompass's library unchanged
(through ``read_base``, the library from the ``oc_library`` fixture) and runs
``assay eval`` on the same prediction files with the data on disk (the files'
``gold`` replaced, so that only the data gives the references) and, where the
evaluator reads the references alone (BBEH's, ZebraLogic's, TabMWP's, the Game of 24's), without it (the references then
come from the files' ``gold``); every metric and every sample's details must be
OpenCompass's.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.errors import ConfigError, InputFileError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET
from tests.evaluators._library import MODEL, library_config, with_data, without_data

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "reason_longtail"
EXPECTED = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "expected").glob("*.json"))}
VECTORS = json.loads((ROOT / "vectors.json").read_text(encoding="utf-8"))
RUN = "20250101_000000"


def _config(record: dict[str, Any]) -> str:
    keep = "" if record["kept"] is None else f" if d['abbr'] in {record['kept']!r}"
    return library_config(record["config"], record["variable"], f"[d for d in {record['variable']}{keep}]")


def _rows(details: Any) -> list[dict[str, Any]]:
    """The per-sample details, each field of assay's one-run lists read as its one value."""
    rows = list(details.values()) if isinstance(details, dict) else list(details)
    return [{k: v[0] if isinstance(v, list) and len(v) == 1 else v for k, v in d.items() if k != "example_abbr"}
            for d in rows if isinstance(d, dict)]


#: Cases whose evaluator reads the references alone: scored from the prediction files' gold too.
GOLD_CASES = {"bbeh_gen", "game24_gen_52a460", "zebralogic_rawprompt_gen_9446ef", "TabMWP_gen_2aef96"}
SCORE_CASES = [(case, True) for case in sorted(EXPECTED)] + [(case, False) for case in sorted(GOLD_CASES)]


@pytest.mark.parametrize(("case", "on_disk"), SCORE_CASES, ids=[f"{c}-{'data' if d else 'gold'}" for c, d in SCORE_CASES])
def test_library_config_scores_as_opencompass(case: str, on_disk: bool, oc_library: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    record = EXPECTED[case]
    if on_disk:
        with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    else:
        without_data(tmp_path, monkeypatch, oc_library)
    config = tmp_path / "config.py"
    config.write_text(_config(record), encoding="utf-8")
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in record["datasets"]:
        replies = json.loads((ROOT / "predictions" / f"{abbr}.json").read_text(encoding="utf-8"))
        if on_disk:  # the references must come from the data: the files' gold is made useless
            replies = {key: dict(reply, gold="not the reference") for key, reply in replies.items()}
        (predictions / f"{abbr}.json").write_text(json.dumps(replies, ensure_ascii=False), encoding="utf-8")
    main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
    for abbr, entry in record["datasets"].items():
        result = json.loads((work / RUN / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        assert "error" not in result, (abbr, result)
        assert {k: result[k] for k in entry["result"]} == entry["result"], abbr
        oc_rows = _rows(entry["details"])
        if "correct" in oc_rows[0] or "is_correct" in oc_rows[0]:  # the evaluator's own details
            assert [{k: d[k] for k in oc} for d, oc in zip(_rows(result["details"]), oc_rows, strict=True)] == oc_rows, abbr
        elif case == "TabMWP_gen_2aef96":  # details of its own: the answers as compared (test_tabmwp_... below)
            assert len(_rows(result["details"])) == len(entry["predictions"]), abbr
        else:  # OpenCompass formats the details of an evaluator that gives none (Game24Evaluator)
            assert [d["pred"] for d in _rows(result["details"])] == entry["predictions"], abbr


LOADER_CASES = [(case, abbr) for case, record in EXPECTED.items() for abbr in record["datasets"]]


@pytest.mark.parametrize(("case", "abbr"), LOADER_CASES, ids=[f"{c}-{a}" for c, a in LOADER_CASES])
def test_library_config_loads_opencompass_rows(case: str, abbr: str, oc_library: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config
    from assay.config.abbr import dataset_abbr

    record = EXPECTED[case]
    data = with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    config = tmp_path / "config.py"
    config.write_text(_config(record), encoding="utf-8")
    (ds,) = [d for d in load_config(config).variables["datasets"] if dataset_abbr(d) == abbr]
    assert ds["type"].__module__.startswith("assay.datasets.")
    args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg")}
    table = ds["type"].load(**args)
    rows = (table["test"] if isinstance(table, dict) else table).to_arrow().to_pylist()
    post = ds["eval_cfg"].get("dataset_postprocessor")
    if post:  # the recorded rows are the test set the evaluator saw: its references read by this
        column = ds["reader_cfg"]["output_column"]
        rows = [dict(r, **{column: post["type"](r[column])}) for r in rows]
    # OpenCompass's test set also numbers its rows (idx) and names the dataset (subdivision)
    expected = [{k: v.replace("$COMPASS_DATA_CACHE", str(data)) if k == "base_path" else v for k, v in r.items()
                 if k not in ("idx", "subdivision")} for r in record["datasets"][abbr]["test_rows"]]
    assert rows == expected


@pytest.mark.parametrize(("response", "answer", "category", "rule_id", "position", "expected"), VECTORS["korbench_match"])
def test_korbench_match_matches_opencompass(response: str, answer: str, category: str, rule_id: str, position: Any,
                                            expected: bool) -> None:
    from assay.evaluators.korbench import korbench_match

    assert korbench_match(response, answer, category, rule_id, position) == expected


def test_korbench_reply_expression_is_computed_without_running_it() -> None:
    from assay.evaluators.korbench import korbench_match

    # OpenCompass evaluates these as Python; assay computes arithmetic only and refuses names and huge powers
    assert korbench_match("[[9**9**9**9]]", "[[9*9*9*9=24]]", "puzzle", "10", 0) is False
    assert korbench_match("[[__import__('os')]]", "[[1=1]]", "puzzle", "9", 0) is False
    assert korbench_match("[[(4+2)*(3+1)]]", "[[(1+3)*(2+4)=24]]", "puzzle", "10", 0) is True


def test_korbench_missing_category_file_names_it(tmp_path: Path) -> None:
    (tmp_path / "cipher").mkdir()
    (tmp_path / "cipher" / "rule.json").write_text("[]", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"korbenchDataset: neither .*cipher/sample\.json nor \.jsonl exists"):
        LOAD_DATASET.get("korbenchDataset").load(str(tmp_path), prompt_mode="0_shot", category="cipher")


def test_korbench_unknown_prompt_mode_and_category_are_named(tmp_path: Path) -> None:
    loader = LOAD_DATASET.get("korbenchDataset")
    with pytest.raises(ConfigError, match=r"korbenchDataset: unsupported prompt_mode '5_shot'"):
        loader.load(str(tmp_path), prompt_mode="5_shot", category="cipher")
    with pytest.raises(ConfigError, match=r"korbenchDataset: prompt_mode '0_shot' has no prompt for category 'riddle'"):
        loader.load(str(tmp_path), prompt_mode="0_shot", category="riddle")


def test_korbench_mixed_task_naming_a_missing_question_names_it(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "cache" / "data" / "korbench", tmp_path / "korbench")
    (tmp_path / "korbench" / "mixed" / "Multi-Q.json").write_text(
        json.dumps([{"rule_list": ["cipher_1"], "question_list": ["cipher_42"]}]), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"korbenchDataset: .*cipher/sample\.json\(l\) has no record with idx '42'"):
        LOAD_DATASET.get("korbenchDataset").load(str(tmp_path / "korbench"), prompt_mode="mixed", category="Multi-Q")


def test_korbench_rule9_answer_without_result_is_an_error_record() -> None:
    row = {"prompt_mode": "0_shot", "category": "puzzle", "rule_id": "9"}
    result = ICL_EVALUATORS.get("korbenchEvaluator")().score(["[[1+2]]"], ["[[1+2]]"], [row])
    assert "sample 0" in result["error"] and "'= <integer>'" in result["error"]


@pytest.mark.parametrize(("text", "options", "label", "content"), VECTORS["supergpqa_extract"])
def test_supergpqa_answer_reading_matches_opencompass(text: str, options: list[str], label: str | None, content: str | None) -> None:
    from assay.evaluators.supergpqa import supergpqa_option_content, supergpqa_option_label

    assert (supergpqa_option_label(text), supergpqa_option_content(text, options)) == (label, content)


def test_supergpqa_loader_filters_and_fills_the_five_shot_prompt_as_opencompass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                                 oc_library: Path) -> None:
    with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    case = VECTORS["SuperGPQADataset_field"]
    assert LOAD_DATASET.get("SuperGPQADataset").load(**case["args"]).to_arrow().to_pylist() == case["rows"]


def test_supergpqa_llmjudge_postprocess_matches_opencompass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path) -> None:
    from assay.registry import DICT_POSTPROCESSORS

    with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    rows = LOAD_DATASET.get("SuperGPQADataset").load("m-a-p/SuperGPQA", prompt_mode="zero-shot").to_arrow().to_pylist()
    dataset = type("Judged", (), {"reader": type("Reader", (), {"dataset": {"test": rows}})()})()
    case = VECTORS["supergpqa_llmjudge_postprocess"]
    result = DICT_POSTPROCESSORS.get("supergpqa_llmjudge_postprocess")(case["output"], "", dataset=dataset)
    assert result == case["result"]
    assert list(result) == list(case["result"])  # the per-category metrics in OpenCompass's order


def test_supergpqa_unknown_difficulty_is_an_error_record_naming_it() -> None:
    row = {"prompt_mode": "zero-shot", "options": ["x", "y"], "difficulty": "expert", "answer_letter": "A", "answer": "x"}
    result = ICL_EVALUATORS.get("SuperGPQAEvaluator")().score(["Answer: A"], ["A"], [row])
    assert result == {"error": "SuperGPQAEvaluator: sample 0: difficulty 'expert' is not hard, middle or easy"}


def test_supergpqa_unknown_prompt_mode_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"SuperGPQADataset: unsupported prompt_mode 'ten-shot'"):
        LOAD_DATASET.get("SuperGPQADataset").load(str(tmp_path), prompt_mode="ten-shot")


@pytest.mark.parametrize(("text", "mcq", "freeform"), VECTORS["bbeh_postprocess"])
def test_bbeh_postprocessors_match_opencompass(text: str, mcq: str, freeform: str) -> None:
    from assay.registry import TEXT_POSTPROCESSORS

    assert (TEXT_POSTPROCESSORS.get("bbeh_mcq")(text), TEXT_POSTPROCESSORS.get("bbeh_freeform")(text)) == (mcq, freeform)


def test_bbeh_task_without_examples_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "bbeh_nycc").mkdir()
    (tmp_path / "bbeh_nycc" / "task.json").write_text('{"canary": "x"}', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"BBEHDataset\('bbeh_nycc'\): file .*task\.json must hold an object whose 'examples'"):
        LOAD_DATASET.get("BBEHDataset").load(str(tmp_path), "bbeh_nycc")


@pytest.mark.parametrize("config", ["omni_math_llmverify_gen_ccf9c0", "omni_math_cascade_eval_gen_ccf9c0"])
def test_omni_math_judged_configs_load_opencompass_rows(config: str, oc_library: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    record = {"config": f"omni_math/{config}.py", "variable": "omnimath_datasets", "kept": None}
    (tmp_path / "config.py").write_text(_config(record), encoding="utf-8")
    (ds,) = load_config(tmp_path / "config.py").variables["datasets"]
    assert ds["type"].__module__ == "assay.datasets.omni_math"
    assert ds["type"].load().to_arrow().to_pylist() == VECTORS["OmniMathDataset"]
    judge_dataset = ds["eval_cfg"]["evaluator"].get("dataset_cfg") or ds["eval_cfg"]["evaluator"]["llm_evaluator"]["dataset_cfg"]
    assert judge_dataset["type"] is ds["type"]


def test_omni_math_without_a_local_copy_names_where_it_looked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    with pytest.raises(InputFileError, match=r"OmniMathDataset: 'KbsdJames/Omni-MATH' is neither a local folder nor a dataset"):
        LOAD_DATASET.get("OmniMathDataset").load()


def test_game24_answer_check_matches_opencompass() -> None:
    cases = VECTORS["game24_check"]  # one batch: one sandbox run
    result = ICL_EVALUATORS.get("Game24Evaluator")().score([c[0] for c in cases], [c[1] for c in cases])
    assert [int(d["correct"]) for d in result["details"]] == [c[2] for c in cases]


def test_game24_arithmetic_mode_computes_the_expression_without_running_it() -> None:
    # SymPy runs the text as Python; assay's arithmetic computes numbers and operators only
    result = ICL_EVALUATORS.get("Game24Evaluator")(eval_mode="arithmetic").score(
        ["__import__('os').getpid() * 0 + 24", "9**9**9**9"], ["0 24", "9 9 9 9"])
    assert [d["correct"] for d in result["details"]] == [False, False]
    cases = VECTORS["game24_check"]
    result = ICL_EVALUATORS.get("Game24Evaluator")(eval_mode="arithmetic").score([c[0] for c in cases], [c[1] for c in cases])
    assert [int(d["correct"]) for d in result["details"]] == [c[2] for c in cases]


def test_zebralogic_grid_reference_without_rows_is_skipped_but_counted_as_opencompass_does() -> None:
    result = ICL_EVALUATORS.get("ZebraLogicGridEvaluator")().score(["| 1 | a |\n| 2 | b |", "x"], [{"rows": [["1", "a"], ["2", "b"]]}, "not a grid"])
    assert (result["score"], result["perfect_accuracy"], len(result["details"])) == (100.0, 50.0, 1)


def test_tabmwp_answers_are_compared_as_opencompass_compares_them() -> None:
    cases = VECTORS["tabmwp_normalized"]
    result = ICL_EVALUATORS.get("TabMWPEvaluator")().score([c[0] for c in cases], [c[1] for c in cases])
    assert [(d["pred"], d["answer"]) for d in result["details"]] == [(c[2], c[3]) for c in cases]


def test_tabmwp_missing_split_file_names_it(tmp_path: Path) -> None:
    (tmp_path / "problems_dev.json").write_text("{}", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"TabMWPDataset: file .*problems_test\.json does not exist"):
        LOAD_DATASET.get("TabMWPDataset").load(str(tmp_path))
