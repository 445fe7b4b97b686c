"""HELM's own run folders (recorded by ``scripts/record_helm.py``) read by assay."""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path

import pytest

from assay.errors import InputFileError
from assay.sources import mean_stderr, read_source
from assay.sources.helm import read_helm

OUT = Path(__file__).parent.parent / "data" / "sources" / "helm" / "benchmark_output"
SUITE = OUT / "runs" / "assay"
MODELS = ("assay/scripted-a", "assay/scripted-b")


def _folder(scenario: str, model: str) -> Path:
    return SUITE / f"{scenario}:model={model.replace('/', '_')}"


def _runs() -> dict[str, object]:
    return {run.model: run for run in read_helm(OUT)}


def test_runs_are_one_per_model_with_one_result_per_run_folder() -> None:
    runs = read_source("helm", OUT)
    assert [r.model for r in runs] == list(MODELS)
    for run in runs:
        assert run.tool == "helm" and run.version is None
        assert sorted(run.results) == ["simple_classification", "simple_mcqa"]
        assert run.config["model_deployment"] == run.model and len(run.paths) == 2


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("scenario", ["simple_mcqa", "simple_classification"])
def test_every_unperturbed_test_statistic_helm_wrote_is_read_back(scenario: str, model: str) -> None:
    (run,) = [r for r in read_helm(OUT) if r.model == model]
    result = run.results[scenario]
    stats = json.loads((_folder(scenario, model) / "stats.json").read_text())
    kept = {s["name"]["name"]: s["mean"] for s in stats
            if s["name"]["split"] == "test" and "perturbation" not in s["name"] and s["count"]}
    assert len(kept) >= 25 and result.metrics == kept
    # HELM also wrote the robustness and fairness statistics (of no perturbed instance here): left out
    if scenario == "simple_mcqa":
        assert any("perturbation" in s["name"] for s in stats)
    assert "training_co2_cost" not in result.metrics  # counted nothing: no mean


#: the columns of helm-summarize's tables (their short names in tests/data/sources/helm/schema.yaml) → HELM's metric
_COLUMNS = {"EM": "exact_match", "QEM": "quasi_exact_match", "# eval": "num_instances"}
#: the run groups' display names → the datasets
_GROUPS = {"Parity (lettered)": "simple_mcqa", "Parity (word)": "simple_classification"}
#: the models' display names (the recording's model_metadata.yaml) → the models
_SHOWN = {"Scripted A": "assay/scripted-a", "Scripted B": "assay/scripted-b"}


def test_every_number_in_helm_summarizes_tables_is_read_back() -> None:
    runs = _runs()
    checked = 0
    for table_file in sorted((SUITE / "groups").glob("*.json")):
        for table in json.loads(table_file.read_text()):
            for row in table["rows"]:
                results = runs[_SHOWN[row[0]["value"]]].results  # type: ignore[attr-defined]
                for header, cell in zip(table["header"][1:], row[1:]):
                    meta = header.get("metadata") or {}
                    if meta.get("metric") not in _COLUMNS:
                        continue  # HELM's mean win rate ranks the models; not a statistic of a run
                    result = results[_GROUPS[meta["run_group"]]]
                    assert cell["value"] == pytest.approx(result.metrics[_COLUMNS[meta["metric"]]], abs=1e-12), header
                    checked += 1
    # per scenario: 2 models × 3 columns, twice; the parity table: 2 models × 2 scenarios × 3 columns
    assert checked == 2 * 2 * 3 + 2 * 2 * 3


def test_the_scripted_models_scores_as_helm_computed_them() -> None:
    runs = _runs()
    a, b = (runs[m].results for m in MODELS)  # type: ignore[attr-defined]
    assert a["simple_mcqa"].metrics["exact_match"] == 0.625 and b["simple_mcqa"].metrics["exact_match"] == 0.75
    # b writes some right answers in lower case: exact_match misses them, quasi_exact_match does not
    assert b["simple_classification"].metrics["exact_match"] == 0.5
    assert b["simple_classification"].metrics["quasi_exact_match"] == 0.75
    assert b["simple_classification"].metrics["classification_macro_f1"] == pytest.approx(0.75)


