"""WildBench (pairwise) as OpenCompass 0.5.4 scores it: its dict postprocessors.

The judge's JSON reply holds ``"choice": "A++"`` (``A+``, ``A=B``, ``B+``,
``B++``); the first ``"choice": "..."`` is read, and a value outside those five
is no judgement.
"""

from __future__ import annotations

import logging
import os
import re
from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from assay.errors import InputFileError
from assay.registry import DICT_POSTPROCESSORS, SUMMARIZERS
from assay.subjective import _judged

logger = logging.getLogger(__name__)

__all__ = [
    "TASK_GROUPS",
    "WildBenchPairSummarizer",
    "wildbench_bradleyterry_postprocess",
    "wildbench_choice",
    "wildbench_postprocess",
]

_CHOICE = re.compile(r"\"choice\": \"(.*?)\"")
#: WildBench's task tags and the five groups its scores are reported under.
TASK_GROUPS = {
    "Information seeking": "Information/Advice seeking",
    "Creative Writing": "Creative Tasks",
    "Coding & Debugging": "Coding & Debugging",
    "Reasoning": "Planning & Reasoning",
    "Editing": "Creative Tasks",
    "Math": "Math & Data Analysis",
    "Planning": "Planning & Reasoning",
    "Brainstorming": "Creative Tasks",
    "Role playing": "Creative Tasks",
    "Advice seeking": "Information/Advice seeking",
    "Data Analysis": "Math & Data Analysis",
    "Others": "Creative Tasks",
}
_SCORE = {"A++": 1, "A+": 0.5, "A=B": 0, "B+": -0.5, "B++": -1}
_WINNER = {"A++": "model_a", "A+": "model_a", "A=B": "tie", "B+": "model_b", "B++": "model_b"}
#: The base models OpenCompass assumes when the references name none.
DEFAULT_BASES = ["HaiKu", "gpt4-turbo", "llama-2-70b-chat-hf"]


def wildbench_choice(reply: Any) -> str | None:
    """The first ``"choice": "..."`` value of a judge reply, or ``None``.

    >>> wildbench_choice('{"analysis of A": "…", "choice": "B+"}'), wildbench_choice('no json')
    ('B+', None)
    """
    found = _CHOICE.findall(reply) if isinstance(reply, str) else []
    return found[0] if found else None


def _sample_choice(sample: Mapping[str, Any]) -> str | None:
    return wildbench_choice(sample["prediction"])


@DICT_POSTPROCESSORS.register_module(["wildbench", "wildbench_postprocess"])
def wildbench_postprocess(output: dict[Any, Any], output_path: str) -> dict[str, Any]:
    """The compared model's reward per task group (percent, two decimals), their ``average``, ``details``.

    A choice scores ``A++`` 1, ``A+`` 0.5, ``A=B`` 0, ``B+`` −0.5, ``B++`` −1 for
    answer A, the sign turned when the base model (the references'
    ``base_models``, else OpenCompass's ``HaiKu``, ``gpt4-turbo``,
    ``llama-2-70b-chat-hf``) is answer B — and, as in OpenCompass, kept when
    neither answer is a base model.  Each sample counts once for its primary tag
    and once per secondary tag, each tag under its group (:data:`TASK_GROUPS`).
    ``average`` is the unrounded mean of the groups' rounded values.  With no
    readable choice the result is OpenCompass's ``{'warning': ..., 'details': output}``.
    """
    what = "wildbench_postprocess"
    choices, references = _judged.judged_and_references(output, output_path, _sample_choice, what=what)
    if not references:
        return {"warning": "no valid wildbench judgements extracted (check judge output format)", "details": output}
    first = references[0]
    bases = first.get("base_models", DEFAULT_BASES)
    bases = [bases] if isinstance(bases, str) else list(bases)
    win_base: defaultdict[str, float] = defaultdict(float)
    win_compare: defaultdict[str, float] = defaultdict(float)
    categories: defaultdict[str, float] = defaultdict(float)
    for choice, ref in zip(choices, references):
        if choice not in _SCORE:
            continue
        flag = 1 if _judged.reference_field(ref, "answer1", what) in bases else -1
        score = _SCORE[choice] * flag
        tags = [_judged.reference_field(ref, "primary_tag", what), *_judged.reference_field(ref, "secondary_tag", what)]
        for tag in tags:
            if tag not in TASK_GROUPS:
                raise InputFileError(f"{what}: the task tag {tag!r} of a sample of {output_path} is none of WildBench's: {', '.join(TASK_GROUPS)}")
            group = TASK_GROUPS[tag]
            win_base[group] += score
            win_compare[group] += -score
            categories[group] += 1
    for group in categories:
        win_base[group] = round(win_base[group] / categories[group] * 100, 2)
        win_compare[group] = round(win_compare[group] / categories[group] * 100, 2)
    if not win_compare:
        raise InputFileError(f"{what}: no choice of {output_path} is one of {', '.join(_SCORE)}, so there is no average")
    results: dict[str, Any] = dict(win_compare)
    results["average"] = sum(win_compare.values()) / len(win_compare)
    results["details"] = output
    return results


