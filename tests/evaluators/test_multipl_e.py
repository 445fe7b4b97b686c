"""MultiPL-E's HumanEval and MBPP (``multipl_e``) scored as OpenCompass 0.5.4 and its code-evaluation service score them.

The fixture (``tests/data/oc_families/multipl_e``, written by
``scripts/make_multipl_e_fixtures.py``) holds two problems per tag and
language of the library's ten, replies that pass, fail, time out and do not
compile, and ``verdicts.json``: the status assay's run gives each program.
``expected/multipl_e.json`` (``scripts/record_oc_multipl_e.py``) holds what
OpenCompass's eval task posted to a stand-in service answering with those
statuses, for both library configs, and the metrics it computed from them.

So: assay's programs are OpenCompass's, byte for byte; its metrics are
OpenCompass's given the same statuses; and its own runs give those statuses
(where a language's toolchain is installed; else the Debian package is named).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import socket
import sys
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.datasets.multipl_e import MultiplEDataset
from assay.errors import InputFileError
from assay.evaluators.multipl_e import MultiplEEvaluator
from assay.rundir.results import read_result
from assay.sandbox import isolation_unavailable

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "multipl_e"
RECORD = json.loads((ROOT / "expected" / "multipl_e.json").read_text(encoding="utf-8"))
VERDICTS: dict[str, dict[str, Any]] = json.loads((ROOT / "verdicts.json").read_text(encoding="utf-8"))
RUN = "20250101_000000"
MODEL = "oc-model"
_NO_SANDBOX = isolation_unavailable("namespaces")
needs_sandbox = pytest.mark.skipif(_NO_SANDBOX is not None, reason=f"no namespace sandbox: {_NO_SANDBOX}")
TOP_TEN = ("cpp", "cs", "go", "java", "rb", "js", "php", "r", "rs", "sh")
#: The Debian packages of each language's toolchain (what a missing one's message names).
PACKAGES = {"cpp": "g++", "cs": "mono-mcs", "go": "golang-go", "java": "default-jdk-headless", "rb": "ruby", "js": "nodejs",
            "php": "php-cli", "r": "r-base-core", "rs": "rustc", "sh": "bash"}


def _entries(config: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    return [(c["config"], e) for c in RECORD["configs"] for e in c["datasets"] if config is None or config in c["config"]]


def _replies(entry: dict[str, Any]) -> list[str]:
    preds = json.loads((ROOT / entry["predictions"]).read_text(encoding="utf-8"))
    return [preds[str(i)]["prediction"] for i in range(len(preds))]


def _rows(entry: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT))
    return [dict(r) for r in MultiplEDataset.load("opencompass/multipl_e", language=entry["language"], tag=entry["tag"])]


def _digest(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8")).hexdigest()


def test_the_recording_covers_both_configs_and_every_kind_of_verdict() -> None:
    assert [len(c["datasets"]) for c in RECORD["configs"]] == [20, 2]
    assert {e["language"] for _, e in _entries("gen_f44aaf")} == set(TOP_TEN)
    kinds = {v["status"].split(":")[0] for v in VERDICTS.values()}
    assert kinds == {"OK", "Exception", "SyntaxError", "Timeout"}
    assert [e["n"] for _, e in _entries("repeat")] == [5, 5]


def test_the_programs_are_those_opencompass_posts_byte_for_byte(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each run's posted list (name, language, code) is what assay prepares from the same rows and replies."""
    for config, entry in _entries():
        rows = _rows(entry, monkeypatch)
        replies = _replies(entry)
        assert len(replies) == entry["n"] * len(rows)
        evaluator = MultiplEEvaluator(language=entry["language"])
        for r, posted in enumerate(entry["posted"]):
            mine = evaluator.prepare(replies[r * len(rows):(r + 1) * len(rows)], rows)
            assert [{k: p[k] for k in ("name", "language", "code")} for p in mine] == posted, (config, entry["abbr"], r)


