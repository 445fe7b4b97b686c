"""MT-Bench-101's judge ratings: ``mtbench101_postprocess`` and ``MTBench101Summarizer``, as OpenCompass 0.5.4.

The judge rates each turn; the first ``[<digits>]`` of its reply is read (so
``Rating: [[7]]`` gives 7, and so does any earlier bracketed number, as in
OpenCompass).  A dialogue scores its lowest turn; a task the mean of its
dialogues; ``avg`` the mean of the tasks (three decimals in the
postprocessor, two in the summarizer's ``average``).
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from assay.config.abbr import model_abbr
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

__all__ = ["MTBench101Summarizer", "mtbench101_postprocess", "mtbench101_task_scores", "read_mtbench101_rating"]

logger = logging.getLogger(__name__)

_RATING = re.compile(r"\[([0-9]+)\]")


def read_mtbench101_rating(reply: str) -> dict[str, Any] | None:
    """``{'score': n, 'judgement': reply}`` from the first ``[n]`` of the reply, or ``None``.

    >>> read_mtbench101_rating('Good recall of the context. Rating: [[8]]')['score']
    8
    """
    match = _RATING.search(reply)
    return {"score": int(match.group(1)), "judgement": reply} if match else None


def mtbench101_task_scores(answers: Sequence[Mapping[str, Any]], references: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """Each task's mean over its dialogues of the dialogue's lowest turn rating, in the order first met.

    >>> mtbench101_task_scores([{'score': 8}, {'score': 5}, {'score': 9}],
    ...                        [{'task': 'CM', 'multi_id': 1}, {'task': 'CM', 'multi_id': 1}, {'task': 'CM', 'multi_id': 2}])
    {'CM': 7.0}
    """
    by_dialogue: dict[tuple[Any, Any], list[int]] = defaultdict(list)
    for answer, reference in zip(answers, references):
        by_dialogue[(reference["task"], reference["multi_id"])].append(answer["score"])
    by_task: dict[Any, list[int]] = defaultdict(list)
    for (task, _), scores in by_dialogue.items():
        by_task[task].append(min(scores))
    return {task: sum(s) / len(s) for task, s in by_task.items()}


@DICT_POSTPROCESSORS.register_module(["mtbench101", "mtbench101_postprocess"])
def mtbench101_postprocess(output: dict[str, Any], output_path: str) -> dict[str, Any]:
    """``avg`` (three decimals) then each task's score, and ``details``; without any rating read,
    OpenCompass's ``warning`` and the details.

    >>> out = {'0': {'prediction': 'Rating: [[6]]', 'gold': {'task': 'SI', 'multi_id': 3, 'turn_id': '2'}}}
    >>> {k: v for k, v in mtbench101_postprocess(out, 'x').items() if k != 'details'}
    {'avg': 6.0, 'SI': 6.0}
    """
    answers, references = judged_answers(output, output_path, lambda s: read_mtbench101_rating(s["prediction"]))
    if not answers:
        return {"warning": "no valid mtbench101 judgements extracted (expect [[score]] in output)", "details": output}
    tasks = mtbench101_task_scores(answers, references)
    results: dict[str, Any] = {"avg": round(sum(tasks.values()) / len(tasks), 3), **tasks}
    results["details"] = output
    return results


@SUMMARIZERS.register_module()
class MTBench101Summarizer:
    """MT-Bench-101's table from ``results/<model>_judged-by--<judge>/``, as OpenCompass 0.5.4's.

    Reads the run's first dataset (MT-Bench-101 has one) for each model of
    ``eval.partitioner.models`` (else ``models``) with a results folder, and
    appends its row to ``summary/<time>/MTBench101-task_score-judged-by--<judge>.csv``
    (header ``model,average,<tasks>`` written with the first row, the tasks
    in the order that model's results met them: a later model's columns are
    its own, under the first one's header, as in OpenCompass).

    Returns ``{'MTBench101': {judge: {model: {'average': …}}}}``.  A model
    whose results have no readable rating: OpenCompass divides by zero; assay
    leaves it out of the table and the scores, with a warning.
    """

    def __init__(self, config: Mapping[str, Any], judge_type: str = "single") -> None:
        self.cfg = config

    def summarize(self, time_str: str | None = None) -> dict[str, Any]:
        """Write the csv file (see the class) and return the averages."""
        time_str = time_str or datetime.now().strftime("%Y%m%d_%H%M%S")
        datasets = self.cfg.get("datasets") or []
        if not datasets:
            raise ConfigError("MTBench101Summarizer: the run config has no datasets")
        out_dir = summary_dir(self.cfg, time_str)
        results = results_dir(self.cfg)
        everything: dict[str, Any] = {}
        for judge in judge_abbrs(self.cfg, "MTBench101Summarizer"):
            by_model: dict[str, Any] = {}
            first = True
            for model_cfg in eval_models(self.cfg):
                model = model_abbr(dict(model_cfg))
                subdir = judged_dir(results, model, judge)
                if not subdir.is_dir():
                    logger.warning("%s does not exist: no MT-Bench-101 scores for that model", subdir)
                    continue
                samples, where = read_judged(subdir, datasets[0])
                answers, references = judged_answers(samples, str(where), read_mtbench101_rating, whole_sample=False)
                tasks = mtbench101_task_scores(answers, references)
                if not tasks:
                    logger.warning("%s: no readable rating, %s left out of MT-Bench-101's table", where, model)
                    continue
                average = round(sum(tasks.values()) / len(tasks), 2)
                rows: list[list[Any]] = [["model", "average", *tasks]] if first else []
                rows.append([model, average, *tasks.values()])
                append_csv_rows(out_dir / f"MTBench101-task_score-judged-by--{judge}.csv", rows)
                first = False
                by_model[model] = {"average": average}
            everything[judge] = by_model
        return {"MTBench101": everything}
