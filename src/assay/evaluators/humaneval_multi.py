"""MultiPL-E's HumanEval: ``HumanevalMultiEvaluator``, as OpenCompass 0.5.4 and its code-evaluation service score it.

OpenCompass cuts each reply at the first of the problem set's stop tokens
(the first row's ``stop_tokens``, :func:`stop_at_stop_token`), packs each
problem's ``prompt``, ``tests`` and cut completions into a file and posts the
files to a code-evaluation service.  The service runs MultiPL-E's harness on
each completion: the program is ``prompt + completion + "\\n" + tests``
(:func:`multiple_program`), run with the language's toolchain; a completion
passes when its run ends with status 0 (for some languages, with more conditions, below).  assay runs the same programs itself,
each in :mod:`assay.sandbox` (no network, its own uid, resource limits):

* ``py``: the sandbox's Python runs ``test.py``;
* ``js``: ``node test.js``;
* ``cpp``: ``g++ test.cpp -o test.out -std=c++17``, then ``./test.out``
  (a compiler error is ``SyntaxError``);
* ``sh``: ``bash test.sh``;
* ``go``: ``go test main_test.go`` (30 s; GOPATH mode, no network): status 0
  and neither ``FAIL`` nor ``[build failed]``/``[setup failed]`` on standard
  output passes;
* ``java``: ``javac -encoding UTF8 -d classes Problem.java`` (a compiler
  error is ``SyntaxError``), then ``java -ea -cp classes:<javatuples> Problem``,
  with the javatuples jar the prompts import (Debian's ``libjavatuples-java``);
* ``pl``: ``perl test.pl`` (the tests use ``Test::Deep``); a run that writes
  ``ERROR`` on standard output or error fails even with status 0, as
  MultiPL-E's Perl harness decides;
* ``rb``: ``ruby test.rb``; ``lua``: ``lua test.lua`` (the tests use
  luaunit); ``php``: ``php test.php``; ``r``: ``Rscript test.r``;
* ``rs``: ``rustc test.rs -o test`` (the linker named by its path), then ``./test``;
* ``ts``: ``tsc --target esnext test.ts`` (60 s: the compiler alone takes
  seconds to start), then ``node test.js``;
* ``cs``: ``mcs -d:DEBUG -r:System.Numerics.dll test.cs -out:test.exe``
  (Debian's mono compiler; MultiPL-E calls Roslyn's ``csc`` with the same
  options), then ``mono test.exe`` with ``MONO_TRACE_LISTENER=Console.Error``:
  the run passes with status 0 and a standard error holding neither
  ``System.Diagnostics.DefaultTraceListener.Fail`` (a failed ``Debug.Assert``,
  which leaves the status 0) nor ``Unhandled Exception`` (MultiPL-E's harness
  calls a run with another status ``OK`` but reports the status, and the
  service counts the sample only when that status is 0 too);
* ``d``: ``ldc2 -unittest --main test.d -of=test`` (LDC; MultiPL-E calls
  ``rdmd -unittest -main`` with DMD, which Debian does not package), then ``./test``;
* ``rkt``: ``racket test.rkt``: status 0 and a silent standard error pass
  (rackunit reports a failed check there and ends with status 0);
* ``scala``: ``scalac -d . test.scala`` (45 s), then ``scala -cp . Problem``:
  status 0 and a silent standard error pass.

A compiler's error is ``SyntaxError``.  Each tool is the first on ``PATH``
whose copy lies in a folder the sandbox shows (``/usr``, ``/bin``, ``/lib``):
a per-user install (rustup's ``~/.cargo/bin``) is passed over.  What a
toolchain reads under ``/etc`` is shown read-only (R's configuration and
``/etc/alternatives``, where Debian's BLAS is chosen; mono's and PHP's
configuration; the JDK's for Java and Scala); LDC's configuration is copied
beside the program.

Julia and Swift, which Debian does not package, are not run: their samples are
unscorable (``outcome`` ``unsupported-language``), and a missing toolchain
makes its language's samples unscorable (``outcome`` ``missing-dependency``,
the Debian package to install in the message); other languages are scored as
usual.  A module the tests use (Perl's ``Test::Deep``, luaunit, rackunit) is
looked for as a program in the sandbox finds it: with the sandbox's environment
(not this process's ``LUA_PATH``, ``PERL5LIB``, ``PLTCOLLECTS`` …), in an empty
folder; a check that fails to run counts the module as missing and says why.
"""

