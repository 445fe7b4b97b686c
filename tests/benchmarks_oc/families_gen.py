"""Small data of the generation families (translation, summaries, long-document QA, file-based exams)
in OpenCompass's local layouts, and their model replies.

Pure standard library, like :mod:`tests.benchmarks_oc.families`, which takes its runs
(:data:`RUN_ARGS`), builders (:data:`BUILDERS`), reply views and text replies from here.
"""

from __future__ import annotations

import csv
import io
import json
import zlib
from pathlib import Path
from typing import Any

__all__ = ["BUILDERS", "MC_VIEWS", "RUN_ARGS", "TEXT_FAMILIES", "text_reply"]

N = 6

_FLORES = {  # config language code -> FLORES file name, sentences
    "eng": ("eng_Latn", ["The cat sleeps on the warm mat.", "We visited the old museum yesterday.", "Rain is expected this evening.",
                         "She plays the violin every morning.", "The river flows quietly to the sea.", "Our train left five minutes late."]),
    "fra": ("fra_Latn", ["Le chat dort sur le tapis chaud.", "Nous avons visité le vieux musée hier.", "De la pluie est prévue ce soir.",
                         "Elle joue du violon chaque matin.", "La rivière coule doucement vers la mer.", "Notre train est parti avec cinq minutes de retard."]),
    "zho_simpl": ("zho_Hans", ["猫在温暖的垫子上睡觉。", "我们昨天参观了那座老博物馆。", "今晚预计会下雨。",
                               "她每天早上拉小提琴。", "河水静静地流向大海。", "我们的火车晚了五分钟出发。"]),
}
_FLORES_PAIRS = ("eng-fra", "fra-eng", "eng-zho_simpl", "zho_simpl-eng")
_flores = tuple(f"flores_100_{p}" for p in _FLORES_PAIRS)

_ARTICLES_ZH = ("今天上午，市政府召开新闻发布会，宣布将新建三座公园。", "研究人员发现，每天步行半小时有助于改善睡眠。",
                "受强降雨影响，多条高速公路临时封闭。", "一家科技公司发布了新款手机，售价比上一代更低。",
                "本市图书馆延长开放时间至晚上十点。", "春节假期铁路客流创下历史新高。", "这行没有摘要")
_SUMMARIES_ZH = ("市政府将新建三座公园", "每天步行有助睡眠", "强降雨致高速封闭", "新款手机降价发布", "图书馆延长开放时间", "春节铁路客流创新高")

_TEXTS_EN = (("The council met on Monday to discuss the new bridge. Residents raised concerns about traffic.",
              "Council discusses new bridge amid traffic worries."),
             ("A local bakery won the national bread award after ten years of trying.",
              "Local bakery wins national bread award."),
             ("Scientists tracked a rare bird across three countries using small radio tags.",
              "Rare bird tracked across three countries."),
             ("The school will open a new library wing next spring, funded by former pupils.",
              "Former pupils fund new school library wing."),
             ("Heavy snow closed the mountain pass for two days, stranding several lorries.",
              "Snow closes mountain pass for two days."),
             ("The museum returned a painting to the family that owned it before the war.",
              "Museum returns painting to pre-war owners."))

