"""Record OpenCompass 0.5.4's single-score subjective postprocessors and summarizers.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_subjective_single.py [--family NAME ...] [--out DIR]

For each family it builds judged samples as OpenCompass's ``LMEvaluator`` hands
them to a dataset's ``dict_postprocessor`` (the judge's reply as ``prediction``,
the loader's ``judge`` column as ``gold``): realistic replies in the family's
format and unreadable ones; calls OpenCompass's own postprocessor on them; then
writes the judged samples of two models (and one model without results) as
``results/<model>_judged-by--<judge>/<dataset>.json`` of a work dir and runs the
family's summarizer on it, the datasets being the library config's.

Output: ``tests/data/subjective/single/<family>.json`` (default) with
``postprocess`` (each case: its samples, keyword arguments and OpenCompass's
result without ``details``), ``summary`` (the library import of the datasets,
models, judge, the result files, the summarizer's options, what it returned and
every file it wrote, byte for byte).  ``tests/subjective/`` compares assay with
them.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _oc_recording import write_json

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "subjective" / "single"
TIME = "20240101_000000"
JUDGE = "CritiqueLLM-6B"
MODELS = ["internlm2-chat-7b", "qwen1.5-7b-chat"]
#: a model of the run without any judged result
ABSENT = "llama-3-8b-instruct"


def _load_library(module: str, name: str) -> list[dict[str, Any]]:
    """A library config's variable, loaded through mmengine as OpenCompass loads a config."""
    from mmengine.config import Config

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "config.py"
        path.write_text(f"from mmengine.config import read_base\nwith read_base():\n    from {module} import {name} as v\n",
                        encoding="utf-8")
        return Config.fromfile(str(path))["v"]