def test_the_cleaning_steps_are_seen_in_the_posted_programs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chat reply's first block is taken, the prompt's repeated line and what comes before it dropped, and the
    completion cut at the stop token; C#'s and Java's closing brace survives when nothing follows it in the block."""
    (_, cpp), = [x for x in _entries("gen_f44aaf") if x[1]["abbr"] == "humaneval-multiple-cpp"]
    rows = _rows(cpp, monkeypatch)
    assert "Here is" in _replies(cpp)[0]
    assert cpp["posted"][0][0]["code"] == rows[0]["prompt"] + "    return x + y;" + "\n" + rows[0]["tests"]
    (_, cs), = [x for x in _entries("gen_f44aaf") if x[1]["abbr"] == "mbpp-multiple-cs"]
    rows = _rows(cs, monkeypatch)
    assert cs["posted"][0][1]["code"] == rows[1]["prompt"] + "        return Math.Max(a, b);\n    }" + "\n" + rows[1]["tests"]


def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"a connection was attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def _recorded_verdicts(self: MultiplEEvaluator, sources: list[str]) -> list[tuple[str, str, str]]:
    out = []
    for source in sources:
        status = VERDICTS[_digest(source)]["status"]
        kind = status.split(":")[0]
        out.append((status, "passed" if kind == "OK" else "timeout" if kind == "Timeout" else "failed", status))
    return out


@pytest.fixture
def library(oc_library: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.chdir(tmp_path)
    return oc_library


def _eval(tmp_path: Path, config: str, folder: str, abbrs: list[str]) -> Path:
    cfg = tmp_path / "config.py"
    cfg.write_text(
        "from mmengine.config import read_base\n\n"
        f"with read_base():\n    from opencompass.configs.datasets.multipl_e.{config} import multiple_datasets\n\n"
        "datasets = multiple_datasets\n"
        f"models = [dict(abbr={MODEL!r}, path='org/model')]\n",
        encoding="utf-8",
    )
    predictions = tmp_path / "work" / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    for abbr in abbrs:
        shutil.copy(ROOT / folder / f"{abbr}.json", predictions / f"{abbr}.json")
    assert main(["eval", str(cfg), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1"]) == 0
    return tmp_path / "work" / RUN / "results" / MODEL


@pytest.mark.parametrize(("config", "folder"), [("multiple_top_ten_gen_f44aaf", "predictions"),
                                                ("multiple_top_ten_repeat_gen_0cd6ce", "predictions_repeat")])
def test_library_configs_unchanged_give_opencompass_metrics_from_the_same_verdicts(
    library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: str, folder: str
) -> None:
    """The library configs, unchanged, through ``assay eval``: with each program's status the one the stand-in service
    gave OpenCompass, every metric OpenCompass wrote (pass@1, its average over the repeat file's five runs, G-Pass@3);
    nothing is sent anywhere."""
    _no_network(monkeypatch)
    monkeypatch.setattr(MultiplEEvaluator, "_run_programs", _recorded_verdicts)
    entries = [e for _, e in _entries(config)]
    results = _eval(tmp_path, config, folder, [e["abbr"] for e in entries])
    for entry in entries:
        got = read_result(results / f"{entry['abbr']}.json")
        assert "error" not in got, (entry["abbr"], got.get("error"))
        want = entry["result"]
        assert {k: got[k] for k in want} == pytest.approx(want, rel=1e-12, abs=1e-12), entry["abbr"]
    assert "gradio_client" not in sys.modules


@needs_sandbox
@pytest.mark.parametrize("language", TOP_TEN)
def test_assays_runs_give_the_verdicts_opencompass_was_given(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both tags' programs run in the sandbox with the language's toolchain: each status of the kind recorded (the
    service's ``OK``, a compiler's ``SyntaxError``, ``Exception``, ``Timeout``), and OpenCompass's pass@1."""
    from assay.evaluators.humaneval_multi import _missing

    entries = [e for _, e in _entries("gen_f44aaf") if e["language"] == language]
    rows = [row for e in entries for row in _rows(e, monkeypatch)]
    replies = [reply for e in entries for reply in _replies(e)]
    evaluator = MultiplEEvaluator(language=language, isolation="namespaces")
    result = evaluator.score(replies, [r["tests"] for r in rows], rows)
    if _missing(language)[1]:
        assert result["outcomes"] == {"missing-dependency": len(rows)}
        assert "apt-get install" in result["details"][0]["message"]
        assert PACKAGES[language] in result["details"][0]["message"] or "gcc" in result["details"][0]["message"]
        return
    posted = [p for e in entries for p in e["posted"][0]]
    statuses = [d["status"] for d in result["details"]]
    want = [VERDICTS[_digest(p["code"])]["status"] for p in posted]
    assert [s.split(":")[0] for s in statuses] == [w.split(":")[0] for w in want], statuses
    assert result["pass@1"] == pytest.approx(sum(e["result"]["pass@1"] for e in entries) / len(entries))
    assert [d["correct"] for d in result["details"]] == [w == "OK" for w in want]


def test_the_loader_checks_tag_and_language_as_opencompass_and_names_a_missing_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT))
    rows = MultiplEDataset.load("opencompass/multipl_e", language="rs", tag="mbpp")
    assert [r["name"] for r in rows] == ["mbpp_2_add", "mbpp_3_max_of"]
    with pytest.raises(InputFileError, match="'apps'"):
        MultiplEDataset.load("opencompass/multipl_e", language="cpp", tag="apps")
    with pytest.raises(InputFileError, match="'dart'"):
        MultiplEDataset.load("opencompass/multipl_e", language="dart", tag="mbpp")  # HumanEval has Dart, MBPP not
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path))
    with pytest.raises(InputFileError, match=r"humaneval-dart\.jsonl does not exist"):
        MultiplEDataset.load("opencompass/multipl_e", language="dart", tag="humaneval")


