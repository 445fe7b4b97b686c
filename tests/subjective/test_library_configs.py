"""OpenCompass 0.5.4's library configs of the pairwise families, imported unchanged, name assay's implementations."""

from __future__ import annotations

from pathlib import Path

import pytest

CONFIGS = {
    "arena_hard.arena_hard_compare": ("arenahard_datasets", "summarizer", "ArenaHardSummarizer"),
    "arena_hard.arena_hard_compare_new": ("arenahard_datasets", "dict_postprocessor", "arenahard_postprocess"),
    "arena_hard.arena_hard_compare_bradleyterry": ("arenahard_datasets", "dict_postprocessor", "arenahard_bradleyterry_postprocess"),
    "alpaca_eval.alpacav2_judgeby_gpt4": ("alpacav2_datasets", "summarizer", "AlpacaSummarizer"),
    "alpaca_eval.alpacav2_judgeby_gpt4_new": ("alpacav2_datasets", "dict_postprocessor", "alpacaeval_postprocess"),
    "compassarena.compassarena_compare": ("compassarena_datasets", "summarizer", "CompassArenaSummarizer"),
    "compassarena.compassarena_compare_new": ("compassarena_datasets", "dict_postprocessor", "compassarena_postprocess"),
    "wildbench.wildbench_pair_judge": ("wildbench_datasets", "summarizer", "WildBenchPairSummarizer"),
    "wildbench.wildbench_pair_judge_rawprompt": ("wildbench_datasets", "dict_postprocessor", "wildbench_postprocess"),
    "compassbench.compassbench_compare": ("compassbench_datasets", "summarizer", "CompassBenchSummarizer"),
}


@pytest.mark.parametrize("module", sorted(CONFIGS))
def test_library_config_names_assay_s_pairwise_component(module: str, oc_library: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    variable, where, name = CONFIGS[module]
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.subjective.{module} import {variable}\n", encoding="utf-8")
    datasets = load_config(config).variables[variable]
    for ds in datasets:
        spec = ds["summarizer"] if where == "summarizer" else ds["eval_cfg"]["evaluator"]["dict_postprocessor"]
        component = spec["type"]
        assert component.__name__ == name
        assert component.__module__.startswith("assay.subjective."), component.__module__
        loader = ds["type"]
        if loader.__name__ not in ("ArenaHardDataset", "AlpacaEvalDataset", "SubjectiveCmpDataset"):  # loaded elsewhere
            assert loader.__module__.startswith("assay.datasets."), loader.__module__


READS = {
    "compassarena.compassarena_compare": ("compassarena_datasets", "选择：B", "B"),
    "compassarena.compassarena_compare_new": ("compassarena_datasets", "评价：…\nChoice: C", "C"),
    "compassarena.compassarena_compare_bradleyterry": ("compassarena_datasets", "选择：A", "A"),
    "wildbench.wildbench_pair_judge": ("wildbench_datasets", '{"reason": "…", "choice": "B+"}', "B+"),
    "wildbench.wildbench_pair_judge_rawprompt": ("wildbench_datasets", '{"choice": "A=B"}', "A=B"),
    "wildbench.wildbench_pair_judge_bradleyterry": ("wildbench_datasets", '{"choice": "A++"}', "A++"),
    "compassbench.compassbench_compare": ("compassbench_datasets", '{"choice": "B++"}', "B++"),
    "compassbench.compassbench_compare_v12": ("compassbench_datasets", '{"choice": "A+"}', "A+"),
}


@pytest.mark.parametrize("module", sorted(READS))
def test_pairwise_loaders_read_the_judge_s_verdict(module: str, oc_library: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The subjective task counts a reply unjudged where the family's reading finds no choice in it
    (the loader's ``judge_verdict``, the reader the task hands to ``LMEvaluator``)."""
    from assay import load_config
    from assay.subjective.verdicts import READERS

    variable, readable, choice = READS[module]
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.subjective.{module} import {variable}\n", encoding="utf-8")
    for ds in load_config(config).variables[variable]:
        reader = READERS[ds["type"].judge_verdict]
        assert reader(readable) == choice
        for unreadable in ("", "I cannot decide.", "选择：[[A]]", "[[A>B]]", '{"choice": A}'):
            assert reader(unreadable) is None, (ds["abbr"], unreadable)
