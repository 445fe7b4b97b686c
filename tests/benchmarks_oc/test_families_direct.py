"""The benchmark families' loaders, postprocessors and evaluators against OpenCompass 0.5.4's recordings.

For every recorded run (``tests/data/oc_families/knowledge/<run>.json``, written by
``scripts/record_oc_knowledge.py``) and every dataset in it, on the same files
built in OpenCompass's local layout:

* the loader gives the rows OpenCompass's loader gave (every split, columns in order);
* the test set's references (after the dataset postprocessor) are OpenCompass's;
* the evaluator, fed the predictions OpenCompass's eval task handed its
  evaluator, gives OpenCompass's metrics and per-sample verdicts;
* this package's own prediction postprocessors (BBH, GPQA) turn the raw
  replies into what OpenCompass's did.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.datasets.build import build_test_set
from assay.datasets.table import RowTable
from assay.evaluate.assemble import assemble_score_kwargs
from assay.postprocess.chain import apply_postprocessor, build_postprocessor
from assay.registry import ICL_EVALUATORS, LOAD_DATASET, resolve_type
from tests.benchmarks_oc._knowledge import (
    KNOWLEDGE,
    dataset_cases,
    knowledge,
    metrics,
    plain,
    prediction_file,
    same_number,
)
from tests.benchmarks_oc.families import Run, build_data

CASES = dataset_cases()

#: Postprocessors of the families' own modules, checked here on the raw replies.
OWN_POSTPROCESSORS = {
    "bbh_mcq_postprocess", "bbh-mcq", "bbh_freeform_postprocess", "bbh-freeform", "GPQA_Simple_Eval_postprocess",
    "cmrc_postprocess", "drcd_postprocess",
}


@pytest.fixture
def in_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _rows(table: Any) -> Any:
    if isinstance(table, dict) or (hasattr(table, "keys") and not hasattr(table, "column_names")):
        return {split: _rows(part) for split, part in table.items()}
    if isinstance(table, RowTable):
        names = table.column_names
        return [dict(zip(names, values)) for values in zip(*(table.column_values(n) for n in names))] if names else []
    if hasattr(table, "to_list"):
        return table.to_list()
    return table.to_pylist()


def _columns(rows: Any) -> Any:
    if isinstance(rows, dict):
        return {split: _columns(part) for split, part in rows.items()}
    return list(rows[0]) if rows else []


def _dataset_cfg(entry: dict[str, Any], abbr: str) -> dict[str, Any]:
    return {"abbr": abbr, "type": entry["loader"], **entry["loader_kwargs"], "reader_cfg": entry["reader_cfg"], "eval_cfg": entry["eval_cfg"]}


def _records(run: Run, abbr: str, model: str) -> list[dict[str, Any]]:
    data = json.loads(prediction_file(run, model, abbr).read_text(encoding="utf-8"))
    return [data[str(i)] for i in range(len(data))]


def _verdicts(details: Any) -> list[bool] | None:
    """Per-sample correctness from a result's details (OpenCompass's or assay's), if they carry it."""
    if isinstance(details, dict) and details.get("type") == "PPL":
        return [bool(v["correct"]) for k, v in details.items() if k != "type"]
    if not isinstance(details, list) or not details:
        return None
    out = []
    for d in details:
        flag = next((d[k] for k in ("correct", "is_correct") if k in d), None)
        if flag is None:
            return None
        out.append(bool(flag[0] if isinstance(flag, list) else flag))
    return out


@pytest.mark.parametrize(("run", "abbr"), CASES)
def test_loader_gives_opencompass_rows(run: Run, abbr: str, in_data: Path) -> None:
    entry = knowledge(run.run_id)["datasets"][abbr]
    build_data(run.family, in_data)
    loader = resolve_type(entry["loader"], LOAD_DATASET)
    expected = entry["loaded"]
    loaded = plain(_rows(loader.load(**entry["loader_kwargs"])))
    assert loaded == expected
    assert _columns(loaded) == _columns(expected)
    if hasattr(loader, "load_table"):  # the light path assay evaluates gives the same rows
        assert plain(_rows(loader.load_table(**entry["loader_kwargs"]))) == expected


#: OpenCompass gives two classes the name ``CircularEvaluator``; the recordings keep the name only.  These
#: families' configs import openicl's (``opencompass.openicl.icl_evaluator``), which assay serves as this class.
OPENICL_FAMILIES = {"wikibench"}
OPENICL_NAMES = {"CircularEvaluator": "CircularLetterEvaluator"}


