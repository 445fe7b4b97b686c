"""NLU and safety sets OpenCompass 0.5.4 reads from the Hugging Face Hub or from single files, read from local copies.

==============================  ========================================  ==========================================
loader                          what the library configs name             rows
==============================  ========================================  ==========================================
``CrowspairsDataset``/``V2``    ``path='crows_pairs'``                    ``datasets.load_dataset``'s splits, each row
                                                                          with ``label`` 0 (V2: ``'A'``)
``WinogradDataset``             ``path='winograd_wsc'``, ``name=          ``text`` renamed ``prompt`` (moved last),
                                'wsc285'``                                ``opt1``/``opt2`` from ``options``;
                                                                          ``options`` and ``source`` removed
``XCOPADataset``                ``path='xcopa'``                          the ``validation`` splits of its 21
                                                                          configurations (11 languages, 10
                                                                          translations) one after another
``wnliDataset``                 ``path='glue'``, ``name='wnli'``          plus ``label_option``: 1 → A, 0 → B, -1 → -1
``IWSLT2017Dataset``            ``path='iwslt2017'``, ``name=             ``translation``'s languages as columns
                                'iwslt2017-en-de'``
``RealToxicPromptsDataset``     ``data/realtoxicprompts/                  split ``train``: the Arrow file's rows, each
                                realtoxicprompts_train.arrow``            ``prompt`` field also a ``prompt_<field>``
                                                                          column; with ``challenging_subset`` only
                                                                          the challenging rows
``CivilCommentsDataset``        ``path='civil_comments'``                 splits ``train`` and ``test`` without the six
                                                                          sub-scores; ``test`` shuffled (seed 42),
                                                                          its first 10,000 rows, with ``label``
                                                                          (``toxicity >= 0.5``) and ``choices``
``JigsawMultilingualDataset``   ``data/jigsawmultilingual/test.csv`` and  split ``test``: ``idx``, ``text``, ``label``,
                                ``test_labels.csv``, ``lang``              ``choices`` of the rows in that language
==============================  ========================================  ==========================================

A Hub ``path`` is read as ``HFDataset`` reads it: assay never contacts the
Hub, so ``path`` must be a local copy of the dataset (a folder named as the
config's ``path``, its ``README.md`` listing the configurations) in the working
directory, beside the config or under ``$COMPASS_DATA_CACHE``; without one, a
task whose evaluator reads references only is scored from the prediction files'
``gold``.  ``datasets`` does the reading, as in OpenCompass, so columns, order
and types are its own.  Quirks kept: ``RealToxicPromptsDataset`` keeps the
``prompt`` column (``datasets``' ``map`` keeps a column its function deletes);
``JigsawMultilingualDataset`` reads the two CSV files line by line in step,
header lines included (a header is no row of any language).
"""

from __future__ import annotations

import csv
from typing import Any

from assay.datasets._oc import as_datasets, open_text, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.huggingface import HFDataset
from assay.datasets.location import get_data_path
from assay.datasets.table import RowTable
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = [
    "CivilCommentsDataset",
    "CrowspairsDataset",
    "CrowspairsDatasetV2",
    "IWSLT2017Dataset",
    "JigsawMultilingualDataset",
    "RealToxicPromptsDataset",
    "WinogradDataset",
    "XCOPADataset",
    "wnliDataset",
]

#: XCOPA's configurations in the order OpenCompass concatenates them
XCOPA_CONFIGS = (
    "et", "ht", "it", "id", "qu", "sw", "zh", "ta", "th", "tr", "vi",
    "translation-et", "translation-ht", "translation-it", "translation-id", "translation-sw", "translation-zh",
    "translation-ta", "translation-th", "translation-tr", "translation-vi",
)


def _label_zero(example: dict[str, Any]) -> dict[str, Any]:
    example["label"] = 0
    return example


def _label_a(example: dict[str, Any]) -> dict[str, Any]:
    example["label"] = "A"
    return example


@LOAD_DATASET.register_module()
class CrowspairsDataset(BaseDataset):
    """``HFDataset``'s data, each row with ``label`` 0 (the first, less biased sentence is always the answer)."""

    config_data_location = staticmethod(HFDataset.config_data_location)

    @staticmethod
    def load(**kwargs: Any) -> Any:
        return HFDataset.load(**kwargs).map(_label_zero, keep_in_memory=True)


@LOAD_DATASET.register_module()
class CrowspairsDatasetV2(BaseDataset):
    """``HFDataset``'s data, each row with ``label`` ``'A'``."""

    config_data_location = staticmethod(HFDataset.config_data_location)

    @staticmethod
    def load(**kwargs: Any) -> Any:
        return HFDataset.load(**kwargs).map(_label_a, keep_in_memory=True)