from __future__ import annotations

import logging
import os
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from typing import Any

from assay.evaluate.base import SANDBOX_UNSCORABLE, BaseEvaluator, SampleOutcome
from assay.evaluators._code_exec import count_outcomes
from assay.evaluators._common import check_batch
from assay.evaluators._compiled_driver import driver_program, driver_runs, rows_of_test_set
from assay.evaluators._toolchains import which_shown
from assay.evaluators.code import estimate_pass_at_k
from assay.registry import ICL_EVALUATORS

logger = logging.getLogger(__name__)

__all__ = ["HumanevalMultiEvaluator", "multiple_program", "stop_at_stop_token"]

#: The outcome of a language whose toolchain is not installed, and of one assay does not run.
MISSING_DEPENDENCY = "missing-dependency"
UNSUPPORTED = "unsupported-language"
UNSCORABLE = {**SANDBOX_UNSCORABLE, MISSING_DEPENDENCY: "not_executed", UNSUPPORTED: "not_executed"}

#: The languages assay runs: language → (the file name, the tools and their Debian packages).
RUNNABLE: Mapping[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "py": ("test.py", ()),
    "js": ("test.js", (("node", "nodejs"),)),
    "cpp": ("test.cpp", (("g++", "g++"),)),
    "sh": ("test.sh", (("bash", "bash"),)),
    "pl": ("test.pl", (("perl", "perl"),)),
    "go": ("main_test.go", (("go", "golang-go"),)),
    "java": ("Problem.java", (("javac", "default-jdk-headless"), ("java", "default-jdk-headless"))),
    "rb": ("test.rb", (("ruby", "ruby"),)),
    "lua": ("test.lua", (("lua", "lua5.4"),)),
    "php": ("test.php", (("php", "php-cli"),)),
    "r": ("test.r", (("Rscript", "r-base-core"),)),
    "rs": ("test.rs", (("rustc", "rustc"), ("cc", "gcc"))),
    "ts": ("test.ts", (("tsc", "node-typescript"), ("node", "nodejs"))),
    "cs": ("test.cs", (("mcs", "mono-mcs"), ("mono", "mono-runtime"))),
    "d": ("test.d", (("ldc2", "ldc"), ("cc", "gcc"))),
    "rkt": ("test.rkt", (("racket", "racket"),)),
    "scala": ("test.scala", (("scalac", "scala"), ("scala", "scala"), ("java", "default-jdk-headless"))),
}
#: Languages of the library's config whose toolchain Debian does not package: not run.
NOT_PACKAGED = {"jl": "Julia", "swift": "Swift"}
#: Where the javatuples library MultiPL-E's Java prompts import is looked for (Debian's, then the service's).
JAVATUPLES = ("/usr/share/java/javatuples.jar", "/usr/multiple/javatuples-1.2.jar")
#: Go's environment: GOPATH mode, nothing fetched, the build cache in the run's folder.
GO_ENV = {"GO111MODULE": "off", "GOPATH": "/usr/share/gocode", "GOFLAGS": "", "GOTOOLCHAIN": "local", "GOPROXY": "off",
          "GOCACHE": "{cwd}/.gocache"}
#: Modules MultiPL-E's tests use (language → (module, the check's argv after the tool, Debian package)), checked
#: when a program uses them.
MODULES: Mapping[str, tuple[tuple[str, str, tuple[str, ...], str], ...]] = {
    "pl": (("Test::Deep", "use Test::Deep", ("-MTest::Deep", "-e", "1"), "libtest-deep-perl"),),
    "lua": (("luaunit", "require('luaunit')", ("-e", "require('luaunit')"), "lua-unit"),),
    "rkt": (("rackunit", "rackunit", ("-l", "racket/base", "-l", "rackunit", "-e", "1"), "racket"),),
}
#: Seconds the check for one of :data:`MODULES` may take.
MODULE_CHECK_SECONDS = 60.0
#: Configuration folders outside ``/usr`` a toolchain reads (shown to the sandbox read-only when they exist).
CONFIG_ROOTS: Mapping[str, tuple[str, ...]] = {"r": ("/etc/R", "/etc/alternatives"), "cs": ("/etc/mono",), "php": ("/etc/php",),
                                               "rkt": ("/etc/racket",)}