@DICT_POSTPROCESSORS.register_module(["wildbench_bradleyterry", "wildbench_bradleyterry_postprocess"])
def wildbench_bradleyterry_postprocess(output: dict[Any, Any], output_path: str) -> dict[str, Any]:
    """``{'matches': [...]}``: ``A++``/``A+`` a win of ``model_a``, ``A=B`` a tie, ``B+``/``B++`` of ``model_b``, others skipped.

    Each match has the primary tag, the first secondary tag (``'Others'`` when
    there is none) and the secondary tags' list.
    """
    what = "wildbench_bradleyterry_postprocess"
    choices, references = _judged.judged_and_references(output, output_path, _sample_choice, what=what)
    _judged.require_predictions(references, what)
    matches = []
    skipped = 0
    for choice, ref in zip(choices, references):
        if choice not in _WINNER:
            skipped += 1
            continue
        secondary = _judged.reference_field(ref, "secondary_tag", what)
        tags = {"primary_tag": _judged.reference_field(ref, "primary_tag", what),
                "secondary_tag": secondary[0] if len(secondary) > 0 else "Others", "secondary_tags": secondary}
        matches.append(_judged.match_row(_WINNER[choice], tags, ref, what))
    if skipped:
        logger.warning("%s: %d judge choices of %s cannot be read; their samples are skipped", what, skipped, output_path)
    return _judged.with_style_counts(matches)


# -- the summarizer ---------------------------------------------------------------------------------


