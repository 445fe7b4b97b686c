"""Row selection, summarizer types, CircularSummarizer, MultiFacetedSummarizer, custom subclasses."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from assay.errors import ConfigError
from assay.registry import SUMMARIZERS
from assay.summarize import (
    CircularSummarizer,
    DefaultSummarizer,
    MultiFacetedSummarizer,
    SummaryResult,
    build_summarizer,
    eval_mode,
    prompt_hash,
    prompt_version,
    run_summarizer,
    validate_summarizer_config,
)
from tests.summarize.builders import FIXED_TIME, GEN, PPL, infer_cfg, reference_config, write_result

# -- dataset_abbrs --------------------------------------------------------------------------


def test_dataset_abbrs_select_and_order_rows(run_dir: Path) -> None:
    abbrs = [
        "sub_b",  # bare: primary metric (score before accuracy)
        "",  # separator
        "--- Exam ---",  # unknown abbr: separator with a name
        ["sub_b", "accuracy"],
        ["sub_b", "nope"],  # unknown metric: a row of dashes, no fallback
        ["sub_c", "accuracy"],  # a model without the value: '-' in its cell only
        "grp_naive",  # a group's primary metric: its first shared metric
        ["grp_naive", "naive_average"],
    ]
    table = run_summarizer(reference_config(run_dir, dataset_abbrs=abbrs), time_str=FIXED_TIME).table
    assert table[1:] == [
        ["sub_b", "4d3a0b", "score", "gen", "1.00", "4.00"],
        ["", "-", "-", "-", "-", "-"],
        ["--- Exam ---", "-", "-", "-", "-", "-"],
        ["sub_b", "4d3a0b", "accuracy", "gen", "70.00", "80.00"],
        ["sub_b", "-", "-", "-", "-", "-"],
        ["sub_c", "747ac5", "accuracy", "ppl", "90.00", "-"],
        ["grp_naive", "-", "accuracy", "mixed", "70.00", "-"],
        ["grp_naive", "-", "naive_average", "mixed", "18.00", "-"],
    ]


def test_bad_dataset_abbrs_item_is_a_config_error(run_dir: Path) -> None:
    with pytest.raises(
        ConfigError, match=r"summarizer.dataset_abbrs\[1\] must be an abbr string or an \[abbr, metric\] pair"
    ):
        validate_summarizer_config(reference_config(run_dir, dataset_abbrs=["sub_a", ["sub_a", "x", "y"]]))


# -- type resolution --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec",
    [
        None,
        DefaultSummarizer,
        "DefaultSummarizer",
        "assay.summarize.DefaultSummarizer",
        "opencompass.summarizers.DefaultSummarizer",
    ],
)
def test_summarizer_type_forms(run_dir: Path, spec: Any) -> None:
    config = reference_config(run_dir)
    if spec is not None:
        config["summarizer"]["type"] = spec
    assert type(build_summarizer(config)) is DefaultSummarizer


def test_no_summarizer_config_means_default(run_dir: Path) -> None:
    config = reference_config(run_dir)
    config["summarizer"] = None
    result = run_summarizer(config, time_str=FIXED_TIME)
    assert [r[0] for r in result.table[1:]] == [
        "sub_a",
        "sub_b",
        "sub_b",
        "sub_c",
        "sub_c",
        "broken",
        "multi",
        "multi",
        "multi",
    ]


def test_unknown_summarizer_type_names_close_matches(run_dir: Path) -> None:
    config = reference_config(run_dir, type="DefaultSumarizer")
    with pytest.raises(
        ConfigError, match=r"summarizer\.type='DefaultSumarizer'.*closest registered names: 'DefaultSummarizer'"
    ):
        validate_summarizer_config(config)


class StrictSummarizer(DefaultSummarizer):
    def __init__(self, config: Any, summary_groups: Any = None) -> None:
        super().__init__(config, summary_groups=summary_groups)


def test_unexpected_option_of_a_summarizer_class_is_a_config_error(run_dir: Path) -> None:
    config = reference_config(run_dir, type=StrictSummarizer, colour="red")
    with pytest.raises(ConfigError, match=r"summarizer StrictSummarizer: .*unexpected keyword argument 'colour'"):
        validate_summarizer_config(config)


def test_unknown_default_option_is_a_warning(run_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    validate_summarizer_config(reference_config(run_dir, lark_bot_url="x", prompt_db="y"))
    assert "ignores the unknown options ['lark_bot_url']" in caplog.text
    assert "'prompt_db' is deprecated" in caplog.text


def test_builtins_are_registered() -> None:
    for name in ("DefaultSummarizer", "CircularSummarizer", "MultiFacetedSummarizer"):
        assert name in SUMMARIZERS.names()


# -- custom subclass ----------------------------------------------------------------------------


class TopModelSummarizer(DefaultSummarizer):
    """Writes only the best model per dataset primary metric."""

    def summarize(self, output_path: str | None = None, time_str: str | None = None) -> SummaryResult:
        scores = self.load_scores()
        lines = []
        for abbr in scores.dataset_abbrs:
            metric = scores.primary_metric(abbr)
            if metric is None:
                continue
            best = max(scores.columns, key=lambda c: scores.value(c, abbr, metric) or float("-inf"))
            lines.append(f"{abbr}: {best}")
        return SummaryResult(text="\n".join(lines), time_str=time_str or "")


def test_custom_subclass_by_class_and_dotted_path(run_dir: Path) -> None:
    for spec in (TopModelSummarizer, f"{__name__}.TopModelSummarizer"):
        result = run_summarizer(reference_config(run_dir, type=spec), time_str=FIXED_TIME)
        assert result.text.splitlines() == ["sub_a: M2-nice", "sub_b: M2-nice", "sub_c: m1", "multi: M2-nice"]


class LegacySummarizer(DefaultSummarizer):
    def summarize(self, output_path=None, time_str=None):  # type: ignore[no-untyped-def]
        self.called = True  # returns None, as OpenCompass summarizers do


def test_subclass_returning_none_still_gives_a_result(run_dir: Path) -> None:
    result = run_summarizer(reference_config(run_dir, type=LegacySummarizer), time_str=FIXED_TIME)
    assert isinstance(result, SummaryResult) and result.text == ""


# -- CircularSummarizer ---------------------------------------------------------------------------


def test_circular_two_header_rows(run_dir: Path) -> None:
    for model, acc in (("m1", 10), ("m2", 20)):
        write_result(run_dir, model, "c1", {"acc_origin": acc, "perf_circular": acc / 2})
    config = {
        "models": [{"abbr": "m1"}, {"abbr": "m2"}],
        "datasets": [{"abbr": "c1", "infer_cfg": infer_cfg(GEN)}, {"abbr": "c2", "infer_cfg": infer_cfg(GEN)}],
        "work_dir": str(run_dir),
        "summarizer": {
            "type": "CircularSummarizer",
            "metric_types": ["acc_origin", "perf_circular"],
            "dataset_abbrs": ["c1", "c2", "grp"],
            "summary_groups": [{"name": "grp", "subsets": ["c1"]}],
        },
    }
    result = run_summarizer(config, time_str=FIXED_TIME)
    assert result.table == [
        ["dataset", "version", "mode", "m1", "-", "m2", "-"],
        ["-", "-", "-", "acc_origin", "perf_circular", "acc_origin", "perf_circular"],
        ["c1", "4d3a0b", "gen", "10.00", "5.00", "20.00", "10.00"],
        ["c2", "-", "-", "-", "-", "-", "-"],
        ["grp", "-", "gen", "10.00", "5.00", "20.00", "10.00"],
    ]
    assert result.text.splitlines()[0].split() == ["dataset", "version", "mode", "m1", "-", "m2", "-"]
    assert result.paths["csv"].read_text().splitlines()[1] == "-,-,-,acc_origin,perf_circular,acc_origin,perf_circular"
    data = json.loads(result.paths["json"].read_text())
    assert data["rows"][0]["values"]["m2"] == {"acc_origin": 20.0, "perf_circular": 10.0}


def test_circular_needs_metric_types(run_dir: Path) -> None:
    with pytest.raises(ConfigError, match="'metric_types' must be a non-empty list"):
        validate_summarizer_config(reference_config(run_dir, type=CircularSummarizer))


def test_circular_rows_are_abbrs_only(run_dir: Path) -> None:
    config = reference_config(run_dir, type=CircularSummarizer, metric_types=["a"], dataset_abbrs=[["sub_a", "x"]])
    with pytest.raises(ConfigError, match=r"dataset_abbrs\[0\] must be an abbr string"):
        validate_summarizer_config(config)


# -- MultiFacetedSummarizer ------------------------------------------------------------------------


def test_multi_faceted_views(run_dir: Path) -> None:
    views = [
        {"name": "main", "dataset_abbrs": [["grp_weighted", "weighted_average"], "", "sub_a", "not_there"]},
        {"name": "ppl", "dataset_abbrs": [["sub_c", "accuracy"], ["sub_c", "score"]]},
        {"name": "empty", "dataset_abbrs": ["nothing"]},
    ]
    config = reference_config(run_dir, type="MultiFacetedSummarizer", dataset_abbrs_list=views)
    result = run_summarizer(config, time_str=FIXED_TIME)
    folder = run_dir / "summary" / f"summary_{FIXED_TIME}"
    assert sorted(p.name for p in folder.iterdir()) == ["main.csv", "main.md", "ppl.csv", "ppl.md"]
    with open(folder / "main.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [(r["dataset"], r["metric"], r["m1"], r["M2-nice"]) for r in rows] == [
        ("grp_weighted", "weighted_average", "13.25", "18.00"),
        ("sub_a", "accuracy", "50.00", "60.00"),
    ]  # separator and unknown rows are left out of views
    assert (folder / "ppl.csv").read_text().splitlines()[1:] == [
        "sub_c,747ac5,accuracy,ppl,90.00,-",
        "sub_c,747ac5,score,ppl,3.00,-",
    ]
    data = json.loads(result.paths["json"].read_text())
    assert [v["name"] for v in data["views"]] == ["main", "ppl", "empty"] and data["views"][2]["rows"] == []
    assert result.text.startswith("main\ndataset")
    assert "raw format" in result.paths["txt"].read_text()


@pytest.mark.parametrize(
    ("views", "message"),
    [
        ([{"name": "../x", "dataset_abbrs": []}], "key 'name' must be a file name"),
        ([{"name": "a"}, {"name": "a"}], "repeats the view name 'a'"),
        ([{"name": "a", "rows": []}], "unknown keys ['rows']"),
        ("main", "must be a non-empty list"),
    ],
)
def test_multi_faceted_bad_views(run_dir: Path, views: Any, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        validate_summarizer_config(reference_config(run_dir, type=MultiFacetedSummarizer, dataset_abbrs_list=views))
    assert message in str(info.value)


# -- version and mode ------------------------------------------------------------------------------


class GenInferencer:  # a class object as `type`, named like OpenCompass's
    pass


GenInferencer.__module__ = "opencompass.openicl.icl_inferencer"


def test_version_of_class_types_matches_dotted_strings() -> None:
    cfg = infer_cfg(GEN)
    cfg["inferencer"]["type"] = GenInferencer
    assert prompt_version({"infer_cfg": cfg}) == "4d3a0b"


def test_version_adjustments() -> None:
    base = infer_cfg(GEN)
    moved = infer_cfg(GEN)
    moved["retriever"]["fix_id_list"] = [0, 1]
    target = infer_cfg(GEN)
    target["inferencer"]["fix_id_list"] = [0, 1]
    assert prompt_hash({"infer_cfg": moved}) == prompt_hash({"infer_cfg": target})
    assert moved["retriever"]["fix_id_list"] == [0, 1]  # the caller's config is untouched
    # a list of one config is that config; of several, the hash of the joined hashes
    assert prompt_hash([{"infer_cfg": base}]) == prompt_hash({"infer_cfg": base})
    assert prompt_hash([{"infer_cfg": base}, {"infer_cfg": infer_cfg(PPL)}]) != prompt_hash({"infer_cfg": base})
    # old style: reader_cfg inside infer_cfg
    old = {
        "reader_cfg": {"input_columns": ["q"], "output_column": "a"},
        "infer_cfg": {**infer_cfg(GEN), "reader_cfg": {"type": "opencompass.x.DatasetReader", "test_split": "val"}},
    }
    import hashlib
    import json as _json

    expected = {
        "prompt_template": {"type": "PromptTemplate", "template": "{q}"},
        "retriever": {"type": "ZeroRetriever", "test_split": "val"},
        "inferencer": {"type": "GenInferencer"},
        "reader_cfg": {"type": "DatasetReader", "test_split": "val"},
        "reader": {"type": "DatasetReader", "input_columns": ["q"], "output_column": "a"},
    }
    assert prompt_hash(old) == hashlib.sha256(_json.dumps(expected, sort_keys=True).encode()).hexdigest()


@pytest.mark.parametrize(
    ("inferencer", "mode"),
    [
        (GEN, "gen"),
        (PPL, "ppl"),
        ("PPLOnlyInferencer", "ppl"),
        ("opencompass.openicl.icl_inferencer.LLInferencer", "ll"),
        ("ChatInferencer", "unknown"),
        (GenInferencer, "gen"),
    ],
)
def test_mode_from_inferencer(inferencer: Any, mode: str) -> None:
    assert eval_mode({"infer_cfg": {"inferencer": {"type": inferencer}}}) == mode


def test_mode_without_inferencer() -> None:
    assert eval_mode({"abbr": "x"}) == "-"
