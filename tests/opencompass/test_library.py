"""OpenCompass's config library: config-only installs, stand-ins for names assay lacks, kinds of re-exports."""

from __future__ import annotations

import importlib
import inspect
import json
import os
import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

import assay.opencompass as oc
from assay.cli import main
from assay.config import load_config
from assay.errors import ConfigError
from assay.opencompass import is_standin, opencompass_mode, origin, standin_name
from assay.rundir.results import read_result

SRC = Path(__file__).resolve().parents[2] / "src"

pytestmark = pytest.mark.skipif(opencompass_mode() == "full", reason="OpenCompass is fully installed: its own names serve")


def _forget_library() -> None:
    for name in [n for n in sys.modules if n == "opencompass.configs" or n.startswith("opencompass.configs.")]:
        del sys.modules[name]


@pytest.fixture
def library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder laid out as OpenCompass's library (``opencompass/configs/...``), named by ASSAY_OPENCOMPASS."""
    root = tmp_path / "lib"
    (root / "opencompass" / "configs" / "datasets").mkdir(parents=True)
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(root))
    _forget_library()
    yield root
    _forget_library()


def _table() -> dict:
    return json.loads((SRC / "assay" / "opencompass" / "opencompass_names.json").read_text())


def _unimplemented(module: str, kind: str, suffix: str) -> str:
    """A name OpenCompass defines in ``module`` that assay serves as a stand-in (picked at run time, so that
    implementing a name later does not break these tests)."""
    mod = importlib.import_module(module)
    for name, entry in sorted(_table()["modules"][module]["names"].items()):
        if entry[0] == kind and name.endswith(suffix) and is_standin(getattr(mod, name)):
            return name
    raise AssertionError(f"assay implements every {suffix} of {module}")


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# -- kinds of the names of the compatibility layer ------------------------------------------------

KIND_CHECKS = {
    "c": (lambda obj: isinstance(obj, type), "a class"),
    "f": (lambda obj: callable(obj) and not isinstance(obj, (type, types.ModuleType)), "a function"),
    "m": (lambda obj: isinstance(obj, types.ModuleType), "a module"),
}


def test_every_opencompass_name_imports_as_the_kind_it_has_in_opencompass() -> None:
    oc.install()
    wrong = []
    count = 0
    for module, info in _table()["modules"].items():
        mod = importlib.import_module(module)
        for name, entry in info["names"].items():
            if entry[0] not in KIND_CHECKS:
                continue
            check, what = KIND_CHECKS[entry[0]]
            obj = getattr(mod, name)
            count += 1
            if not check(obj):
                wrong.append(f"{module}.{name} is {obj!r}, not {what}")
    assert count > 5000
    assert not wrong, "\n".join(wrong[:30])


def test_a_reexported_function_is_the_function_not_a_module(tmp_path: Path) -> None:
    cfg = _write(tmp_path / "cfg.py", "from opencompass.datasets import generic_llmjudge_postprocess as g\n"
                                      "from opencompass.datasets.generic import generic_llmjudge_postprocess as h\n")
    variables = load_config(cfg).variables
    assert inspect.isfunction(variables["g"]) and variables["g"] is variables["h"]
    assert origin(variables["g"]) == "built in"


def test_submodules_import_as_modules() -> None:
    oc.install()
    from opencompass.datasets import gsm8k  # type: ignore[import-not-found]

    assert isinstance(gsm8k, types.ModuleType) and gsm8k.__name__ == "opencompass.datasets.gsm8k"


def test_stand_ins_know_their_dotted_name_and_fail_when_used() -> None:
    oc.install()
    name = _unimplemented("opencompass.datasets", "c", "Evaluator")
    mod = importlib.import_module("opencompass.datasets")
    cls = getattr(mod, name)
    dotted = _table()["modules"]["opencompass.datasets"]["names"][name][1]
    assert standin_name(cls) == dotted == f"{cls.__module__}.{cls.__qualname__}"
    assert origin(cls) == "stand-in"
    with pytest.raises(oc.ComponentUnavailable, match=r"pip install opencompass==0\.5\.4.*register an implementation"):
        cls()
    # one object per definition, however it is imported
    home = importlib.import_module(cls.__module__)
    assert getattr(home, name) is cls
    assert getattr(cls, "load", None) is None  # probing an attribute is not an error


# -- a fake library: the stand-in fails only its task ----------------------------------------------

