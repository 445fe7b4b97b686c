"""``assay.opencompass.install()``: OpenCompass's API for plain Python code, with no OpenCompass installed."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("opencompass") is not None or importlib.util.find_spec("mmengine") is not None,
    reason="OpenCompass or mmengine is installed here: their own modules serve",
)


def _python(code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("ASSAY_OPENCOMPASS", None)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)


def test_one_call_serves_opencompass_and_mmengine_to_a_fresh_interpreter() -> None:
    done = _python(
        "import assay.opencompass\n"
        "assay.opencompass.install()\n"
        "from opencompass.utils import text_postprocessors as tp\n"
        "from opencompass.evaluator.cascade_evaluator import CascadeEvaluator\n"
        "from opencompass.summarizers.default import DefaultSummarizer\n"
        "from mmengine.config import ConfigDict\n"
        "print(tp.first_option_postprocess('The answer is B.', 'ABCD'), tp.first_capital_postprocess('abCDef'))\n"
        "print(CascadeEvaluator.__module__, hasattr(CascadeEvaluator, 'sample_score'), DefaultSummarizer.__module__)\n"
        "print(ConfigDict(models=[dict(abbr='m')]).models[0].abbr)\n"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")
    assert lines[0] == "B C"
    module, has_sample_score, summarizer_module = lines[1].split()
    assert module.startswith("assay.evaluators") and has_sample_score == "True" and summarizer_module.startswith("assay.")
    assert lines[2] == "m"


def test_importing_the_package_alone_serves_no_import_and_uninstall_stops_serving() -> None:
    done = _python(
        "import assay.opencompass, sys\n"
        "try:\n"
        "    import opencompass.utils\n"
        "except ModuleNotFoundError:\n"
        "    print('not served')\n"
        "assay.opencompass.install()\n"
        "import opencompass.utils\n"
        "assay.opencompass.uninstall()\n"
        "for name in [m for m in sys.modules if m.split('.')[0] in ('opencompass', 'mmengine')]:\n"
        "    del sys.modules[name]\n"
        "try:\n"
        "    import mmengine.config\n"
        "except ModuleNotFoundError:\n"
        "    print('not served again')\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["not", "served", "not", "served", "again"]
