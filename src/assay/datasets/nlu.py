"""Reading-comprehension, coreference and multiple-choice NLU sets as OpenCompass 0.5.4 reads them.

=============================  ====================================================  ===============================
loader                         file (the library configs' path)                      rows
=============================  ====================================================  ===============================
``C3Dataset``                  ``./data/CLUE/C3/dev_0.json`` (``[[paragraphs],       ``content`` (paragraphs joined
                               [{question, choice, answer}], id]``)                  with a space), ``question``,
                                                                                     ``choice0``–``choice3`` (padded
                                                                                     with the first), ``choices``,
                                                                                     ``label`` (its index)
``C3Dataset_V2``               the same                                              ``content`` (joined without a
                                                                                     space), choices padded with
                                                                                     ``'[NULL]'``, ``label`` a letter
``CHIDDataset``                ``path='json'``, ``data_files=./data/FewCLUE/chid/…``  ``HFDataset``'s rows plus
                                                                                     ``content0``… (``#idiom#``
                                                                                     replaced by each candidate)
``CHIDDatasetV2``              ``./data/FewCLUE/chid/{dev_few_all,test_public}.json``  ``content`` (``#idiom#`` →
                                                                                     ``______``), ``A``…, ``answer``
``WSCDataset``                 ``path='json'``, ``data_files=…/WSC/val.jsonl``         plus ``new_text``, ``answer``,
                                                                                     ``span1``, ``span2``
``WSCDatasetV2``/``V3``        ``./data/SuperGLUE/WSC/val.jsonl``                      ``span1``, ``span2``, ``text``
                                                                                     (V3: spans marked ``* … *`` and
                                                                                     ``# … #``), ``label`` A/B
``MultiRCDataset``/``V2``      ``./data/SuperGLUE/MultiRC/val.jsonl``                  one row per answer: ``text``,
                                                                                     ``question``, ``answer``,
                                                                                     ``label`` (V2: ``'BA'[label]``)
``ReCoRDDataset``/``V2``       ``./data/SuperGLUE/ReCoRD/val.jsonl``                   one row per query: ``text``
                                                                                     (``@highlight`` removed; V2 also
                                                                                     ``\\n\\n`` → ``\\n``), ``question``
                                                                                     (``@placeholder`` → ``____``),
                                                                                     ``answers``
``StoryClozeDataset``/``V2``   ``opencompass/xstory_cloze`` → ``./data/xstory_cloze/  the ``train`` and ``eval`` files'
                               {lang}_{train,eval}.jsonl``                           rows with ``context`` (the four
                                                                                     sentences); V2's answer
                                                                                     ``' AB'[answer_right_ending]``
``AnliDataset``                ``data/anli/anli_v1.0/R*/dev.jsonl``                    each object, ``label`` c → A,
                                                                                     e → B, n → C
=============================  ====================================================  ===============================

Quirks kept: C3's ``label`` is the index of the answer's first occurrence among the
choices; ``WSCDataset`` places ``span1`` at ``span2_index`` among the text's
space-separated words and keeps ``target`` (``datasets``' ``map`` keeps a column
the function deletes); ``StoryClozeDataset`` gives one split, ``test``, of both
files, and ``StoryClozeDatasetV2`` the table itself.  ``C3Dataset``, ``C3Dataset_V2``
and ``AnliDataset`` open ``path`` as it is (OpenCompass does not resolve it under
``$COMPASS_DATA_CACHE``).  A value OpenCompass would stop on (a missing key, an
answer that is not a choice, a label outside its mapping) is an error naming the
file, the line or item and the value.
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import as_datasets, field, json_lines, json_objects, read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.huggingface import HFDataset
from assay.datasets.location import get_data_path
from assay.datasets.table import RowTable
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = [
    "AnliDataset",
    "C3Dataset",
    "C3Dataset_V2",
    "CHIDDataset",
    "CHIDDatasetV2",
    "MultiRCDataset",
    "MultiRCDatasetV2",
    "ReCoRDDataset",
    "ReCoRDDatasetV2",
    "StoryClozeDataset",
    "StoryClozeDatasetV2",
    "WSCDataset",
    "WSCDatasetV2",
    "WSCDatasetV3",
]


def _text_list(value: Any, where: str, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputFileError(f"{where}: {key} {str(value)[:80]!r} is not a list of texts")
    return value


def _c3_items(path: str, what: str) -> list[tuple[str, list[str], dict[str, Any], int]]:
    """``(where, paragraphs, question, answer index)`` for each question of C3's file."""
    data = read_json(path, what)
    if not isinstance(data, list):
        raise InputFileError(f"{what}: file {path} holds {type(data).__name__}, expected a list of documents")
    out = []
    for i, doc in enumerate(data):
        where = f"{what}: file {path}, document {i}"
        if not isinstance(doc, list) or len(doc) < 2 or not isinstance(doc[1], list):
            raise InputFileError(f"{where}: expected [paragraphs, questions, ...], got {str(doc)[:80]!r}")
        paragraphs = _text_list(doc[0], where, "paragraphs")
        for j, question in enumerate(doc[1]):
            at = f"{where}, question {j}"
            choices = _text_list(field(question, "choice", at), at, "choice")
            answer = field(question, "answer", at)
            if answer not in choices:
                raise InputFileError(f"{at}: answer {answer!r} is not one of its choices {choices!r}")
            if not choices:
                raise InputFileError(f"{at}: no choices")
            out.append((at, paragraphs, question, choices.index(answer)))
    return out