@pytest.mark.parametrize(("run", "abbr"), CASES)
def test_references_and_scores_are_opencompass(run: Run, abbr: str, in_data: Path) -> None:
    data = knowledge(run.run_id)
    entry = data["datasets"][abbr]
    build_data(run.family, in_data)
    test = build_test_set(_dataset_cfg(entry, abbr), where=abbr)
    assert plain(test.references) == entry["references"]

    evaluator_cfg = dict(entry["eval_cfg"]["evaluator"])
    name = evaluator_cfg.pop("type")
    evaluator = resolve_type(OPENICL_NAMES.get(name, name) if run.family in OPENICL_FAMILIES else name, ICL_EVALUATORS)(**evaluator_cfg)
    evaluator.dataset_abbr = abbr
    records = _records(run, abbr, data["model_abbr"])
    fields: dict[str, Any] = {key: [r.get(key) for r in records] for key in dict.fromkeys(k for r in records for k in r)}
    fields.update(predictions=list(entry["predictions"]), references=test.references, test_set=test.dataset)
    fields.setdefault("origin_prompt", [None] * len(records))
    kwargs = assemble_score_kwargs(evaluator.score, fields, evaluator=type(evaluator).__name__, source="test")
    result = evaluator.evaluate(k=1, n=1, original_dataset=test.dataset, **kwargs)

    expected = entry["result"]
    assert "error" not in result, result
    want = metrics(expected)
    got = metrics(result)
    assert set(want) <= set(got), f"missing metrics: {set(want) - set(got)}"
    for key, value in want.items():
        assert same_number(got[key], value), f"{key}: assay {got[key]} != OpenCompass {value}"
    theirs, ours = _verdicts(expected.get("details")), _verdicts(result.get("details"))
    if theirs is not None and ours is not None:
        assert ours == theirs
    # what the evaluator extracted from each reply, where both name it 'pred'
    their_preds, our_preds = _field(expected.get("details"), "pred"), _field(result.get("details"), "pred")
    if their_preds is not None and our_preds is not None:
        assert plain(our_preds) == their_preds


def _field(details: Any, key: str) -> list[Any] | None:
    if not isinstance(details, list) or not details or not all(key in d for d in details):
        return None
    return [d[key] for d in details]


OWN_CASES = [
    c for c in CASES
    if (knowledge(c.values[0].run_id)["datasets"][c.values[1]]["eval_cfg"].get("pred_postprocessor") or {}).get("type") in OWN_POSTPROCESSORS
]


@pytest.mark.parametrize(("run", "abbr"), OWN_CASES)
def test_family_postprocessors_turn_replies_into_opencompass_predictions(run: Run, abbr: str) -> None:
    data = knowledge(run.run_id)
    entry = data["datasets"][abbr]
    post = build_postprocessor(entry["eval_cfg"]["pred_postprocessor"])
    raw = [r["prediction"] for r in _records(run, abbr, data["model_abbr"])]
    assert plain(apply_postprocessor(post, raw)) == entry["predictions"]


EXTRA = json.loads((KNOWLEDGE / "_loaders.json").read_text(encoding="utf-8")) if (KNOWLEDGE / "_loaders.json").exists() else []


@pytest.mark.parametrize("entry", EXTRA, ids=[e["loader"] for e in EXTRA])
def test_loaders_no_config_names_give_opencompass_rows(entry: dict[str, Any], in_data: Path) -> None:
    build_data(entry["family"], in_data)
    loader = resolve_type(entry["loader"], LOAD_DATASET)
    assert plain(_rows(loader.load(**entry["loader_kwargs"]))) == entry["loaded"]
    if hasattr(loader, "load_table"):
        assert plain(_rows(loader.load_table(**entry["loader_kwargs"]))) == entry["loaded"]


def test_every_family_is_recorded() -> None:
    from tests.benchmarks_oc._knowledge import recorded_runs
    from tests.benchmarks_oc.families import FAMILIES

    recorded = {r.family for r in recorded_runs()}
    assert recorded == set(FAMILIES)
    assert len(OWN_CASES) >= 5
    assert {e["loader"] for e in EXTRA} == {"GPQASimpleEvalDataset", "wnliDataset", "IWSLT2017Dataset", "RealToxicPromptsDataset"}
