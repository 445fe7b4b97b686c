"""MultiPL-E's HumanEval scored as OpenCompass 0.5.4 and its code-evaluation service score it, the programs run in the sandbox.

The fixture (``tests/data/oc_families/humaneval_multi``, written by
``scripts/make_humaneval_multi_fixtures.py``) holds two problems per language
in OpenCompass's layout and replies for them; ``expected/humaneval_multi_gen_82cf85.json``
(``scripts/record_oc_humaneval_multi.py``) holds what OpenCompass's loader read
and the archive its evaluator posted to the service: each problem's prompt,
tests and completions cut at the stop tokens.

The verdicts are checked by hand: in the ``reworded`` runs ``add`` passes and
``max_of`` fails (pass@1 50); in the ``remove`` runs (two replies per problem)
each problem has one passing reply and one failing (pass@1 50), in each of the
sixteen languages assay runs (the toolchains of some are checked where Debian's
package is installed, else the package is named).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.evaluators.humaneval_multi import HumanevalMultiEvaluator, multiple_program, stop_at_stop_token
from assay.rundir.results import read_result
from assay.sandbox import isolation_unavailable

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "humaneval_multi"
RECORD = json.loads((ROOT / "expected" / "humaneval_multi_gen_82cf85.json").read_text(encoding="utf-8"))
RUN = "20250101_000000"
MODEL = "oc-model"
_NO_SANDBOX = isolation_unavailable("namespaces")
needs_sandbox = pytest.mark.skipif(_NO_SANDBOX is not None, reason=f"no namespace sandbox: {_NO_SANDBOX}")
#: The languages whose programs run here (CI installs their toolchains; a machine without one skips its cases,
#: the Debian package named).
RUN_HERE = ("py", "js", "cpp", "sh", "go")
_TOOLS = {"py": ("python3", "python3"), "js": ("node", "nodejs"), "cpp": ("g++", "g++"), "sh": ("bash", "bash"),
          "go": ("go", "golang-go")}
_TOOLCHAIN_MISSING = {lang: "" if shutil.which(tool) else f"{lang}: {tool} not found (Debian package {package})"
                      for lang, (tool, package) in _TOOLS.items()}
RUN_HERE_CASES = [pytest.param(lang, marks=pytest.mark.skipif(bool(_TOOLCHAIN_MISSING[lang]),
                                                              reason=_TOOLCHAIN_MISSING[lang])) for lang in RUN_HERE]
#: Languages whose toolchain a machine may lack: their verdicts where it is installed, else the package named.
DEBIAN_TOOLCHAINS = {"rb": "ruby", "lua": "lua5.4", "php": "php-cli", "r": "r-base-core", "rs": "rustc", "ts": "node-typescript",
                     "cs": "mono-mcs", "d": "ldc", "rkt": "racket", "scala": "scala"}

#: (language, version) -> the hand-checked start of each sample's status.
STATUSES = {
    ("py", "remove"): ["OK", "Exception: Traceback", "OK", "Exception: Traceback"],
    ("js", "remove"): ["OK", "Exception: node:assert", "OK", "Exception: "],
    ("cpp", "remove"): ["OK", "Exception: test.out: test.cpp", "OK", "SyntaxError: test.cpp"],
    ("sh", "remove"): ["OK", "Exception: ", "OK", "Exception: "],
    ("go", "remove"): ["OK", "Exception: --- FAIL: TestAdd", "OK", "Exception: # command-line-arguments"],
    ("rb", "remove"): ["OK", "Exception: Loaded suite test", "OK", "Exception: test.rb:6: syntax error"],
    ("lua", "remove"): ["OK", "Exception: F\nFailed tests:", "OK", "Exception: "],
    ("php", "remove"): ["OK", "Exception: PHP Fatal error:  Uncaught Exception: Test failed!", "OK", "Exception: PHP Parse error"],
    ("r", "remove"): ["OK", "Exception: ", "OK", "Exception: Error in candidate(1, 7) : not done"],
    ("rs", "remove"): ["OK", "Exception: thread 'main' panicked", "OK", "SyntaxError: error: expected expression"],
    ("ts", "remove"): ["OK", "Exception: node:assert", "OK", "SyntaxError: test.ts(5,3): error TS2322"],
    ("cs", "remove"): ["OK", "Exception: Fail: ", "OK", "SyntaxError: test.cs(13,18): error CS1525"],
    ("d", "remove"): ["OK", "Exception: 1/1 modules FAILED unittests", "OK", "SyntaxError: test.d(11): Error: expression expected"],
    ("rkt", "remove"): ["OK", "Exception: --------------------\nFAILURE", "OK", "Exception: test.rkt:6:0: read-syntax"],
    ("scala", "remove"): ["OK", "Exception: java.lang.AssertionError: assertion failed", "OK", "SyntaxError: test.scala:8: error"],
}


def _runs(language: str | None = None, version: str | None = None) -> list[dict[str, Any]]:
    return [r for r in RECORD["runs"] if (language is None or r["language"] == language)
            and (version is None or r["version"] == version)]


def _replies(name: str) -> list[str]:
    preds = json.loads((ROOT / "predictions" / name).read_text(encoding="utf-8"))
    return [preds[str(i)]["prediction"] for i in range(len(preds))]


def _unwrap(value: Any) -> Any:
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def test_completions_are_those_opencompass_sends() -> None:
    """Each reply cut at the first row's stop tokens, grouped by problem as OpenCompass posts them."""
    assert len(_runs()) == 36
    for run in _runs():
        stops = run["rows"][0]["stop_tokens"]
        replies = _replies(run["predictions"])
        repeats = run["num_repeats"]
        assert run["dataset"] == f"multipl-e/{run['language']}"
        for i, sent in enumerate(run["files"]):
            got = [stop_at_stop_token(r, stops) for r in replies[i * repeats:(i + 1) * repeats]]
            assert got == sent["completions"], (run["abbr"], run["version"], i)
            row = run["rows"][i * repeats]
            assert (row["name"], row["prompt"], row["tests"]) == (sent["name"], sent["prompt"], sent["tests"])


