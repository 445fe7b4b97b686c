"""HumanEval-X scored as OpenCompass 0.5.4 and its code-evaluation service score it, the programs run in the sandbox.

The fixture (``tests/data/oc_families/humanevalx``, written by
``scripts/make_humanevalx_fixtures.py``) holds four problems per language in
OpenCompass's layout and a reply for each: a correct solution in a fenced
block with prose, a correct bare body, a wrong answer, a program that does not
compile (Python: one that raises).  ``expected/<config>.json``
(``scripts/record_oc_humanevalx.py``) holds, for each library config, what
OpenCompass's loader read and the file its evaluator would post to the
service: each sample's task id and cleaned generation.

The verdicts are checked by hand: rows 0 and 1 pass, rows 2 and 3 fail, in
every language, with the service's result texts.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.evaluators.humanevalx import HumanevalXEvaluator, clean_up_code, humanevalx_program
from assay.rundir.results import read_result
from assay.sandbox import isolation_unavailable

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "humanevalx"
EXPECTED = ROOT / "expected"
RUN = "20250101_000000"
MODEL = "oc-model"
LANGUAGES = ("python", "cpp", "go", "java", "js")
_NO_SANDBOX = isolation_unavailable("namespaces")
needs_sandbox = pytest.mark.skipif(_NO_SANDBOX is not None, reason=f"no namespace sandbox: {_NO_SANDBOX}")

#: language -> the hand-checked start of each row's result text.
RESULTS = {
    "python": ["passed", "passed", "failed: AssertionError", "failed: name 'ceil' is not defined"],
    "cpp": ["passed", "passed", "failed: a.out: test.cpp:", "failed: compilation error: test.cpp:"],
    "go": ["passed", "passed", "failed: --- FAIL: TestAdd", "failed: # command-line-arguments"],
    "java": ["passed", "passed", "failed: wrong answer", "failed: compilation error"],
    "js": ["passed", "passed", "failed: Assertion failed", "failed: Assertion failed"],
}


def _unwrap(value: Any) -> Any:
    """A detail field as the evaluator wrote it (the run writes one value per run, a list)."""
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def _records() -> list[Any]:
    return [pytest.param(p.stem, id=p.stem) for p in sorted(EXPECTED.glob("*.json"))]


def _record(config: str) -> dict[str, Any]:
    return json.loads((EXPECTED / f"{config}.json").read_text(encoding="utf-8"))


def _replies(abbr: str) -> list[str]:
    preds = json.loads((ROOT / "predictions" / f"{abbr}.json").read_text(encoding="utf-8"))
    return [preds[str(i)]["prediction"] for i in range(len(preds))]


@pytest.mark.parametrize("config", _records())
def test_generations_are_those_opencompass_sends(config: str) -> None:
    """Each reply cleaned as OpenCompass cleans it before posting, against the config's reference column."""
    record = _record(config)
    assert len(record["datasets"]) == 5
    for abbr, entry in record["datasets"].items():
        refs = [row[entry["output_column"]] for row in entry["rows"]]
        got = [clean_up_code(reply, entry["language"], ref) for reply, ref in zip(_replies(abbr), refs)]
        assert got == [s["generation"] for s in entry["sent"]], (config, abbr)


def test_a_reply_spelled_as_a_string_literal_is_read_as_its_string() -> None:
    reply = repr("```python\n    return x + y\n```")
    assert clean_up_code(reply, "python", "def add(x, y):\n") == "    return x + y\n"
    # an expression that is not a literal is not evaluated
    assert clean_up_code("'    return 1' + ''", "python", "def f():\n") == "    '    return 1' + ''"


def test_go_programs_import_what_the_generation_uses() -> None:
    rows = _record("humanevalx_gen_620cfa")["datasets"]["humanevalx-go"]["rows"]
    uses_math = humanevalx_program(rows[1], "    return int(math.Ceil(lst[0]))\n}", "go")
    # the service joins the packages with four spaces: the first one is not indented
    assert uses_math.startswith(rows[1]["test_setup"] + '\nimport (\n"math"\n)\n\n// Return the sum')
    assert uses_math.count('"math"') == 1  # the prompt's own import block is taken out
    plain = humanevalx_program(rows[1], "    return 0\n}", "go")
    assert '"math"' not in plain