LIB_KNOWN = """
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_evaluator import AccEvaluator
from opencompass.datasets import JsonlDataset
from opencompass.utils.text_postprocessors import first_capital_postprocess

infer_cfg = dict(prompt_template=dict(type=PromptTemplate, template='{question}'),
                 retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer))
known_datasets = [dict(abbr='known', type=JsonlDataset, path='DATA',
                       reader_cfg=dict(input_columns=['question'], output_column='answer'), infer_cfg=infer_cfg,
                       eval_cfg=dict(evaluator=dict(type=AccEvaluator), pred_postprocessor=dict(type=first_capital_postprocess)))]
"""

LIB_UNKNOWN = """
from opencompass.datasets import EVALUATOR
from .known_gen import known_datasets

# an imported dataset is mmengine's ConfigDict, as OpenCompass's own files use it
unknown_datasets = [dict(known_datasets[0].deepcopy(), abbr='unknown', eval_cfg=dict(evaluator=dict(type=EVALUATOR)))]
"""


USER_CONFIG = """
from mmengine.config import read_base
with read_base():
    from opencompass.configs.datasets.fam.known_gen import known_datasets
    from opencompass.configs.datasets.fam.unknown_gen import unknown_datasets
datasets = [*known_datasets, *unknown_datasets]
models = [dict(abbr='m', path='m')]
"""


@pytest.fixture
def fake_run(library: Path, tmp_path: Path) -> tuple[Path, Path, str]:
    data = _write(tmp_path / "data" / "q.jsonl", '{"question": "q0", "answer": "A"}\n{"question": "q1", "answer": "B"}\n')
    evaluator = _unimplemented("opencompass.datasets", "c", "Evaluator")
    family = library / "opencompass" / "configs" / "datasets" / "fam"
    _write(family / "known_gen.py", LIB_KNOWN.replace("DATA", str(data)))
    _write(family / "unknown_gen.py", LIB_UNKNOWN.replace("DATA", str(data)).replace("EVALUATOR", evaluator))
    cfg = _write(tmp_path / "cfg" / "eval_lib.py", USER_CONFIG)
    work = tmp_path / "work"
    for abbr in ("known", "unknown"):
        preds = {"0": {"prediction": "A", "gold": "A"}, "1": {"prediction": "C", "gold": "B"}}
        _write(work / "run1" / "predictions" / "m" / f"{abbr}.json", json.dumps(preds))
    return cfg, work, evaluator


def test_library_configs_load_with_stand_ins(fake_run: tuple[Path, Path, str]) -> None:
    cfg, _work, evaluator = fake_run
    config = load_config(cfg)
    assert [d["abbr"] for d in config.datasets] == ["known", "unknown"]
    known, unknown = config.datasets
    assert origin(known["eval_cfg"]["evaluator"]["type"]) == "built in"
    assert origin(unknown["eval_cfg"]["evaluator"]["type"]) == "stand-in"
    assert known["infer_cfg"]["inferencer"]["type"].__qualname__ == "GenInferencer"
    from assay.tasks.plan import unavailable_components

    assert unavailable_components(known) == []
    ((key, dotted),) = unavailable_components(unknown)
    assert key == "eval_cfg.evaluator.type" and dotted.endswith(f".{evaluator}")


def test_only_the_task_using_a_stand_in_fails(fake_run: tuple[Path, Path, str], capsys: pytest.CaptureFixture[str]) -> None:
    cfg, work, evaluator = fake_run
    rc = main(["eval", str(cfg), "-w", str(work), "-r", "run1", "--workers", "1"])
    err = capsys.readouterr().err
    assert rc == 1
    assert read_result(work / "run1" / "results" / "m" / "known.json")["accuracy"] == 50.0
    failed = read_result(work / "run1" / "results" / "m" / "unknown.json")
    message = failed["error"]
    assert "eval_cfg.evaluator.type" in message and f".{evaluator}" in message
    assert "pip install opencompass==0.5.4" in message and f"register an implementation under the name {evaluator!r}" in message
    assert failed["_meta"]["error_type"] == "ComponentUnavailable"
    assert "m/unknown" in err and "m/known:" not in err