def test_the_program_is_prompt_completion_and_tests() -> None:
    sent = _runs("cpp", "reworded")[0]["files"][0]
    program = multiple_program(sent, sent["completions"][0])
    assert program == sent["prompt"] + "    return x + y;\n" + sent["tests"]


def test_the_loader_reads_opencompass_layout_repeats_rows_and_names_a_missing_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from assay.datasets.humaneval_multi import HumanevalMultiDataset
    from assay.errors import InputFileError

    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT))
    for run in _runs():
        ds = HumanevalMultiDataset.load("./data/multi-data/humaneval_multipl-e/", language=run["language"],
                                        version=run["version"], num_repeats=run["num_repeats"])
        assert [dict(r) for r in ds] == run["rows"], (run["abbr"], run["version"])
    with pytest.raises(InputFileError, match="'verbatim'"):
        HumanevalMultiDataset.load("./data/multi-data/humaneval_multipl-e/", language="py", version="verbatim")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path))
    with pytest.raises(InputFileError, match=r"humaneval-go-reworded\.jsonl does not exist"):
        HumanevalMultiDataset.load("./data/multi-data/humaneval_multipl-e/", language="go", version="reworded")


@needs_sandbox
@pytest.mark.parametrize("language", RUN_HERE_CASES)
def test_repeated_replies_give_the_services_pass_at_1_and_statuses(language: str) -> None:
    """Two replies per problem, one right and one wrong (or not compiling, or raising): the service's mean pass@1."""
    run = _runs(language, "remove")[0]
    rows = run["rows"]
    result = HumanevalMultiEvaluator(language=language, isolation="namespaces").score(
        _replies(run["predictions"]), [r["tests"] for r in rows], rows)
    statuses = [d["status"] for d in result["details"]]
    assert result["pass@1"] == 50.0, statuses
    assert "pass@10" not in result
    for got, want in zip(statuses, STATUSES[(language, "remove")]):
        assert got.startswith(want), (language, statuses)
    assert [d["completion"] for d in result["details"]] == [c for f in run["files"] for c in f["completions"]]
    assert [d["is_correct"] for d in result["details"]] == [True, False, True, False]


