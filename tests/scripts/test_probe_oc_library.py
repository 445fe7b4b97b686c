"""``scripts/probe_oc_library.py --folders``: the per-folder table of a small library laid out as OpenCompass's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

HEAD = """from opencompass.openicl.icl_evaluator import AccEvaluator
from opencompass.datasets import {loader}
"""
DATASET = """{var} = [dict(abbr='{abbr}', type={loader}, path='x', reader_cfg=dict(input_columns=['q'], output_column='a'),
                   eval_cfg=dict(evaluator={evaluator}))]
"""


def _file(path: Path, abbr: str, evaluator: str, loader: str = "MATHDataset", extra: str = "") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    var = f"{abbr.replace('-', '_')}_datasets"
    path.write_text(extra + HEAD.format(loader=loader) + DATASET.format(var=var, abbr=abbr, loader=loader, evaluator=evaluator))


def test_folders_table(tmp_path: Path) -> None:
    datasets = tmp_path / "lib" / "opencompass" / "configs" / "datasets"
    _file(datasets / "fam" / "plain_gen.py", "plain", "dict(type=AccEvaluator)")
    _file(datasets / "fam" / "judged_gen.py", "judged", "dict(type=GenericLLMEvaluator, judge_cfg=dict(path='j'))",
          extra="from opencompass.evaluator import GenericLLMEvaluator\n")
    _file(datasets / "fam" / "urled_gen.py", "urled", "dict(type=LiveMathBenchEvaluator, model_name='j', url=['http://h/v1'])",
          extra="from opencompass.datasets import LiveMathBenchEvaluator\n")
    _file(datasets / "fam" / "lacking_gen.py", "lacking", "dict(type=AccEvaluator)", loader="NoSuchDatasetAnywhere")
    _file(datasets / "other" / "other_gen.py", "other", "dict(type=AccEvaluator)")
    out = tmp_path / "report.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "probe_oc_library.py"), "--library", str(tmp_path / "lib"), "--folders", "fam",
         "--verbose", "--json", str(out)],
        capture_output=True, text=True, env=env, check=False,
    )
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(out.read_text())["folders"]
    assert row["folder"] == "fam"
    assert (row["files"], row["loaded"], row["runnable"], row["needs_model"], row["not_runnable"]) == (4, 4, 1, 2, 1)
    assert list(row["missing"]) == ["opencompass.datasets.NoSuchDatasetAnywhere"]
    assert "NoSuchDatasetAnywhere [not in OpenCompass] (1)" in done.stdout
    assert "judged_gen (eval_cfg.evaluator.judge_cfg" in done.stdout
    assert "other" not in done.stdout.split("total")[0]


def test_unknown_folder_is_an_error(tmp_path: Path) -> None:
    _file(tmp_path / "lib" / "opencompass" / "configs" / "datasets" / "fam" / "plain_gen.py", "plain", "dict(type=AccEvaluator)")
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "probe_oc_library.py"), "--library", str(tmp_path / "lib"), "--folders", "nope"],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT / "src")), check=False,
    )
    assert done.returncode == 2
    assert "no dataset config files in folder(s) nope" in done.stderr


def test_a_name_that_fails_in_opencompass_is_marked(tmp_path: Path) -> None:
    _file(tmp_path / "lib" / "opencompass" / "configs" / "datasets" / "safety" / "safety_gen.py", "safety", "dict(type=AccEvaluator)",
          loader="SafetyDataset")
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "probe_oc_library.py"), "--library", str(tmp_path / "lib"), "--folders", "safety"],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT / "src")), check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "SafetyDataset [fails in OpenCompass] (1)" in done.stdout
    assert "SafetyDataset: its load() builds the test split and returns nothing" in done.stdout


def test_a_model_file_that_cannot_run_says_why(tmp_path: Path) -> None:
    """A file evaluated by a model that cannot run either (its model postprocessor comes from a module OpenCompass
    0.5.4 lacks, as the library's xFinder files import it) names the reason on its line."""
    path = tmp_path / "lib" / "opencompass" / "configs" / "datasets" / "fam" / "xfinder_gen.py"
    _file(path, "xfinder", "dict(type=AccEvaluator), model_postprocessor=dict(type=xfinder_postprocess, question_type='math')",
          extra="from opencompass.utils.model_postprocessors import xfinder_postprocess\n")
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "probe_oc_library.py"), "--library", str(tmp_path / "lib"), "--folders", "fam",
         "--verbose"],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT / "src")), check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "xfinder_gen (eval_cfg.model_postprocessor" in done.stdout
    assert "; not runnable: xfinder_postprocess [not in OpenCompass]" in done.stdout
    assert "opencompass.utils.model_postprocessors.xfinder_postprocess [not in OpenCompass]" in done.stdout


