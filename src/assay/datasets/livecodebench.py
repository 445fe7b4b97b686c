"""LiveCodeBench loaders under OpenCompass's names.

* ``LCBCodeGenerationDataset`` reads the ``code_generation_lite`` folder
  (``'opencompass/code_generation_lite'`` is ``./data/code_generation_lite``):
  its ``test.jsonl``, ``test2.jsonl``, … files, those of ``release_version``
  (``release_v1`` is ``test.jsonl``; ``release_vN`` adds ``test2.jsonl`` …
  ``testN.jsonl``; ``vN`` is the one file of that release; ``vM_vN`` the files
  of releases M to N), kept between ``start_date`` and ``end_date``
  (``contest_date``, inclusive);
* ``LCBCodeExecutionDataset`` reads ``./data/execution-v2``;
* ``LCBTestOutputPredictionDataset`` reads ``./data/test_generation``.

A folder's test split is its files named ``test*`` (``.jsonl``, ``.json`` or
``.parquet``, at its top or under ``data/``); a single file may be named too.
Each row gets ``evaluation_sample``, the JSON reference the evaluators read,
built as OpenCompass builds it.  The inference prompts OpenCompass adds
(``format_prompt``, ``prompt``) are not built: assay scores saved predictions.

Private test cases are stored either as JSON or compressed and encoded
(base64 of zlib of a pickled JSON string).  OpenCompass unpickles them with
:func:`pickle.loads`; here they are read by an unpickler that refuses every
global (:func:`decode_private_tests`), so a data file can hold only plain
values and can never make the loader run code.
"""

from __future__ import annotations

import base64
import io
import json
import pickle
import zlib
from datetime import datetime
from pathlib import Path
from typing import Any

from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = [
    "LCBCodeExecutionDataset",
    "LCBCodeGenerationDataset",
    "LCBTestOutputPredictionDataset",
    "TestOutputPromptConstants",
    "decode_private_tests",
    "release_files",
]

_VERSIONS = ("v1", "v2", "v3", "v4", "v5", "v6")


class _NoPrompts(type):
    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"{cls.__name__}.{name}: assay scores saved predictions and provides no inference prompts")


class TestOutputPromptConstants(metaclass=_NoPrompts):
    """The name LiveCodeBench configs import for test-output prompts; assay builds no prompts.

    Importing it works (OpenCompass's configs import it without using it);
    reading any of its constants is an error saying so.

    Example:
        >>> TestOutputPromptConstants.SYSTEM_MESSAGE_GENERIC
        Traceback (most recent call last):
        ...
        AttributeError: TestOutputPromptConstants.SYSTEM_MESSAGE_GENERIC: assay scores saved predictions and provides no inference prompts
    """

    __test__ = False


def _file_of(release: int) -> str:
    return "test.jsonl" if release == 1 else f"test{release}.jsonl"


def release_files(version: str) -> list[str]:
    """The files of a ``code_generation_lite`` version tag.

    Example:
        >>> release_files('release_v2'), release_files('v3'), release_files('v2_v4')
        (['test.jsonl', 'test2.jsonl'], ['test3.jsonl'], ['test2.jsonl', 'test3.jsonl', 'test4.jsonl'])
    """
    if version == "release_latest":
        return [_file_of(i) for i in range(1, len(_VERSIONS) + 1)]
    if version.startswith("release_v") and version[len("release_v") :].isdigit():
        last = int(version[len("release_v") :])
        if 1 <= last <= len(_VERSIONS):
            return [_file_of(i) for i in range(1, last + 1)]
    if version in _VERSIONS:
        return [_file_of(int(version[1:]))]
    first, sep, last_tag = version.partition("_")
    if sep and first in _VERSIONS and last_tag in _VERSIONS and int(first[1:]) < int(last_tag[1:]):
        return [_file_of(i) for i in range(int(first[1:]), int(last_tag[1:]) + 1)]
    raise InputFileError(f"LCBCodeGenerationDataset: unknown release_version {version!r}")


class _PlainUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refusing to load {module}.{name}: private test data may hold plain values only")


def decode_private_tests(text: str) -> list[dict[str, Any]]:
    """LiveCodeBench's private test cases, from JSON or from their compressed encoding.

    The encoded form is base64 of zlib of a pickle of the JSON text; it is
    read without ever loading a global, so nothing in it can run.

    Example:
        >>> import base64, pickle, zlib
        >>> packed = base64.b64encode(zlib.compress(pickle.dumps('[{"input": "1", "output": "2"}]'))).decode()
        >>> decode_private_tests(packed)
        [{'input': '1', 'output': '2'}]
        >>> decode_private_tests('[]')
        []
    """
    try:
        value: Any = json.loads(text)
    except ValueError:
        raw = zlib.decompress(base64.b64decode(text.encode("utf-8")))
        value = json.loads(_PlainUnpickler(io.BytesIO(raw)).load())
    if not isinstance(value, list):
        raise ValueError(f"private test cases must be a list, got {type(value).__name__}")
    return value


