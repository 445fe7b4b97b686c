"""LiveCodeBench evaluators under OpenCompass's names: ``LCBCodeGenerationEvaluator``,
``LCBCodeExecutionEvaluator``, ``LCBTestOutputEvaluator``.

Both compute what OpenCompass 0.5.4 computes; every piece of model text that
OpenCompass executes or ``eval``\\ s runs here in :mod:`assay.sandbox` instead
(one isolated process per sample, resource limits, no network, no view of the
caller's files).  The extraction functions are pure and shared with
LiveCodeBench's own conventions.
"""

from __future__ import annotations

import ast
import json
import logging
import re
from typing import Any

from assay.evaluate.base import SANDBOX_UNSCORABLE, BaseEvaluator, SampleOutcome
from assay.evaluators._code_exec import (
    EVALUATE_NAME,
    TYPE_AWARE_EQUAL_NAME,
    Checked,
    SandboxPool,
    checked_program,
    count_kinds,
)
from assay.evaluators._common import check_batch
from assay.registry import ICL_EVALUATORS

logger = logging.getLogger(__name__)

__all__ = [
    "LCBCodeExecutionEvaluator",
    "LCBCodeGenerationEvaluator",
    "LCBTestOutputEvaluator",
    "extract_code_execution",
    "extract_code_generation",
    "extract_code_generation_v2",
    "extract_test_output_code",
]

#: The imports OpenCompass puts before the program of a code-execution sample.
LCB_BASE_IMPORTS = "\n".join(
    [
        "from itertools import accumulate, chain, combinations, count, permutations, product, groupby, islice, repeat",
        "from copy import deepcopy",
        "from string import ascii_lowercase",
        "from math import floor, log2, log10, sqrt, comb, gcd, ceil, inf, isqrt",
        "from collections import defaultdict, deque, Counter",
        "from bisect import bisect, bisect_left, bisect_right, insort",
        "from heapq import heappush, heappop, heapify, merge",
        "from functools import reduce, cache, lru_cache",
        "from random import randrange, shuffle",
        "from operator import itemgetter, sub",
        "from re import search as re_search",
        "from os.path import commonprefix",
        "from typing import List, Tuple, Dict, Set, Optional, Union, Any, Callable, Iterable, Iterator, Generator",
        "import copy",
        "import string",
        "import math",
        "import collections",
        "import bisect",
        "import heapq",
        "import functools",
        "import random",
        "import itertools",
        "import operator",
        "import re",
        "import numpy as np",
        "import pandas as pd",
        "from math import log, prod",
        "from collections import deque, defaultdict, Counter, OrderedDict",
        "from itertools import accumulate, permutations, combinations, product, groupby, islice, chain, repeat, zip_longest, cycle",
        "from functools import lru_cache, reduce, partial",
        "from operator import iand",
        "import sys",
    ]
)
_EXECUTION_SECONDS = 3.0
_PYTHON_TAGS = re.compile(r"\[PYTHON\](.*?)\[\/PYTHON\]", re.DOTALL)


def extract_code_generation(model_output: Any, model_type: str = "chat") -> str:
    """The lines between the first two lines holding a fence (``''`` with fewer than two).

    Example:
        >>> extract_code_generation("Here:\\n```python\\nprint(1)\\n```\\n```\\nx\\n```")
        'print(1)'
    """
    return _fenced_block(model_output, model_type, last=False)


def extract_code_generation_v2(model_output: Any, model_type: str = "chat") -> str:
    """As :func:`extract_code_generation`, but the last fenced block.

    Example:
        >>> extract_code_generation_v2("```\\na\\n```\\n```\\nb\\n```")
        'b'
    """
    return _fenced_block(model_output, model_type, last=True)


def _fenced_block(model_output: Any, model_type: str, *, last: bool) -> str:
    """The lines between the first (``last``: the last) two lines holding a fence; a base model's whole reply."""
    text = "" if model_output is None else str(model_output)
    if model_type == "base":
        return text.strip()
    if model_type != "chat":
        raise ValueError(f"Invalid mode type: {model_type}")
    lines = text.split("\n")
    fences = [i for i, line in enumerate(lines) if "```" in line]
    if len(fences) < 2:
        return ""
    start, end = fences[-2:] if last else fences[:2]
    return "\n".join(lines[start + 1 : end])