def test_a_judged_dataset_without_a_mode_cannot_run(tmp_path: Path) -> None:
    """An LMEvaluator dataset without ``mode`` (no judge task can be planned for it, in assay as in OpenCompass, whose
    subjective partitioners read it) is not runnable, and the file's line says why; with a mode it is."""
    datasets = tmp_path / "lib" / "opencompass" / "configs" / "datasets"
    judged = "dict(type=LMEvaluator)"
    _file(datasets / "fam" / "nomode_gen.py", "nomode", judged, extra="from opencompass.openicl.icl_evaluator import LMEvaluator\n")
    _file(datasets / "fam" / "mode_gen.py", "mode", judged, extra="from opencompass.openicl.icl_evaluator import LMEvaluator\n")
    with open(datasets / "fam" / "mode_gen.py", "a", encoding="utf-8") as handle:
        handle.write("mode_datasets[0]['mode'] = 'singlescore'\n")
    out = tmp_path / "report.json"
    done = _probe(tmp_path / "lib", "--folders", "fam", "--verbose", "--json", str(out))
    assert done.returncode == 0, done.stderr
    assert "nomode_gen (eval_cfg.evaluator.type=LMEvaluator); not runnable: config problem: dataset 'nomode': mode=None" in done.stdout
    assert "mode_gen (eval_cfg.evaluator.type=LMEvaluator)\n" in done.stdout
    assert json.loads(out.read_text())["runnable"] == 1


def _probe(lib: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "probe_oc_library.py"), "--library", str(lib), *args],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT / "src")), check=False,
    )


def test_markdown_index_gives_each_file_that_does_not_run_a_reason(tmp_path: Path) -> None:
    datasets = tmp_path / "lib" / "opencompass" / "configs" / "datasets"
    _file(datasets / "fam" / "plain_gen.py", "plain", "dict(type=AccEvaluator)")
    _file(datasets / "fam" / "judged_gen.py", "judged", "dict(type=GenericLLMEvaluator, judge_cfg=dict(path='j'))",
          extra="from opencompass.evaluator import GenericLLMEvaluator\n")
    _file(datasets / "fam" / "lacking_gen.py", "lacking", "dict(type=AccEvaluator)", loader="NoSuchDatasetAnywhere")
    _file(datasets / "fam" / "later_gen.py", "later", "dict(type=AccEvaluator)", loader="Bioinstruction_Dataset")
    _file(datasets / "pro" / "pro_gen.py", "pro", "dict(type=LCBProEvaluator)", loader="LCBProDataset",
          extra="from opencompass.datasets.livecodebench_pro.livecodebench_pro_evaluator import LCBProEvaluator\n")
    doc = tmp_path / "benchmarks.md"
    text = ("# Benchmarks\n\n<!-- library index: generated by scripts/probe_oc_library.py --markdown; do not edit by hand -->\n"
            "stale\n<!-- end of the library index -->\n\nAfter.\n")
    doc.write_text(text, encoding="utf-8")
    assert _probe(tmp_path / "lib", "--check-docs", str(doc)).returncode == 1

    done = _probe(tmp_path / "lib", "--markdown", str(doc))
    assert done.returncode == 0, done.stderr
    written = doc.read_text(encoding="utf-8")
    assert written.startswith("# Benchmarks\n\n<!-- library index") and written.endswith("<!-- end of the library index -->\n\nAfter.\n")
    assert "stale" not in written
    assert "OpenCompass 0.5.4 loads 5; assay runs every task of **2** of those (40.0%), 1 of them with an LLM judge" in written
    rows = {line.split("|")[1].strip(): line for line in written.splitlines() if line.startswith("| `")}
    assert rows["`fam`"].startswith("| `fam` | 4 | 2 | 1 | 2 |")
    assert "OpenCompass fails too: `lacking_gen` — NoSuchDatasetAnywhere: OpenCompass 0.5.4 does not define it" in rows["`fam`"]
    assert "not implemented yet: `later_gen` — Bioinstruction_Dataset" in rows["`fam`"]
    assert "remote service: `pro_gen` — " in rows["`pro`"]
    assert "| remote service | 1 |" in written and "| not implemented yet | 1 |" in written
    assert _probe(tmp_path / "lib", "--check-docs", str(doc)).returncode == 0
    assert _probe(tmp_path / "lib", "--folders", "fam", "--markdown", str(doc)).returncode == 2
