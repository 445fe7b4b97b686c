"""``CommonSummarizer``: single ratings per capability, as OpenCompass 0.5.4's summarizer computes them.

The judge's reply carries ``[[<rating>]]`` (the first counts); the scores are
``total`` and each capability's mean rating, two decimals.
"""

from __future__ import annotations

import csv
import logging
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from assay.config.abbr import dataset_abbr, model_abbr, summarizer_abbr
from assay.fileio import atomic_append_bytes, atomic_write_text
from assay.registry import SUMMARIZERS
from assay.subjective._common import (
    append_csv_rows,
    csv_text,
    eval_models,
    judge_abbrs,
    judged_answers,
    judged_dir,
    read_judged,
    results_dir,
    summary_dir,
)

__all__ = ["CommonSummarizer", "read_single_rate"]

logger = logging.getLogger(__name__)


def read_single_rate(reply: str) -> dict[str, float] | None:
    """``{'score': n}`` from the first ``[[n]]`` of a reply, or ``None``.

    >>> read_single_rate('Good. [[8.5]]')
    {'score': 8.5}
    """
    found = re.findall(r"\[\[([\d.]+)\]\]", reply)
    if not found:
        return None
    try:
        return {"score": float(found[0])}
    except ValueError:  # '8.5.': OpenCompass raises here
        return None


def _capabilities(answers: Sequence[Mapping[str, Any]], references: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    totals: dict[str, float] = defaultdict(int)
    counts: dict[str, int] = defaultdict(int)
    for answer, reference in zip(answers, references):
        for key in ("total", reference["capability"]):
            totals[key] += answer["score"]
            counts[key] += 1
    return {key: round(total / counts[key], 2) for key, total in totals.items()}


@SUMMARIZERS.register_module()
class CommonSummarizer:
    """Each (model, judge, dataset)'s ``total`` and capability ratings, as OpenCompass 0.5.4's ``CommonSummarizer``.

    For each model of ``eval.partitioner.models`` (else ``models``), each judge and each dataset:
    a row of ``summary/<time>/result.csv`` (``model,judge_model,dataset,total,<capabilities>``, the
    header from the first row's capabilities; rows named by ``summarizer_abbr`` where set); then the
    table turned around (one column per row) appended to ``total_result.csv``, each later row's
    capabilities under the first row's names, as OpenCompass reads them back.

    Returns ``{'qa_bench_<last dataset>': {judge: {model: scores of the model's last dataset}}}``.
    Where OpenCompass stops, assay goes on: a dataset without a readable rating gets no row (OpenCompass
    raises), a row shorter than the header shows ``''`` for the missing cells, and a run without any
    result writes nothing and returns ``{}``.
    """

    def __init__(self, config: Mapping[str, Any], judge_type: str = "single_rate") -> None:
        self.cfg = config
        self.judge_type = "single_rate"

    def summarize(self, time_str: str | None = None) -> dict[str, Any]:
        time_str = time_str or datetime.now().strftime("%Y%m%d_%H%M%S")
        out_dir = summary_dir(self.cfg, time_str)
        rows_path, total_path = out_dir / "result.csv", out_dir / "total_result.csv"
        judges = list(self.cfg.get("judge_models") or [])
        judge_abbrs(self.cfg, "CommonSummarizer")
        returned: dict[str, Any] = {}
        first = True
        last_dataset = None
        for model_cfg in eval_models(self.cfg):
            for judge_cfg in judges:
                shown_model, shown_judge = summarizer_abbr(dict(model_cfg)), summarizer_abbr(dict(judge_cfg))
                subdir = judged_dir(results_dir(self.cfg), model_abbr(dict(model_cfg)), model_abbr(dict(judge_cfg)))
                if not subdir.is_dir():
                    logger.warning("%s does not exist: no ratings for that model", subdir)
                    continue
                for dataset in self.cfg.get("datasets") or []:
                    samples, where = read_judged(subdir, dataset)
                    answers, references = judged_answers(samples, str(where), read_single_rate, whole_sample=False)
                    last_dataset = dataset_abbr(dict(dataset))
                    if not answers:
                        logger.warning("%s: no readable rating, no row for %s", where, shown_model)
                        continue
                    scores = _capabilities(answers, references)
                    columns = ["total", *(k for k in scores if k != "total")]
                    row = [shown_model, shown_judge, last_dataset, *(scores[c] for c in columns)]
                    if first:  # a file of this summary's own: the header and the first row replace what was there
                        atomic_write_text(rows_path, csv_text([["model", "judge_model", "dataset", *columns], row]))
                    else:
                        append_csv_rows(rows_path, [row])
                    first = False
                    returned.setdefault(shown_judge, {})[shown_model] = {c: scores[c] for c in columns}
        if not rows_path.exists():
            return {}
        with open(rows_path, newline="", encoding="utf-8") as fh:
            header, *table = list(csv.reader(fh))
        new_header = ["", *(line[0] for line in table)]
        turned = [[h, *(line[i] if i < len(line) else "" for line in table)] for i, h in enumerate(header[1:], start=1)]
        atomic_append_bytes(total_path, "".join(",".join(map(str, line)) + "\n" for line in [new_header, *turned]).encode("utf-8"))
        return {f"qa_bench_{last_dataset}": returned}
