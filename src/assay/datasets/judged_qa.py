"""Loaders of judge-scored question-answer families, as OpenCompass 0.5.4 reads them.

Their library configs grade replies with an LLM judge (``GenericLLMEvaluator``
or ``LMEvaluator``); the graders' dict postprocessors are in
:mod:`assay.evaluators.judged_qa`.

* ``ChemExamDataset`` (ids ``opencompass/Chem_exam_competition`` →
  ``./data/test_set/icho.jsonl``, ``opencompass/Chem_exam_gaokao`` →
  ``./data/test_set/gaokao.jsonl``): one JSON object per line with ``id``,
  ``question``, ``has_img`` and either ``answer``/``qa_type`` or
  ``sub_question`` (a list of ``question``/``answer``/``qa_type`` objects, each
  possibly with ``sub_question`` of its own).  Row: ``id``, ``prompt`` (the
  question, then ``\\nQ1: …``, ``\\nQ1.1: …`` per sub-question), ``output``
  (``\\nA1: …``/``\\nA1.1: …`` per answer — starting with a newline, as
  OpenCompass builds it; the bare ``answer`` without sub-questions),
  ``has_img``, ``qa_type`` (each as a string);
* ``SimpleQADataset`` (``opencompass/simpleqa`` →
  ``./data/simpleqa/simple_qa_test_set.csv``, ``opencompass/simpleqa-verified``
  → ``./data/simpleqa/simpleqa_verified.csv``): the CSV's rows as pandas reads
  them (numbers as numbers, empty cells as NaN), ``num_examples`` of them
  drawn with ``random.Random(0).sample`` when given, repeated ``n_repeats``
  times; the same rows as ``train`` and ``test``;
* ``CsimpleqaDataset`` (``opencompass/chinese_simpleqa`` →
  ``./data/chinese_simpleqa``, file ``<name>.jsonl``): per line ``id``,
  ``primary_category``, ``question``, ``answer``; row: ``primary_category``,
  ``question``, ``gold_ans``, ``messages`` (a system and a user message),
  ``system_prompt`` and ``prompt_template`` (the judge's instructions, the
  question and the answer filled in and ``{prediction}`` left for the judge
  prompt), ``judge`` (category, question, id);
* ``EESEDataset`` (``opencompass/eese`` → ``./data/eese/``): the objects of
  ``test/<file_name>`` (default ``EESE.jsonl``), blank lines skipped, as
  ``test`` and ``train``;
* ``GaoKaoMATHDataset`` (a path, read as given: OpenCompass does not map it):
  a JSON list of objects, each ``extract_answer`` made a string (``str()``:
  ``12`` → ``'12'``, ``['1', '2']`` → ``"['1', '2']"``); graded by
  :class:`assay.evaluators.gaokao_math.GaoKaoMATHEvaluator`.

The judge instructions Chinese SimpleQA's rows carry are benchmark data, kept in
``judged_qa_prompts.json`` beside this module as OpenCompass 0.5.4 has them
(recorded by ``scripts/record_oc_judge_b.py``).
"""

from __future__ import annotations

import json
import os
import random
from functools import cache
from pathlib import Path
from typing import Any

from assay.datasets._oc_files import dataset, dataset_dict, field, json_value, jsonl_rows, require_file
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["ChemExamDataset", "CsimpleqaDataset", "EESEDataset", "GaoKaoMATHDataset", "SimpleQADataset", "judged_qa_prompts"]


@cache
def judged_qa_prompts() -> dict[str, str]:
    """The judge instructions these loaders put into rows, by OpenCompass's names (``csimpleqa_judge_prompt_new``)."""
    with open(Path(__file__).with_name("judged_qa_prompts.json"), encoding="utf-8") as handle:
        texts: dict[str, str] = json.load(handle)
    return texts


def _chem_row(line: dict[str, Any], where: str) -> dict[str, Any]:
    loader = "ChemExamDataset"
    prompt = str(field(line, "question", loader, where))
    output = ""
    qa_type: list[Any] = []
    if "sub_question" in line:
        for i, sub in enumerate(line["sub_question"] or [], 1):
            sub_where = f"{where}, sub_question {i}"
            prompt += f"\nQ{i}: {field(sub, 'question', loader, sub_where)}"
            if "sub_question" in sub:
                for j, leaf in enumerate(sub["sub_question"] or [], 1):
                    leaf_where = f"{sub_where}.{j}"
                    prompt += f"\nQ{i}.{j}: {field(leaf, 'question', loader, leaf_where)}"
                    output += f"\nA{i}.{j}: {field(leaf, 'answer', loader, leaf_where)}"
                    qa_type.append(field(leaf, "qa_type", loader, leaf_where))
            else:
                output += f"\nA{i}: {field(sub, 'answer', loader, sub_where)}"
                qa_type.append(field(sub, "qa_type", loader, sub_where))
    else:
        output = field(line, "answer", loader, where)
        qa_type.append(field(line, "qa_type", loader, where))
    return {"id": field(line, "id", loader, where), "prompt": prompt, "output": output,
            "has_img": field(line, "has_img", loader, where), "qa_type": [str(t) for t in qa_type]}


