"""PY150's next-line completion as OpenCompass 0.5.4 reads it (``Py150Dataset``).

``path`` (``data/py150/test.json``, read in local mode) is JSON Lines, each line an object
with ``input`` (tokenized code: ``<s>``, ``<EOL>`` and literal placeholders) and ``gt``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from assay.datasets._oc_files import dataset, require_file
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["Py150Dataset"]

_LITERAL = re.compile(r"<(STR|NUM|CHAR)_LIT:(.*?)>", re.S)


def _restore(line: str, where: str) -> dict[str, Any]:
    text = line.replace("<NUM_LIT>", "0").replace("<STR_LIT>", "").replace("<CHAR_LIT>", "")
    for kind, value in _LITERAL.findall(text):
        text = text.replace(f"<{kind}_LIT:{value}>", value)
    try:
        row = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputFileError(f"Py150Dataset: {where} is not JSON once its literals are restored: {exc}") from None
    if not isinstance(row, dict) or not isinstance(row.get("input"), str):
        raise InputFileError(f"Py150Dataset: {where} has no text 'input'")
    row["input"] = "\n".join(row["input"].replace("<s>", "").split("<EOL>"))
    row.pop("id", None)
    return row


@LOAD_DATASET.register_module()
class Py150Dataset(BaseDataset):
    """One row per line: ``input`` with ``<s>`` removed and each ``<EOL>`` made a newline (lines not
    stripped), every other field kept (``id`` dropped).  As in OpenCompass, the literal placeholders are
    restored in the raw *line* before it is parsed: ``<NUM_LIT>`` → ``0``, ``<STR_LIT>`` and
    ``<CHAR_LIT>`` → nothing, ``<STR_LIT:x>`` (and ``NUM``, ``CHAR``) → ``x`` — in every field, ``gt``
    included.
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        file = require_file(get_data_path(path, local_mode=True), "Py150Dataset")
        with open(file, encoding="utf-8") as handle:
            lines = handle.readlines()
        return dataset([_restore(line, f"{file}, line {i}") for i, line in enumerate(lines, 1)])
