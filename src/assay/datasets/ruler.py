"""RULER's loaders under OpenCompass 0.5.4's names (``RulerNiahDataset`` and its namesakes): scored from ``gold``.

OpenCompass does not read RULER's test sets from files: its loaders generate
them, sample by sample, until each prompt fills ``max_seq_length`` tokens of
the tokenizer named by ``tokenizer_model`` (``'gpt-4'``: tiktoken's
``cl100k_base``, which tiktoken downloads on first use; any other name: a
``transformers`` tokenizer, from the Hugging Face hub or a local folder),
with random draws seeded by ``random_seed``; the needle and common-word
generators also draw words from the ``wonderwords`` package's lists, and the
NIAH essays and the QA documents come from ``./data/ruler/``.  The test set
is thus a function of the tokenizer the run was made with, which assay does
not have.

RULER's evaluators read only the references the inferencer wrote into the
prediction records (``gold``), never the test set, so assay scores RULER
from the prediction files alone: these loaders declare it
(:attr:`RulerGenerated.test_set_generated`, which the plan reads — a dry run
says ``references from the prediction files' `gold`: …`` with the reason),
and calling one raises :class:`~assay.errors.InputFileError` saying so,
rather than generating a test set other than the one the predictions were
made on.
"""

from __future__ import annotations

from typing import Any, ClassVar

from assay.datasets.base import BaseDataset
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["RulerCweDataset", "RulerFweDataset", "RulerNiahDataset", "RulerQaDataset", "RulerVtDataset"]

#: Why a RULER task's references come from ``gold`` (the plan's note).
GENERATED = (
    "RULER's test sets are generated for the tokenizer named by `tokenizer_model` "
    "(OpenCompass's loader fills each prompt to max_seq_length tokens), which assay does not run; "
    "the evaluator reads only `gold`"
)


class RulerGenerated(BaseDataset):
    """A RULER loader: the test set is generated with a tokenizer, so its references are the prediction records' ``gold``.

    >>> RulerVtDataset.load(max_seq_length=4096)
    Traceback (most recent call last):
    ...
    assay.errors.InputFileError: RulerVtDataset: RULER's test sets are generated for the tokenizer named by `tokenizer_model` ...
    """

    #: Read by the plan (:func:`assay.tasks.plan.reference_source`): the references come from ``gold``, and why.
    test_set_generated: ClassVar[str] = GENERATED

    @classmethod
    def _refuse(cls, kwargs: dict[str, Any]) -> Any:
        tokenizer = kwargs.get("tokenizer_model", "gpt-4")
        raise InputFileError(
            f"{cls.__name__}: {GENERATED} (tokenizer_model={tokenizer!r}, max_seq_length={kwargs.get('max_seq_length', 4096)!r}); "
            "score RULER from prediction files that hold `gold` (OpenCompass's inferencers write it)"
        )


@LOAD_DATASET.register_module()
class RulerNiahDataset(RulerGenerated):
    """RULER needle-in-a-haystack (``ruler_niah_*``): generated; see :class:`RulerGenerated`."""

    @classmethod
    def load(cls, **kwargs: Any) -> Any:
        return cls._refuse(kwargs)


@LOAD_DATASET.register_module()
class RulerVtDataset(RulerGenerated):
    """RULER variable tracking (``ruler_vt``): generated; see :class:`RulerGenerated`."""

    @classmethod
    def load(cls, **kwargs: Any) -> Any:
        return cls._refuse(kwargs)


@LOAD_DATASET.register_module()
class RulerCweDataset(RulerGenerated):
    """RULER common-words extraction (``ruler_cwe``): generated; see :class:`RulerGenerated`."""

    @classmethod
    def load(cls, **kwargs: Any) -> Any:
        return cls._refuse(kwargs)


@LOAD_DATASET.register_module()
class RulerFweDataset(RulerGenerated):
    """RULER frequent-words extraction (``ruler_fwe``): generated; see :class:`RulerGenerated`."""

    @classmethod
    def load(cls, **kwargs: Any) -> Any:
        return cls._refuse(kwargs)


@LOAD_DATASET.register_module()
class RulerQaDataset(RulerGenerated):
    """RULER QA over SQuAD or HotpotQA documents (``ruler_qa_*``): generated; see :class:`RulerGenerated`."""

    @classmethod
    def load(cls, **kwargs: Any) -> Any:
        return cls._refuse(kwargs)
