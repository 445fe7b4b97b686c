"""MT-Bench's single-answer grading: ``mtbench_postprocess`` and ``MTBenchSummarizer``.

Both compute what OpenCompass 0.5.4's namesakes compute: the judge's reply
carries ``Rating: [[<n>]]`` (the first one counts); the scores are the mean
rating over every turn judged (``total``) and per capability, each rounded to
two decimals.  A reply without a rating is not counted.

Where OpenCompass crashes, assay goes on: a rating that is not a number
(``Rating: [[7.5.]]``) leaves the reply unread; a summary with no model's
results writes nothing and returns no scores.
"""

from __future__ import annotations

import csv
import logging
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from assay.config.abbr import model_abbr, summarizer_abbr
from assay.errors import ConfigError
from assay.registry import DICT_POSTPROCESSORS, SUMMARIZERS
from assay.subjective._common import (
    append_csv_rows,
    eval_models,
    judge_abbrs,
    judged_answers,
    judged_dir,
    read_judged,
    results_dir,
    summary_dir,
)

__all__ = ["MTBENCH_COLUMNS", "MTBenchSummarizer", "mtbench_capability_scores", "mtbench_postprocess", "read_mtbench_rating"]

logger = logging.getLogger(__name__)

#: The summary's columns: the mean over every turn, then MT-Bench's eight capabilities.
MTBENCH_COLUMNS = ("total", "writing", "roleplay", "reasoning", "math", "coding", "extraction", "stem", "humanities")

_RATING = re.compile(r"Rating:\s*\[\[([\d.]+)\]\]")


def read_mtbench_rating(reply: str) -> dict[str, float] | None:
    """``{'score': n}`` from the first ``Rating: [[n]]`` of a reply, or ``None``.

    >>> read_mtbench_rating('The answer is fine.\\n\\nRating: [[7.5]]')
    {'score': 7.5}
    >>> read_mtbench_rating('Rating: 7') is None
    True
    """
    found = _RATING.findall(reply)
    if not found:
        return None
    try:
        return {"score": float(found[0])}
    except ValueError:  # '7.5.': OpenCompass raises here
        return None


