"""The driver's warm-up before forking names modules that exist."""

import importlib
import subprocess
import sys

from assay.tasks import runner


def test_every_module_the_driver_warms_up_imports() -> None:
    # A renamed module would turn the warm-up off without a word (a failed import is only logged
    # at debug level), leaving each worker to import it again for its first task.
    for name in runner._TASK_MODULES:
        importlib.import_module(name)


def test_warming_up_for_statistics_imports_what_tasks_write_them_with() -> None:
    code = (
        "import sys\n"
        "from assay.tasks import runner\n"
        "runner._warm_imports(prepare_stats=True)\n"
        "print('assay.rundir.statistics' in sys.modules, 'assay.rundir.sidecar' in sys.modules, 'numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True", "True"]


def test_warming_up_without_statistics_leaves_numpy_alone() -> None:
    # a run without the report computes no statistics: its workers need not pay for numpy
    code = (
        "import sys\n"
        "from assay.tasks import runner\n"
        "runner._warm_imports(prepare_stats=False)\n"
        "print('numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False"]
