"""Record what OpenCompass 0.5.4 computes on MathBench, SQuAD 2.0 and LAMBADA.

Run it with a Python that has opencompass==0.5.4 installed (OpenCompass is not a
dependency of assay), from anywhere::

    python scripts/record_oc_mathbench_squad20_lambada.py [case ...]

The data folder ``tests/data/oc_families/mathbench_squad20_lambada/data``
holds small files in OpenCompass's layout (``data/mathbench_v1/<split>/<name>.jsonl``,
``data/mathbench/…``, ``data/SQuAD2.0/dev-v2.0.json``, ``data/lambada/test.jsonl``);
it is both ``$COMPASS_DATA_CACHE`` and the working directory.  For each case —
a dataset config of OpenCompass's own library, read with mmengine unchanged —
every dataset of its list is

1. loaded with OpenCompass's loader (``loaded/<case>.json``: the test rows);
2. given a prediction file as OpenCompass's ``GenInferencerOutputHandler``
   writes it, ``gold`` from the test rows, with varied replies written from
   each row's reference, in an order that differs between datasets (right, wrong, in other words, empty, …)
   (``predictions/<case>/<abbr>.json``);
3. scored by OpenCompass's eval task (``OpenICLEvalTask``, details dumped)
   (``expected/<case>.json``: each result's metrics and details, or the
   exception, the config's evaluator and postprocessors, and the postprocessed predictions and the references its
   evaluator was handed).

The summarizer configs of the library for MathBench (``configs/summarizers/mathbench*.py``
and ``configs/summarizers/groups/mathbench_v1_2024*.py``) are run by OpenCompass's
``DefaultSummarizer`` on the results of the case whose dataset names they use
(``summary/<summarizer>.json``: the ``.csv`` OpenCompass wrote, or the exception that
stopped it).

The three MathBench files that mix PPL and generation
(``mathbench_2024_few_shot_mixed_4a3fd4``, ``…_new_mixed``,
``…_wocircular_mixed_8eb12b``) are not recorded: mmengine cannot read them
(``deepcopy`` of a lazily imported object raises ``RuntimeError``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import zlib
from pathlib import Path
from typing import Any

from _oc_recording import jsonable, traceback_tail, use_data_cache

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "oc_families" / "mathbench_squad20_lambada"
DATA = ROOT / "data"
MODEL = "oc-model"

#: case → (config under configs/datasets, variable)
CASES: dict[str, tuple[str, str]] = {
    "mathbench_gen": ("MathBench/mathbench_gen.py", "mathbench_datasets"),
    "mathbench_2024_gen_1dc21d": ("MathBench/mathbench_2024_gen_1dc21d.py", "mathbench_datasets"),
    "mathbench_2024_gen_4b8f28": ("MathBench/mathbench_2024_gen_4b8f28.py", "mathbench_datasets"),
    "mathbench_2024_gen_50a320": ("MathBench/mathbench_2024_gen_50a320.py", "mathbench_datasets"),
    "mathbench_2024_gen_fc2a24": ("MathBench/mathbench_2024_gen_fc2a24.py", "mathbench_datasets"),
    "mathbench_2024_wocircular_gen_1dc21d": ("MathBench/mathbench_2024_wocircular_gen_1dc21d.py", "mathbench_datasets"),
    "deprecated_mathbench_2024_gen_de9ff9": ("MathBench/deprecated_mathbench_2024_gen_de9ff9.py", "mathbench_datasets"),
    "deprecated_mathbench_gen_7b734b": ("MathBench/deprecated_mathbench_gen_7b734b.py", "mathbench_datasets"),
    "deprecated_mathbench_cot_gen_66f329": ("MathBench/deprecated_mathbench_cot_gen_66f329.py", "mathbench_datasets"),
    "deprecated_mathbench_arith_gen_ccd638": ("MathBench/deprecated_mathbench_arith_gen_ccd638.py", "mathbench_datasets"),
    "squad20_gen": ("squad20/squad20_gen.py", "squad20_datasets"),
    "lambada_gen": ("lambada/lambada_gen.py", "lambada_datasets"),
    "lambada_gen_8b48a5": ("lambada/lambada_gen_8b48a5.py", "lambada_datasets"),
}

#: summary → (summarizer config under configs, the case whose results it summarizes)
SUMMARIES: dict[str, tuple[str, str]] = {
    "mathbench": ("summarizers/mathbench.py", "deprecated_mathbench_2024_gen_de9ff9"),
    "mathbench_v1": ("summarizers/mathbench_v1.py", "mathbench_2024_gen_fc2a24"),
    "mathbench_v1_2024": ("summarizers/groups/mathbench_v1_2024.py", "mathbench_2024_gen_fc2a24"),
    "mathbench_v1_2024_lang": ("summarizers/groups/mathbench_v1_2024_lang.py", "mathbench_2024_gen_fc2a24"),
}
SUMMARY_TIME = "20250101_000000"

_CHOICE = (
    "The answer is {right}.", "The answer is {wrong}", "Let me think. Answer: {right}", "答案是{wrong}。",
    "\\boxed{{{right}}}", "", "None of these options fits.", "({right}) is correct, not ({wrong})",
)
_CLOZE = (
    "So the result is {gold}.", "The answer is {gold} (checked twice)", "The answer is {other}, not {gold}",
    "答案是 {gold}", "Adding 1,000 and 234 gives 1,234 then {gold}", "I do not know", "$\\boxed{{{gold}}}$",
    "The answer is {gold}. Then The answer is {other}", "",
)
_SQUAD = ("{a}", "The answer is {a}.", "impossible to answer", "London", "\n{a}", "{A} is the answer", "Answer: {a}, clearly", "")
_LAMBADA = ("{l}", "{l}, she said", " {L} and more", "{l}'s", "", "nothing", "the {l}", "{l}\nmore")


def _reply(abbr: str, i: int, gold: Any) -> str:
    i += zlib.crc32(abbr.encode())  # each dataset its own mix of replies
    if abbr.startswith("mathbench"):
        if isinstance(gold, str) and gold.count("--") == 2:
            right = gold.split("--")[1]
            if int(gold.split("--")[0]) % 3 == 1:  # every rotation of this question answered right
                return f"The answer is {right}."
        else:
            right = gold
        if right in ("A", "B", "C", "D"):
            wrong = "ABCD"[("ABCD".index(right) + 1) % 4]
            return _CHOICE[i % len(_CHOICE)].format(right=right, wrong=wrong)
        return _CLOZE[i % len(_CLOZE)].format(gold=gold, other="42")
    if abbr.startswith("squad"):
        a = min(gold) if gold else ""  # not the first: OpenCompass lists the answers in a set's order
        return _SQUAD[i % len(_SQUAD)].format(a=a, A=a.upper())
    return _LAMBADA[i % len(_LAMBADA)].format(l=gold, L=gold.capitalize())


def _rows(ds: Any) -> Any:
    from datasets import Dataset

    if isinstance(ds, Dataset):
        return ds.to_list()
    return {split: _rows(part) for split, part in ds.items()}


def record_case(case: str, work: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    from mmengine.config import Config
    from opencompass.openicl.icl_evaluator import icl_base_evaluator
    from opencompass.openicl.icl_inferencer.icl_base_inferencer import GenInferencerOutputHandler
    from opencompass.utils import build_dataset_from_cfg

    import opencompass

    rel, variable = CASES[case]
    datasets = Config.fromfile(str(Path(opencompass.__file__).parent / "configs" / "datasets" / rel))[variable]
    run_dir = work / case
    shutil.rmtree(run_dir, ignore_errors=True)
    pred_dir = run_dir / "predictions" / MODEL
    pred_dir.mkdir(parents=True)
    out_preds = ROOT / "predictions" / case
    shutil.rmtree(out_preds, ignore_errors=True)
    out_preds.mkdir(parents=True)
    loaded: dict[str, Any] = {"config": rel, "variable": variable, "datasets": {}}
    expected: dict[str, Any] = {"config": rel, "variable": variable, "datasets": {}}
    for ds in datasets:
        abbr = ds["abbr"]
        kwargs = {k: v for k, v in ds.items() if k not in ("abbr", "type", "reader_cfg", "infer_cfg", "eval_cfg")}
        loaded["datasets"][abbr] = {"loader_kwargs": jsonable(kwargs), "rows": jsonable(_rows(ds["type"].load(**kwargs)))}
        test = build_dataset_from_cfg(ds).test
        handler = GenInferencerOutputHandler()
        for i, gold in enumerate(test[ds["reader_cfg"]["output_column"]]):
            handler.save_results(f"<prompt of {abbr} #{i}>", _reply(abbr, i, gold), i, gold=gold)
        handler.write_to_json(str(pred_dir), f"{abbr}.json")
        shutil.copy(pred_dir / f"{abbr}.json", out_preds / f"{abbr}.json")
    captured: dict[str, Any] = {}
    original = icl_base_evaluator.BaseEvaluator.evaluate

    def evaluate(self: Any, k: Any, n: Any, original_dataset: Any, **kwargs: Any) -> Any:
        captured.update({key: list(kwargs[key]) for key in ("predictions", "references") if kwargs.get(key) is not None})
        return original(self, k, n, original_dataset, **kwargs)

    icl_base_evaluator.BaseEvaluator.evaluate = evaluate
    try:
        for ds in datasets:
            captured.clear()
            entry = {"components": _components(ds), **_score(ds, run_dir), "evaluator_got": dict(captured)}
            expected["datasets"][ds["abbr"]] = jsonable(entry)
    finally:
        icl_base_evaluator.BaseEvaluator.evaluate = original
    return loaded, expected


def _components(ds: Any) -> dict[str, Any]:
    """The evaluator and postprocessors of a dataset's ``eval_cfg``, each ``type`` given by name."""
    out = {}
    for key in ("evaluator", "pred_postprocessor", "dataset_postprocessor"):
        component = ds["eval_cfg"].get(key)
        if component is not None:
            kind = component["type"]
            out[key] = {**{k: v for k, v in component.items() if k != "type"}, "type": kind if isinstance(kind, str) else kind.__name__}
    return out