def extract_code_execution(model_output: Any, cot: bool = False) -> str:
    """The predicted value of a code-execution reply, as OpenCompass cuts it.

    The last ``[PYTHON]…[/PYTHON]`` body if any; with ``cot`` the text after
    the first ``[ANSWER]``; the text after the first ``==`` (up to the next);
    then up to ``[/ANSWER]`` when present, else the first line; stripped.

    Example:
        >>> extract_code_execution("[ANSWER]\\nassert f(1) == [1, 2]\\n[/ANSWER]")
        '[1, 2]'
        >>> extract_code_execution("The output is 5\\nbecause ...")
        'The output is 5'
    """
    text = "" if model_output is None else str(model_output)
    matches = _PYTHON_TAGS.findall(text)
    if matches:
        text = matches[-1]
    if cot and "[ANSWER]" in text:
        text = text.split("[ANSWER]")[1].strip()
    if "==" in text:
        text = text.split("==")[1].strip()
    if "[/ANSWER]" in text:
        text = text.split("[/ANSWER]")[0].strip()
    else:
        text = text.split("\n")[0].strip()
    return text.strip()


def extract_test_output_code(model_output: Any) -> str:
    """The last line starting with ``assert``, else the first ```` ```python ```` block (or first fenced block).

    Example:
        >>> extract_test_output_code("I think\\nassert f(2) == 4\\nassert f(3) == 9")
        'assert f(3) == 9'
        >>> extract_test_output_code("```python\\n4\\n```")
        '4'
    """
    text = "" if model_output is None else str(model_output)
    lines = text.split("\n")
    asserts = [i for i, line in enumerate(lines) if line.startswith("assert")]
    if asserts:
        return lines[asserts[-1]]
    python_fences = [i for i, line in enumerate(lines) if "```python" in line or "```Python" in line]
    start = python_fences[0] if python_fences else None
    fences = [i for i, line in enumerate(lines) if "```" in line]
    if start is not None:
        fences = [start] + [i for i in fences if i > start]
    if len(fences) < 2:
        return ""
    return "\n".join(lines[fences[0] + 1 : fences[1]])


def _mean(values: list[float]) -> float:
    import numpy as np

    return float(np.array(values).mean())


def execution_check(preamble: str, code: str, output: str, value: str) -> Checked:
    """The checked run of a predicted value: OpenCompass's ``assert <output> == <value>`` (type-aware).

    The program's process runs the preamble and the sample's program; the
    checking process evaluates ``output`` (calling the program's functions
    there), then has the predicted value evaluated there, and compares the
    two values it got back.  The assertion is parsed first: a
    ``value`` that is not one argument of it (OpenCompass pastes the text into
    the assertion, so ``5) or (True`` holds there) fails with ``ValueError``.

    Example:
        >>> 'eq' in execution_check('', 'def f(x):\\n    return x', 'f(1)', '1').checker
        True
    """
    text = f"assert {TYPE_AWARE_EQUAL_NAME}({output}, {value})"
    test = text  # when it does not parse, compiling it in the checker raises OpenCompass's SyntaxError
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        tree = None
    if tree is not None:
        node = tree.body[0] if len(tree.body) == 1 else None
        call = node.test if isinstance(node, ast.Assert) and node.msg is None else None
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id == TYPE_AWARE_EQUAL_NAME
            and len(call.args) == 2
            and not call.keywords
            and ast.get_source_segment(text, call.args[0]) == output.strip()
        ):
            predicted = ast.get_source_segment(text, call.args[1]) or ""
            test = f"assert {TYPE_AWARE_EQUAL_NAME}({output}, {EVALUATE_NAME}({'(' + predicted + chr(10) + ')'!r}))"
        else:
            test = "raise ValueError('the predicted value is not one expression')"
    return checked_program([f"{preamble}\n{code}"], [test], type_aware_equal=True)