@needs_sandbox
@pytest.mark.parametrize("language", sorted(DEBIAN_TOOLCHAINS))
def test_each_debian_toolchain_gives_multipl_es_verdicts_or_names_its_package(language: str) -> None:
    """One right and one wrong (or not compiling, or raising) reply per problem, run as MultiPL-E's harness runs them.

    C# passes on a silent Debug.Assert, fails on one that writes the trace listener's failure; Racket's rackunit
    fails a check on standard error with status 0; Scala fails on anything written to standard error.
    """
    from assay.evaluators.humaneval_multi import _missing

    run = _runs(language, "remove")[0]
    rows = run["rows"]
    result = HumanevalMultiEvaluator(language=language, isolation="namespaces").score(
        _replies(run["predictions"]), [r["tests"] for r in rows], rows)
    if _missing(language)[1]:
        assert result["outcomes"] == {"missing-dependency": 4}
        assert "apt-get install" in result["details"][0]["message"], result["details"][0]["message"]
        assert DEBIAN_TOOLCHAINS[language] in result["details"][0]["message"] or "gcc" in result["details"][0]["message"]
        return
    statuses = [d["status"] for d in result["details"]]
    assert result["pass@1"] == 50.0, statuses
    for got, want in zip(statuses, STATUSES[(language, "remove")]):
        assert got.startswith(want), (language, statuses)
    assert [d["is_correct"] for d in result["details"]] == [True, False, True, False]
    assert [d["completion"] for d in result["details"]] == [c for f in run["files"] for c in f["completions"]]


@needs_sandbox
def test_a_csharp_run_ending_with_a_nonzero_status_fails_though_its_standard_error_is_silent() -> None:
    """MultiPL-E's C# harness calls such a run ``OK`` beside mono's exit code; the service counts only status 0."""
    from assay.evaluators.humaneval_multi import _missing

    if _missing("cs")[1]:
        pytest.skip("no mono")
    row = _runs("cs", "remove")[0]["rows"][0]
    replies = ["        return x + y;", "        System.Environment.Exit(3);\n        return x + y;", "        return x - y;"]
    result = HumanevalMultiEvaluator(language="cs", isolation="namespaces").score(
        replies, [row["tests"]] * 3, [{**row, "name": f"p{i}"} for i in range(3)])
    statuses = [d["status"] for d in result["details"]]
    assert [d["is_correct"] for d in result["details"]] == [True, False, False], statuses
    assert statuses[0] == "OK" and statuses[1] == "Exception: exit status 3: ", statuses
    assert statuses[2].startswith("Exception: Fail: "), statuses
    assert result["pass@1"] == pytest.approx(100 / 3)