def test_problems_are_the_distinct_values_of_the_first_column_paired_with_the_first_replies() -> None:
    """As OpenCompass: reply ``i`` goes with the ``i``-th distinct problem; replies past their number are not scored."""
    row = {"name": "p", "language": "py", "prompt": "def f():\n", "tests": "assert f() == 1\n", "stop_tokens": ["\ndef"]}
    rows = [row, {**row, "prompt": "def g():\n"}, {**row, "name": "q"}]
    posts = MultiplEEvaluator(language="py").prepare(["    return 1", "    return 2", "    return 3"], rows)
    assert [(p["name"], p["completion"]) for p in posts] == [("p", "    return 1"), ("q", "    return 2")]
    assert posts[1]["code"] == "def f():\n    return 2\nassert f() == 1\n"


def test_a_test_set_without_multipl_e_columns_is_named() -> None:
    result = MultiplEEvaluator(language="cpp").score(["x"], ["t"], [{"name": "p", "prompt": "", "tests": ""}])
    assert result == {"error": "MultiplEEvaluator: test set row 0 lacks language, stop_tokens"}


def _harness_case(language: str, prompt: str, tests: str, replies: list[str]) -> list[str]:
    """The statuses MultiplEEvaluator gives ``replies`` to one hand-made problem (skipped when the toolchain is missing)."""
    from assay.evaluators.humaneval_multi import _missing

    if _missing(language)[1]:
        pytest.skip(f"no {language} toolchain (Debian package {PACKAGES[language]})")
    rows = [{"name": f"p{i}", "language": language, "prompt": prompt, "tests": tests, "stop_tokens": []}
            for i in range(len(replies))]
    result = MultiplEEvaluator(language=language, isolation="namespaces").score(replies, [tests] * len(rows), rows)
    statuses = [str(d["status"]) for d in result["details"]]
    assert [d["correct"] for d in result["details"]] == [s == "OK" for s in statuses]
    return statuses


@needs_sandbox
def test_csharp_passes_whatever_mono_exits_with_unless_standard_error_names_a_failure_and_has_five_seconds() -> None:
    """MultiPL-E's C# harness: OK unless standard error names a failed assertion or an unhandled exception, whatever
    mono's exit status (unlike humaneval_multi's service); mono gets 5 s."""
    prompt = "using System;\nclass Problem {\n    public static long Add(long x, long y) {\n"
    tests = ("    }\n    public static void Main(string[] args) {\n"
             "        System.Diagnostics.Debug.Assert(Add(1, 2) == 3);\n    }\n}\n")
    statuses = _harness_case("cs", prompt, tests, [
        "        return x + y;",
        "        System.Environment.Exit(3);\n        return x + y;",
        "        return x - y;",
        "        throw new Exception(\"no\");",
        "        System.Threading.Thread.Sleep(7000);\n        return x + y;",
    ])
    assert statuses[:2] == ["OK", "OK"], statuses
    assert statuses[2].startswith("Exception: ") and "DefaultTraceListener.Fail" in statuses[2], statuses
    assert statuses[3].startswith("Exception: ") and "Unhandled Exception" in statuses[3], statuses
    assert statuses[4] == "Timeout", statuses


