"""Choice sets of commonsense, bias, values and behaviour as OpenCompass 0.5.4 reads them.

==============================  ===============================================  ================================
loader                          file (the library configs' path)                 rows
==============================  ===============================================  ================================
``CommonsenseQADataset_CN``     ``./data/commonsenseqa_cn/validation.jsonl``     splits ``train`` and
                                                                                 ``validation``, both the whole
                                                                                 file: each object without
                                                                                 ``question_concept``, ``id`` and
                                                                                 ``choices``, plus ``A``–``E``
                                                                                 (``choices.text``)
``CrowspairsDatasetCN``         ``./data/crowspairs_cn/test.jsonl``              split ``test``: each object with
                                                                                 ``label`` ``'A'``
``CValuesDataset``              ``data/cvalues_responsibility_mc.jsonl``         split ``train``: ``回复1``/``回复2``
                                                                                 of ``prompt`` made ``回复A``/``回复B``,
                                                                                 of ``label`` ``A``/``B``
``AiRiskDataset``,              ``data/advanced-ai-risk/…/<set>.jsonl``,         split ``train``:
``SycophancyDataset``           ``data/sycophancy/<set>.jsonl``                  ``answer_matching_behavior`` the
                                                                                 first of A–H (A–G) it holds
``PersonaDataset``              ``data/persona/<set>.jsonl``                     ``' Yes'`` → A, anything else → B
``MaxminDataset``               ``opencompass/clozeTest_maxmin`` (and            ``nl_tokens``, ``pl_tokens`` (joined
                                ``…_answers``) → ``./data/clozeTest-maxmin/      with spaces), ``answer``
                                python/{clozeTest.json,answers.txt}``            (``max`` → A, else B; ``''``
                                                                                 without answers)
``StrategyQADataset``           ``opencompass/strategy_qa`` →                    the file's objects
                                ``./data/strategyqa/strategyQA_train.json``
==============================  ===============================================  ================================

The JSON Lines sets that OpenCompass reads with ``datasets.load_dataset('json', …)``
(``CValuesDataset`` and Anthropic's evaluations) are read the same way, in a
temporary cache; the others are read line by line into tables.  Anthropic's
files and ``CValuesDataset``'s are opened at ``path`` as it is (CValues's under
``$COMPASS_DATA_CACHE`` when that is set), as in OpenCompass.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import as_datasets, field, json_objects, load_local_hf, open_text, read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.datasets.table import RowTable
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = [
    "AiRiskDataset",
    "CValuesDataset",
    "CommonsenseQADataset_CN",
    "CrowspairsDatasetCN",
    "MaxminDataset",
    "PersonaDataset",
    "StrategyQADataset",
    "SycophancyDataset",
]

_CSQA_DROPPED = ("question_concept", "id", "choices")


@LOAD_DATASET.register_module()
class CommonsenseQADataset_CN(BaseDataset):
    """Splits ``train`` and ``validation``, each the whole file: the objects without ``question_concept``, ``id`` and
    ``choices``, with ``A``–``E`` the texts of ``choices.text``."""

    @staticmethod
    def load_table(path: str) -> dict[str, RowTable]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        what = "CommonsenseQADataset_CN"
        file = get_data_path(path, local_mode=True)
        rows = []
        for i, line in enumerate(json_objects(file, what), 1):
            where = f"{what}: file {file}, line {i}"
            texts = field(field(line, "choices", where), "text", where)
            if not isinstance(texts, list) or len(texts) < 5:
                raise InputFileError(f"{where}: choices.text {str(texts)[:80]!r} does not list five choices")
            for key in _CSQA_DROPPED:
                field(line, key, where)
            row = dict(line)
            for k in range(5):
                row[chr(ord("A") + k)] = texts[k]
            rows.append({k: v for k, v in row.items() if k not in _CSQA_DROPPED})
        return {"train": rows_table(rows, file), "validation": rows_table(rows, file)}

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(CommonsenseQADataset_CN.load_table(path))


@LOAD_DATASET.register_module()
class CrowspairsDatasetCN(BaseDataset):
    """One split, ``test``: the file's objects, each with ``label`` ``'A'`` (the less biased sentence is always A)."""

    @staticmethod
    def load_table(path: str) -> dict[str, RowTable]:
        """The split as a table (what assay evaluates; no ``datasets`` import)."""
        file = get_data_path(path, local_mode=True)
        rows = json_objects(file, "CrowspairsDatasetCN")
        table = rows_table(rows, file)
        return {"test": rows_table([{**{k: r.get(k) for k in table.column_names}, "label": "A"} for r in rows], file)}

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(CrowspairsDatasetCN.load_table(path))


def _json_builder(what: str, path: str) -> Any:
    """``datasets.load_dataset('json', data_files=path)``: a ``DatasetDict`` with the split ``train``."""
    return load_local_hf(what, path="json", data_files=path)


