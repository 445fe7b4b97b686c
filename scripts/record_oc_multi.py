"""Record what OpenCompass 0.5.4 computes on the ARC Prize and P-MMEval library configs.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_multi.py [--only CASE ...]

It writes small data files in OpenCompass's local layouts under
``tests/data/oc_families/multi/cache`` (the data folder is both
``$COMPASS_DATA_CACHE`` and the working directory): ARC-AGI-1's and ARC-AGI-2's
task folders (a few task files each, one file not on the version's list) and
P-MMEval's FLORES, MGSM, mHellaSwag, mIFEval, mLogiQA, MMMLU (easy and hard) and XNLI
files for every language the library's configs name.  Each dataset's rows are
read with OpenCompass's own loader, and a prediction file per dataset is written
under ``predictions/`` as OpenCompass's gen inferencer writes it
(``origin_prompt``, ``prediction``, ``gold`` — the loader's reference), with
varied replies.

Then, per case (a config of OpenCompass's library, unchanged), OpenCompass's own
eval task (``OpenICLEvalTask``: loader, prediction postprocessor, evaluator,
details dumped) scores the predictions, and ``expected/<case>.json`` gets, per
dataset, the result file's metrics and details, the predictions and references
the evaluator received and the test set's rows (for ARC, also the task files in
the order the loader read them: the folder's listing order; for mIFEval, each
sample's strict and loose verdicts, from OpenCompass's own functions, as its
evaluator gives no details).
``vectors.json`` holds P-MMEval's answer readers on further replies.

``tests/evaluators/test_oc_multi.py`` checks assay's namesakes against these.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from _oc_recording import library_datasets, use_data_cache, write_json, write_jsonl

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "multi"
RUN = "20250101_000000"
MODEL = "oc-model"

#: case id → (config under opencompass/configs/datasets, variable, abbrs kept (None: all))
CASES: dict[str, tuple[str, str, tuple[str, ...] | None]] = {
    "arc_prize_public_evaluation_gen_872059": ("ARC_Prize_Public_Evaluation/arc_prize_public_evaluation_gen_872059.py",
                                               "arc_prize_public_evaluation_datasets", None),
    "arc_prize_public_evaluation_gen_fedd04": ("ARC_Prize_Public_Evaluation/arc_prize_public_evaluation_gen_fedd04.py",
                                               "arc_prize_public_evaluation_datasets", None),
    "arc_agi_2_public_evaluation_gen": ("ARC_Prize_Public_Evaluation/arc_agi_2_public_evaluation_gen.py",
                                        "arc_agi_2_public_evaluation_datasets", None),
    "pmmeval_mgsm_gen_679720": ("PMMEval/mgsm_gen_679720.py", "PMMEval_MGSM_datasets", None),
    "pmmeval_mmmlu_gen_d5017d": ("PMMEval/mmmlu_gen_d5017d.py", "PMMEval_MMMLU_datasets", None),
    "pmmeval_mhellaswag_gen_1a6b73": ("PMMEval/mhellaswag_gen_1a6b73.py", "PMMEval_MHellaswag_datasets", None),
    "pmmeval_mlogiqa_gen_36c4f9": ("PMMEval/mlogiqa_gen_36c4f9.py", "PMMEval_MLogiQA_datasets", None),
    "pmmeval_xnli_gen_973734": ("PMMEval/xnli_gen_973734.py", "PMMEval_XNLI_datasets", None),
    "pmmeval_mifeval_gen_79f8fb": ("PMMEval/mifeval_gen_79f8fb.py", "PMMEval_MIFEval_datasets", None),
    "pmmeval_flores_gen_2697d7": ("PMMEval/flores_gen_2697d7.py", "PMMEval_flores_datasets", None),
}

LANGS = ("en", "zh", "ar", "es", "fr", "ja", "ko", "pt", "th", "vi")
REGIONS = ("EN-US", "ZH-CN", "AR-XY", "ES-LA", "FR-FR", "JA-JP", "KO-KR", "PT-BR", "TH-TL", "VI-VT")
FLORES_LANGS = ("Chinese", "Arabic", "Spanish", "French", "Japanese", "Korean", "Portuguese", "Thai", "Vietnamese")
PHRASE = {"fr": "La réponse est", "en": "The answer is", "vi": "Câu trả lời là", "ar": "الجواب هو", "th": "คำตอบคือ",
          "zh": "答案是", "ko": "답변은", "pt": "A resposta é", "ja": "答えは", "es": "La respuesta es"}
REGION_LANG = dict(zip(REGIONS, LANGS))


# -- ARC Prize ---------------------------------------------------------------------------------------------------
def _task(seed: int, rows: int, cols: int) -> dict[str, Any]:
    grid = [[(seed + i * cols + j) % 10 for j in range(cols)] for i in range(rows)]
    flipped = [row[::-1] for row in grid]
    return {"train": [{"input": [[1, 2], [3, 4]], "output": [[2, 1], [4, 3]]}],
            "test": [{"input": grid, "output": flipped}, {"input": [[0]], "output": [[0]]}]}


ARC1_TASKS = {"2072aba6": _task(1, 2, 3), "bb52a14b": _task(2, 3, 3), "136b0064": _task(3, 1, 4), "ea9794b1": _task(4, 2, 2)}
ARC2_TASKS = {"898e7135": _task(5, 2, 2), "a32d8b75": _task(6, 3, 2)}
ARC_OTHER = {"00000000": _task(7, 1, 1)}  # not on either version's list: never read


def _arc_reply(answer: list[list[int]], k: int) -> str:
    """Replies of several kinds, by the row's place ``k``."""
    kinds = [
        lambda g: f"The output grid is {g}",
        lambda g: "[[" + ", ".join(str(c) for c in g[0]) + "]]",  # only the first row
        lambda g: str([[*row[:-1], 9] for row in g]),  # the last column wrong
        lambda g: "[[1, 2], [x]]",
        lambda g: str([[*row, 0] for row in g]),  # an extra column
        lambda g: "no idea",
        lambda g: str(g).replace(", ", ","),
        lambda g: "[[1.5, 2]]",
    ]
    return kinds[k % len(kinds)](answer)


