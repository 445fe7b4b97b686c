"""ARC Prize's public evaluation sets and P-MMEval's MGSM, MMMLU, mHellaSwag, mIFEval, mLogiQA, XNLI
and FLORES, against OpenCompass 0.5.4.

The recordings are made by ``scripts/record_oc_multi.py`` with OpenCompass
installed: its own eval task scored the prediction files under
``tests/data/oc_families/multi/predictions`` on the data under ``cache``.
Each case imports a config of OpenCompass's library unchanged (through
``read_base``, the library from the ``oc_library`` fixture) and runs
``assay eval`` on the same prediction files, once with the data on disk (the
files' ``gold`` replaced, so that only the data gives the references) and once
without it (the references then come from the files' ``gold``, for the
evaluators that read references alone); every metric and every sample's
details must be OpenCompass's.

ARC's loader reads its task files in the order the folder lists them, which
depends on the file system: the recording names the files in the order
OpenCompass read them, and with the data the predictions are put in the order
the copy lists them before assay scores them.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.registry import ICL_EVALUATORS

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "multi"
EXPECTED = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "expected").glob("*.json"))}
VECTORS = json.loads((ROOT / "vectors.json").read_text(encoding="utf-8"))
RUN = "20250101_000000"
MODEL = "oc-model"


def _config(record: dict[str, Any]) -> str:
    module = "opencompass.configs.datasets." + record["config"][: -len(".py")].replace("/", ".")
    variable = record["variable"]
    return (f"from mmengine.config import read_base\n\nwith read_base():\n    from {module} import {variable}\n\n"
            f"datasets = list({variable})\nmodels = [dict(abbr={MODEL!r}, path='org/model')]\n")


def _rows(details: Any) -> list[dict[str, Any]]:
    """The per-sample details (both OpenCompass and assay list each field's values, one per run)."""
    rows = list(details.values()) if isinstance(details, dict) else list(details)
    return [d for d in rows if isinstance(d, dict)]


def _arc_order(entry: dict[str, Any], data: Path, folder: str) -> list[int]:
    """For each task assay reads (the copy's listing order), its place among the rows OpenCompass read."""
    return [entry["files"].index(name) for name in os.listdir(data / "data" / folder) if name in entry["files"]]


def _arc_folder(record: dict[str, Any]) -> str:
    return "arc_agi_2_public_evaluation" if "agi_2" in record["config"] else "arc_prize_public_evaluation"


def _eval(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path, *, with_data: bool) -> tuple[Path, dict[str, list[int]]]:
    """The results folder, and per dataset the recorded sample each of assay's samples is."""
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
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(data)
    config = tmp_path / "config.py"
    config.write_text(_config(record), encoding="utf-8")
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    orders: dict[str, list[int]] = {}
    for abbr, entry in record["datasets"].items():
        replies = json.loads((ROOT / "predictions" / f"{abbr}.json").read_text(encoding="utf-8"))
        order = list(range(len(replies)))
        if with_data and "files" in entry:  # ARC: the copy may list its files in another order
            tasks = _arc_order(entry, data, _arc_folder(record))
            runs = len(replies) // len(tasks)
            order = [run * len(tasks) + t for run in range(runs) for t in tasks]
        orders[abbr] = order
        replies = {str(i): replies[str(j)] for i, j in enumerate(order)}
        if with_data:  # the references must come from the data: the files' gold is made useless
            replies = {key: dict(reply, gold="not the reference") for key, reply in replies.items()}
        (predictions / f"{abbr}.json").write_text(json.dumps(replies, ensure_ascii=False), encoding="utf-8")
    main(["eval", str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
    return work / RUN / "results" / MODEL, orders


#: mIFEval's evaluator reads the test set's instructions: scored from the data only
SCORE_CASES = [(case, with_data) for case in sorted(EXPECTED) for with_data in (True, False)
               if with_data or case != "pmmeval_mifeval_gen_79f8fb"]


@pytest.mark.parametrize(("case", "with_data"), SCORE_CASES, ids=[f"{c}-{'data' if d else 'gold'}" for c, d in SCORE_CASES])
def test_library_config_scores_as_opencompass(case: str, with_data: bool, oc_library: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    results, orders = _eval(case, tmp_path, monkeypatch, oc_library, with_data=with_data)
    for abbr, entry in EXPECTED[case]["datasets"].items():
        result = json.loads((results / f"{abbr}.json").read_text(encoding="utf-8"))
        assert "error" not in result, (abbr, result)
        for key, value in entry["result"].items():
            # OpenCompass names a subdivision's G-Pass@k by the abbr's part before its first '_' ('ARC/…');
            # assay by the whole abbr
            ours_key = f"{abbr}/{key.split('/', 1)[1]}" if "/" in key else key
            assert result[ours_key] == pytest.approx(value, abs=1e-12), (abbr, key)
        if entry["details"] is None:  # mIFEval: OpenCompass writes none; assay's are each sample's verdicts
            ours = _rows(result["details"])
            assert [d["strict_acc"] for d in ours] == [[v] for v in entry["strict"]], abbr
            assert [d["loose_acc"] for d in ours] == [[v] for v in entry["loose"]], abbr
            continue
        oc_rows = [{k: v for k, v in d.items() if k != "example_abbr"} for d in _rows(entry["details"])]
        ours = _rows(result["details"])
        ours = [ours[orders[abbr].index(i)] for i in range(len(oc_rows))]
        if "origin_prediction" in oc_rows[0]:  # OpenCompass formats the details of an evaluator that gives none
            if "pred" in ours[0]:  # FLORES's details name the pair scored
                assert [d["pred"][0] for d in ours] == entry["predictions"], abbr
            else:
                raise AssertionError(f"{abbr}: no details to compare")
        else:
            assert [{k: d[k] for k in oc} for d, oc in zip(ours, oc_rows, strict=True)] == oc_rows, abbr


LOADER_CASES = [(case, abbr) for case, record in EXPECTED.items() for abbr in record["datasets"]]


@pytest.mark.parametrize(("case", "abbr"), LOADER_CASES, ids=[f"{c}-{a}" for c, a in LOADER_CASES])
def test_library_config_loads_opencompass_rows(case: str, abbr: str, oc_library: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    record = EXPECTED[case]
    entry = record["datasets"][abbr]
    shutil.copytree(ROOT / "cache", tmp_path / "cache")
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path / "cache")
    config = tmp_path / "config.py"
    config.write_text(_config(record), encoding="utf-8")
    (ds,) = [d for d in load_config(config).variables["datasets"] if d["abbr"] == abbr]
    assert ds["type"].__module__.startswith("assay.datasets.")
    args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg", "n", "k")}
    table = ds["type"].load(**args)
    rows = table.to_arrow().to_pylist() if hasattr(table, "to_arrow") else table.to_list()
    # OpenCompass's test set also numbers its rows (idx) and names the dataset (subdivision), once per run
    expected = [{k: v for k, v in r.items() if k not in ("idx", "subdivision")} for r in entry["test_rows"]]
    expected = expected[: len(expected) // ds.get("n", 1)]
    if "files" in entry:  # ARC: in the order the copy lists its task files
        expected = [expected[i] for i in _arc_order(entry, tmp_path / "cache", _arc_folder(record))]
    assert rows == expected


@pytest.mark.parametrize(("text", "lang", "expected"), VECTORS["mmmlu_extract_choice"])
def test_mmmlu_choice_matches_opencompass(text: str, lang: str, expected: str | None) -> None:
    from assay.evaluators.pmmeval import MMMLU_PHRASES, pmmeval_choice

    assert pmmeval_choice(text, lang, MMMLU_PHRASES) == expected


@pytest.mark.parametrize(("text", "lang", "expected"), VECTORS["xnli_extract_choice"])
def test_xnli_choice_matches_opencompass(text: str, lang: str, expected: str | None) -> None:
    from assay.evaluators.pmmeval import XNLI_PHRASES, pmmeval_choice

    assert pmmeval_choice(text, lang, XNLI_PHRASES) == expected


@pytest.mark.parametrize(("text", "expected"), VECTORS["mgsm_last_digit"])
def test_mgsm_last_number_matches_opencompass(text: str, expected: str | None) -> None:
    from assay.evaluators.pmmeval import pmmeval_last_number

    assert pmmeval_last_number(text) == expected


def test_mlogiqa_reply_without_a_readable_letter_is_an_error_naming_the_sample() -> None:
    evaluator = ICL_EVALUATORS.get("PMMEvalMLogiQAEvaluator")()
    result = evaluator.score([('{"answer": "A"}', "en"), ("I am not sure", "en")], [0, 1])
    assert set(result) == {"error"} and "sample 1" in result["error"] and "I am not sure" in result["error"]


def test_arc_reference_that_is_not_a_grid_is_an_error_naming_the_sample() -> None:
    evaluator = ICL_EVALUATORS.get("ARCPrizeEvaluator")()
    result = evaluator.score(["[[1]]", "[[2]]"], [[[1]], "[[2]]"])
    assert set(result) == {"error"} and "sample 1" in result["error"]


def test_arc_task_folder_missing_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.datasets.arc_prize import ARCPrizeDataset
    from assay.errors import InputFileError

    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path))
    with pytest.raises(InputFileError, match="arc_prize_public_evaluation"):
        ARCPrizeDataset.load("opencompass/arc_prize_public_evaluation", version="arc_agi_1")


def test_mifeval_loose_reading_stopped_by_a_later_none_is_an_error_naming_the_sample() -> None:
    # OpenCompass's loader gives each kwargs dict every option of the column, None where unset; the loose
    # reading lets the second dict's None replace the first's end phrase, and OpenCompass stops there
    rows = [{"instruction_id_list": ["startend:end_checker", "punctuation:no_comma"],
             "kwargs": [{"end_phrase": "Done.", "num_words": None}, {"end_phrase": None, "num_words": None}]}]
    result = ICL_EVALUATORS.get("PMMEvalMIFEvalEvaluator")().score([("All good. Done.", "en")], None, rows)
    assert set(result) == {"error"} and "sample 0" in result["error"] and "end_checker" in result["error"]
