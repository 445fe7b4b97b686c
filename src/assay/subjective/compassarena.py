"""CompassArena as OpenCompass 0.5.4 scores it: its dict postprocessors and its position-bias count.

The judge ends with ``选择：A`` / ``Choice: B`` (``C``: a tie); the first such
choice is read (``选择：[[A]]``, the form the judge prompt itself shows, is not
read — OpenCompass's pattern wants the letter right after the colon).
"""

from __future__ import annotations

import logging
import os
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from assay.errors import ConfigError, InputFileError
from assay.registry import DICT_POSTPROCESSORS, SUMMARIZERS
from assay.subjective import _judged

logger = logging.getLogger(__name__)

__all__ = [
    "CompassArenaSummarizer",
    "check_position_bias",
    "compassarena_bradleyterry_postprocess",
    "compassarena_choice",
    "compassarena_postprocess",
]

_CHOICE = re.compile(r"(?:选择：|Choice: )([ABC])")


def compassarena_choice(reply: Any) -> str | None:
    """The first ``选择：X`` or ``Choice: X`` letter (A, B or C) of a judge reply, or ``None``.

    >>> compassarena_choice('评价1：…\\n选择：B'), compassarena_choice('选择：[[A]]')
    ('B', None)
    """
    found = _CHOICE.findall(reply) if isinstance(reply, str) else []
    return found[0] if found else None


def _sample_choice(sample: Mapping[str, Any]) -> str | None:
    return compassarena_choice(sample["prediction"])


def check_position_bias(judged: Sequence[Any], references: Sequence[Any], banned_choice: Sequence[str] = ("C",)) -> int:
    """OpenCompass's position-bias count: judged samples whose choice repeats the first judgement of the same question.

    The first judged sample of each ``question`` is kept; every later one whose
    choice is the same letter (neither a tie ``C``) is counted.  With
    ``infer_order='double'`` the later one is the same question with the answers
    swapped, so the same letter means the judge followed the place, not the
    answer.
    """
    first: dict[Any, Any] = {}
    count = 0
    for choice, ref in zip(judged, references):
        question = _judged.reference_field(ref, "question", "check_position_bias")
        if question not in first:
            first[question] = choice
        elif choice == first[question] and choice not in banned_choice:
            count += 1
    return count


@DICT_POSTPROCESSORS.register_module(["compassarena", "compassarena_postprocess"])
def compassarena_postprocess(
    output: dict[Any, Any], output_path: str, summary_type: str = "single", check_pos_bias: bool = True
) -> dict[str, Any]:
    """The compared model's win rate per ``capability`` (percent, two decimals), ``position_bias``, ``details``.

    The *first* model is the first judged sample's ``answer1`` (OpenCompass's
    choice: with ``infer_order='double'`` that is the base model, with
    ``'random'`` whichever came first); the score returned is the other one's.
    A tie ``C`` gives each half a win with ``summary_type='half_add'``, nothing
    otherwise.  ``position_bias`` is :func:`check_position_bias`'s count (0 when
    ``check_pos_bias`` is false).
    """
    what = "compassarena_postprocess"
    choices, references = _judged.judged_and_references(output, output_path, _sample_choice, what=what)
    bias = check_position_bias(choices, references) if check_pos_bias else 0
    if not references:
        raise InputFileError(f"{what}: no judgement could be read from the judge replies of {output_path}, so there is nothing to score")
    model1 = _judged.reference_field(references[0], "answer1", what)
    win1: defaultdict[str, float] = defaultdict(float)
    win2: defaultdict[str, float] = defaultdict(float)
    categories: defaultdict[str, float] = defaultdict(float)
    for choice, ref in zip(choices, references):
        capability = _judged.reference_field(ref, "capability", what)
        categories[capability] += 1
        first = _judged.reference_field(ref, "answer1", what) == model1
        if choice == "A":
            s1, s2 = (1.0, 0.0) if first else (0.0, 1.0)
        elif choice == "B":
            s1, s2 = (0.0, 1.0) if first else (1.0, 0.0)
        else:
            s1 = s2 = 0.5 if summary_type == "half_add" else 0.0
        win1[capability] += s1
        win2[capability] += s2
    for capability in categories:
        win1[capability] = round(win1[capability] / categories[capability] * 100, 2)
        win2[capability] = round(win2[capability] / categories[capability] * 100, 2)
    win1["position_bias"] = bias
    win2["position_bias"] = bias
    results: dict[str, Any] = dict(win2)
    results["details"] = output
    return results


