"""The multi-round format-following summary: ``MultiroundSummarizer``, as OpenCompass 0.5.4 computes it.

The judge lists the rounds where the answer broke the format (``[1, 3]``; the
first ``[...]`` of the reply counts, ``[]`` is none, anything but numbers
unread).  A sample scores ``(rounds - broken) / rounds``; each
``<capability>_<language>`` its mean; ``中文总分`` and ``英文总分`` the mean of
their five formats (a format without samples counts as 0); ``总分`` the mean
of the two.  No rounding.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from assay.config.abbr import model_abbr
from assay.errors import ConfigError
from assay.registry import SUMMARIZERS
from assay.subjective._common import (
    append_csv_rows,
    eval_models,
    judged_answers,
    judged_dir,
    read_judged,
    results_dir,
    summary_dir,
)

__all__ = ["MULTIROUND_CATEGORIES", "MultiroundSummarizer", "read_broken_rounds"]

logger = logging.getLogger(__name__)

#: The two languages and their formats, in the table's order.
MULTIROUND_CATEGORIES: dict[str, list[str]] = {
    "中文": ["json_zh", "csv_zh", "email_zh", "markdown_zh", "article_zh"],
    "英文": ["json_en", "csv_en", "email_en", "markdown_en", "article_en"],
}


def read_broken_rounds(reply: str) -> int | None:
    """How many rounds the judge lists in its first ``[...]`` (``[]``: 0), or ``None``.

    >>> read_broken_rounds('输出：[1, 3]'), read_broken_rounds('Output: []'), read_broken_rounds('[one]')
    (2, 0, None)
    """
    match = re.search(r"\[([^]]*)\]", reply)
    if not match:
        return None
    inside = match.group(1)
    if inside == "":
        return 0
    numbers = inside.split(", ")
    return len(numbers) if all(n.isdigit() for n in numbers) else None


def _scores(answers: Sequence[int], references: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    totals: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for broken, ref in zip(answers, references):
        key = ref["capability"] + "_" + ref["others"]["language"]
        rounds = ref["others"]["round"]
        totals[key] += (rounds - broken) / rounds
        counts[key] += 1
    means: dict[str, Any] = {key: total / counts[key] for key, total in totals.items()}
    keys = []
    for category, formats in MULTIROUND_CATEGORIES.items():
        means[category + "总分"] = np.mean([np.mean(means.setdefault(f, 0.0)) for f in formats])
        keys.append(category + "总分")
    overall: Any = 0
    for key in keys:
        overall += means[key]
    means["总分"] = overall / len(keys)
    return means


@SUMMARIZERS.register_module()
class MultiroundSummarizer:
    """The multi-round table of each model judged by the run's first judge (``eval.partitioner.judge_models``,
    else ``judge_models``), as OpenCompass 0.5.4's summarizer writes it.

    For each model of ``eval.partitioner.models`` (else ``models``) with a
    results folder and each dataset of the run, a row is appended to
    ``summary/<time>/judged-by--<judge>-capability.csv``, each row after OpenCompass's
    three header rows (numbered columns, the languages, their formats) — OpenCompass
    writes the header again before every row, and so does assay.  OpenCompass then
    prints the file as a table (with ``prettytable``); assay logs it.  Returns nothing.
    """

    def __init__(self, config: Mapping[str, Any]) -> None:
        partitioner = (config.get("eval") or {}).get("partitioner") or {}
        judges = partitioner.get("judge_models") or config.get("judge_models")
        if not judges:
            raise ConfigError("MultiroundSummarizer: the run config has no judge_models")
        self.cfg = config
        self.judge = model_abbr(dict(judges[0]))

    def summarize(self, time_str: str | None = None) -> None:
        time_str = time_str or datetime.now().strftime("%Y%m%d_%H%M%S")
        out_dir = summary_dir(self.cfg, time_str)
        path = out_dir / f"judged-by--{self.judge}-capability.csv"
        width = 2 + sum(1 + len(f) for f in MULTIROUND_CATEGORIES.values())
        top: list[Any] = ["模型", "总分"]
        sub: list[Any] = ["模型", "总分"]
        for category, formats in MULTIROUND_CATEGORIES.items():
            top += [category, *([None] * len(formats))]
            sub += [category + "总分", *formats]
        for model_cfg in eval_models(self.cfg):
            model = model_abbr(dict(model_cfg))
            subdir = judged_dir(results_dir(self.cfg), model, self.judge)
            if not subdir.is_dir():
                logger.warning("%s does not exist: no multi-round scores for that model", subdir)
                continue
            for dataset in self.cfg.get("datasets") or []:
                samples, where = read_judged(subdir, dataset)
                answers, references = judged_answers(samples, str(where), read_broken_rounds, whole_sample=False)
                scores = _scores(answers, references)
                row: list[Any] = [model, scores["总分"]]
                for category, formats in MULTIROUND_CATEGORIES.items():
                    row += [scores[category + "总分"], *(scores[f] for f in formats)]
                append_csv_rows(path, [[str(i) for i in range(width)], top, sub, row])
        if path.exists():
            logger.info("multi-round scores judged by %s:\n%s", self.judge, path.read_text(encoding="utf-8"))