@needs_sandbox
def test_csharp_endless_recursion_is_judged_on_its_stack_trace_not_lost_past_the_output_limit() -> None:
    """A stack overflow's trace is far longer than the sandbox's output limit: the verdict still comes through, cut."""
    prompt = "using System;\nclass Problem {\n    public static long Add(long x, long y) {\n"
    tests = "    }\n    public static void Main(string[] args) {\n        Add(1, 2);\n    }\n}\n"
    statuses = _harness_case("cs", prompt, tests, ["        return Add(x + 1, y) + 1;"])
    assert statuses[0].startswith("Exception: "), statuses
    assert len(statuses[0]) <= 4000


@needs_sandbox
def test_ruby_and_r_have_five_seconds_and_the_harness_labels() -> None:
    """MultiPL-E's Ruby and R harnesses give a run 5 s (not 15); Ruby calls a failure with anything on standard error
    ``SyntaxError`` and a silent one ``Exception``; R calls one whose output says ``unexpected`` ``SyntaxError``."""
    statuses = _harness_case("rb", "def add(x, y)\n", "end\nraise 'bad' unless add(1, 2) == 3\n",
                             ["  x + y", "  exit 3", "  x - y", "  sleep 7\n  x + y"])
    assert statuses[0] == "OK" and statuses[1] == "Exception: " and statuses[3] == "Timeout", statuses
    assert statuses[2].startswith("SyntaxError: ") and "bad" in statuses[2], statuses
    statuses = _harness_case("r", "add <- function(x, y) {\n", "}\nstopifnot(add(1, 2) == 3)\n",
                             ["  x + y", "  x - y", "  x +* y", "  Sys.sleep(7)\n  x + y"])
    assert statuses[0] == "OK" and statuses[3] == "Timeout", statuses
    assert statuses[1].startswith("Exception: ") and statuses[2].startswith("SyntaxError: "), statuses


@needs_sandbox
def test_a_rust_program_has_five_seconds() -> None:
    statuses = _harness_case("rs", "fn add(x: i64, y: i64) -> i64 {\n", "}\n\nfn main() {\n    assert_eq!(add(1, 2), 3);\n}\n",
                             ["    x + y", "    std::thread::sleep(std::time::Duration::from_secs(7));\n    x + y"])
    assert statuses == ["OK", "Timeout"], statuses


@needs_sandbox
def test_go_is_judged_on_its_output_and_a_build_failure_is_a_syntax_error() -> None:
    prompt = 'package main\n\nimport "testing"\n\nfunc add(x int, y int) int {\n'
    tests = "}\n\nfunc TestAdd(t *testing.T) {\n\tif add(1, 2) != 3 {\n\t\tt.Fail()\n\t}\n}\n"
    statuses = _harness_case("go", prompt, tests, ["\treturn x + y", "\treturn x - y", "\treturn x +"])
    assert statuses[0] == "OK", statuses
    assert statuses[1].startswith("Exception: ") and "FAIL" in statuses[1], statuses
    assert statuses[2].startswith("SyntaxError: "), statuses


@needs_sandbox
def test_a_bash_syntax_error_is_labelled_as_the_harness_labels_it() -> None:
    statuses = _harness_case("sh", "add() {\n", '}\n[ "$(add 1 2)" = 3 ] || exit 1\n',
                             ["  echo $(( $1 + $2 ))", "  echo 4", "  if then"])
    assert statuses[0] == "OK" and statuses[1] == "Exception: ", statuses
    assert statuses[2].startswith("SyntaxError: ") and "syntax error" in statuses[2], statuses
