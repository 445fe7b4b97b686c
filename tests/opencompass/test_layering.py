"""The OpenCompass layer sits above what it serves: nothing below it imports it, and it installs itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.test_import_cycles import import_graph

#: The modules allowed to import assay.opencompass: the top package, the command line, the tasks.
ABOVE = ("assay", "assay.cli", "assay.commands", "assay.tasks", "assay.opencompass")
#: Packages the layer serves names from or installs itself into; none of them may reach it.
BELOW = ("assay.registry", "assay.config", "assay.evaluate", "assay.postprocess", "assay.datasets", "assay.evaluators",
         "assay.judge", "assay.summarize", "assay.subjective", "assay.stats", "assay.groups", "assay.rundir.predictions",
         "assay.rundir.results")


def _within(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def test_no_module_below_the_layer_imports_it_even_inside_functions() -> None:
    graph = import_graph(deferred=True)
    importers = sorted(m for m, targets in graph.items() if not _within(m, ABOVE) and any(_within(t, ("assay.opencompass",)) for t in targets))
    assert importers == []
    reach: dict[str, set[str]] = {}

    def reached(start: str) -> set[str]:
        if start not in reach:
            reach[start] = set()
            for t in graph.get(start, ()):
                reach[start] |= {t} | reached(t)
        return reach[start]

    leaks = sorted(m for m in graph if _within(m, BELOW) and any(_within(t, ("assay.opencompass",)) for t in reached(m)))
    assert leaks == []
    # the layer itself imports what it serves, honestly
    layer = set().union(*(targets for m, targets in graph.items() if _within(m, ("assay.opencompass",))))
    assert {"assay.registry", "assay.config", "assay.evaluators", "assay.summarize", "assay.postprocess"} <= layer


def test_the_lower_packages_work_without_the_layer_and_a_config_naming_opencompass_says_what_serves_it(tmp_path: Path) -> None:
    (tmp_path / "plain.py").write_text("from assay.config import read_base\nwith read_base():\n    pass\nanswer = 42\n")
    (tmp_path / "oc.py").write_text("from mmengine.config import read_base\n")
    code = (
        "import sys\n"
        "import assay.config, assay.registry, assay.evaluate, assay.postprocess, assay.datasets, assay.evaluators\n"
        "from assay.config import load_config\n"
        "from assay.errors import ConfigError\n"
        f"assert load_config({str(tmp_path / 'plain.py')!r}).variables['answer'] == 42\n"
        "assert assay.registry.set_fallback(None) is None, 'a lower package installed a registry fallback'\n"
        "assert not [f for f in sys.meta_path if 'assay' in type(f).__module__], sys.meta_path\n"
        "assert 'assay.opencompass' not in sys.modules\n"
        "try:\n"
        f"    load_config({str(tmp_path / 'oc.py')!r})\n"
        "except ConfigError as exc:\n"
        "    print(exc)\n"
        "import assay.opencompass\n"
        f"print(load_config({str(tmp_path / 'oc.py')!r}).path.name)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    error, loaded = done.stdout.strip().split("\n")
    assert str(tmp_path / "oc.py") in error and "mmengine" in error and "assay.opencompass" in error
    assert loaded == "oc.py"
