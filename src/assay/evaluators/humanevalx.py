"""HumanEval-X: ``HumanevalXEvaluator`` for Python, C++, Go, Java and JavaScript, as OpenCompass 0.5.4 scores it.

OpenCompass cleans each reply (:func:`clean_up_code`), writes the cleaned
``generation``s with task ids ``<Language>/<i>`` (``i`` the sample's position)
to a file and posts it to a code-evaluation service, which assembles each test
program from the problem (:func:`humanevalx_program`), runs it with the
language's toolchain and returns ``{"pass@1": …}``.  assay assembles the same
programs and runs them itself, each in :mod:`assay.sandbox` (no network, its
own uid, resource limits), deciding each verdict as that service does:

* Python: the imports the service prepends, the prompt, the generation and the
  test run with ``exec`` (the test in a second process, as for HumanEval —
  :func:`assay.evaluators._code_exec.checked_program`); an assertion is
  ``failed: AssertionError``.
* C++: ``g++ -std=c++11 test.cpp`` (with ``-lcrypto -lssl`` for an id holding
  ``162``), then ``./a.out``: status 0 passes; a compiler error is
  ``failed: compilation error: …``.
* Go: ``go test -timeout=<t>s main_test.go``: status 0 passes.
* Java: ``javac Main.java`` (5 s, five attempts), then ``java -cp . Main``:
  status 0 passes; status 1 with ``AssertionError`` on standard error is
  ``failed: wrong answer``.
* JavaScript: ``node test.js`` passes when it writes nothing, neither on
  standard error nor on standard output.

The toolchains are Debian's: ``g++`` (and ``libssl-dev`` for the MD5
problem), ``golang-go`` with ``golang-github-stretchr-testify-dev`` (the
tests' assertion library, read from ``/usr/share/gocode`` in GOPATH mode,
where the service fetches it with ``go mod tidy``), ``default-jdk-headless``,
``nodejs`` (the MD5 problem's ``js-md5`` module is looked up in the usual global
module folders).  Each tool is the first on ``PATH`` whose copy lies in a
folder the sandbox shows (a per-user ``node`` or JDK first on ``PATH`` is
passed over).  A missing toolchain makes that language's samples
unscorable (``outcome`` ``missing-dependency``, the package to install in the
message); nothing else is affected.
"""

from __future__ import annotations

import ast
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

from assay.evaluate.base import SANDBOX_UNSCORABLE, BaseEvaluator, SampleOutcome
from assay.evaluators._code_exec import Checked, SandboxPool, checked_program, count_outcomes
from assay.evaluators._common import check_batch
from assay.evaluators._compiled_driver import driver_program, driver_runs, rows_of_test_set
from assay.evaluators.code import estimate_pass_at_k
from assay.postprocess.code import humaneval_postprocess_v2
from assay.registry import ICL_EVALUATORS

logger = logging.getLogger(__name__)

__all__ = ["HumanevalXEvaluator", "clean_up_code", "humanevalx_program"]

#: OpenCompass's language keys and the names its task ids carry.
LANGUAGE_NAMES: Mapping[str, str] = {"cpp": "CPP", "go": "Go", "java": "Java", "js": "JavaScript", "python": "Python", "rust": "Rust"}

#: The lines the service puts before a Python program.
PYTHON_IMPORTS = (
    "import math", "import re", "import sys", "import copy", "import datetime", "import itertools", "import collections",
    "import heapq", "import statistics", "import functools", "import hashlib", "import numpy", "import numpy as np",
    "import string", "from typing import *", "from collections import *",
)
#: Go packages the service imports when a generation uses them (``<last path element>.``) and the test set-up does not.
GO_PACKAGES = ("math", "strings", "fmt", "strconv", "time", "bytes", "regexp", "sort", "math/rand", "crypto/md5")
#: The includes the service puts before a C++ program, each unless the prompt holds it.
CPP_INCLUDES = (
    "#include<stdlib.h>", "#include<algorithm>", "#include<math.h>", "#include<stdio.h>", "#include<vector>",
    "#include<string>", "#include<climits>", "#include<cstring>", "#include<iostream>",
)

#: The sample outcome of a language whose toolchain is not installed.
MISSING_DEPENDENCY = "missing-dependency"
UNSCORABLE = {**SANDBOX_UNSCORABLE, MISSING_DEPENDENCY: "not_executed"}