@LOAD_DATASET.register_module()
class ChemExamDataset(BaseDataset):
    """Chemistry exam questions (IChO, Gaokao), sub-questions folded into one prompt and one answer text."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        file = get_data_path(path)
        rows = jsonl_rows(file, "ChemExamDataset")
        return dataset([_chem_row(line, f"{file}, line {i}") for i, line in enumerate(rows, 1)])


@LOAD_DATASET.register_module()
class SimpleQADataset(BaseDataset):
    """SimpleQA's CSV (``metadata``, ``problem``, ``answer``), as ``train`` and ``test``."""

    @staticmethod
    def load(path: str, num_examples: int | None = None, n_repeats: int = 1, **kwargs: Any) -> Any:
        import pandas

        file = require_file(get_data_path(path), "SimpleQADataset")
        try:
            frame = pandas.read_csv(file)
        except (ValueError, UnicodeDecodeError) as exc:
            raise InputFileError(f"SimpleQADataset: {file} cannot be read as CSV: {exc}") from None
        examples = [row.to_dict() for _, row in frame.iterrows()]
        if num_examples:
            if n_repeats != 1:
                raise ConfigError(f"SimpleQADataset: n_repeats={n_repeats!r} is only supported without num_examples "
                                  f"(num_examples={num_examples!r})")
            if num_examples > len(examples):
                raise ConfigError(f"SimpleQADataset: num_examples={num_examples!r} is more than the {len(examples)} rows of {file}")
            examples = random.Random(0).sample(examples, num_examples)
        examples = examples * n_repeats
        return dataset_dict({"train": examples, "test": examples})


@LOAD_DATASET.register_module()
class CsimpleqaDataset(BaseDataset):
    """Chinese SimpleQA's ``<name>.jsonl``, each row carrying the judge's instructions for it."""

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        loader = "CsimpleqaDataset"
        file = os.path.join(get_data_path(path), f"{name}.jsonl")
        template = judged_qa_prompts()["csimpleqa_judge_prompt_new"]
        rows = []
        for i, item in enumerate(jsonl_rows(file, loader), 1):
            where = f"{file}, line {i}"
            question = field(item, "question", loader, where)
            category = field(item, "primary_category", loader, where)
            answer = field(item, "answer", loader, where)
            rows.append({
                "primary_category": category,
                "question": question,
                "gold_ans": answer,
                "messages": [{"role": "system", "content": "你是一个智能助手。"}, {"role": "user", "content": question}],
                "system_prompt": "你是一个智能助手，请根据给定问题、标准答案和模型预测的答案来评估模型的回答是否正确。",
                "prompt_template": template.format(question=question, target=answer, predicted_answer="{prediction}"),
                "judge": {"primary_category": category, "question": question, "question_id": field(item, "id", loader, where)},
            })
        return dataset(rows)


@LOAD_DATASET.register_module()
class EESEDataset(BaseDataset):
    """EESE's ``test/<file_name>`` objects, as ``test`` and ``train``."""

    @staticmethod
    def load(path: str, file_name: str = "EESE.jsonl", **kwargs: Any) -> Any:
        if os.environ.get("DATASET_SOURCE") == "HF":
            raise ConfigError("EESEDataset: DATASET_SOURCE=HF reads AIBench/EESE from the Hugging Face Hub, which assay does not "
                              "download; unset DATASET_SOURCE and give the local files")
        rows = jsonl_rows(os.path.join(get_data_path(path), "test", file_name), "EESEDataset")
        return dataset_dict({"test": rows, "train": rows})


@LOAD_DATASET.register_module()
class GaoKaoMATHDataset(BaseDataset):
    """Gaokao math questions from a JSON list, ``extract_answer`` as a string."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        items = json_value(path, "GaoKaoMATHDataset")
        if not isinstance(items, list):
            raise InputFileError(f"GaoKaoMATHDataset: {path} must hold a JSON list, got {type(items).__name__}")
        rows = []
        for i, item in enumerate(items):
            answer = field(item, "extract_answer", "GaoKaoMATHDataset", f"{path}, item {i}")
            rows.append({**item, "extract_answer": str(answer)})
        return dataset(rows)
