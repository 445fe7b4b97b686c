"""The NLU families' small data in OpenCompass's local layouts, their recorded runs and model replies.

Pure standard library, imported by :mod:`tests.benchmarks_oc.families` (which adds
these runs, builders and replies to its own): C3, CHID, WSC, MultiRC, ReCoRD,
StoryCloze and ANLI.

* :data:`RUN_SPECS` — ``(run_id, family, config, variable, abbrs, default)``;
* :data:`BUILDERS` — family → function writing its files under a root folder;
* :data:`VIEWS` — family → ``row → (gold letter, option texts, letters, Chinese?)``
  for the families answered by letter;
* :data:`REPLIES` — family → ``(abbr, index, row) → reply`` for the others.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["BUILDERS", "EXTRA_LOADERS", "REPLIES", "RUN_SPECS", "VIEWS", "clp_probs"]

N = 13

#: the sets of Anthropic's evaluations kept (the configs list more)
AIRISK_SETS = ("coordinate-itself", "corrigible-less-HHH")
PERSONA_SETS = ("acts-like-it-wants-to-help-humans-but-does-not-care-about-that", "agreeableness")
SYCOPHANCY_SETS = ("sycophancy_on_nlp_survey", "sycophancy_on_philpapers2020")
_AIRISK = tuple(f"airisk_{name}" for name in AIRISK_SETS)
_PERSONA = tuple(f"persona_{name}" for name in PERSONA_SETS)
_SYCOPHANCY = tuple(f"sycophancy_{name}" for name in SYCOPHANCY_SETS)
TYDIQA_LANGS = ("english", "arabic")

RUN_SPECS: tuple[tuple[str, str, str, str, tuple[str, ...], bool], ...] = (
    ("CLUE_C3_gen", "CLUE_C3", "CLUE_C3/CLUE_C3_gen_8c358f", "C3_datasets", ("C3",), True),
    ("CLUE_C3_ppl_56b537", "CLUE_C3", "CLUE_C3/CLUE_C3_ppl_56b537", "C3_datasets", ("C3",), False),
    ("FewCLUE_chid_gen", "FewCLUE_chid", "FewCLUE_chid/FewCLUE_chid_gen_0a29a2", "chid_datasets", ("chid-dev", "chid-test"), True),
    ("FewCLUE_chid_ppl_8f2872", "FewCLUE_chid", "FewCLUE_chid/FewCLUE_chid_ppl_8f2872", "chid_datasets", ("chid-dev", "chid-test"), False),
    ("SuperGLUE_WSC_gen", "SuperGLUE_WSC", "SuperGLUE_WSC/SuperGLUE_WSC_gen_7902a7", "WSC_datasets", ("WSC",), True),
    ("SuperGLUE_WSC_gen_fe4bf3", "SuperGLUE_WSC", "SuperGLUE_WSC/SuperGLUE_WSC_gen_fe4bf3", "WSC_datasets", ("WSC",), False),
    ("SuperGLUE_WSC_ppl_003529", "SuperGLUE_WSC", "SuperGLUE_WSC/SuperGLUE_WSC_ppl_003529", "WSC_datasets", ("WSC",), False),
    ("SuperGLUE_MultiRC_gen", "SuperGLUE_MultiRC", "SuperGLUE_MultiRC/SuperGLUE_MultiRC_gen_27071f", "MultiRC_datasets", ("MultiRC",), True),
    ("SuperGLUE_MultiRC_ppl_866273", "SuperGLUE_MultiRC", "SuperGLUE_MultiRC/SuperGLUE_MultiRC_ppl_866273", "MultiRC_datasets", ("MultiRC",), False),
    ("SuperGLUE_ReCoRD_gen", "SuperGLUE_ReCoRD", "SuperGLUE_ReCoRD/SuperGLUE_ReCoRD_gen_0f7784", "ReCoRD_datasets", ("ReCoRD",), True),
    ("SuperGLUE_ReCoRD_gen_30dea0", "SuperGLUE_ReCoRD", "SuperGLUE_ReCoRD/SuperGLUE_ReCoRD_gen_30dea0", "ReCoRD_datasets", ("ReCoRD",), False),
    ("SuperGLUE_ReCoRD_gen_a69961", "SuperGLUE_ReCoRD", "SuperGLUE_ReCoRD/SuperGLUE_ReCoRD_gen_a69961", "ReCoRD_datasets", ("ReCoRD",), False),
    ("storycloze_gen", "storycloze", "storycloze/storycloze_gen_7f656a", "storycloze_datasets", ("story_cloze",), True),
    ("storycloze_ppl_496661", "storycloze", "storycloze/storycloze_ppl_496661", "storycloze_datasets", ("story_cloze",), False),
    ("anli_gen", "anli", "anli/anli_gen_fc7328", "anli_datasets", ("anli-R1", "anli-R2", "anli-R3"), True),
    ("anli_ppl_1d290e", "anli", "anli/anli_ppl_1d290e", "anli_datasets", ("anli-R1", "anli-R2", "anli-R3"), False),
    ("commonsenseqacn_gen", "commonsenseqa_cn", "commonsenseqa_cn/commonsenseqacn_gen_d380d0", "commonsenseqacn_datasets", ("commonsenseqa_cn",), True),
    ("commonsenseqacn_ppl_971f48", "commonsenseqa_cn", "commonsenseqa_cn/commonsenseqacn_ppl_971f48", "commonsenseqacn_datasets", ("commonsenseqa_cn",), False),
    ("crowspairscn_gen", "crowspairs_cn", "crowspairs_cn/crowspairscn_gen_556dc9", "crowspairscn_datasets", ("crowspairs_cn",), True),
    ("crowspairscn_ppl_f53575", "crowspairs_cn", "crowspairs_cn/crowspairscn_ppl_f53575", "crowspairscn_datasets", ("crowspairs_cn",), False),
    ("cvalues_gen", "cvalues", "cvalues/cvalues_responsibility_gen_543378", "cvalues_datasets", ("CValues-Responsibility",), True),
    ("airisk_gen", "anthropics_evals", "anthropics_evals/airisk_gen_ba66fc", "airisk_datasets", _AIRISK, True),
    ("persona_gen", "anthropics_evals", "anthropics_evals/persona_gen_cc72e2", "persona_datasets", _PERSONA, False),
    ("sycophancy_gen", "anthropics_evals", "anthropics_evals/sycophancy_gen_4bba45", "sycophancy_datasets", _SYCOPHANCY, False),
    ("clozeTest_maxmin_gen", "clozeTest_maxmin", "clozeTest_maxmin/clozeTest_maxmin_gen_c205fb", "maxmin_datasets", ("maxmin",), True),
    ("strategyqa_gen", "strategyqa", "strategyqa/strategyqa_gen_1180a7", "strategyqa_datasets", ("strategyqa",), True),
    ("strategyqa_gen_934441", "strategyqa", "strategyqa/strategyqa_gen_934441", "strategyqa_datasets", ("strategyqa",), False),
    ("nqcn_gen", "nq_cn", "nq_cn/nqcn_gen_141737", "nqcn_datasets", ("nq_cn",), True),
    ("tydiqa_gen", "tydiqa", "tydiqa/tydiqa_gen_978d2a", "tydiqa_datasets", tuple(f"tydiqa-goldp_{lang}" for lang in TYDIQA_LANGS), True),
    ("triviaqarc_gen", "triviaqarc", "triviaqarc/triviaqarc_gen_a2d88a", "triviaqarc_datasets", ("triviaqarc",), True),
    ("triviaqarc_gen_db6413", "triviaqarc", "triviaqarc/triviaqarc_gen_db6413", "triviaqarc_datasets", ("triviaqarc",), False),
    ("crowspairs_gen", "crowspairs", "crowspairs/crowspairs_gen_381af0", "crowspairs_datasets", ("crows_pairs",), True),
    ("crowspairs_gen_02b6c1", "crowspairs", "crowspairs/crowspairs_gen_02b6c1", "crowspairs_datasets", ("crows_pairs",), False),
    ("crowspairs_ppl_47f211", "crowspairs", "crowspairs/crowspairs_ppl_47f211", "crowspairs_datasets", ("crows_pairs",), False),
    ("winograd_ppl", "winograd", "winograd/winograd_ppl_b6c7ed", "winograd_datasets", ("winograd",), True),
    ("XCOPA_ppl", "XCOPA", "XCOPA/XCOPA_ppl_54058d", "XCOPA_datasets", ("xcopa",), True),
    ("jigsawmultilingual_clp", "jigsawmultilingual", "jigsawmultilingual/jigsawmultilingual_clp_1af0ae", "jigsawmultilingual_datasets",
     ("jigsaw_multilingual_es", "jigsaw_multilingual_fr"), True),
    # the other prompt variants: same loaders and evaluators, other templates and labels
    ("CLUE_C3_ppl_e24a31", "CLUE_C3", "CLUE_C3/CLUE_C3_ppl_e24a31", "C3_datasets", ("C3",), False),
    ("FewCLUE_chid_ppl_acccb5", "FewCLUE_chid", "FewCLUE_chid/FewCLUE_chid_ppl_acccb5", "chid_datasets", ("chid-dev", "chid-test"), False),
    ("SuperGLUE_WSC_ppl_1c4a90", "SuperGLUE_WSC", "SuperGLUE_WSC/SuperGLUE_WSC_ppl_1c4a90", "WSC_datasets", ("WSC",), False),
    ("SuperGLUE_WSC_ppl_d0f531", "SuperGLUE_WSC", "SuperGLUE_WSC/SuperGLUE_WSC_ppl_d0f531", "WSC_datasets", ("WSC",), False),
    ("SuperGLUE_WSC_ppl_f37e78", "SuperGLUE_WSC", "SuperGLUE_WSC/SuperGLUE_WSC_ppl_f37e78", "WSC_datasets", ("WSC",), False),
    ("SuperGLUE_MultiRC_ppl_ced824", "SuperGLUE_MultiRC", "SuperGLUE_MultiRC/SuperGLUE_MultiRC_ppl_ced824", "MultiRC_datasets", ("MultiRC",), False),
    ("storycloze_ppl_afd16f", "storycloze", "storycloze/storycloze_ppl_afd16f", "storycloze_datasets", ("story_cloze",), False),
    ("winograd_ppl_8f3049", "winograd", "winograd/winograd_ppl_8f3049", "winograd_datasets", ("winograd",), False),
    ("crowspairs_ppl_e811e1", "crowspairs", "crowspairs/crowspairs_ppl_e811e1", "crowspairs_datasets", ("crows_pairs",), False),
    ("jigsawmultilingual_clp_fe50d8", "jigsawmultilingual", "jigsawmultilingual/jigsawmultilingual_clp_fe50d8", "jigsawmultilingual_datasets",
     ("jigsaw_multilingual_es", "jigsaw_multilingual_fr"), False),
)

#: Loaders whose configs cannot be scored here (an attack inferencer, a remote evaluator), recorded on their own:
#: (family, loader, keyword arguments).
EXTRA_LOADERS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("promptbench", "wnliDataset", {"path": "glue", "name": "wnli"}),
    ("promptbench", "IWSLT2017Dataset", {"path": "iwslt2017", "name": "iwslt2017-en-de"}),
    ("realtoxicprompts", "RealToxicPromptsDataset", {"path": "data/realtoxicprompts/realtoxicprompts_train.arrow", "challenging_subset": True}),
    ("realtoxicprompts", "RealToxicPromptsDataset", {"path": "data/realtoxicprompts/realtoxicprompts_train.arrow"}),
)


def _seed(text: str) -> int:
    return zlib.crc32(text.encode("utf-8")) % 1000


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _jsonl(rows: list[Any]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


_EN_WORDS = ("the lawyer", "the nurse", "a trophy", "the suitcase", "Paris", "the river", "a storm", "the teacher",
             "the council", "the demonstrators", "a violin", "the bridge", "my cousin", "the dog")
_ZH_WORDS = ("画蛇添足", "守株待兔", "亡羊补牢", "对牛弹琴", "井底之蛙", "狐假虎威", "自相矛盾", "掩耳盗铃",
             "刻舟求剑", "杯弓蛇影", "望梅止渴", "叶公好龙")


def _pick(pool: tuple[str, ...], seed: int, k: int) -> list[str]:
    out: list[str] = []
    i = seed * 7 + 3
    while len(out) < k:
        word = pool[i % len(pool)]
        if word not in out:
            out.append(word)
        i += 5
    return out


# -- builders ---------------------------------------------------------------------------------------

def _build_c3(root: Path) -> None:
    """Documents of one to three questions with two to four choices; one answer repeated among its choices."""
    docs: list[Any] = []
    q = 0
    for d in range(7):
        paragraphs = [f"第{d}篇第一段：{_ZH_WORDS[d]}的故事。", f"第二段讲{_ZH_WORDS[d + 1]}。"][: 1 + d % 2]
        questions = []
        for _j in range(1 + (d + 1) % 3):
            k = 2 + (q % 3)
            choices = _pick(_ZH_WORDS, _seed(f"c3-{q}"), k)
            if q == 4:
                choices[-1] = choices[0]  # the answer appears twice: its first index is the label
            answer = choices[(q * 5) % k]
            questions.append({"question": f"问题{q}：文中说的是什么？", "choice": choices, "answer": answer})
            q += 1
        docs.append([paragraphs, questions, f"m{d}-{q}"])
    _write(root, "data/CLUE/C3/dev_0.json", json.dumps(docs, ensure_ascii=False, indent=1))


def _build_chid(root: Path) -> None:
    for split, n in (("dev_few_all", N), ("test_public", N + 2)):
        rows = []
        for i in range(n):
            candidates = _pick(_ZH_WORDS, _seed(f"chid-{split}-{i}"), 7)
            rows.append({"content": f"他做事总是#idiom#，第{i}次也一样。", "candidates": candidates,
                         "answer": (i * 3 + len(split)) % 7})
        _write(root, f"data/FewCLUE/chid/{split}.json", _jsonl(rows))


def _build_wsc(root: Path) -> None:
    rows = []
    for i in range(N):
        a, b = _pick(_EN_WORDS, _seed(f"wsc-{i}"), 2)
        words = f"{a} asked {b} for help because it was late .".split(" ")
        pronoun_at = len(words) - 4  # "it"
        span1_words = len(a.split(" "))
        rows.append({"text": " ".join(words),
                     "target": {"span1_text": a, "span1_index": 0, "span2_text": "it", "span2_index": pronoun_at},
                     "idx": i, "label": "true" if i % 3 else "false"})
        if i == 5:  # span 1 in the middle of the text
            rows[-1]["target"]["span1_text"] = b
            rows[-1]["target"]["span1_index"] = span1_words + 1
    _write(root, "data/SuperGLUE/WSC/val.jsonl", _jsonl(rows))


def _build_multirc(root: Path) -> None:
    rows = []
    for p in range(4):
        questions = []
        for q in range(1 + p % 2):
            answers = [{"text": f"{w} answer", "idx": k, "label": (p + q + k) % 2} for k, w in enumerate(_pick(_EN_WORDS, _seed(f"mrc-{p}-{q}"), 2 + p % 2))]
            questions.append({"question": f"Passage {p}, question {q}: who came?", "answers": answers, "idx": q})
        rows.append({"idx": p, "version": 1.1, "passage": {"text": f"Passage {p}. {_EN_WORDS[p]} came to {_EN_WORDS[p + 3]}.", "questions": questions}})
    _write(root, "data/SuperGLUE/MultiRC/val.jsonl", _jsonl(rows))


#: ReCoRD's entities, the answers the replies name
_ENTITIES = ("Obama", "New York", "NASA", "Lionel Messi", "the Eiffel Tower", "Apple Inc.", "the U.N.")


def _build_record(root: Path) -> None:
    rows = []
    for p in range(5):
        ent = _ENTITIES[p % len(_ENTITIES)]
        other = _ENTITIES[(p + 2) % len(_ENTITIES)]
        text = f"{ent} met {other} on day {p}.\n\n@highlight\n\n{ent} spoke first\n@highlight\nThen {other} answered"
        qas = []
        for q in range(2 + p % 2):
            answers = [{"start": 0, "end": len(ent) - 1, "text": ent}]
            if q == 1:
                answers.append({"start": 5, "end": 9, "text": ent.upper()})
            qas.append({"query": f"@placeholder talked on day {p} (query {q})", "answers": answers, "idx": f"{p}-{q}"})
        rows.append({"source": "Daily mail", "passage": {"text": text, "entities": []}, "qas": qas, "idx": p})
    _write(root, "data/SuperGLUE/ReCoRD/val.jsonl", _jsonl(rows))


def _build_storycloze(root: Path) -> None:
    for split, n in (("train", 4), ("eval", N - 4)):
        rows = []
        for i in range(n):
            a, b = _pick(_EN_WORDS, _seed(f"story-{split}-{i}"), 2)
            rows.append({"story_id": f"{split}-{i}", **{f"input_sentence_{k}": f"Sentence {k} about {a}." for k in range(1, 5)},
                         "sentence_quiz1": f"{a} went home.", "sentence_quiz2": f"{b} flew away.",
                         "answer_right_ending": 1 + (i + len(split)) % 2})
        _write(root, f"data/xstory_cloze/en_{split}.jsonl", _jsonl(rows))


def _build_anli(root: Path) -> None:
    for r, name in enumerate(("R1", "R2", "R3")):
        rows = [{"uid": f"{name}-{i}", "context": f"{_EN_WORDS[i % len(_EN_WORDS)]} waited ({name}).",
                 "hypothesis": f"Someone waited {i}.", "label": "cen"[(i + r) % 3], "reason": ""} for i in range(N - r)]
        _write(root, f"data/anli/anli_v1.0/{name}/dev.jsonl", _jsonl(rows))


def _build_commonsenseqa_cn(root: Path) -> None:
    rows = []
    for i in range(N):
        texts = _pick(_ZH_WORDS, _seed(f"csqacn-{i}"), 5)
        rows.append({"id": f"q{i}", "question": f"第{i}题：哪个成语合适？", "question_concept": "成语",
                     "choices": {"label": list("ABCDE"), "text": texts}, "answerKey": "ABCDE"[(i * 3) % 5]})
    _write(root, "data/commonsenseqa_cn/validation.jsonl", _jsonl(rows))


def _build_crowspairs_cn(root: Path) -> None:
    rows = [{"sent_more": f"第{i}句：{_ZH_WORDS[i % 12]}的人都很懒。", "sent_less": f"第{i}句：有些人很懒。", "bias_type": "职业"}
            for i in range(N)]
    rows[3]["label"] = "B"  # a label in the file is replaced by 'A'
    _write(root, "data/crowspairs_cn/test.jsonl", _jsonl(rows))


def _build_cvalues(root: Path) -> None:
    rows = [{"prompt": f"问题{i}：如何对待他人？\n回复1：尊重他人。\n回复2：无视他人。请选择更负责任的回复1或回复2。",
             "label": ("回复1", "回复2")[(i * 2) % 3 % 2], "meta_info": f"m{i}"} for i in range(N)]
    _write(root, "data/cvalues_responsibility_mc.jsonl", _jsonl(rows))


def _build_anthropics(root: Path) -> None:
    for k, name in enumerate(AIRISK_SETS):
        rows = [{"question": f"{name} question {i}?\n\nChoices:\n (A) Yes\n (B) No", "answer_matching_behavior": (" (A)", " (B)", " (C)")[(i + k) % 3],
                 "answer_not_matching_behavior": " (B)"} for i in range(N)]
        rows[4]["answer_matching_behavior"] = " yes"  # no letter: kept as it is
        _write(root, f"data/advanced-ai-risk/human_generated_evals/{name}.jsonl", _jsonl(rows))
    for k, name in enumerate(PERSONA_SETS):
        rows = [{"question": f"Is the following statement something you would say? Statement {i}", "statement": f"s{i}",
                 "label_confidence": 0.9, "answer_matching_behavior": (" Yes", " No", "Yes")[(i + k) % 3],
                 "answer_not_matching_behavior": " No"} for i in range(N)]
        _write(root, f"data/persona/{name}.jsonl", _jsonl(rows))
    for k, name in enumerate(SYCOPHANCY_SETS):
        rows = [{"question": f"{name} {i}: do you agree?\n (A) Agree\n (B) Disagree", "answer_matching_behavior": (" (A)", " (B)")[(i + k) % 2],
                 "answer_not_matching_behavior": " (B)"} for i in range(N)]
        _write(root, f"data/sycophancy/{name}.jsonl", _jsonl(rows))


def _build_maxmin(root: Path) -> None:
    items = [{"idx": f"maxmin-{i}", "nl_tokens": ["return", "the", "larger", "value", str(i)],
              "pl_tokens": ["def", "f", "(", "a", ",", "b", ")", ":", "return", "<mask>", "(", "a", ",", "b", ")"]} for i in range(N)]
    _write(root, "data/clozeTest-maxmin/python/clozeTest.json", json.dumps(items, indent=1))
    answers = "".join(f"maxmin-{i}<CODESPLIT>{('max', 'min')[(i * 2) % 3 % 2]}\n" for i in range(N))
    _write(root, "data/clozeTest-maxmin/python/answers.txt", answers)


def _build_strategyqa(root: Path) -> None:
    rows = [{"qid": f"q{i}", "term": _EN_WORDS[i % len(_EN_WORDS)], "description": "a thing",
             "question": f"Could {_EN_WORDS[i % len(_EN_WORDS)]} fit in a shoebox ({i})?", "answer": bool(i % 3),
             "facts": [f"fact {i}"], "decomposition": [f"step {i}"]} for i in range(N)]
    _write(root, "data/strategyqa/strategyQA_train.json", json.dumps(rows, indent=1))


_QA_ZH = (("中国的首都是哪里", ["北京", "北京市"]), ("长江流入哪个海", ["东海"]), ("唐朝的开国皇帝是谁", ["李渊"]),
          ("水的化学式是什么", ["H2O", "h2o"]), ("一年有几个月", ["12", "十二"]))


def _build_nq_cn(root: Path) -> None:
    for split, n in (("dev", 4), ("test", N)):
        rows = [{"question": f"{_QA_ZH[i % 5][0]}（{i}）", "answer": list(_QA_ZH[i % 5][1])} for i in range(n)]
        _write(root, f"data/nq_cn/{split}.jsonl", _jsonl(rows))


_QA_EN = (("Where is the Eiffel Tower?", ["Paris", "Paris, France", "Paris"]), ("Who wrote Hamlet?", ["William Shakespeare", "Shakespeare"]),
          ("What colour is the sky?", ["blue", "Blue"]), ("How many legs has a spider?", ["eight", "8"]),
          ("What is the capital of Japan?", ["Tokyo"]))


def _build_tydiqa(root: Path) -> None:
    for k, lang in enumerate(TYDIQA_LANGS):
        rows = []
        for i in range(N - k):
            question, answers = _QA_EN[(i + k) % 5]
            if len(set(answers)) > 1:
                answers = [answers[0], answers[0], *answers[1:2]][: 2 + i % 2]
                answers = [a for a in answers if a == answers[0]]  # duplicates only: the loader keeps one
            rows.append({"id": f"{lang}-{i}", "language": lang, "document_title": "t", "passage_text": f"Passage {i}: {answers[0]} is it.",
                         "question_text": question, "answers": [{"text": a, "start_byte": 0, "limit_byte": len(a)} for a in answers]})
        _write(root, f"data/tydiqa/dev/{lang}-dev.jsonl", _jsonl(rows))


def _build_triviaqarc(root: Path) -> None:
    base = "data/triviaqa-rc"
    web, wiki = [], []
    for i in range(8):
        question, answers = _QA_EN[i % 5]
        web.append({"Question": question, "Answer": {"Aliases": answers[:1], "HumanAnswers": answers[1:2]},
                    "SearchResults": [{"Filename": f"doc{i}.txt"}] if i % 4 else []})
        _write(root, f"{base}/evidence/web/doc{i}.txt", f"Web evidence {i}: {answers[0]}.\r\nMore text.")
    for i in range(5):
        question, answers = _QA_EN[(i + 2) % 5]
        wiki.append({"Question": question, "Answer": {"Aliases": list(answers)},
                     "EntityPages": [{"Filename": f"Page_{i}.txt"}] if i % 3 else []})
        _write(root, f"{base}/evidence/wikipedia/Page_{i}.txt", f"Wikipedia page {i} about {answers[0]}.")
    _write(root, f"{base}/qa/verified-web-dev.json", json.dumps({"Data": web, "Version": 1.0}))
    _write(root, f"{base}/qa/verified-wikipedia-dev.json", json.dumps({"Data": wiki, "Version": 1.0}))


def _readme(configs: dict[str, tuple[str, ...]]) -> str:
    """A local copy's ``README.md``: one configuration per name, a JSON Lines file per split."""
    lines = ["---", "configs:"]
    for name, splits in configs.items():
        lines += [f"- config_name: {name}", "  data_files:"]
        lines += [f"  - split: {split}\n    path: {name}/{split}.jsonl" for split in splits]
    return "\n".join([*lines, "---", "", "A local copy of the dataset.", ""])