def test_a_toolchain_outside_the_sandboxs_folders_is_passed_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A per-user install first on PATH (rustup's ``~/.cargo/bin/rustc``) is passed over for Debian's, or named."""
    from assay.evaluators.humaneval_multi import _missing

    user_bin = tmp_path / "bin"
    user_bin.mkdir()
    for tool in ("rustc", "cc"):
        (user_bin / tool).write_text("#!/bin/sh\nexit 0\n")
        (user_bin / tool).chmod(0o755)
    monkeypatch.setenv("PATH", f"{user_bin}:/usr/bin:/bin")
    tools, missing = _missing("rs")
    if Path("/usr/bin/rustc").exists():
        assert missing == ""
        assert tools["rustc"].startswith("/usr/") and tools["cc"].startswith("/usr/"), tools
    else:
        assert f"{user_bin / 'rustc'} is outside the folders the sandbox shows" in missing
        assert "apt-get install rustc" in missing
    monkeypatch.setenv("PATH", str(user_bin))
    tools, missing = _missing("rs")
    assert "is outside the folders the sandbox shows" in missing and "apt-get install gcc rustc" in missing, missing


@pytest.mark.parametrize("language", ["lua", "pl", "rkt"])
def test_a_module_is_looked_for_where_the_sandbox_finds_it(language: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """This process's ``LUA_PATH``, ``PERL5LIB``, ``PLTCOLLECTS`` and working folder do not decide whether the tests'
    module is installed: the sandbox's programs run without them."""
    from assay.evaluators.humaneval_multi import _missing

    for name in ("LUA_PATH", "LUA_PATH_5_4", "LUA_INIT", "PERL5LIB", "PERL5OPT", "PLTCOLLECTS", "PLTADDONDIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    tools, missing = _missing(language)
    if missing:
        pytest.skip(missing)
    # a broken copy of each module where this process, and not the sandbox, would find it first
    (tmp_path / "luaunit.lua").write_text("error('not the luaunit the sandbox finds')\n")
    (tmp_path / "Test").mkdir()
    (tmp_path / "Test" / "Deep.pm").write_text("die 'not the Test::Deep the sandbox finds';\n")
    monkeypatch.setenv("LUA_PATH", "/nonexistent/?.lua")
    monkeypatch.setenv("PERL5LIB", str(tmp_path))
    monkeypatch.setenv("PLTCOLLECTS", str(tmp_path / "empty"))
    assert _missing(language) == (tools, "")
    monkeypatch.setenv("LUA_PATH", "./?.lua;;")  # the working folder's broken luaunit.lua first
    assert _missing(language) == (tools, "")


def test_a_module_check_that_cannot_finish_names_the_tool_and_the_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check's time-out (or a tool that cannot start) counts the module as missing; the dry run goes on."""
    from assay.evaluators import humaneval_multi

    tools, missing = humaneval_multi._missing("pl")
    if missing:
        pytest.skip(missing)
    monkeypatch.setattr(humaneval_multi, "MODULE_CHECK_SECONDS", 1e-9)
    (note,) = HumanevalMultiEvaluator.dry_run_notes({"language": "pl"})
    assert f"the Test::Deep module (checking it with {tools['perl']} failed: " in note, note
    assert "timed out" in note and "apt-get install libtest-deep-perl" in note, note


@needs_sandbox
def test_perl_runs_with_test_deep_or_names_its_package() -> None:
    run = _runs("pl", "remove")[0]
    rows = run["rows"]
    result = HumanevalMultiEvaluator(language="pl", isolation="namespaces").score(
        _replies(run["predictions"]), [r["tests"] for r in rows], rows)
    perl = shutil.which("perl")
    if perl and subprocess.run([perl, "-MTest::Deep", "-e", "1"], capture_output=True).returncode == 0:
        assert result["pass@1"] == 50.0
        assert [d["is_correct"] for d in result["details"]] == [True, False, True, False]
    else:
        assert result["outcomes"] == {"missing-dependency": 4}
        assert "apt-get install libtest-deep-perl" in result["details"][0]["message"]


@pytest.fixture
def library(oc_library: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    return oc_library


@needs_sandbox
def test_library_config_runs_unchanged(library: Path, tmp_path: Path) -> None:
    """``humaneval_multi_gen_82cf85`` unchanged: each language run in the sandbox; Julia, not run by assay, unscorable."""
    if any(_TOOLCHAIN_MISSING.values()):
        pytest.skip("; ".join(m for m in _TOOLCHAIN_MISSING.values() if m))
    languages = (*RUN_HERE, "jl")
    cfg = tmp_path / "config.py"
    cfg.write_text(
        "from mmengine.config import read_base\n\n"
        "with read_base():\n    from opencompass.configs.datasets.humaneval_multi.humaneval_multi_gen_82cf85 import "
        "humaneval_multi_datasets\n\n"
        f"datasets = [d for d in humaneval_multi_datasets if d['language'] in {list(languages)!r}]\n"
        f"models = [dict(abbr={MODEL!r}, path='org/model')]\n",
        encoding="utf-8",
    )
    predictions = tmp_path / "work" / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for lang in languages:
        shutil.copy(ROOT / "predictions" / f"humaneval_multiple-{lang}.json", predictions / f"humaneval_multiple-{lang}.json")
    assert main(["eval", str(cfg), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1"]) == 0
    results = tmp_path / "work" / RUN / "results" / MODEL
    for lang in RUN_HERE:
        run = _runs(lang, "reworded")[0]
        result = read_result(results / f"{run['abbr']}.json")
        assert "error" not in result, (lang, result.get("error"))
        details = [{k: _unwrap(v) for k, v in d.items()} for d in result["details"]]
        assert result["pass@1"] == 50.0, (lang, [d["status"][:200] for d in details])
        assert [d["completion"] for d in details] == [f["completions"][0] for f in run["files"]]
        assert [d["status"] == "OK" for d in details] == [True, False]
    julia = read_result(results / "humaneval_multiple-jl.json")
    assert julia["pass@1"] == 0.0
    assert julia["outcomes"] == {"unsupported-language": 2}
    assert "Debian packages no Julia toolchain" in _unwrap(julia["details"][0]["message"])


def test_unknown_languages_are_refused() -> None:
    with pytest.raises(ValueError, match="'kotlin'"):
        HumanevalMultiEvaluator(language="kotlin")


def test_the_dry_run_names_a_missing_toolchain_and_a_language_not_run(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from assay.config import load_config
    from assay.tasks.plan import check_plan

    cfg = tmp_path / "config.py"
    cfg.write_text(
        "from mmengine.config import read_base\n\n"
        "with read_base():\n    from opencompass.configs.datasets.humaneval_multi.humaneval_multi_gen_82cf85 import "
        "humaneval_multi_datasets\n\n"
        "datasets = humaneval_multi_datasets\nmodels = [dict(abbr='m', path='org/model')]\n",
        encoding="utf-8",
    )
    hidden = tmp_path / "bin"
    hidden.mkdir()
    monkeypatch.setenv("PATH", str(hidden))
    checks = {c.dataset: c for c in check_plan(load_config(cfg))}
    assert len(checks) == 19
    assert any("apt-get install g++" in n for n in checks["humaneval_multiple-cpp"].notes)
    assert any("apt-get install nodejs" in n for n in checks["humaneval_multiple-js"].notes)
    assert any("does not run MultiPL-E's 'jl' programs (Debian packages no Julia toolchain)" in n
               for n in checks["humaneval_multiple-jl"].notes)
    assert any("does not run MultiPL-E's 'swift' programs" in n for n in checks["humaneval_multiple-swift"].notes)
    assert any("apt-get install ruby" in n for n in checks["humaneval_multiple-rb"].notes)
    assert any("apt-get install lua5.4" in n for n in checks["humaneval_multiple-lua"].notes)
    assert any("apt-get install mono-mcs mono-runtime" in n for n in checks["humaneval_multiple-cs"].notes)
    assert not any("apt-get" in n for n in checks["humaneval_multiple-py"].notes)


@needs_sandbox
def test_a_perl_run_that_writes_error_fails_even_with_status_0() -> None:
    """MultiPL-E's Perl harness: status 0 and no ``ERROR`` on either stream (tests without Test::Deep, so Perl alone runs them)."""
    row = {"name": "HumanEval_0_add", "prompt": "sub add {\n    my($x, $y) = @_;\n",
           "tests": "if (add(1, 2) != 3) { exit 1; }\nprint \"ok\\n\";\n", "stop_tokens": ["\nsub", "\n#", "\n\n"]}
    replies = ["    return $x + $y;\n}", "    print STDERR \"ERROR: noisy\\n\";\n    return $x + $y;\n}", "    return $x - $y;\n}"]
    result = HumanevalMultiEvaluator(language="pl", isolation="namespaces").score(
        replies, [row["tests"]] * 3, [{**row, "name": f"p{i}"} for i in range(3)])
    statuses = [d["status"] for d in result["details"]]
    assert statuses[0] == "OK", statuses
    assert statuses[1].startswith("Exception: ERROR: noisy"), statuses
    assert statuses[2].startswith("Exception"), statuses
    assert result["pass@1"] == (1.0 + 0.0 + 0.0) / 3 * 100  # the service: the mean of the per-problem pass@1, times 100


@needs_sandbox
def test_java_runs_with_javatuples_or_names_its_package() -> None:
    """Java's programs import javatuples: with Debian's jar, the service's verdicts; without it, the package named."""
    from assay.evaluators.humaneval_multi import JAVATUPLES

    if not shutil.which("javac"):
        pytest.skip("no JDK")
    run = _runs("java", "remove")[0]
    rows = run["rows"]
    result = HumanevalMultiEvaluator(language="java", isolation="namespaces").score(
        _replies(run["predictions"]), [r["tests"] for r in rows], rows)
    if any(Path(p).is_file() for p in JAVATUPLES):
        statuses = [d["status"] for d in result["details"]]
        assert result["pass@1"] == 50.0, statuses
        assert statuses[0] == "OK" and statuses[2] == "OK", statuses
        assert "java.lang.AssertionError" in statuses[1], statuses
        # javatuples is on the class path: the reply's Pair is a type error, not a missing package
        assert statuses[3].startswith("SyntaxError: Problem.java") and "incompatible types" in statuses[3], statuses
    else:
        assert result["outcomes"] == {"missing-dependency": 4}
        assert "apt-get install libjavatuples-java" in result["details"][0]["message"]
