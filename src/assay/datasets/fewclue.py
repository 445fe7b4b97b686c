"""FewCLUE's TNEWS, CLUEWSC and CSL and SuperGLUE's WiC as OpenCompass 0.5.4 reads them: ``TNewsDataset``,
``TNewsDatasetV2``, ``CluewscDataset``, ``CluewscDatasetV2``, ``CslDataset``, ``CslDatasetV2``, ``WiCDataset``,
``WiCDatasetV2``.

Files (JSON Lines, under ``$COMPASS_DATA_CACHE`` or the working directory)::

    data/FewCLUE/tnews/{dev_few_all,test_public}.json     {"sentence", "label_desc": "news_agriculture", ...}
    data/FewCLUE/cluewsc/{dev_few_all,test_public}.json   {"text", "target": {"span1_text", "span2_text",
                                                            "span1_index", "span2_index"}, "label": "true"|"false"}
    data/FewCLUE/csl/{dev_few_all,test_public}.json       {"id", "abst", "keyword": [...], "label": "0"|"1"}
    data/SuperGLUE/WiC/val.jsonl                          {"word", "sentence1", "sentence2", ..., "label": true|false}

The PPL loaders (``TNewsDataset``, ``CluewscDataset``, ``CslDataset``, ``WiCDataset``) read their options as
``HFDataset`` does (``path='json'``, ``data_files``, ``split``) and add columns
to every row; the generation loaders (``…V2``) read the file line by line and
keep the columns the configs use, the label as a letter.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import as_datasets, field, json_objects, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.huggingface import HFDataset
from assay.datasets.location import get_data_path
from assay.datasets.table import RowTable
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = [
    "CluewscDataset",
    "CluewscDatasetV2",
    "CslDataset",
    "CslDatasetV2",
    "TNewsDataset",
    "TNewsDatasetV2",
    "WiCDataset",
    "WiCDatasetV2",
]

#: TNEWS's categories in OpenCompass's order: the PPL configs' label texts, the letters A–O of the generation configs
TNEWS_TARGETS = {
    "news_agriculture": "农业新闻",
    "news_travel": "旅游新闻",
    "news_game": "游戏新闻",
    "news_tech": "科技类别公司新闻",
    "news_sports": "体育类别新闻",
    "news_edu": "初升高教育新闻",
    "news_entertainment": "娱乐圈新闻",
    "news_finance": "投资资讯",
    "news_military": "军事类别常识",
    "news_car": "车辆新闻",
    "news_house": "楼市新闻",
    "news_world": "环球不含中国类别新闻",
    "news_culture": "书籍文化历史类别新闻",
    "news_story": "故事类别新闻",
    "news_stock": "股票市场类别新闻",
}
_TNEWS_LETTERS = {category: chr(ord("A") + i) for i, category in enumerate(TNEWS_TARGETS)}


def _category(mapping: dict[str, str], value: Any, where: str) -> str:
    if not isinstance(value, str) or value not in mapping:
        raise InputFileError(f"{where}: label_desc {value!r} is not one of TNEWS's 15 categories")
    return mapping[value]


def _with_target(example: dict[str, Any]) -> dict[str, Any]:
    example["label_desc2"] = _category(TNEWS_TARGETS, example.get("label_desc"), "TNewsDataset")
    return example


def _with_spans(example: dict[str, Any]) -> dict[str, Any]:
    target = example.get("target")
    try:
        chars = list(example["text"])
        chars[target["span2_index"]] = target["span1_text"]  # type: ignore[index]
        spans = target["span1_text"], target["span2_text"]  # type: ignore[index]
    except (KeyError, TypeError, IndexError) as exc:
        raise InputFileError(f"CluewscDataset: an example's 'text'/'target' cannot place span1 at span2_index ({exc!r}): "
                             f"{str(example)[:160]!r}") from None
    example["new_text"] = "".join(chars)
    example["answer"] = 1 if example.get("label") == "true" else 0
    example["span1"], example["span2"] = spans
    del example["target"]
    return example


@LOAD_DATASET.register_module()
class TNewsDataset(BaseDataset):
    """``HFDataset``'s data, each row with ``label_desc2``: its category's Chinese description (the PPL configs' labels)."""

    config_data_location = staticmethod(HFDataset.config_data_location)

    @staticmethod
    def load(**kwargs: Any) -> Any:
        return HFDataset.load(**kwargs).map(_with_target, keep_in_memory=True)


@LOAD_DATASET.register_module()
class CluewscDataset(BaseDataset):
    """``HFDataset``'s data, each row with ``new_text`` (the text with the pronoun, at ``span2_index``, replaced by
    ``span1``), ``answer`` (1 where ``label`` is ``'true'``, else 0), ``span1`` and ``span2``.

    OpenCompass deletes ``target`` from the example it returns to ``datasets``' ``map``, which keeps the column;
    so does assay.
    """

    config_data_location = staticmethod(HFDataset.config_data_location)

    @staticmethod
    def load(**kwargs: Any) -> Any:
        return HFDataset.load(**kwargs).map(_with_spans, keep_in_memory=True)


def _lines(what: str, path: str) -> list[tuple[str, dict[str, Any]]]:
    file = get_data_path(path, local_mode=True)
    return [(f"{what}: file {file}, line {i}", row) for i, row in enumerate(json_objects(file, what), 1)]


@LOAD_DATASET.register_module()
class TNewsDatasetV2(BaseDataset):
    """``sentence`` and ``label_desc2``, the category's letter (A–O in OpenCompass's order of the 15 categories)."""

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        rows = [{"sentence": field(line, "sentence", where), "label_desc2": _category(_TNEWS_LETTERS, field(line, "label_desc", where), where)}
                for where, line in _lines("TNewsDatasetV2", path)]
        return rows_table(rows, path)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(TNewsDatasetV2.load_table(path))


@LOAD_DATASET.register_module()
class CluewscDatasetV2(BaseDataset):
    """``span1``, ``span2``, ``text`` and ``label`` (``'true'`` → A, ``'false'`` → B)."""

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        rows = []
        for where, line in _lines("CluewscDatasetV2", path):
            target = field(line, "target", where)
            label = field(line, "label", where)
            if label not in ("true", "false"):
                raise InputFileError(f"{where}: label {label!r} is not 'true' or 'false'")
            rows.append({"span1": field(target, "span1_text", where), "span2": field(target, "span2_text", where),
                         "text": field(line, "text", where), "label": "A" if label == "true" else "B"})
        return rows_table(rows, path)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(CluewscDatasetV2.load_table(path))


def _joined_keywords(keywords: Any, where: str) -> str:
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise InputFileError(f"{where}: keyword {str(keywords)[:80]!r} is not a list of texts")
    return "，".join(keywords)


def _with_keywords(example: dict[str, Any]) -> dict[str, Any]:
    example["keywords"] = _joined_keywords(example.get("keyword"), "CslDataset")
    return example


def _with_answer(example: dict[str, Any]) -> dict[str, Any]:
    example["answer"] = 1 if example.get("label") == "true" else 0
    return example


@LOAD_DATASET.register_module()
class CslDataset(BaseDataset):
    """``HFDataset``'s data, each row with ``keywords``: its ``keyword`` list joined with ``'，'``."""

    config_data_location = staticmethod(HFDataset.config_data_location)

    @staticmethod
    def load(**kwargs: Any) -> Any:
        return HFDataset.load(**kwargs).map(_with_keywords, keep_in_memory=True)


@LOAD_DATASET.register_module()
class WiCDataset(BaseDataset):
    """``HFDataset``'s data, each row with ``answer``: 1 where ``label`` is the text ``'true'``, else 0
    (a JSON ``true`` gives 0, as in OpenCompass)."""

    config_data_location = staticmethod(HFDataset.config_data_location)

    @staticmethod
    def load(**kwargs: Any) -> Any:
        return HFDataset.load(**kwargs).map(_with_answer, keep_in_memory=True)


@LOAD_DATASET.register_module()
class CslDatasetV2(BaseDataset):
    """``abst``, ``keywords`` (joined with ``'，'``) and ``label`` (``'AB'[int(label)]``)."""

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        rows = []
        for where, line in _lines("CslDatasetV2", path):
            label = field(line, "label", where)
            try:
                letter = "AB"[int(label)]
            except (TypeError, ValueError, IndexError):
                raise InputFileError(f"{where}: label {label!r} is not an integer indexing 'AB'") from None
            rows.append({"abst": field(line, "abst", where), "keywords": _joined_keywords(field(line, "keyword", where), where),
                         "label": letter})
        return rows_table(rows, path)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(CslDatasetV2.load_table(path))


@LOAD_DATASET.register_module()
class WiCDatasetV2(BaseDataset):
    """Each object with ``label`` ``'true'`` → A, ``'false'`` → B (the text; a JSON boolean is an error, as in OpenCompass)."""

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        rows = []
        for where, line in _lines("WiCDatasetV2", path):
            label = field(line, "label", where)
            if label not in ("true", "false") or not isinstance(label, str):
                raise InputFileError(f"{where}: label {label!r} is not 'true' or 'false'")
            rows.append({**line, "label": "A" if label == "true" else "B"})
        return rows_table(rows, path)

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(WiCDatasetV2.load_table(path))