def test_cpp_programs_include_what_the_prompt_does_not() -> None:
    rows = _record("humanevalx_gen_620cfa")["datasets"]["humanevalx-cpp"]["rows"]
    program = humanevalx_program(rows[0], "    return x+y;\n}", "cpp")
    head = program.split("\n\n", 1)[0].split("\n")
    assert "#include<stdio.h>" not in head and "#include<stdlib.h>" not in head  # the prompt has them
    assert "#include<algorithm>" in head and "#include<iostream>" in head


def _eval(config: str, tmp_path: Path, languages: tuple[str, ...] = LANGUAGES) -> Path:
    record = _record(config)
    module = "opencompass.configs.datasets." + record["config"][: -len(".py")].replace("/", ".")
    cfg = tmp_path / "config.py"
    cfg.write_text(
        "from mmengine.config import read_base\n\n"
        f"with read_base():\n    from {module} import {record['variable']}\n\n"
        f"datasets = [d for d in {record['variable']} if d['language'] in {list(languages)!r}]\n"
        f"models = [dict(abbr={MODEL!r}, path='org/model')]\n",
        encoding="utf-8",
    )
    predictions = tmp_path / "work" / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for lang in languages:
        shutil.copy(ROOT / "predictions" / f"humanevalx-{lang}.json", predictions / f"humanevalx-{lang}.json")
    assert main(["eval", str(cfg), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1"]) == 0
    return tmp_path / "work" / RUN / "results" / MODEL


@pytest.fixture
def library(oc_library: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    return oc_library


@needs_sandbox
def test_library_config_runs_every_language_with_the_services_verdicts(library: Path, tmp_path: Path) -> None:
    """``humanevalx_gen`` unchanged: the programs compiled and run in the sandbox, pass@1 under the service's key."""
    record = _record("humanevalx_gen_620cfa")
    results = _eval("humanevalx_gen_620cfa", tmp_path)
    for lang in LANGUAGES:
        abbr = f"humanevalx-{lang}"
        result = read_result(results / f"{abbr}.json")
        assert "error" not in result, (abbr, result.get("error"))
        assert result["pass@1"] == 50.0, (abbr, [d["result"][:200] for d in result["details"]])
        sent = record["datasets"][abbr]["sent"]
        for i, (written, want) in enumerate(zip(result["details"], RESULTS[lang])):
            detail = {k: _unwrap(v) for k, v in written.items()}
            assert detail["task_id"] == sent[i]["task_id"] and detail["generation"] == sent[i]["generation"]
            assert detail["result"].startswith(want), (abbr, i, detail["result"][:300])
            assert detail["is_correct"] is (want == "passed")


@needs_sandbox
def test_a_missing_toolchain_fails_only_its_language_and_names_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from assay.evaluate.base import SampleOutcome
    from assay.stats import unscorable_of

    rows = _record("humanevalx_gen_620cfa")["datasets"]["humanevalx-cpp"]["rows"]
    refs = [r["declaration"] for r in rows]
    hidden = tmp_path / "bin"
    hidden.mkdir()
    bwrap = shutil.which("bwrap")
    if bwrap:  # the sandbox itself stays reachable
        (hidden / "bwrap").symlink_to(bwrap)
    monkeypatch.setenv("PATH", str(hidden))  # no g++ here
    result = HumanevalXEvaluator(language="cpp", isolation="namespaces").score(_replies("humanevalx-cpp"), refs, rows)
    assert result["pass@1"] == 0.0
    assert result["outcomes"] == {"missing-dependency": 4}
    assert all("apt-get install g++" in d["message"] for d in result["details"])
    assert result["missing_dependencies"] == [result["details"][0]["message"]]
    result["_meta"] = {"outcome": HumanevalXEvaluator.sample_outcome.to_json()}
    assert isinstance(HumanevalXEvaluator.sample_outcome, SampleOutcome)
    assert unscorable_of(result, [("pass@1", 0.0)]).not_executed == 4  # not counted as wrong answers
    # Python needs no toolchain beyond the sandbox's own interpreter: still scored
    py_rows = _record("humanevalx_gen_620cfa")["datasets"]["humanevalx-python"]["rows"]
    py = HumanevalXEvaluator(language="python", isolation="namespaces").score(
        _replies("humanevalx-python"), [r["declaration"] for r in py_rows], py_rows
    )
    assert py["pass@1"] == 50.0


@needs_sandbox
def test_a_per_user_toolchain_first_on_path_is_passed_over_for_the_one_the_sandbox_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``node`` of the user's own (nvm's, under the home folder) first on PATH: the sandbox cannot call it, so
    Debian's is taken and the samples get their verdicts; with none the sandbox shows, the package is named."""
    from assay.evaluators._toolchains import toolchain

    system_node = shutil.which("node", path="/usr/bin:/bin")
    if system_node is None:
        pytest.skip("no node under /usr")
    user_bin = tmp_path / "nvm" / "bin"
    user_bin.mkdir(parents=True)
    (user_bin / "node").write_text(f'#!/bin/sh\nexec {system_node} "$@"\n')
    (user_bin / "node").chmod(0o755)
    monkeypatch.setenv("PATH", f"{user_bin}:/usr/bin:/bin")
    rows = _record("humanevalx_gen_620cfa")["datasets"]["humanevalx-js"]["rows"]
    result = HumanevalXEvaluator(language="js", isolation="namespaces").score(
        _replies("humanevalx-js"), [r["declaration"] for r in rows], rows)
    assert [d["is_correct"] for d in result["details"]] == [True, True, False, False], [d["result"] for d in result["details"]]
    assert toolchain("js").tools["node"].startswith("/usr/"), toolchain("js")
    monkeypatch.setenv("PATH", str(user_bin))
    assert f"{user_bin / 'node'} is outside the folders the sandbox shows" in toolchain("js").missing
    assert "apt-get install nodejs" in toolchain("js").missing


@needs_sandbox
def test_an_endless_program_times_out_without_a_verdict(tmp_path: Path) -> None:
    rows = _record("humanevalx_gen_620cfa")["datasets"]["humanevalx-js"]["rows"][:1]
    endless = "  while (true) {}\n}\n"
    result = HumanevalXEvaluator(language="js", isolation="namespaces", step_timeout=2).score([endless], [rows[0]["declaration"]], rows)
    assert result["pass@1"] == 0.0
    assert result["details"][0]["result"] == "timed out" and result["details"][0]["outcome"] == "timeout"


def test_rust_and_unknown_languages_are_refused() -> None:
    with pytest.raises(ValueError, match="Rust"):
        HumanevalXEvaluator(language="rust")
    with pytest.raises(ValueError, match="'kotlin'"):
        HumanevalXEvaluator(language="kotlin")


def test_the_loader_reads_opencompass_layout_and_names_a_missing_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from assay.datasets.humanevalx import HumanevalXDataset
    from assay.errors import InputFileError

    record = _record("humanevalx_gen_620cfa")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT))
    for abbr, entry in record["datasets"].items():
        ds = HumanevalXDataset.load("./data/humanevalx", language=entry["language"])
        assert [dict(r) for r in ds] == entry["rows"], abbr
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path))
    with pytest.raises(InputFileError, match=r"humanevalx_go\.jsonl\.gz does not exist"):
        HumanevalXDataset.load("./data/humanevalx", language="go")


def test_the_dry_run_names_a_missing_toolchain(library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.config import load_config
    from assay.tasks.plan import check_plan

    cfg = tmp_path / "config.py"
    cfg.write_text(
        "from mmengine.config import read_base\n\n"
        "with read_base():\n    from opencompass.configs.datasets.humanevalx.humanevalx_gen_620cfa import humanevalx_datasets\n\n"
        "datasets = humanevalx_datasets\nmodels = [dict(abbr='m', path='org/model')]\n",
        encoding="utf-8",
    )
    hidden = tmp_path / "bin"
    hidden.mkdir()
    monkeypatch.setenv("PATH", str(hidden))
    checks = {c.dataset: c for c in check_plan(load_config(cfg))}
    assert any("apt-get install g++" in n for n in checks["humanevalx-cpp"].notes)
    assert any("apt-get install nodejs" in n for n in checks["humanevalx-js"].notes)
    assert not any("apt-get" in n for n in checks["humanevalx-python"].notes)