_JAVAC_JVM = ("-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1")

_PY_END_WORDS = ("\ndef", "\nclass", "\n#", "\nassert", '\n"""', "\nprint", "\nif", "\n\n\n")


def _literal_text(text: str) -> str:
    """``text`` itself, or the string it spells when it is a Python string literal."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return text
    return value if isinstance(value, str) else text


def clean_up_code(text: Any, language: str, reference: Any) -> str:
    """The ``generation`` OpenCompass 0.5.4 sends for one reply (its ``_clean_up_code``).

    A reply that is a Python string literal is read as the string it spells
    (OpenCompass evaluates the reply with ``eval``; assay never runs a reply
    outside the sandbox, so a reply that is an expression other than a literal
    — ``'a' + 'b'`` — is kept as it is).  Then: leading newlines dropped; the
    first fenced block (its first line dropped unless the fence ends its
    line); for Python, :func:`humaneval_postprocess_v2`, four spaces before the
    first line and the text cut at the first unindented line (else before the
    last of ``\\ndef``, ``\\nclass``, ``\\n#``, … in turn); the text up to and
    including the line holding the reference's last line (the declaration's
    function head, without ``{``) dropped when it holds it; for Java, Go, C++
    and JavaScript, what follows the last ``}`` (and a ``main``) cut, and Java's
    missing closing brace added.

    Example:
        >>> clean_up_code("```python\\ndef f(x):\\n    return x + 1\\n```", 'python', 'def f(x):\\n')
        '    return x + 1\\n'
        >>> clean_up_code("int add(int a, int b){\\n    return a + b;\\n}\\nint main(){}", 'cpp', 'int add(int a, int b){\\n')
        '    return a + b;\\n}'
    """
    text = "" if text is None else str(text)
    text = _literal_text(text)
    text = text.lstrip("\n")
    if "```" in text:
        blocks = re.findall(r"```(.*?)```", text, re.DOTALL)
        if not blocks:
            text = text.split("```")[1]
        else:
            text = blocks[0]
            if not text.startswith("\n"):
                text = text[max(text.find("\n") + 1, 0) :]
    lang = language.lower()
    if lang == "python":
        text = "    " + humaneval_postprocess_v2(text).lstrip()
        lines = text.split("\n")
        first_unindented = next((i for i, line in enumerate(lines) if line.strip() and line[0] not in " \t"), None)
        if first_unindented is not None:
            text = "\n".join(lines[:first_unindented])
        else:
            for word in _PY_END_WORDS:
                if word in text:
                    text = text[: text.rfind(word)]
    head = str(reference).strip().split("\n")[-1]
    if head:
        head = head.strip().strip("{")
        if head in text:
            text = "\n".join(text[text.find(head) :].split("\n")[1:])
    if lang == "java":
        main = text.find("public static void main")
        if main != -1:
            text = text[:main] + "}"
        if "}" in text:
            text = text[: text.rfind("}")] + "}"
        if text.count("{") + 1 == text.count("}"):
            text += "\n}"
    elif lang == "go":
        if "\nfunc main(" in text:
            text = text[: text.rfind("func main(")]
        if "}" in text:
            text = text[: text.rfind("}")] + "}"
    elif lang == "cpp":
        if "\nint main()" in text:
            text = text[: text.rfind("int main()")]
        if "}" in text:
            text = text[: text.rfind("}")] + "}"
    elif lang in ("js", "rust") and "}" in text:
        text = text[: text.rfind("}")] + "}"
    return text


def humanevalx_program(problem: Mapping[str, Any], generation: str, language: str) -> str:
    """The test program the evaluation service assembles for one generation of ``problem`` (a HumanEval-X row).

    Example:
        >>> row = {'prompt': 'const add = (a, b) => {\\n', 'test': 'console.assert(add(1, 2) === 3)\\n'}
        >>> print(humanevalx_program(row, '  return a + b\\n}', 'js'))
        const add = (a, b) => {
          return a + b
        }
        console.assert(add(1, 2) === 3)
        <BLANKLINE>
    """
    prompt, test = str(problem.get("prompt") or ""), str(problem.get("test") or "")
    if language == "python":
        return "\n".join(PYTHON_IMPORTS) + "\n" + prompt + generation + "\n" + test + "\n"
    if language == "cpp":
        setup = "".join(include + "\n" for include in CPP_INCLUDES if include not in prompt)
        return setup + "\n" + prompt + generation + "\n" + test
    if language in ("java", "js"):
        return prompt + generation + "\n" + test
    if language == "go":
        prompt = prompt.replace(str(problem.get("import") or ""), "")
        setup = str(problem.get("test_setup") or "")
        extra = [f'"{pkg}"' for pkg in GO_PACKAGES if pkg not in setup and pkg.split("/")[-1] + "." in generation]
        if extra:
            imports = "import (\n" + "    ".join(p + "\n" for p in extra) + ")"
            return setup + "\n" + imports + "\n" + prompt + generation + "\n" + test
        return setup + "\n" + prompt + generation + "\n" + test
    raise ValueError(f"HumanEval-X: no test program for language {language!r}")


def _python_check(problem: Mapping[str, Any], generation: str) -> Checked:
    """The service's Python program, the test (which ends by calling ``check``) run by the checker."""
    head = "\n".join(PYTHON_IMPORTS) + "\n" + str(problem.get("prompt") or "") + generation + "\n"
    return checked_program([head], [str(problem.get("test") or "") + "\n"])