def stop_at_stop_token(text: Any, stop_tokens: Sequence[str]) -> str:
    """``text`` up to the earliest occurrence of any of ``stop_tokens`` (all of it when none occurs).

    Example:
        >>> stop_at_stop_token('    return x\\n\\ndef g():\\n', ['\\ndef', '\\nclass'])
        '    return x\\n'
    """
    text = "" if text is None else str(text)
    end = len(text)
    for token in stop_tokens:
        found = text.find(token)
        if found != -1 and found < end:
            end = found
    return text[:end]


def multiple_program(problem: Mapping[str, Any], completion: str) -> str:
    """The program MultiPL-E's harness runs for one completion of ``problem``: prompt, completion, a newline, tests.

    Example:
        >>> multiple_program({'prompt': 'def f(x):\\n', 'tests': 'assert f(1) == 2\\n'}, '    return x + 1')
        'def f(x):\\n    return x + 1\\nassert f(1) == 2\\n'
    """
    return str(problem.get("prompt") or "") + completion + "\n" + str(problem.get("tests") or "")


def _javatuples(given: str | None) -> str:
    """The javatuples jar: ``given`` when set, else the first of :data:`JAVATUPLES` that exists ('' when none)."""
    if given:
        return os.path.realpath(given) if os.path.isfile(given) else ""
    return next((os.path.realpath(p) for p in JAVATUPLES if os.path.isfile(p)), "")


def _module_check(tool: str, argv: Sequence[str]) -> str | None:
    """``None`` when ``tool`` runs ``argv`` with status 0 as the sandbox would run it, else what went wrong ('' for a
    non-zero status).

    The check runs with the sandbox's environment (its ``PATH``, ``LANG``, an empty ``HOME``; nothing of this
    process's, such as ``LUA_PATH``, ``PERL5LIB`` or ``PLTCOLLECTS``) in an empty folder, so that it finds a module
    where a program in the sandbox finds it.
    """
    from assay.sandbox import program_environment

    with tempfile.TemporaryDirectory(prefix="assay-module-check-") as empty:
        try:
            done = subprocess.run([tool, *argv], capture_output=True, timeout=MODULE_CHECK_SECONDS, cwd=empty,
                                  env=program_environment(empty), stdin=subprocess.DEVNULL, check=False)
        except (OSError, subprocess.SubprocessError) as exc:
            return f" (checking it with {tool} failed: {exc})"
    return None if done.returncode == 0 else ""


def _missing(language: str, programs: Sequence[str] = (), javatuples: str | None = None) -> tuple[dict[str, str], str]:
    """The resolved tools of ``language``, or a message naming what is missing and the Debian package to install.

    A tool counts when a copy on ``PATH`` resolves into a folder the sandbox shows (``/usr``, ``/bin``, ``/lib``);
    a per-user install (rustup's ``~/.cargo/bin``) is passed over for the next one.  The modules of
    :data:`MODULES` count when one of ``programs`` uses them (MultiPL-E's tests all do); with no programs given,
    they always count.  A module is looked for as a program in the sandbox looks for it (:func:`_module_check`);
    a check that cannot run or does not finish within :data:`MODULE_CHECK_SECONDS` counts the module as missing,
    the tool and the error named.
    """
    tools: dict[str, str] = {}
    absent: list[tuple[str, str]] = []
    for tool, package in RUNNABLE[language][1]:
        found, elsewhere = which_shown(tool)
        if found is None:
            absent.append((tool if elsewhere is None else f"{tool} ({elsewhere} is outside the folders the sandbox shows)",
                           package))
        else:
            tools[tool] = found
    if not absent:
        for module, use, argv, package in MODULES.get(language, ()):
            if programs and not any(use in p for p in programs):
                continue
            failure = _module_check(tools[RUNNABLE[language][1][0][0]], argv)
            if failure is not None:
                absent.append((f"the {module} module{failure}", package))
    if language == "java" and not absent:
        jar = _javatuples(javatuples)
        if jar:
            tools["javatuples"] = jar
        else:
            absent.append((f"the javatuples jar ({javatuples or ' or '.join(JAVATUPLES)})", "libjavatuples-java"))
    if absent:
        names = ", ".join(f"{tool} (Debian package {package})" for tool, package in absent)
        return tools, f"{language}: {names} not found; install it (apt-get install {' '.join(sorted({p for _, p in absent}))})"
    return tools, ""