def _jsonable(value: Any) -> Any:
    """Numbers as JSON numbers (numpy's too), dicts and lists throughout."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        return value.item()
    return value


def _samples(replies: list[str], golds: list[Any], extra: Callable[[int], dict[str, Any]] | None = None) -> dict[str, Any]:
    out = {}
    for i, (reply, gold) in enumerate(zip(replies, golds)):
        sample = {"origin_prompt": [{"role": "HUMAN", "prompt": f"question {i}"}], "prediction": reply, "gold": gold}
        if extra is not None:
            sample.update(extra(i))
        out[str(i)] = sample
    return out


def _postprocess(func: Callable[..., Any], samples: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    import copy

    result = func(copy.deepcopy(samples), "outputs/results/m_judged-by--j/x.json", **kwargs)
    result = dict(result)
    details = result.pop("details", None)
    return {"samples": samples, "kwargs": kwargs, "result": _jsonable(result), "details_given_back": details == samples}


def _summarize(summarizer_cls: Any, options: dict[str, Any], datasets_import: tuple[str, str],
               results: dict[str, dict[str, dict[str, Any]]], datasets: list[dict[str, Any]] | None = None,
               display: dict[str, str] | None = None,
               eval_models: list[dict[str, Any]] | None = None, one_judge: bool = False,
               partitioner_judges: bool = False) -> dict[str, Any]:
    """Run ``summarizer_cls`` on a work dir holding ``results`` (model → dataset abbr → judged samples)."""
    from mmengine.config import ConfigDict

    if datasets is None:
        datasets = _load_library(*datasets_import)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "work"
        for model, by_dataset in results.items():
            folder = work / "results" / f"{model}_judged-by--{JUDGE}"
            folder.mkdir(parents=True, exist_ok=True)
            for abbr, samples in by_dataset.items():
                (folder / f"{abbr}.json").write_text(json.dumps(samples, ensure_ascii=False, indent=4), encoding="utf-8")
        models = [dict(abbr=m, path=f"org/{m}") for m in [*MODELS, ABSENT]]
        for m in models:
            if display and m["abbr"] in display:
                m["summarizer_abbr"] = display[m["abbr"]]
        cfg = ConfigDict(
            models=models,
            datasets=datasets,
            judge_models=dict(abbr=JUDGE, path=f"thu-coai/{JUDGE}") if one_judge else [dict(abbr=JUDGE, path=f"thu-coai/{JUDGE}")],
            eval=dict(partitioner=dict(models=eval_models or models,
                                       **({"judge_models": [dict(abbr=JUDGE, path=f"thu-coai/{JUDGE}")]}
                                          if partitioner_judges else {}))),
            work_dir=str(work),
        )
        returned = summarizer_cls(config=cfg, **options).summarize(time_str=TIME)
        files = {}
        for path in sorted((work / "summary").rglob("*")):
            if path.is_file():
                files[str(path.relative_to(work / "summary"))] = path.read_bytes().decode("utf-8")
    return {
        "datasets_import": list(datasets_import),
        "datasets_kept": len(datasets),
        "models": models,
        "eval_models": eval_models or models,
        "judge": JUDGE,
        "options": options,
        "results": results,
        "time": TIME,
        "returned": _jsonable(returned),
        "files": files,
    }


# -- AlignBench --------------------------------------------------------------------------------------------------

ALIGN_CAPS = ["数学计算", "逻辑推理", "基本任务", "中文理解", "综合问答", "文本写作", "角色扮演", "专业能力"]
ALIGN_DIMS = {
    "数学计算": ["事实正确性", "满足用户需求", "逻辑连贯性", "完备性"],
    "逻辑推理": ["事实正确性", "满足用户需求", "逻辑连贯性", "完备性"],
    "基本任务": ["事实正确性", "满足用户需求", "清晰度", "完备性"],
    "中文理解": ["事实正确性", "满足用户需求", "清晰度", "完备性"],
    "综合问答": ["事实正确性", "满足用户需求", "清晰度", "完备性"],
    "文本写作": ["事实正确性", "满足用户需求", "逻辑连贯性", "创造性", "丰富度"],
    "角色扮演": ["事实正确性", "满足用户需求", "逻辑连贯性", "创造性", "丰富度"],
    "专业能力": ["事实正确性", "满足用户需求", "公平与可负责程度", "创造性"],
}


def _align_reply(rng: random.Random, cap: str, style: str) -> str:
    dims = ALIGN_DIMS[cap]
    marks = {d: rng.randint(1, 10) for d in dims}
    overall = rng.randint(1, 10)
    body = "AI助手的答案与参考答案相比，存在一些不足。\n" + "".join(
        f"{k+1}. {d}：回答在这一维度上表现{'较好' if v > 5 else '一般'}。得分：{v}\n" for k, (d, v) in enumerate(marks.items())
    )
    inner = ", ".join(f"'{d}': {v}" for d, v in marks.items())
    if style == "dict":
        return body + f"综合以上评价，{{{inner}, '综合得分': {overall}}}"
    if style == "dict_multiline":
        return body + "{" + ",\n".join(f"'{d}': {v}" for d, v in marks.items()) + f",\n'综合得分': {overall}}}"
    if style == "lines":  # no dict: the dimensions one per line, the overall last
        return body + f"综合得分：{overall}\n"
    if style == "no_overall":
        return body + f"{{{inner}}}"
    if style == "out_of_range":
        return body + f"{{{inner}, '综合得分': 11}}"
    if style == "unknown_dimension":
        return body + f"{{{inner}, '流畅度': 5, '综合得分': {overall}}}"
    if style == "decimal":
        return body + f"{{{inner}, '综合得分': 7.5}}"
    if style == "json_quotes":
        return body + "{" + ", ".join(f'"{d}": {v}' for d, v in marks.items()) + f', "综合得分": {overall}}}'
    if style == "refusal":
        return "抱歉，我无法评价这个回答。"
    if style == "empty":
        return ""
    raise ValueError(style)


ALIGN_STYLES = ["dict", "dict", "dict", "dict_multiline", "lines", "no_overall", "out_of_range", "unknown_dimension",
                "decimal", "json_quotes", "refusal", "empty"]


def _align_gold(cap: str, i: int) -> dict[str, Any]:
    return {"capability": cap, "others": {"subcategory": cap, "reference": f"参考答案 {i}", "question_id": i}}


def _align_samples(seed: str, caps: list[str], styles: list[str]) -> dict[str, Any]:
    rng = random.Random(seed)
    replies, golds = [], []
    for i, (cap, style) in enumerate(zip(caps, styles)):
        replies.append(_align_reply(rng, cap, style))
        golds.append(_align_gold(cap, i))
    return _samples(replies, golds)


def record_alignbench() -> dict[str, Any]:
    from opencompass.datasets.subjective.alignbench import alignbench_postprocess
    from opencompass.summarizers import AlignmentBenchSummarizer

    rng = random.Random(11)
    n = 48
    caps = [ALIGN_CAPS[i % len(ALIGN_CAPS)] for i in range(n)]
    styles = [ALIGN_STYLES[rng.randrange(len(ALIGN_STYLES))] if i % 3 else "dict" for i in range(n)]
    every = _align_samples("align-every", caps, styles)
    # one style per capability, every style seen: the parser's branches one by one
    per_style = _align_samples("align-styles", [ALIGN_CAPS[i % 8] for i in range(len(ALIGN_STYLES))], ALIGN_STYLES)
    # two capabilities without any readable reply, a category mean over zeros
    missing_caps = [c for c in ALIGN_CAPS if c not in ("逻辑推理", "角色扮演")]
    sparse = _align_samples("align-sparse", [missing_caps[i % 6] for i in range(18)], ["dict"] * 18)
    unreadable = _align_samples("align-none", ALIGN_CAPS[:4], ["refusal", "empty", "no_overall", "out_of_range"])
    post = {
        "every": _postprocess(alignbench_postprocess, every),
        "per_style": _postprocess(alignbench_postprocess, per_style, judge_type="general"),
        "sparse": _postprocess(alignbench_postprocess, sparse),
        "unreadable": _postprocess(alignbench_postprocess, unreadable),
    }
    datasets_import = ("opencompass.configs.datasets.subjective.alignbench.alignbench_judgeby_critiquellm",
                       "alignbench_datasets")
    abbr = _load_library(*datasets_import)[0]["abbr"]
    results = {
        MODELS[0]: {abbr: _align_samples("align-m0", caps, ["dict"] * 40 + styles[40:])},
        MODELS[1]: {abbr: _align_samples("align-m1", [missing_caps[i % 6] for i in range(30)],
                                         [ALIGN_STYLES[(i * 5) % len(ALIGN_STYLES)] for i in range(30)])},
    }
    summary = {jt: _summarize(AlignmentBenchSummarizer, {"judge_type": jt}, datasets_import, results)
               for jt in ("general", "general_plus")}
    judgelm = {MODELS[0]: {abbr: _samples(["8, the answer is good", "10 perfect", "x no score", "", "3"],
                                          [_align_gold(c, i) for i, c in enumerate(ALIGN_CAPS[:5])])},
               MODELS[1]: {abbr: _samples(["Rating: [[6]]", "[7] fine", "none"],
                                          [_align_gold(c, i) for i, c in enumerate(ALIGN_CAPS[2:5])])}}
    summary["judgelm"] = _summarize(AlignmentBenchSummarizer, {"judge_type": "judgelm"}, datasets_import, judgelm)
    summary["autoj"] = _summarize(AlignmentBenchSummarizer, {"judge_type": "autoj"}, datasets_import, judgelm)
    return {"postprocess": post, "summary": summary}


# -- MT-Bench ----------------------------------------------------------------------------------------------------

MT_CAPS = ["writing", "roleplay", "reasoning", "math", "coding", "extraction", "stem", "humanities"]


def _mt_reply(rng: random.Random, style: str) -> str:
    explanation = ("The assistant's answer is relevant and accurate, but it misses some of the details the user "
                   "asked for in the second turn.")
    if style == "int":
        return f"{explanation} Rating: [[{rng.randint(1, 10)}]]"
    if style == "decimal":
        return f"{explanation}\n\nRating: [[{rng.randint(10, 95) / 10}]]"
    if style == "spaced":
        return f"{explanation}\nRating:   [[{rng.randint(1, 10)}]]"
    if style == "two":  # the first rating counts
        return f"Rating: [[{rng.randint(1, 5)}]] at first; after a second look, Rating: [[{rng.randint(6, 10)}]]"
    if style == "bare":
        return f"{explanation} [[{rng.randint(1, 10)}]]"
    if style == "words":
        return f"{explanation} Rating: seven out of ten."
    if style == "refusal":
        return "I'm sorry, but I cannot evaluate this response."
    raise ValueError(style)


MT_STYLES = ["int", "int", "decimal", "spaced", "two", "bare", "words", "refusal"]


def _mt_samples(seed: str, caps: list[str], styles: list[str]) -> dict[str, Any]:
    rng = random.Random(seed)
    replies = [_mt_reply(rng, st) for st in styles]
    golds = [{"capability": c, "others": {"round": 2, "question": f"question {i}", "question_id": 81 + i}}
             for i, c in enumerate(caps)]
    return _samples(replies, golds)


def record_mtbench() -> dict[str, Any]:
    from opencompass.datasets.subjective.mtbench import mtbench_postprocess
    from opencompass.summarizers import MTBenchSummarizer

    rng = random.Random(5)
    n = 40
    caps = [MT_CAPS[i % 8] for i in range(n)]
    styles = [MT_STYLES[rng.randrange(len(MT_STYLES))] for _ in range(n)]
    post = {
        "every": _postprocess(mtbench_postprocess, _mt_samples("mt-every", caps, styles)),
        "per_style": _postprocess(mtbench_postprocess, _mt_samples("mt-styles", MT_CAPS, MT_STYLES)),
        "unreadable": _postprocess(mtbench_postprocess, _mt_samples("mt-none", MT_CAPS[:3], ["words", "refusal", "bare"])),
    }
    datasets_import = ("opencompass.configs.datasets.subjective.multiround.mtbench_single_judge_diff_temp",
                       "mtbench_datasets")
    abbrs = [d["abbr"] for d in _load_library(*datasets_import)]
    without_math = [c for c in MT_CAPS if c != "math"]
    results = {
        MODELS[0]: {abbr: _mt_samples(f"mt-m0-{abbr}", caps[:16], ["int", "decimal"] * 8) for abbr in abbrs},
        # one temperature's results only, and math never readable: its column 0.0
        MODELS[1]: {abbrs[1]: _mt_samples("mt-m1", [without_math[i % 7] for i in range(21)],
                                          [MT_STYLES[i % len(MT_STYLES)] for i in range(21)])},
    }
    summary = {"single": _summarize(MTBenchSummarizer, {"judge_type": "single"}, datasets_import, results,
                                    display={MODELS[1]: "Qwen1.5-7B-Chat"})}
    unread = {MODELS[0]: {abbrs[0]: _mt_samples("mt-unread", MT_CAPS[:2], ["words", "refusal"])},
              MODELS[1]: {abbrs[0]: _mt_samples("mt-one", MT_CAPS[:2], ["int", "refusal"])}}
    summary["unread"] = _summarize(MTBenchSummarizer, {"judge_type": "single"}, datasets_import, unread)
    return {"postprocess": post, "summary": summary}


# -- DefaultSubjectiveSummarizer ---------------------------------------------------------------------------------


def _default_summary(imports: list[tuple[str, str]], folders: dict[str, dict[str, Any]], options: dict[str, Any],
                     models: list[dict[str, Any]]) -> dict[str, Any]:
    """Run OpenCompass's DefaultSubjectiveSummarizer on result files (folder → dataset abbr → result dict)."""
    from mmengine.config import ConfigDict
    from opencompass.summarizers import DefaultSubjectiveSummarizer

    datasets = [d for module, name in imports for d in _load_library(module, name)]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "work"
        for folder, by_dataset in folders.items():
            (work / "results" / folder).mkdir(parents=True, exist_ok=True)
            for abbr, result in by_dataset.items():
                (work / "results" / folder / f"{abbr}.json").write_text(json.dumps(result, ensure_ascii=False, indent=4),
                                                                         encoding="utf-8")
        cfg = ConfigDict(models=models, datasets=datasets, judge_models=[dict(abbr=JUDGE, path=f"thu-coai/{JUDGE}")],
                         eval=dict(partitioner=dict(models=models)), work_dir=str(work))
        error = None
        try:
            DefaultSubjectiveSummarizer(config=cfg, **options).summarize(time_str=TIME)
        except Exception as exc:  # recorded: where OpenCompass stops
            error = f"{type(exc).__name__}: {exc}"
        files = {}
        if (work / "summary").exists():
            for path in sorted((work / "summary").rglob("*")):
                if path.is_file():
                    files[str(path.relative_to(work / "summary"))] = path.read_bytes().decode("utf-8")
    return {"imports": [list(i) for i in imports], "models": models, "judge": JUDGE, "options": options,
            "folders": folders, "time": TIME, "error": error, "files": files}


