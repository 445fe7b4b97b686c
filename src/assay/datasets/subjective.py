"""The subjective benchmarks an LLM judge scores, as OpenCompass 0.5.4 reads them.

* ``SubjectiveCmpDataset`` / ``AlpacaEvalDataset`` (``<path>/<name>.json``: a
  list of ``{question, capability, others}``): rows ``question``,
  ``capability``, ``others`` and ``judge`` (``{capability, question}``, the
  references the judge's postprocessors read).
* ``AlignmentBenchDataset``: the same rows, plus ``critiquellm_prefix`` — the
  judge's instructions for the sample, built from the category's dimensions
  (``<alignment_bench_config_path>/<alignment_bench_config_name>.json`` names
  the dimension set, the dimension definitions and the subcategory → type
  map) — and ``ref`` (``others.reference``); ``judge`` gains ``others``.
  Without a config path the prefix is left out.
* ``ArenaHardDataset`` (``<path>/<name>.jsonl``: ``question_id``, ``cluster``,
  ``turns``): rows ``question`` (the first turn), ``capability`` (the
  cluster) and ``judge`` (``{capability, question, question_id}``).
* ``MTBenchDataset`` (``<path>/<name>.json``: a list of ``{dialogue,
  capability, others}``): rows ``dialogue``, ``capability``,
  ``system_prompt`` and ``prompt_template`` (the judge's prompt for the
  sample: single or pairwise as ``judge_type`` says, one turn or both as
  ``multi_turn`` says, with the reference answers for math, reasoning and
  coding), ``others`` (with ``round``, the number of turns, and
  ``question``, the user's turns joined by spaces) and ``judge``.  The
  prompt of a single, two-turn judgement names ``{answer_1}``, which no field
  fills: OpenCompass's prompt, sent with the placeholder in it.

Each ``path`` (and AlignBench's config path) goes through
:func:`~assay.datasets.location.get_data_path` in local mode, as
OpenCompass's loaders call it.  The judge prompts the AlignBench and MT-Bench
loaders build are benchmark data, kept in ``subjective_prompts.json`` beside
this module as OpenCompass 0.5.4 has them (recorded by
``scripts/record_oc_subjective.py``).

Every loader's ``judge_verdict`` names the benchmark's way of reading a
judge reply (:mod:`assay.subjective.verdicts` holds the readers): the
subjective task counts the replies it cannot read as unjudged.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path
from typing import Any

from assay.datasets._oc_files import dataset, field, json_value, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["AlignmentBenchDataset", "AlpacaEvalDataset", "ArenaHardDataset", "MTBenchDataset", "SubjectiveCmpDataset"]


@cache
def _prompts() -> dict[str, Any]:
    with open(Path(__file__).with_name("subjective_prompts.json"), encoding="utf-8") as handle:
        texts: dict[str, Any] = json.load(handle)
    return texts


def _question_rows(path: str, name: str, loader: str) -> tuple[str, list[dict[str, Any]]]:
    file = os.path.join(get_data_path(path, local_mode=True), f"{name}.json")
    problems = json_value(file, loader)
    if not isinstance(problems, list):
        raise InputFileError(f"{loader}: {file} must hold a JSON list of questions, got {type(problems).__name__}")
    rows = []
    for i, problem in enumerate(problems):
        where = f"{file}, question {i}"
        question = field(problem, "question", loader, where)
        capability = field(problem, "capability", loader, where)
        others = field(problem, "others", loader, where)
        rows.append({"question": question, "capability": capability, "others": others,
                     "judge": {"capability": capability, "question": question}})
    return file, rows


@LOAD_DATASET.register_module()
class SubjectiveCmpDataset(BaseDataset):
    """Questions to compare answers on: ``question``, ``capability``, ``others``, ``judge``.

    >>> SubjectiveCmpDataset.load('./data/subjective/alpaca_eval', 'alpaca_eval')[0]['judge']  # doctest: +SKIP
    {'capability': 'helpful_base', 'question': 'Give three tips for staying healthy.'}
    """

    judge_verdict = "alpaca"

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        return dataset(_question_rows(path, name, "SubjectiveCmpDataset")[1])


@LOAD_DATASET.register_module()
class AlpacaEvalDataset(BaseDataset):
    """AlpacaEval's questions, read as :class:`SubjectiveCmpDataset` reads them."""

    judge_verdict = "alpaca"

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        return dataset(_question_rows(path, name, "AlpacaEvalDataset")[1])


