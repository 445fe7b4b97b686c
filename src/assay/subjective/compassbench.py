"""CompassBench (pairwise comparison) as OpenCompass 0.5.4 summarizes it: ``CompassBenchSummarizer``."""

from __future__ import annotations

import logging
import os
from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from assay.errors import ConfigError, InputFileError
from assay.fileio import atomic_write_text
from assay.registry import SUMMARIZERS
from assay.subjective import _judged
from assay.subjective._common import csv_text
from assay.subjective.wildbench import _SCORE, wildbench_choice

logger = logging.getLogger(__name__)

__all__ = ["CATEGORIES", "CompassBenchSummarizer"]

#: The table's categories and, for each, the dataset abbrs of its rows (OpenCompass's fixed map).
CATEGORIES = {
    "language": [
        "language/compassbench_2601_language_sub_chat",
        "language/compassbench_2601_language_sub_creation",
        "language/compassbench_2601_language_sub_nlp",
    ],
}


def _csv_value(value: Any) -> Any:
    """A cell as pandas writes a float column: ``repr`` of the float, nothing for a missing value."""
    return "" if value is None else repr(float(value))


@SUMMARIZERS.register_module()
class CompassBenchSummarizer:
    """OpenCompass 0.5.4's ``CompassBenchSummarizer``: each compared model's reward per CompassBench dataset.

    Args:
        config: the run config (``datasets`` — abbrs ``<category>/<name>`` —, the first
            one's ``base_models``, ``eval.partitioner.models``, ``judge_models``, ``work_dir``).
        check_pos_bias: accepted, not used (as in OpenCompass).
        summary_type: accepted and not used (the library configs pass it; OpenCompass's
            class does not take it — its summary fails on that keyword).

    It reads the judge replies the way WildBench's are read (``"choice": "A++"`` …,
    OpenCompass's choice, though CompassBench's judge prompt asks for ``选择：[[A]]``:
    such replies count for nothing) and scores each compared model from its side
    (``A++`` 1 … ``B++`` −1, percent, two decimals) per dataset.  It writes
    ``summary/<time_str>/summarized-by--<judge>--report.csv``: a row per dataset of
    :data:`CATEGORIES` (``<category>_<abbr>``), a column per model, an empty cell
    where a model has no value.  It returns ``None``, as OpenCompass's does.  A
    model without results, a dataset abbr without a ``/`` or a run without a
    ``language`` dataset make it fail, as they make OpenCompass's fail.
    """

    def __init__(self, config: Mapping[str, Any], check_pos_bias: bool = False, **unused: Any) -> None:
        if "summary_type" in unused and set(unused) == {"summary_type"}:
            raise ConfigError("CompassBenchSummarizer: got an unexpected keyword argument 'summary_type' "
                              "(OpenCompass 0.5.4's CompassBenchSummarizer takes none)")
        if unused:
            raise ConfigError(f"CompassBenchSummarizer: unexpected options {', '.join(sorted(unused))}")
        self.run = _judged.PairwiseConfig(config, "CompassBenchSummarizer")
        self.check_pos_bias = check_pos_bias

    def get_score(self, time_str: str) -> dict[str, Any]:
        _judged.outdir(self.run.cfg, time_str)
        pairs = _judged.unique_pairs(self.run.base_models, self.run.compare_models)
        what = "CompassBenchSummarizer"
        scores: dict[str, Any] = {}
        for judge_cfg in self.run.judges():
            judge = _judged.model_name(judge_cfg)
            scores[judge] = {}
            for dataset in self.run.datasets:
                abbr = _judged.dataset_name(dataset)
                if "/" not in abbr:
                    raise InputFileError(f"{what}: dataset abbr {abbr!r} is not '<category>/<name>'")
                scores[judge][abbr] = {}
                for first, second in pairs:
                    base, compare = first["abbr"], second["abbr"]
                    subdir = _judged.pair_folder(self.run.cfg, [base, compare], judge)
                    if not os.path.isdir(subdir):
                        logger.warning("%s: %s does not exist", what, subdir)
                        scores[judge][abbr][compare] = None
                        continue
                    choices, references, _ = _judged.folder_judgements(subdir, abbr, wildbench_choice, what)
                    total = 0.0
                    count = 0
                    for choice, ref in zip(choices, references):
                        if choice not in _SCORE:
                            continue
                        flag = 1 if _judged.reference_field(ref, "answer1", what) == base else -1
                        total += -_SCORE[choice] * flag
                        count += 1
                    scores[judge][abbr][compare] = {abbr: round(total / count * 100, 2)} if count else {}
        return scores

    def summarize(self, time_str: str | None = None) -> None:
        """Write the report for ``time_str`` (now, by default)."""
        time_str = time_str or datetime.now().strftime("%Y%m%d_%H%M%S")
        scores = self.get_score(time_str)
        output_dir, _ = _judged.outdir(self.run.cfg, time_str)
        for judge, by_dataset in scores.items():
            merged: dict[str, dict[str, dict[str, Any]]] = {}
            for abbr, by_model in by_dataset.items():
                root = abbr.split("/")[0]
                merged.setdefault(root, {})
                for model, values in by_model.items():
                    merged[root].setdefault(model, {})
                    if values is None:
                        raise InputFileError(f"CompassBenchSummarizer: {model} has no result for {abbr} judged by {judge} "
                                             "(OpenCompass fails on that too)")
                    merged[root][model].update(values)
            columns: list[str] = []
            rows: dict[str, dict[str, Any]] = defaultdict(dict)
            for category, abbrs in CATEGORIES.items():
                if category not in merged:
                    raise InputFileError(f"CompassBenchSummarizer: no dataset of the category {category!r} (abbrs '{category}/…') in the run")
                for model, values in merged[category].items():
                    if model not in columns:
                        columns.append(model)
                    for abbr in abbrs:
                        rows[f"{category}_{abbr}"][model] = values.get(abbr)
            atomic_write_text(os.path.join(output_dir, f"summarized-by--{judge}--report.csv"), csv_text(
                [["", *columns], *([name, *(_csv_value(values.get(m)) for m in columns)] for name, values in rows.items())],
                lineterminator="\n"))
