"""``assay export``: JSON Lines checked against its documented schema, an OpenCompass work dir assay reads
back to the same summary, and bad targets refused without touching the run."""

from __future__ import annotations

import csv
import hashlib
import json
import math
import os
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from tests.sources.mixed_run import make_mixed_run

SCHEMA = Path(__file__).parents[2] / "docs" / "export.schema.json"


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run, _ = make_mixed_run(tmp_path_factory.mktemp("mixed"))
    return run


def _tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _summary(run: Path) -> dict[str, Any]:
    (path,) = (run / "summary").glob("summary_*.json")
    return json.loads(path.read_text())


def test_every_jsonl_line_fits_the_documented_schema_and_gives_back_the_runs_numbers(mixed: Path, tmp_path: Path) -> None:
    import jsonschema

    before = _tree(mixed)
    out = tmp_path / "run.jsonl"
    assert main(["export", str(mixed), "--format", "jsonl", "--out", str(out)]) == 0
    assert _tree(mixed) == before
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    for line in lines:
        validator.validate(line)
    head = lines[0]
    assert head["kind"] == "run" and head["schema_version"] == 1 and head["summary"].startswith("summary_")
    summary = _summary(mixed)
    results = {(r["model"], r["dataset"]): r for r in lines if r["kind"] == "result"}
    samples: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for line in lines:
        if line["kind"] == "sample":
            samples.setdefault((line["model"], line["dataset"]), []).append(line)
    assert len(results) == 8 + 3 + 3 + 2  # chat-small, reasoner, lm-a, inspect-a
    for (model, dataset), result in results.items():
        column = "reasoner (think)" if model == "reasoner" else model
        for metric, value in result["metrics"].items():
            if metric in summary["scores"][column][dataset]:
                assert value == summary["scores"][column][dataset][metric]
            behind = result["sample_values"][metric]
            if behind["scale"] is None:
                continue
            values = [s["values"][metric] for s in samples[(model, dataset)]]
            assert len(values) == result["n_samples"]
            assert math.isclose(behind["scale"] * sum(values) / len(values), value, rel_tol=1e-9)
    # an imported sample keeps its identity, reply, extracted answer, reference and tool
    one = samples[("inspect-a", "inspect_mcq")][0]
    assert one["source"] == "inspect_ai" and one["reference"] in "ABCD" and "choice" in one["extracted"]
    assert results[("lm-a", "assay_mcq_a")]["source"]["tool"] == "lm_eval"
    assert results[("lm-a", "assay_mcq_a")]["source"]["metrics"]["acc,none"] == 0.6875
    own = samples[("chat-small", "quick_mcq")]
    assert [s["source"] for s in own] == [None] * 10 and own[0]["id"] == "quick_mcq_0"
    replies = json.loads((mixed.parent.parent / "quickstart" / "predictions" / "chat-small" / "quick_mcq.json").read_text())
    assert [s["prediction"] for s in own] == [replies[str(i)]["prediction"] for i in range(10)]
    assert own[0]["extracted"] == ["B"] and own[0]["reference"] == ["B"] and own[0]["values"] == {"accuracy": 1.0}
    assert results[("chat-small", "quick_mcq")]["source"] is None