def _alignbench_config(config_path: str, config_name: str) -> dict[str, Any]:
    loader = "AlignmentBenchDataset"
    folder = get_data_path(config_path, local_mode=True)
    config = json_value(os.path.join(folder, f"{config_name}.json"), loader)
    paths = field(config, "Paths", loader, os.path.join(folder, f"{config_name}.json"))
    tables = {}
    for key in ("dimension_set_filepath", "dimension_def_filepath", "subcategory_mapping"):
        tables[key] = json_value(os.path.join(folder, field(paths, key, loader, f"{config_name}.json's Paths")), loader)
    return tables


_MARKER = re.compile("\x00(category|dimensions|question|reference)\x00")


def alignbench_prefix(sample: dict[str, Any], tables: dict[str, Any]) -> str:
    """AlignBench's judge instructions for one sample: its category, its dimensions (numbered, each with
    its definition), the question and the reference answer, filled in one pass.

    Raises:
        InputFileError: the sample's subcategory has no dimensions in the config.
    """
    subcategory = sample["others"]["subcategory"]
    kind = tables["subcategory_mapping"].get(subcategory)
    dimensions = tables["dimension_set_filepath"].get(kind) if kind is not None else None
    if dimensions is None:
        raise InputFileError(f"AlignmentBenchDataset: subcategory {subcategory!r} has no dimensions in the config "
                             f"(its type: {kind!r})")
    described = "".join(f"{i}. {dim}: {tables['dimension_def_filepath'].get(dim)}\n" for i, dim in enumerate(dimensions, 1))
    values = {"category": str(sample["capability"]), "dimensions": described, "question": str(sample["question"]),
              "reference": str(sample["others"]["reference"])}
    return _MARKER.sub(lambda m: values[m.group(1)], _prompts()["alignbench"]["template"])


@LOAD_DATASET.register_module()
class AlignmentBenchDataset(BaseDataset):
    """AlignBench's questions with the judge's instructions (``critiquellm_prefix``) and ``ref``.

    >>> AlignmentBenchDataset.load('data/subjective/alignment_bench', 'alignment_bench',
    ...     'data/subjective/alignment_bench/config', 'multi-dimension')[0]['ref']  # doctest: +SKIP
    '保持规律作息，睡前避免咖啡因和电子屏幕。'
    """

    judge_verdict = "alignbench"

    @staticmethod
    def load(path: str, name: str, alignment_bench_config_path: str = "", alignment_bench_config_name: str = "",
             *args: Any, **kwargs: Any) -> Any:
        loader = "AlignmentBenchDataset"
        file, rows = _question_rows(path, name, loader)
        tables = _alignbench_config(alignment_bench_config_path, alignment_bench_config_name) if alignment_bench_config_path else None
        for i, row in enumerate(rows):
            where = f"{file}, question {i}"
            others = row["others"]
            reference = field(others, "reference", loader, f"{where}, others")
            if tables is not None:
                field(others, "subcategory", loader, f"{where}, others")
                row["critiquellm_prefix"] = alignbench_prefix(row, tables)
            row["judge"]["others"] = others
            row["ref"] = reference
        return dataset(rows)


@LOAD_DATASET.register_module()
class ArenaHardDataset(BaseDataset):
    """Arena-Hard's questions (one turn each): ``question``, ``capability`` (the cluster), ``judge``."""

    judge_verdict = "arenahard"

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        loader = "ArenaHardDataset"
        file = os.path.join(get_data_path(path, local_mode=True), f"{name}.jsonl")
        rows = []
        for i, problem in enumerate(jsonl_rows(file, loader), 1):
            where = f"{file}, line {i}"
            question_id = field(problem, "question_id", loader, where)
            cluster = field(problem, "cluster", loader, where)
            turns = field(problem, "turns", loader, where)
            if not isinstance(turns, list) or not turns or not isinstance(turns[0], dict) or "content" not in turns[0]:
                raise InputFileError(f"{loader}: {where}: 'turns' must be a list whose first item has 'content', got {turns!r:.80}")
            question = turns[0]["content"]
            rows.append({"question": question, "capability": cluster,
                         "judge": {"capability": cluster, "question": question, "question_id": question_id}})
        return dataset(rows)


