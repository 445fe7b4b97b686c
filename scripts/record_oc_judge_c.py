"""Record what OpenCompass 0.5.4 computes for the rubric- and verdict-judged families CL-bench, AA-LCR,
AdvancedIF, Inverse IFEval and ATLAS.

Run it with a Python that has ``opencompass==0.5.4`` installed; OpenCompass is
not a dependency of assay::

    python scripts/record_oc_judge_c.py [--only CASE ...]

The families: CL-bench and CL-bench-Life (``CLBenchDataset``,
``clbench_pred_postprocess``, ``clbench_llmjudge_postprocess``), AA-LCR
(``AALCRDataset``, ``aa_lcr_llmjudge_postprocess``), AdvancedIF
(``AdvancedIFDataset``, ``advancedif_rubric_postprocess``) and Inverse IFEval
(``InverseIFEvalDataset``, ``InverseIFEvalJudgePromptTemplate``,
``inverse_ifeval_judge_postprocess``) and ATLAS (``ATLASDataset``, ``atlas_pred_postprocess``,
``ATLASLLMEvaluator``, ``atlas_judge_postprocess``; four runs per question, the judges' URLs
replaced by the local server's).

The script writes small data files in OpenCompass's layouts under
``tests/data/oc_families/judge_c/cache`` (the working folder: each Hugging Face
dataset as a local folder named like it, ``tencent/CL-bench`` and the others)
and prediction files under ``predictions/``, then runs each case (a config
importing one of OpenCompass's library configs unchanged, ``CASES``) with the
recording code of ``scripts/record_oc_judge_b.py``: OpenCompass's own
``OpenICLEvalTask`` (loader, evaluator, dict postprocessor, details dumped), the
judge being the ``OC_JUDGE_*`` one, pointed at a local OpenAI-compatible server
(``tests/judge/fake_server.py``) that logs every request and answers it with a
canned reply of the family (the sample's ``item N`` picks one of ``REPLIES``).
``expected/<case>.json`` receives the config text, the request bodies as sent,
the result files and, per dataset, the rows OpenCompass's loader returns.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import shutil
import sys
import zipfile
from pathlib import Path
from typing import Any

from _oc_recording import offline_judge_recording, record_in_children, write_json, write_jsonl, write_prediction_file

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "judge_c"
CACHE = FIXTURES / "cache"
MODEL = "oc-model"

_HEAD = "from mmengine.config import read_base\n\nwith read_base():\n    from opencompass.configs.datasets.{module} import {variable}\n\n"
_MODELS = f"\nmodels = [dict(abbr={MODEL!r}, path='org/model')]\n"


def _case(module: str, variable: str) -> str:
    return _HEAD.format(module=module, variable=variable) + f"datasets = {variable}\n" + _MODELS


_JUDGE_CFG = """datasets = []
for d in inverse_ifeval_datasets:
    evaluator = dict(d['eval_cfg']['evaluator'], judge_cfg=dict())
    datasets.append(dict(d, eval_cfg=dict(d['eval_cfg'], evaluator=evaluator)))
"""

#: case id → (config text, kind, reply family), as ``record_oc_judge_b.CASES``
CASES: dict[str, tuple[str, str, str]] = {
    "clbench_llmjudge_rawprompt_gen_84a8f0": (_case("CLBench.clbench_llmjudge_rawprompt_gen_84a8f0", "clbench_datasets"),
                                              "eval", "clbench"),
    "clbench_life_llmjudge_rawprompt_gen_84a8f0": (_case("CLBench.clbench_life_llmjudge_rawprompt_gen_84a8f0",
                                                         "clbench_life_datasets"), "eval", "clbench"),
    "aa_lcr_gen": (_case("aa_lcr.aa_lcr_gen", "aa_lcr_datasets"), "eval", "aa_lcr"),
    "advancedIF_rawprompt_gen": (_case("advancedIF.advancedIF_rawprompt_gen", "advancedif_datasets"), "eval", "advancedif"),
    # OpenCompass 0.5.4's GenericLLMEvaluator requires judge_cfg, which the library's Inverse IFEval config lacks (a
    # TypeError): one thing changed, an empty judge_cfg (the OC_JUDGE_* judge)
    "InverseIFEval_rawprompt_gen": (_case("InverseIFEval.InverseIFEval_rawprompt_gen", "inverse_ifeval_datasets").replace(
        "datasets = inverse_ifeval_datasets\n", _JUDGE_CFG), "eval", "inverse_ifeval"),
}

# ATLAS's judges are listed in its config with a placeholder server: one thing changed, each judge's URL
_ATLAS_URLS = """datasets = []
for d in atlas_datasets:
    ev = d['eval_cfg']['evaluator']
    judgers = [dict(j, openai_api_base='{JUDGE_BASE}') for j in ev['judge_cfg']['judgers']]
    evaluator = dict(ev, judge_cfg=dict(ev['judge_cfg'], judgers=judgers))
    datasets.append(dict(d, eval_cfg=dict(d['eval_cfg'], evaluator=evaluator)))