@LOAD_DATASET.register_module()
class C3Dataset(BaseDataset):
    """C3 for PPL: ``content``, ``question``, ``choice0``–``choice3``, ``choices``, ``label`` (an index)."""

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        rows = []
        for at, paragraphs, question, label in _c3_items(path, "C3Dataset"):
            choices = list(question["choice"])
            choices += [choices[0]] * (4 - len(choices))
            rows.append({"content": " ".join(paragraphs), "question": field(question, "question", at),
                         **{f"choice{i}": choices[i] for i in range(4)}, "choices": choices, "label": label})
        return RowTable(rows, path)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(C3Dataset.load_table(path))


@LOAD_DATASET.register_module()
class C3Dataset_V2(BaseDataset):
    """C3 for generation: ``content``, ``question``, ``choice0``–``choice3`` (``'[NULL]'`` where missing), ``label`` A–D."""

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        rows = []
        for at, paragraphs, question, label in _c3_items(path, "C3Dataset_V2"):
            if label > 3:
                raise InputFileError(f"{at}: the answer is choice {label}, past D")
            choices = list(question["choice"])
            choices += ["[NULL]"] * (4 - len(choices))
            rows.append({"content": "".join(paragraphs), "question": field(question, "question", at),
                         **{f"choice{i}": choices[i] for i in range(4)}, "label": "ABCD"[label]})
        return rows_table(rows, path)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(C3Dataset_V2.load_table(path))


def _lines(what: str, path: str, **options: Any) -> list[tuple[str, dict[str, Any]]]:
    file = get_data_path(path, local_mode=True)
    return [(f"{what}: file {file}, line {i}", row) for i, row in enumerate(json_objects(file, what, **options), 1)]


def _with_idioms(example: dict[str, Any]) -> dict[str, Any]:
    content = example.get("content")
    candidates = example.get("candidates")
    if not isinstance(content, str) or not isinstance(candidates, list):
        raise InputFileError(f"CHIDDataset: an example's content/candidates are not a text and a list: {str(example)[:160]!r}")
    for i, candidate in enumerate(candidates):
        example[f"content{i}"] = content.replace("#idiom#", str(candidate))
    return example


@LOAD_DATASET.register_module()
class CHIDDataset(BaseDataset):
    """``HFDataset``'s data, each row with ``content0``, ``content1``, …: ``content`` with ``#idiom#`` replaced by each candidate."""

    config_data_location = staticmethod(HFDataset.config_data_location)

    @staticmethod
    def load(**kwargs: Any) -> Any:
        return HFDataset.load(**kwargs).map(_with_idioms, keep_in_memory=True)


@LOAD_DATASET.register_module()
class CHIDDatasetV2(BaseDataset):
    """``content`` (``#idiom#`` → ``______``), one column per candidate (``A``, ``B``, …), ``answer`` (``'ABCDEFG'[answer]``)."""

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        rows = []
        for where, line in _lines("CHIDDatasetV2", path):
            content = field(line, "content", where)
            candidates = field(line, "candidates", where)
            if not isinstance(content, str) or not isinstance(candidates, list):
                raise InputFileError(f"{where}: content/candidates are not a text and a list")
            item: dict[str, Any] = {"content": content.replace("#idiom#", "______")}
            for i, candidate in enumerate(candidates):
                item[chr(ord("A") + i)] = candidate
            answer = field(line, "answer", where)
            try:
                item["answer"] = "ABCDEFG"[answer]
            except (TypeError, IndexError):
                raise InputFileError(f"{where}: answer {answer!r} is not an int indexing 'ABCDEFG'") from None
            rows.append(item)
        return rows_table(rows, path)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(CHIDDatasetV2.load_table(path))


def _target(line: dict[str, Any], where: str) -> dict[str, Any]:
    target = field(line, "target", where)
    if not isinstance(target, dict):
        raise InputFileError(f"{where}: target {str(target)[:80]!r} is not an object")
    return target


