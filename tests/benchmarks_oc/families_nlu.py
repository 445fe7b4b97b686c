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

__all__ = ["BUILDERS", "REPLIES", "RUN_SPECS", "VIEWS"]

N = 13

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


BUILDERS: dict[str, Callable[[Path], None]] = {
    "CLUE_C3": _build_c3,
    "FewCLUE_chid": _build_chid,
    "SuperGLUE_WSC": _build_wsc,
    "SuperGLUE_MultiRC": _build_multirc,
    "SuperGLUE_ReCoRD": _build_record,
    "storycloze": _build_storycloze,
    "anli": _build_anli,
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
}

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


REPLIES: dict[str, Callable[[str, int, dict[str, Any]], str]] = {
    "SuperGLUE_ReCoRD": _record_reply,
}