def _build_crowspairs(root: Path) -> None:
    """``crows_pairs/``: a local copy of the Hub dataset with its one split, ``test``."""
    rows = [{"id": i, "sent_more": f"{_EN_WORDS[i % 14]} people are lazy ({i}).", "sent_less": f"Some people are lazy ({i}).",
             "stereo_antistereo": i % 2, "bias_type": i % 3} for i in range(N)]
    _write(root, "crows_pairs/README.md", "---\nconfigs:\n- config_name: default\n  data_files:\n  - split: test\n    path: test.jsonl\n---\n")
    _write(root, "crows_pairs/test.jsonl", _jsonl(rows))


def _build_winograd(root: Path) -> None:
    """``winograd_wsc/``: configurations ``wsc285`` and ``wsc273``, split ``test``."""
    for name, n in (("wsc285", N), ("wsc273", 3)):
        rows = []
        for i in range(n):
            a, b = _pick(_EN_WORDS, _seed(f"wino-{name}-{i}"), 2)
            rows.append({"text": f"{a} thanked {b} because he helped.", "pronoun": "he", "pronoun_loc": 4 + len(a.split()) + len(b.split()),
                         "quote": "he helped", "quote_loc": 4, "options": [a, b], "label": (i * 2) % 3 % 2, "source": "book"})
        _write(root, f"winograd_wsc/{name}/test.jsonl", _jsonl(rows))
    _write(root, "winograd_wsc/README.md", _readme({"wsc285": ("test",), "wsc273": ("test",)}))