@ICL_EVALUATORS.register_module()
class LCBCodeExecutionEvaluator(BaseEvaluator):
    """LiveCodeBench code execution: does ``assert <output> == <predicted value>`` hold after running the program?

    Inputs: ``predictions`` (replies) and ``references`` (the
    ``evaluation_sample`` column: JSON with ``code``, ``input``, ``output``).
    The predicted value is cut by :func:`extract_code_execution`; a value
    that contains the sample's input text is wrong without being run (as in
    OpenCompass).  Otherwise OpenCompass's import preamble and the program run,
    then the assertion, comparing type-aware, all with ``exec`` in one fresh
    namespace in the sandbox.

    Metric: ``pass@1`` (0–100).  OpenCompass returns no details; here each
    sample has ``extracted``, ``is_correct``, ``outcome`` (``not-run`` when
    skipped) and ``message``; ``outcomes`` counts the sandbox outcomes.

    The preamble imports numpy and pandas; where the sandbox's Python lacks
    one of them, its import line is left out (with a warning, and the
    module named in the result's ``preamble_missing``): a program that uses
    it then fails where OpenCompass's would run.

    Time: OpenCompass allows 3 s per program (an alarm, with a 4 s process
    limit), so results near the limit depend on the machine; ``timeout``
    defaults to the same 3 s of wall-clock time, start-up included.

    Differences from OpenCompass 0.5.4: the predicted value is evaluated in
    the program's process and compared in another (:func:`execution_check`),
    so a prediction that is not one argument of the assertion (``5) or
    (True``, which OpenCompass pastes in and counts right) fails, and so does
    one that reaches into the checking code.

    Example:
        >>> ref = json.dumps({'code': 'def f(x):\\n    return x * 2', 'input': 'f(3)', 'output': '6'})
        >>> LCBCodeExecutionEvaluator().score(['[ANSWER]f(3)[/ANSWER]'], [ref])['pass@1']  # holds the input: not run
        0.0
        >>> LCBCodeExecutionEvaluator().score(['[ANSWER]assert f(3) == 6[/ANSWER]'], [ref])['pass@1']
        100.0
    """

    sample_outcome = SampleOutcome(correct="is_correct", unscorable="outcome", unscorable_values=SANDBOX_UNSCORABLE)

    def __init__(
        self,
        timeout: float = _EXECUTION_SECONDS,
        memory: int = 1024**3,
        max_workers: int | None = None,
        isolation: str = "auto",
        pred_postprocessor: Any = None,
    ) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self._pool = SandboxPool(timeout, memory, max_workers, isolation)
        self._preamble: tuple[str, list[str]] | None = None

    def _imports(self) -> tuple[str, list[str]]:
        """The preamble without the lines of third-party modules the sandbox's Python lacks."""
        if self._preamble is None:
            probe = "import importlib.util as u\nprint(','.join(m for m in ('numpy', 'pandas') if u.find_spec(m) is None))\n"
            result = self._pool.sandbox().run(probe)
            missing = [m for m in result.stdout.strip().split(",") if m] if result.passed else []
            lines = [line for line in LCB_BASE_IMPORTS.split("\n") if not any(line == f"import {m} as {a}" for m, a in (("numpy", "np"), ("pandas", "pd")) if m in missing)]
            if missing:
                logger.warning("LCBCodeExecutionEvaluator: the sandbox's Python lacks %s; the preamble leaves out their imports", ", ".join(missing))
            self._preamble = ("\n".join(lines), missing)
        return self._preamble

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        preamble, missing = self._imports()
        samples = []
        for i, ref in enumerate(references):
            try:
                sample = json.loads(ref)
                samples.append((str(sample["code"]), str(sample["input"]), str(sample["output"])))
            except (ValueError, TypeError, KeyError) as exc:
                return {"error": f"{name}: reference {i} is not an evaluation_sample with code, input, output ({exc})"}
        extracted = [extract_code_execution(p) for p in predictions]
        programs: list[Checked] = []
        runs: list[int] = []
        for i, (value, (code, given, output)) in enumerate(zip(extracted, samples)):
            if given in value:
                continue
            runs.append(i)
            programs.append(execution_check(preamble, code, output, value))
        verdicts = dict(zip(runs, self._pool.run(name, programs)))
        correct = [bool(verdicts[i].passed) if i in verdicts else False for i in range(len(predictions))]
        details = []
        for i, value in enumerate(extracted):
            v = verdicts.get(i)
            details.append(
                {
                    "extracted": value,
                    "is_correct": correct[i],
                    "outcome": v.outcome if v else "not-run",
                    "message": v.message if v else "the predicted value contains the input; not run",
                }
            )
        out: dict[str, Any] = {
            "pass@1": sum(1.0 if c else 0.0 for c in correct) / len(correct) * 100,
            "isolation": self._pool.isolation_name,
            "outcomes": count_kinds(list(verdicts.values())),
            "details": details,
        }
        if missing:
            out["preamble_missing"] = missing
        return out


