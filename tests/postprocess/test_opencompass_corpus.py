"""Every postprocessor under an OpenCompass name returns what OpenCompass 0.5.4 returns, on every reply of the corpus.

The corpus (``tests/data/postprocess/opencompass_corpus/replies.jsonl``, built by
``scripts/build_postprocess_corpus.py``) holds real chain-of-thought exemplars and
real-looking chat replies; the expected outputs were produced by OpenCompass's own
functions (``scripts/record_oc_postprocessors.py``).  Where OpenCompass raises
(a documented case), assay returns an answer instead; those entries are listed
in ``OPENCOMPASS_RAISES`` and checked to be exactly those.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import assay.postprocess as pp
from assay.registry import TEXT_POSTPROCESSORS
from tests.postprocess._cases import DATA

CORPUS = DATA / "opencompass_corpus"
REPLIES = [json.loads(line) for line in (CORPUS / "replies.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
RECORDED = json.loads((CORPUS / "opencompass_outputs.json").read_text(encoding="utf-8"))
CALLS = RECORDED["calls"]

#: (function, reply id) pairs on which OpenCompass raises; assay answers (see the docstrings).
OPENCOMPASS_RAISES = {
    "gsm8k_dataset_postprocess",  # a reference without '#### ' is an IndexError in OpenCompass
}


def _expected(value: Any, text: str) -> Any:
    if isinstance(value, dict) and value.get("same"):
        return text
    return value


def _ids(call: dict[str, Any]) -> str:
    options = ",".join(f"{k}={v}" for k, v in sorted(call["kwargs"].items()))
    return f"{call['fn']}({options})"


def test_the_corpus_is_large_and_varied() -> None:
    assert RECORDED["opencompass"] == "0.5.4"
    assert RECORDED["ids"] == [r["id"] for r in REPLIES]
    assert len(REPLIES) >= 500
    kinds = {r["kind"] for r in REPLIES}
    assert {"think", "numbers", "latex", "refusal", "chinese", "empty", "long", "candidates", "mmlu_cot", "mmath"} <= kinds


def test_every_opencompass_named_postprocessor_is_recorded() -> None:
    recorded = {c["fn"] for c in CALLS}
    assay_oc_named = {
        name
        for name, fn in TEXT_POSTPROCESSORS.items()
        if getattr(fn, "__module__", "").startswith("assay.postprocess") and name == fn.__name__ and "extract" not in name
    }
    corrected = {"strip_reasoning"}
    assert assay_oc_named - corrected - {"general_eval_wrapper_postprocess"} <= recorded


@pytest.mark.parametrize("call", CALLS, ids=[_ids(c) for c in CALLS])
def test_agrees_with_opencompass_on_the_whole_corpus(call: dict[str, Any]) -> None:
    fn = getattr(pp, call["fn"])
    differences = []
    for reply, recorded in zip(REPLIES, call["outputs"]):
        if isinstance(recorded, dict) and "raises" in recorded:
            assert call["fn"] in OPENCOMPASS_RAISES, f"OpenCompass raises {recorded['raises']} on {reply['id']}"
            continue
        got = fn(reply["text"], **call["kwargs"])
        want = _expected(recorded, reply["text"])
        if isinstance(want, dict) and "repr" in want:  # a value JSON does not hold (P-MMEval's (reply, language) pairs)
            got = {"repr": repr(got)}
        if got != want:
            differences.append((reply["id"], reply["text"][:80], got, want))
    assert not differences, f"{len(differences)} of {len(REPLIES)} differ: {differences[:5]}"