def _with_new_text(example: dict[str, Any]) -> dict[str, Any]:
    where = "WSCDataset"
    target = _target(example, where)
    words = str(field(example, "text", where)).split(" ")
    span1, span2 = field(target, "span1_text", where), field(target, "span2_text", where)
    if " " in span2:
        raise InputFileError(f"{where}: span2_text {span2!r} holds a space (OpenCompass asserts it is one word)")
    try:
        words[target["span2_index"]] = span1
    except (KeyError, TypeError, IndexError):
        raise InputFileError(f"{where}: span2_index {target.get('span2_index')!r} is not a word index of {example['text'][:80]!r}") from None
    example["new_text"] = " ".join(words)
    example["answer"] = 1 if example.get("label") == "true" else 0
    example["span1"], example["span2"] = span1, span2
    del example["target"]
    return example


@LOAD_DATASET.register_module()
class WSCDataset(BaseDataset):
    """``HFDataset``'s data, each row with ``new_text`` (the text's word at ``span2_index`` replaced by ``span1``),
    ``answer`` (1 where ``label`` is ``'true'``, else 0), ``span1`` and ``span2``; ``target`` is kept."""

    config_data_location = staticmethod(HFDataset.config_data_location)

    @staticmethod
    def load(**kwargs: Any) -> Any:
        return HFDataset.load(**kwargs).map(_with_new_text, keep_in_memory=True)


_TRUE_FALSE = {"true": "A", "false": "B"}


def _true_false(line: dict[str, Any], where: str) -> str:
    label = field(line, "label", where)
    if not isinstance(label, str) or label not in _TRUE_FALSE:
        raise InputFileError(f"{where}: label {label!r} is not 'true' or 'false'")
    return _TRUE_FALSE[label]


@LOAD_DATASET.register_module()
class WSCDatasetV2(BaseDataset):
    """``span1``, ``span2``, ``text`` and ``label`` (``'true'`` → A, ``'false'`` → B)."""

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        rows = []
        for where, line in _lines("WSCDatasetV2", path):
            target = _target(line, where)
            rows.append({"span1": field(target, "span1_text", where), "span2": field(target, "span2_text", where),
                         "text": field(line, "text", where), "label": _true_false(line, where)})
        return rows_table(rows, path)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(WSCDatasetV2.load_table(path))


def _marked_text(line: dict[str, Any], target: dict[str, Any], where: str) -> str:
    words = str(field(line, "text", where)).split(" ")
    span1, span2 = str(field(target, "span1_text", where)), str(field(target, "span2_text", where))
    start1, start2 = field(target, "span1_index", where), field(target, "span2_index", where)
    if not isinstance(start1, int) or not isinstance(start2, int):
        raise InputFileError(f"{where}: span1_index/span2_index {start1!r}/{start2!r} are not word indices")
    end1, end2 = start1 + len(span1.split(" ")), start2 + len(span2.split(" "))
    out = []
    for i, word in enumerate(words):
        if start1 <= i < end1:
            if i == start1:
                out.append(f"* {span1} *")
        elif start2 <= i < end2:
            if i == start2:
                out.append(f"# {span2} #")
        else:
            out.append(word)
    return " ".join(out)


@LOAD_DATASET.register_module()
class WSCDatasetV3(BaseDataset):
    """``span1``, ``span2``, ``text`` with span 1 marked ``* span1 *`` and span 2 ``# span2 #`` (the words they cover
    replaced), and ``label`` (``'true'`` → A, ``'false'`` → B)."""

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        rows = []
        for where, line in _lines("WSCDatasetV3", path):
            target = _target(line, where)
            rows.append({"span1": field(target, "span1_text", where), "span2": field(target, "span2_text", where),
                         "text": _marked_text(line, target, where), "label": _true_false(line, where)})
        return rows_table(rows, path)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(WSCDatasetV3.load_table(path))


def _passages(what: str, path: str) -> list[tuple[str, dict[str, Any]]]:
    """``(where, object)`` per line, read as OpenCompass's MultiRC and ReCoRD loaders read (undecodable bytes dropped,
    each line stripped)."""
    file = get_data_path(path, local_mode=True)
    out = []
    for lineno, value in json_lines(file, what, strip=True, errors="ignore"):
        where = f"{what}: file {file}, line {lineno}"
        if not isinstance(value, dict):
            raise InputFileError(f"{where} holds {type(value).__name__}, expected a JSON object")
        out.append((where, value))
    return out


def _multirc_rows(what: str, path: str, label_of: Any) -> RowTable:
    rows = []
    for where, sample in _passages(what, path):
        passage = field(sample, "passage", where)
        text = field(passage, "text", where)
        for question in field(passage, "questions", where):
            asked = field(question, "question", where)
            for answer in field(question, "answers", where):
                rows.append({"text": text, "question": asked, "answer": field(answer, "text", where),
                             "label": label_of(field(answer, "label", where), where)})
    return rows_table(rows, path)