# Runs inside the sandbox: OpenCompass's check of a predicted test output, as the
# checker of a checked run; the prediction's ``eval`` happens in the program's
# process (``_TEST_OUTPUT_PROGRAM``), and only its value comes back.
_TEST_OUTPUT_PROGRAM = "_ap_scope = {'__builtins__': __builtins__}\n"
_TEST_OUTPUT_CHECK = r'''
import ast as _ap_ast, json as _ap_json


def _ap_rhs(statement):
    try:
        parsed = _ap_ast.parse(statement, mode="exec")
    except SyntaxError:
        return "Invalid syntax"
    if len(parsed.body) == 0:
        return "Empty statement"
    if not isinstance(parsed.body[0], _ap_ast.Assert):
        return "Not an assert statement"
    comparison = parsed.body[0].test
    if not isinstance(comparison, _ap_ast.Compare) or not isinstance(comparison.ops[0], _ap_ast.Eq):
        return "Not an equality assertion"
    return _ap_ast.get_source_segment(statement, comparison.comparators[0])


def _ap_check(text, expected):
    if len(text.splitlines()) > 1:
        for line in text.splitlines():
            if line.startswith("#"):
                continue
            if "assert" in line:
                text = line
                break
    text = text.strip()
    source = str(_ap_rhs(text)) if "assert" in text else text
    ok = None
    try:
        predicted = _assay_remote.evaluate("_ap_scope", source)
    except Exception:
        ok = False
    try:
        wanted = _ap_json.loads(expected)
    except Exception:
        ok = False
    if ok is None:
        ok = predicted == wanted
    return ok


_assay_remote.start()
if not _ap_check(_AP_TEXT, _AP_EXPECTED):
    raise AssertionError("the predicted output differs")
'''


