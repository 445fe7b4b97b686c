"""Names of models and datasets without ``abbr``, against the names OpenCompass 0.5.4 gives them.

``tests/data/oc_abbr`` is recorded by ``scripts/record_oc_abbr.py`` in a working
directory named ``oc-cwd`` holding a symbolic link ``models/link`` to
``store/real-model``; the tests name the same configs in a directory of the same
name and layout (a model's path is resolved from the working directory).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay import load_config
from assay.config import dataset_abbr, model_abbr
from assay.errors import ConfigError

DATA = Path(__file__).resolve().parent.parent / "data" / "oc_abbr"
EXPECTED: dict[str, Any] = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))


@pytest.fixture
def oc_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cwd = tmp_path / EXPECTED["cwd_name"]
    (cwd / "store" / "real-model").mkdir(parents=True)
    (cwd / "models").mkdir()
    os.symlink("../store/real-model", cwd / "models" / "link")
    for name in ("config.py", "dumped.py"):
        shutil.copyfile(DATA / name, cwd / name)
    monkeypatch.chdir(cwd)
    return cwd


@pytest.mark.parametrize(("cfg", "name"), EXPECTED["models"], ids=[n for _, n in EXPECTED["models"]])
def test_model_names_agree_with_opencompass(oc_cwd: Path, cfg: dict[str, Any], name: str) -> None:
    assert model_abbr(cfg) == name


@pytest.mark.parametrize(("cfg", "name"), EXPECTED["datasets"], ids=[n for _, n in EXPECTED["datasets"]])
def test_dataset_names_agree_with_opencompass(oc_cwd: Path, cfg: dict[str, Any], name: str) -> None:
    assert dataset_abbr(cfg) == name


@pytest.mark.parametrize("file", ["config.py", "dumped.py"])
def test_a_config_without_abbrs_names_folders_as_opencompass(oc_cwd: Path, file: str) -> None:
    """The config as written (classes, imported from a package or a submodule) and as OpenCompass dumps it (strings)."""
    config = load_config(oc_cwd / file)
    assert [model_abbr(m) for m in config.models] == EXPECTED["config_models"]
    assert [dataset_abbr(d) for d in config.datasets] == EXPECTED["config_datasets"]


@pytest.mark.parametrize(
    ("cfg", "message"),
    [
        ({"type": "opencompass.models.OpenAI"}, r"no 'abbr' and no 'path'"),
        ({"path": "org/model"}, r"no 'abbr' and no 'type'.*'org/model'"),
        ({"abbr": "", "path": "org/model", "type": "T"}, r"'abbr' must be a non-empty string"),
    ],
)
def test_a_model_that_cannot_be_named_is_a_config_error(cfg: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        model_abbr(cfg)


@pytest.mark.parametrize(
    ("cfg", "message"),
    [({"name": "x"}, r"no 'abbr' and no 'path'"), ({"path": "p", "name": None}, r"'name' None is not a string")],
)
def test_a_dataset_that_cannot_be_named_is_a_config_error(cfg: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        dataset_abbr(cfg)
