"""Record what OpenCompass 0.5.4 computes for CaLM (``opencompass/configs/datasets/calm/calm.py``).

Run it with a Python that has ``opencompass==0.5.4`` installed (and jieba and
rouge, which OpenCompass's CaLM evaluator imports); OpenCompass is not a
dependency of assay::

    python scripts/record_oc_calm.py

The script

* writes CaLM's benchmark tables that assay reads: the prompt templates of the
  two prompt styles the library config uses (``basic``, ``basic-CN``) per
  prompt family to ``src/assay/datasets/calm_prompts.json``, and the answer
  phrases the reading rules look for (the shared lists and start-phrase
  tables, and each rule's own list, its entries that depend on the sample
  written as ``{"fmt": …, "args": [...]}`` with assay's names for the
  sample's values) to ``src/assay/evaluators/calm_answers.json``;
* writes small data files, a few samples per task in CaLM's layout (JSON Lines
  named ``<task>.json`` under ``data/calm/<hierarchy>/``), under
  ``tests/data/oc_families/calm/cache`` (the working folder the library
  config's relative paths are read from);
* builds every dataset of the library config with OpenCompass's own loader
  there and records its rows, then scores crafted replies (``REPLIES``, per
  reading rule, covering its branches; each reply paired with one sample of the
  task, cycling through them) with OpenCompass's ``CaLMEvaluator`` as the config
  builds it: the metrics, and per reply the label OpenCompass's reading rule
  gives and the four error flags of its error analysis.  A second batch, one
  reply given to every sample, records the "Same response to all questions"
  flag.
* finds where the ``rouge`` package's recursive walk overflows under CaLM's
  open-ended task as OpenCompass normally runs it: its eval task
  (``opencompass/tasks/openicl_eval.py``) started as a process of its own, the
  way its runners start it, on ``CEG-O_E-CARE_EN`` samples whose reference and
  reply are the same run of ``n`` words; it keeps the result, the
  longest reply scored and the shortest not, and the depth of the evaluator's
  ``score`` there (``expected/rouge_depth.json``).

``tests/data/oc_families/calm/expected/calm.json`` receives all of it;
``tests/evaluators/test_oc_calm.py`` compares assay with it.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import inspect
import io
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "calm"
CACHE = FIXTURES / "cache"
STYLES = ("basic", "basic-CN")

# ---------------------------------------------------------------------------------------------
# Samples: field values per prompt family (English and Chinese files share them).

_CLADDER = [
    {"given_info": "We know that X causes Y, and Y causes Z.", "question": "Does X affect Z?", "gt_answer": "yes"},
    {"given_info": "Method 1: look at all people. Method 2: look at smokers.", "question": "Is method 1 more correct?", "gt_answer": "no"},
    {"given_info": "事件甲导致事件乙。", "question": "甲和丙相关吗？", "gt_answer": "yes"},
]
_NUMERIC = [
    {"given_info": "For those with A=1, the probability of B=1 is 0.42.", "Background": {"data_info": "A affects B.", "x": 1},
     "Instruction": "Consider the effect of A on B.", "Question": "Is the effect positive?", "gt_answer": "Yes"},
    {"given_info": "P(B=1|A=0)=0.3", "Background": {"data_info": "A 影响 B。"}, "Instruction": "计算效应。", "Question": "效应为正吗？",
     "gt_answer": " No "},
]
_PROB = [dict(_NUMERIC[0], gt_answer=0.1234), dict(_NUMERIC[1], gt_answer=0.56789)]
_AS = [
    {"edges": "A->B, B->C, A->C", "treatment": "A", "outcome": "C", "option1": "B", "option2": "empty set", "option3": "A, B",
     "gt_answer": 2},
    {"edges": "X->Y, Z->X, Z->Y", "treatment": "X", "outcome": "Y", "option1": "Z", "option2": "Y", "option3": "X, Z", "gt_answer": 1},
    {"edges": "U->V", "treatment": "U", "outcome": "V", "option1": "W.", "option2": "V, W", "option3": "none of them", "gt_answer": 3},
]
_PCD_C = [
    {"premise": "The man turned on the faucet.", "ask-for": "effect", "hypothesis1": "The toilet filled with water.",
     "hypothesis2": "Water flowed from the spout.", "gt_answer": 1},
    {"premise": "The girl found a bug in her cereal.", "ask-for": "cause", "hypothesis1": "She lost her appetite.",
     "hypothesis2": "She poured milk in the bowl.", "gt_answer": 0},
]
SAMPLES: dict[str, list[dict[str, Any]]] = {
    "CLADDER": _CLADDER,
    "AR-B_CaLM-AR": [{"ar_edges": "A causes B, B causes C", "former": "A", "latter": "C", "gt_answer": 1},
                     {"ar_edges": "D causes E", "former": "E", "latter": "D", "gt_answer": 0}],
    "CA-B_FA": [{"edges": "A->B, B->C", "sampled_ancestor": "A", "attribution": "C", "gt_answer": 1},
                {"edges": "A->B", "sampled_ancestor": "B", "attribution": "A", "gt_answer": 0}],
    "CA-B_FP": [{"edges": "A->B, B->C", "sampled_parent": "B", "attribution": "C", "gt_answer": 1},
                {"edges": "A->B", "sampled_parent": "B", "attribution": "A", "gt_answer": 0}],
    "ECI": [{"words": ["The", "storm", "caused", "a", "flood", "."], "events": [[1], [4]], "sent": "暴风雨引发了洪水。",
             "event1": "暴风雨", "event2": "洪水", "gt_answer": 1},
            {"words": ["He", "ate", "and", "then", "slept", "well"], "events": [[1], [4, 5]], "sent": "他吃完饭后睡得很好。",
             "event1": "吃", "event2": "睡得很好", "gt_answer": 0}],
    "PCD-B": [{"premise": "It rained heavily.", "hypothesis": "The streets were wet.", "gt_answer": 1},
              {"premise": "She sang a song.", "hypothesis": "The stock market fell.", "gt_answer": 0}],
    "PCD-C": _PCD_C,
    "AC-B_causal_judgement": [{"input": "How would a typical person answer: did the spark cause the fire? 100% sure", "gt_answer": "Yes"},
                              {"input": "Did Alice cause the delay?", "gt_answer": "No"}],
    "CEG-O_E-CARE": [{"cause": "The ground was covered in ice.", "effect": "He slipped and fell.",
                      "gt_answer": "Ice makes the ground slippery so people fall."},
                     {"cause": "天下大雨。", "effect": "街道被淹了。", "gt_answer": "大雨导致积水淹没街道。"}],
    "CR-C_CRASS": [{"premise": "A woman sees a fire.", "QCC": "What would have happened if the woman had fed the fire?",
                    "Answer1": "The fire would have become larger.", "Answer2": "The fire would have gone out.",
                    "Answer3": "That is not possible.", "Answer4": "The woman would have been cold.", "gt_answer": "1"},
                   {"premise": "A man drinks water.", "QCC": "What if he had drunk poison?", "Answer1": "He would be fine.",
                    "Answer2": "He would be sick.", "Answer3": "Nothing.", "Answer4": "x", "gt_answer": "2"}],
    "Natural": _NUMERIC,
    "Probability": _PROB,
    "AS": _AS,
    "CEI-B": [{"di_edges": "A->B, B->C", "bi_edges": "A<->C", "treatment": "A", "outcome": "C", "gt_answer": 0},
              {"di_edges": "X->Y", "bi_edges": "", "treatment": "X", "outcome": "Y", "gt_answer": 1}],
}

#: Prompt family → the sample table of its files.
_PROMPT_SAMPLES = {
    "CORR-B_correlation": "CLADDER", "EAE-B_exp-away": "CLADDER", "CR-B_det-counterfactual": "CLADDER",
    "BAS-B_backadj": "CLADDER", "CB-B_collider-bias": "CLADDER", "AR-B_CaLM-AR": "AR-B_CaLM-AR", "CA-B_FA": "CA-B_FA",
    "CA-B_FP": "CA-B_FP", "ECI-B_CTB": "ECI", "ECI-B_ESC": "ECI", "ECI-B_MAVEN-ERE": "ECI", "PCD-B_COPA": "PCD-B",
    "PCD-B_E-CARE": "PCD-B", "PCD-C_COPA": "PCD-C", "PCD-C_E-CARE": "PCD-C", "AC-B_causal_judgement": "AC-B_causal_judgement",
    "CEG-O_E-CARE": "CEG-O_E-CARE", "CR-C_CRASS": "CR-C_CRASS", "BAS-C_max-BAS": "AS", "BAS-C_min-BAS": "AS",
    "BAS-C_mix-BAS": "AS", "FAS-C_FAS": "AS", "IV-C_CaLM-IV": "AS", "CEI-B": "CEI-B",
}

# ---------------------------------------------------------------------------------------------
# Replies per reading rule.  ``{o1}`` … ``{o4}`` / ``{h1}``, ``{h2}`` are filled from the paired sample.

_YES_NO = [
    "Yes", "No", "yes, it does.", "not sure", "  Answer (yes or no?): yes", "answer (yes or no ?): no", "The answer is yes.",
    "The answer is no.", "I'd say the answer is no, although the answer is yes.", "Well, the answer is yes, not 'answer is no'.",
    "maybe", "", "答案（是或否？）：是", "答案（是或否？）：不是", "是的", "有", "无", "答案：否", "- Yes\n- No", "- yes",
    "Hmm, yes, X causes Y.", "因此，是，A会导致B。", "否，A不会导致B。", "A is the ancestor of C, yes.", "A 不是 C 的祖先节点",
    "Yes: B is the parent of C", "B 是 C 的父节点", "B 不是 C 的父节点", "B serves as the parent node of C", "can be identified",
    "It is not identified.", "there is a causal relationship", "there is no causal relationship", "不存在", "存在明确的因果关系",
    "method 1 is more correct", "使用方法2", "Answer (yes or no ?) yes Input Info: x", "This is 因为 yes", "答案是 yes",
    "leads to", "there is no clear causal relationship", "\"yes\"", "\"no\"", "is identified", "cannot be identified",
]
_OPTIONS_2 = [
    "Option 1", "Option 2", "选项一", "选项二", "{h1}", "{h2}", "{h1_cut}", "water flowed", "x", "The answer is option 2.",
    "I believe option 1.", "I believe option 1, but the answer is option 2", "answer is: option 2 and option 1", "",
    "The effect of the input event is that {h2_cut}", "because {h1_cut}", "Answer (option 1 or option 2) : {h2_cut}",
    "unclear", "option one", "正确答案是选项二", "the answer should be 1", "Is 2.", "Option 1 or option 2",
]
_OPTIONS_3 = [
    "Option 1", "Option 2", "Option 3", "选项一", "选项二", "选项三", "{o1}", "{o2}", "{o3}", "b", "", "option 1 or option 2",
    "option 1, option 2, option 3", "选项一、选项二、选项三", "The answer is option 3.", "answer is 2, not option 1",
    "I pick option 2 and option 3", "正确答案：选项一", "正确答案是选项二。", "正确答案应为选项三", "answer (option 1 or 2 or 3?): {o2}",
    "nothing fits", "1", "option three", "empty set", "option2 or option 3",
]
_OPTIONS_4 = [
    "Option 1", "Option 2", "Option 3", "Option 4", "选项一", "选项二", "选项三", "选项四", "{o1}", "{o2}", "{o3}", "{o4}",
    "the fire would", "", "选项一或选项二", "选项一选项二选项三选项四", "The answer is option 4.", "option 1 then option 2",
    "answer is 3 but option 4", "nothing fits", "4", "answer (option 1 or 2 or 3 or 4?): {o3}", "option four", "he would be",
]
_JSON_ANSWER = [
    '{"answer": "Yes", "prob": "0.1234"}', '{"ANSWER":"No","PROB":"0.2"}', 'Result: {{"answer": "yes"}}', "{answer: no, prob: 0.3}",
    "{'answer': 'yes'}", "{“answer”: “no”}", "yes", '{"answer": true}', '{"x": 1} then {"answer": "no"}', '{"answer": "是"}',
    "", '{"answer": "yes"', "{{{\"answer\": \"no\"}}}", '{"answer": "yes"} trailing', "{bad json}", '{"answer": " No "}',
    "{'ANSWER': 'Yes', 'PROB': '0.5'}",
]
_JSON_PROB = [
    '{"prob": "0.1234"}', '{"PROB": 0.1234}', '{"prob": 0.56789}', '{"prob": "0.5679"}', '{"prob": 0}', '{"prob": "0"}',
    '{"prob": "abc"}', "{prob: 0.1234}", "{'prob': '0.56789'}", 'The value is {"prob": "0.12344"}.', "0.1234", "",
    '{"answer": "yes", "prob": "0.1234"}', '{"a": 1} {"prob": "0.1234"}', "{{\"prob\": \"0.56789\"}}", '{"prob": null}',
    '{"prob": "1e-1"}',
]
_OPEN = ["Ice makes the ground slippery so people fall.", "the ground is slippery", "大雨导致积水", "", "...",
         "Ice makes ground slippery. People fall on slippery ground.", "随便说说", "Because of ice"]

#: Reading rule → replies.
REPLIES = {"CLADDER": _YES_NO, "AR-B_CaLM-AR": _YES_NO, "CA-B_FA": _YES_NO, "CA-B_FP": _YES_NO, "ECI": _YES_NO,
           "PCD-B": _YES_NO, "AC-B_causal_judgement": _YES_NO, "CEI-B": _YES_NO, "PCD-C": _OPTIONS_2, "AS": _OPTIONS_3,
           "CR-C_CRASS": _OPTIONS_4, "Natural": _JSON_ANSWER, "Probability": _JSON_PROB, "CEG-O_E-CARE": _OPEN}


def _fill(reply: str, item: dict[str, Any], rule: str) -> str:
    if rule not in ("PCD-C", "AS", "CR-C_CRASS"):
        return reply
    values = {}
    for i in (1, 2, 3, 4):
        text = str(item.get(f"option{i}", item.get(f"Answer{i}", item.get(f"hypothesis{i}", ""))))
        values[f"o{i}"] = values[f"h{i}"] = text
        values[f"h{i}_cut"] = values[f"o{i}_cut"] = text.strip().lower()[:-1]
    return reply.format(**values)


# ---------------------------------------------------------------------------------------------
# Tables written for assay.

_COMMON = ("common_true_list", "common_false_list", "common_option_1_list", "common_option_2_list", "common_option_3_list",
           "common_option_4_list", "common_start_true_dict", "common_start_false_dict", "common_start_op1_dict",
           "common_start_op2_dict", "common_start_op3_dict", "common_start_op4_dict")
#: The reading rules' sample-dependent list entries, by their source text, under assay's names.
_ARGS = {
    "hypothesis1[:len1 - 1]": "opt1_cut", "hypothesis2[:len2 - 1]": "opt2_cut", "hypothesis2[:len1 - 1]": "opt2_cut_len1",
    "{hypothesis1[:len1 - 1]}": "opt1_cut_set", "{hypothesis2[:len2 - 1]}": "opt2_cut_set", "ask_for": "ask_for",
    "hypothesis1": "opt1", "hypothesis2": "opt2",
    **{f"Answer{i}[:-1]": f"opt{i}_cut" for i in range(1, 5)}, **{f"{{Answer{i}[:-1]}}": f"opt{i}_cut_set" for i in range(1, 5)},
}


def _entry(node: ast.expr) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return {"fmt": node.func.value.value, "args": [_ARGS[ast.unparse(a)] for a in node.args]}  # type: ignore[attr-defined]
    return {"fmt": "{}", "args": [_ARGS[ast.unparse(node)]]}


def _inner_lists(module: Any) -> dict[str, Any]:
    """A reading rule's ``inner_option<N>_list`` assignments: its own entries and the shared list it appends."""
    tree = ast.parse(inspect.getsource(module.get_pred_label))
    out: dict[str, Any] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id.startswith("inner_option"):
            value = node.value
            if isinstance(value, ast.Name):
                own, shared = [], value.id
            elif isinstance(value, ast.BinOp):
                own, shared = value.left.elts, value.right.id  # type: ignore[attr-defined]
            else:
                own, shared = value.elts, None  # type: ignore[attr-defined]
            out[node.targets[0].id] = {"own": [_entry(e) for e in own], "shared": shared}
    return out