@ICL_EVALUATORS.register_module()
class LCBTestOutputEvaluator(BaseEvaluator):
    """LiveCodeBench test output prediction: does the predicted output equal the test's?

    Inputs: ``predictions`` (replies) and ``references`` (the
    ``evaluation_sample`` column: JSON with ``input`` and ``output``).  The
    predicted output is the right side of the reply's last ``assert … ==``
    line (:func:`extract_test_output_code`), evaluated with ``eval`` as
    OpenCompass does — here inside the sandbox, with only the builtins in
    scope — and compared with ``==`` to the JSON-decoded expected output.

    Differences from OpenCompass 0.5.4: the prediction is evaluated in a
    process of its own and its value compared in another
    (:func:`assay.evaluators._code_exec.checked_program`), so a prediction
    whose value is an object that equals everything, or that reaches into the
    checking code, is wrong here where OpenCompass counts it right.

    Metric: ``pass@1`` (0–100, the mean over samples).  Details per sample:
    ``extracted``, ``is_correct``, ``outcome``, ``message``.

    Example:
        >>> ref = json.dumps({'input': 'question', 'output': '[1, 2]'})
        >>> LCBTestOutputEvaluator().score(['assert f(x) == [1, 2]'], [ref])['pass@1']
        100.0
    """

    sample_outcome = SampleOutcome(correct="is_correct", unscorable="outcome", unscorable_values=SANDBOX_UNSCORABLE)

    def __init__(
        self,
        timeout: float = 10.0,
        memory: int = 1024**3,
        max_workers: int | None = None,
        isolation: str = "auto",
        pred_postprocessor: Any = None,
    ) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self._pool = SandboxPool(timeout, memory, max_workers, isolation)

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        expected = []
        for i, ref in enumerate(references):
            try:
                expected.append(str(json.loads(ref)["output"]))
            except (ValueError, TypeError, KeyError) as exc:
                return {"error": f"{name}: reference {i} is not an evaluation_sample with an output ({exc})"}
        extracted = [extract_test_output_code(p) for p in predictions]
        programs = [
            Checked(_TEST_OUTPUT_PROGRAM, f"_AP_TEXT = {text!r}\n_AP_EXPECTED = {want!r}\n{_TEST_OUTPUT_CHECK}")
            for text, want in zip(extracted, expected)
        ]
        verdicts = self._pool.run(name, programs)
        scores = [100.0 if v.passed else 0.0 for v in verdicts]
        details = [
            {"extracted": text, "is_correct": v.passed, "outcome": v.outcome, "message": v.message}
            for text, v in zip(extracted, verdicts)
        ]
        return {
            "pass@1": _mean(scores),
            "isolation": self._pool.isolation_name,
            "outcomes": count_kinds(verdicts),
            "details": details,
        }