"""
for _name in ("atlas_val_gen_b2d1b6", "atlas_val_rawprompt_gen_277bee"):
    CASES[_name] = (_case(f"atlas.{_name}", "atlas_datasets").replace("datasets = atlas_datasets\n", _ATLAS_URLS), "eval", "atlas")

#: per reply family, the judge's canned replies: sample ``item N`` gets ``REPLIES[family][N % len]``
REPLIES: dict[str, list[str]] = {
    "clbench": ['{"Grading Rationale": "ok", "List of Requirement Satisfaction Status": ["yes"], "Overall Score": 1}',
                '```json\n{"Grading Rationale": "missing", "Overall Score": 0}\n```',
                "【Overall Score】: 1 points", '"Overall Score": 1 and more text', "no score at all", "",
                '{"Overall Score": "one"}', "I would give 0 points here, not 1 point", '{"Overall Score": 2}',
                '```\n{"Overall Score": "1"}\n```', "Overall Score: 1"],
    "aa_lcr": ["CORRECT", "INCORRECT", "correct.", "The answer is not correct", "", "Incorrect, not CORRECT", "CORRECTLY",
               "  Correct  "],
    "advancedif": ['{"rubrics_check": {"question_1": "Yes", "question_2": "yes, mostly"}, "SATISFIED_ALL_REQUIREMENTS": "YES"}',
                   '{"rubrics_check": {"question_1": "No", "question_2": "Yes"}, "SATISFIED_ALL_REQUIREMENTS": "NO"}',
                   'Here: {"rubrics_check": {"q1": "YES"}, "SATISFIED_ALL_REQUIREMENTS": "Yes"} done',
                   '{"rubrics_check": {"q1": "Yes", "q2": 1}, "SATISFIED_ALL_REQUIREMENTS": "maybe"}',
                   'broken {"SATISFIED_ALL_REQUIREMENTS": "yes", "rubrics_check": {"q": "yes"}',
                   "", "no json here", '{"rubrics_check": [], "SATISFIED_ALL_REQUIREMENTS": "NO"} and {"x": 1}'],
    "atlas": ['```json\n{"judgements": [{"label": "A", "explanation": "matches"}]}\n```',
              '```json\n{"judgements": [{"label": "A", "explanation": "x"}, {"label": "B", "explanation": "y"}]}\n```',
              '<think>draft</think>```\n{"judgements": [{"label": "A", "explanation": "c:\\path"}]}\n```',
              'The verdict: "judgements": [{"label": "A", "explanation": "ok"}]}',
              'finally "label": "A", "explanation": "ok"', '', "I cannot grade this.", '```json\n[{"label": "A"}]\n```',
              '```json\n{"judgements": {"label": "A", "explanation": "one"}}\n```', '```json\n{"verdict": "A"}\n```',
              '```json\n{"judgements": [{"label": "C", "explanation": "refusal"}]}\n```'],
    "inverse_ifeval": ['```json\n{"answer_score": 1}\n```', '{"reason": "bad", "answer_score": 0}', '"answer_score": "1"',
                       "【评分】：1分", "评分: 0 分", "", "answer_score: 1", '```json\n{"answer_score": 2}\n```',
                       "I cannot decide", '{"answer_score": "0"}'],
}


# -- fixtures -----------------------------------------------------------------------------------

def _clbench(life: bool) -> list[dict[str, Any]]:
    rows = []
    categories = ["Domain Knowledge", "Rule System", "Procedural Task"]
    for i in range(7 if life else 9):
        system = {"role": "system", "content": f"You read the context of task {i} and follow its rules {{strictly}}."}
        user = {"role": "user", "content": f"item {i}: Context: rule {i} says answer in {i + 1} words. Question: what now?"}
        messages = [system, user] if i % 3 else [system, user, {"role": "assistant", "content": "Earlier reply."},
                                                 {"role": "user", "content": "And again, shorter."}]
        if life:  # rubric objects, task id and category inside the metadata
            rubrics = [{"rubric_criteria": f"item {i}: the reply has {i + 1} words"}, {"rubric_criteria": "  "},
                       {"rubric_criteria": "It cites rule {prediction}."}] if i % 4 else []
            rows.append({"messages": messages, "rubrics": rubrics,
                         "metadata": {"task_id": f"life-{i}", "context_category": categories[i % 3] if i != 5 else None}})
        else:  # rubric strings, task id and category as columns
            rubrics = [f"item {i}: the reply has {i + 1} words", "It is polite."] if i % 5 else ["", "  "]
            rows.append({"messages": messages, "rubrics": rubrics, "task_id": f"cl-{i}",
                         "context_category": categories[i % 3], "metadata": {"task_id": "unused", "context_category": "unused"}})
    return rows


def _clbench_predictions(life: bool) -> list[str]:
    answers = ["Four short words here.   \n", "", "A reply {rubrics_text} with braces.", "  Leading spaces kept.\n\n",
               "Two words", "x" * 40, "Rule cited: rule 6.", "Answer.", "Final."]
    return answers[: 7 if life else 9]


AA_LCR = [
    ("Company Reports", "set-a", ["report one.txt", "report two.txt"], "item 0: What was the 2023 revenue of firm A?", "$12M; 12 million"),
    ("Legal", "set-b", ["brief.txt"], "item 1: Which court heard the appeal?", "The Court of Appeal"),
    ("Company Reports", "set-a", ["report two.txt"], "item 2: Who is the CEO of firm B?", "Jane Roe"),
    ("Academia", "set-c", ["paper é.txt", "notes.txt"], "item 3: How many participants took part?", "48"),
    ("Legal", "set-b", ["brief.txt", "ruling.txt"], "item 4: What was the ruling {date}?", "Dismissed;  "),
    ("Government Consultations", "set-d", ["consultation.txt"], "item 5: When does the consultation close?", "31 March"),
    ("Academia", "set-c", ["notes.txt"], "item 6: Which method did the authors use?", "Bootstrap"),
    ("Company Reports", "set-a", ["report one.txt"], "item 7: What was the net margin?", "8%"),
]
AA_LCR_PREDICTIONS = ["12 million dollars", "The Supreme Court", "Jane Roe", "", "It was dismissed {answer}", "31 March 2025",
                      "bootstrap resampling", "about 8 percent"]

ADVANCEDIF = [
    ("complex_if_single_turn_v5",
     [{"role": "user", "content": "item 0: Write a haiku about rain, all lowercase."}],
     {"rubrics": '["Is it a haiku?", "Is it all lowercase?"]'}),
    ("carried_context_multi_turn_eval_v5",
     [{"role": "user", "content": "Let us plan a trip."}, {"role": "assistant", "content": "Sure, where to?"},
      {"role": "user", "content": "item 1: To Rome, in three bullet points."}],
     {"rubrics": '["Three bullet points?", "About Rome?"]'}),
    ("system_steerability_v2",
     [{"role": "system", "content": "You are Max, a terse assistant."}, {"role": "user", "content": "item 2: Who are you?"}],
     {"rubrics": '["Does it stay as Max?"]'}),
    ("complex_if_single_turn_v5",
     [{"role": "user", "content": "item 3: List {three} colours, comma separated."}],
     "not json"),
    ("carried_context_multi_turn_eval_v5",
     [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi."}, {"role": "assistant", "content": "Hello."},
      {"role": "user", "content": "item 4: Now count to three."}, {"role": "assistant", "content": "1 2 3"}],
     {"rubrics": '["Counts to three?"]'}),
    ("system_steerability_v2",
     [{"role": "system", "content": "Answer in French only."}, {"role": "user", "content": "item 5: What is the time?"}],
     {"other": "no rubrics"}),
    ("system_steerability_v2",
     [{"role": "assistant", "content": "I start."}, {"role": "user", "content": "item 6: Continue."}],
     ""),
    ("complex_if_single_turn_v5",
     [{"role": "user", "content": "item 7: Reply with one word."}],
     {"rubrics": '["One word?"]'}),
]
ADVANCEDIF_PREDICTIONS = ["rain falls soft\non quiet roofs\nthe day sleeps", "- Colosseum\n- Vatican\n- Trevi", "I am Max.",
                          "red, green, blue", "one two three", "Il est midi.", "Continuing {prediction}", "Yes"]

_IIF_TYPES = ["Question Correction", "Intentional Textual Flaws", "Code without Comments", "Counter-Conventional Formatting",
              "Deliberately Incorrect Answers", "Instructional Induction", "Mid-turn Instruction Modification",
              "Counterfactual Answering"]
_IIF_TEMPLATE = "<题目>：\n{prompt}\n\n<参考答案>：\n{response_reference}\n\n<学生答案>：\n{response}\n\n请以 JSON 给出 answer_score。"


def _inverse_ifeval() -> list[dict[str, Any]]:
    rows = []
    n = 0
    for language in ("chinese", "english"):
        for t, kind in enumerate(_IIF_TYPES):
            for extra in range(2 if t in (0, 4) else 1):
                template = "" if n % 5 == 3 else _IIF_TEMPLATE + (" {language} {missing}" if n % 4 == 1 else "")
                rows.append({"id": n, "prompt": f"item {n}: ({language}) instruction of kind {kind} #{extra}",
                             "response_reference": f"reference {n}", "language": language, "instruction_types": kind,
                             "judge_prompt_template": template,
                             "judge_system_prompt": "" if n % 6 == 2 else f"You grade answers of kind {kind}."})
                n += 1
    rows.append({"id": n, "prompt": f"item {n}: another language", "response_reference": "r", "language": "french",
                 "instruction_types": _IIF_TYPES[0], "judge_prompt_template": _IIF_TEMPLATE, "judge_system_prompt": "s"})
    return rows


ATLAS = [("Compute the band gap of {material} A in eV.", "1.1"), ("Give the two roots of x^2 - 5x + 6.", "2; 3"),
         ("Name the product of the reaction.", None), ("What is the order of the group Z/6?", "6"),
         ("Find k for the rate law.", "0.05 s^-1")]


def _atlas_prediction(run: int, i: int) -> str:
    """A reply of run ``run`` to question ``i``: its ``item N`` (which picks the judge's canned reply) differs per run."""
    n = run * len(ATLAS) + i
    forms = [f'Reasoning...\n```json\n{{"answers": ["item {n}: answer"]}}\n```',
             f'<think>long</think>```\n{{"answers": ["item {n}", "3"]}}\n```',
             f'The final: "answers": ["item {n} \\frac{{1}}{{2}}"]}}',
             f"item {n}: no JSON at all", ""]
    return forms[(run + i) % len(forms)]


def _pred_file(name: str, questions: list[Any], answers: list[str]) -> None:
    write_prediction_file(FIXTURES / "predictions" / MODEL / f"{name}.json", questions, answers)


def write_fixtures() -> None:
    """The data files (in the layouts OpenCompass's loaders read) and the prediction files of the cases."""
    shutil.rmtree(FIXTURES / "predictions", ignore_errors=True)
    for life, repo, abbr in ((False, "tencent/CL-bench", "clbench"), (True, "tencent/CL-bench-Life", "clbench-life")):
        rows = _clbench(life)
        write_jsonl(CACHE / repo / "train.jsonl", rows)
        _pred_file(abbr, [r["messages"] for r in rows], _clbench_predictions(life))

    folder = CACHE / "ArtificialAnalysis" / "AA-LCR"
    (folder / "extracted_text").mkdir(parents=True, exist_ok=True)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["", "document_category", "document_set_id", "question_id", "question", "answer", "data_source_filenames",
                     "data_source_urls", "input_tokens"])
    docs: dict[str, str] = {}
    for i, (category, set_id, files, question, answer) in enumerate(AA_LCR):
        writer.writerow([i, category, set_id, 100 + i, question, answer, "; ".join(files) + ";",
                         ";".join(f"https://example.org/{f}" for f in files) if i % 3 else "", 1000 * (i + 1)])
        for name in files:
            docs[f"lcr/{category}/{set_id}/{name}"] = f"Text of {name} in {set_id}: figures {{x}} and facts for {category}."
    (folder / "AA-LCR_Dataset.csv").write_text(buf.getvalue(), encoding="utf-8")
    with zipfile.ZipFile(folder / "extracted_text" / "AA-LCR_extracted-text.zip", "w") as archive:
        for name, text in sorted(docs.items()):  # a fixed time: the same bytes on every run
            archive.writestr(zipfile.ZipInfo(name, date_time=(2025, 1, 1, 0, 0, 0)), text)
    _pred_file("AA-LCR", [q for *_, q, _ in AA_LCR], AA_LCR_PREDICTIONS)

    rows = []
    for name, history, metadata in ADVANCEDIF:
        rows.append({"benchmark_name": name, "conversation_history": json.dumps(history, ensure_ascii=False),
                     "prompt_metadata": json.dumps(metadata) if isinstance(metadata, dict) else metadata})
    write_jsonl(CACHE / "facebook" / "AdvancedIF" / "train.jsonl", rows)
    for abbr, subset in (("advancedIF_CIF", "complex_if_single_turn_v5"), ("advancedIF_CC", "carried_context_multi_turn_eval_v5"),
                         ("advancedIF_SS", "system_steerability_v2")):
        picked = [(h, p) for (n, h, _), p in zip(ADVANCEDIF, ADVANCEDIF_PREDICTIONS) if n == subset]
        _pred_file(abbr, [h for h, _ in picked], [p for _, p in picked])

    atlas_rows = [{"question": q, "refined_standard_answer": a, "subject": "physics"} for q, a in ATLAS]
    write_jsonl(CACHE / "opencompass" / "ATLAS" / "data" / "val.jsonl", atlas_rows)
    (CACHE / "opencompass" / "ATLAS" / "README.md").write_text(  # the Hub dataset's split is named val
        "---\nconfigs:\n- config_name: default\n  data_files:\n  - split: val\n    path: data/val.jsonl\n---\n", encoding="utf-8")
    _pred_file("atlas-val", [q for _ in range(4) for q, _ in ATLAS],
               [_atlas_prediction(run, i) for run in range(4) for i in range(len(ATLAS))])

    rows = _inverse_ifeval()
    write_jsonl(CACHE / "m-a-p" / "Inverse_IFEval" / "train.jsonl", rows)
    abbrs = {"Question Correction": "QC", "Intentional Textual Flaws": "ITF", "Code without Comments": "CC",
             "Counter-Conventional Formatting": "CCF", "Deliberately Incorrect Answers": "DIA", "Instructional Induction": "II",
             "Mid-turn Instruction Modification": "MIM", "Counterfactual Answering": "CA"}
    for language, short in (("chinese", "zh"), ("english", "en")):
        for kind, abbr in abbrs.items():
            picked = [r for r in rows if r["language"] == language and r["instruction_types"] == kind]
            _pred_file(f"InverseIFEval_{short}_{abbr}", [r["prompt"] for r in picked],
                       [f"answer {r['id']}" + (" {response_reference}" if r["id"] % 7 == 0 else "") for r in picked])


# -- recording --------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="case ids to record (default: all)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(REPO / "scripts"))
    import record_oc_judge_b as judge

    scratch = offline_judge_recording("record_oc_judge_c_", CACHE)
    if args.child:
        os.chdir(CACHE)
        judge.FIXTURES, judge.CASES, judge.REPLIES = FIXTURES, CASES, REPLIES  # judge_b's recording code, on these cases
        record = judge._run_case(args.child, scratch / "work")
        write_json(FIXTURES / "expected" / f"{args.child}.json", record, sort_keys=True)
        return
    write_fixtures()
    record_in_children(__file__, args.only or CASES)


if __name__ == "__main__":
    main()