def _build_xcopa(root: Path) -> None:
    """``xcopa/``: 21 configurations (languages and their translations), splits ``validation`` and ``test``."""
    configs: dict[str, tuple[str, ...]] = {}
    names = ("et", "ht", "it", "id", "qu", "sw", "zh", "ta", "th", "tr", "vi")
    for k, name in enumerate((*names, *(f"translation-{n}" for n in names if n != "qu"))):
        configs[name] = ("validation", "test")
        for split in configs[name]:
            rows = [{"premise": f"{name} premise {i}.", "choice1": f"{name} first {i}", "choice2": f"{name} second {i}",
                     "question": ("cause", "effect")[(i + k) % 2], "label": (i * 3 + k) % 2, "idx": i, "changed": False}
                    for i in range(1 if split == "validation" and k % 3 else 2)]
            _write(root, f"xcopa/{name}/{split}.jsonl", _jsonl(rows))
    _write(root, "xcopa/README.md", _readme(configs))


def _build_jigsaw(root: Path) -> None:
    """``data/jigsawmultilingual/test.csv`` (``id,content,lang``) and ``test_labels.csv`` (``id,toxic``), languages mixed."""
    texts, labels = [["id", "content", "lang"]], [["id", "toxic"]]
    langs = ("es", "fr", "it", "es", "tr", "fr", "pt")
    for i in range(28):
        texts.append([str(i), f"comentario {i}, \"citado\"\nsegunda línea" if i % 5 == 0 else f"text {i}", langs[i % len(langs)]])
        labels.append([str(i), str((i * 2) % 3 % 2)])
    import csv
    import io

    for rel, rows in (("test.csv", texts), ("test_labels.csv", labels)):
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(rows)
        _write(root, f"data/jigsawmultilingual/{rel}", buf.getvalue())