def _winograd(example: dict[str, Any]) -> dict[str, Any]:
    options = example.get("options")
    if "text" not in example or not isinstance(options, list) or len(options) < 2:
        raise InputFileError(f"WinogradDataset: an example without 'text' or two 'options': {str(example)[:160]!r}")
    example["prompt"] = example.pop("text")
    example["opt1"] = options[0]
    example["opt2"] = options[1]
    return example


@LOAD_DATASET.register_module()
class WinogradDataset(BaseDataset):
    """``HFDataset``'s data with ``prompt`` (the ``text``), ``opt1`` and ``opt2`` (the two ``options``); ``options`` and
    ``source`` removed."""

    config_data_location = staticmethod(HFDataset.config_data_location)

    @staticmethod
    def load(**kwargs: Any) -> Any:
        return HFDataset.load(**kwargs).map(_winograd, keep_in_memory=True).remove_columns(["options", "source"])


@LOAD_DATASET.register_module()
class XCOPADataset(BaseDataset):
    """The ``validation`` split of each of XCOPA's 21 configurations, concatenated in OpenCompass's order."""

    config_data_location = staticmethod(HFDataset.config_data_location)

    @staticmethod
    def load(**kwargs: Any) -> Any:
        import datasets

        path = kwargs.get("path")
        parts = []
        for name in XCOPA_CONFIGS:
            loaded = HFDataset.load(path=path, name=name)
            if "validation" not in loaded:
                raise InputFileError(f"XCOPADataset: configuration {name!r} of {path} has no validation split")
            parts.append(loaded["validation"])
        return datasets.concatenate_datasets(parts)


_WNLI = {1: "A", 0: "B", -1: -1}


def _wnli(example: dict[str, Any]) -> dict[str, Any]:
    label = example.get("label")
    if label not in _WNLI or isinstance(label, bool):
        raise InputFileError(f"wnliDataset: label {label!r} is not 1, 0 or -1: {str(example)[:160]!r}")
    example["label_option"] = _WNLI[label]
    return example


@LOAD_DATASET.register_module()
class wnliDataset(BaseDataset):
    """``HFDataset``'s data, each row with ``label_option``: 1 → A, 0 → B, -1 (GLUE's unlabelled test) → -1."""

    config_data_location = staticmethod(HFDataset.config_data_location)

    @staticmethod
    def load(**kwargs: Any) -> Any:
        return HFDataset.load(**kwargs).map(_wnli, keep_in_memory=True)


def _translation(example: dict[str, Any]) -> dict[str, Any]:
    pair = example.get("translation")
    if not isinstance(pair, dict):
        raise InputFileError(f"IWSLT2017Dataset: translation {str(pair)[:80]!r} is not an object of languages")
    return pair


@LOAD_DATASET.register_module()
class IWSLT2017Dataset(BaseDataset):
    """``HFDataset``'s data with the ``translation`` column's languages as columns (``en``, ``de``) instead."""

    config_data_location = staticmethod(HFDataset.config_data_location)

    @staticmethod
    def load(**kwargs: Any) -> Any:
        return HFDataset.load(**kwargs).map(_translation, keep_in_memory=True).remove_columns("translation")


def _prompt_fields(example: dict[str, Any]) -> dict[str, Any]:
    prompt = example.get("prompt")
    if not isinstance(prompt, dict):
        raise InputFileError(f"RealToxicPromptsDataset: prompt {str(prompt)[:80]!r} is not an object of fields")
    for key, value in prompt.items():
        example["prompt_" + key] = value
    del example["prompt"]
    return example


def _challenging(example: dict[str, Any]) -> bool:
    return bool(example["challenging"])


@LOAD_DATASET.register_module()
class RealToxicPromptsDataset(BaseDataset):
    """Split ``train``: the rows of an Arrow file as ``datasets`` writes them, each ``prompt`` field also a column
    ``prompt_<field>``; with ``challenging_subset=True`` only the rows whose ``challenging`` is true.

    The Hub's ``allenai/real-toxicity-prompts`` is never fetched: name the local file.
    """

    @staticmethod
    def load(**kwargs: Any) -> Any:
        import datasets

        options = dict(kwargs)
        challenging = options.pop("challenging_subset", False)
        path = options.pop("path", None)
        if not isinstance(path, str) or path == "allenai/real-toxicity-prompts":
            raise InputFileError(f"RealToxicPromptsDataset: path {path!r} is not a local Arrow file (assay never fetches "
                                 "allenai/real-toxicity-prompts from the Hugging Face Hub: name the local file)")
        file = get_data_path(path, local_mode=True)
        try:
            table = datasets.Dataset.from_file(file, in_memory=True)
        except (OSError, ValueError) as exc:
            raise InputFileError(f"RealToxicPromptsDataset: {file} is not readable as an Arrow file: {exc}") from None
        dataset = datasets.DatasetDict(train=table).map(_prompt_fields, keep_in_memory=True)
        if challenging:
            return dataset.filter(_challenging, keep_in_memory=True)
        return dataset


