"""Translation test sets as OpenCompass 0.5.4 reads them: ``FloresFirst100Dataset`` (IWSLT 2017's
``IWSLT2017Dataset`` is :mod:`assay.datasets.nlu_hub`'s, a Hugging Face dataset read as ``HFDataset`` reads one).

``opencompass/flores`` → ``./data/flores_first100`` (through
:func:`~assay.datasets.location.get_data_path`), holding one file per language
and split: ``dev/<lang>.dev`` and ``devtest/<lang>.devtest``, one sentence a line,
the lines of two languages' files translations of each other.
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc_files import dataset_dict, require_file
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["FloresFirst100Dataset"]


def _read_lines(path: str) -> list[str]:
    with open(require_file(path, "FloresFirst100Dataset"), encoding="utf-8") as handle:
        return handle.readlines()


def _pairs(src_path: str, tgt_path: str, src: str, tgt: str) -> list[dict[str, str]]:
    src_lines, tgt_lines = _read_lines(src_path), _read_lines(tgt_path)
    if len(src_lines) != len(tgt_lines):
        raise InputFileError(f"FloresFirst100Dataset: {src_path} has {len(src_lines)} lines but {tgt_path} has "
                             f"{len(tgt_lines)}; the files of a split must pair line by line")
    return [{f"sentence_{src}": s.strip(), f"sentence_{tgt}": t.strip()} for s, t in zip(src_lines, tgt_lines)]


@LOAD_DATASET.register_module()
class FloresFirst100Dataset(BaseDataset):
    """Splits ``dev`` and ``devtest`` of the language pair ``name`` (``'<src>-<tgt>'``, e.g.
    ``'eng-zho_simpl'``): rows ``sentence_<src>``, ``sentence_<tgt>``, each line stripped.
    """

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        langs = name.split("-")
        if len(langs) != 2:
            raise ConfigError(f"FloresFirst100Dataset: name {name!r} is not a language pair '<source>-<target>'")
        src, tgt = langs
        root = get_data_path(path)
        return dataset_dict({
            split: _pairs(os.path.join(root, split, f"{src}.{split}"), os.path.join(root, split, f"{tgt}.{split}"), src, tgt)
            for split in ("dev", "devtest")
        })