def _steps(language: str, tools: Mapping[str, str], task_id: str, timeout: float) -> tuple[str, list[dict[str, Any]]]:
    """The file name and the steps of a compiled-language run, as the service runs them."""
    if language == "cpp":
        argv = [tools["g++"], "-std=c++11", "test.cpp"] + (["-lcrypto", "-lssl"] if "162" in task_id else [])
        return "test.cpp", [
            {"kind": "compile", "argv": argv, "timeout": timeout, "timeout_result": "timed out",
             "failure": "failed: compilation error: {err}"},
            {"kind": "run", "argv": ["./a.out"], "timeout": timeout, "timeout_result": "timed out", "by_status": {},
             "otherwise": "failed: {err}"},
        ]
    if language == "java":
        return "Main.java", [
            # the compiler's own JVM starts with a serial collector and the quick JIT only: the same classes,
            # sooner on a busy machine (the service allows it 5 s per attempt)
            {"kind": "compile", "argv": [tools["javac"], *_JAVAC_JVM, "Main.java"], "timeout": 5, "retries": 4,
             "timeout_result": "failed: compilation error", "failure": "failed: compilation error"},
            {"kind": "run", "argv": [tools["java"], "-cp", ".", "Main"], "timeout": timeout, "timeout_result": "time out",
             "by_status": {"1": {"needle": "AssertionError", "decode": "unicode-escape", "then": "failed: wrong answer",
                                 "else": "failed: {stderr}"}},
             "otherwise": "failed: unknown error"},
        ]
    if language == "js":
        return "test.js", [{"kind": "run", "argv": [tools["node"], "test.js"], "timeout": timeout, "timeout_result": "timed out",
                            "quiet": True}]
    if language == "go":
        return "main_test.go", [
            {"kind": "run", "argv": [tools["go"], "test", f"-timeout={timeout:g}s", "main_test.go"], "timeout": timeout,
             "timeout_result": "timed out", "by_status": {}, "otherwise": "failed: {err}"},
        ]
    raise ValueError(f"HumanEval-X: no toolchain steps for language {language!r}")


