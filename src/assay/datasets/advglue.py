"""AdvGLUE as OpenCompass 0.5.4 reads it: ``AdvSst2Dataset``, ``AdvQqpDataset``, ``AdvMnliDataset``,
``AdvMnliMMDataset``, ``AdvQnliDataset``, ``AdvRteDataset``.

Layout (id ``opencompass/advglue-dev`` → ``./data/adv_glue/dev_ann.json``): one
JSON object holding a list per task (``sst2``, ``qqp``, ``mnli``, ``mnli-mm``,
``qnli``, ``rte``); each entry an adversarial example with its ``label`` (an
int), ``type``, the perturbed fields (``sentence``; ``premise`` and
``hypothesis``; …) and the fields it was made from, ``original_<field>``
(``null`` or absent when that field was not perturbed).

Each loader gives the adversarial examples that have at least one non-empty
``original_*`` field, followed by the same examples again with each such
field's original text put back and ``type`` set to ``'original'`` — the first
half scores the model on the attacks, the second on the sentences they came
from (``AccDropEvaluator``).  Every row gets ``label_option``, the label as a
letter (0 → A).  Columns are the first example's keys (with the task's
``original_*`` keys added when it lacks them), as OpenCompass builds them;
without a ``type`` column the two halves cannot be joined, and the loader
stops, as OpenCompass does.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import as_datasets, read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.datasets.table import RowTable
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["AdvMnliDataset", "AdvMnliMMDataset", "AdvQnliDataset", "AdvQqpDataset", "AdvRteDataset", "AdvSst2Dataset"]


def _load(loader: str, path: str, subset: str, keys: tuple[str, ...]) -> RowTable:
    file = get_data_path(path)
    data = read_json(file, loader)
    examples = data.get(subset) if isinstance(data, dict) else None
    if not isinstance(examples, list) or not examples or not all(isinstance(e, dict) for e in examples):
        raise InputFileError(f"{loader}: file {file} has no non-empty {subset!r} list of objects")
    columns = list(examples[0]) + [k for k in keys if k not in examples[0]]
    if "type" not in columns:
        raise InputFileError(f"{loader}: file {file}: the {subset!r} examples have no 'type' field, so the original "
                             "examples cannot be appended (OpenCompass stops too)")
    rows = [{c: e.get(c) for c in columns} for e in examples]
    attacked = [r for r in rows if any(r.get(k) for k in keys)]
    originals = []
    for row in attacked:
        original = dict(row)
        for k in keys:
            if row[k]:
                original[k.split("original_")[-1]] = row[k]
                original["type"] = "original"
        originals.append(original)
    out = []
    for i, row in enumerate(attacked + originals):
        label = row.get("label")
        if isinstance(label, bool) or not isinstance(label, int):
            raise InputFileError(f"{loader}: file {file}, {subset!r} example {i % max(len(attacked), 1)}: label {label!r} is not an int")
        out.append({**row, "label_option": chr(ord("A") + label)})
    return rows_table(out, file)


def _loader(name: str, subset: str, keys: tuple[str, ...]) -> type[BaseDataset]:
    def load_table(path: str) -> RowTable:
        return _load(name, path, subset, keys)

    def load(path: str) -> Any:
        return as_datasets(load_table(path))

    load_table.__doc__ = "The rows as a table (what assay evaluates; no ``datasets`` import)."
    doc = f"AdvGLUE's ``{subset}`` examples, then their originals ({', '.join(f'``{k}``' for k in keys)} put back)."
    namespace = {"__module__": __name__, "__qualname__": name, "__doc__": doc,
                 "load_table": staticmethod(load_table), "load": staticmethod(load)}
    return LOAD_DATASET.register_module()(type(name, (BaseDataset,), namespace))


AdvSst2Dataset = _loader("AdvSst2Dataset", "sst2", ("original_sentence",))
AdvQqpDataset = _loader("AdvQqpDataset", "qqp", ("original_question1", "original_question2"))
AdvMnliDataset = _loader("AdvMnliDataset", "mnli", ("original_premise", "original_hypothesis"))
AdvMnliMMDataset = _loader("AdvMnliMMDataset", "mnli-mm", ("original_premise", "original_hypothesis"))
AdvQnliDataset = _loader("AdvQnliDataset", "qnli", ("original_question", "original_sentence"))
AdvRteDataset = _loader("AdvRteDataset", "rte", ("original_sentence1", "original_sentence2"))
