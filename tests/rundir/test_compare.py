"""Two models of a run compared sample by sample (:func:`assay.rundir.compare.compare_models`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.cli import main
from assay.rundir.compare import compare_models
from tests.stats.workdir_builder import make_run


def test_paired_bootstrap_is_reproducible(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    one = compare_models(run, "m1", "m2", datasets=["rep"], seed=4, resamples=300).to_json()
    two = compare_models(run, "m1", "m2", datasets=["rep"], seed=4, resamples=300).to_json()
    assert one == two
    other = compare_models(run, "m1", "m2", datasets=["rep"], seed=5, resamples=300).to_json()
    assert other["datasets"][0]["low"] != one["datasets"][0]["low"]


def test_same_model_has_no_discordant_pairs(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    row = compare_models(run, "m1", "m1", datasets=["mcq"]).datasets[0].result
    assert row is not None and (row.a_only, row.b_only, row.p, row.diff) == (0, 0, 1.0, 0.0)


def test_compare_takes_the_per_sample_values_saved_with_each_result(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After `assay eval`, compare reads no result's details; without the statistics files it reads them
    and finds the same comparison."""
    import assay.rundir.compare as compare_module

    example = Path(__file__).parents[2] / "examples" / "quickstart" / "config.py"
    work = tmp_path / "w"
    assert main(["eval", str(example), "-w", str(work)]) == 0
    (run,) = work.iterdir()
    real = compare_module.read_full_result
    read: list[str] = []

    def spy(root, folder, abbr):  # type: ignore[no-untyped-def]
        read.append(f"{folder}/{abbr}")
        return real(root, folder, abbr)

    monkeypatch.setattr(compare_module, "read_full_result", spy)
    saved = compare_models(run, "chat-small", "reasoner")
    assert read == []
    assert [d.result is not None for d in saved.datasets] == [True] * len(saved.datasets)
    for stats_file in (run / "results").rglob("*.stats"):
        stats_file.unlink()
    from_details = compare_models(run, "chat-small", "reasoner")
    assert len(read) == 2 * len(saved.datasets)
    assert saved.to_json() == from_details.to_json()


def test_assays_own_results_aligned_by_id_or_content_give_the_comparison_by_position(tmp_path: Path) -> None:
    """The quickstart's two models answered the same prompts in the same order: by ``example_abbr`` and by the
    prompt (OpenCompass's chat turns in the prediction files) every sample pairs as by position."""
    example = Path(__file__).parents[2] / "examples" / "quickstart" / "config.py"
    work = tmp_path / "w"
    assert main(["eval", str(example), "-w", str(work)]) == 0
    (run,) = work.iterdir()
    by_position = compare_models(run, "chat-small", "reasoner").to_json()
    for align in ("id", "content"):
        aligned = compare_models(run, "chat-small", "reasoner", align=align).to_json()
        for row, plain in zip(aligned["datasets"], by_position["datasets"], strict=True):
            alignment = row.pop("alignment")
            assert alignment["mode"] == align
            assert alignment["aligned"] == alignment["samples_a"] == alignment["samples_b"] == plain["n"]
            assert row == plain
