"""Record what OpenCompass 0.5.4 computes for LongBench, LongBench v2 and LV-Eval.

Run with a Python that has ``opencompass==0.5.4`` installed (with jieba, fuzzywuzzy, rouge and
``datasets`` < 4, which still runs a dataset folder's loading script)::

    python scripts/record_oc_longbench.py

It writes small data in OpenCompass's local layout under ``tests/data/oc_families/longbench/cache``
(the working directory and ``$COMPASS_DATA_CACHE`` of the run): LongBench's subsets as
``data/Longbench/data/<name>.jsonl`` with a loading script of this project's own beside them
(OpenCompass hands the folder to ``datasets.load_dataset``), LongBench v2's
``data/longbenchv2/data.json``, and LV-Eval's ``Infinigence/LVEval/<task>/<task>_<length>.jsonl``
(its subsets declared in the folder's ``README.md``); and prediction files under ``predictions/`` (replies right, wrong,
partial, empty, unicode; summaries too long for the ``rouge`` package's recursive walk).  Then, for
each case — a library config imported unchanged — OpenCompass's own eval task
(``OpenICLEvalTask``: loader, postprocessors, evaluator) scores them, and ``expected/<case>.json``
keeps per dataset the result, the predictions and references the evaluator received, and the
stack depth at which the evaluator's ``score`` ran; ``expected/vectors.json`` keeps the text measures
(the ``rouge`` package's ROUGE-L, ``fuzzywuzzy``'s ratio, the normalizers, each evaluator) on seeded
random inputs.  Finally OpenCompass's ``DefaultSummarizer``
renders the results with ``configs/summarizers/longbench.py`` and ``lveval.py``, and with the
LongBench summary groups of ``configs/summarizers/groups/longbench.py`` (``expected/summary_<name>.csv``).
Last, ``gov_report`` summaries of 984–990 words, each its own reference, are scored by the eval task run
as OpenCompass's runners run it (``python opencompass/tasks/openicl_eval.py <config>``, a process of its
own): ``expected/rouge_depth.json`` keeps where the ``rouge`` package's recursive walk overflows there
and the depth of the evaluator's ``score`` (``--rouge-depth-only`` records just that).
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from _oc_recording import library_datasets, traceback_tail, use_data_cache, write_json, write_jsonl

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "longbench"
CACHE = FIXTURES / "cache"
RUN = "20250101_000000"
MODEL = "oc-model"

CASES = {
    "longbench": ("longbench/longbench.py", "longbench_datasets"),
    "longbench_rawprompt": ("longbench/longbench_rawprompt.py", "longbench_rawprompt_datasets"),
    "longbenchv2_gen": ("longbenchv2/longbenchv2_gen.py", "LongBenchv2_datasets"),
    "longbenchv2_rawprompt_gen_0903e0": ("longbenchv2/longbenchv2_rawprompt_gen_0903e0.py", "LongBenchv2_datasets"),
    "lveval": ("lveval/lveval.py", "LVEval_datasets"),
}
SUMMARIZERS = {"longbench": "summarizers/longbench.py", "lveval": "summarizers/lveval.py"}
#: OpenCompass's LongBench groups (which ``summarizers/longbench.py`` does not import), shown with these rows
LONGBENCH_GROUP_ROWS = ["longbench", "longbench_zh", "longbench_en", "longbench_single-document-qa", "longbench_multi-document-qa",
                        "longbench_summarization", "longbench_few-shot-learning", "longbench_synthetic-tasks",
                        "longbench_code-completion", "LongBench_trec"]

LOADING_SCRIPT = '''"""Reads {what} from this folder ({layout})."""
import json
import os

import datasets


class Subsets(datasets.GeneratorBasedBuilder):
    BUILDER_CONFIGS = [datasets.BuilderConfig(name=n) for n in {names!r}]

    def _info(self):
        return datasets.DatasetInfo()

    def _split_generators(self, dl_manager):
        root = self.base_path
        return [datasets.SplitGenerator(name=datasets.Split.TEST, gen_kwargs={{"file": os.path.join(root, {place})}})]

    def _generate_examples(self, file):
        with open(file, encoding="utf-8") as handle:
            for number, line in enumerate(handle):
                yield number, json.loads(line)
'''

# -- the data ------------------------------------------------------------------------------------

# one sentence each: the rouge package's recursive walk takes one frame per word; under OpenCompass's
# eval task 988 words overflow the recursion limit (the sample scores 0) and 985 do not (the boundary,
# 987/988 as its runners run the task, is recorded by ``record_rouge_depth``)
LONG = " ".join(f"word{i}" for i in range(988))
LONGISH = " ".join(f"word{i}" for i in range(985))

EN_QA = [("Paris", ["Paris", "City of Paris"]), ("The answer is London", ["Paris"]), ("It is the City of Paris, France.", ["City of Paris"]),
         ("", ["Berlin"]), ("Pàris — 巴黎 ünïcode", ["Pàris"]), ("\n\nParis\nQuestion: next", ["Paris"])]
ZH_QA = [("北京是中国的首都", ["北京"]), ("上海", ["北京"]), ("答案：北京市，中国。", ["北京市"]), ("", ["广州"]), ("Beijing 北京 ünï", ["北京", "Beijing"])]
EN_SUM = [("The report says budgets grew. Costs fell.", ["The report says budgets grew and costs fell."]),
          ("Nothing relevant here", ["The committee approved the plan."]), ("", ["A summary."]), ("...", ["Dots only."]),
          (LONG, [LONG]), (LONGISH, [LONGISH]), ("Tom will come at 5. He brings cake", ["Tom will come at 5 with cake."])]
ZH_SUM = [("会议讨论了预算问题，决定增加投入。", ["会议讨论了预算问题。"]), ("天气很好", ["会议决定推迟项目。"]), ("", ["总结。"]),
          ("项目 进度 正常 ünï", ["项目进度正常，团队继续推进。", "进度正常"])]
TREC = [("Abbreviation", "Abbreviation"), ("Entity or Description", "Description"), ("\nHuman being\nmore", "Human being"),
        ("", "Location"), ("Numeric value and Location", "Numeric value"), ("Manner of an action", "Manner of an action")]
TREC_CLASSES = ["Abbreviation", "Entity", "Description", "Description of something", "Manner of an action", "Human being",
                "Human", "Location", "Numeric value", "Manner"]
LSHT = [("体育", "体育"), ("财经新闻", "财经"), ("", "教育"), ("教育 和 体育", "体育"), ("科技\n娱乐", "科技")]
LSHT_CLASSES = ["体育", "财经", "教育", "科技", "娱乐", "财经新闻"]
COUNT = [("There are 3 unique passages", ["3"]), ("3 or 4", ["3"]), ("none", ["5"]), ("", ["2"]), ("７ passages, 7", ["7"])]
RETR_EN = [("Paragraph 2", ["Paragraph 2"]), ("Paragraph 1 and Paragraph 2", ["Paragraph 2"]), ("I don't know", ["Paragraph 4"]),
           ("", ["Paragraph 1"]), ("Paragraph 12", ["Paragraph 1"])]
RETR_ZH = [("段落2", ["段落2"]), ("段落1，段落2", ["段落2"]), ("不知道", ["段落3"]), ("", ["段落1"])]
CODE = [("    return a + b\n", ["    return a + b"]), ("```python\n# add\nreturn a - b", ["return a + b"]),
        ("\n\n// comment\nx = compute(y)", ["x = compute(y)"]), ("", ["print(x)"]), ("# only comments", ["pass"]),
        ("print('ünï')", ["print('uni')"])]

LONGBENCH_SUBSETS: dict[str, tuple[str, list[tuple[str, Any]]]] = {
    "narrativeqa": ("qa", EN_QA), "qasper": ("qa", EN_QA), "multifieldqa_en": ("qa", EN_QA), "multifieldqa_zh": ("qa", ZH_QA),
    "hotpotqa": ("qa", EN_QA[1:]), "2wikimqa": ("qa", EN_QA[:4]), "musique": ("qa", EN_QA[2:]), "dureader": ("qa", ZH_QA),
    "gov_report": ("sum", EN_SUM), "qmsum": ("qa", EN_SUM[:4] + EN_SUM[6:]), "multi_news": ("sum", EN_SUM[1:4]), "vcsum": ("sum", ZH_SUM),
    "trec": ("cls", TREC), "triviaqa": ("qa", EN_QA), "samsum": ("qa", EN_SUM[6:] + EN_SUM[:2]), "lsht": ("cls", LSHT),
    "passage_count": ("sum", COUNT), "passage_retrieval_en": ("qa", RETR_EN), "passage_retrieval_zh": ("qa", RETR_ZH),
    "lcc": ("sum", CODE), "repobench-p": ("qa", CODE),
}

LVEVAL_TASKS = {  # task → (english?, has confusing facts, has answer keywords)
    "cmrc_mixup": (False, True, False), "dureader_mixup": (False, False, False), "factrecall_en": (True, True, False),
    "factrecall_zh": (False, True, False), "hotpotwikiqa_mixup": (True, True, True), "lic_mixup": (False, True, True),
    "loogle_CR_mixup": (True, False, True), "loogle_MIR_mixup": (True, False, True), "loogle_SD_mixup": (True, False, True),
    "multifieldqa_en_mixup": (True, True, True), "multifieldqa_zh_mixup": (False, True, True),
}
LENGTHS = ["16k", "32k", "64k", "128k", "256k"]
LV_EN = [("Ludwig van Beethoven composed it", ["Ludwig van Beethoven"], "Beethoven"),
         ("It was Mozart", ["Ludwig van Beethoven"], "Beethoven"),
         ("the composer of the piece", ["The composer was Beethoven"], "composer Beethoven"),
         ("", ["Bach"], ""), ("Beethoven, ünïcode", ["Beethoven was the composer of the symphony"], ""),
         ("The city and the river", ["The city by the river Thames"], "city river Thames")]
LV_ZH = [("贝多芬创作了这首曲子", ["贝多芬"], "贝多芬"), ("莫扎特", ["贝多芬"], "贝多芬"), ("作曲家是贝多芬。", ["这首曲子的作曲家是贝多芬"], ""),
         ("", ["巴赫"], ""), ("答案是 贝多芬 ünï", ["贝多芬", "路德维希"], "路德维希·凡·贝多芬"), ("会议在北京举行，讨论了预算。", ["会议在北京举行"], "北京 会议")]


def _prediction_file(abbr: str, replies: list[str], golds: list[Any]) -> None:
    records = {str(i): {"origin_prompt": f"[prompt {i} of {abbr}]", "prediction": reply, "gold": gold}
               for i, (reply, gold) in enumerate(zip(replies, golds))}
    path = FIXTURES / "predictions" / f"{abbr}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json(path, records)


def write_fixtures() -> None:
    shutil.rmtree(CACHE, ignore_errors=True)
    shutil.rmtree(FIXTURES / "predictions", ignore_errors=True)
    longbench = CACHE / "data" / "Longbench"
    for name, (kind, items) in LONGBENCH_SUBSETS.items():
        rows, golds = [], []
        for i, (_, answer) in enumerate(items):
            row: dict[str, Any] = {"input": f"question {i} of {name}", "context": f"context {i} of {name}",
                                   "answers": [answer] if kind == "cls" else answer, "length": 10 + i, "dataset": name,
                                   "language": "zh" if name in ("multifieldqa_zh", "dureader", "vcsum", "lsht", "passage_retrieval_zh") else "en",
                                   "all_classes": (TREC_CLASSES if name == "trec" else LSHT_CLASSES) if kind == "cls" else None, "_id": f"{name}-{i}"}
            rows.append(row)
            golds.append({"answers": row["answers"], "all_classes": row["all_classes"]} if kind == "cls" else row["answers"])
        write_jsonl(longbench / "data" / f"{name}.jsonl", rows)
        _prediction_file(f"LongBench_{name}", [reply for reply, _ in items], golds)
    (longbench / "Longbench.py").write_text(LOADING_SCRIPT.format(
        what="LongBench's subsets", layout="data/<name>.jsonl", names=list(LONGBENCH_SUBSETS),
        place='"data", self.config.name + ".jsonl"'), encoding="utf-8")

    v2 = [{"_id": f"v2-{i}", "domain": "d", "sub_domain": "s", "difficulty": diff, "length": length, "question": f"q{i}",
           "choice_A": "a", "choice_B": "b", "choice_C": "c", "choice_D": "d", "answer": answer, "context": f"context {i}"}
          for i, (diff, length, answer) in enumerate([("easy", "short", "A"), ("hard", "short", "B"), ("hard", "long", "C"),
                                                      ("easy", "medium", "D"), ("hard", "long", "A"), ("medium?", "tiny", "B")])]
    (CACHE / "data" / "longbenchv2").mkdir(parents=True, exist_ok=True)
    write_json(CACHE / "data" / "longbenchv2" / "data.json", v2)
    v2_replies = ["The correct answer is (A)", "The correct answer is (C)", "C", "", "答案是 (A)。", "B) obviously"]
    _prediction_file("LongBenchv2", v2_replies, [r["answer"] for r in v2])

    lveval = CACHE / "Infinigence" / "LVEval"
    names = []
    for t, (task, (english, facts, keywords)) in enumerate(LVEVAL_TASKS.items()):
        pool = LV_EN if english else LV_ZH
        for n, length in enumerate(LENGTHS):
            name = f"{task}_{length}"
            names.append(name)
            chosen = [pool[(t + n + k) % len(pool)] for k in range(3)]
            rows, golds = [], []
            for i, (_, answers, keyword) in enumerate(chosen):
                row: dict[str, Any] = {"input": f"question {i}", "context": f"context {i} of {name}", "answers": answers, "length": 100 * (n + 1),
                                       "confusing_facts": ["a confusing fact"] if facts else [], "answer_keywords": keyword if keywords else ""}
                rows.append(row)
                golds.append([*answers, keyword] if keywords else answers)
            write_jsonl(lveval / task / f"{name}.jsonl", rows)
            _prediction_file(f"LVEval_{name}", [reply for reply, _, _ in chosen], golds)
    # no loading script here: OpenCompass does not let ``load_dataset`` run one for LV-Eval, so the
    # folder declares its subsets as a dataset card's ``configs`` (one jsonl file each)
    card = "".join(f"- config_name: {n}\n  data_files:\n  - split: test\n    path: {n.rsplit('_', 1)[0]}/{n}.jsonl\n" for n in names)
    (lveval / "README.md").write_text(f"---\nconfigs:\n{card}---\nLV-Eval's layout: <task>/<task>_<length>.jsonl\n", encoding="utf-8")


# -- recording -----------------------------------------------------------------------------------


def _depth(frame: Any) -> int:
    depth = 0
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


def _run_case(case: str, work: Path) -> dict[str, Any]:
    from mmengine.config import Config, ConfigDict
    from opencompass.tasks import OpenICLEvalTask

    import opencompass

    rel, variable = CASES[case]
    datasets = list(Config.fromfile(str(Path(opencompass.__file__).parent / "configs" / "datasets" / rel))[variable])
    captured: dict[str, Any] = {}

    def watch(frame: Any, event: str, arg: Any) -> None:
        # a profile hook adds no frame to the evaluator's stack, so it runs at the depth it has in
        # OpenCompass (the ``rouge`` package's recursion limit depends on it)
        if event == "call" and frame.f_code.co_name == "score" and "opencompass" in frame.f_code.co_filename and "score_depth" not in captured:
            captured["score_depth"] = _depth(frame)
            captured["predictions"] = list(frame.f_locals.get("predictions") or [])
            captured["references"] = list(frame.f_locals.get("references") or [])
            sys.setprofile(None)  # a hook's own frame would count against the recursion limit below

    out: dict[str, Any] = {"config": rel, "variable": variable, "datasets": {}}
    for ds in datasets:
        abbr = ds["abbr"]
        pred_dir = work / RUN / "predictions" / MODEL
        pred_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURES / "predictions" / f"{abbr}.json", pred_dir / f"{abbr}.json")
        result_file = work / RUN / "results" / MODEL / f"{abbr}.json"
        result_file.unlink(missing_ok=True)
        cfg = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=[[ds]], work_dir=str(work / RUN),
                         eval=dict(runner=dict(task=dict(dump_details=True))))
        captured.clear()
        entry: dict[str, Any] = {"prediction_file": f"{abbr}.json",
                                 "evaluator": dict(ds["eval_cfg"]["evaluator"], type=ds["eval_cfg"]["evaluator"]["type"].__name__)}
        sys.setprofile(watch)
        try:
            OpenICLEvalTask(cfg).run()
            result = json.loads(result_file.read_text(encoding="utf-8"))
            result.pop("details", None)
            entry["result"] = result
        except Exception as exc:
            entry["exception"] = f"{type(exc).__name__}: {exc}"
            entry["traceback_tail"] = traceback_tail()
        finally:
            sys.setprofile(None)
        entry.update({k: captured.get(k) for k in ("predictions", "references", "score_depth")})
        out["datasets"][abbr] = entry
    return out


#: Summary lengths (words, one sentence) around the ``rouge`` package's overflow under the eval task.
ROUGE_LENGTHS = list(range(984, 991))


def record_rouge_depth() -> None:
    """Score ``gov_report`` summaries of :data:`ROUGE_LENGTHS` words, each its own reference, with
    OpenCompass's eval task run as its runners run it (a process of its own): ``expected/rouge_depth.json``
    keeps the result, the longest summary scored, the shortest not, and the depth of ``score`` there."""
    import os

    from _oc_recording import eval_task_as_opencompass_runs_it

    scratch = Path(tempfile.mkdtemp(prefix="record_oc_longbench_depth_"))
    try:
        cache = scratch / "cache"
        shutil.copytree(CACHE, cache)
        os.environ["HF_DATASETS_CACHE"] = str(scratch / "hf")
        os.environ["HF_DATASETS_OFFLINE"] = "1"
        use_data_cache(cache)
        summaries = [" ".join(f"word{i}" for i in range(n)) for n in ROUGE_LENGTHS]
        rows = [{"input": f"question {i}", "context": f"context {i}", "answers": [text], "length": 10, "dataset": "gov_report",
                 "language": "en", "all_classes": None, "_id": f"gov_report-{i}"} for i, text in enumerate(summaries)]
        write_jsonl(cache / "data" / "Longbench" / "data" / "gov_report.jsonl", rows)
        ds = next(d for d in library_datasets("longbench/longbench.py", "longbench_datasets") if d["abbr"] == "LongBench_gov_report")
        work_dir = scratch / "run"
        write_json(work_dir / "predictions" / MODEL / "LongBench_gov_report.json",
                   {str(i): {"prediction": text, "gold": [text]} for i, text in enumerate(summaries)})
        config = {"models": [{"abbr": MODEL, "path": "org/model"}], "datasets": [[ds.to_dict()]], "work_dir": str(work_dir)}
        result, depth = eval_task_as_opencompass_runs_it(config, scratch / "task", cwd=cache)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    # each summary scores 100 (it is its own reference) or 0 (the walk overflowed), the short ones first
    scored = round(result["score"] / 100 * len(summaries))
    write_json(FIXTURES / "expected" / "rouge_depth.json", {
        "dataset": "LongBench_gov_report", "score_depth": depth, "lengths": ROUGE_LENGTHS, "result": result,
        "longest_scored": ROUGE_LENGTHS[scored - 1], "shortest_failing": ROUGE_LENGTHS[scored],
    })


def _summaries(work: Path, datasets: list[dict[str, Any]]) -> dict[str, str]:
    from mmengine.config import Config, ConfigDict
    from opencompass.summarizers import DefaultSummarizer

    import opencompass

    out = {}
    for name, rel in SUMMARIZERS.items():
        summarizer = Config.fromfile(str(Path(opencompass.__file__).parent / "configs" / rel))["summarizer"]
        config = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=datasets, work_dir=str(work / RUN))
        DefaultSummarizer(config, dataset_abbrs=summarizer.get("dataset_abbrs"),
                          summary_groups=summarizer.get("summary_groups", [])).summarize(time_str=name)
        out[name] = (work / RUN / "summary" / f"summary_{name}.csv").read_text(encoding="utf-8")
    groups = Config.fromfile(str(Path(opencompass.__file__).parent / "configs" / "summarizers" / "groups" / "longbench.py"))
    config = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=datasets, work_dir=str(work / RUN))
    DefaultSummarizer(config, dataset_abbrs=LONGBENCH_GROUP_ROWS,
                      summary_groups=groups["longbench_summary_groups"]).summarize(time_str="longbench_groups")
    out["longbench_groups"] = (work / RUN / "summary" / "summary_longbench_groups.csv").read_text(encoding="utf-8")
    return out


def _vectors() -> dict[str, Any]:
    """The text measures on seeded random inputs: the ``rouge`` package's ROUGE-L F (``None`` where it
    raises), ``fuzzywuzzy``'s ratio, LongBench's two normalizers, and each evaluator's ``score`` on them."""
    import random

    from fuzzywuzzy import fuzz
    from opencompass.datasets.longbench import evaluators as lb
    from opencompass.datasets.lveval import evaluators as lv
    from rouge import Rouge

    rng = random.Random(20250101)
    vocab = ["the", "cat", "sat", "on", "a", "mat", ".", "..", "Cat", "mat.", "，", "。", "猫", "坐在", "垫子", "上", "的", "and", "x", " ", "\n",
             "#", "`", "//", "ünï", "Paris", "3", "12", "Paragraph", "段落", "是", "北京", "the cat"]

    def text() -> str:
        return "".join(rng.choice(vocab) + rng.choice(["", " ", " "]) for _ in range(rng.randint(0, 14)))

    pairs = [(text(), text()) for _ in range(400)]
    pairs += [("word " * 980, "word " * 980), (" ".join(f"w{i}" for i in range(985)), " ".join(f"w{i}" for i in range(985))),
              (" ".join(f"w{i}" for i in range(986)), " ".join(f"w{i}" for i in range(986)))]
    rouge = []
    for a, b in pairs:
        try:
            rouge.append(Rouge().get_scores([a], [b], avg=True)["rouge-l"]["f"])
        except Exception:
            rouge.append(None)
    preds = [a for a, _ in pairs[:400]]
    refs = [[b, a[::-1]] for a, b in pairs[:400]]
    evaluators = {}
    for name, evaluator in [("LongBenchF1Evaluator/en", lb.LongBenchF1Evaluator("en")), ("LongBenchF1Evaluator/zh", lb.LongBenchF1Evaluator("zh")),
                            ("LongBenchRougeEvaluator/en", lb.LongBenchRougeEvaluator("en")), ("LongBenchRougeEvaluator/zh", lb.LongBenchRougeEvaluator("zh")),
                            ("LongBenchCodeSimEvaluator", lb.LongBenchCodeSimEvaluator()), ("LongBenchCountEvaluator", lb.LongBenchCountEvaluator()),
                            ("LVEvalF1Evaluator/en", lv.LVEvalF1Evaluator("en")), ("LVEvalF1Evaluator/zh", lv.LVEvalF1Evaluator("zh")),
                            ("LVEvalOPTF1Evaluator/en", lv.LVEvalOPTF1Evaluator("en")), ("LVEvalOPTF1Evaluator/zh", lv.LVEvalOPTF1Evaluator("zh")),
                            ("LVEvalOPTRougeEvaluator/en", lv.LVEvalOPTRougeEvaluator("en")), ("LVEvalOPTRougeEvaluator/zh", lv.LVEvalOPTRougeEvaluator("zh"))]:
        try:
            evaluators[name] = evaluator.score(list(preds), [list(r) for r in refs])
        except Exception as exc:  # recorded: OpenCompass fails on these inputs
            evaluators[name] = {"exception": type(exc).__name__}
    return {
        "pairs": pairs,
        "rouge_l_f": rouge,
        "fuzz_ratio": [fuzz.ratio(a, b) for a, b in pairs],
        "normalize_answer": [lb.normalize_answer(a) for a, _ in pairs],
        "normalize_zh_answer": [lb.normalize_zh_answer(a) for a, _ in pairs],
        "evaluator_inputs": {"predictions": preds, "references": refs},
        "evaluators": evaluators,
    }


