"""FollowBench's constraint checks: ``followbench_postprocess`` and ``FollowBenchSummarizer``, as OpenCompass 0.5.4.

The judge ends its reply (after stripping backticks and blanks) with a line
that, for a level-1 instruction, says ``YES`` or ``NO``, and for level *n* is a
list of *n* verdicts (``['YES', 'NO', ...]``; ``YES``/``True`` count as met,
``NO``, ``False``, ``PARTIAL``, ``MAYBE``, ``UNKNOWN``, ``N/A`` as not met).
An instruction is *hard-satisfied* (HSR) when every constraint is met, and
*soft-satisfied* (SSR) by the share met.  A reply read otherwise counts
against nothing: it is taken out of its level's count.

Quirks kept: each level's count starts from a fifth of all replies
(rounded down), whatever the levels' real sizes, and loses one per unread
reply of the level; a level whose count reaches 0 scores 0; the averages
are ``statistics.mean`` of the five levels.  Unlike OpenCompass, assay never
runs the judge's text: the list is read as a Python literal, so a list
written as an expression (``['YES'] * 2``), which OpenCompass evaluates, is
unread here.
"""

from __future__ import annotations

import ast
import re
import statistics
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from assay.config.abbr import model_abbr
from assay.errors import ConfigError
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

__all__ = ["FollowBenchSummarizer", "followbench_postprocess", "followbench_scores", "read_followbench_verdict"]

_MET = ("YES", "True")
_NOT_MET = ("NO", "False", "PARTIAL", "MAYBE", "UNKNOWN", "N/A")
_UNREAD = (-1, -1)


def read_followbench_verdict(sample: Mapping[str, Any]) -> tuple[float, float]:
    """``(hard, soft)`` of one judged sample (its ``gold['level']`` says how many constraints), ``(-1, -1)`` unread.

    >>> read_followbench_verdict({'prediction': 'Checks...\\n[YES, NO]'.replace('YES', "'YES'").replace('NO', "'NO'"),
    ...                           'gold': {'level': 2}})
    (0, 0.5)
    >>> read_followbench_verdict({'prediction': 'The answer follows it.\\nYES', 'gold': {'level': 1}})
    (1, 1)
    """
    reply, level = sample["prediction"], sample["gold"]["level"]
    if not isinstance(reply, str):
        return _UNREAD
    last = reply.strip("`").strip().split("\n")[-1]
    if level == 1:
        if "YES" in last:
            return 1, 1
        return (0, 0) if "NO" in last else _UNREAD
    found = re.search(r"\[.*\]", last)
    if not found:
        return _UNREAD
    try:
        verdicts = ast.literal_eval(found.group())
        if len(verdicts) != level:
            return _UNREAD
        met = 0
        for verdict in verdicts:
            if verdict in _MET:
                met += 1
            elif verdict not in _NOT_MET:
                return _UNREAD
    except Exception:  # anything not a list of verdicts: OpenCompass catches every error here too
        return _UNREAD
    return int(met == level), met / level


def followbench_scores(answers: Sequence[tuple[float, float]], references: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """``HSR_AVG``, ``SSR_AVG``, then ``HSR_L1`` … ``HSR_L5`` and ``SSR_L1`` … ``SSR_L5`` (see the module's quirks)."""
    totals: list[list[float]] = [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]
    counts = [len(answers) // 5] * 5
    for (hard, soft), reference in zip(answers, references):
        level = reference["level"]
        if not isinstance(level, int) or not 1 <= level <= 5:
            raise ConfigError(f"FollowBench: a sample's level must be 1 to 5, got {level!r}")
        if hard == -1:
            counts[level - 1] -= 1
        else:
            totals[0][level - 1] += hard
            totals[1][level - 1] += soft
    rates = [[t / counts[j] if counts[j] != 0 else 0 for j, t in enumerate(row)] for row in totals]
    scores: dict[str, float] = {"HSR_AVG": statistics.mean(rates[0]), "SSR_AVG": statistics.mean(rates[1])}
    scores.update({f"HSR_L{j + 1}": s for j, s in enumerate(rates[0])})
    scores.update({f"SSR_L{j + 1}": s for j, s in enumerate(rates[1])})
    return scores


@DICT_POSTPROCESSORS.register_module(["followbench", "followbench_postprocess"])
def followbench_postprocess(output: dict[str, Any], output_path: str) -> dict[str, Any]:
    """FollowBench's rates (see :func:`followbench_scores`) and ``details``: the judged samples as given."""
    answers, references = judged_answers(output, output_path, read_followbench_verdict)
    results: dict[str, Any] = dict(followbench_scores(answers, references))
    results["details"] = output
    return results


@SUMMARIZERS.register_module()
class FollowBenchSummarizer:
    """FollowBench's rates per model from ``results/<model>_judged-by--<judge>/``, as OpenCompass 0.5.4's.

    Reads the run's first dataset for each model of ``eval.partitioner.models``
    (else ``models``); writes no file (``summary/<time>/`` is created, as
    OpenCompass creates it).  Returns ``{'followbench': {judge: {model: rates}}}``,
    ``None`` for a model without results.
    """

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.cfg = config

    def summarize(self, time_str: str | None = None) -> dict[str, Any]:
        time_str = time_str or datetime.now().strftime("%Y%m%d_%H%M%S")
        datasets = self.cfg.get("datasets") or []
        if not datasets:
            raise ConfigError("FollowBenchSummarizer: the run config has no datasets")
        everything: dict[str, Any] = {}
        for judge in judge_abbrs(self.cfg, "FollowBenchSummarizer"):
            summary_dir(self.cfg, time_str)
            by_model: dict[str, Any] = {}
            for model_cfg in eval_models(self.cfg):
                model = model_abbr(dict(model_cfg))
                subdir = judged_dir(results_dir(self.cfg), model, judge)
                by_model[model] = None
                if subdir.is_dir():
                    samples, where = read_judged(subdir, datasets[0])
                    answers, references = judged_answers(samples, str(where), read_followbench_verdict)
                    if answers:
                        by_model[model] = followbench_scores(answers, references)
            everything[judge] = by_model
        return {"followbench": everything}
