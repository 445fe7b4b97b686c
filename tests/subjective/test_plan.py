"""Planning the judge tasks of a config as OpenCompass 0.5.4's subjective partitioner plans them."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.config.loader import RunConfig
from assay.errors import ConfigError
from assay.rundir.layout import RunDir
from assay.subjective.plan import is_subjective, plan_subjective
from assay.tasks.plan import plan_tasks

JUDGED = dict(eval_cfg=dict(evaluator=dict(type="LMEvaluator", prompt_template={})))


def _config(datasets: list[dict], abbrs: list[str], judges: list[str] | None = ("j1",), **extra: object) -> RunConfig:
    variables: dict = {"datasets": datasets, "models": [dict(abbr=m) for m in abbrs]}
    if judges is not None:
        variables["eval"] = dict(partitioner=dict(judge_models=[dict(abbr=j) for j in judges], **extra))
    return RunConfig(Path("config.py"), variables)


def _names(config: RunConfig) -> list[str]:
    return [t.name for t in plan_subjective(config)]


def test_single_scores_every_model_with_every_judge() -> None:
    config = _config([dict(JUDGED, abbr="d", mode="singlescore")], ["a", "b"], ["j1", "j2"])
    assert _names(config) == ["a_judged-by--j1/d", "a_judged-by--j2/d", "b_judged-by--j1/d", "b_judged-by--j2/d"]


def test_m2n_pairs_base_models_with_models_once() -> None:
    """A model paired with itself is left out, and of two pairs of the same abbrs (either order) the first kept."""
    base = [dict(abbr="a"), dict(abbr="ref")]
    config = _config([dict(JUDGED, abbr="d", mode="m2n", infer_order="double", base_models=base)], ["a", "b", "ref"])
    assert _names(config) == ["a_b_judged-by--j1/d", "a_ref_judged-by--j1/d", "ref_b_judged-by--j1/d"]
    assert {t.infer_order for t in plan_subjective(config)} == {"double"}


def test_allpair_and_partitioner_models() -> None:
    config = _config([dict(JUDGED, abbr="d", mode="allpair")], ["x"], models=[dict(abbr=m) for m in "abc"])
    assert _names(config) == ["a_b_judged-by--j1/d", "a_c_judged-by--j1/d", "b_c_judged-by--j1/d"]


def test_a_dataset_without_abbr_is_named_from_its_path_as_opencompass_names_it() -> None:
    """No ``abbr``: ``<path>[_<name>]`` with ``/`` as ``_`` — a file name in the judged folder, never a path
    that leads out of it (``../`` in the path stays inside)."""
    config = _config([dict(JUDGED, path="data/subjective/alignbench", name="v1", mode="singlescore"),
                      dict(JUDGED, path="../../../tmp/x", mode="singlescore")], ["a"])
    assert _names(config) == ["a_judged-by--j1/data_subjective_alignbench_v1", "a_judged-by--j1/.._.._.._tmp_x"]


@pytest.mark.parametrize(("datasets", "judges", "extra", "message"), [
    ([dict(JUDGED, abbr="d", mode="singlescore")], None, {}, "names no judge"),
    ([dict(JUDGED, abbr="d", mode="fixed")], ("j",), {}, "mode='fixed' plans no task"),
    ([dict(JUDGED, abbr="d")], ("j",), {}, "mode=None"),
    ([dict(JUDGED, abbr="d", mode="singlescore", infer_order="reverse")], ("j",), {}, "infer_order='reverse'"),
    ([dict(JUDGED, abbr="d", mode="m2n")], ("j",), {}, "needs base_models"),
    ([dict(JUDGED, abbr="d", mode="singlescore")], ("j",), {"meta_judge_model": dict(abbr="m")}, "meta_judge_model"),
])
def test_config_mistakes_are_named(datasets: list[dict], judges: tuple[str, ...] | None, extra: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=r"config\.py") as info:
        plan_subjective(_config(datasets, ["a"], list(judges) if judges else None, **extra))
    assert message in str(info.value)


def test_judged_datasets_get_no_objective_task(tmp_path: Path) -> None:
    judged = dict(JUDGED, abbr="judged", mode="singlescore")
    plain = dict(abbr="plain", type="JsonlDataset", path="x.jsonl", reader_cfg=dict(output_column="answer"),
                 eval_cfg=dict(evaluator=dict(type="AccEvaluator")))
    config = _config([judged, plain], ["a"])
    assert is_subjective(judged) and not is_subjective(plain)
    assert [t.name for t in plan_tasks(config, RunDir(tmp_path))] == ["a/plain"]
    assert _names(config) == ["a_judged-by--j1/judged"]