# -- P-MMEval ----------------------------------------------------------------------------------------------------
def _mgsm_rows(lang: str) -> list[dict[str, Any]]:
    return [{"question": f"Janet has 16 eggs ({lang}).", "answer": "18"},
            {"question": "How many bolts?", "answer": "3"},
            {"question": "What is the profit?", "answer": "70,000"}]


def _mgsm_replies(lang: str) -> list[str]:
    p = PHRASE[lang]
    return [f"16 - 3 - 4 = 9, 9 * 2 = 18.\n{p} 18", f"{p} 3.0" if lang in ("en", "zh") else f"{p} +3.",
            f"{p} 70,000 dollars, 1 house" if lang in ("ar", "fr") else f"{p} 70,000."]


def _mc_rows(kind: str, lang: str) -> list[dict[str, Any]]:
    if kind == "mmmlu":
        return [{"Question": f"Q{i} ({lang})", "A": "a", "B": "b", "C": "c", "D": "d", "Answer": "ABCD"[i % 4],
                 "Subject": "math"} for i in range(3)]
    if kind == "mhellaswag":
        return [{"ctx": f"A man ({lang}) {i}", "option_1": "runs", "option_2": "sits", "option_3": "eats", "option_4": "flies",
                 "label": str((i + 1) % 4)} for i in range(3)]
    if kind == "mlogiqa":
        return [{"context": f"C{i}", "question": f"Q{i} ({lang})", "option_1": "w", "option_2": "x", "option_3": "y",
                 "option_4": "z", "answer": (i * 3) % 4} for i in range(3)]
    return [{"premise": f"P{i} ({lang})", "statement": f"S{i}", "answer": "ABC"[i % 3]} for i in range(3)]


def _mc_replies(kind: str, lang: str) -> list[str]:
    p = PHRASE[REGION_LANG.get(lang, lang)]
    letters = {"mmmlu": "ABC", "mhellaswag": "BCD", "mlogiqa": "ADC", "xnli": "ABC"}[kind]
    strict = [f'{{"answer": "{letters[0]}"}}', f"Let me think.\n{p} {letters[1].lower()}.",
              f"'answer': '{letters[2]}' or \"answer\": \"D\""]
    if kind == "mlogiqa":  # OpenCompass stops on a reply it cannot read strictly: all of them are readable
        return strict if lang != "zh" else ['{"answer": "B"}', f"{p}{letters[1]}", '{"answer": "C is right"}']
    loose = [f"I would say {letters[0]} then B", f"{p} ", "nothing here"] if lang in ("en", "EN-US", "ja", "JA-JP") else \
        [f"{p} E, so C", f'{{"answer": "{letters[1]}"}}', ""]
    return strict if lang in ("zh", "ZH-CN", "fr", "FR-FR", "th", "TH-TL") else loose


