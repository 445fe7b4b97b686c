"""Running OpenCompass's library configs in tests: the config importing one, and the environment of a run.

A run reads OpenCompass's config library from ``oc_library`` and its data from a folder of the test's own (a copy
of the recorded ``cache``, or none at all), never from the user's home or the Hub's cache.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

#: the model every recorded prediction file is under
MODEL = "oc-model"


def library_config(rel: str, variable: str, datasets: str | None = None) -> str:
    """A config importing ``variable`` from the library's ``configs/datasets/<rel>`` (``.py`` included) and running
    ``datasets`` (an expression; by default every dataset of ``variable``) for :data:`MODEL`."""
    module = "opencompass.configs.datasets." + rel[: -len(".py")].replace("/", ".")
    chosen = f"list({variable})" if datasets is None else datasets
    return (f"from mmengine.config import read_base\n\nwith read_base():\n    from {module} import {variable}\n\n"
            f"datasets = {chosen}\nmodels = [dict(abbr={MODEL!r}, path='org/model')]\n")


def _library_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path, data: Path) -> None:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(data))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no ~/.cache/opencompass copy either
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))  # nor a copy in the Hub's cache


def with_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path, cache: Path, into: str = "") -> Path:
    """A run with a copy of ``cache`` as OpenCompass's data folder (``into`` a sub-folder of it, if named), the
    working directory there; the folder."""
    data = tmp_path / "cache"
    shutil.copytree(cache, data / into if into else data)
    _library_run(tmp_path, monkeypatch, oc_library, data)
    monkeypatch.chdir(data)
    return data


def without_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path) -> None:
    """A run with no data on disk (an empty data folder), in ``tmp_path``."""
    _library_run(tmp_path, monkeypatch, oc_library, tmp_path / "no-data")
    monkeypatch.chdir(tmp_path)


def judged_family_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path, cache: Path) -> None:
    """A run of a recorded judge family with its data read in place (``cache``, the working directory too), an
    empty Hub cache offline and no OpenAI key of the caller's (the judge is a local server)."""
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(cache))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))  # empty: the local folders are read
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.chdir(cache)


def config_datasets(text: str, tmp_path: Path) -> list[dict[str, Any]]:
    """The ``datasets`` of the config ``text``, as assay loads it."""
    from assay import load_config

    config = tmp_path / "library.py"
    config.write_text(text, encoding="utf-8")
    return list(load_config(config).variables["datasets"])