def _not_run(language: str) -> str:
    """Why ``language``'s programs are not run."""
    why = f" (Debian packages no {NOT_PACKAGED[language]} toolchain)" if language in NOT_PACKAGED else ""
    return f"{language}: assay does not run MultiPL-E's {language!r} programs{why}"


def _ldc2_conf(ldc2: str) -> str:
    """LDC's configuration file (the first of ``<ldc2's folder>/ldc2.conf``, ``<its parent>/etc/ldc2.conf``,
    ``/etc/ldc2.conf``), or ``''`` when there is none."""
    folder = os.path.dirname(ldc2)
    for candidate in (os.path.join(folder, "ldc2.conf"), os.path.join(os.path.dirname(folder), "etc", "ldc2.conf"),
                      "/etc/ldc2.conf"):
        if os.path.isfile(candidate):
            with open(candidate, encoding="utf-8") as f:
                return f.read()
    return ""


def _steps(language: str, tools: Mapping[str, str], python: str, timeout: float) -> list[dict[str, Any]]:
    def run(argv: list[str]) -> dict[str, Any]:
        return {"kind": "run", "argv": argv, "timeout": timeout, "timeout_result": "Timeout", "by_status": {},
                "otherwise": "Exception: {err}"}

    def compile_(argv: list[str]) -> dict[str, Any]:
        return {"kind": "compile", "argv": argv, "timeout": timeout, "timeout_result": "Timeout", "failure": "SyntaxError: {err}"}

    if language == "py":
        return [run([python, "test.py"])]
    if language == "js":
        return [run([tools["node"], "test.js"])]
    if language == "sh":
        return [run([tools["bash"], "test.sh"])]
    if language == "pl":
        # MultiPL-E's Perl harness also fails a run that writes ERROR on either stream
        return [{**run([tools["perl"], "test.pl"]), "fail_on": ["ERROR"], "fail_on_result": "Exception: {err}"}]
    if language == "go":
        # MultiPL-E's Go harness: 30 s; a build or setup failure, or FAIL on standard output, fails the run
        return [{"kind": "run", "argv": [tools["go"], "test", "main_test.go"], "timeout": 2 * timeout, "timeout_result": "Timeout",
                 "by_status": {}, "otherwise": "Exception: {err}", "fail_on_stdout": ["[setup failed]", "[build failed]", "FAIL"],
                 "fail_on_result": "Exception: {err}"}]
    if language == "java":
        return [compile_([tools["javac"], "-encoding", "UTF8", "-d", "classes", "Problem.java"]),
                run([tools["java"], "-ea", "-cp", "classes:" + tools["javatuples"], "Problem"])]
    if language == "cpp":
        return [compile_([tools["g++"], "test.cpp", "-o", "test.out", "-std=c++17"]), run(["./test.out"])]
    if language == "rb":
        return [run([tools["ruby"], "test.rb"])]
    if language == "lua":
        return [run([tools["lua"], "test.lua"])]
    if language == "php":
        return [run([tools["php"], "test.php"])]
    if language == "r":
        return [run([tools["Rscript"], "test.r"])]
    if language == "rs":
        # the linker named by its resolved path: Debian's cc is reached through /etc/alternatives, which the sandbox hides
        return [compile_([tools["rustc"], "test.rs", "-o", "test", "-C", f"linker={tools['cc']}"]), run(["./test"])]
    if language == "ts":
        # Node's TypeScript compiler alone takes seconds to start: four times the step's time
        return [{**compile_([tools["tsc"], "--target", "esnext", "test.ts"]), "timeout": 4 * timeout}, run([tools["node"], "test.js"])]
    if language == "cs":
        # MultiPL-E's C# harness calls a run OK when standard error holds neither a failed Debug.Assert (written
        # there with MONO_TRACE_LISTENER=Console.Error) nor an unhandled exception, and reports mono's exit code
        # beside it; the service counts a sample only when both are fine: status 0 and neither text
        return [compile_([tools["mcs"], "-d:DEBUG", "-r:System.Numerics.dll", "test.cs", "-out:test.exe"]),
                {**run([tools["mono"], "test.exe"]), "otherwise": "Exception: exit status {status}: {err}",
                 "fail_on_stderr": ["System.Diagnostics.DefaultTraceListener.Fail", "Unhandled Exception"],
                 "fail_on_result": "Exception: {err}"}]
    if language == "d":
        # rdmd -unittest -main, as MultiPL-E runs it: compiled with the unit tests and an empty main, then run
        # (LDC's configuration, under /etc, is copied beside the program; the linker named by its resolved path)
        return [compile_([tools["ldc2"], "-conf=ldc2.conf", f"--gcc={tools['cc']}", "-unittest", "--main", "test.d",
                          "-of=test"]), run(["./test"])]
    if language == "scala":
        # MultiPL-E's Scala harness: scalac 45 s; the run passes with status 0 and a silent standard error
        return [{**compile_([tools["scalac"], "-d", ".", "test.scala"]), "timeout": 3 * timeout},
                {**run([tools["scala"], "-cp", ".", "Problem"]), "stderr_empty": True, "fail_on_result": "Exception: {err}"}]
    if language == "rkt":
        # rackunit reports a failed check on standard error and ends with status 0: status 0 and a silent
        # standard error pass
        return [{**run([tools["racket"], "test.rkt"]), "stderr_empty": True, "fail_on_result": "Exception: {err}"}]
    raise ValueError(f"HumanevalMultiEvaluator: no steps for language {language!r}")