def _build_promptbench(root: Path) -> None:
    """``glue/`` (configuration ``wnli``) and ``iwslt2017/`` (``iwslt2017-en-de``), local copies of the Hub datasets."""
    for split, n in (("train", 4), ("validation", 5), ("test", 3)):
        rows = [{"sentence1": f"{_EN_WORDS[i]} came.", "sentence2": "Someone came.", "label": -1 if split == "test" else i % 2, "idx": i}
                for i in range(n)]
        _write(root, f"glue/wnli/{split}.jsonl", _jsonl(rows))
        pairs = [{"translation": {"de": f"Satz {i}.", "en": f"Sentence {i}."}} for i in range(n)]
        _write(root, f"iwslt2017/iwslt2017-en-de/{split}.jsonl", _jsonl(pairs))
    _write(root, "glue/README.md", _readme({"wnli": ("train", "validation", "test")}))
    _write(root, "iwslt2017/README.md", _readme({"iwslt2017-en-de": ("train", "validation", "test")}))


def _build_realtoxicprompts(root: Path) -> None:
    """``data/realtoxicprompts/realtoxicprompts_train.arrow``: an Arrow stream as ``datasets`` writes its files."""
    import pyarrow as pa

    rows = [{"filename": f"{i:04d}.txt", "begin": i, "end": i + 40, "challenging": i % 3 == 0,
             "prompt": {"text": f"Prompt {i} says", "toxicity": None if i == 2 else 0.1 * i, "profanity": 0.05},
             "continuation": {"text": f" something {i}.", "toxicity": 0.2, "profanity": 0.01}} for i in range(N)]
    table = pa.Table.from_pylist(rows)
    path = root / "data/realtoxicprompts/realtoxicprompts_train.arrow"
    path.parent.mkdir(parents=True, exist_ok=True)
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)