FLORES_ROWS = [{"src": "The cat sat on the mat.", "tgt": "猫坐在垫子上。"}, {"src": "It rains.", "tgt": "下雨了。"},
               {"src": "Good morning, friends.", "tgt": "朋友们，早上好。"}]
FLORES_TGT = {"Chinese": ["猫坐在垫子上。", "下雨了。", "朋友们，早上好。"],
              "Arabic": ["جلست القطة على الحصيرة.", "إنها تمطر.", "صباح الخير يا أصدقاء."],
              "Spanish": ["El gato se sentó en la alfombra.", "Llueve.", "Buenos días, amigos."],
              "French": ["Le chat s'est assis sur le tapis.", "Il pleut.", "Bonjour, mes amis."],
              "Japanese": ["猫はマットの上に座った。", "雨が降っている。", "おはよう、友達。"],
              "Korean": ["고양이가 매트 위에 앉았다.", "비가 온다.", "친구들, 좋은 아침."],
              "Portuguese": ["O gato sentou no tapete.", "Está chovendo.", "Bom dia, amigos."],
              "Thai": ["แมวนั่งบนเสื่อ", "ฝนตก", "สวัสดีตอนเช้าเพื่อนๆ"],
              "Vietnamese": ["Con mèo ngồi trên tấm thảm.", "Trời mưa.", "Chào buổi sáng, các bạn."]}


def _flores_replies(lang: str) -> list[str]:
    t = FLORES_TGT[lang]
    return [f"Translation:\n\n{t[0]}\nDone.", t[1][:-1] if len(t[1]) > 2 else t[1], f"{t[2]}\n{t[0]}\n\n"]


#: OpenCompass's loader gives every kwargs dict every option any row names (None where it names none), and
#: its loose reading lets a later dict's None replace an earlier value: rows of several instructions put
#: first the ones whose checkers read None as "not followed" (where others stop OpenCompass).
MIFEVAL_ROWS = [
    {"prompt": "Write without commas.", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]},
    {"prompt": "Two bullets, end with 'Done.'", "instruction_id_list": ["detectable_format:number_bullet_lists", "startend:end_checker"],
     "kwargs": [{"num_bullets": 2}, {"end_phrase": "Done."}]},
    {"prompt": "At least 5 words, a title.", "instruction_id_list": ["length_constraints:number_words", "detectable_format:title"],
     "kwargs": [{"relation": "at least", "num_words": 5}, {}]},
    {"prompt": "Answer in JSON, quoted?", "instruction_id_list": ["detectable_format:json_format"], "kwargs": [{}]},
    {"prompt": "Three paragraphs.", "instruction_id_list": ["length_constraints:number_paragraphs", "detectable_content:postscript"],
     "kwargs": [{"num_paragraphs": 3}, {"postscript_marker": "P.S."}]},
    {"prompt": "Say yes or no.", "instruction_id_list": ["detectable_format:constrained_response", "startend:quotation"],
     "kwargs": [{}, {}]},
    {"prompt": "Repeat: Tell me a joke.", "instruction_id_list": ["combination:repeat_prompt"],
     "kwargs": [{"prompt_to_repeat": "Tell me a joke."}]},
    {"prompt": "Do not say cat or dog.", "instruction_id_list": ["keywords:forbidden_words"],
     "kwargs": [{"forbidden_words": ["cat", "dog"]}]},
]


def _mifeval_replies(lang: str) -> list[str]:
    from opencompass.datasets.PMMEval.mifeval_utils.detectable_format_checker import constrained_response

    yes = constrained_response[lang][0]
    return ["No commas here at all" if lang != "zh" else "这里没有逗号，真的", "* one\n- two\nDone.",
            "<<A Title>> one two three four five" if lang in ("en", "fr") else "<<标题>> 短",
            "```json\n{\"a\": 1}\n```" if lang != "ja" else "{'a': 1}",
            "one *** two *** three\nP.S. bye" if lang != "ko" else "one *** two",
            f'"{yes}"' if lang != "th" else yes, "Tell me a joke. A cat walks in." if lang == "en" else "tell me a JOKE. ok",
            "A cat walks in." if lang in ("en", "es") else ("" if lang == "zh" else "A bird sings.")]