def _cvalues(example: dict[str, Any]) -> dict[str, Any]:
    for key in ("prompt", "label"):
        if not isinstance(example.get(key), str):
            raise InputFileError(f"CValuesDataset: {key} {example.get(key)!r} is not a text: {str(example)[:120]!r}")
    example["prompt"] = example["prompt"].replace("回复1", "回复A").replace("回复2", "回复B")
    example["label"] = example["label"].replace("回复1", "A").replace("回复2", "B")
    return example


@LOAD_DATASET.register_module()
class CValuesDataset(BaseDataset):
    """Split ``train``: ``回复1``/``回复2`` ("reply 1/2") of ``prompt`` made ``回复A``/``回复B`` and of ``label`` ``A``/``B``."""

    @staticmethod
    def load(path: str) -> Any:
        return _json_builder("CValuesDataset", get_data_path(path, local_mode=True)).map(_cvalues, keep_in_memory=True)


def _first_letter(letters: str, what: str) -> Any:
    def choose(example: dict[str, Any]) -> dict[str, Any]:
        value = example.get("answer_matching_behavior")
        if not isinstance(value, str):
            raise InputFileError(f"{what}: answer_matching_behavior {value!r} is not a text: {str(example)[:120]!r}")
        for letter in letters:
            if letter in value:
                example["answer_matching_behavior"] = letter
                break
        return example

    return choose


def _yes_is_a(example: dict[str, Any]) -> dict[str, Any]:
    example["answer_matching_behavior"] = "A" if example.get("answer_matching_behavior") == " Yes" else "B"
    return example


@LOAD_DATASET.register_module()
class AiRiskDataset(BaseDataset):
    """Split ``train``: ``answer_matching_behavior`` (`` (B)``) made the first of A–H it holds (kept when none)."""

    @staticmethod
    def load(path: str) -> Any:
        return _json_builder("AiRiskDataset", path).map(_first_letter("ABCDEFGH", "AiRiskDataset"), keep_in_memory=True)


@LOAD_DATASET.register_module()
class SycophancyDataset(BaseDataset):
    """Split ``train``: ``answer_matching_behavior`` made the first of A–G it holds (kept when none)."""

    @staticmethod
    def load(path: str) -> Any:
        return _json_builder("SycophancyDataset", path).map(_first_letter("ABCDEFG", "SycophancyDataset"), keep_in_memory=True)


@LOAD_DATASET.register_module()
class PersonaDataset(BaseDataset):
    """Split ``train``: ``answer_matching_behavior`` ``' Yes'`` → A, anything else → B."""

    @staticmethod
    def load(path: str) -> Any:
        return _json_builder("PersonaDataset", path).map(_yes_is_a, keep_in_memory=True)


def _maxmin_answers(path: str) -> dict[str, str]:
    what = "MaxminDataset"
    answers = {}
    with open_text(path, what) as fh:
        for i, line in enumerate(fh.readlines(), 1):
            parts = line.strip().split("<CODESPLIT>")
            if len(parts) < 2:
                raise InputFileError(f"{what}: file {path}, line {i}: no '<CODESPLIT>' in {line.strip()[:80]!r}")
            answers[parts[0]] = parts[1]
    return answers


def _joined(item: Any, key: str, where: str) -> str:
    tokens = field(item, key, where)
    if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
        raise InputFileError(f"{where}: {key} {str(tokens)[:80]!r} is not a list of texts")
    return " ".join(tokens)


@LOAD_DATASET.register_module()
class MaxminDataset(BaseDataset):
    """``nl_tokens`` and ``pl_tokens`` joined with spaces, ``answer``: A where the answers file says ``max`` for the
    item's ``idx``, else B (``''`` for every item without an answers file)."""

    @staticmethod
    def load_table(test_path: str, answer_path: str | None = None) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        what = "MaxminDataset"
        test_file = get_data_path(test_path)
        answers = _maxmin_answers(get_data_path(answer_path)) if answer_path is not None else None
        data = read_json(test_file, what)
        if not isinstance(data, list):
            raise InputFileError(f"{what}: file {test_file} holds {type(data).__name__}, expected a list of items")
        rows = []
        for i, item in enumerate(data):
            where = f"{what}: file {test_file}, item {i}"
            row = {"nl_tokens": _joined(item, "nl_tokens", where), "pl_tokens": _joined(item, "pl_tokens", where), "answer": ""}
            if answers is not None:
                idx = field(item, "idx", where)
                if idx not in answers:
                    raise InputFileError(f"{where}: idx {idx!r} has no line in the answers file")
                row["answer"] = "A" if answers[idx] == "max" else "B"
            rows.append(row)
        return rows_table(rows, test_file)

    @staticmethod
    def load(test_path: str, answer_path: str | None = None) -> Any:
        return as_datasets(MaxminDataset.load_table(test_path, answer_path))


@LOAD_DATASET.register_module()
class StrategyQADataset(BaseDataset):
    """The objects of the JSON file (a list), as they are."""

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        file = get_data_path(path)
        data = read_json(file, "StrategyQADataset")
        if not isinstance(data, list) or not all(isinstance(d, dict) for d in data):
            raise InputFileError(f"StrategyQADataset: file {file} does not hold a list of objects")
        return rows_table(data, file)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(StrategyQADataset.load_table(path))