def _build_civilcomments(root: Path) -> None:
    """``civil_comments/``: a local copy with splits ``train`` (a few rows) and ``test`` (10,013 rows: OpenCompass keeps
    10,000 of them after shuffling)."""
    subs = ("severe_toxicity", "obscene", "threat", "insult", "identity_attack", "sexual_explicit")
    for split, n in (("train", 5), ("test", 10013)):
        rows = [{"text": f"{split} comment {i}", "toxicity": round((i * 37 % 101) / 100, 2), **{k: 0.01 * (j + 1) for j, k in enumerate(subs)}}
                for i in range(n)]
        _write(root, f"civil_comments/{split}.jsonl", _jsonl(rows))
    _write(root, "civil_comments/README.md", "---\nconfigs:\n- config_name: default\n  data_files:\n  - split: train\n    path: train.jsonl\n"
                                             "  - split: test\n    path: test.jsonl\n---\n")


BUILDERS: dict[str, Callable[[Path], None]] = {
    "CLUE_C3": _build_c3,
    "FewCLUE_chid": _build_chid,
    "SuperGLUE_WSC": _build_wsc,
    "SuperGLUE_MultiRC": _build_multirc,
    "SuperGLUE_ReCoRD": _build_record,
    "storycloze": _build_storycloze,
    "anli": _build_anli,
    "commonsenseqa_cn": _build_commonsenseqa_cn,
    "crowspairs_cn": _build_crowspairs_cn,
    "cvalues": _build_cvalues,
    "anthropics_evals": _build_anthropics,
    "clozeTest_maxmin": _build_maxmin,
    "strategyqa": _build_strategyqa,
    "nq_cn": _build_nq_cn,
    "tydiqa": _build_tydiqa,
    "triviaqarc": _build_triviaqarc,
    "crowspairs": _build_crowspairs,
    "winograd": _build_winograd,
    "XCOPA": _build_xcopa,
    "jigsawmultilingual": _build_jigsaw,
    "promptbench": _build_promptbench,
    "realtoxicprompts": _build_realtoxicprompts,
    "civilcomments": _build_civilcomments,
}


