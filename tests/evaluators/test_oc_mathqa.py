"""Math, open-QA and IFEval families against OpenCompass 0.5.4's recorded results.

``tests/data/oc_families/mathqa/expected/<case>.json`` holds, per dataset of an
OpenCompass config, what OpenCompass's eval task computed on the fixtures
(``scripts/record_oc_mathqa.py``): the loader's test rows, the predictions and
references its evaluator received, and the metrics and details it wrote.  These
tests run assay's loaders, answer extractors and evaluators — found by the
names the config gives — on the same inputs and ask for the same outputs.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from assay.registry import ICL_EVALUATORS, LOAD_DATASET, TEXT_POSTPROCESSORS

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "mathqa"
EXPECTED = ROOT / "expected"

#: Answer extractors of these families implemented here (the generic and GSM8K/MATH ones are tested with their module).
OWN_POSTPROCESSORS = {"TheoremQA_postprocess", "TheoremQA_postprocess_v2", "TheoremQA_postprocess_v3", "TheoremQA_postprocess_v4",
                      "olympiadbench_postprocess_v2"}


def _entries() -> list[Any]:
    out = []
    for path in sorted(EXPECTED.glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        for abbr, entry in record["datasets"].items():
            out.append(pytest.param(path.stem, abbr, entry, id=f"{path.stem}:{abbr}"))
    return out


ENTRIES = _entries()


@pytest.fixture(autouse=True)
def _in_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT / "cache"))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)


def _plain(value: Any) -> Any:
    """The JSON form the recording used (non-finite floats as their repr)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    return value


def _component(spec: dict[str, Any] | None, registry: Any) -> tuple[Any, dict[str, Any]]:
    assert spec is not None
    kwargs = {k: v for k, v in spec.items() if k != "type"}
    return registry.get(spec["type"]), kwargs


def _test_split(loaded: Any, reader_cfg: dict[str, Any]) -> Any:
    if hasattr(loaded, "column_names") and not isinstance(loaded.column_names, dict):
        return loaded
    return loaded[reader_cfg.get("test_split", "test")]


#: The loaders of these families (``CustomDataset``, which some of their configs use, is tested with its module).
OWN_LOADERS = {"GSM8KDataset", "MATHDataset", "Aime2024Dataset", "IFEvalDataset", "TriviaQADataset", "TriviaQADatasetV2",
               "NaturalQuestionDataset", "NQOpenDataset", "dropDataset", "DropOpenAIDataset", "TheoremQADataset",
               "TheoremQADatasetV3", "OlympiadBenchDataset", "LiveMathBenchDataset"}


@pytest.mark.parametrize(("case", "abbr", "entry"), [e for e in ENTRIES if e.values[2]["components"]["loader"]["type"] in OWN_LOADERS])
def test_loader_gives_opencompass_rows(case: str, abbr: str, entry: dict[str, Any]) -> None:
    components = entry["components"]
    loader, kwargs = _component(components["loader"], LOAD_DATASET)
    rows = _test_split(loader.load(**kwargs), components["reader_cfg"]).to_list()
    size = len(entry["test_rows"]) // entry["n"]
    # the recorded rows went through the dataset postprocessor, which is not the loader's
    skip = {"subdivision", "idx"} | ({components["reader_cfg"]["output_column"]} if components["dataset_postprocessor"] else set())
    expected = [{k: v for k, v in row.items() if k not in skip} for row in entry["test_rows"][:size]]
    assert [{k: v for k, v in row.items() if k not in skip} for row in _plain(rows)] == expected