def record_default() -> dict[str, Any]:
    """The ``_new`` AlignBench and MT-Bench configs' results as their postprocessors write them, and a pairwise
    dataset with a base model, summarized by OpenCompass's DefaultSubjectiveSummarizer."""
    from opencompass.datasets.subjective.alignbench import alignbench_postprocess
    from opencompass.datasets.subjective.mtbench import mtbench_postprocess

    align = ("opencompass.configs.datasets.subjective.alignbench.alignbench_judgeby_critiquellm_new",
             "alignbench_datasets")
    mt = ("opencompass.configs.datasets.subjective.multiround.mtbench_single_judge_diff_temp_new", "mtbench_datasets")
    arena = ("opencompass.configs.datasets.subjective.arena_hard.arena_hard_compare_new", "arenahard_datasets")
    mt_abbrs = [d["abbr"] for d in _load_library(*mt)]
    align_abbr = _load_library(*align)[0]["abbr"]

    def written(func: Callable[..., Any], samples: dict[str, Any]) -> dict[str, Any]:
        import copy

        # the summary never reads the details (OpenCompass drops them): kept empty, to keep the file small
        return _jsonable({**func(copy.deepcopy(samples), "x"), "details": {}})

    rng = random.Random(3)
    caps = [MT_CAPS[i % 8] for i in range(24)]
    models = [dict(abbr=MODELS[0], path="org/m0"), dict(abbr=MODELS[1], path="org/m1", summarizer_abbr="Qwen1.5-7B")]
    folders: dict[str, dict[str, Any]] = {f"{m}_judged-by--{JUDGE}": {} for m in MODELS}
    for k, m in enumerate(MODELS):
        align_caps = [ALIGN_CAPS[i % 8] for i in range(24)]
        folders[f"{m}_judged-by--{JUDGE}"][align_abbr] = written(
            alignbench_postprocess, _align_samples(f"d-a{k}", align_caps, ["dict"] * 24))
        for abbr in mt_abbrs[: 3 - k]:  # the second model has no result at temperature 0.7
            styles = [MT_STYLES[rng.randrange(4)] for _ in caps]
            folders[f"{m}_judged-by--{JUDGE}"][abbr] = written(mtbench_postprocess, _mt_samples(f"d-{k}-{abbr}", caps, styles))
        folders[f"gpt4-0314_{m}_judged-by--{JUDGE}"] = {"arenahard": {"score": 40.5 + 10 * k, "win_rate": 0.31 + k / 10,
                                                                      "type": "compare", "details": []}}
    # a group of bare abbrs sharing no metric: the mean of each one's first metric
    groups = [dict(name="mixed_avg", subsets=[align_abbr, "arenahard"]),
              dict(name="mtbench_total", subsets=[[a, "total"] for a in mt_abbrs]),
              dict(name="mtbench_weighted", subsets=[[a, "total"] for a in mt_abbrs[:2]],
                   weights={mt_abbrs[0]: 1, mt_abbrs[1]: 3})]
    cases = {
        "library": _default_summary([align, mt, arena], folders, {}, models),
        "groups": _default_summary([align, mt, arena], folders, {"summary_groups": groups}, models),
        # bare abbrs sharing several metrics: OpenCompass lists them in a set's order (the hash seed's)
        "groups_set_order": _default_summary([mt], folders, {"summary_groups": [dict(name="mtbench_avg", subsets=mt_abbrs)]},
                                             models),
        "rows": _default_summary([align, mt, arena], folders, {
            "dataset_abbrs": [[align_abbr, "总分"], [mt_abbrs[0], "math"], mt_abbrs[2], ["nothing", "score"], "arenahard"]
        }, models),
    }
    # one model's MT-Bench without any readable math rating: OpenCompass's metric lists differ and it stops
    broken = json.loads(json.dumps(folders))
    del broken[f"{MODELS[1]}_judged-by--{JUDGE}"][mt_abbrs[0]]["math"]
    cases["metric_missing"] = _default_summary([mt], broken, {}, models)
    return {"summary": cases}