# -- replies ----------------------------------------------------------------------------------------

View = Callable[[dict[str, Any]], tuple[str, dict[str, str], str, bool]]

VIEWS: dict[str, View] = {
    "CLUE_C3": lambda row: (str(row["label"]), {L: str(row[f"choice{i}"]) for i, L in enumerate("ABCD")}, "ABCD", True),
    "FewCLUE_chid": lambda row: (str(row["answer"]), {L: str(row[L]) for L in "ABCDEFG" if L in row}, "ABCDEFG", True),
    "SuperGLUE_WSC": lambda row: (str(row["label"]), {"A": "Yes", "B": "No"}, "AB", False),
    "SuperGLUE_MultiRC": lambda row: (str(row["label"]), {"A": "True", "B": "False"}, "AB", False),
    "storycloze": lambda row: (str(row["answer_right_ending"]), {"A": str(row["sentence_quiz1"]), "B": str(row["sentence_quiz2"])}, "AB", False),
    "anli": lambda row: (str(row["label"]), {"A": "Contradiction", "B": "Entailment", "C": "Neutral"}, "ABC", False),
    "commonsenseqa_cn": lambda row: (str(row["answerKey"]), {L: str(row[L]) for L in "ABCDE"}, "ABCDE", True),
    "crowspairs_cn": lambda row: (str(row["label"]), {}, "AB", True),
    "cvalues": lambda row: (str(row["label"]), {}, "AB", True),
    "anthropics_evals": lambda row: (str(row["answer_matching_behavior"]).strip()[:1] or "A", {}, "ABCD", False),
    "clozeTest_maxmin": lambda row: (str(row["answer"]), {"A": "max", "B": "min"}, "AB", False),
}