@ICL_EVALUATORS.register_module()
class HumanevalXEvaluator(BaseEvaluator):
    """HumanEval-X's pass@1 for one language, the test programs run locally as OpenCompass's evaluation service runs them.

    Inputs: ``predictions`` (replies), ``references`` (the reader's output
    column — ``declaration`` in OpenCompass's configs, whose last line is the
    function head :func:`clean_up_code` cuts at) and ``test_set`` (the
    HumanEval-X rows: ``prompt``, ``test`` and, for Go, ``import`` and
    ``test_setup``); sample ``i`` is checked against row ``i``, as the service
    reads ``<Language>/<i>``.

    Metric: ``pass@1`` (0–100, the service's key) — where rows share a
    ``task_id`` (repeated problems), the unbiased pass@k over each problem's
    samples for each ``k`` of ``k`` that every problem has.  ``outcomes``
    counts the outcomes.  Details per sample (the service returns none to
    OpenCompass): ``task_id`` (``<Language>/<i>``), ``generation``, ``result``
    (the service's text: ``passed``, ``failed: …``, ``timed out``), ``passed``,
    ``is_correct``, ``outcome`` and ``message``.

    Differences from OpenCompass 0.5.4: no service is called (``ip_address``,
    ``port`` and ``retry`` are accepted and unused); the service answers only
    when every problem of its full data set was attempted, while here the test
    set's rows are the problems; a reply is read as a string literal without
    being evaluated (see :func:`clean_up_code`); Go reads testify in GOPATH
    mode.  Rust is refused, as OpenCompass's configs leave it out.

    Time: the service gives each step 15 s (its ``-t``; Java's compiler 5 s
    an attempt) and each program 16 s in all; ``step_timeout`` is the same per
    step, and the sandbox ends a run after the steps' limits added up and 3 s
    (start-up included), so that a busy machine's slow compiler start is not
    a timeout.  Java's compiler runs with a serial collector and the quick JIT
    only (``-J-XX:+UseSerialGC -J-XX:TieredStopAtLevel=1``), which starts it
    sooner and compiles the same classes.

    Args:
        language: ``'python'``, ``'cpp'``, ``'go'``, ``'java'`` or ``'js'``.
        ip_address, port, retry: OpenCompass's service address; unused.
        timeout: OpenCompass's wait for the service; unused.
        step_timeout: seconds per step (the service's 15).
        k: the k values of pass@k for repeated problems.
        memory: address-space bytes per process (the JVM reserves much).
        max_workers, isolation: see :class:`assay.sandbox.Sandbox`.
    """

    sample_outcome = SampleOutcome(correct="is_correct", unscorable="outcome", unscorable_values=UNSCORABLE)

    def __init__(
        self,
        language: str,
        ip_address: str = "localhost",
        port: Any = "",
        retry: int = 2,
        timeout: Any = 600,
        k: int | Sequence[int] = (1, 10, 100),
        step_timeout: float = 15.0,
        memory: int = 4 * 1024**3,
        max_workers: int | None = None,
        isolation: str = "auto",
        pred_postprocessor: Any = None,
    ) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if language not in LANGUAGE_NAMES:
            raise ValueError(f"HumanevalXEvaluator: language must be one of {sorted(LANGUAGE_NAMES)}, got {language!r}")
        if language == "rust":
            raise ValueError("HumanevalXEvaluator: Rust is not supported (OpenCompass's HumanEval-X configs leave it out)")
        self.language = language
        self.ip_address, self.port, self.retry, self.service_timeout = ip_address, port, retry, timeout
        self.k = [k] if isinstance(k, int) else list(k)
        self.step_timeout = float(step_timeout)
        self.memory = int(memory)
        self.max_workers = max_workers
        self.isolation = isolation
        self._pool = SandboxPool(self.step_timeout, memory, max_workers, isolation) if language == "python" else None
        self._sandbox: Any = None

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """What a dry run says about this machine: the language's toolchain when it is missing.

        >>> HumanevalXEvaluator.dry_run_notes({'language': 'python'})
        []
        """
        language = str(cfg.get("language", ""))
        if language not in LANGUAGE_NAMES or language in ("python", "rust"):
            return []
        from assay.evaluators._toolchains import toolchain

        missing = toolchain(language).missing
        return [f"{missing}; the samples will be unscorable (outcome {MISSING_DEPENDENCY})"] if missing else []

    def _compiled_sandbox(self, roots: Sequence[str], wall: float) -> Any:
        if self._sandbox is None:
            from assay._pool import usable_cpus
            from assay.sandbox import Limits, Sandbox

            limits = Limits(timeout=wall, cpu_time=int(wall) + 1, memory=self.memory,
                            processes=512, file_size=64 * 1024**2, open_files=1024, tmpfs=256 * 1024**2)
            self._sandbox = Sandbox(limits, isolation=self.isolation,  # type: ignore[arg-type]
                                    max_workers=self.max_workers or usable_cpus(), extra_roots=roots)
        return self._sandbox

    def score(self, predictions: list[Any], references: list[Any], test_set: Any = None) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        rows = rows_of_test_set(test_set)
        if rows is None:
            return {"error": f"{name}: needs the test set (the HumanEval-X rows)"}
        if len(rows) != len(predictions):
            return {"error": f"{name}: {len(predictions)} predictions but the test set has {len(rows)} rows"}
        needed = ("prompt", "test") + (("import", "test_setup") if self.language == "go" else ())
        for i, row in enumerate(rows):
            missing = [c for c in needed if c not in row]
            if missing:
                return {"error": f"{name}: test set row {i} lacks {', '.join(missing)}"}
        lang_name = LANGUAGE_NAMES[self.language]
        ids = [f"{lang_name}/{i}" for i in range(len(predictions))]
        generations = [clean_up_code(p, self.language, r) for p, r in zip(predictions, references)]
        return self._scored(rows, ids, generations)

    def _scored(self, rows: list[dict[str, Any]], ids: list[str], generations: list[str]) -> dict[str, Any]:
        """The metrics and details of ``generations`` (sample ``i`` with id ``ids[i]``) run against ``rows``."""
        if self.language == "python":
            runs = self._run_python(rows, generations)
        else:
            runs = self._run_compiled(rows, generations, ids)
        results = [r for r, _, _ in runs]
        outcomes = [o for _, o, _ in runs]
        passed = [r == "passed" for r in results]
        groups: dict[str, list[bool]] = {}
        for row, ok in zip(rows, passed):
            groups.setdefault(str(row.get("task_id", len(groups))), []).append(ok)
        totals = [len(v) for v in groups.values()]
        corrects = [sum(v) for v in groups.values()]
        out: dict[str, Any] = {}
        for k in self.k:
            if all(t >= k for t in totals):
                out[f"pass@{k}"] = estimate_pass_at_k(totals, corrects, k) * 100
        out["outcomes"] = count_outcomes(outcomes)
        missing = sorted({m for (_, o, m) in runs if o == MISSING_DEPENDENCY})
        if missing:
            out["missing_dependencies"] = missing
        out["details"] = [
            {"task_id": tid, "generation": gen, "result": res, "passed": ok, "is_correct": ok, "outcome": outcome, "message": msg}
            for tid, gen, res, ok, (_, outcome, msg) in zip(ids, generations, results, passed, runs)
        ]
        return out

    def _run_python(self, rows: list[dict[str, Any]], generations: list[str]) -> list[tuple[str, str, str]]:
        assert self._pool is not None
        verdicts = self._pool.run(type(self).__name__, [_python_check(row, gen) for row, gen in zip(rows, generations)])
        runs = []
        for v in verdicts:
            if v.passed:
                result = "passed"
            elif v.kind == "assertion":
                result = "failed: AssertionError"
            elif v.kind in ("error", "memory"):
                result = f"failed: {v.text}"
            else:
                result = "timed out"
            runs.append((result, v.outcome, v.message))
        return runs

    def _run_compiled(self, rows: list[dict[str, Any]], generations: list[str], ids: list[str]) -> list[tuple[str, str, str]]:
        from assay.evaluators._toolchains import toolchain

        tc = toolchain(self.language)
        if tc.missing:
            logger.warning("%s: %s", type(self).__name__, tc.missing)
            return [("failed: toolchain missing", MISSING_DEPENDENCY, tc.missing) for _ in rows]
        roots = list(tc.roots) + ([tc.go_cache] if tc.go_cache else [])
        env = dict(tc.env)
        copy_tree = None
        if self.language == "go":
            env["GOCACHE"] = "{cwd}/.gocache"
            if tc.go_cache:
                copy_tree = (tc.go_cache, "{cwd}/.gocache")
        programs = []
        wall = 0.0
        for row, gen, tid in zip(rows, generations, ids):
            file_name, steps = _steps(self.language, tc.tools, tid, self.step_timeout)
            wall = max(wall, sum(float(s["timeout"]) * (1 + int(s.get("retries", 0))) for s in steps) + 3)
            programs.append(driver_program({file_name: humanevalx_program(row, gen, self.language)}, steps, env, copy_tree))
        sandbox = self._compiled_sandbox(roots, wall)
        logger.info("%s: running %d %s programs (%s isolation)", type(self).__name__, len(programs), self.language,
                    sandbox.isolation.value)
        return driver_runs(sandbox.run_many(programs), "passed", "timed out")