def test_registering_an_implementation_under_the_name_makes_the_task_run(
    fake_run: tuple[Path, Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from assay.evaluators import AccEvaluator
    from assay.registry import ICL_EVALUATORS

    cfg, work, evaluator = fake_run
    ICL_EVALUATORS.lookup("AccEvaluator")  # populate before patching
    monkeypatch.setitem(ICL_EVALUATORS._items, evaluator, AccEvaluator)
    assert main(["eval", str(cfg), "-w", str(work), "-r", "run1", "--workers", "1"]) == 0
    assert read_result(work / "run1" / "results" / "m" / "unknown.json")["accuracy"] == 50.0


def test_a_registry_name_of_opencompass_given_as_a_string_is_a_stand_in(tmp_path: Path) -> None:
    from assay.opencompass import standin_for_type_name
    from assay.tasks.plan import unavailable_components

    registered = _table()["registered"]["ICL_EVALUATORS"]
    name = next(n for n in sorted(registered) if standin_for_type_name(n) is not None)
    dataset = {"abbr": "x", "type": "JsonlDataset", "eval_cfg": {"evaluator": {"type": name}}}
    assert unavailable_components(dataset) == [("eval_cfg.evaluator.type", registered[name][1])]
    assert unavailable_components({**dataset, "eval_cfg": {"evaluator": {"type": "AccEvaluator"}}}) == []
    # a dotted path, as in a config OpenCompass dumped
    dotted = registered[name][1]
    assert unavailable_components({**dataset, "eval_cfg": {"evaluator": {"type": dotted}}}) == [("eval_cfg.evaluator.type", dotted)]
    assert unavailable_components({**dataset, "eval_cfg": {"evaluator": {"type": "opencompass.openicl.icl_evaluator.AccEvaluator"}}}) == []


def test_a_library_folder_without_configs_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(tmp_path))
    with pytest.raises(ConfigError, match="holds no opencompass/configs"):
        oc.library_root()


# -- pip install --no-deps opencompass: its files must not shadow assay's aliases -------------------

def test_no_deps_install_serves_configs_from_its_files_and_the_rest_from_assay(tmp_path: Path) -> None:
    site = tmp_path / "site"
    package = site / "opencompass"
    _write(package / "__init__.py", "__version__ = '0.5.4'\n")
    # OpenCompass's own package modules import torch, which a config-only install lacks
    _write(package / "datasets" / "__init__.py", "import torch\n")
    _write(package / "configs" / "__init__.py", "")
    _write(package / "configs" / "datasets" / "__init__.py", "")
    _write(package / "configs" / "datasets" / "fam" / "fam_gen.py",
           "from opencompass.openicl.icl_evaluator import AccEvaluator\n"
           "from opencompass.datasets import generic_llmjudge_postprocess\n"
           "fam_datasets = [dict(abbr='fam', eval_cfg=dict(evaluator=dict(type=AccEvaluator)))]\n")
    code = (
        "import os, sys\n"
        "import assay.opencompass as oc\nfrom assay.config import load_config\n"
        "cfg = os.path.join(sys.argv[1], 'cfg.py')\n"
        "open(cfg, 'w').write('from mmengine.config import read_base\\nwith read_base():\\n"
        "    from opencompass.configs.datasets.fam.fam_gen import fam_datasets\\n')\n"
        "d = load_config(cfg).variables['fam_datasets'][0]\n"
        "assert oc.opencompass_mode() == 'files', oc.opencompass_mode()\n"
        "assert oc.origin(d['eval_cfg']['evaluator']['type']) == 'built in'\n"
        "import opencompass.configs.datasets.fam.fam_gen as m\n"
        "assert m.__file__.startswith(sys.argv[2]), m.__file__\n"
        "print('ok')\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(SRC)])}
    env.pop("ASSAY_OPENCOMPASS", None)
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path), str(package)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


# -- OpenCompass 0.5.4's own library --------------------------------------------------------------

def test_opencompass_library_config_loads(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    _forget_library()
    cfg = _write(tmp_path / "cfg.py", "from mmengine.config import read_base\nwith read_base():\n"
                                      "    from opencompass.configs.datasets.gsm8k.gsm8k_gen import gsm8k_datasets\n"
                                      "    from opencompass.configs.datasets.ruler.ruler_4k_gen import ruler_datasets\n")
    try:
        variables = load_config(cfg).variables
    finally:
        _forget_library()
    (gsm8k,) = variables["gsm8k_datasets"]
    assert gsm8k["abbr"] == "gsm8k" and gsm8k["path"] == "opencompass/gsm8k"
    assert origin(gsm8k["eval_cfg"]["evaluator"]["type"]) == "built in"
    assert len(variables["ruler_datasets"]) > 1