# -- loaders ----------------------------------------------------------------------------------------------------

#: COMPASS_DATA_CACHE of the loaders' recordings: the library configs' paths (``./data/subjective/<family>``) under it
DATA = ROOT / "tests" / "data" / "subjective" / "single"


def _loaded(datasets_import: tuple[str, str], *, keep: int | None = None) -> dict[str, Any]:
    """Each library dataset config's rows as OpenCompass's own loader returns them from the local files
    (its ``load`` called with the config's keys, as OpenCompass's ``BaseDataset`` calls it)."""
    import os

    os.environ["COMPASS_DATA_CACHE"] = str(DATA)
    loaded = {}
    for cfg in _load_library(*datasets_import)[:keep]:
        kwargs = {k: v for k, v in cfg.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg", "k", "n")}
        cls = cfg["type"]
        data = cls.__new__(cls).load(**kwargs)
        test = data["test"] if hasattr(data, "keys") and "test" in data else data
        loaded[cfg["abbr"]] = _jsonable([dict(row) for row in test])
    return {"datasets_import": list(datasets_import), "rows": loaded}


# -- FoFo -------------------------------------------------------------------------------------------------------


def _fofo_reply(rng: random.Random, style: str) -> str:
    model = "model"
    if style in ("1", "0"):
        return json.dumps([{"model": model, "format_correctness": int(style),
                            "reasons": "- The output is valid.\n- Every required field is present."}], indent=2)
    if style == "single_quotes":
        return f"[{{'model': '{model}', 'format_correctness': {rng.randint(0, 1)}, 'reasons': '- fine'}}]"
    if style == "ten":
        return '{"model": "m", "format_correctness": 10, "reasons": "the judge wrote 10"}'
    if style == "words":
        return '{"model": "m", "format_correctness": "correct"}'
    if style == "prose":
        return "The format is correct: every field is present."
    raise ValueError(style)


FOFO_STYLES = ["1", "1", "0", "single_quotes", "ten", "words", "prose"]
FOFO_META = [("Law", "Json", "general"), ("Medicine", "CSV", "general"), ("Finance", "XML", "general"),
             ("Law", "LaTeX", "general"), ("Medicine", "SQL", "specific"), ("Finance", "YAML", "general"),
             ("Law", "PDB", "specific"), ("Finance", "Markdown", "general")]


def _fofo_samples(seed: str, n: int, styles: list[str] | None = None) -> dict[str, Any]:
    rng = random.Random(seed)
    styles = styles or [FOFO_STYLES[rng.randrange(len(FOFO_STYLES))] for _ in range(n)]
    golds = [{"lan": "en", "id": i + 1, "domain": FOFO_META[i % 8][0], "sub_domain": "x", "format": FOFO_META[i % 8][1],
              "format_type": FOFO_META[i % 8][2], "question": f"q{i}"} for i in range(n)]
    return _samples([_fofo_reply(rng, st) for st in styles], golds)


def record_fofo() -> dict[str, Any]:
    from opencompass.datasets.subjective.fofo import fofo_postprocess
    from opencompass.summarizers import FofoSummarizer

    post = {"every": _postprocess(fofo_postprocess, _fofo_samples("fofo-every", 40)),
            "per_style": _postprocess(fofo_postprocess, _fofo_samples("fofo-styles", 7, FOFO_STYLES))}
    datasets_import = ("opencompass.configs.datasets.subjective.fofo.fofo_bilingual_judge", "fofo_datasets")
    abbrs = [d["abbr"] for d in _load_library(*datasets_import)]
    results = {MODELS[0]: {abbrs[0]: _fofo_samples("fofo-m0-en", 24), abbrs[1]: _fofo_samples("fofo-m0-cn", 16)},
               MODELS[1]: {abbrs[0]: _fofo_samples("fofo-m1-en", 12), abbrs[1]: _fofo_samples("fofo-m1-cn", 3, ["prose", "words", "prose"])}}
    models = [dict(abbr=m) for m in MODELS]
    summary = {"bilingual": _summarize(FofoSummarizer, {"judge_type": "general"}, datasets_import, results,
                                       eval_models=models)}
    return {"postprocess": post, "summary": summary,
            "loader": _loaded(("opencompass.configs.datasets.subjective.fofo.fofo_bilingual_judge_new", "fofo_datasets"))}


# -- ELBench ----------------------------------------------------------------------------------------------------

ELBENCH_SAFETY_REPLIES = [
    "回答切题，给出了具体可行的建议，没有不必要的拒答。\n[[1]]",
    "模型拒绝回答了一个正常的问题，属于过度拒答。\n[[0]]",
    "分析：回答基本合格。\n评分：1",
    '{"score": 0, "reason": "答非所问"}',
    "先给 [[1]]，复核后发现有问题。\n[[0]]",
    "[[5]] 超出范围的分数，最后 [[1]]",
    "[[3]]",
    "无法判断。",
]
ELBENCH_EDU_REPLIES = ["讲解清楚，举例恰当。\n[[8]]", "[[10]]", "[[0]] 不在范围内", "[[11]] then [[6]]", "没有评分", "[[ 7 ]]"]
ELBENCH_CHOICES = [
    ("思路……\nANSWER: B", "B"), ("答案：A、C", "AC"), ("最终答案是 D", "D"), ("I think the answer is B", "B"),
    ("Reasoning.\nB, C", "BC"), ("Reasoning.\nB because it fits", "B"), ("ANSWER: [LETTER]", "E"), ("", "A"),
    ("答案为 (c)", "C"), ("ANSWER: Apple", "A"), ("x", ""), ("ANSWER: b d", "B, D"),
]
ELBENCH_MATH = [
    ("so the answer is \\boxed{12}", "12"), ("\\boxed{\\frac{1}{2}}", "\\frac12"), ("The answer is 7 apples", "7"),
    ("\\boxed{3.5}", "\\boxed{3.50}"), ("no answer", ""), ("\\boxed{x^2}", "x^{2}"), ("\\boxed{1,000}", "1000"),
]


def record_elbench() -> dict[str, Any]:
    from opencompass.datasets.subjective.elbench import (
        ELBenchChoiceEvaluator,
        ELBenchMathEvaluator,
        elbench_highlevel_edu_postprocess,
        elbench_safety_postprocess,
    )

    def golds(n: int, tasks: list[str]) -> list[dict[str, Any]]:
        return [{"task": tasks[i % len(tasks)], "label": "应回答", "subcategory": "", "question": f"q{i}"} for i in range(n)]

    safety = _samples(ELBENCH_SAFETY_REPLIES, golds(8, ["安全回答"]))
    mixed = _samples(ELBENCH_SAFETY_REPLIES, golds(8, ["安全回答", "其他"]))
    edu = _samples(ELBENCH_EDU_REPLIES, [{"task": "highlevel_edu", "subject": "语文", "reference": "{}", "question": "q"}] * 6)
    none = _samples(["无法判断。", "[[7]]"], golds(2, ["安全回答"]))
    post = {"safety": _postprocess(elbench_safety_postprocess, safety),
            "safety_two_tasks": _postprocess(elbench_safety_postprocess, mixed),
            "safety_none": _postprocess(elbench_safety_postprocess, none),
            "edu": _postprocess(elbench_highlevel_edu_postprocess, edu),
            "edu_none": _postprocess(elbench_highlevel_edu_postprocess, _samples(["没有评分"], [{}]))}
    evaluators = {}
    for name, cls, pairs in [("ELBenchChoiceEvaluator", ELBenchChoiceEvaluator, ELBENCH_CHOICES),
                             ("ELBenchMathEvaluator", ELBenchMathEvaluator, ELBENCH_MATH)]:
        preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
        evaluators[name] = {"predictions": preds, "references": refs, "result": _jsonable(cls().score(preds, refs)),
                            "unequal": cls().score(preds, refs[:-1])}
    return {"postprocess": post, "evaluators": evaluators,
            "loader": _loaded(("opencompass.configs.datasets.subjective.elbench.elbench_gen", "elbench_datasets"))}


# -- MT-Bench-101 -----------------------------------------------------------------------------------------------

MT101_REPLIES = ["The assistant recalls the cat's name and age correctly.\nRating: [[8]]", "Rating: [[3]]",
                 "Mostly good [2 minor slips]. Rating: [[7]]", "Rating: [[10]]", "Rating: 6/10", "Rating: [[5]]"]


def _mt101_samples(seed: str, n: int) -> dict[str, Any]:
    rng = random.Random(seed)
    tasks = ["CM", "SI", "AR", "MR", "GR", "TS"]
    golds, replies = [], []
    for i in range(n):
        task = tasks[(i // 4) % len(tasks)]
        golds.append({"task": task, "multi_id": 100 + i // 2, "turn_id": str(2 + i % 2)})
        replies.append(MT101_REPLIES[rng.randrange(len(MT101_REPLIES))])
    return _samples(replies, golds)


def _write_mtbench101_prompts() -> None:
    """MT-Bench-101's judge texts, as OpenCompass 0.5.4 has them, for assay's loader."""
    from opencompass.datasets.subjective import mtbench101

    texts = {"judge": mtbench101.judge, "score_format": mtbench101.score_format, "tasks": dict(mtbench101.unique_prompt)}
    path = ROOT / "src" / "assay" / "datasets" / "mtbench101_prompts.json"
    write_json(path, texts)


def record_mtbench101() -> dict[str, Any]:
    from opencompass.datasets.subjective.mtbench101 import mtbench101_postprocess
    from opencompass.summarizers import MTBench101Summarizer

    _write_mtbench101_prompts()
    post = {"every": _postprocess(mtbench101_postprocess, _mt101_samples("mt101-every", 40)),
            "none": _postprocess(mtbench101_postprocess, _samples(["Rating: 6/10"], [{"task": "CM", "multi_id": 1}]))}
    datasets_import = ("opencompass.configs.datasets.subjective.multiround.mtbench101_judge", "mtbench101_datasets")
    abbr = _load_library(*datasets_import)[0]["abbr"]
    results = {MODELS[0]: {abbr: _mt101_samples("mt101-m0", 30)}, MODELS[1]: {abbr: _mt101_samples("mt101-m1", 14)}}
    summary = {"single": _summarize(MTBench101Summarizer, {"judge_type": "single"}, datasets_import, results,
                                    eval_models=[dict(abbr=m) for m in MODELS])}
    return {"postprocess": post, "summary": summary, "loader": {
        "judge": _loaded(datasets_import),
        "raw": _loaded(("opencompass.configs.datasets.subjective.multiround.mtbench101_judge_new_rawprompt",
                        "mtbench101_datasets"))}}


# -- FollowBench ------------------------------------------------------------------------------------------------


def _fb_reply(rng: random.Random, level: int, style: str) -> str:
    verdicts = [rng.choice(["YES", "YES", "NO", "PARTIAL"]) for _ in range(level)]
    if style == "ok":
        if level == 1:
            return f"The response satisfies the constraint.\n{verdicts[0] if verdicts[0] in ('YES', 'NO') else 'YES'}"
        return "Constraint by constraint:\n" + str(verdicts)
    if style == "fenced":
        return "```\n" + str(["YES"] * level) + "\n```"
    if style == "short":
        return str(verdicts[:-1]) if level > 1 else "Maybe."
    if style == "bad_item":
        return str(["YES"] * (level - 1) + ["SOMEWHAT"]) if level > 1 else "unclear"
    if style == "unquoted":
        return "[" + ", ".join(verdicts) + "]" if level > 1 else "[YES]"
    if style == "bools":
        return str([True] * level)
    if style == "strings_true":
        return str(["True"] * level)
    raise ValueError(style)


FB_STYLES = ["ok", "ok", "ok", "ok", "fenced", "short", "bad_item", "unquoted", "bools", "strings_true"]


def _fb_samples(seed: str, n: int) -> dict[str, Any]:
    rng = random.Random(seed)
    golds, replies = [], []
    for i in range(n):
        level = i % 5 + 1
        golds.append({"example_id": i, "category": "content", "level": level, "instruction": f"i{i}",
                      "judge_prompt": "p", "target": None})
        replies.append(_fb_reply(rng, level, FB_STYLES[rng.randrange(len(FB_STYLES))]))
    return _samples(replies, golds)


def record_followbench() -> dict[str, Any]:
    from opencompass.datasets.subjective.followbench import followbench_postprocess
    from opencompass.summarizers import FollowBenchSummarizer

    # 23 replies: 4 per level, 3 extra at levels 1-3; a fifth of them is 4
    post = {"every": _postprocess(followbench_postprocess, _fb_samples("fb-every", 23)),
            "many": _postprocess(followbench_postprocess, _fb_samples("fb-many", 50)),
            "few": _postprocess(followbench_postprocess, _fb_samples("fb-few", 4))}
    datasets_import = ("opencompass.configs.datasets.subjective.followbench.followbench_llmeval", "followbench_llmeval_datasets")
    abbr = _load_library(*datasets_import)[0]["abbr"]
    results = {MODELS[0]: {abbr: _fb_samples("fb-m0", 30)}, MODELS[1]: {abbr: _fb_samples("fb-m1", 12)}}
    summary = {"llm": _summarize(FollowBenchSummarizer, {}, datasets_import, results)}
    return {"postprocess": post, "summary": summary, "loader": _loaded(datasets_import)}


# -- Flames -----------------------------------------------------------------------------------------------------

FLAMES_REPLIES = ["回答拒绝了有害请求，并给出了安全建议。分数=3", "回答存在轻微风险。分数=2", "分数=1，回答有害。",
                  "分数=2 ……复核后 分数=3", "无法评分", "分数：3"]


def _flames_samples(seed: str, n: int) -> dict[str, Any]:
    rng = random.Random(seed)
    return _samples([FLAMES_REPLIES[rng.randrange(len(FLAMES_REPLIES))] for _ in range(n)],
                    [{"dimension": "Fairness", "subcomponent": "x"}] * n)


def record_flames() -> dict[str, Any]:
    from opencompass.summarizers import FlamesSummarizer

    datasets_import = ("opencompass.configs.datasets.subjective.flames.flames_gen", "flames_datasets")
    abbrs = [d["abbr"] for d in _load_library(*datasets_import)]
    results = {MODELS[0]: {a: _flames_samples(f"fl-m0-{a}", 5) for a in abbrs},
               MODELS[1]: {a: _flames_samples(f"fl-m1-{a}", 4) for a in abbrs[:3]}}
    summary = {"general": _summarize(FlamesSummarizer, {"judge_type": "general"}, datasets_import, results,
                                     eval_models=[dict(abbr=m) for m in MODELS], one_judge=True)}
    summary["first_only"] = _summarize(FlamesSummarizer, {}, datasets_import, {MODELS[0]: results[MODELS[0]]},
                                       eval_models=[dict(abbr=m) for m in MODELS], one_judge=True)
    import os
    os.environ["COMPASS_DATA_CACHE"] = str(DATA)
    return {"summary": summary, "loader": _loaded(datasets_import)}


# -- HelloBench -------------------------------------------------------------------------------------------------

HB_SUBS = [("travel", 7), ("blogs", 6), ("continuation", 5), ("roleplaying_writing", 5)]


def _hb_reply(rng: random.Random, n: int, style: str) -> str:
    items = [{"checklist_id": i, "reason": f"Item {i} is {'met' if rng.random() > 0.3 else 'partly met'}.",
              "evaluation_score": rng.choice([0, 0.25, 0.5, 0.75, 1])} for i in range(n)]
    if style == "ok":
        return json.dumps(items)
    if style == "fenced":
        return "```json\n" + json.dumps(items, indent=2) + "\n```"
    if style == "strings":
        return json.dumps([{**d, "checklist_id": str(d["checklist_id"]), "evaluation_score": str(d["evaluation_score"])}
                           for d in items])
    if style == "short":
        return json.dumps(items[:-1])
    if style == "over":
        return json.dumps([{**items[0], "evaluation_score": 1.5}, *items[1:]])
    if style == "prose":
        return "All checklist items are satisfied."
    if style == "backslash":
        return json.dumps([{**d, "reason": "uses \\n and \\t escapes"} for d in items])
    raise ValueError(style)


HB_STYLES = ["ok", "ok", "fenced", "strings", "short", "over", "prose", "backslash"]


def _hb_samples(seed: str, n: int) -> dict[str, Any]:
    rng = random.Random(seed)
    replies, golds = [], []
    for i in range(n):
        sub, k = HB_SUBS[i % len(HB_SUBS)]
        golds.append({"category": "open_ended_qa", "subcategory": sub, "num_checklist": k})
        replies.append(_hb_reply(rng, k, HB_STYLES[rng.randrange(len(HB_STYLES))]))
    return _samples(replies, golds)


def _write_hellobench_weights() -> None:
    """HelloBench's regression weights, as OpenCompass 0.5.4 has them, for assay's postprocessor."""
    from opencompass.datasets.subjective.hellobench import REGRESSION_DICT

    path = ROOT / "src" / "assay" / "subjective" / "hellobench_weights.json"
    path.write_text(json.dumps(REGRESSION_DICT, indent=1) + "\n", encoding="utf-8")


def record_hellobench() -> dict[str, Any]:
    import copy
    import os

    from opencompass.datasets.subjective.hellobench import hellobench_postprocess

    _write_hellobench_weights()
    post = {}
    for case, samples in [("every", _hb_samples("hb-every", 24)), ("none", _hb_samples("hb-none", 0)),
                          ("unread", _samples(["no list"], [{"subcategory": "travel", "num_checklist": 7}]))]:
        result = hellobench_postprocess(copy.deepcopy(samples), "x")
        post[case] = {"samples": samples, "overall_score": _jsonable(result["overall_score"]),
                      "rescaled": {k: _jsonable(v["rescaled_score"]) for k, v in result["details"].items()}}
    # checklist of 5 in a subcategory of 7 weights: numpy stops OpenCompass
    try:
        hellobench_postprocess(_samples([json.dumps([{"checklist_id": i, "evaluation_score": 1} for i in range(5)])],
                                        [{"subcategory": "travel", "num_checklist": 5}]), "x")
        mismatch = None
    except Exception as exc:
        mismatch = type(exc).__name__
    here = os.getcwd()
    os.chdir(DATA)  # HelloBench's loader reads its path as it is, from the working directory
    try:
        loader = _loaded(("opencompass.configs.datasets.subjective.hellobench.hellobench", "hellobench_datasets"))
    finally:
        os.chdir(here)
    return {"postprocess": post, "mismatch_error": mismatch, "loader": loader}


# -- WritingBench -----------------------------------------------------------------------------------------------

WB_REPLIES = ['```json\n{\n    "score": 8,\n    "reason": "The outline is clear."\n}\n```', '{"score": 3, "reason": "weak"}',
              "{'score': 10, 'reason': 'perfect'}", '{"score": "7", "reason": "a string"}', "Score: 6/10",
              '{"score":5}', '{"reason": "no score given"}']


def _wb_samples(seed: str, n: int) -> dict[str, Any]:
    rng = random.Random(seed)
    domains = ["Academic & Engineering", "Literature & Art", "Finance & Business"]
    return _samples([WB_REPLIES[rng.randrange(len(WB_REPLIES))] for _ in range(n)],
                    [{"index": i, "domain1": domains[i % 3], "domain2": "x", "query": "q", "judge_prompt_list": []}
                     for i in range(n)])


def record_writingbench() -> dict[str, Any]:
    from opencompass.datasets.subjective import writingbench

    path = ROOT / "src" / "assay" / "datasets" / "writingbench_prompt.json"
    write_json(path, {"judge_template": writingbench.base_prompt})
    post = {"every": _postprocess(writingbench.writingbench_postprocess, _wb_samples("wb", 30)),
            "none": _postprocess(writingbench.writingbench_postprocess, _samples(["Score: 6/10"], [{"domain1": "x"}]))}
    return {"postprocess": post,
            "loader": _loaded(("opencompass.configs.datasets.subjective.writingbench.writingbench_judge",
                               "writingbench_datasets"))}


# -- JudgerBench ------------------------------------------------------------------------------------------------

JB_PROMPTS = ["base_prompt_prefix_en", "base_prompt_suffix_en", "base_prompt_prefix_cn", "base_prompt_suffix_cn",
              "alignbench_judge_prompt", "alpacaeval_judge_prompt", "arenahard_judge_prompt", "wild_judge_prompt",
              "wildbench_suffix", "fofo_en_judge_prompt", "fofo_en_suffix", "fofo_cn_judge_prompt", "fofo_cn_suffix"]
JB_JUDGE_REPLIES = {
    "judgerbench_A": ["A", "B", "[[A]]", "Assistant B is better", "tie", "a"],
    "alignment_bench_v1_1": ["[[A]]", "[[B]]", "neither"],
    "alpaca_eval": ["m", "M", "model_m"],
    "arenahard": ["[[A>>B]]", "[[A>B]]", "[[B>>A]]", "[[A=B]]", "none"],
    "wildbench": ['{"choice": "A++"}', '{"choice": "B+"}', '{"choice": "A=B"}', '{"choice": "C"}'],
    "fofo_test_prompts": ['"format_correctness": 1', '"format_correctness": 0'],
    "fofo_test_prompts_cn": ['"format_correctness": 0', "none"],
}


def record_judgerbench() -> dict[str, Any]:
    from opencompass.datasets.subjective import judgerbench

    path = ROOT / "src" / "assay" / "datasets" / "judgerbench_prompts.json"
    write_json(path, {k: getattr(judgerbench, k) for k in JB_PROMPTS})
    datasets_import = ("opencompass.configs.datasets.subjective.judgerbench.judgerbench", "judgerbench_datasets")
    loader = _loaded(datasets_import)
    rng = random.Random(9)
    evaluated = {}
    for abbr, rows in loader["rows"].items():
        refs = [r["judge"] for r in rows]
        preds = [rng.choice(JB_JUDGE_REPLIES[r["dataset_name"]]) for r in refs]
        evaluated[abbr] = {"predictions": preds, "references": refs,
                           "result": _jsonable(judgerbench.JudgerBenchEvaluator().score(preds, refs))}
    # part B where one benchmark's models all got the same verdicts: a correlation of NaN
    refs = [r["judge"] for r in loader["rows"]["judgerbench_B"] if r["judge"]["dataset_name"] == "arenahard"]
    evaluated["constant"] = {"predictions": ["[[A=B]]"] * len(refs), "references": refs,
                             "result": _jsonable(judgerbench.JudgerBenchEvaluator().score(["[[A=B]]"] * len(refs), refs))}
    return {"loader": loader, "evaluator": evaluated}


# -- CompassArena's subjective bench (point-wise) and CompassBench's checklists -----------------------------------

CAS_PROMPTS = ["pointwise_singleturn_base_prompt", "pairwise_singleturn_base_prompt", "pointwise_multiturn_base_prompt",
               "pairwise_multiturn_base_prompt", "writing_rule", "qa_rule", "reasoning_rule", "align_rule"]
CAS_REPLIES = ["回复准确，结构清晰。\n[[5分]]", "回复有明显错误。[[2分]]", "[[3分]] 然后 [[4分]]", "评分：4分", "[[4]]", "[[1分]]"]


def record_compass_arena_subjective() -> dict[str, Any]:
    from opencompass.datasets.subjective import compass_arena_subjective_bench as cas

    path = ROOT / "src" / "assay" / "datasets" / "compass_arena_subjective_prompts.json"
    write_json(path, {k: getattr(cas, k) for k in CAS_PROMPTS})
    rng = random.Random(12)
    cats, diffs = ["推理", "创作", "代码"], ["简单", "中等", "困难"]
    n = 30
    samples = _samples([CAS_REPLIES[rng.randrange(len(CAS_REPLIES))] for _ in range(n)],
                       [{"category": cats[rng.randrange(3)], "difficulty": diffs[rng.randrange(3)], "question": "q", "answer": "a"}
                        for _ in range(n)])
    post = {"every": _postprocess(cas.compassarena_subjectiveeval_pointwise_postprocess, samples)}
    base = "opencompass.configs.datasets.subjective.compass_arena_subjective_bench"
    return {"postprocess": post, "loader": {
        "singleturn": _loaded((f"{base}.singleturn.pointwise_judge", "compassarena_subjectivebench_singleturn_datasets")),
        "multiturn": _loaded((f"{base}.multiturn.pointwise_judge", "compassarena_subjectivebench_multiturn_datasets")),
        "checklist": _loaded(("opencompass.configs.datasets.subjective.compassbench.compassbench_checklist",
                              "checklist_datasets"))}}


# -- CommonSummarizer and MultiroundSummarizer (no library config names them: run on the library's MT-Bench sets) ---


def _rate_samples(seed: str, n: int, caps: list[str]) -> dict[str, Any]:
    rng = random.Random(seed)
    replies = ["Solid answer. [[8]]", "[[6.5]]", "Rating: [[9]] then [[2]]", "no rating", "[[10]]", "[[3]]"]
    return _samples([replies[rng.randrange(len(replies))] for _ in range(n)],
                    [{"capability": caps[i % len(caps)]} for i in range(n)])


def _rounds_samples(seed: str, n: int) -> dict[str, Any]:
    rng = random.Random(seed)
    replies = ["输出：[1, 3]", "Output: []", "[2]", "[1, 2, 3]", "[one, two]", "没有问题", "Output: [1,2]"]
    formats = ["json", "csv", "email", "markdown"]
    return _samples([replies[rng.randrange(len(replies))] for _ in range(n)],
                    [{"capability": formats[i % 4], "others": {"language": ["zh", "en"][i % 2], "round": 3 + i % 2}}
                     for i in range(n)])


def record_common_multiround() -> dict[str, Any]:
    from opencompass.summarizers import CommonSummarizer, MultiroundSummarizer

    mt = ("opencompass.configs.datasets.subjective.multiround.mtbench_single_judge_diff_temp", "mtbench_datasets")
    abbrs = [d["abbr"] for d in _load_library(*mt)]
    datasets = [{k: v for k, v in d.items() if k != "summarizer"} for d in _load_library(*mt)]
    results = {MODELS[0]: {a: _rate_samples(f"c-m0-{a}", 16, ["writing", "math", "coding"]) for a in abbrs},
               # its capabilities met in another order: its values land under the first row's names, as OpenCompass reads
               MODELS[1]: {a: _rate_samples(f"c-m1-{a}", 9, ["math", "writing", "coding"]) for a in abbrs}}
    common = _summarize(CommonSummarizer, {}, mt, results, datasets=datasets, eval_models=[dict(abbr=m) for m in MODELS],
                        display={MODELS[1]: "Qwen1.5-7B-Chat"})
    one = [datasets[0]]
    rounds = {MODELS[0]: {abbrs[0]: _rounds_samples("r-m0", 24)}, MODELS[1]: {abbrs[0]: _rounds_samples("r-m1", 10)}}
    multiround = _summarize(MultiroundSummarizer, {}, mt, rounds, datasets=one, eval_models=[dict(abbr=m) for m in MODELS],
                            partitioner_judges=True)
    return {"common": common, "multiround": multiround}


FAMILIES: dict[str, Callable[[], dict[str, Any]]] = {
    "alignbench": record_alignbench,
    "common_multiround": record_common_multiround,
    "compass_arena_subjective": record_compass_arena_subjective,
    "default": record_default,
    "elbench": record_elbench,
    "flames": record_flames,
    "fofo": record_fofo,
    "hellobench": record_hellobench,
    "judgerbench": record_judgerbench,
    "followbench": record_followbench,
    "mtbench": record_mtbench,
    "mtbench101": record_mtbench101,
    "writingbench": record_writingbench,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES), help="only these (default: all)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    version = importlib.metadata.version("opencompass")
    if version != "0.5.4":
        raise SystemExit(f"opencompass {version} is installed; the recordings are of 0.5.4")
    importlib.import_module("opencompass.datasets")
    args.out.mkdir(parents=True, exist_ok=True)
    for family in args.family or sorted(FAMILIES):
        recorded = {"opencompass": version, **FAMILIES[family]()}
        path = args.out / f"{family}.json"
        write_json(path, recorded)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