def main() -> None:
    import os

    if "--rouge-depth-only" in sys.argv:
        record_rouge_depth()
        return
    write_fixtures()
    scratch = Path(tempfile.mkdtemp(prefix="record_oc_longbench_"))
    os.environ["HF_DATASETS_CACHE"] = str(scratch / "hf")
    os.environ["HF_DATASETS_OFFLINE"] = "1"
    use_data_cache(CACHE)
    os.chdir(CACHE)
    expected = FIXTURES / "expected"
    shutil.rmtree(expected, ignore_errors=True)
    expected.mkdir()
    from mmengine.config import Config

    import opencompass

    all_datasets: list[Any] = []
    for case, (rel, variable) in CASES.items():
        print(f"recording {case}", flush=True)
        record = _run_case(case, scratch / "work")
        write_json(expected / f"{case}.json", record, sort_keys=True)
        if "rawprompt" not in case:
            all_datasets += list(Config.fromfile(str(Path(opencompass.__file__).parent / "configs" / "datasets" / rel))[variable])
    (expected / "vectors.json").write_text(json.dumps(_vectors(), ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    for name, text in _summaries(scratch / "work", all_datasets).items():
        (expected / f"summary_{name}.csv").write_text(text, encoding="utf-8")
    shutil.rmtree(scratch, ignore_errors=True)
    record_rouge_depth()


if __name__ == "__main__":
    main()
