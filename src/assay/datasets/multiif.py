"""Multi-IF as OpenCompass 0.5.4 reads it (``MultiIFDataset``).

Layout (id ``opencompass/MultiIF`` → ``./data/MultiIF/multiIF_20241018.csv``): one
conversation per CSV row, read with pandas as OpenCompass reads it (empty cells
stay ``''``), with ``language`` and, for turns 1–3, ``turn_<t>_prompt`` (a JSON
message), ``turn_<t>_instruction_id_list`` (a JSON list) and ``turn_<t>_kwargs``
(a JSON list whose items are JSON objects, or JSON texts of them).  A row
without a third turn is left out, as there.
"""

from __future__ import annotations

import json
from typing import Any

from assay.datasets._oc_files import dataset, require_file
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["MultiIFDataset"]

_LOADER = "MultiIFDataset"


@LOAD_DATASET.register_module()
class MultiIFDataset(BaseDataset):
    """Each conversation as ``dialogue`` (the three user messages, each followed by an empty assistant
    message for the model's reply) and ``reference`` (``language`` and, per turn, its instruction ids,
    their keyword arguments and the user prompt's text)."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        import pandas as pd

        file = require_file(get_data_path(path), _LOADER)
        try:
            frame = pd.read_csv(file, keep_default_na=False)
        except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as exc:
            raise InputFileError(f"{_LOADER}: {file} cannot be read as CSV: {exc}") from None
        needed = ["language"] + [f"turn_{t}_{k}" for t in (1, 2, 3) for k in ("prompt", "instruction_id_list", "kwargs")]
        missing = [c for c in needed if c not in frame.columns]
        if missing:
            raise InputFileError(f"{_LOADER}: {file} has no column {', '.join(map(repr, missing))}")
        rows = []
        for index, row in enumerate(frame.to_dict(orient="records")):
            if not row["turn_3_prompt"]:
                continue
            dialogue: list[dict[str, Any]] = []
            reference: dict[str, Any] = {"language": row["language"]}
            for t in (1, 2, 3):
                try:
                    message = json.loads(row[f"turn_{t}_prompt"])
                    ids = json.loads(row[f"turn_{t}_instruction_id_list"])
                    raw = json.loads(row[f"turn_{t}_kwargs"])
                    options = [json.loads(kw) if isinstance(kw, str) else kw for kw in raw]
                    text = message["content"]
                except (json.JSONDecodeError, TypeError, KeyError) as exc:
                    raise InputFileError(f"{_LOADER}: {file}, row {index}: turn {t} cannot be read: "
                                         f"{type(exc).__name__}: {exc}") from None
                dialogue += [message, {"role": "assistant", "content": ""}]
                reference[f"turn_{t}_instruction_id_list"] = ids
                reference[f"turn_{t}_kwargs"] = options
                reference[f"turn_{t}_prompt"] = text
            rows.append({"dialogue": dialogue, "reference": reference})
        return dataset(rows)
