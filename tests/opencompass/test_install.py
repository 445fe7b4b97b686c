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


def test_opencompass_default_summarizer_keeps_its_arguments_and_still_computes_the_groups(tmp_path) -> None:
    """``summary_groups`` stays the list given (``[]`` when omitted) and the summarizer has a ``logger``,
    as OpenCompass's has; the summary computes the groups it was given."""
    run = tmp_path / "run"
    for abbr, acc in [("a", 60), ("b", 90)]:
        (run / "results" / "m").mkdir(parents=True, exist_ok=True)
        (run / "results" / "m" / f"{abbr}.json").write_text(f'{{"accuracy": {acc}}}')
    done = _python(
        "import assay.opencompass, logging\n"
        "assay.opencompass.install()\n"
        "from opencompass.summarizers.default import DefaultSummarizer\n"
        f"cfg = dict(models=[dict(abbr='m')], datasets=[dict(abbr='a'), dict(abbr='b')], work_dir={str(run)!r})\n"
        "groups = [{'name': 'avg', 'subsets': ['a', 'b']}]\n"
        "s = DefaultSummarizer(config=cfg, summary_groups=groups)\n"
        "print(s.summary_groups is groups, DefaultSummarizer(config=cfg).summary_groups == [])\n"
        "print(isinstance(s.logger, logging.Logger), s.cfg is cfg)\n"
        "print(s.summarize(time_str='20240101_000000').table[-1])\n"
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "True True"
    assert lines[1] == "True True"
    assert lines[2] == "['avg', '-', 'naive_average', '-', '75.00']"


def test_patching_get_logger_of_the_opencompass_summarizer_module_gives_its_summarizers_that_logger() -> None:
    """``opencompass.summarizers.default.get_logger`` is what ``DefaultSummarizer`` calls when it is built:
    replaced, the summarizers built meanwhile log (``prompt_db`` is deprecated) through the replacement;
    restored, they log through assay's logger again, which warns of ``prompt_db`` too."""
    done = _python(
        "import assay.opencompass, logging\n"
        "from unittest.mock import MagicMock, patch\n"
        "assay.opencompass.install()\n"
        "from opencompass.summarizers.default import DefaultSummarizer\n"
        "cfg = dict(models=[dict(abbr='m')], datasets=[dict(abbr='a')], work_dir='w')\n"
        "with patch('opencompass.summarizers.default.get_logger') as get_logger:\n"
        "    log = MagicMock()\n"
        "    get_logger.return_value = log\n"
        "    s = DefaultSummarizer(config=cfg, prompt_db='old')\n"
        "    print(s.logger is log, log.warning.call_count, 'prompt_db' in log.warning.call_args[0][0])\n"
        "    DefaultSummarizer(config=cfg)\n"
        "    print(log.warning.call_count)\n"
        "logging.basicConfig(format='LOG %(message)s')\n"
        "s = DefaultSummarizer(config=cfg, prompt_db='old')\n"
        "print(isinstance(s.logger, logging.Logger))\n"
        "import opencompass.summarizers.default as module\n"
        "print(module.get_logger() is s.logger)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["True 1 True", "1", "True", "True"]
    assert "LOG summarizer option 'prompt_db' is deprecated" in done.stderr
