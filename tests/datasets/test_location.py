"""Dataset ids and paths resolve as OpenCompass resolves them; an id is never taken
relative to the config's folder; nothing is downloaded."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import assay.opencompass as oc
from assay.cli import main
from assay.config import load_config
from assay.datasets.build import build_test_set
from assay.datasets.location import get_data_path, is_dataset_id, local_location, locate_data
from assay.errors import ConfigError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET, TEXT_POSTPROCESSORS, resolve_type

ARC_ID = "opencompass/ai2_arc-dev"
ARC_LOCAL = "./data/ARC/ARC-c/ARC-Challenge-Dev.jsonl"


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clean environment: cwd and HOME in ``tmp_path``, no COMPASS_DATA_CACHE, no DATASET_SOURCE."""
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    (tmp_path / "home").mkdir()
    (tmp_path / "cwd").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path / "cwd")
    return tmp_path


def _rows(path: Path, answers: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps({"question": f"q{i}", "answerKey": a}) + "\n" for i, a in enumerate(answers)))


def test_the_id_table_is_opencompass_s() -> None:
    assert is_dataset_id("opencompass/gsm8k") and not is_dataset_id("data/gsm8k") and not is_dataset_id(3)
    assert local_location("opencompass/gsm8k") == "./data/gsm8k/"
    assert local_location(ARC_ID) == ARC_LOCAL
    assert local_location("my/own/path") == "my/own/path"


def test_an_id_maps_to_the_local_layout_under_the_working_directory(env: Path) -> None:
    assert get_data_path("opencompass/gsm8k") == "./data/gsm8k/"
    loc = locate_data("opencompass/gsm8k", env / "configs")
    assert not loc.exists and loc.dataset_id
    assert loc.looked_at[0] == "./data/gsm8k/"
    assert "configs" not in str(loc.path)
    (env / "cwd" / "data" / "gsm8k").mkdir(parents=True)
    assert locate_data("opencompass/gsm8k", env / "configs").exists


def test_compass_data_cache_is_honoured(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = env / "cache"
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(cache))
    assert get_data_path("opencompass/gsm8k") == os.path.join(str(cache), "./data/gsm8k/")
    assert get_data_path("data/x.jsonl", local_mode=True) == os.path.join(str(cache), "data/x.jsonl")
    (env / "cwd" / "data" / "gsm8k").mkdir(parents=True)  # the working directory is not where the cache points
    assert not locate_data("opencompass/gsm8k").exists
    (cache / "data" / "gsm8k").mkdir(parents=True)
    loc = locate_data("opencompass/gsm8k")
    assert loc.exists and Path(loc.path) == cache / "data" / "gsm8k"


def test_the_home_cache_is_the_fallback(env: Path) -> None:
    home_copy = env / "home" / ".cache" / "opencompass" / "data" / "gsm8k"
    home_copy.mkdir(parents=True)
    assert Path(get_data_path("opencompass/gsm8k")) == home_copy
    assert Path(get_data_path("data/gsm8k", local_mode=True)) == home_copy


def test_absolute_paths_and_local_mode(env: Path) -> None:
    assert get_data_path(str(env / "x.jsonl")) == str(env / "x.jsonl")
    # local mode skips the table: the id is a plain relative path there
    assert get_data_path("opencompass/gsm8k", local_mode=True) == "opencompass/gsm8k"


@pytest.mark.parametrize("source", ["ModelScope", "HF"])
def test_a_hub_source_is_refused(env: Path, monkeypatch: pytest.MonkeyPatch, source: str) -> None:
    monkeypatch.setenv("DATASET_SOURCE", source)
    with pytest.raises(ConfigError, match=f"DATASET_SOURCE={source}.*local files only"):
        get_data_path("opencompass/gsm8k")
    with pytest.raises(ConfigError, match="DATASET_SOURCE"):
        locate_data("opencompass/gsm8k")
    assert get_data_path("data/x", local_mode=True) == "data/x"  # as in OpenCompass, local mode does not ask


def test_a_plain_path_is_looked_for_in_cwd_then_the_config_folder_then_the_cache(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    configs, cache = env / "configs", env / "cache"
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(cache))
    missing = locate_data("d/x.jsonl", configs)
    assert not missing.exists and missing.path == configs / "d" / "x.jsonl"
    assert missing.looked_at[:3] == ("d/x.jsonl", str(configs / "d" / "x.jsonl"), str(cache / "d" / "x.jsonl"))
    for where in (cache, configs, env / "cwd"):
        (where / "d").mkdir(parents=True)
        (where / "d" / "x.jsonl").write_text("{}\n")
        found = locate_data("d/x.jsonl", configs)
        assert found.exists and found.path.resolve() == (where / "d" / "x.jsonl").resolve()


def _arc_config(folder: Path, loader: str = "CustomDataset") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    preds = folder / "preds"
    preds.mkdir(exist_ok=True)
    # gold deliberately differs from the data: the result tells which references were used
    (preds / "arc.json").write_text(json.dumps({str(i): {"prediction": p, "gold": "Z"} for i, p in enumerate("ABCD")}))
    cfg = folder / "cfg.py"
    cfg.write_text(
        f"datasets = [dict(abbr='arc', type={loader!r}, path={ARC_ID!r}, reader_cfg=dict(output_column='answerKey'),"
        " eval_cfg=dict(evaluator=dict(type='AccEvaluator')))]\n"
        "models = [dict(abbr='m', predictions='preds')]\n"
    )
    # a decoy where the id would point if it were taken relative to the config's folder
    _rows(folder / "opencompass" / "ai2_arc-dev", ["D", "D", "D", "D"])
    return cfg