@ICL_EVALUATORS.register_module()
class LCBCodeGenerationEvaluator(BaseEvaluator):
    """LiveCodeBench code generation: does the extracted program pass every test of its problem?

    Inputs: ``predictions`` (replies) and ``references`` (``question_id``).
    As in OpenCompass, the evaluator loads the problems itself
    (:class:`~assay.datasets.livecodebench.LCBCodeGenerationDataset` with
    ``release_version``, ``start_date``, ``end_date``, from
    ``'opencompass/code_generation_lite'``) and scores only the samples whose
    ``question_id`` is there.  The program is the first fenced block
    (``extractor_version='v1'``) or the last (``'v2'``); it runs in the
    sandbox on the public and private tests in order, stopping at the first
    failure, as :mod:`assay.evaluators._lcb_codegen_program` describes.

    Metric: ``pass@1`` (0–100).  Details per sample: ``extracted_prediction``,
    ``eval_result`` (per test: ``True``/``False``, ``-1`` runtime error or
    time limit, ``-2`` compilation error), ``final_metadata`` (JSON),
    ``correct``; ``outcomes`` counts the sandbox outcomes.  A program whose
    process ends without a result (its wall-clock limit,
    ``(timeout + 1) × tests + 5`` s as in OpenCompass; memory; a crash; an
    exit) gets ``-1`` for every test and OpenCompass's "Global Timeout or
    Memory Limit Exceeded".

    Time: each call has ``timeout`` whole seconds (OpenCompass: 6), so slow
    solutions pass or fail depending on the machine.

    Differences from OpenCompass 0.5.4: the program runs as its own sandboxed
    process instead of after LiveCodeBench's ``reliability_guard``; a batch
    with no sample in the problem set is an error record (OpenCompass reports
    NaN); the expected outputs and the comparisons live in a second process
    that gets the calls' values back as plain data
    (:func:`assay.evaluators._code_exec.checked_program`), so a program that
    writes the result list itself, returns an object that equals everything
    or reaches into the checking code fails here where OpenCompass counts it
    right.
    """

    sample_outcome = SampleOutcome(correct="correct")

    def __init__(
        self,
        num_process_evaluate: int = 1,
        timeout: int = 6,
        release_version: str = "release_v1",
        extractor_version: str = "v1",
        start_date: str | None = None,
        end_date: str | None = None,
        memory_limit_bytes: int = 4 * 1024**3,
        max_workers: int | None = None,
        isolation: str = "auto",
        pred_postprocessor: Any = None,
    ) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if extractor_version not in ("v1", "v2"):
            raise ValueError(f"LCBCodeGenerationEvaluator: extractor_version must be 'v1' or 'v2', got {extractor_version!r}")
        self.timeout = int(timeout)
        self.release_version = release_version
        self.extractor_version = extractor_version
        self.start_date = start_date
        self.end_date = end_date
        self._pool = SandboxPool(float(self.timeout), memory_limit_bytes, max_workers, isolation)
        self._samples: dict[str, str] | None = None

    def _problems(self) -> dict[str, str]:
        if self._samples is None:
            from assay.datasets.livecodebench import LCBCodeGenerationDataset

            test = LCBCodeGenerationDataset.load(release_version=self.release_version, start_date=self.start_date, end_date=self.end_date)["test"]
            self._samples = dict(zip(test["question_id"], test["evaluation_sample"]))
        return self._samples

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        from assay._threads import map_threads
        from assay.evaluators._code_exec import verdict_of
        from assay.evaluators._lcb_codegen_program import codegen_program
        from assay.sandbox import Limits

        name = type(self).__name__
        if len(predictions) != len(references):
            return {"error": f"{name}: predictions and references have different length. len(predictions): {len(predictions)}, len(references): {len(references)}"}
        if not predictions:
            return {"error": f"{name}: no samples to score"}
        extract = extract_code_generation if self.extractor_version == "v1" else extract_code_generation_v2
        extracted = [extract(p) for p in predictions]
        problems = self._problems()
        kept = [i for i, ref in enumerate(references) if ref in problems]
        if not kept:
            return {"error": f"{name}: no question_id of the predictions is in LiveCodeBench {self.release_version}"}
        jobs = []
        counts = []
        for i in kept:
            in_outs = problems[references[i]]
            n = len(json.loads(in_outs)["inputs"])
            counts.append(n)
            limits = Limits(timeout=(self.timeout + 1) * n + 5, memory=self._pool.memory, cpu_time=(self.timeout + 1) * n + 6)
            jobs.append((codegen_program(extracted[i], in_outs, self.timeout, n), limits))
        sandbox = self._pool.sandbox()
        logger.info("%s: running %d programs (%s isolation)", name, len(jobs), sandbox.isolation.value)
        runs = map_threads(lambda job: sandbox.run(job[0].program, checker=job[0].checker, limits=job[1]), jobs,
                           workers=sandbox.max_workers, name="lcb", stoppable=sandbox)
        verdicts = [verdict_of(r) for r in runs]
        per_kept: list[tuple[list[Any], str, bool]] = []
        for run, n in zip(runs, counts):
            got = _reported(run.data)
            if run.passed:
                results = got[0] if got else [True] * n
                meta = got[1] if got else "{}"
                per_kept.append((results, meta, True))
            elif got is not None and run.outcome.value == "failed":
                per_kept.append((got[0], got[1], False))
            else:
                meta = json.dumps({"error_code": -3, "error_message": "Global Timeout or Memory Limit Exceeded"})
                per_kept.append(([-1] * n, meta, False))
        scores = [100.0 if ok else 0.0 for _, _, ok in per_kept]
        details: list[dict[str, Any]] = []
        at = dict(zip(kept, per_kept))
        for i, value in enumerate(extracted):
            if i in at:
                results, meta, ok = at[i]
                details.append({"extracted_prediction": value, "eval_result": results, "final_metadata": meta, "correct": ok})
            else:
                details.append({"extracted_prediction": value, "eval_result": None, "final_metadata": None, "correct": False, "in_dataset": False})
        return {
            "pass@1": _mean(scores),
            "isolation": self._pool.isolation_name,
            "outcomes": count_kinds(verdicts),
            "details": details,
        }


def _reported(value: Any) -> tuple[list[Any], str] | None:
    """The checker's ``[results, metadata]``, or ``None`` when it reported none."""
    if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], list)):
        return None
    return value[0], str(value[1])