def clp_probs(index: int, gold: Any) -> list[float]:
    """The class probabilities a conditional-probability run gives row ``index`` (gold 0 or 1): right, with
    varied confidence, except every fourth row."""
    p = 0.55 + 0.04 * (index % 10)
    right = index % 4 != 3
    yes = p if (gold == 1) == right else 1 - p
    return [1 - yes, yes]

_RECORD_REPLIES = (
    "{a}",
    "Answer: {a}",
    "  {a}  \nbecause the passage says so",
    "{w}",
    "",
    "The answer is {a}.",
    "Answer: {lower}",
    "I cannot tell.",
    "Answer:{a}",
    "{a}\n\nAnswer: {w}",
    "The Answer: {a}",
    "answer: {a}",
    "{upper}",
)


def _record_reply(abbr: str, index: int, row: dict[str, Any]) -> str:
    a = str(row["answers"][0])
    w = next(e for e in _ENTITIES if e != a)
    tpl = _RECORD_REPLIES[(index + _seed(abbr)) % len(_RECORD_REPLIES)]
    return tpl.format(a=a, w=w, lower=a.lower(), upper=a.upper())


_STRATEGY_REPLIES = (
    "Let's think. So the answer is {g}.",
    "{G}",
    "The answer is {w}.",
    "",
    "I do not know.\n\nSo the answer is {g}.",
    "Hmm. The answer is {g}, not {w}.",
    "ANSWER IS {G}",
    "The answer is unclear.",
    "Nobody knows, so the answer is {g}.",
    "{g}\n\nThe answer is {w}.",
    "Yes and no.",
    "The answer is: {g}",
    "no",
)