def test_per_instance_values_give_the_reported_means_and_a_standard_error() -> None:
    for run in read_helm(OUT):
        for result in run.results.values():
            assert result.check() == []
            trials = 2 if result.dataset == "simple_classification" else 1
            assert result.n_samples == 8 and len(result.samples) == 8 * trials
            values = result.sample_values("exact_match")
            assert len(values) == 8 * trials and set(values) <= {0.0, 1.0}
            assert sum(values) / len(values) == pytest.approx(result.metrics["exact_match"], abs=1e-12)
            assert result.stderr["exact_match"] == pytest.approx(mean_stderr(values))
            # a statistic HELM computed over the whole run has no per-instance values, hence no standard error
            if "classification_macro_f1" in result.metrics:
                assert result.sample_values("classification_macro_f1") == []
                assert result.stderr["classification_macro_f1"] is None


def test_standard_error_is_the_per_instance_one_not_helms_stddev_between_trials() -> None:
    result = _runs()["assay/scripted-b"].results["simple_classification"]  # type: ignore[attr-defined]
    stats = json.loads((_folder("simple_classification", "assay/scripted-b") / "stats.json").read_text())
    (em,) = [s for s in stats if s["name"] == {"name": "exact_match", "split": "test"}]
    assert em["count"] == 2  # one mean per train trial
    values = result.sample_values("exact_match")
    p = sum(values) / len(values)
    assert result.stderr["exact_match"] == pytest.approx(math.sqrt(p * (1 - p) * len(values) / (len(values) - 1) / len(values)))
    assert result.stderr["exact_match"] != pytest.approx(em["stddev"])


def test_samples_keep_identity_trial_reply_prompt_and_references() -> None:
    runs = _runs()
    mcqa = runs["assay/scripted-a"].results["simple_mcqa"]  # type: ignore[attr-defined]
    first = mcqa.samples[0]
    assert first.key == "id60" and first.reply == "B" and first.reference == ["Even"]
    assert first.extracted == {"output_mapping": "Odd"} and first.values["exact_match"] == 0.0
    assert first.prompt is not None and first.prompt.endswith("Question: Is 70 even or odd?\nA. Even\nB. Odd\nAnswer:")
    assert first.doc is not None and first.doc["input"]["text"] == "Is 70 even or odd?"
    cls = runs["assay/scripted-b"].results["simple_classification"]  # type: ignore[attr-defined]
    keys = [s.key for s in cls.samples]
    assert len(set(keys)) == 16 and "id60@0" in keys and "id60@1" in keys
    # every reply is the text HELM displays as the prediction of that instance and trial
    for scenario, result in (("simple_mcqa", mcqa), ("simple_classification", cls)):
        model = "assay/scripted-a" if result is mcqa else "assay/scripted-b"
        shown = json.loads((_folder(scenario, model) / "display_predictions.json").read_text())
        trials = 2 if scenario == "simple_classification" else 1
        predicted = {(p["instance_id"] if trials == 1 else f"{p['instance_id']}@{p['train_trial_index']}"): p for p in shown}
        for sample in result.samples:
            assert sample.reply == predicted[sample.key]["predicted_text"]
            if "mapped_output" in predicted[sample.key]:
                assert sample.extracted["output_mapping"] == predicted[sample.key]["mapped_output"]
    lower = [s for s in cls.samples if s.reply in ("even", "odd")]
    assert lower and all(s.values["exact_match"] == 0.0 for s in lower)
    assert any(s.values["quasi_exact_match"] == 1.0 for s in lower)


