"""The name table (``assay._names``) and what a lookup imports: only the module defining the name.

Each check runs in a fresh interpreter, so that what it imported is its own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
COMPONENTS = ("assay.postprocess.", "assay.evaluators.", "assay.datasets.")


def _python(code: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def _component_modules_after(code: str) -> set[str]:
    """The public component modules (``assay.evaluators.exact``, …) imported by ``code`` in a fresh interpreter."""
    done = _python(f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))")
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    return {m for m in loaded if m.startswith(COMPONENTS) and not m.rsplit(".", 1)[-1].startswith("_")}


def test_the_name_table_is_what_importing_every_built_in_registers_and_exports() -> None:
    """Adding, renaming or moving a registered or exported name without ``scripts/update_name_table.py`` fails here."""
    done = _python("from assay._discover import name_table_source; import sys; sys.stdout.write(name_table_source())")
    assert done.stdout == (ROOT / "src" / "assay" / "_names.py").read_text()


def test_a_registry_lookup_imports_only_the_module_defining_the_name() -> None:
    """No more than importing the defining module itself (and what it imports) does."""
    for module, lookup in [
        ("assay.evaluators.exact", "from assay.registry import ICL_EVALUATORS\nassert ICL_EVALUATORS.get('AccEvaluator').__name__ == 'AccEvaluator'"),
        ("assay.postprocess.general", "from assay.registry import TEXT_POSTPROCESSORS\nassert TEXT_POSTPROCESSORS.get('first-capital')('the answer is B') == 'B'"),
        ("assay.datasets.local", "from assay.registry import LOAD_DATASET\nassert 'JsonlDataset' in LOAD_DATASET and 'NoSuchDataset' not in LOAD_DATASET"),
    ]:
        imported = _component_modules_after(lookup)
        assert module in imported and imported == _component_modules_after(f"import {module}")
        assert len(imported) <= 5  # of some 80


def test_a_package_export_imports_only_its_submodule() -> None:
    imported = _component_modules_after("from assay.postprocess import first_option_postprocess")
    assert imported == _component_modules_after("import assay.postprocess.options") and len(imported) <= 2
    assert _component_modules_after("import assay.evaluators, assay.datasets, assay.postprocess") == set()


def test_judge_stats_and_summarize_import_a_module_only_for_a_name_asked_for() -> None:
    """Importing the packages imports none of their modules; a name imports its own module (and what it imports),
    every name of ``__all__`` is there, and enumerating the registries still sees the judge's and summarizers' names."""
    packages = ("assay.judge", "assay.stats", "assay.summarize")
    done = _python(
        "import json, sys\n"
        f"import {', '.join(packages)}\n"
        f"before = sorted(m for m in sys.modules if m.startswith({tuple(p + '.' for p in packages)!r}))\n"
        "from assay.stats import sample_correctness\n"
        "from assay.judge import parse_verdict\n"
        f"one = sorted(m for m in sys.modules if m.startswith({tuple(p + '.' for p in packages)!r}))\n"
        f"missing = [(p, n) for p in {packages!r} for n in sys.modules[p].__all__ if not hasattr(sys.modules[p], n)]\n"
        "from assay.registry import MODELS, SUMMARIZERS\n"
        "print(json.dumps([before, one, missing, sorted(MODELS.names()), sorted(SUMMARIZERS.names())]))"
    )
    before, one, missing, models, summarizers = json.loads(done.stdout.strip().splitlines()[-1])
    assert before == [] and missing == []
    assert "assay.stats._samples" in one and "assay.judge._verdict" in one
    assert not {"assay.stats._compare", "assay.stats._paired", "assay.judge._client", "assay.judge._cache"} & set(one)
    assert "OpenAISDK" in models and {"CircularSummarizer", "DefaultSummarizer", "MultiFacetedSummarizer"} <= set(summarizers)


def test_enumerating_a_registry_sees_every_built_in() -> None:
    """``assay list`` and every other enumeration import all the built-ins, as before any lookup."""
    done = _python(
        "from assay.registry import ICL_EVALUATORS, TEXT_POSTPROCESSORS\n"
        "import assay.evaluators, assay.postprocess\n"
        "print(len(ICL_EVALUATORS.names()), len(TEXT_POSTPROCESSORS), len(assay.evaluators.__all__))"
    )
    from assay._names import EXPORTED, REGISTERED

    evaluators, postprocessors, exported = map(int, done.stdout.split())
    assert evaluators == len(REGISTERED["ICL_EVALUATORS"]) > 40
    assert postprocessors == len(REGISTERED["TEXT_POSTPROCESSORS"]) > 50
    assert exported == len(EXPORTED["assay.evaluators"])


def test_a_plugin_overriding_a_built_in_name_still_wins(tmp_path: Path) -> None:
    """A plugin that registers a built-in's name with ``force=True`` replaces it, whatever was imported first."""
    (tmp_path / "assay_override_demo.py").write_text(
        "from assay.registry import ICL_EVALUATORS\n"
        "@ICL_EVALUATORS.register_module('AccEvaluator', force=True)\n"
        "class LoudAcc:\n    pass\n"
    )
    dist = tmp_path / "assay_override_demo-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: assay-override-demo\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[assay.plugins]\ndemo = assay_override_demo\n")
    done = _python(
        f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n"
        "from assay.registry import ICL_EVALUATORS\n"
        "print(ICL_EVALUATORS.get('AccEvaluator').__name__, ICL_EVALUATORS.get('EMEvaluator').__name__)"
    )
    assert done.stdout.split() == ["LoudAcc", "EMEvaluator"]