@ICL_EVALUATORS.register_module()
class HumanevalMultiEvaluator(BaseEvaluator):
    """MultiPL-E HumanEval's pass@k for one language, the programs run locally as OpenCompass's service runs them.

    Inputs: ``predictions`` (replies), ``references`` (the reader's output
    column, ``tests``; unused) and ``test_set`` (the MultiPL-E rows: ``name``,
    ``prompt``, ``tests``, ``stop_tokens``).  As OpenCompass: the stop tokens
    are the first row's, for every reply; the problems are the rows with a
    distinct ``name``, in order, and the repeats are ``len(rows) //
    problems``, problem ``i`` taking replies ``i*repeats`` to
    ``(i+1)*repeats`` (repeated rows are consecutive, as the loader writes
    them).

    Metrics (the service's, 0–100): ``pass@1`` — the mean over problems of the
    unbiased pass@1 — and ``pass@10``/``pass@100`` when there are at least 10/100
    repeats.  ``outcomes`` counts the outcomes.  Details per sample (the
    service returns none to OpenCompass): ``name``, ``completion`` (the cut
    reply), ``status`` (MultiPL-E's: ``OK``, ``SyntaxError: …``,
    ``Exception: …``, ``Timeout``), ``is_correct``, ``outcome`` and ``message``.

    Differences from OpenCompass 0.5.4: no service is called (``ip_address``,
    ``port``, ``retry`` and ``timeout`` are accepted and unused); only the
    languages listed in the module's docstring are run (with Debian's
    toolchains, which differ from the service's in the places it names), the
    others' samples are unscorable and counted as not executed; MultiPL-E's harness reads at most
    2 KB of each output stream, assay reads all of it (an ``ERROR`` or ``FAIL``
    past the first 2 KB fails the run here only); rows that are not a whole
    number of repeats of the problems are an error (OpenCompass truncates).

    Args:
        language: MultiPL-E's language key (``'py'``, ``'js'``, ``'cpp'``, …).
        ip_address, port, retry, timeout: OpenCompass's service address; unused.
        step_timeout: seconds per step (MultiPL-E's 15).
        memory: address-space bytes per process (the JVM reserves much).
        max_workers, isolation: see :class:`assay.sandbox.Sandbox`.
        javatuples: the javatuples jar for Java (default: Debian's
            ``/usr/share/java/javatuples.jar``, else the service's
            ``/usr/multiple/javatuples-1.2.jar``); not under ``/tmp``, which
            the sandbox replaces.
    """

    sample_outcome = SampleOutcome(correct="is_correct", unscorable="outcome", unscorable_values=UNSCORABLE)

    def __init__(
        self,
        language: str,
        ip_address: str = "localhost",
        port: Any = 5000,
        retry: int = 2,
        timeout: Any = 600,
        step_timeout: float = 15.0,
        memory: int = 4 * 1024**3,
        max_workers: int | None = None,
        isolation: str = "auto",
        javatuples: str | None = None,
        pred_postprocessor: Any = None,
    ) -> None:
        from assay.datasets.humaneval_multi import HUMANEVAL_MULTI_LANGUAGES

        super().__init__(pred_postprocessor=pred_postprocessor)
        if language not in HUMANEVAL_MULTI_LANGUAGES:
            raise ValueError(f"HumanevalMultiEvaluator: language must be one of {list(HUMANEVAL_MULTI_LANGUAGES)}, got {language!r}")
        self.language = language
        self.ip_address, self.port, self.retry, self.service_timeout = ip_address, port, retry, timeout
        self.step_timeout = float(step_timeout)
        self.memory = int(memory)
        self.max_workers = max_workers
        self.isolation = isolation
        self.javatuples = javatuples
        self._sandbox: Any = None

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """What a dry run says about this machine: a language assay does not run, or its missing toolchain.

        >>> HumanevalMultiEvaluator.dry_run_notes({'language': 'py'})
        []
        """
        language = str(cfg.get("language", ""))
        if language not in RUNNABLE:
            return [f"{_not_run(language)}; the samples will be unscorable (outcome {UNSUPPORTED})"]
        missing = _missing(language, (), cfg.get("javatuples"))[1]
        return [f"{missing}; the samples will be unscorable (outcome {MISSING_DEPENDENCY})"] if missing else []

    def score(self, predictions: list[Any], references: list[Any], test_set: Any = None) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        rows = rows_of_test_set(test_set)
        if rows is None:
            return {"error": f"{name}: needs the test set (the MultiPL-E rows)"}
        if len(rows) != len(predictions):
            return {"error": f"{name}: {len(predictions)} predictions but the test set has {len(rows)} rows"}
        for i, row in enumerate(rows):
            missing = [c for c in ("name", "prompt", "tests", "stop_tokens") if c not in row]
            if missing:
                return {"error": f"{name}: test set row {i} lacks {', '.join(missing)}"}
        if not rows:
            return {"error": f"{name}: the test set has no rows"}
        stop_tokens = [str(t) for t in (rows[0]["stop_tokens"] or [])]
        problems: list[dict[str, Any]] = []
        seen: set[str] = set()
        for row in rows:
            if str(row["name"]) not in seen:
                seen.add(str(row["name"]))
                problems.append(row)
        repeats = len(rows) // len(problems)
        if repeats * len(problems) != len(rows):
            return {"error": f"{name}: {len(rows)} rows are not a whole number of repeats of {len(problems)} problems"}
        samples = [(problem, stop_at_stop_token(predictions[i * repeats + j], stop_tokens))
                   for i, problem in enumerate(problems) for j in range(repeats)]
        runs = self._run(samples)
        passed = [status == "OK" for status, _, _ in runs]
        totals = [repeats] * len(problems)
        corrects = [sum(passed[i * repeats:(i + 1) * repeats]) for i in range(len(problems))]
        out: dict[str, Any] = {"pass@1": estimate_pass_at_k(totals, corrects, 1) * 100}
        for k in (10, 100):
            if repeats >= k:
                out[f"pass@{k}"] = estimate_pass_at_k(totals, corrects, k) * 100
        out["outcomes"] = count_outcomes(o for _, o, _ in runs)
        missing = sorted({m for (_, o, m) in runs if o in (MISSING_DEPENDENCY, UNSUPPORTED)})
        if missing:
            out["missing_dependencies"] = missing
        out["details"] = [
            {"name": str(problem["name"]), "completion": completion, "status": status, "is_correct": ok, "outcome": outcome,
             "message": message}
            for (problem, completion), (status, outcome, message), ok in zip(samples, runs, passed)
        ]
        return out

    def _run(self, samples: list[tuple[dict[str, Any], str]]) -> list[tuple[str, str, str]]:
        return self._run_programs([multiple_program(problem, completion) for problem, completion in samples])

    def _language_steps(self, tools: Mapping[str, str], python: str) -> list[dict[str, Any]]:
        """The driver's steps for :attr:`language` (:func:`_steps`): how a program is compiled and run, and judged."""
        return _steps(self.language, tools, python, self.step_timeout)

    def _run_programs(self, sources: list[str]) -> list[tuple[str, str, str]]:
        """Run each of ``sources`` (a whole program of :attr:`language`) in the sandbox as MultiPL-E's harness runs
        it; each run's (status, outcome, message)."""
        name = type(self).__name__
        if self.language not in RUNNABLE:
            message = _not_run(self.language)
            logger.warning("%s: %s", name, message)
            return [("not run", UNSUPPORTED, message) for _ in sources]
        tools, missing = _missing(self.language, sources, self.javatuples)
        if missing:
            logger.warning("%s: %s", name, missing)
            return [("not run", MISSING_DEPENDENCY, missing) for _ in sources]
        from assay._pool import usable_cpus
        from assay.sandbox import Limits, Sandbox, sandbox_python

        python = sandbox_python()
        file_name = RUNNABLE[self.language][0]
        steps = self._language_steps(tools, python)
        wall = sum(float(s["timeout"]) for s in steps) + 3
        env: dict[str, str] = {}
        copy_tree = None
        roots: list[str] = []
        if self.language == "go":
            from assay.evaluators._toolchains import toolchain

            env = dict(GO_ENV)
            warm = toolchain("go").go_cache  # standard packages compiled once, when Debian's testify is there to build it
            if warm:
                copy_tree, roots = (warm, "{cwd}/.gocache"), [warm]
        if self.language == "cs":
            env = {"MONO_TRACE_LISTENER": "Console.Error"}
        roots += [r for r in CONFIG_ROOTS.get(self.language, ()) if os.path.isdir(r)]
        if self.language == "scala":
            from pathlib import Path

            from assay.evaluators._toolchains import java_config_roots

            env = {"JAVACMD": tools["java"]}  # Scala's scripts call java by name, through /etc/alternatives otherwise
            roots += java_config_roots(Path(tools["java"]).parent.parent)
        if self.language == "java":
            from assay.evaluators._toolchains import toolchain

            env = {"CLASSPATH": tools["javatuples"]}
            roots += list(toolchain("java").roots)
            if not tools["javatuples"].startswith("/usr/"):
                roots.append(os.path.dirname(tools["javatuples"]))
        extra_files: dict[str, str] = {}
        if self.language == "d":
            extra_files["ldc2.conf"] = _ldc2_conf(tools["ldc2"])
        programs = [driver_program({**extra_files, file_name: source}, steps, env, copy_tree) for source in sources]
        if self._sandbox is None:
            limits = Limits(timeout=wall, cpu_time=int(wall) + 1, memory=self.memory,
                            processes=256, file_size=64 * 1024**2, open_files=1024, tmpfs=256 * 1024**2)
            try:
                self._sandbox = Sandbox(limits, isolation=self.isolation,  # type: ignore[arg-type]
                                        max_workers=self.max_workers or usable_cpus(), extra_roots=roots)
            except ValueError as exc:  # a folder the sandbox cannot show (the javatuples jar under /tmp)
                return [("not run", MISSING_DEPENDENCY, f"{self.language}: {exc}") for _ in sources]
        logger.info("%s: running %d %s programs (%s isolation)", name, len(programs), self.language,
                    self._sandbox.isolation.value)
        return driver_runs(self._sandbox.run_many(programs), "OK", "Timeout")