def mtbench_judge_prompt(problem: dict[str, Any], multi_turn: bool = False, judge_type: str = "single") -> tuple[str, str] | None:
    """MT-Bench's judge prompt for one question: ``(system_prompt, prompt_template)``.

    The table is chosen as OpenCompass chooses it: pairwise (``judge_type='pair'``)
    or single, one turn or two, with the reference answers for the categories
    that need them (math, reasoning, coding, arena-hard-200).  The answers'
    places stay placeholders (``{prediction_r1}`` …) for the judge's prompt
    template to fill.  ``None`` for another ``judge_type``, as OpenCompass
    returns nothing then.
    """
    tables = _prompts()["mtbench"]
    dialogue = problem["dialogue"]
    slots = {"prediction_r1": "{prediction_r1}", "prediction_r2": "{prediction_r2}",
             "prediction1_r1": "{prediction1_r1}", "prediction1_r2": "{prediction1_r2}", "answer_1": "{answer_1}"}
    question_1 = dialogue[0]["content"]
    needs_ref = problem["capability"] in _prompts()["mtbench_need_ref"]
    if judge_type not in ("pair", "single"):
        return None
    if multi_turn:
        values = dict(slots, question_1=question_1, question_2=dialogue[2]["content"])
        if needs_ref:
            refs = problem["others"]["reference"]
            values.update(ref_answer_1=refs[0], ref_answer_2=refs[1])
            table = tables["pair_math_v1_multi_turn" if judge_type == "pair" else "single_math_v1_multi_turn"]
        else:
            table = tables["pair_v2_multi_turn" if judge_type == "pair" else "single_v1_multi_turn"]
    else:
        values = dict(slots, question=question_1)
        if needs_ref:
            values.update(ref_answer_1=problem["others"]["reference"][0])
            table = tables["pair_math_v1" if judge_type == "pair" else "single_math_v1"]
        else:
            table = tables["pair_v2" if judge_type == "pair" else "single_v1"]
    return table["system_prompt"], table["prompt_template"].format(**values)


@LOAD_DATASET.register_module()
class MTBenchDataset(BaseDataset):
    """MT-Bench's dialogues with the judge's prompt of each (see the module)."""

    judge_verdict = "mtbench"

    @staticmethod
    def load(path: str, name: str, judge_type: str = "single", multi_turn: bool = True, *args: Any, **kwargs: Any) -> Any:
        loader = "MTBenchDataset"
        file = os.path.join(get_data_path(path, local_mode=True), f"{name}.json")
        problems = json_value(file, loader)
        if not isinstance(problems, list):
            raise InputFileError(f"{loader}: {file} must hold a JSON list of dialogues, got {type(problems).__name__}")
        rows = []
        for i, problem in enumerate(problems):
            if not isinstance(problem, dict) or "dialogue" not in problem:
                continue  # OpenCompass skips an entry without a dialogue
            where = f"{file}, dialogue {i}"
            dialogue = problem["dialogue"]
            capability = field(problem, "capability", loader, where)
            others = field(problem, "others", loader, where)
            try:
                prompts = mtbench_judge_prompt(problem, multi_turn, judge_type)
                user = [item["content"] for item in dialogue if item["role"] == "user"]
            except (KeyError, IndexError, TypeError) as exc:
                raise InputFileError(f"{loader}: {where}: cannot build the judge's prompt ({type(exc).__name__}: {exc})") from None
            if prompts is None:
                raise InputFileError(f"{loader}: judge_type={judge_type!r} (expected 'single' or 'pair')")
            system_prompt, prompt_template = prompts
            others["round"] = int(len(dialogue) / 2)
            others["question"] = " ".join(user)
            rows.append({"dialogue": dialogue, "capability": capability, "system_prompt": system_prompt,
                         "prompt_template": prompt_template, "others": others,
                         "judge": {"capability": capability, "others": others}})
        return dataset(rows)