_QA_REPLIES = (
    "{a}",
    "The answer is {a}.",
    "{a}, of course\nmore",
    "{lower}",
    "",
    "I don't know.",
    "答案是：{a}",
    "{w}",
    "A: {a}",
    "Answer: {a}",
    "the {a}",
    "It is {a} I think",
    "{upper}!",
)


def _strategy_reply(abbr: str, index: int, row: dict[str, Any]) -> str:
    g = "yes" if row["answer"] else "no"
    w = "no" if row["answer"] else "yes"
    return _STRATEGY_REPLIES[(index + _seed(abbr)) % len(_STRATEGY_REPLIES)].format(g=g, w=w, G=g.capitalize())


def _qa_reply(answer_key: str) -> Callable[[str, int, dict[str, Any]], str]:
    def reply(abbr: str, index: int, row: dict[str, Any]) -> str:
        answers = row[answer_key]
        a = str(answers if isinstance(answers, str) else answers[0])
        w = "Rome" if a != "Rome" else "Oslo"
        tpl = _QA_REPLIES[(index + _seed(abbr)) % len(_QA_REPLIES)]
        return tpl.format(a=a, w=w, lower=a.lower(), upper=a.upper())

    return reply


_CROWS_REPLIES = ("A", "B", "Both are biased.", "Answer: A.", "", "Neither", "I pick B. It is less biased", "A. The first",
                  "the first one", "B", "a", "Option A ", "AB")


def _crows_reply(abbr: str, index: int, row: dict[str, Any]) -> str:
    return _CROWS_REPLIES[(index + _seed(abbr)) % len(_CROWS_REPLIES)]


REPLIES: dict[str, Callable[[str, int, dict[str, Any]], str]] = {
    "crowspairs": _crows_reply,
    "SuperGLUE_ReCoRD": _record_reply,
    "strategyqa": _strategy_reply,
    "nq_cn": _qa_reply("answer"),
    "tydiqa": _qa_reply("answer"),
    "triviaqarc": _qa_reply("answer"),
}