@pytest.mark.parametrize(("case", "abbr", "entry"), ENTRIES)
def test_evaluator_gives_opencompass_metrics(case: str, abbr: str, entry: dict[str, Any]) -> None:
    from datasets import Dataset

    evaluator_cls, kwargs = _component(entry["components"]["evaluator"], ICL_EVALUATORS)
    if evaluator_cls.__name__ == "MATHVerifyEvaluator":
        kwargs["workers"] = 2
    evaluator = evaluator_cls(**kwargs)
    test_set = Dataset.from_list(entry["test_rows"])
    records = json.loads((ROOT / "predictions" / entry["prediction_file"]).read_text(encoding="utf-8"))
    fields: dict[str, Any] = {
        "predictions": entry["predictions"], "references": entry["references"], "test_set": test_set,
        "origin_prompt": [records[str(i)]["origin_prompt"] for i in range(len(records))],
    }
    for key in sorted({k for r in records.values() for k in r} - {"prediction", "gold", "origin_prompt"}):  # an agent's steps
        fields[key] = [records[str(i)].get(key) for i in range(len(records))]
    from assay.evaluate.assemble import assemble_score_kwargs

    chosen = assemble_score_kwargs(evaluator.score, fields, evaluator=evaluator_cls.__name__, source="the recording")
    if "predictions" not in chosen:
        chosen["predictions"] = fields["predictions"]
    result = evaluator.evaluate(k=entry["k"], n=entry["n"], original_dataset=test_set, **chosen)

    if "exception" in entry:  # OpenCompass stopped; assay gives an error record instead
        assert "error" in result, result
        return
    assert "error" not in result, result
    expected = _metric_keys_as_assay_names_them(entry)
    for key, value in expected.items():
        assert result[key] == pytest.approx(value, abs=1e-9), key
    assert {k for k, v in result.items() if isinstance(v, (int, float)) and not isinstance(v, bool)} == set(expected)
    ours, theirs = _verdicts(result.get("details")), _verdicts(entry.get("details"))
    if len(ours) == len(theirs):  # (OpenCompass's MATHVerifyEvaluator drops the details of unreadable references)
        assert ours == theirs


def _metric_keys_as_assay_names_them(entry: dict[str, Any]) -> dict[str, float]:
    """OpenCompass's numeric metrics; its per-subdivision G-Pass keys cut the subdivision at the first
    ``_`` (``LiveMathBench_v202412`` → ``LiveMathBench/…``), assay keeps it whole (a deliberate difference)."""
    subdivisions = {row["subdivision"] for row in entry["test_rows"]}
    out = {}
    for key, value in entry["result"].items():
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            continue
        head, sep, metric = key.partition("/")
        if sep:
            (full,) = [s for s in subdivisions if s.split("_")[0] == head]
            key = f"{full}/{metric}"
        out[key] = value
    return out


def _verdicts(details: Any) -> list[Any]:
    if isinstance(details, dict):
        details = list(details.values())
    out = []
    for d in details or []:
        for key in ("correct", "is_correct"):
            if key in d:
                out.append([bool(x) for x in d[key]] if isinstance(d[key], list) else bool(d[key]))
                break
    return out


@pytest.mark.parametrize(("case", "abbr", "entry"), [e for e in ENTRIES if (e.values[2]["components"]["pred_postprocessor"] or {}).get("type") in OWN_POSTPROCESSORS])
def test_answer_extractor_gives_opencompass_answers(case: str, abbr: str, entry: dict[str, Any]) -> None:
    spec = dict(entry["components"]["pred_postprocessor"])
    fn = TEXT_POSTPROCESSORS.get(spec.pop("type"))
    records = json.loads((ROOT / "predictions" / entry["prediction_file"]).read_text(encoding="utf-8"))
    replies = [records[str(i)]["prediction"] for i in range(len(records))]
    assert [fn(r, **spec) for r in replies] == entry["predictions"]


def test_every_family_is_recorded() -> None:
    folders = {json.loads(p.read_text(encoding="utf-8"))["config"].split("/")[0] for p in EXPECTED.glob("*.json")}
    assert {"gsm8k", "math", "aime2024", "IFEval", "triviaqa", "nq", "drop", "TheoremQA", "OlympiadBench", "livemathbench"} <= folders


def test_opencompass_livemathbench_configs_stop_on_their_abbr() -> None:
    record = json.loads((EXPECTED / "livemathbench_gen.json").read_text(encoding="utf-8"))
    assert "IndexError" in record["datasets"]["LiveMathBench-v202412"]["exception"]