def _ba(label: Any, where: str) -> str:
    try:
        return "BA"[label]
    except (TypeError, IndexError):
        raise InputFileError(f"{where}: an answer's label {label!r} is not an int indexing 'BA'") from None


@LOAD_DATASET.register_module()
class MultiRCDataset(BaseDataset):
    """One row per candidate answer: ``text``, ``question``, ``answer``, ``label`` (as the file has it)."""

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        return _multirc_rows("MultiRCDataset", path, lambda label, where: label)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(MultiRCDataset.load_table(path))


@LOAD_DATASET.register_module()
class MultiRCDatasetV2(BaseDataset):
    """One row per candidate answer: ``text``, ``question``, ``answer``, ``label`` (``'BA'[label]``: 1 → A, 0 → B)."""

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        return _multirc_rows("MultiRCDatasetV2", path, _ba)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(MultiRCDatasetV2.load_table(path))


def _record_rows(what: str, path: str, squeeze: bool) -> RowTable:
    rows = []
    for where, sample in _passages(what, path):
        text = str(field(field(sample, "passage", where), "text", where)).replace("@highlight", "")
        if squeeze:
            text = text.replace("\n\n", "\n")
        for qas in field(sample, "qas", where):
            query = str(field(qas, "query", where)).replace("@placeholder", "____")
            answers = [field(a, "text", where) for a in field(qas, "answers", where)]
            rows.append({"text": text, "question": query, "answers": answers})
    return rows_table(rows, path)


@LOAD_DATASET.register_module()
class ReCoRDDataset(BaseDataset):
    """One row per query: ``text`` (``@highlight`` removed), ``question`` (``@placeholder`` → ``____``), ``answers``."""

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        return _record_rows("ReCoRDDataset", path, squeeze=False)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(ReCoRDDataset.load_table(path))


@LOAD_DATASET.register_module()
class ReCoRDDatasetV2(BaseDataset):
    """As ``ReCoRDDataset``, with every ``\\n\\n`` of the text made ``\\n``."""

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        return _record_rows("ReCoRDDatasetV2", path, squeeze=True)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(ReCoRDDatasetV2.load_table(path))


def _story_rows(what: str, path: str, lang: str, letters: bool) -> list[dict[str, Any]]:
    root = get_data_path(path)
    rows = []
    for split in ("train", "eval"):
        file = os.path.join(root, f"{lang}_{split}.jsonl")
        for i, line in enumerate(json_objects(file, what), 1):
            where = f"{what}: file {file}, line {i}"
            line["context"] = " ".join(str(field(line, f"input_sentence_{k}", where)) for k in range(1, 5))
            if letters:
                ending = field(line, "answer_right_ending", where)
                try:
                    line["answer_right_ending"] = " AB"[ending]
                except (TypeError, IndexError):
                    raise InputFileError(f"{where}: answer_right_ending {ending!r} is not 1 or 2") from None
            rows.append(line)
    return rows


@LOAD_DATASET.register_module()
class StoryClozeDataset(BaseDataset):
    """One split, ``test``: the rows of ``{lang}_train.jsonl`` then ``{lang}_eval.jsonl``, each with ``context``."""

    @staticmethod
    def load_table(path: str, lang: str) -> dict[str, RowTable]:
        """The split as a table (what assay evaluates; no ``datasets`` import)."""
        return {"test": rows_table(_story_rows("StoryClozeDataset", path, lang, letters=False), path)}

    @staticmethod
    def load(path: str, lang: str) -> Any:
        return as_datasets(StoryClozeDataset.load_table(path, lang))


@LOAD_DATASET.register_module()
class StoryClozeDatasetV2(BaseDataset):
    """The rows of both files, each with ``context`` and ``answer_right_ending`` a letter (1 → A, 2 → B)."""

    @staticmethod
    def load_table(path: str, lang: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        return rows_table(_story_rows("StoryClozeDatasetV2", path, lang, letters=True), path)

    @staticmethod
    def load(path: str, lang: str) -> Any:
        return as_datasets(StoryClozeDatasetV2.load_table(path, lang))


_ANLI = {"c": "A", "e": "B", "n": "C"}


@LOAD_DATASET.register_module()
class AnliDataset(BaseDataset):
    """Each object with ``label`` c → A, e → B, n → C (``path`` opened as it is)."""

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        rows = []
        for i, line in enumerate(json_objects(path, "AnliDataset"), 1):
            label = line.get("label")
            if not isinstance(label, str) or label not in _ANLI:
                raise InputFileError(f"AnliDataset: file {path}, line {i}: label {label!r} is not 'c', 'e' or 'n'")
            line["label"] = _ANLI[label]
            rows.append(line)
        return rows_table(rows, path)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(AnliDataset.load_table(path))