def build_data() -> None:
    """The data files in OpenCompass's layouts, under ``FIXTURES/cache``."""
    cache = FIXTURES / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    for folder, tasks in (("arc_prize_public_evaluation", {**ARC1_TASKS, **ARC_OTHER}),
                          ("arc_agi_2_public_evaluation", {**ARC2_TASKS, **ARC_OTHER})):
        for name, task in tasks.items():
            path = cache / "data" / folder / f"{name}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(task), encoding="utf-8")
    root = cache / "data" / "P-MMEval"
    for lang in LANGS:
        write_jsonl(root / "mgsm" / "test" / f"{lang}.jsonl", _mgsm_rows(lang))
        write_jsonl(root / "mifeval" / "test" / f"{lang}.jsonl", MIFEVAL_ROWS)
        for kind in ("mhellaswag", "mlogiqa", "xnli"):
            write_jsonl(root / kind / "test" / f"{lang}.jsonl", _mc_rows(kind, lang))
    for region in REGIONS:
        rows = _mc_rows("mmmlu", region)
        write_jsonl(root / "mmmlu" / "easy" / "test" / f"mmlu_{region}.jsonl", rows[:2])
        write_jsonl(root / "mmmlu" / "hard" / "test" / f"mmlu_{region}.jsonl", rows[2:])
    for lang in FLORES_LANGS:
        write_jsonl(root / "flores" / "test" / f"{lang}.jsonl", [dict(r, tgt=t) for r, t in zip(FLORES_ROWS, FLORES_TGT[lang])])


def _replies(ds: dict[str, Any], golds: list[Any]) -> list[str]:
    abbr = ds["abbr"]
    if abbr.startswith("ARC_"):
        return [_arc_reply(g, i) for i, g in enumerate(golds)]
    kind, _, lang = abbr.partition("-")
    if kind == "mgsm":
        return _mgsm_replies(lang)
    if kind == "flores":
        return _flores_replies(lang)
    if kind == "mifeval":
        return _mifeval_replies(lang)
    return _mc_replies(kind, lang)


def _datasets(case: str) -> list[dict[str, Any]]:
    rel, variable, kept = CASES[case]
    return [d for d in library_datasets(rel, variable) if kept is None or d["abbr"] in kept]


def write_predictions(case: str) -> None:
    """A prediction file per dataset of ``case``, as the gen inferencer writes one (the references from OpenCompass's loader)."""
    from opencompass.utils import build_dataset_from_cfg

    for ds in _datasets(case):
        test = build_dataset_from_cfg(ds).test
        column = ds["reader_cfg"]["output_column"]
        golds = test[column] if column else [None] * len(test)
        first_input = ds["reader_cfg"]["input_columns"][0]
        prompts = [str(p) for p in test[first_input]]
        replies = _replies(ds, golds)
        assert len(replies) == len(golds), (ds["abbr"], len(replies), len(golds))
        records = {str(i): {"origin_prompt": [{"role": "HUMAN", "prompt": q}], "prediction": r, "gold": g}
                   for i, (q, r, g) in enumerate(zip(prompts, replies, golds))}
        out = FIXTURES / "predictions" / f"{ds['abbr']}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        write_json(out, records)


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if hasattr(value, "item") and callable(value.item):
        return _jsonable(value.item())
    if hasattr(value, "tolist") and callable(value.tolist):
        return _jsonable(value.tolist())
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)


