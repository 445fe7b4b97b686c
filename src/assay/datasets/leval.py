"""L-Eval as OpenCompass 0.5.4 reads it: its eighteen ``LEval*Dataset`` loaders.

OpenCompass hands the config's options to ``datasets.load_dataset`` as they
are: ``path='L4NLP/LEval'`` and ``name`` the task (``'coursera'``,
``'financial_qa'``, …).  Here ``path`` must be a local folder that
``datasets`` reads with that configuration name — a copy of the dataset
whose ``README.md`` lists one configuration per task, e.g.::

    L4NLP/LEval/README.md                       configs: - config_name: coursera
                                                           data_files: [{split: test, path: LEval/Exam/coursera.jsonl}]
    L4NLP/LEval/LEval/Exam/coursera.jsonl
    L4NLP/LEval/LEval/Generation/financial_qa.jsonl

found in the working directory, beside the config, under
``$COMPASS_DATA_CACHE`` or ``~/.cache/opencompass``.  A config may instead
give ``data_files`` (with ``path='json'``), which is joined to
``$COMPASS_DATA_CACHE`` as OpenCompass does.  Nothing is fetched from the
Hugging Face Hub.

Each record of the ``test`` split holds one long document (``input``) and
parallel lists of questions (``instructions``) and answers (``outputs``);
each loader gives one row per question: ``question``, ``context`` (the
document), ``length`` (the answer's word count, for the tasks whose prompt
asks for that many words) and ``answer`` — for QuALITY the answer's second
character (the option letter of ``'(B) …'``).  The other splits are returned
as read.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import load_local_hf
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = [
    "LEvalCourseraDataset",
    "LEvalFinancialQADataset",
    "LEvalGSM100Dataset",
    "LEvalGovReportSummDataset",
    "LEvalLegalContractQADataset",
    "LEvalMeetingSummDataset",
    "LEvalMultidocQADataset",
    "LEvalNarrativeQADataset",
    "LEvalNaturalQuestionDataset",
    "LEvalNewsSummDataset",
    "LEvalPaperAssistantDataset",
    "LEvalPatentSummDataset",
    "LEvalQualityDataset",
    "LEvalReviewSummDataset",
    "LEvalScientificQADataset",
    "LEvalTPODataset",
    "LEvalTVShowSummDataset",
    "LEvalTopicRetrievalDataset",
]

_COLUMNS = ("instructions", "outputs", "input")


def _answer_letter(answer: Any, where: str) -> Any:
    try:
        return answer[1]
    except (IndexError, TypeError, KeyError):
        raise InputFileError(f"{where}: the output {str(answer)[:80]!r} has no second character (expected '(A) …')") from None


def _load(what: str, kwargs: dict[str, Any], *, length: bool, letter: bool = False) -> Any:
    import datasets

    options = dict(kwargs)
    if "data_files" in options:
        options["data_files"] = get_data_path(options["data_files"], local_mode=True)
    loaded = load_local_hf(what, **options)
    source = options.get("data_files") or options.get("path")
    if not isinstance(loaded, datasets.DatasetDict) or "test" not in loaded:
        splits = ", ".join(loaded) if isinstance(loaded, datasets.DatasetDict) else "none"
        raise InputFileError(f"{what}: {source} (name={options.get('name')!r}) has no 'test' split (splits: {splits})")
    test = loaded["test"]
    missing = [c for c in _COLUMNS if c not in test.column_names]
    if missing:
        raise InputFileError(f"{what}: the test split read from {source} lacks the column(s) {', '.join(missing)}")
    rows = []
    for i, (instructions, outputs, context) in enumerate(zip(test["instructions"], test["outputs"], test["input"])):
        where = f"{what}: {source}, test record {i}"
        if not isinstance(instructions, list) or not isinstance(outputs, list):
            raise InputFileError(f"{where}: 'instructions' and 'outputs' must be lists")
        for question, answer in zip(instructions, outputs):
            row: dict[str, Any] = {"question": question, "context": context}
            if length:
                if not isinstance(answer, str):
                    raise InputFileError(f"{where}: the output {str(answer)[:80]!r} is not text")
                row["length"] = len(answer.split())
            row["answer"] = _answer_letter(answer, where) if letter else answer
            rows.append(row)
    out = datasets.DatasetDict(loaded)
    out["test"] = datasets.Dataset.from_list(rows)
    return out


def _loader(name: str, *, length: bool, letter: bool = False) -> type[BaseDataset]:
    def load(**kwargs: Any) -> Any:
        return _load(name, kwargs, length=length, letter=letter)

    word = "``question``, ``context``, ``length`` and ``answer``" if length else "``question``, ``context`` and ``answer``"
    doc = f"One row per question of the ``test`` split: {word}" + (" (the output's second character)." if letter else ".")
    cls = type(name, (BaseDataset,), {"__module__": __name__, "__qualname__": name, "__doc__": doc, "load": staticmethod(load)})
    return LOAD_DATASET.register_module()(cls)


LEvalCourseraDataset = _loader("LEvalCourseraDataset", length=False)
LEvalGSM100Dataset = _loader("LEvalGSM100Dataset", length=False)
LEvalQualityDataset = _loader("LEvalQualityDataset", length=False, letter=True)
LEvalTopicRetrievalDataset = _loader("LEvalTopicRetrievalDataset", length=False)
LEvalTPODataset = _loader("LEvalTPODataset", length=False)
LEvalFinancialQADataset = _loader("LEvalFinancialQADataset", length=True)
LEvalGovReportSummDataset = _loader("LEvalGovReportSummDataset", length=True)
LEvalLegalContractQADataset = _loader("LEvalLegalContractQADataset", length=True)
LEvalMeetingSummDataset = _loader("LEvalMeetingSummDataset", length=True)
LEvalMultidocQADataset = _loader("LEvalMultidocQADataset", length=True)
LEvalNarrativeQADataset = _loader("LEvalNarrativeQADataset", length=True)
LEvalNaturalQuestionDataset = _loader("LEvalNaturalQuestionDataset", length=True)
LEvalNewsSummDataset = _loader("LEvalNewsSummDataset", length=True)
LEvalPaperAssistantDataset = _loader("LEvalPaperAssistantDataset", length=True)
LEvalPatentSummDataset = _loader("LEvalPatentSummDataset", length=True)
LEvalReviewSummDataset = _loader("LEvalReviewSummDataset", length=True)
LEvalScientificQADataset = _loader("LEvalScientificQADataset", length=True)
LEvalTVShowSummDataset = _loader("LEvalTVShowSummDataset", length=True)