def write_tables() -> None:
    prompts: dict[str, dict[str, str]] = {}
    for name in sorted(_PROMPT_NAMES):
        module = importlib.import_module(f"opencompass.datasets.calm.data_processing.prompt.{name}")
        prompts[name] = {style: module.base_prompt_dict[style] for style in STYLES}
    (REPO / "src" / "assay" / "datasets" / "calm_prompts.json").write_text(
        json.dumps(prompts, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    common = importlib.import_module("opencompass.datasets.calm.evaluation.labeling.common_answers")
    answers: dict[str, Any] = {}
    for name in _COMMON:
        value = getattr(common, name)
        answers[name] = [[k, v] for k, v in value.items()] if isinstance(value, dict) else value
    rules = {}
    for rule in sorted(REPLIES):
        module = importlib.import_module(f"opencompass.datasets.calm.evaluation.labeling.{rule}")
        lists = _inner_lists(module)
        if lists:
            rules[rule] = lists
    answers["rules"] = rules
    answers["errors"] = {name: _error_phrases(name) for name in _ERROR_MODULES}
    (REPO / "src" / "assay" / "evaluators" / "calm_answers.json").write_text(
        json.dumps(answers, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


_PROMPT_NAMES: set[str] = set()
_ERROR_MODULES = ("AC-B_causal_judgement", "AR-B_CaLM-AR", "AS", "CA-B", "CEI-B", "CLADDER", "CR-C_CRASS", "ECI", "Natural",
                  "PCD-B", "PCD-C", "Probability")


def _error_phrases(name: str) -> dict[str, Any]:
    """An error-analysis module's phrases: the starts of a standard answer (``None`` where the module checks JSON) and
    the prompt phrases that mark a repetition."""
    module = importlib.import_module(f"opencompass.datasets.calm.evaluation.error.basic_adversarial.{name}")
    standard = None
    for node in ast.walk(ast.parse(inspect.getsource(module.check_standalization))):
        if isinstance(node, ast.Tuple):
            standard = [e.value for e in node.elts]  # type: ignore[attr-defined]
            break
    repetition = next(node for node in ast.walk(ast.parse(inspect.getsource(module.check_repetition)))
                      if isinstance(node, ast.List))
    return {"standard": standard, "repetition": [e.value for e in repetition.elts]}  # type: ignore[attr-defined]


def _prompt_module(task: str) -> str:
    from opencompass.datasets.calm.data_processing import generate_questions

    module = generate_questions.get_get_prompt_func(task).__module__
    return module.rsplit(".", 1)[1]


def _rule(task: str) -> str:
    from opencompass.datasets.calm.evaluation import core_metrics

    get_gt, _, _ = core_metrics.initialize_core_metric_evaluation_components(task)
    return get_gt.__module__.rsplit(".", 1)[1]


def _samples(task: str, prompt_module: str) -> list[dict[str, Any]]:
    rule = _rule(task)
    if rule in ("Natural", "Probability"):
        return SAMPLES[rule]
    return SAMPLES[_PROMPT_SAMPLES[prompt_module]]


#: Reply lengths (words) around the ``rouge`` package's overflow under OpenCompass's eval task.
ROUGE_LENGTHS = list(range(982, 989))


def record_rouge_depth(config: Any) -> None:
    """Score replies of :data:`ROUGE_LENGTHS` words with OpenCompass's eval task run as its runners run it."""
    import tempfile

    from _oc_recording import eval_task_as_opencompass_runs_it, write_json

    ds = next(d for d in config["calm_datasets"] if d["eval_cfg"]["evaluator"]["task"] == "CEG-O_E-CARE_EN").to_dict()
    scratch = Path(tempfile.mkdtemp(prefix="record_oc_calm_"))
    try:
        rows = [{"cause": "c", "effect": "e", "gt_answer": " ".join(["w"] * n)} for n in ROUGE_LENGTHS]
        data = scratch / ds["path"]
        data.parent.mkdir(parents=True, exist_ok=True)
        data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        work_dir = scratch / "run"
        predictions = {str(i): {"prediction": r["gt_answer"], "gold": r} for i, r in enumerate(rows)}
        write_json(work_dir / "predictions" / "m" / f"{ds['abbr']}.json", predictions)
        config = {"models": [{"abbr": "m", "path": "org/model"}], "datasets": [[ds]], "work_dir": str(work_dir)}
        result, depth = eval_task_as_opencompass_runs_it(config, scratch / "task", cwd=scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    # every reply scores 1 (its reference's recall) or 0 (the walk overflowed), the short ones first
    scored = round(result["Accuracy"] * len(rows))
    write_json(FIXTURES / "expected" / "rouge_depth.json", {
        "task": "CEG-O_E-CARE_EN", "score_depth": depth, "lengths": ROUGE_LENGTHS, "result": result,
        "longest_scored": ROUGE_LENGTHS[scored - 1], "shortest_failing": ROUGE_LENGTHS[scored],
    })


def main() -> None:
    from mmengine.config import Config
    from opencompass.datasets.calm.evaluation import errors
    from opencompass.datasets.calm.evaluation.core_metrics import initialize_core_metric_evaluation_components

    import opencompass

    library = Path(opencompass.__file__).parent / "configs" / "datasets" / "calm" / "calm.py"
    config = Config.fromfile(str(library))
    hierarchy = config["task_hiearchy_dict"]
    for task in hierarchy:
        _PROMPT_NAMES.add(_prompt_module(task))
    if "--rouge-depth-only" in sys.argv:
        record_rouge_depth(config)
        return
    write_tables()
    shutil.rmtree(CACHE, ignore_errors=True)
    for task, folder in hierarchy.items():
        target = CACHE / "data" / "calm" / folder / f"{task}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        lines = [json.dumps(s, ensure_ascii=False) for s in _samples(task, _prompt_module(task))]
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out: dict[str, Any] = {}
    old = os.getcwd()
    os.chdir(CACHE)
    try:
        for cfg in config["calm_datasets"]:
            cfg = dict(cfg)
            task = cfg["eval_cfg"]["evaluator"]["task"]
            rows = cfg["type"].load(path=cfg["path"], prompt_style=cfg["prompt_style"]).to_list()
            rule = _rule(task)
            refs = [r["gt_item"] for r in rows]
            replies = REPLIES[rule]
            paired = [refs[i % len(refs)] for i in range(len(replies))]
            predictions = [_fill(r, ref, rule) for r, ref in zip(replies, paired)]
            evaluator_cfg = {k: v for k, v in cfg["eval_cfg"]["evaluator"].items() if k != "type"}
            evaluator = cfg["eval_cfg"]["evaluator"]["type"](**evaluator_cfg)
            with contextlib.redirect_stdout(io.StringIO()):
                metrics = evaluator.score(predictions, paired)
                uniform = evaluator.score([predictions[0]] * len(refs), refs)
            _, get_pred, _ = initialize_core_metric_evaluation_components(task)
            style = cfg["prompt_style"]
            labels = [get_pred(p, g, style, task.split("-")[0]) for p, g in zip(predictions, paired)]
            flags = None
            if not task.startswith("CEG-O"):
                module = errors.initialize_error_identification_components(task, style)
                flags = [errors.get_item_error(p, task, module, style) for p in predictions]
            out[cfg["abbr"]] = {
                "task": task, "rule": rule, "args": {"path": cfg["path"], "prompt_style": style}, "rows": rows,
                "predictions": predictions, "references": paired, "labels": labels, "errors": flags, "metrics": metrics,
                "uniform": {"prediction": predictions[0], "metrics": uniform},
            }
    finally:
        os.chdir(old)
    target = FIXTURES / "expected" / "calm.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(out, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(out)} datasets recorded")
    record_rouge_depth(config)


if __name__ == "__main__":
    main()