def _folder_rows(loader: str, path: str, local_mode: bool, names: list[str] | None = None) -> list[dict[str, Any]]:
    from assay.datasets.local import read_jsonl_rows

    where = Path(get_data_path(path, local_mode=local_mode))
    if where.is_file():
        files = [where]
    elif where.is_dir():
        if names is not None:
            files = [where / n for n in names if (where / n).is_file()]
            missing = [n for n in names if not (where / n).is_file()]
            if missing:
                raise InputFileError(f"{loader}: folder {where} lacks {', '.join(missing)}")
        else:
            files = sorted(
                p
                for folder in (where, where / "data")
                if folder.is_dir()
                for p in folder.iterdir()
                if p.is_file() and p.name.startswith("test") and p.suffix in (".jsonl", ".json", ".parquet")
            )
        if not files:
            raise InputFileError(f"{loader}: folder {where} holds no test file (test*.jsonl, .json or .parquet)")
    else:
        raise InputFileError(f"{loader}: {where} does not exist (path {path!r})")
    rows: list[dict[str, Any]] = []
    for file in files:
        if file.suffix == ".parquet":
            import pyarrow.parquet as pq

            rows.extend(pq.read_table(file).to_pylist())
        elif file.suffix == ".json":
            data = json.loads(file.read_text(encoding="utf-8"))
            if not isinstance(data, list):
                raise InputFileError(f"{loader}: {file} must hold a list of rows")
            rows.extend(data)
        else:
            rows.extend(read_jsonl_rows(file, what=f"{loader} file"))
    return rows


def _need(loader: str, row: dict[str, Any], columns: tuple[str, ...], i: int) -> None:
    missing = [c for c in columns if c not in row]
    if missing:
        raise InputFileError(f"{loader}: row {i} lacks {', '.join(missing)}")


def _splits(rows: list[dict[str, Any]]) -> Any:
    import datasets

    test = datasets.Dataset.from_list(rows)
    return datasets.DatasetDict({"test": test, "train": test})


@LOAD_DATASET.register_module()
class LCBCodeGenerationDataset(BaseDataset):
    """LiveCodeBench code generation; ``evaluation_sample`` holds the inputs, outputs and ``fn_name`` of all tests.

    Example:
        >>> LCBCodeGenerationDataset.load(release_version='release_v5')  # doctest: +SKIP
    """

    @staticmethod
    def load(
        path: str = "opencompass/code_generation_lite",
        local_mode: bool = False,
        release_version: str = "release_v1",
        start_date: str | None = None,
        end_date: str | None = None,
        **kwargs: Any,
    ) -> Any:
        name = "LCBCodeGenerationDataset"
        rows = _folder_rows(name, path, local_mode, release_files(release_version))
        out = []
        for i, row in enumerate(rows):
            _need(name, row, ("question_id", "public_test_cases", "private_test_cases", "metadata", "contest_date"), i)
            public = json.loads(row["public_test_cases"])
            try:
                private = decode_private_tests(row["private_test_cases"])
            except Exception as exc:
                raise InputFileError(f"{name}: question {row['question_id']!r}: private test cases cannot be read: {exc}") from None
            metadata = json.loads(row["metadata"])
            tests = public + private
            item = dict(row)
            item["evaluation_sample"] = json.dumps(
                {"inputs": [t["input"] for t in tests], "outputs": [t["output"] for t in tests], "fn_name": metadata.get("func_name", None)}
            )
            out.append(item)
        if start_date is not None:
            start = datetime.strptime(start_date, "%Y-%m-%d")
            out = [r for r in out if start <= datetime.fromisoformat(r["contest_date"])]
        if end_date is not None:
            end = datetime.strptime(end_date, "%Y-%m-%d")
            out = [r for r in out if datetime.fromisoformat(r["contest_date"]) <= end]
        return _splits(out)


@LOAD_DATASET.register_module()
class LCBCodeExecutionDataset(BaseDataset):
    """LiveCodeBench code execution; ``evaluation_sample`` holds ``code``, ``input`` and ``output``.

    Example:
        >>> LCBCodeExecutionDataset.load()  # doctest: +SKIP
    """

    @staticmethod
    def load(path: str = "opencompass/execution-v2", local_mode: bool = False, cot: bool = False, **kwargs: Any) -> Any:
        name = "LCBCodeExecutionDataset"
        out = []
        for i, row in enumerate(_folder_rows(name, path, local_mode)):
            _need(name, row, ("code", "input", "output"), i)
            item = dict(row)
            item["evaluation_sample"] = json.dumps({"code": row["code"], "input": row["input"], "output": row["output"]})
            out.append(item)
        return _splits(out)


@LOAD_DATASET.register_module()
class LCBTestOutputPredictionDataset(BaseDataset):
    """LiveCodeBench test output prediction; ``evaluation_sample`` holds the question and the first test's output.

    Example:
        >>> LCBTestOutputPredictionDataset.load()  # doctest: +SKIP
    """

    @staticmethod
    def load(path: str = "opencompass/test_generation", local_mode: bool = False, **kwargs: Any) -> Any:
        name = "LCBTestOutputPredictionDataset"
        out = []
        for i, row in enumerate(_folder_rows(name, path, local_mode)):
            _need(name, row, ("question_content", "test"), i)
            tests = json.loads(row["test"])
            item = dict(row)
            item["testcase_input"] = tests[0]["input"]
            item["testcase_output"] = tests[0]["output"]
            item["evaluation_sample"] = json.dumps({"input": row["question_content"], "output": tests[0]["output"]})
            out.append(item)
        return _splits(out)