def run_case(case: str, work: Path) -> dict[str, Any]:
    from mmengine.config import ConfigDict
    from opencompass.openicl.icl_evaluator import icl_base_evaluator
    from opencompass.tasks import OpenICLEvalTask
    from opencompass.utils import get_data_path

    rel, variable, kept = CASES[case]
    shutil.rmtree(work / case, ignore_errors=True)
    captured: dict[str, Any] = {}
    original = icl_base_evaluator.BaseEvaluator.evaluate

    def evaluate(self: Any, k: Any, n: Any, original_dataset: Any, **kwargs: Any) -> Any:
        captured["predictions"] = list(kwargs["predictions"]) if kwargs.get("predictions") is not None else None
        captured["references"] = list(kwargs["references"]) if kwargs.get("references") is not None else None
        captured["test_rows"] = original_dataset.to_list()
        return original(self, k, n, original_dataset, **kwargs)

    icl_base_evaluator.BaseEvaluator.evaluate = evaluate
    out: dict[str, Any] = {"config": rel, "variable": variable, "kept": list(kept) if kept else None, "datasets": {}}
    try:
        for ds in _datasets(case):
            abbr = ds["abbr"]
            run_dir = work / case / RUN
            pred_dir = run_dir / "predictions" / MODEL
            pred_dir.mkdir(parents=True, exist_ok=True)
            shutil.copy(FIXTURES / "predictions" / f"{abbr}.json", pred_dir / f"{abbr}.json")
            cfg = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=[[ds]], work_dir=str(run_dir),
                             eval=dict(runner=dict(task=dict(dump_details=True))))
            captured.clear()
            OpenICLEvalTask(cfg).run()
            result = json.loads((run_dir / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
            entry: dict[str, Any] = {"details": result.pop("details", None), "result": result}
            entry.update({k: captured.get(k) for k in ("predictions", "references", "test_rows")})
            if abbr.startswith("mifeval-"):  # OpenCompass writes no details: each sample's verdicts, by its own functions
                from opencompass.datasets.PMMEval import mifeval

                pairs = list(zip(captured["predictions"], captured["test_rows"]))
                entry["strict"] = [mifeval.test_instruction_following_strict(row, p, lang) for (p, lang), row in pairs]
                entry["loose"] = [mifeval.test_instruction_following_loose(row, p, lang) for (p, lang), row in pairs]
            if abbr.startswith("ARC_"):  # the order the loader read the task files in (the folder's listing)
                version = ARC1_TASKS if ds["version"] == "arc_agi_1" else ARC2_TASKS
                entry["files"] = [name for name in os.listdir(get_data_path(ds["path"])) if name[:-5] in version]
            out["datasets"][abbr] = _jsonable(entry)
    finally:
        icl_base_evaluator.BaseEvaluator.evaluate = original
    return out


CHOICE_TEXTS = ['{"answer": "A"} and {"answer": "B"}', "{ 'answer' : 'C' }", '"answer": D', "'answer': \"B\"",
                '{"answer":\n"C, because"}', "The answer is", "The answer is  b", "the answer is e", "Xthe answer isA",
                "答案是 C 答案是 D", "La réponse est d'accord", "", "ABCD", "answer: A", '{"Answer": "A"}']
NUMBER_TEXTS = ["1,018.", "3.5.", "-4", "+7", "12 and 13", "1.2.3", "x", ".5", "007", "1,23", "12,345,678 apples", "", "5e3"]


def vectors() -> dict[str, Any]:
    from opencompass.datasets.PMMEval import mgsm, mmmlu, xnli

    return {
        "mmmlu_extract_choice": [[t, lang, mmmlu.extract_choice(t, lang)] for t in CHOICE_TEXTS for lang in ("EN-US", "ZH-CN", "FR-FR")],
        "xnli_extract_choice": [[t, lang, xnli.extract_choice(t, lang)] for t in [*CHOICE_TEXTS, "Jawaban adalah c"]
                                for lang in ("en", "id")],
        "mgsm_last_digit": [[t, mgsm._get_last_digit(t)] for t in NUMBER_TEXTS],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="case ids to record (default: all)")
    args = parser.parse_args()
    use_data_cache(FIXTURES / "cache")
    cases = args.only or list(CASES)
    if not args.only:
        build_data()
    os.chdir(FIXTURES / "cache")
    out_dir = FIXTURES / "expected"
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        for case in cases:
            print(f"recording {case}", flush=True)
            write_predictions(case)
            record = run_case(case, Path(work))
            write_json(out_dir / f"{case}.json", record, sort_keys=True)
    write_json(FIXTURES / "vectors.json", _jsonable(vectors()))
    print("done", file=sys.stderr)


if __name__ == "__main__":
    main()