def test_the_opencompass_work_dir_reads_back_to_the_same_summary(mixed: Path, tmp_path: Path) -> None:
    before = _tree(mixed)
    out = tmp_path / "oc"
    assert main(["export", str(mixed), "--format", "opencompass", "--out", str(out)]) == 0
    assert _tree(mixed) == before
    assert sorted(p.name for p in out.iterdir()) == ["configs", "predictions", "results", "summary"]
    assert sorted(p.suffix for p in (out / "summary").iterdir()) == [".csv", ".md", ".txt"]
    # readable by others as folders and files made with mkdir and open are (the umask applied), not private
    # as temporary ones are
    umask = os.umask(0o022)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o777 & ~umask
    assert (out / "summary").stat().st_mode & 0o777 == 0o777 & ~umask
    assert all(p.stat().st_mode & 0o777 == 0o666 & ~umask for p in out.rglob("*") if p.is_file())
    # the results are the run's, byte for byte; the predictions in OpenCompass's format
    for model in ("chat-small", "lm-a", "inspect-a", "reasoner"):
        for path in (mixed / "results" / model).glob("*.json"):
            assert (out / "results" / model / path.name).read_bytes() == path.read_bytes()
    predictions = json.loads((out / "predictions" / "lm-a" / "assay_mcq_a.json").read_text())
    assert len(predictions) == 16 and set(predictions["0"]) == {"origin_prompt", "prediction", "gold"}
    own = json.loads((out / "predictions" / "chat-small" / "quick_mcq.json").read_text())
    assert own == json.loads((mixed.parent.parent / "quickstart" / "predictions" / "chat-small" / "quick_mcq.json").read_text())
    # the exported summary and assay's summary of the exported folder show the run's table (an imported
    # dataset's version is that of the empty infer_cfg the export gives it, for OpenCompass's summarizer)
    (original,) = (mixed / "summary").glob("summary_*.csv")
    (exported,) = (out / "summary").glob("summary_*.csv")
    assert _values(exported.read_text()) == _values(original.read_text())
    assert main(["summarize", "-w", str(out), "-r", "--no-report", "-o", str(tmp_path / "again.txt")]) == 0
    assert (tmp_path / "again.csv").read_text() == exported.read_text()
    rows = {(r["dataset"], r["metric"]): r for r in csv.DictReader((tmp_path / "again.csv").open())}
    assert rows[("assay_mcq_a", "acc none")]["source"] == "chat-small: lm_eval 0.4.13; lm-a: lm_eval 0.4.13"
    assert rows[("quick_mcq", "accuracy")]["version"] == "90cd88"  # the config's own datasets as they were
    # OpenCompass's own summarizer read the exported folder to the same numbers (scripts/record_oc_export.py)
    recorded = (Path(__file__).parents[1] / "data" / "export" / "opencompass_summary.csv").read_text()
    assert _values(recorded) == _values(original.read_text())
    assert _values(recorded)[("assay_mcq_a", "acc none")] == {"chat-small": "93.75", "reasoner (think)": "-",
                                                             "lm-a": "68.75", "inspect-a": "-"}


def _values(text: str) -> dict[tuple[str, str], dict[str, str]]:
    """(dataset, metric) → model column → the value shown, of a summary csv (its version, mode and source left out)."""
    rows = list(csv.reader(text.splitlines()))
    models = [c for c in rows[0][4:] if c != "source"]
    return {(r[0], r[2]): dict(zip(models, r[4:4 + len(models)])) for r in rows[1:]}


def test_bad_targets_are_refused_and_leave_the_run_as_it_was(mixed: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    before = _tree(mixed)
    full = tmp_path / "full"
    full.mkdir()
    (full / "kept.txt").write_text("mine")
    assert main(["export", str(mixed), "--format", "opencompass", "--out", str(full)]) != 0
    assert "a non-empty folder already there; --force replaces it" in capsys.readouterr().err
    assert (full / "kept.txt").read_text() == "mine"
    assert main(["export", str(mixed), "--format", "opencompass", "--out", str(full), "--force"]) == 0
    assert not (full / "kept.txt").exists() and (full / "results" / "lm-a" / "assay_arith.json").is_file()

    inside = mixed / "summary" / "export.jsonl"
    assert main(["export", str(mixed), "--format", "jsonl", "--out", str(inside)]) != 0
    assert "inside the run directory" in capsys.readouterr().err
    not_a_run = tmp_path / "empty"
    not_a_run.mkdir()
    assert main(["export", str(not_a_run), "--format", "jsonl", "--out", str(tmp_path / "x.jsonl")]) != 0
    assert str(not_a_run) in capsys.readouterr().err and not (tmp_path / "x.jsonl").exists()
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o500)
        assert main(["export", str(mixed), "--format", "jsonl", "--out", str(locked / "x.jsonl")]) != 0
        assert "cannot write in" in capsys.readouterr().err
    missing = tmp_path / "no" / "such" / "x.jsonl"
    assert main(["export", str(mixed), "--format", "jsonl", "--out", str(missing)]) != 0
    assert "does not exist" in capsys.readouterr().err
    assert _tree(mixed) == before


