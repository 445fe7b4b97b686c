"""mmengine's ``ConfigDict`` as assay serves it (``mmengine.config`` where mmengine is not installed)."""

from __future__ import annotations

import copy
import importlib.util
import pickle
from pathlib import Path

import pytest

from assay.opencompass import ConfigDict


def test_nested_dicts_read_as_attributes_through_lists_and_tuples() -> None:
    cfg = ConfigDict({"work_dir": "out", "models": [{"abbr": "m"}], "pair": ({"k": 1},), "eval": {"runner": {"n": 2}}})
    assert cfg.work_dir == "out" and cfg.models[0].abbr == "m" and cfg.pair[0].k == 1 and cfg.eval.runner.n == 2
    assert isinstance(cfg.models, list) and isinstance(cfg.pair, tuple) and isinstance(cfg.eval.runner, ConfigDict)
    assert cfg == {"work_dir": "out", "models": [{"abbr": "m"}], "pair": ({"k": 1},), "eval": {"runner": {"n": 2}}}


def test_assigned_dicts_become_config_dicts_and_missing_keys_are_attribute_errors() -> None:
    cfg = ConfigDict()
    cfg.datasets = [{"abbr": "d"}]
    cfg["summarizer"] = {"summary_groups": []}
    cfg.update(eval={"partitioner": {"type": "x"}})
    assert cfg.datasets[0].abbr == "d" and cfg.summarizer.summary_groups == [] and cfg.eval.partitioner.type == "x"
    assert not hasattr(cfg, "models") and getattr(cfg, "models", None) is None
    with pytest.raises(AttributeError, match="'ConfigDict' object has no attribute 'models'"):
        _ = cfg.models
    with pytest.raises(KeyError):
        _ = cfg["models"]
    del cfg.datasets
    assert "datasets" not in cfg


def test_copies_and_plain_dicts() -> None:
    cfg = ConfigDict(a={"b": [{"c": 1}]})
    deep = cfg.deepcopy()
    assert deep == cfg and deep.a is not cfg.a and isinstance(copy.deepcopy(cfg).a, ConfigDict)
    assert cfg.copy().a is cfg.a and isinstance(cfg.copy(), ConfigDict)
    plain = cfg.to_dict()
    assert plain == {"a": {"b": [{"c": 1}]}} and type(plain["a"]) is dict and type(plain["a"]["b"][0]) is dict
    again = pickle.loads(pickle.dumps(cfg))
    assert again == cfg and again.a.b[0].c == 1


@pytest.mark.skipif(importlib.util.find_spec("mmengine") is not None, reason="mmengine itself is installed")
def test_mmengine_config_serves_it() -> None:
    import assay.opencompass

    assay.opencompass.install()
    from mmengine.config import ConfigDict as Served
    from mmengine.config import read_base

    assert Served is ConfigDict and read_base is assay.opencompass.read_base


def test_a_library_file_that_deletes_its_own_dunders_can_be_imported_again(oc_library: Path, tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # GaokaoBench_gen_5cfe9e ends by deleting every global starting with '_', __spec__ included; a second
    # config importing it in the same process (a notebook, a script loading several configs) must still load
    from assay.config import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    star = tmp_path / "star.py"
    star.write_text("from mmengine.config import read_base\nwith read_base():\n"
                    "    from opencompass.configs.datasets.GaokaoBench.GaokaoBench_gen_5cfe9e import *\n"
                    "datasets = GaokaoBench_datasets\nmodels = [dict(abbr='m', path='m')]\n", encoding="utf-8")
    named = tmp_path / "named.py"
    named.write_text("from mmengine.config import read_base\nwith read_base():\n"
                     "    from opencompass.configs.datasets.GaokaoBench.GaokaoBench_gen import GaokaoBench_datasets\n"
                     "datasets = GaokaoBench_datasets\nmodels = [dict(abbr='m', path='m')]\n", encoding="utf-8")
    first = load_config(star)
    second = load_config(named)
    assert len(first.datasets) == len(second.datasets) > 0
    assert [d["abbr"] for d in first.datasets] == [d["abbr"] for d in second.datasets]