_QA = (("Who found the map?", ("the old sailor", "a sailor")), ("Where does the story begin?", ("in a small harbour town", "the harbour")),
       ("What colour was the door?", ("green", "dark green")), ("How many brothers did she have?", ("three", "3 brothers")),
       ("Why did they leave?", ("to escape the flood", "the flood")), ("When did the letter arrive?", ("on a Sunday", "Sunday morning")))


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _jsonl(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def _seed(text: str) -> int:
    return zlib.crc32(text.encode())


def _build_flores(root: Path) -> None:
    """Three languages, both splits; a line with spaces around it, and a Chinese line with inner spaces."""
    for code, (name, lines) in _FLORES.items():
        for split in ("dev", "devtest"):
            text = [f"[{split}] {s}" if split == "dev" else s for s in lines]
            if split == "devtest" and code == "zho_simpl":
                text[2] = "今晚  预计 会下雨。"
            if split == "devtest" and code == "fra":
                text[4] = f"  {text[4]}  "
            _write(root, f"data/flores_first100/{split}/{name}.{split}", "\n".join(text) + "\n")


def _build_lcsts(root: Path) -> None:
    """The source file one line longer than the summaries (dropped, as OpenCompass pairs by line)."""
    _write(root, "data/LCSTS/test.src.txt", "\n".join(_ARTICLES_ZH) + "\n")
    _write(root, "data/LCSTS/test.tgt.txt", "\n".join(f" {s} " for s in _SUMMARIES_ZH) + "\n")


def _build_xsum(root: Path) -> None:
    """dev.jsonl with a NaN summary (left out) among the lines."""
    rows = [{"dialogue": d, "summary": s, "id": i} for i, (d, s) in enumerate(_TEXTS_EN)]
    lines = [json.dumps(r) for r in rows]
    lines.insert(3, '{"dialogue": "A line without a summary.", "summary": NaN, "id": 99}')
    _write(root, "data/Xsum/dev.jsonl", "\n".join(lines) + "\n")


def _build_narrativeqa(root: Path) -> None:
    """qaps.csv with a header, the three sets, a document that is missing (its question left out)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["document_id", "set", "question", "answer1", "answer2", "question_tokenized", "answer1_tokenized", "answer2_tokenized"])
    sets = ("valid", "valid", "train", "valid", "test", "valid", "valid", "valid")
    for i, split in enumerate(sets):
        question, answers = _QA[i % len(_QA)]
        writer.writerow([f"doc{i % 4}" if i != 6 else "missing", split, question, answers[0], answers[1], "", "", ""])
    _write(root, "data/narrativeqa/qaps.csv", out.getvalue())
    for d in range(4):
        _write(root, f"data/narrativeqa/tmp/doc{d}.content", f"Story {d}. The old sailor found the map in a small harbour town.\n" * 3)


def _qasper_articles() -> dict[str, Any]:
    articles = {}
    for a in range(2):
        paragraphs = [f"Paragraph {k} of paper {a}: the method uses {k + 2} layers." for k in range(3)]
        qas = []
        for q in range(4):
            question, answers = _QA[(a * 4 + q) % len(_QA)]
            spans = [] if q == 3 else list(answers[: 1 + q % 2])
            evidence = [paragraphs[q % 3]] if q != 1 else ["a passage that is not in the paper"]
            qas.append({"question": question, "question_id": f"{a}-{q}",
                        "answers": [{"answer": {"extractive_spans": spans, "evidence": evidence, "free_form_answer": "",
                                                "unanswerable": False, "yes_no": None}}]})
        articles[f"paper{a}"] = {"title": f"Paper {a}", "abstract": "An abstract.",
                                 "full_text": [{"section_name": "Introduction" if a else None, "paragraphs": paragraphs[:2]},
                                               {"section_name": "Method", "paragraphs": paragraphs[2:]}],
                                 "qas": qas}
    return articles


def _build_qasper(root: Path) -> None:
    """``./data/QASPER/`` and, for ``qasper_rawprompt_gen``'s ``opencompass/QASPER`` read in local mode, ``./opencompass/QASPER/``."""
    text = json.dumps(_qasper_articles(), indent=1)
    _write(root, "data/QASPER/qasper-dev-v0.3.json", text)
    _write(root, "opencompass/QASPER/qasper-dev-v0.3.json", text)


def _build_govrep(root: Path) -> None:
    ids = {"train": ["R1"], "valid": ["R2"], "test": ["R3", "R4", "R5", "R6"]}
    for split, names in ids.items():
        _write(root, f"data/govrep/gov-report/split_ids/crs_{split}.ids", "".join(f"{n}\n" for n in names))
        for k, n in enumerate(names):
            body, summary = _TEXTS_EN[(int(n[1]) - 1) % len(_TEXTS_EN)]
            report = {"id": n, "title": f"Report {n}", "summary": [summary, "It was debated."],
                      "reports": {"section_title": "", "paragraphs": [],
                                  "subsections": [{"section_title": "Background" if k % 2 else None, "paragraphs": [body, "More."],
                                                   "subsections": []}]}}
            _write(root, f"data/govrep/gov-report/crs/{n}.json", json.dumps(report))


def _build_summscreen(root: Path) -> None:
    """One episode in each of ``fd`` and ``tms`` (the order of a folder's files is the file system's)."""
    for k, sub in enumerate(("fd", "tms")):
        body, summary = _TEXTS_EN[k]
        episode = {"Recap": [summary, " Then they left."], "Transcript": [f"[Scene {k}]", body, "END"]}
        _write(root, f"data/SummScreen/SummScreen_raw/{sub}/episode{k}.json", json.dumps(episode))


_MC_EN = (("Which gas do plants take in?", ("carbon dioxide", "oxygen", "helium", "neon"), "A"),
          ("What is 7 times 8?", ("54", "56", "58", "64"), "B"),
          ("Which planet is largest?", ("Mars", "Venus", "Jupiter", "Mercury"), "C"),
          ("What is the boiling point of water at sea level?", ("50 C", "75 C", "90 C", "100 C"), "D"),
          ("Which metal is liquid at room temperature?", ("mercury", "iron", "copper", "zinc"), "A"),
          ("How many sides does a hexagon have?", ("five", "six", "seven", "eight"), "B"))
_MC_ZH = (("植物吸收哪种气体？", ("二氧化碳", "氧气", "氦气", "氖气"), "A"), ("七乘以八等于多少？", ("54", "56", "58", "64"), "B"),
          ("哪颗行星最大？", ("火星", "金星", "木星", "水星"), "C"), ("海平面上水的沸点是多少？", ("50度", "75度", "90度", "100度"), "D"),
          ("哪种金属在室温下是液体？", ("汞", "铁", "铜", "锌"), "A"), ("六边形有几条边？", ("五", "六", "七", "八"), "B"))


def _mc(tag: str, zh: bool = False) -> list[tuple[str, tuple[str, ...], str]]:
    base = _MC_ZH if zh else _MC_EN
    shift = _seed(tag) % len(base)
    return [(f"{q} ({tag})", opts, gold) for q, opts, gold in base[shift:] + base[:shift]]


MMLU_ARABIC = ("abstract_algebra", "anatomy")
FINANCEIQ = ("注册会计师（CPA）", "精算师-金融数学")
CHEMBENCH = ("Name_Conversion", "Property_Prediction")
MMMLU_LITE = ("AR-XY", "ZH-CN")


def _csv(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


def _build_mmlu_arabic(root: Path) -> None:
    for name in MMLU_ARABIC:
        for split in ("dev", "test"):
            rows = [[q, *opts, gold] for q, opts, gold in _mc(f"ar-{name}-{split}")]
            _write(root, f"data/MMLUArabic/{split}/{name}_{split}.csv", _csv(rows))


def _build_financeiq(root: Path) -> None:
    for name in FINANCEIQ:
        for split in ("dev", "test"):
            rows = [["id", "question", "A", "B", "C", "D", "answer"]]
            rows += [[str(i), q, *opts, gold] for i, (q, opts, gold) in enumerate(_mc(f"fiq-{name}-{split}", zh=True))]
            _write(root, f"data/FinanceIQ/{split}/{name}.csv", _csv(rows))


def _build_chembench(root: Path) -> None:
    for name in CHEMBENCH:
        for split in ("dev", "test"):
            items = [{"question": q, "A": o[0], "B": o[1], "C": o[2], "D": o[3], "answer": g, "id": i}
                     for i, (q, o, g) in enumerate(_mc(f"chem-{name}-{split}"))]
            _write(root, f"data/ChemBench4K/{split}/{name}_benchmark.json", json.dumps(items, ensure_ascii=False, indent=1))


def _build_cmb(root: Path) -> None:
    """Single and multiple answers, an option of one character (left out of ``option_str``), a five-option question."""
    for split in ("val", "test"):
        items = []
        for i, (q, opts, gold) in enumerate(_mc(f"cmb-{split}", zh=True)):
            option = dict(zip("ABCD", opts))
            if i == 1:
                option["E"] = "以上都不是"
            answer = gold if i % 3 else gold + ("D" if gold != "D" else "A")
            items.append({"exam_type": "医师考试", "exam_class": "执业医师", "question_type": "单项选择题" if i % 3 else "多项选择题",
                          "question": q, "option": option, **({"answer": "".join(sorted(answer))} if split == "val" else {})})
        _write(root, f"data/CMB/{split}.json", json.dumps(items, ensure_ascii=False, indent=1))


def _xiezhi_lines(tag: str, chinese: bool) -> list[dict[str, Any]]:
    lines = []
    for i, (q, opts, gold) in enumerate(_mc(tag, zh=chinese)):
        options = "\n".join(opts) + ('"\n' if i == 2 else "")
        if i == 4:
            options += "\n多余的选项" if chinese else "\nan extra option"  # five options: left out
        labels = ["科学", "自然科学", "物理学与天文学"] if chinese else ["Science", "Natural science", "Physics"]
        lines.append({"question": q, "options": options, "answer": opts["ABCD".index(gold)],
                      ("labels" if chinese else "label"): labels[i % 3:] + labels[: i % 3]})
    return lines


def _build_xiezhi(root: Path) -> None:
    for name in ("xiezhi_train_chn", "xiezhi_train_eng", "xiezhi_spec_chn", "xiezhi_spec_eng", "xiezhi_inter_chn", "xiezhi_inter_eng"):
        _write(root, f"data/xiezhi/{name}/xiezhi.v1.json", _jsonl(_xiezhi_lines(name, "chn" in name)))


def _build_mmmlu_lite(root: Path) -> None:
    for lang in MMMLU_LITE:
        rows = [{"input": q, "A": o[0], "B": o[1], "C": o[2], "D": o[3], "target": g, "subject": "college biology"}
                for q, o, g in _mc(f"mmmlu-{lang}", zh=lang == "ZH-CN")]
        _write(root, f"data/mmmlu_lite/{lang}/test.jsonl", _jsonl(rows))


def _hub_readme(configs: dict[str, dict[str, str]]) -> str:
    """A Hugging Face dataset card declaring ``{config: {split: file}}`` (what ``datasets.load_dataset`` reads of a folder)."""
    lines = ["---", "configs:"]
    for config, splits in configs.items():
        lines += [f"- config_name: {config}", "  data_files:"]
        lines += [f"  - split: {split}\n    path: {file}" for split, file in splits.items()]
    return "\n".join([*lines, "---", ""])


MMLU_CF = ("Math", "Law")
MMMLU = ("AR-XY", "ZH-CN")
MEDQA = ("US", "Mainland")
BUYSIDE = ("three_statements_zh", "dcf_valuation_en")


def _build_mmlu_cf(root: Path) -> None:
    """``microsoft/MMLU-CF`` as a local folder: the splits ``<category>_dev`` and ``<category>_val``, an extra column."""
    splits = {}
    for name in MMLU_CF:
        for split in ("dev", "val"):
            rows = [{"Question": q, "A": o[0], "B": o[1], "C": o[2], "D": o[3], "Answer": g, "Source": f"{name}-{i}"}
                    for i, (q, o, g) in enumerate(_mc(f"cf-{name}-{split}"))]
            _write(root, f"microsoft/MMLU-CF/{split}/{name}_{split}.jsonl", _jsonl(rows))
            splits[f"{name}_{split}"] = f"{split}/{name}_{split}.jsonl"
    _write(root, "microsoft/MMLU-CF/README.md", _hub_readme({"default": splits}))


def _build_mmmlu(root: Path) -> None:
    """``openai/MMMLU`` as a local folder: one configuration per language (``AR_XY``), its ``test`` split a CSV file."""
    configs = {}
    for lang in MMMLU:
        rows = [["", "Question", "A", "B", "C", "D", "Answer", "Subject"]]
        rows += [[str(i), q, *o, g, "college_biology" if i % 2 else "high_school_us_history"]
                 for i, (q, o, g) in enumerate(_mc(f"mmmlu-{lang}", zh=lang == "ZH-CN"))]
        _write(root, f"openai/MMMLU/test/mmlu_{lang}.csv", _csv(rows))
        configs[lang.replace("-", "_")] = {"test": f"test/mmlu_{lang}.csv"}
    _write(root, "openai/MMMLU/README.md", _hub_readme(configs))


def _build_medqa(root: Path) -> None:
    """``xuxuxuxuxu/MedQA_<region>_test`` as local folders, each a ``train`` split with ``options`` objects."""
    for region in MEDQA:
        rows = [{"question": q, "answer": o["ABCD".index(g)], "options": dict(zip("ABCD", o)), "meta_info": "step1", "answer_idx": g}
                for q, o, g in _mc(f"medqa-{region}", zh=region == "Mainland")]
        _write(root, f"xuxuxuxuxu/MedQA_{region}_test/train.jsonl", _jsonl(rows))


def _build_rbench(root: Path) -> None:
    """``R-Bench/R-Bench`` as a local folder: the configurations ``rbench-t_en`` and ``rbench-t_zh``, six options."""
    configs = {}
    for lang in ("en", "zh"):
        rows = [{"question": q, **dict(zip("ABCD", o)), "E": "none of the above", "F": "all of the above", "answer": g, "index": i}
                for i, (q, o, g) in enumerate(_mc(f"rbench-{lang}", zh=lang == "zh"))]
        _write(root, f"R-Bench/R-Bench/rbench-t_{lang}/test.jsonl", _jsonl(rows))
        configs[f"rbench-t_{lang}"] = {"test": f"rbench-t_{lang}/test.jsonl"}
    _write(root, "R-Bench/R-Bench/README.md", _hub_readme(configs))


def _build_buyside(root: Path) -> None:
    """``cindy90/BuySideFinBench`` as a local folder: one configuration per subject, ``dev`` and ``test`` splits."""
    configs = {}
    for name in BUYSIDE:
        for split in ("dev", "test"):
            rows = [{"question": q, "A": o[0], "B": o[1], "C": o[2], "D": o[3], "answer": g, "id": i}
                    for i, (q, o, g) in enumerate(_mc(f"buyside-{name}-{split}", zh=name.endswith("_zh")))]
            _write(root, f"cindy90/BuySideFinBench/{name}/{split}.jsonl", _jsonl(rows))
        configs[name] = {"dev": f"{name}/dev.jsonl", "test": f"{name}/test.jsonl"}
    _write(root, "cindy90/BuySideFinBench/README.md", _hub_readme(configs))


def _build_iwslt(root: Path) -> None:
    """The local folder ``iwslt2017`` (the config's ``path``) with the configuration ``iwslt2017-en-de``."""
    pairs = [(en, fr) for (en, fr) in zip(_FLORES["eng"][1], _FLORES["fra"][1])]
    splits = {}
    for split, chosen in (("train", pairs[:2]), ("validation", pairs[2:4]), ("test", pairs)):
        rows = [{"translation": {"de": f"[de] {fr}", "en": en}} for en, fr in chosen]
        _write(root, f"iwslt2017/iwslt2017-en-de/{split}.jsonl", _jsonl(rows))
        splits[split] = f"iwslt2017-en-de/{split}.jsonl"
    _write(root, "iwslt2017/README.md", _hub_readme({"iwslt2017-en-de": splits}))


XLSUM_LANGUAGES = (
    "oromo", "french", "amharic", "arabic", "azerbaijani", "bengali", "burmese", "chinese_simplified", "chinese_traditional",
    "welsh", "english", "kirundi", "gujarati", "hausa", "hindi", "igbo", "indonesian", "japanese", "korean", "kyrgyz",
    "marathi", "spanish", "scottish_gaelic", "nepali", "pashto", "persian", "pidgin", "portuguese", "punjabi", "russian",
    "serbian_cyrillic", "serbian_latin", "sinhala", "somali", "swahili", "tamil", "telugu", "thai", "tigrinya", "turkish",
    "ukrainian", "urdu", "uzbek", "vietnamese", "yoruba",
)


def _build_xlsum(root: Path) -> None:
    """``csebuetnlp/xlsum`` as a local folder: 45 configurations, one per language, a ``validation`` split each (a row or two)."""
    configs = {}
    for k, lang in enumerate(XLSUM_LANGUAGES):
        text, summary = _TEXTS_EN[k % len(_TEXTS_EN)]
        rows = [{"id": f"{lang}-{j}", "url": f"https://example.org/{lang}/{j}", "title": f"{lang} {j}", "summary": f"{summary} ({lang})",
                 "text": text} for j in range(1 + k % 2)]
        _write(root, f"csebuetnlp/xlsum/{lang}/validation.jsonl", _jsonl(rows))
        _write(root, f"csebuetnlp/xlsum/{lang}/test.jsonl", _jsonl(rows[:1]))
        configs[lang] = {"validation": f"{lang}/validation.jsonl", "test": f"{lang}/test.jsonl"}
    _write(root, "csebuetnlp/xlsum/README.md", _hub_readme(configs))


def _build_rolebench(root: Path) -> None:
    """``ZenMoore/RoleBench`` below the working folder: both profiles, the three parts, general and role-specific questions."""
    base = root / "ZenMoore" / "RoleBench"
    roles_en = {"Sherlock": "A detective in London.", "Juliet": "A young woman of Verona."}
    roles_zh = {"孙悟空": "齐天大圣。", "林黛玉": "贾府的表小姐。"}
    _write(base, "profiles-eng/desc.json", json.dumps(roles_en))
    _write(base, "profiles-zh/desc.json", json.dumps(roles_zh, ensure_ascii=False))
    for part, roles, zh in (("rolebench-eng/instruction-generalization", roles_en, False), ("rolebench-eng/role-generalization", roles_en, False),
                            ("rolebench-zh", roles_zh, True)):
        for kind in ("general", "role_specific"):
            for split in ("train", "test"):
                rows = []
                for i in range(3 if split == "test" else 2):
                    role = list(roles)[i % 2]
                    if zh:
                        answer = _SUMMARIES_ZH[(i + len(kind)) % len(_SUMMARIES_ZH)]
                        rows.append({"role": role, "question": f"{kind}问题{i}？", "generated": [answer, "另一个回答"]})
                    else:
                        answer = _TEXTS_EN[(i + len(kind)) % len(_TEXTS_EN)][1]
                        rows.append({"role": role, "question": f"{kind} question {i}?", "generated": [answer, "another answer"]})
                _write(base, f"{part}/{kind}/{split}.jsonl", _jsonl(rows))


def _build_py150(root: Path) -> None:
    """Tokenized code lines with every literal placeholder, and a ``gt`` holding one too."""
    rows = [
        {"id": 0, "input": "<s> import os <EOL> x = <NUM_LIT> <EOL> name = <STR_LIT:hello> <EOL>", "gt": "print ( name )"},
        {"id": 1, "input": "<s> def f ( a ) : <EOL> return a + <NUM_LIT:2> <EOL>", "gt": "y = f ( <NUM_LIT:3> )"},
        {"id": 2, "input": "<s> c = <CHAR_LIT> <EOL> s = <STR_LIT> <EOL>", "gt": "t = s + c"},
        {"id": 3, "input": "<s> for i in range ( <NUM_LIT:10> ) : <EOL>", "gt": "total += i"},
        {"id": 4, "input": "<s> class A : <EOL> pass <EOL>", "gt": "a = A ( )"},
    ]
    _write(root, "data/py150/test.json", "".join(json.dumps(r) + "\n" for r in rows))


OPENFINDATA = ("emotion_identification", "data_inspection", "intent_understanding", "entity_recognition")


def _build_openfindata(root: Path) -> None:
    """One file per kind: three, four and five options, and keywords (``、``-separated answers)."""
    for name, letters in zip(OPENFINDATA, ("ABC", "ABCD", "ABCDE", "")):
        items = []
        for i, (q, opts, gold) in enumerate(_mc(f"ofd-{name}", zh=True)):
            if letters:
                options = dict(zip(letters, [*opts, "以上都不是"]))
                items.append({"id": i, "question": q, **options, "answer": gold if gold in letters else "A"})
            else:
                items.append({"id": i, "question": f"找出句子中的公司：{q}", "answer": "、".join(opts[: 1 + i % 3])})
        _write(root, f"data/openfindata_release/{name}.json", json.dumps(items, ensure_ascii=False, indent=1))


BUILDERS = {
    "flores": _build_flores,
    "lcsts": _build_lcsts,
    "Xsum": _build_xsum,
    "narrativeqa": _build_narrativeqa,
    "qasper": _build_qasper,
    "qaspercut": _build_qasper,
    "govrepcrs": _build_govrep,
    "summscreen": _build_summscreen,
    "MMLUArabic": _build_mmlu_arabic,
    "FinanceIQ": _build_financeiq,
    "ChemBench": _build_chembench,
    "cmb": _build_cmb,
    "xiezhi": _build_xiezhi,
    "mmmlu_lite": _build_mmmlu_lite,
    "mmlu_cf": _build_mmlu_cf,
    "mmmlu": _build_mmmlu,
    "MedQA": _build_medqa,
    "R_Bench": _build_rbench,
    "BuySideFinBench": _build_buyside,
    "iwslt2017": _build_iwslt,
    "XLSum": _build_xlsum,
    "rolebench": _build_rolebench,
    "py150": _build_py150,
    "OpenFinData": _build_openfindata,
}

_arabic = tuple(f"acegpt_MMLUArabic_{n}" for n in MMLU_ARABIC)
_fiq = tuple(f"FinanceIQ-{n}" for n in FINANCEIQ)
_xiezhi = tuple(f"xiezhi-{s}" for s in ("spec_eng", "spec_chn", "inter_eng", "inter_chn"))

#: ``(run_id, family, config, variable, abbrs, default)`` of each recorded run.
RUN_ARGS: tuple[tuple[str, str, str, str, tuple[str, ...], bool], ...] = (
    ("flores_gen_806ede", "flores", "flores/flores_gen_806ede", "flores_datasets", _flores, True),
    ("flores_gen_aad4fd", "flores", "flores/flores_gen_aad4fd", "flores_datasets", _flores, False),
    ("lcsts_gen_8ee1fe", "lcsts", "lcsts/lcsts_gen_8ee1fe", "lcsts_datasets", ("lcsts",), True),
    ("lcsts_gen_9b0b89", "lcsts", "lcsts/lcsts_gen_9b0b89", "lcsts_datasets", ("lcsts",), False),
    ("Xsum_gen_31397e", "Xsum", "Xsum/Xsum_gen_31397e", "Xsum_datasets", ("Xsum",), True),
    ("Xsum_gen_8ea5f8", "Xsum", "Xsum/Xsum_gen_8ea5f8", "Xsum_datasets", ("Xsum",), False),
    ("narrativeqa_gen_a2d88a", "narrativeqa", "narrativeqa/narrativeqa_gen_a2d88a", "narrativeqa_datasets", ("NarrativeQA",), True),
    ("narrativeqa_gen_db6413", "narrativeqa", "narrativeqa/narrativeqa_gen_db6413", "narrativeqa_datasets", ("NarrativeQA",), False),
    ("qasper_gen_a2d88a", "qasper", "qasper/qasper_gen_a2d88a", "qasper_datasets", ("QASPER",), True),
    ("qasper_gen_db6413", "qasper", "qasper/qasper_gen_db6413", "qasper_datasets", ("QASPER",), False),
    ("qasper_rawprompt_gen", "qasper", "qasper/qasper_rawprompt_gen", "qasper_datasets", ("QASPER",), False),
    ("qaspercut_gen_a2d88a", "qaspercut", "qaspercut/qaspercut_gen_a2d88a", "qaspercut_datasets", ("qaspercut",), True),
    ("qaspercut_gen_db6413", "qaspercut", "qaspercut/qaspercut_gen_db6413", "qaspercut_datasets", ("qaspercut",), False),
    ("govrepcrs_gen_aa5eb3", "govrepcrs", "govrepcrs/govrepcrs_gen_aa5eb3", "govrepcrs_datasets", ("GovRepcrs",), True),
    ("govrepcrs_gen_db7930", "govrepcrs", "govrepcrs/govrepcrs_gen_db7930", "govrepcrs_datasets", ("GovRepcrs",), False),
    ("summscreen_gen_653185", "summscreen", "summscreen/summscreen_gen_653185", "summscreen_datasets", ("SummScreen",), True),
    ("summscreen_gen_aa5eb3", "summscreen", "summscreen/summscreen_gen_aa5eb3", "summscreen_datasets", ("SummScreen",), False),
    ("MMLUArabic_gen_326684", "MMLUArabic", "MMLUArabic/MMLUArabic_gen_326684", "MMLUArabic_datasets", _arabic, True),
    ("MMLUArabic_ppl_d2333a", "MMLUArabic", "MMLUArabic/MMLUArabic_ppl_d2333a", "MMLUArabic_datasets", _arabic, False),
    ("MMLUArabic_zero_shot_gen_3523e0", "MMLUArabic", "MMLUArabic/MMLUArabic_zero_shot_gen_3523e0", "MMLUArabic_datasets", _arabic, False),
    ("FinanceIQ_gen_e0e6b5", "FinanceIQ", "FinanceIQ/FinanceIQ_gen_e0e6b5", "financeIQ_datasets", _fiq, True),
    ("FinanceIQ_ppl_42b9bd", "FinanceIQ", "FinanceIQ/FinanceIQ_ppl_42b9bd", "financeIQ_datasets", _fiq, False),
    ("ChemBench_gen_a9f753", "ChemBench", "ChemBench/ChemBench_gen_a9f753", "chembench_datasets",
     tuple(f"ChemBench_{n}" for n in CHEMBENCH), True),
    ("cmb_gen_dfb5c4", "cmb", "cmb/cmb_gen_dfb5c4", "cmb_datasets", ("cmb", "cmb_test"), True),
    ("xiezhi_gen_b86cf5", "xiezhi", "xiezhi/xiezhi_gen_b86cf5", "xiezhi_datasets", _xiezhi, True),
    ("xiezhi_ppl_ea6bd7", "xiezhi", "xiezhi/xiezhi_ppl_ea6bd7", "xiezhi_datasets", _xiezhi, False),
    ("mmmlu_lite_gen_c51a84", "mmmlu_lite", "mmmlu_lite/mmmlu_lite_gen_c51a84", "mmmlu_lite_datasets",
     tuple(f"openai_mmmlu_lite_{lang}" for lang in MMMLU_LITE), True),
    ("mmlu_cf_gen_040615", "mmlu_cf", "mmlu_cf/mmlu_cf_gen_040615", "mmlu_cf_datasets", tuple(f"mmlu_cf_{n}" for n in MMLU_CF), True),
    ("mmlu_cf_few_shot", "mmlu_cf", "mmlu_cf/mmlu_cf_few_shot", "mmlu_cf_datasets", tuple(f"mmlu_cf_{n}" for n in MMLU_CF), False),
    ("mmlu_cf_zero_shot", "mmlu_cf", "mmlu_cf/mmlu_cf_zero_shot", "mmlu_cf_datasets", tuple(f"mmlu_cf_{n}" for n in MMLU_CF), False),
    ("mmmlu_gen_c51a84", "mmmlu", "mmmlu/mmmlu_gen_c51a84", "mmmlu_datasets", tuple(f"openai_mmmlu_{lang}" for lang in MMMLU), True),
    ("mmmlu_5_shot_gen_bcbeb3", "mmmlu", "mmmlu/mmmlu_5_shot_gen_bcbeb3", "mmmlu_datasets",
     tuple(f"openai_mmmlu_{lang}" for lang in MMMLU), False),
    ("MedQA_gen_3bf756", "MedQA", "MedQA/MedQA_gen_3bf756", "MedQA_datasets", tuple(f"MedQA_{r}" for r in MEDQA), True),
    ("rbench_gen_544610", "R_Bench", "R_Bench/rbench_gen_544610", "RBench_datasets", ("R-Bench_en", "R-Bench_zh"), True),
    ("BuySideFinBench_gen_ca1704", "BuySideFinBench", "BuySideFinBench/BuySideFinBench_gen_ca1704", "BuySideFinBench_datasets",
     tuple(f"BuySideFinBench-{n}" for n in BUYSIDE), True),
    ("iwslt2017_gen_69ce16", "iwslt2017", "iwslt2017/iwslt2017_gen_69ce16", "iwslt2017_datasets", ("iwslt2017_iwslt2017-en-de",), True),
    ("iwslt2017_gen_b4a814", "iwslt2017", "iwslt2017/iwslt2017_gen_b4a814", "iwslt2017_datasets", ("iwslt2017_iwslt2017-en-de",), False),
    ("iwslt2017_gen_d0ebd1", "iwslt2017", "iwslt2017/iwslt2017_gen_d0ebd1", "iwslt2017_datasets", ("iwslt2017_iwslt2017-en-de",), False),
    ("XLSum_gen_2bb71c", "XLSum", "XLSum/XLSum_gen_2bb71c", "XLSum_datasets", ("csebuetnlp_xlsum",), True),
    ("instruction_generalization_eng", "rolebench", "rolebench/instruction_generalization_eng", "instruction_generalization_eng_datasets",
     ("RoleBench_instruct_eng",), True),
    ("role_generalization_eng", "rolebench", "rolebench/role_generalization_eng", "role_generalization_eng_datasets", ("RoleBench_role_eng",), False),
    ("instruction_generalization_zh", "rolebench", "rolebench/instruction_generalization_zh", "instruction_generalization_zh_datasets",
     ("RoleBench_instruct_zh",), False),
    ("py150_gen_38b13d", "py150", "py150/py150_gen_38b13d", "py150_datasets", ("py150",), True),
    ("OpenFinData_gen_46dedb", "OpenFinData", "OpenFinData/OpenFinData_gen_46dedb", "OpenFinData_datasets",
     tuple(f"OpenFinData-{n}" for n in OPENFINDATA), True),
)


def _letters(row: dict[str, Any]) -> dict[str, str]:
    return {k: str(row[k]) for k in "ABCD" if k in row}


#: ``row -> (gold letter(s), option texts by letter, option letters, Chinese?)`` of the multiple-choice families.
MC_VIEWS = {
    "MMLUArabic": lambda row: (str(row["target"]), _letters(row), "ABCD", False),
    "FinanceIQ": lambda row: (str(row["answer"]), _letters(row), "ABCD", True),
    "ChemBench": lambda row: (str(row["target"]), _letters(row), "ABCD", False),
    "cmb": lambda row: (str(row["answer"]) if row["answer"] != "NULL" else "A", dict(row["option"]), "ABCDE", True),
    "xiezhi": lambda row: (str(row["answer"]), _letters(row), "ABCD", False),
    "mmmlu_lite": lambda row: (str(row["target"]), _letters(row), "ABCD", False),
    "mmlu_cf": lambda row: (str(row["target"]), _letters(row), "ABCD", False),
    "mmmlu": lambda row: (str(row["target"]), _letters(row), "ABCD", False),
    "MedQA": lambda row: (str(row["label"]), dict(row["options"]), "ABCD", False),
    "R_Bench": lambda row: (str(row["target"]), {k: str(row[f"RBench_Option_{k}"]) for k in "ABCDEF"}, "ABCDEF", False),
    "BuySideFinBench": lambda row: (str(row["answer"]), _letters(row), "ABCD", False),
    "OpenFinData": lambda row: (str(row["answer"]), {k: str(row[k]) for k in "ABCDE" if row.get(k) is not None}, "ABCDE", True),
}

#: The free-text families: the row's reference answer.
TEXT_FAMILIES = {
    "flores": lambda abbr, row: row[f"sentence_{_FLORES[abbr.rsplit('-', 1)[1]][0]}"],
    "lcsts": lambda abbr, row: row["abst"],
    "Xsum": lambda abbr, row: row["summary"],
    "govrepcrs": lambda abbr, row: row["summary"],
    "summscreen": lambda abbr, row: row["summary"],
    "narrativeqa": lambda abbr, row: row["answer"],
    "qasper": lambda abbr, row: row["answer"],
    "qaspercut": lambda abbr, row: row["answer"],
    "iwslt2017": lambda abbr, row: row["de"],
    "XLSum": lambda abbr, row: row["summary"],
    "rolebench": lambda abbr, row: row["answer"],
    "py150": lambda abbr, row: row["gt"],
    "OpenFinData": lambda abbr, row: row["answer"],  # the keyword set; the multiple-choice sets take MC_VIEWS
}

_TEXT_STYLES = (
    "{ref}",
    "{ref}\nI hope this helps.",
    "  {half}",
    "",
    "I am sorry, I cannot do that.",
    "1. {ref}",
    "- {rev}",
    "{upper}",
    "The answer is {ref}.",
)


def text_reply(family: str, abbr: str, index: int, row: dict[str, Any]) -> str:
    """A free-text reply to row ``index``: the reference, with more lines, half of it, empty, a refusal, list marks, …"""
    if family == "OpenFinData" and "A" in row:
        from tests.benchmarks_oc.families import _mc_styled  # its multiple-choice sets

        gold, texts, letters, zh = MC_VIEWS[family](row)
        return _mc_styled(abbr, index, gold, texts, zh, letters)
    ref = TEXT_FAMILIES[family](abbr, row)
    if isinstance(ref, list):  # the accepted answers: the first, or another
        ref = ref[index % len(ref)]
    words = ref.split() if " " in ref else list(ref)
    joiner = " " if " " in ref else ""
    style = _TEXT_STYLES[(index + _seed(abbr)) % len(_TEXT_STYLES)]
    return style.format(ref=ref, half=joiner.join(words[: max(1, len(words) // 2)]), rev=joiner.join(reversed(words)),
                        upper=ref.upper())