def _score(ds: Any, run_dir: Path) -> dict[str, Any]:
    """OpenCompass's eval task on one dataset: its result file, or the exception that stopped it."""
    from mmengine.config import ConfigDict
    from opencompass.tasks import OpenICLEvalTask

    abbr = ds["abbr"]
    cfg = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=[[ds]], work_dir=str(run_dir),
                     eval=dict(runner=dict(task=dict(dump_details=True))))
    entry: dict[str, Any] = {}
    try:
        OpenICLEvalTask(cfg).run()
        entry["result"] = json.loads((run_dir / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
    except Exception as exc:
        entry["exception"] = f"{type(exc).__name__}: {exc}"
        entry["traceback_tail"] = traceback_tail()
    return entry


def record_summary(summary: str, work: Path) -> dict[str, Any]:
    """OpenCompass's ``DefaultSummarizer`` with a summarizer config of its library, on a recorded case's results:
    ``{"config", "case", "csv"}``, or the exception instead of ``csv``."""
    from mmengine.config import Config, ConfigDict
    from opencompass.summarizers import DefaultSummarizer

    import opencompass

    rel, case = SUMMARIES[summary]
    configs = Path(opencompass.__file__).parent / "configs"
    summarizer = Config.fromfile(str(configs / rel))["summarizer"]
    datasets = Config.fromfile(str(configs / "datasets" / CASES[case][0]))[CASES[case][1]]
    run_dir = work / case
    shutil.rmtree(run_dir / "summary", ignore_errors=True)
    cfg = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=datasets, work_dir=str(run_dir))
    options = {k: v for k, v in summarizer.items() if k in ("dataset_abbrs", "summary_groups")}
    out: dict[str, Any] = {"config": rel, "case": case}
    try:
        DefaultSummarizer(cfg, **options).summarize(time_str=SUMMARY_TIME)
    except Exception as exc:
        out["exception"] = f"{type(exc).__name__}: {exc}"
        return out
    out["csv"] = (run_dir / "summary" / f"summary_{SUMMARY_TIME}.csv").read_text(encoding="utf-8")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", help="case ids to record (default: all)")
    args = parser.parse_args()
    use_data_cache(DATA)
    os.chdir(DATA)
    for folder in ("expected", "loaded", "summary"):
        (ROOT / folder).mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for case in args.cases or list(CASES):
            loaded, expected = record_case(case, Path(tmp))
            for folder, value in (("loaded", loaded), ("expected", expected)):
                text = json.dumps(value, ensure_ascii=False, indent=1) + "\n"
                (ROOT / folder / f"{case}.json").write_text(text, encoding="utf-8")
            metrics = {a: {k: v for k, v in e.get("result", {}).items() if k != "details"} or e.get("exception")
                       for a, e in expected["datasets"].items()}
            print(case, json.dumps(metrics, ensure_ascii=False)[:400], flush=True)
        for summary, (_, case) in SUMMARIES.items():
            if case in (args.cases or CASES):
                text = json.dumps(record_summary(summary, Path(tmp)), ensure_ascii=False, indent=1) + "\n"
                (ROOT / "summary" / f"{summary}.json").write_text(text, encoding="utf-8")
                print("summary", summary, flush=True)


if __name__ == "__main__":
    main()