@pytest.mark.parametrize("fmt", ["jsonl", "opencompass"])
def test_an_unreadable_result_names_its_file_and_nothing_is_written(mixed: Path, tmp_path: Path, fmt: str,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    run = tmp_path / "run"
    shutil.copytree(mixed, run)
    broken = run / "results" / "lm-a" / "assay_mcq_b.json"
    broken.write_text('{"acc,none": 33.3, "details": [')
    out = tmp_path / "out"
    assert main(["export", str(run), "--format", fmt, "--out", str(out)]) != 0
    assert str(broken) in capsys.readouterr().err
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["run"]


@pytest.mark.parametrize("force", [[], ["--force"]])
@pytest.mark.parametrize("where", ["run", "work_dir", "above"])
def test_a_target_holding_the_run_is_refused_and_the_run_kept(mixed: Path, tmp_path: Path, where: str, force: list[str],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    work_dir = tmp_path / "above" / "work_dir"
    run = work_dir / mixed.name
    shutil.copytree(mixed, run)
    before = _tree(tmp_path / "above")
    target = {"run": run, "work_dir": work_dir, "above": tmp_path / "above"}[where]
    assert main(["export", str(run), "--format", "opencompass", "--out", str(target), *force]) != 0
    err = capsys.readouterr().err
    assert f"--out {target}" in err and str(run) in err
    assert _tree(tmp_path / "above") == before


def test_only_what_an_export_left_beside_its_target_is_removed_and_only_by_an_export_that_goes_ahead(
        mixed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A user's files and folders named like an export's leftovers (``.oc.20240301.old``, ``.oc.backup_1.old/``
    holding an ``oc``) are never touched; an export's own leftovers (``.<target>.<random>.assay-export.new``,
    ``.old``, ``.tmp``) are removed by the next export that is not refused — a refused one removes nothing."""
    target = tmp_path / "oc"
    target.mkdir()
    (target / "kept.txt").write_text("mine")
    backup = tmp_path / ".oc.backup_1.old"
    (backup / "oc").mkdir(parents=True)
    (backup / "oc" / "notes.txt").write_text("my backup")
    users = {".oc.20240301.old": "dated", ".oc.abcdefgh.tmp": "draft", ".oc.abcdefgh.new": "idea"}
    for name, text in users.items():
        (tmp_path / name).write_text(text)
    partial = tmp_path / ".oc.k1lled_0.assay-export.new"
    (partial / "results").mkdir(parents=True)
    (tmp_path / ".oc.k1lled_1.assay-export.tmp").write_text("half")

    def beside() -> list[str]:
        return sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".oc."))

    left = beside()
    assert main(["export", str(mixed), "--format", "opencompass", "--out", str(target)]) != 0
    assert "--force replaces it" in capsys.readouterr().err
    assert beside() == left, "a refused export removes nothing"
    assert main(["export", str(mixed), "--format", "opencompass", "--out", str(target), "--force"]) == 0
    assert (target / "results" / "lm-a" / "assay_arith.json").is_file()
    assert beside() == sorted([backup.name, *users]), "the export's own leftovers removed, nothing else"
    assert (backup / "oc" / "notes.txt").read_text() == "my backup"
    assert {name: (tmp_path / name).read_text() for name in users} == users

    # killed between its two renames: the old output in its folder aside, the target missing — put back first
    # (then refused without --force), while the user's look-alike folder holding an ``oc`` stays where it is
    aside = tmp_path / ".oc.k1lled_2.assay-export.old"
    target.rename(tmp_path / "exported")
    (aside / "oc").mkdir(parents=True)
    (aside / "oc" / "old.txt").write_text("the old output")
    assert main(["export", str(mixed), "--format", "opencompass", "--out", str(target)]) != 0
    assert "--force replaces it" in capsys.readouterr().err
    assert [p.name for p in target.iterdir()] == ["old.txt"] and not aside.exists()
    assert (backup / "oc" / "notes.txt").read_text() == "my backup"
