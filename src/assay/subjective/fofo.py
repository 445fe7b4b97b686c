"""FoFo's format checks: ``fofo_postprocess`` and ``FofoSummarizer``, as OpenCompass 0.5.4 computes them.

The judge's reply carries ``"format_correctness": 1`` (or ``0``); the scores
are the mean over the replies read, ``overall``, per domain and per format of
the ``general`` format type.  Quirks kept: the value is read as a run of the
digits 0 and 1 (``"format_correctness": 10`` counts as 10, ``01`` as 1); a
reply without it is not counted.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from assay.config.abbr import dataset_abbr, model_abbr
from assay.fileio import atomic_write_text
from assay.registry import DICT_POSTPROCESSORS, SUMMARIZERS
from assay.subjective._common import (
    eval_models,
    judge_abbrs,
    judged_answers,
    judged_dir,
    read_judged,
    results_dir,
    summary_dir,
)

__all__ = ["FofoSummarizer", "fofo_postprocess", "fofo_scores", "read_fofo_verdict"]

logger = logging.getLogger(__name__)

_VERDICT = re.compile(r"[\"']format_correctness[\"']:\s*([0-1]+)")
#: The formats listed first in the summary, after ``overall``.
_FORMATS = ["Json", "CSV", "XML", "YAML", "Markdown"]


def read_fofo_verdict(reply: str) -> dict[str, int] | None:
    """``{'score': n}`` from the first ``'format_correctness': n`` of a reply, or ``None``.

    >>> read_fofo_verdict('[{"model": "m", "format_correctness": 1, "reasons": "ok"}]')
    {'score': 1}
    """
    match = _VERDICT.search(reply)
    return {"score": int(match.group(1))} if match else None


def fofo_scores(answers: Sequence[Mapping[str, Any]], references: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """``overall``, each domain's and each ``general`` format's mean, in the order first met."""
    scores: dict[str, list[int]] = defaultdict(list)
    for answer, reference in zip(answers, references):
        score = answer["score"]
        scores["overall"].append(score)
        scores[reference["domain"]].append(score)
        if reference["format_type"] == "general":
            scores[reference["format"]].append(score)
    return {key: sum(values) / len(values) for key, values in scores.items()}


@DICT_POSTPROCESSORS.register_module(["fofo", "fofo_postprocess"])
def fofo_postprocess(output: dict[str, Any], output_path: str) -> dict[str, Any]:
    """FoFo's scores (see :func:`fofo_scores`) and ``details``: the judged samples as given.

    >>> out = {'0': {'prediction': "'format_correctness': 1", 'gold': {'domain': 'Law', 'format': 'Json',
    ...        'format_type': 'general'}}}
    >>> fofo_postprocess(out, 'x')['Json']
    1.0
    """
    answers, references = judged_answers(output, output_path, lambda s: read_fofo_verdict(s["prediction"]))
    results: dict[str, Any] = dict(fofo_scores(answers, references))
    results["details"] = output
    return results


@SUMMARIZERS.register_module()
class FofoSummarizer:
    """FoFo's tables from ``results/<model>_judged-by--<judge>/``, as OpenCompass 0.5.4's.

    For each judge and dataset: ``summary/<time>/<dataset>-judged-by--<judge>--report.csv``,
    one column per model of ``eval.partitioner.models`` (else ``models``), the
    rows ``overall``, the five formats ``Json, CSV, XML, YAML, Markdown``, then
    the first model's other keys (its domains, its other formats), each value
    with two decimals (empty where a model has none).

    Returns ``{'Fofo': {judge: {model: {dataset: overall}}}}``, the values as in
    the table (text).

    Where OpenCompass stops, assay goes on: a dataset no model has a results
    folder for gets no table (OpenCompass raises); a model without a folder
    has an empty column (OpenCompass raises when it is not the only one).
    """

    def __init__(self, config: Mapping[str, Any], judge_type: str = "single") -> None:
        self.cfg = config

    def _scores(self, judge: str) -> dict[str, dict[str, dict[str, float]]]:
        results = results_dir(self.cfg)
        by_dataset: dict[str, dict[str, dict[str, float]]] = {}
        for dataset in self.cfg.get("datasets") or []:
            abbr = dataset_abbr(dict(dataset))
            for model_cfg in eval_models(self.cfg):
                model = model_abbr(dict(model_cfg))
                subdir = judged_dir(results, model, judge)
                if not subdir.is_dir():
                    logger.warning("%s does not exist: no FoFo scores for that model", subdir)
                    continue
                samples, where = read_judged(subdir, dataset)
                answers, references = judged_answers(samples, str(where), read_fofo_verdict, whole_sample=False)
                by_dataset.setdefault(abbr, {})[model] = fofo_scores(answers, references) if answers else {}
        return by_dataset

    def summarize(self, time_str: str | None = None) -> dict[str, Any]:
        """Write the csv files (see the class) and return the scores."""
        time_str = time_str or datetime.now().strftime("%Y%m%d_%H%M%S")
        out_dir = summary_dir(self.cfg, time_str)
        models = [model_abbr(dict(m)) for m in eval_models(self.cfg)]
        everything: dict[str, Any] = {}
        for judge in judge_abbrs(self.cfg, "FofoSummarizer"):
            scores = self._scores(judge)
            overall: dict[str, list[str]] = {}
            for dataset in self.cfg.get("datasets") or []:
                abbr = dataset_abbr(dict(dataset))
                if abbr not in scores:
                    logger.warning("FofoSummarizer: no model has results of %s judged by %s", abbr, judge)
                    continue
                first = next(iter(scores[abbr].values()))
                rows = ["overall", *_FORMATS, *(k for k in first if k not in [abbr, *_FORMATS, "overall"])]
                table = []
                for key in rows:
                    line = [key]
                    for model in models:
                        value = scores[abbr].get(model, {}).get(key, "")
                        line.append(f"{value:.2f}" if isinstance(value, float) else str(value))
                    table.append(line)
                overall[abbr] = table[0][1:]
                atomic_write_text(out_dir / f"{abbr}-judged-by--{judge}--report.csv",
                                  "".join(",".join(line) + "\n" for line in [[abbr, *models], *table]))
            everything[judge] = {m: {abbr: values[i] for abbr, values in overall.items()} for i, m in enumerate(models)}
        return {"Fofo": everything}