def mtbench_capability_scores(answers: Sequence[Mapping[str, Any]], references: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``total`` and each capability's mean rating (two decimals), in the order first met.

    Without any rating read: every column of :data:`MTBENCH_COLUMNS`, each ``''``.

    >>> mtbench_capability_scores([{'score': 8.0}, {'score': 5.0}], [{'capability': 'math'}, {'capability': 'coding'}])
    {'total': 6.5, 'math': 8.0, 'coding': 5.0}
    """
    if not answers:
        return dict.fromkeys(MTBENCH_COLUMNS, "")
    totals: dict[str, float] = defaultdict(int)
    counts: dict[str, int] = defaultdict(int)
    for answer, reference in zip(answers, references):
        for key in ("total", reference["capability"]):
            totals[key] += answer["score"]
            counts[key] += 1
    return {key: round(total / counts[key], 2) for key, total in totals.items()}


@DICT_POSTPROCESSORS.register_module(["mtbench", "mtbench_postprocess"])
def mtbench_postprocess(output: dict[str, Any], output_path: str) -> dict[str, Any]:
    """MT-Bench's scores from its judged turns, as OpenCompass 0.5.4's ``mtbench_postprocess``.

    ``total`` and each capability met (see :func:`mtbench_capability_scores`),
    and ``details``: the judged samples as given.

    >>> out = {'0': {'prediction': 'Rating: [[9]]', 'gold': {'capability': 'writing'}},
    ...        '1': {'prediction': 'no verdict', 'gold': {'capability': 'math'}}}
    >>> r = mtbench_postprocess(out, 'x')
    >>> r['total'], r['writing'], 'math' in r
    (9.0, 9.0, False)
    """
    answers, references = judged_answers(output, output_path, lambda s: read_mtbench_rating(s["prediction"]))
    results: dict[str, Any] = mtbench_capability_scores(answers, references)
    results["details"] = output
    return results


@SUMMARIZERS.register_module()
class MTBenchSummarizer:
    """MT-Bench's table from ``results/<model>_judged-by--<judge>/``, as OpenCompass 0.5.4's (``judge_type='single'``).

    For each judge, each model of ``eval.partitioner.models`` (else
    ``models``) with a results folder gets one row of
    ``summary/<time>/MTBench-judged-by--<judge>-capability.csv`` (appended to,
    as OpenCompass appends; header ``model,total,writing,…`` with the first
    row): its ratings over every dataset of the run (every turn), ``total``
    then each capability (``0.0`` for one without a rating, every column empty
    for a model without any).  The row is named by the model's
    ``summarizer_abbr`` when it has one.

    Returns ``{'MTbench': {judge: {model: {column: value}}}}`` with the
    values as read back from the csv file (text, as OpenCompass returns them),
    one entry per row of the file.

    ``judge_type='pair'`` hands over to ``CompassArenaSummarizer``'s summary in
    OpenCompass 0.5.4 without setting it up, and fails there: building the
    summarizer needs ``eval.partitioner.base_models`` and ``compare_models``
    (a ``KeyError`` in OpenCompass), and its summary then stops on the missing
    ``meta_judge_model`` attribute.  assay fails the same way, with a
    :class:`~assay.errors.ConfigError` that says so; ``CompassArenaSummarizer``
    itself summarizes pairwise MT-Bench results.
    """

    def __init__(self, config: Mapping[str, Any], judge_type: str = "single") -> None:
        if judge_type not in ("single", "pair"):
            raise ConfigError(f"MTBenchSummarizer: judge_type must be 'single' or 'pair', got {judge_type!r}")
        self.cfg = config
        self.judge_type = judge_type
        if judge_type == "pair":
            partitioner = ((config.get("eval") or {}).get("partitioner") or {}) if isinstance(config, Mapping) else {}
            for key in ("base_models", "compare_models"):
                if key not in partitioner:
                    raise ConfigError(f"MTBenchSummarizer(judge_type='pair'): the config's eval.partitioner has no "
                                      f"'{key}', which OpenCompass 0.5.4's pairwise MT-Bench summary reads (a KeyError there)")

    def summarize(self, time_str: str | None = None) -> Any:
        """Write the csv file (see the class) and return the scores."""
        time_str = time_str or datetime.now().strftime("%Y%m%d_%H%M%S")
        if self.judge_type == "pair":
            raise ConfigError(
                "MTBenchSummarizer(judge_type='pair'): OpenCompass 0.5.4's pairwise MT-Bench summary fails "
                "('MTBenchSummarizer' object has no attribute 'meta_judge_model': it runs CompassArenaSummarizer's "
                "summary without its set-up); summarize these results with CompassArenaSummarizer instead")
        datasets = list(self.cfg.get("datasets") or [])
        out_dir = summary_dir(self.cfg, time_str)
        results = results_dir(self.cfg)
        everything: dict[str, Any] = {}
        for judge in judge_abbrs(self.cfg, "MTBenchSummarizer"):
            path = out_dir / f"MTBench-judged-by--{judge}-capability.csv"
            first = True
            for model_cfg in eval_models(self.cfg):
                subdir = judged_dir(results, model_abbr(dict(model_cfg)), judge)
                if not subdir.is_dir():
                    logger.warning("%s does not exist: no MT-Bench scores for that model", subdir)
                    continue
                answers: list[Any] = []
                references: list[Any] = []
                for dataset in datasets:
                    samples, where = read_judged(subdir, dataset)
                    a, r = judged_answers(samples, str(where), read_mtbench_rating, whole_sample=False)
                    answers += a
                    references += r
                scores = defaultdict(float, mtbench_capability_scores(answers, references))
                rows: list[list[Any]] = [["model", *MTBENCH_COLUMNS]] if first else []
                rows.append([summarizer_abbr(dict(model_cfg)), *(scores[c] for c in MTBENCH_COLUMNS)])
                append_csv_rows(path, rows)
                first = False
            by_model: dict[str, Any] = {}
            if path.exists():
                with open(path, newline="", encoding="utf-8") as fh:
                    table = list(csv.reader(fh))[1:]
                for row in table:
                    by_model[row[0]] = dict(zip(MTBENCH_COLUMNS, row[1:]))
            else:
                logger.warning("MTBenchSummarizer: no model has results judged by %s", judge)
            everything[judge] = by_model
        return {"MTbench": everything}