#: the columns CivilCommentsDataset removes from both splits
CIVIL_DROPPED = ("severe_toxicity", "obscene", "threat", "insult", "identity_attack", "sexual_explicit")
#: how many shuffled test rows it keeps
CIVIL_TEST_ROWS = 10000


def _toxic_label(example: dict[str, Any]) -> dict[str, Any]:
    toxicity = example.get("toxicity")
    if not isinstance(toxicity, (int, float)) or isinstance(toxicity, bool):
        raise InputFileError(f"CivilCommentsDataset: toxicity {toxicity!r} is not a number: {str(example)[:160]!r}")
    example["label"] = int(toxicity >= 0.5)
    example["choices"] = ["no", "yes"]
    return example


@LOAD_DATASET.register_module()
class CivilCommentsDataset(BaseDataset):
    """Splits ``train`` and ``test`` of ``HFDataset``'s data without the six toxicity sub-scores; ``test`` shuffled with
    seed 42 (``datasets``' shuffle), cut to its first 10,000 rows, each with ``label`` (``toxicity >= 0.5``) and
    ``choices``.  A test split of fewer than 10,000 rows is an error, as in OpenCompass."""

    config_data_location = staticmethod(HFDataset.config_data_location)

    @staticmethod
    def load(**kwargs: Any) -> Any:
        import datasets

        train = HFDataset.load(**kwargs, split="train").remove_columns(list(CIVIL_DROPPED))
        test = HFDataset.load(**kwargs, split="test").remove_columns(list(CIVIL_DROPPED))
        if len(test) < CIVIL_TEST_ROWS:
            raise InputFileError(f"CivilCommentsDataset: the test split of {kwargs.get('path')} has {len(test)} rows; "
                                 f"OpenCompass takes {CIVIL_TEST_ROWS} of them after shuffling, and fails with fewer")
        test = test.shuffle(seed=42).select(list(range(CIVIL_TEST_ROWS))).map(_toxic_label, keep_in_memory=True)
        return datasets.DatasetDict({"train": train, "test": test})


_JIGSAW_LANGS = ("es", "fr", "it", "pt", "ru", "tr")


@LOAD_DATASET.register_module()
class JigsawMultilingualDataset(BaseDataset):
    """Split ``test``: ``idx`` (counted within the language), ``text``, ``label`` (an int) and ``choices``
    (``['no', 'yes']``) of each row of ``path`` in language ``lang``, its label from the same line of ``label``."""

    @staticmethod
    def load_table(path: str, label: str, lang: str) -> dict[str, RowTable]:
        """The split as a table (what assay evaluates; no ``datasets`` import)."""
        what = "JigsawMultilingualDataset"
        if lang not in _JIGSAW_LANGS:
            raise InputFileError(f"{what}: lang {lang!r} is not one of {', '.join(_JIGSAW_LANGS)}")
        text_file, label_file = get_data_path(path, local_mode=True), get_data_path(label, local_mode=True)
        rows: list[dict[str, Any]] = []
        with open_text(text_file, what) as texts, open_text(label_file, what) as labels:
            try:
                for lineno, (text, target) in enumerate(zip(csv.reader(texts), csv.reader(labels)), 1):
                    if len(text) < 3 or text[2] != lang:
                        continue
                    where = f"{what}: {text_file} and {label_file}, record {lineno}"
                    if len(target) < 2 or text[0] != target[0]:
                        raise InputFileError(f"{where}: the label record {target!r} is not for id {text[0]!r}")
                    try:
                        value = int(target[1])
                    except ValueError:
                        raise InputFileError(f"{where}: label {target[1]!r} is not an integer") from None
                    rows.append({"idx": len(rows), "text": text[1], "label": value, "choices": ["no", "yes"]})
            except csv.Error as exc:
                raise InputFileError(f"{what}: {text_file} or {label_file} is not readable CSV: {exc}") from None
        return {"test": rows_table(rows, text_file)}

    @staticmethod
    def load(path: str, label: str, lang: str) -> Any:
        return as_datasets(JigsawMultilingualDataset.load_table(path, label, lang))
