"""AlignBench's judge ratings: ``alignbench_postprocess`` and ``AlignmentBenchSummarizer``.

Both compute what OpenCompass 0.5.4's namesakes compute, their quirks
included: the judge (CritiqueLLM) ends its reply with a dict of ratings,
``{'事实正确性': 8, '满足用户需求': 7, ..., '综合得分': 7}``; the sample's
score is its ``综合得分``.  A reply without one is not counted.

Quirks kept:

* the last ``{...}`` on one line is the one read, and each ``'name': <integer>``
  in it (a decimal rating such as ``7.5`` is read as its digits after the point);
* when the ``综合得分`` is missing from the dict OpenCompass's fallback reads the
  key's *name* as a number, which always fails: such a reply is not counted;
* a dimension outside AlignBench's twelve, or a rating outside 0–10, makes the
  whole reply unread;
* the dimension table averages every rating of the dict (``综合得分`` too) over
  the replies that have it;
* a capability without a read reply counts as 0 in its category's mean
  (``中文推理总分``/``中文语言总分``), and ``总分`` is the mean of the two
  category means, each rounded to two decimals as numpy rounds.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

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

__all__ = [
    "ALL_DIMENSIONS",
    "CATEGORIES",
    "AlignmentBenchSummarizer",
    "alignbench_postprocess",
    "capability_scores",
    "dimension_scores",
    "read_alignbench_rating",
    "read_autoj_rating",
    "read_judgelm_rating",
]

#: AlignBench's two categories and their capabilities, in the table's order.
CATEGORIES: dict[str, list[str]] = {
    "中文推理": ["数学计算", "逻辑推理"],
    "中文语言": ["基本任务", "中文理解", "综合问答", "文本写作", "角色扮演", "专业能力"],
}

#: The dimensions a rating may name.
ALL_DIMENSIONS = (
    "事实正确性", "满足用户需求", "安全无害", "清晰度", "逻辑性", "完备性", "创造性", "可负责程度", "逻辑连贯性",
    "公平与可负责程度", "丰富度", "综合得分",
)  # fmt: skip

#: The dimensions of each kind of answer, read one by one when the reply has no rating dict.
_KIND_DIMENSIONS = {
    "事实与解释型回答": ["事实正确性", "满足用户需求", "清晰度", "完备性"],
    "逻辑推理型回答": ["事实正确性", "满足用户需求", "逻辑连贯性", "完备性"],
    "生成型回答": ["事实正确性", "满足用户需求", "逻辑连贯性", "创造性", "丰富度"],
    "建议型回答": ["事实正确性", "满足用户需求", "公平与可负责程度", "创造性"],
}

_OVERALL = "综合得分"
_LAST_BRACES = re.compile(r"{(.*?)}(?![^{]*{)")
_KEY_VALUE = re.compile(r"'(.*?)': (\d+)")
_ONE_OR_TWO_DIGITS = re.compile(r"\d{1,2}")


def _kind_of(text: str) -> str | None:
    """The kind of answer a reply's dimension names betray (first match in OpenCompass's order)."""
    if "清晰度" in text and "完备性" in text:
        return "事实与解释型回答"
    if "完备性" in text and "逻辑连贯性" in text:
        return "逻辑推理型回答"
    if "创造性" in text and "丰富度" in text:
        return "生成型回答"
    if "创造性" in text and "公平与可负责程度" in text:
        return "建议型回答"
    return None


def _ratings_line_by_line(text: str, kind: str) -> dict[str, Any]:
    """Each dimension's last number on a line naming it, and the reply's last number as ``综合得分``."""
    found: dict[str, Any] = {}
    for dim in _KIND_DIMENSIONS[kind]:
        found[dim] = None
        for line in reversed(re.findall(rf"{dim}.*?\n", text)):
            digits = _ONE_OR_TWO_DIGITS.findall(line)
            if digits:
                found[dim] = int(digits[-1])
                break
    numbers = _ONE_OR_TWO_DIGITS.findall(text)
    if not numbers:
        return {}
    found[_OVERALL] = int(numbers[-1])
    return found


def _rating_dict(text: str, *, line_by_line: bool) -> dict[str, Any] | None:
    match = _LAST_BRACES.search(text)
    if match:
        return {key: int(value) for key, value in _KEY_VALUE.findall(match.group(1))}
    if line_by_line:
        kind = _kind_of(text)
        if kind is not None:
            return _ratings_line_by_line(text, kind)
    return None


def _valid(rating: Mapping[str, Any]) -> bool:
    return all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and k in ALL_DIMENSIONS and 0 <= v <= 10
        for k, v in rating.items()
    )


def read_alignbench_rating(reply: str, *, line_by_line: bool = True, join_lines: bool = False) -> dict[str, Any] | None:
    """``{'rating': {dimension: n, ...}, 'score': 综合得分}`` of a CritiqueLLM reply, or ``None`` when unread.

    ``line_by_line``: without a dict, read each dimension from the lines naming
    it (the dict postprocessor's and ``general_plus``'s reading); ``join_lines``:
    remove the reply's newlines first (the ``general`` summarizer's reading).

    >>> read_alignbench_rating("好。{'事实正确性': 8, '满足用户需求': 7, '综合得分': 7}")
    {'rating': {'事实正确性': 8, '满足用户需求': 7, '综合得分': 7}, 'score': 7}
    >>> read_alignbench_rating("{'事实正确性': 8}") is None  # no 综合得分
    True
    """
    if join_lines:
        reply = reply.replace("\n", "")
    rating = _rating_dict(reply, line_by_line=line_by_line)
    if rating is None:
        return None
    score = rating.get(_OVERALL, -1)
    # without it OpenCompass tries float() of the key's name, which fails: -1
    if not (isinstance(score, (int, float)) and 0 <= score <= 10):
        return None
    if not _valid(rating):
        return None
    return {"rating": rating, "score": score}


def read_autoj_rating(reply: str) -> dict[str, int] | None:
    """AUTO-J's rating: the first ``[<digits>]`` of the reply (``judge_type='autoj'``).

    >>> read_autoj_rating('Rating: [[6]]')
    {'score': 6}
    """
    found = re.findall(r"\[(\d+)\]", reply)
    return {"score": int(found[0])} if found else None


def read_judgelm_rating(reply: str) -> dict[str, int] | None:
    """JudgeLM's rating: ``10`` when the reply starts with it, else its first character when a digit.

    >>> read_judgelm_rating('8, reason: ...'), read_judgelm_rating('x')
    ({'score': 8}, None)
    """
    if reply[:2] == "10":
        return {"score": 10}
    if reply[:1].isdigit():
        try:
            return {"score": int(reply[0])}
        except ValueError:  # a digit int() does not read ('²'): OpenCompass raises, assay leaves the reply unread
            return None
    return None


def _numpy_round(value: float) -> float:
    """``round(numpy.float64(value), 2)``: numpy's rounding (scaled, to even), not Python's."""
    return float(round(np.float64(value), 2))


def capability_scores(
    answers: Sequence[Mapping[str, Any]],
    references: Sequence[Mapping[str, Any]],
    categories: Mapping[str, Sequence[str]] = CATEGORIES,
) -> dict[str, float]:
    """Each capability's mean score, then ``<category>总分`` and ``总分`` (see the module's quirks).

    The keys come in OpenCompass's order: the capabilities as first met, the
    capabilities without a read reply (0), each category's total, ``总分`` last.

    >>> capability_scores([{'score': 6}, {'score': 7}], [{'capability': '数学计算'}, {'capability': '逻辑推理'}])['中文推理总分']
    6.5
    """
    totals: dict[str, float] = defaultdict(int)
    counts: dict[str, int] = defaultdict(int)
    for answer, reference in zip(answers, references):
        totals[reference["capability"]] += answer["score"]
        counts[reference["capability"]] += 1
    means: dict[str, float] = {cap: round(total / counts[cap], 2) for cap, total in totals.items()}
    category_totals = []
    for category, capabilities in categories.items():
        values = [means.setdefault(cap, 0.0) for cap in capabilities]
        means[category + "总分"] = _numpy_round(float(np.mean(values)))
        category_totals.append(category + "总分")
    overall = np.float64(0)
    for key in category_totals:
        overall += np.float64(means[key])
    means["总分"] = _numpy_round(float(overall / len(category_totals)))
    return means


def dimension_scores(answers: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """Each rated dimension's mean over the replies that rate it (``综合得分`` among them), two decimals."""
    totals: dict[str, float] = defaultdict(int)
    counts: dict[str, int] = defaultdict(int)
    for answer in answers:
        for key, value in answer["rating"].items():
            totals[key] += value
            counts[key] += 1
    return {key: round(total / counts[key], 2) for key, total in totals.items()}