@pytest.mark.parametrize("loader", ["CustomDataset", "LocalDataset", "JsonlDataset"])
@pytest.mark.parametrize("with_cache", [False, True])
def test_an_id_in_a_config_reads_the_data_opencompass_would(env: Path, monkeypatch: pytest.MonkeyPatch, loader: str, with_cache: bool) -> None:
    cfg = _arc_config(env / "project", loader)
    base = env / "cache" if with_cache else env / "cwd"
    if with_cache:
        monkeypatch.setenv("COMPASS_DATA_CACHE", str(base))
    _rows(base / ARC_LOCAL, ["A", "B", "X", "X"])
    rc = main(["eval", str(cfg), "-w", str(env / "w"), "--workers", "1"])
    (run,) = (env / "w").iterdir()
    result = json.loads((run / "results" / "m" / "arc.json").read_text())
    if loader == "JsonlDataset":
        # OpenCompass's JsonlDataset reads its path in local mode: an id is not looked up in the table
        assert rc == 1 and "opencompass/ai2_arc-dev" in result["error"]
        return
    assert rc == 0
    assert result["accuracy"] == 50.0  # the data's references, not the decoy's (0) nor gold (0)
    assert "references" not in result["_meta"]


def test_build_test_set_gives_an_id_to_the_loader_unchanged(env: Path) -> None:
    seen: list[str] = []

    def loader(path: str) -> list[dict[str, str]]:
        seen.append(path)
        return [{"answer": "A"}]

    ts = build_test_set(
        {"abbr": "x", "type": loader, "path": "opencompass/gsm8k", "reader_cfg": {"output_column": "answer"}},
        resolve_path=lambda value: Path("/elsewhere") / value,
    )
    assert seen == ["opencompass/gsm8k"] and ts.references == ["A"]
    assert ts.files == [Path("./data/gsm8k/")]


def test_custom_dataset_joins_file_name_and_jsonl_dataset_reads_below_the_cache(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = env / "cache"
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(cache))
    _rows(cache / "data" / "gsm8k" / "extra.jsonl", ["A", "B"])
    custom = LOAD_DATASET.get("CustomDataset")
    assert custom.load_table("opencompass/gsm8k", file_name="extra.jsonl").num_rows == 2
    assert LOAD_DATASET.get("JsonlDataset").load_table("data/gsm8k/extra.jsonl").num_rows == 2


def test_humaneval_reads_an_id_where_opencompass_keeps_it(env: Path) -> None:
    problem = {"task_id": "T/0", "prompt": "def f():\n", "test": "assert True", "entry_point": "f", "canonical_solution": "  pass\n"}
    target = env / "cwd" / "data" / "humaneval" / "human-eval-v2-20210705.jsonl"
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps(problem) + "\n")
    ds = LOAD_DATASET.get("HumanevalDataset").load("opencompass/humaneval", num_repeats=2)
    assert ds["task_id"] == ["T/0", "T/0"]


def test_a_config_gets_assay_s_get_data_path_from_opencompass_utils(env: Path) -> None:
    cfg = env / "cfg.py"
    cfg.write_text(
        "from opencompass.utils import get_data_path\nfrom opencompass.utils.datasets import get_data_path as g2\n"
        "where = get_data_path('opencompass/gsm8k')\n"
    )
    config = load_config(cfg)
    assert config.variables["where"] == "./data/gsm8k/"
    assert config.variables["get_data_path"] is get_data_path is config.variables["g2"]


@pytest.mark.parametrize(
    ("dotted", "registry", "name"),
    [
        ("opencompass.openicl.icl_evaluator.AccEvaluator", ICL_EVALUATORS, "AccEvaluator"),
        ("opencompass.datasets.Gsm8kEvaluator", ICL_EVALUATORS, "Gsm8kEvaluator"),
        ("opencompass.datasets.gsm8k.gsm8k_postprocess", TEXT_POSTPROCESSORS, "gsm8k_postprocess"),
        ("opencompass.utils.text_postprocessors.first_option_postprocess", TEXT_POSTPROCESSORS, "first_option_postprocess"),
        ("opencompass.datasets.humaneval.HumanevalDataset", LOAD_DATASET, "HumanevalDataset"),
        ("opencompass.datasets.custom.CustomDataset", LOAD_DATASET, "CustomDataset"),
    ],
)
def test_dotted_opencompass_types_resolve_to_assay_s_components(dotted: str, registry: object, name: str) -> None:
    oc.install()
    assert resolve_type(dotted, registry) is resolve_type(name, registry)  # type: ignore[arg-type]


def test_a_dotted_name_outside_the_registries_resolves_through_the_aliases() -> None:
    from assay.evaluate.base import BaseEvaluator

    oc.install()
    assert resolve_type("opencompass.openicl.icl_evaluator.icl_base_evaluator.BaseEvaluator", ICL_EVALUATORS) is BaseEvaluator
