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
