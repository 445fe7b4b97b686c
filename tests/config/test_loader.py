"""Config files: read_base in both spellings, relative imports, sibling modules, errors (R-2.1 – R-2.3, R-2.6)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from assay import load_config
from assay.errors import ConfigError


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


@pytest.mark.parametrize("spelling", ["from mmengine.config import read_base", "from assay import read_base", "from assay.config import read_base"])
def test_read_base_imports_sibling_config_files(tmp_path: Path, spelling: str) -> None:
    _write(tmp_path / "groups" / "mmlu.py", "mmlu_summary_groups = [dict(name='mmlu', subsets=['a', 'b'])]\n")
    _write(tmp_path / "datasets" / "x" / "x_gen.py", "x_datasets = [dict(abbr='x')]\n")
    cfg = _write(
        tmp_path / "main.py",
        f"""
        {spelling}
        with read_base():
            from .groups.mmlu import mmlu_summary_groups
            from .datasets.x.x_gen import x_datasets
        datasets = [*x_datasets]
        summarizer = dict(summary_groups=sum([v for k, v in locals().items() if k.endswith('_summary_groups')], []))
        """,
    )
    config = load_config(cfg)
    assert config.datasets == [{"abbr": "x"}]
    assert config.summarizer == {"summary_groups": [{"name": "mmlu", "subsets": ["a", "b"]}]}


def test_parent_relative_imports_and_packages(tmp_path: Path) -> None:
    _write(tmp_path / "shared" / "common.py", "value = 41\n")
    _write(tmp_path / "shared" / "pkg" / "__init__.py", "from ..common import value\nplus = value + 1\n")
    cfg = _write(
        tmp_path / "configs" / "eval.py",
        """
        from assay import read_base
        with read_base():
            from ..shared.pkg import plus
            from ..shared import common
        answer = plus + common.value - 41
        """,
    )
    assert load_config(cfg).variables["answer"] == 42


def test_config_folder_is_importable_for_user_modules(tmp_path: Path) -> None:
    _write(
        tmp_path / "my_custom_metrics_mod.py",
        """
        from opencompass.openicl.icl_evaluator import BaseEvaluator
        from opencompass.registry import ICL_EVALUATORS

        @ICL_EVALUATORS.register_module('CustomLenEvaluatorForLoaderTest')
        class CustomLen(BaseEvaluator):
            def score(self, predictions):
                return {'len': len(predictions)}
        """,
    )
    cfg = _write(tmp_path / "cfg.py", "import my_custom_metrics_mod\nevaluator = dict(type='CustomLenEvaluatorForLoaderTest')\n")
    load_config(cfg)
    from assay.registry import ICL_EVALUATORS

    assert ICL_EVALUATORS.get("CustomLenEvaluatorForLoaderTest").__name__ == "CustomLen"


def test_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    cfg = _write(tmp_path / "broken.py", "datasets = [\nmodels = 1\n")
    with pytest.raises(ConfigError, match=r"broken\.py:\d+: syntax error"):
        load_config(cfg)


def test_exception_names_file_and_line(tmp_path: Path) -> None:
    cfg = _write(tmp_path / "boom.py", "a = 1\nb = a / 0\n")
    with pytest.raises(ConfigError, match=r"boom\.py:2: ZeroDivisionError"):
        load_config(cfg)


def test_missing_relative_import_names_what_was_looked_for(tmp_path: Path) -> None:
    cfg = _write(tmp_path / "cfg.py", "from assay import read_base\nwith read_base():\n    from .nope import x\n")
    with pytest.raises(ConfigError, match=r"cfg\.py.*from \.nope import.*nope\.py"):
        load_config(cfg)


def test_circular_config_imports_are_reported(tmp_path: Path) -> None:
    _write(tmp_path / "a.py", "from .b import y\nx = 1\n")
    _write(tmp_path / "b.py", "from .a import x\ny = 2\n")
    with pytest.raises(ConfigError, match="circular config import"):
        load_config(tmp_path / "a.py")


def test_missing_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nope.py")


def test_resolve_path_prefers_cwd_then_config_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = _write(tmp_path / "c" / "cfg.py", "x = 1\n")
    _write(tmp_path / "c" / "data.jsonl", "{}\n")
    config = load_config(cfg)
    monkeypatch.chdir(tmp_path)
    assert config.resolve_path("data.jsonl") == tmp_path / "c" / "data.jsonl"
    _write(tmp_path / "data.jsonl", "{}\n")
    assert config.resolve_path("data.jsonl") == Path("data.jsonl")


@pytest.mark.parametrize("call", ["sys.exit(0)", "sys.exit(3)", "exit()", "raise SystemExit"])
def test_a_config_that_exits_is_a_config_error_naming_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], call: str
) -> None:
    from assay.cli import main

    cfg = _write(tmp_path / "cfg.py", f"import sys\ndatasets = []\n{call}\nmodels = [dict(abbr='m')]\n")
    assert main(["run", str(cfg), "-w", str(tmp_path / "w")]) == 2
    err = capsys.readouterr().err
    assert f"{cfg}:3: the config exits while it is loaded" in err
    assert not (tmp_path / "w").exists(), "nothing was run"


def test_an_exit_in_an_imported_config_names_that_file(tmp_path: Path) -> None:
    base = _write(tmp_path / "base.py", "x = 1\nimport sys\nsys.exit(0)\n")
    cfg = _write(tmp_path / "main.py", "from assay import read_base\nwith read_base():\n    from .base import x\n")
    with pytest.raises(ConfigError, match=rf"{base}:3: the config exits while it is loaded \(SystemExit\(0\)\)"):
        load_config(cfg)