@DICT_POSTPROCESSORS.register_module(["alignbench", "alignbench_postprocess"])
def alignbench_postprocess(output: dict[str, Any], output_path: str, judge_type: str | None = "general") -> dict[str, Any]:
    """AlignBench's scores from its judged samples, as OpenCompass 0.5.4's ``alignbench_postprocess``.

    Each capability's mean ``综合得分`` over the replies read (those without a
    rating dict are read line by line; see the module), the two category
    totals, ``总分``, and ``details``: the judged samples as given.
    ``judge_type`` is accepted and, as in OpenCompass, not used.

    >>> out = {'0': {'prediction': "{'事实正确性': 6, '综合得分': 6}", 'gold': {'capability': '数学计算'}}}
    >>> r = alignbench_postprocess(out, 'x')
    >>> r['数学计算'], r['中文推理总分'], r['总分']
    (6.0, 3.0, 1.5)
    """
    answers, references = judged_answers(output, output_path, lambda s: read_alignbench_rating(s["prediction"]))
    results: dict[str, Any] = dict(capability_scores(answers, references))
    results["details"] = output
    return results


_READERS = {
    "general": lambda r: read_alignbench_rating(r, line_by_line=False, join_lines=True),
    "general_plus": lambda r: read_alignbench_rating(r, line_by_line=True),
    "autoj": read_autoj_rating,
    "judgelm": read_judgelm_rating,
}