def test_a_run_folder_or_a_suite_reads_as_the_whole_output() -> None:
    (one,) = read_helm(_folder("simple_mcqa", "assay/scripted-b"))
    assert one.model == "assay/scripted-b" and list(one.results) == ["simple_mcqa"]
    whole = _runs()["assay/scripted-b"].results["simple_mcqa"]  # type: ignore[attr-defined]
    assert one.results["simple_mcqa"].metrics == whole.metrics
    assert [r.model for r in read_helm(SUITE)] == list(MODELS)


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "benchmark_output"
    shutil.copytree(OUT, target)
    return target / "runs" / "assay" / "simple_mcqa:model=assay_scripted-a"


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("run_spec.json", "HELM run spec"),
        ("stats.json", "HELM stats file"),
        ("per_instance_stats.json", "HELM per-instance stats file"),
        ("scenario_state.json", "HELM scenario state"),
    ],
)
def test_a_truncated_file_of_each_kind_is_an_error_naming_it(tmp_path: Path, name: str, what: str) -> None:
    file = _copy(tmp_path) / name
    data = file.read_bytes()
    file.write_bytes(data[: len(data) // 2])  # as a killed writer leaves it
    with pytest.raises(InputFileError, match=rf"{what} {re.escape(str(file))} is not valid JSON"):
        read_helm(tmp_path / "benchmark_output")


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("run_spec.json", {"name": "x"}, r"run spec .*run_spec\.json: no 'adapter_spec' object"),
        ("run_spec.json", {"name": "x", "adapter_spec": {}}, r"run_spec\.json: adapter_spec names no model \(None\)"),
        ("stats.json", {"stats": []}, r"stats file .*stats\.json: a dict, not a list of statistics"),
        ("stats.json", [{"count": 1, "mean": 1.0}], r"stats\.json: entry 0 is not a statistic"),
        ("stats.json", [{"name": {"name": "exact_match", "split": "test"}, "count": 1, "mean": "high"}],
         r"stats\.json: entry 0 \(exact_match\)\.mean is 'high', not a number"),
        ("stats.json", [{"name": {"name": "exact_match", "split": "train"}, "count": 1, "mean": 1.0}],
         r"stats\.json: no unperturbed statistic of the test or valid split \(splits: \['train'\]\)"),
        ("per_instance_stats.json", [{"stats": []}], r"per_instance_stats\.json: entry 0 has no instance_id and stats"),
        ("per_instance_stats.json", [{"instance_id": "id1", "stats": [{"count": 1}, {"mean": 1}]}],
         r"per_instance_stats\.json: entry 0, stat 0 is not a statistic"),
        ("scenario_state.json", {"adapter_spec": {}}, r"scenario_state\.json: no 'request_states' list"),
    ],
)
def test_a_foreign_or_malformed_file_is_an_error_naming_file_and_value(
    tmp_path: Path, name: str, content: object, message: str
) -> None:
    folder = _copy(tmp_path)
    (folder / name).write_text(json.dumps(content))
    with pytest.raises(InputFileError, match=message) as info:
        read_helm(tmp_path / "benchmark_output")
    assert str(folder / name) in str(info.value)


def test_a_repeated_instance_two_suites_of_one_run_and_missing_folders_are_errors(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    per_instance = folder / "per_instance_stats.json"
    entries = json.loads(per_instance.read_text())
    per_instance.write_text(json.dumps([*entries, entries[0]]))
    with pytest.raises(InputFileError, match=r"entry 8: instance id60 appears twice for train trial 0"):
        read_helm(folder)
    per_instance.write_text(json.dumps(entries))
    shutil.copytree(folder.parent, tmp_path / "benchmark_output" / "runs" / "again")
    with pytest.raises(InputFileError, match=r"both give model 'assay/scripted-a' on 'simple_classification'; read one suite at a time"):
        read_helm(tmp_path / "benchmark_output")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputFileError, match=r"no run folder \(with a run_spec\.json\)"):
        read_helm(tmp_path / "empty")
    with pytest.raises(InputFileError, match="does not exist"):
        read_helm(tmp_path / "nowhere")


def test_perturbed_statistics_and_a_missing_test_split_are_handled(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    stats_file = folder / "stats.json"
    stats = json.loads(stats_file.read_text())
    for s in stats:
        if "perturbation" in s["name"]:
            s["mean"] = 123.0  # a perturbed statistic never replaces the unperturbed one
    stats_file.write_text(json.dumps(stats))
    (run,) = read_helm(folder)
    assert run.results["simple_mcqa"].metrics["exact_match"] == 0.625
    for s in stats:
        s["name"]["split"] = "valid"  # a run on the validation split only
    stats_file.write_text(json.dumps(stats))
    (run,) = read_helm(folder)
    result = run.results["simple_mcqa"]
    assert result.config["split"] == "valid" and result.metrics["exact_match"] == 0.625
    assert result.samples and all(not s.values for s in result.samples)  # its per-instance stats are of the test split


def test_without_per_instance_stats_or_scenario_state_the_numbers_still_read(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "scenario_state.json").unlink()
    (run,) = read_helm(folder)
    sample = run.results["simple_mcqa"].samples[0]
    assert sample.key == "id60" and sample.reply is None and sample.values["exact_match"] == 0.0
    (folder / "per_instance_stats.json").unlink()
    (run,) = read_helm(folder)
    result = run.results["simple_mcqa"]
    assert result.samples == [] and result.metrics["exact_match"] == 0.625 and result.stderr["exact_match"] is None