@SUMMARIZERS.register_module()
class WildBenchPairSummarizer:
    """OpenCompass 0.5.4's ``WildBenchPairSummarizer``: each compared model's reward against every base model.

    Args:
        config: the run config (``datasets`` and the first one's ``base_models``,
            ``eval.partitioner.models``, ``judge_models``, ``work_dir``).
        check_pos_bias: count the position bias as CompassArena does — it reads each
            sample's ``question``, which WildBench's references do not have, so it
            fails, as OpenCompass's does.

    For each judge, dataset and (base, compared) pair it reads the raw judge
    outputs (``"choice": "A++"`` …) of ``results/<base>_<model>_judged-by--<judge>/<dataset>.json``
    and computes the compared model's reward (``A++`` 1 … ``B++`` −1, from its side),
    in percent rounded to two decimals: overall (the row named after the dataset,
    each sample once) and per task group (each sample once per tag).  It writes
    ``judged-by--<judge>-<dataset>-report.csv`` (a column per base/compared pair and
    each compared model's ``Avg`` over the base models) — or, as OpenCompass names
    it when the table has one row more than there are judges,
    ``summarized-by--<judge>-<dataset>-report.csv`` — and returns
    ``{'Wildbench': {judge: {model: {'score': the average of its overall rewards}}}}``.
    """

    def __init__(self, config: Mapping[str, Any], check_pos_bias: bool = False) -> None:
        self.run = _judged.PairwiseConfig(config, "WildBenchPairSummarizer")
        self.check_pos_bias = check_pos_bias

    def get_score(self, time_str: str) -> dict[str, Any]:
        from assay.subjective.compassarena import check_position_bias

        _judged.outdir(self.run.cfg, time_str)
        pairs = _judged.unique_pairs(self.run.base_models, self.run.compare_models)
        what = "WildBenchPairSummarizer"
        scores: dict[str, Any] = {}
        for judge_cfg in self.run.judges():
            judge = _judged.model_name(judge_cfg)
            for dataset in self.run.datasets:
                abbr = _judged.dataset_name(dataset)
                for first, second in pairs:
                    base, compare = first["abbr"], second["abbr"]
                    subdir = _judged.pair_folder(self.run.cfg, [base, compare], judge)
                    if not os.path.isdir(subdir):
                        logger.warning("%s: %s does not exist", what, subdir)
                        continue
                    choices, references, _ = _judged.folder_judgements(subdir, abbr, wildbench_choice, what)
                    bias = check_position_bias(choices, references) if self.check_pos_bias else 0
                    win_base: defaultdict[str, float] = defaultdict(float)
                    win_compare: defaultdict[str, float] = defaultdict(float)
                    categories: defaultdict[str, float] = defaultdict(float)
                    for choice, ref in zip(choices, references):
                        if choice not in _SCORE:
                            continue
                        categories[abbr] += 1
                        flag = 1 if _judged.reference_field(ref, "answer1", what) == base else -1
                        score = _SCORE[choice] * flag
                        for tag in [_judged.reference_field(ref, "primary_tag", what), *_judged.reference_field(ref, "secondary_tag", what)]:
                            if tag not in TASK_GROUPS:
                                raise InputFileError(f"{what}: the task tag {tag!r} in {subdir} is none of WildBench's: {', '.join(TASK_GROUPS)}")
                            win_base[TASK_GROUPS[tag]] += score
                            win_compare[TASK_GROUPS[tag]] += -score
                            categories[TASK_GROUPS[tag]] += 1
                        win_compare[abbr] += -score
                        win_base[abbr] += score
                    for group in categories:
                        win_base[group] = round(win_base[group] / categories[group] * 100, 2)
                        win_compare[group] = round(win_compare[group] / categories[group] * 100, 2)
                    win_compare["position_bias"] = bias
                    scores.setdefault(judge, {}).setdefault(abbr, {})[f"{base}/{compare}"] = dict(win_compare)
        return scores

    def summarize(self, time_str: str | None = None) -> dict[str, Any]:
        """Write the report files for ``time_str`` (now, by default) and return the scores (see the class)."""
        time_str = time_str or datetime.now().strftime("%Y%m%d_%H%M%S")
        scores = self.get_score(time_str)
        output_dir, _ = _judged.outdir(self.run.cfg, time_str)
        what = "WildBenchPairSummarizer"
        all_scores: dict[str, Any] = {}
        judges = self.run.judges()
        for judge_cfg in judges:
            judge = _judged.model_name(judge_cfg)
            by_model: dict[str, Any] = {}
            for dataset in self.run.datasets:
                abbr = _judged.dataset_name(dataset)
                pairs = (scores.get(judge) or {}).get(abbr)
                if not pairs:
                    raise InputFileError(f"{what}: no result of {abbr} judged by {judge} was found")
                first = next(iter(pairs.values()))
                rows = [abbr, "position_bias", *(k for k in first if k not in (abbr, "position_bias"))]
                table = []
                header: list[str] = [""]
                for i, row_name in enumerate(rows):
                    row = [row_name]
                    header = [""]
                    for model_cfg in self.run.compare_models:
                        model = _judged.model_name(model_cfg)
                        total = 0.0
                        for base_cfg in self.run.base_models:
                            key = f"{_judged.model_name(base_cfg)}/{model}"
                            header.append(key)
                            if key not in pairs:
                                raise InputFileError(f"{what}: the pair {key} has no result for {abbr} judged by {judge} (OpenCompass fails on that too)")
                            value = pairs[key].get(row_name, "")
                            if isinstance(value, float):
                                total += value
                            row.append(_judged.cell(value))
                        average = total / len(self.run.base_models)
                        if i == 0:
                            by_model[model] = {"score": average}
                        row.append(f"{average:.2f}")
                        header.append("Avg")
                    table.append(row)
                # OpenCompass tests the row counter left by the loop above against the number of judges
                prefix = "summarized-by--" if len(rows) - 1 == len(judges) else "judged-by--"
                _judged.write_rows(os.path.join(output_dir, f"{prefix}{judge}-{abbr}-report.csv"), header, table)
            all_scores[judge] = by_model
        return {"Wildbench": all_scores}
