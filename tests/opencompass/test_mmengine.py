"""mmengine's ``ConfigDict`` as assay serves it (``mmengine.config`` where mmengine is not installed)."""

from __future__ import annotations

import copy
import importlib.util
import pickle

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