@DICT_POSTPROCESSORS.register_module(["compassarena_bradleyterry", "compassarena_bradleyterry_postprocess"])
def compassarena_bradleyterry_postprocess(output: dict[Any, Any], output_path: str, count_ties: bool = True) -> dict[str, Any]:
    """``{'matches': [...]}``: ``A`` a win of ``model_a``, ``B`` of ``model_b``, ``C`` a tie (left out unless ``count_ties``)."""
    what = "compassarena_bradleyterry_postprocess"
    choices, references = _judged.judged_and_references(output, output_path, _sample_choice, what=what)
    _judged.require_predictions(references, what)
    matches = []
    for choice, ref in zip(choices, references):
        choice = choice.strip()
        if choice == "A":
            winner = "model_a"
        elif choice == "B":
            winner = "model_b"
        elif choice == "C" and count_ties:
            winner = "tie"
        else:
            continue
        matches.append(_judged.match_row(winner, {"capability": _judged.reference_field(ref, "capability", what)}, ref, what))
    return _judged.with_style_counts(matches)


# -- the summarizer ---------------------------------------------------------------------------------


@SUMMARIZERS.register_module()
class CompassArenaSummarizer:
    """OpenCompass 0.5.4's ``CompassArenaSummarizer``: the compared models' win rates against the base model.

    Args:
        config: the run config (``datasets`` and the first one's ``base_models``,
            ``eval.partitioner.models``, ``judge_models``, ``work_dir``).
        judge_type: ``'general'`` (the only one).
        check_pos_bias: count the position bias (:func:`check_position_bias`).
        summary_type: ``'half_add'`` gives a tie half a win each; ``'single'`` nothing.

    For each judge and dataset it reads ``results/<base>_<model>_judged-by--<judge>/<dataset>.json``
    (the raw judge outputs: choices ``选择：X`` / ``Choice: X``), and scores each
    compared model: its win rate overall (the row named after the dataset) and per
    capability, in percent rounded to two decimals, and the position-bias count.
    It writes under ``summary/<time_str>/``: ``<dataset>-judged-by--<judge>-report.csv``
    (rows: the dataset, ``position_bias``, the capabilities of the first model's
    results; a column per compared model) and ``compassarena-overall-judged-by--<judge>.csv``
    (a row per dataset), and returns ``{'CompassArena': {judge: {model: {dataset: 'xx.xx'}}}}``.
    As in OpenCompass, the model whose judge outputs have no readable choice makes
    it fail unless an earlier pair of the same dataset was scored, and a compared
    model without results makes the tables fail.
    """

    family = "CompassArena"

    def __init__(self, config: Mapping[str, Any], judge_type: str = "general", check_pos_bias: bool = True,
                 summary_type: str = "single") -> None:
        if judge_type != "general":
            raise ConfigError(f"{type(self).__name__}: judge_type must be 'general', got {judge_type!r}")
        self.run = _judged.PairwiseConfig(config, type(self).__name__)
        self.check_pos_bias = check_pos_bias
        self.summary_type = summary_type

    def _pair_scores(self, choices: list[Any], references: list[Any], abbr: str, model1: str) -> dict[str, Any]:
        what = type(self).__name__
        bias = check_position_bias(choices, references) if self.check_pos_bias else 0
        win1: defaultdict[str, float] = defaultdict(float)
        win2: defaultdict[str, float] = defaultdict(float)
        categories: defaultdict[str, float] = defaultdict(float)
        for choice, ref in zip(choices, references):
            capability = _judged.reference_field(ref, "capability", what)
            categories[abbr] += 1
            categories[capability] += 1
            first = _judged.reference_field(ref, "answer1", what) == model1
            if choice == "A":
                s1, s2 = (1.0, 0.0) if first else (0.0, 1.0)
            elif choice == "B":
                s1, s2 = (0.0, 1.0) if first else (1.0, 0.0)
            else:
                s1 = s2 = 0.5 if self.summary_type == "half_add" else 0.0
            win1[capability] += s1
            win1[abbr] += s1
            win2[capability] += s2
            win2[abbr] += s2
        for capability in categories:
            win1[capability] = round(win1[capability] / categories[capability] * 100, 2)
            win2[capability] = round(win2[capability] / categories[capability] * 100, 2)
        win2["position_bias"] = bias
        return dict(win2)

    def get_score(self, time_str: str) -> dict[str, Any]:
        _judged.outdir(self.run.cfg, time_str)
        pairs = _judged.unique_pairs(self.run.base_models, self.run.compare_models)
        scores: dict[str, Any] = {}
        for judge_cfg in self.run.judges():
            judge = _judged.model_name(judge_cfg)
            for dataset in self.run.datasets:
                abbr = _judged.dataset_name(dataset)
                for first, second in pairs:
                    model1, model2 = first["abbr"], second["abbr"]
                    subdir = _judged.pair_folder(self.run.cfg, [model1, model2], judge)
                    if not os.path.isdir(subdir):
                        logger.warning("%s: %s does not exist", type(self).__name__, subdir)
                        continue
                    choices, references, _ = _judged.folder_judgements(subdir, abbr, compassarena_choice, type(self).__name__)
                    if not choices:
                        if abbr not in scores.get(judge, {}):
                            raise InputFileError(
                                f"{type(self).__name__}: no choice of {model2} could be read in {subdir} ({abbr}), and "
                                "OpenCompass fails on that when no earlier model of the dataset was scored"
                            )
                        scores[judge][abbr][model2] = {}
                        continue
                    scores.setdefault(judge, {}).setdefault(abbr, {})[model2] = self._pair_scores(choices, references, abbr, model1)
        return scores

    def summarize(self, time_str: str | None = None) -> dict[str, Any]:
        """Write the report files for ``time_str`` (now, by default) and return the scores (see the class)."""
        time_str = time_str or datetime.now().strftime("%Y%m%d_%H%M%S")
        scores = self.get_score(time_str)
        output_dir, _ = _judged.outdir(self.run.cfg, time_str)
        who = type(self).__name__
        abbrs = [_judged.summarizer_abbr(m) for m in self.run.compare_models]
        names = [_judged.model_name(m) for m in self.run.compare_models]
        header = ["", *abbrs]
        all_scores: dict[str, Any] = {}
        for judge_cfg in self.run.judges():
            judge = _judged.model_name(judge_cfg)
            by_dataset = scores.get(judge)
            if by_dataset is None:
                raise InputFileError(f"{who}: no result judged by {judge} was found under {_judged.results_folder(self.run.cfg)}")
            overall = []
            for dataset in self.run.datasets:
                abbr = _judged.dataset_name(dataset)
                models = _scores_of(by_dataset, abbr, who, judge)
                first = next(iter(models.values()))
                rows = [abbr, "position_bias", *(k for k in first if k not in (abbr, "position_bias"))]
                table = [[row, *(_judged.cell(_model_scores(models, n, who, abbr).get(row, "")) for n in names)] for row in rows]
                _judged.write_rows(os.path.join(output_dir, f"{abbr}-judged-by--{judge}-report.csv"), header, table)
                overall.append([abbr, *(_judged.cell(_model_scores(models, n, who, abbr).get(abbr, "")) for n in names)])
            _judged.write_rows(os.path.join(output_dir, f"compassarena-overall-judged-by--{judge}.csv"), header, overall)
            all_scores[judge] = {model: {row[0]: row[i + 1] for row in overall} for i, model in enumerate(abbrs)}
        return {self.family: all_scores}


def _scores_of(by_dataset: Mapping[str, Any], abbr: str, who: str, judge: str) -> dict[str, Any]:
    if abbr not in by_dataset or not by_dataset[abbr]:
        raise InputFileError(f"{who}: no result of dataset {abbr!r} judged by {judge} was found")
    return dict(by_dataset[abbr])


def _model_scores(models: Mapping[str, Any], name: str, who: str, abbr: str) -> Mapping[str, Any]:
    if name not in models:
        raise InputFileError(f"{who}: compared model {name!r} has no result for {abbr} (OpenCompass fails on that too)")
    return dict(models[name])