@SUMMARIZERS.register_module()
class AlignmentBenchSummarizer:
    """AlignBench's tables from ``results/<model>_judged-by--<judge>/<dataset>.json``, as OpenCompass 0.5.4's.

    Reads the run config's first dataset only (AlignBench has one) for each
    model of ``eval.partitioner.models`` (else ``models``) and each judge of
    ``judge_models``, reading each reply as ``judge_type`` says
    (``general``: CritiqueLLM's rating dict, newlines removed first;
    ``general_plus``: also line by line; ``autoj``: ``[n]``; ``judgelm``: the
    leading number).

    Files, in ``summary/<time>/`` (appended to, as OpenCompass appends, the
    header written with the first model): ``Alignbench-judged-by--<judge>-capability.csv``
    (two rows of header: the categories, then their capabilities) and, for
    ``general``, ``Alignbench-judged-by--<judge>-dimension.csv``.

    Returns ``{'Alignbench': {judge: {model: {'总分': …, capability: …}}}}``
    (``None`` for a model without results or without a read reply).
    """

    def __init__(self, config: Mapping[str, Any], judge_type: str = "general") -> None:
        if judge_type not in _READERS:
            raise ConfigError(
                f"AlignmentBenchSummarizer: judge_type must be one of {sorted(_READERS)}, got {judge_type!r}"
            )
        self.cfg = config
        self.judge_type = judge_type
        self.read = _READERS[judge_type]
        self.categories = CATEGORIES

    def summarize(self, time_str: str | None = None) -> dict[str, Any]:
        """Write the csv files (see the class) and return the scores."""
        time_str = time_str or datetime.now().strftime("%Y%m%d_%H%M%S")
        datasets = self.cfg.get("datasets") or []
        if not datasets:
            raise ConfigError("AlignmentBenchSummarizer: the run config has no datasets")
        dataset = datasets[0]
        out_dir = summary_dir(self.cfg, time_str)
        results = results_dir(self.cfg)
        everything: dict[str, Any] = {}
        for judge in judge_abbrs(self.cfg, "AlignmentBenchSummarizer"):
            by_model: dict[str, Any] = {}
            dimension_csv = out_dir / f"Alignbench-judged-by--{judge}-dimension.csv"
            capability_csv = out_dir / f"Alignbench-judged-by--{judge}-capability.csv"
            first_dimension = first_capability = True
            for model_cfg in eval_models(self.cfg):
                model = model_abbr(dict(model_cfg))
                subdir = judged_dir(results, model, judge)
                if not subdir.is_dir():
                    by_model[model] = None
                    continue
                samples, where = read_judged(subdir, dataset)
                answers, references = judged_answers(samples, str(where), self.read, whole_sample=False)
                if not answers:
                    by_model[model] = None
                    continue
                if self.judge_type == "general":
                    self._write_dimensions(dimension_csv, first_dimension, model, answers)
                    first_dimension = False
                by_model[model] = self._write_capabilities(capability_csv, first_capability, model, answers, references)
                first_capability = False
            everything[judge] = by_model
        return {"Alignbench": everything}

    @staticmethod
    def _write_dimensions(path: Path, header: bool, model: str, answers: Sequence[Mapping[str, Any]]) -> None:
        scores = dimension_scores(answers)
        rows: list[list[Any]] = [["模型", *scores]] if header else []
        rows.append([model, *scores.values()])
        append_csv_rows(path, rows)

    def _write_capabilities(
        self, path: Path, header: bool, model: str, answers: Sequence[Mapping[str, Any]], references: Sequence[Any]
    ) -> dict[str, float]:
        scores = capability_scores(answers, references, self.categories)
        rows: list[list[Any]] = []
        if header:
            width = 2 + sum(1 + len(caps) for caps in self.categories.values())
            rows.append([str(i) for i in range(width)])
            top: list[Any] = ["模型", "总分"]
            sub: list[Any] = ["模型", "总分"]
            for category, caps in self.categories.items():
                top += [category, *([None] * len(caps))]
                sub += [category + "总分", *caps]
            rows += [top, sub]
        row: list[Any] = [model, scores["总分"]]
        for category, caps in self.categories.items():
            row += [scores[category + "总分"], *(scores[c] for c in caps)]
        rows.append(row)
        append_csv_rows(path, rows)
        kept = {k: v for k, v in scores.items() if k not in {c + "总分" for c in self.categories} and k != "总分"}
        return {"总分": scores["总分"], **kept}
