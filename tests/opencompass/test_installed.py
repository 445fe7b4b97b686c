"""With OpenCompass 0.5.4 fully installed next to assay: OpenCompass serves the names assay lacks.

These tests run only where ``opencompass`` and its dependencies are installed
(``.ci/run`` makes such an environment); elsewhere they skip.  A name assay
lacks is made by hiding one of assay's own evaluators from its answers to
OpenCompass's names, so the test never depends on what assay has yet to
implement.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import assay.opencompass as oc
from assay.cli import main
from assay.config import load_config
from assay.rundir.results import read_result

pytestmark = [
    pytest.mark.opencompass_installed,
    pytest.mark.skipif(oc.opencompass_mode() != "full", reason="OpenCompass 0.5.4 is not fully installed here"),
]

#: An evaluator both assay and OpenCompass define that needs no model, network or sandbox: the test hides
#: assay's, so that OpenCompass's must serve it.
HIDDEN = "TriviaQAEvaluator"

CONFIG = """
from opencompass.datasets import JsonlDataset, {evaluator}
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import GenInferencer

datasets = [dict(abbr='qa', type=JsonlDataset, path={data!r},
                 reader_cfg=dict(input_columns=['question'], output_column='answer'),
                 infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template='{{question}}'),
                                retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer)),
                 eval_cfg=dict(evaluator=dict(type={evaluator})))]
models = [dict(abbr='m', path='m')]
"""

ROWS = [
    {"question": "capital of France?", "answer": ["Paris"]},
    {"question": "2+2?", "answer": ["4", "four"]},
    {"question": "largest planet?", "answer": ["Jupiter"]},
    {"question": "author of Hamlet?", "answer": ["William Shakespeare", "Shakespeare"]},
]
PREDICTIONS = ["The answer is Paris.", "Four", "Saturn\nmore text", "shakespeare"]


@pytest.fixture
def hidden(monkeypatch: pytest.MonkeyPatch) -> str:
    """:data:`HIDDEN` hidden from assay's answers to OpenCompass's names, as a name assay lacks is."""
    import opencompass.datasets as oc_datasets

    assert oc.finder._assay_object("opencompass.datasets", HIDDEN) is not None, f"assay no longer implements {HIDDEN}"
    assert hasattr(oc_datasets, HIDDEN), f"OpenCompass does not define {HIDDEN}"
    own = oc.finder._assay_object

    def without(module: str, name: str) -> object:
        return None if name == HIDDEN else own(module, name)

    monkeypatch.setattr(oc.finder, "_assay_object", without)
    return HIDDEN


def test_an_evaluator_assay_lacks_gives_opencompass_result(tmp_path: Path, hidden: str) -> None:
    import opencompass.datasets as oc_datasets

    evaluator = hidden
    data = tmp_path / "qa.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    cfg = tmp_path / "eval_qa.py"
    cfg.write_text(CONFIG.format(evaluator=evaluator, data=str(data)))

    config = load_config(cfg)
    (dataset,) = config.datasets
    assert oc.origin(dataset["eval_cfg"]["evaluator"]["type"]) == "OpenCompass"
    assert oc.origin(dataset["type"]) == "built in"  # a name both have: assay's wins

    work = tmp_path / "work"
    preds = {str(i): {"prediction": p, "gold": r["answer"]} for i, (p, r) in enumerate(zip(PREDICTIONS, ROWS))}
    (work / "run" / "predictions" / "m").mkdir(parents=True)
    (work / "run" / "predictions" / "m" / "qa.json").write_text(json.dumps(preds))
    assert main(["eval", str(cfg), "-w", str(work), "-r", "run", "--workers", "1"]) == 0
    got = read_result(work / "run" / "results" / "m" / "qa.json")

    # what OpenCompass's evaluate step computes on the same predictions and references
    expected = getattr(oc_datasets, evaluator)().score(PREDICTIONS, [r["answer"] for r in ROWS])
    metrics = {k: v for k, v in expected.items() if k != "details"}
    assert metrics
    for key, value in metrics.items():
        assert got[key] == pytest.approx(value), key


def test_inference_classes_keep_their_import_path_so_infer_cfg_hashes_as_in_opencompass(tmp_path: Path) -> None:
    import hashlib

    from assay.config import plainify

    cfg = tmp_path / "cfg.py"
    cfg.write_text(
        "from opencompass.openicl.icl_prompt_template import PromptTemplate\n"
        "from opencompass.openicl.icl_retriever import ZeroRetriever\n"
        "from opencompass.openicl.icl_inferencer import GenInferencer\n"
        "infer_cfg = dict(prompt_template=dict(type=PromptTemplate, template='{q}'), retriever=dict(type=ZeroRetriever),\n"
        "                 inferencer=dict(type=GenInferencer))\n"
        "eval_cfg = dict(evaluator=dict(type='LMEvaluator', prompt_template=dict(type=PromptTemplate, template='{q}')))\n"
    )
    variables = load_config(cfg).variables
    dumped = json.dumps(plainify(variables["infer_cfg"]), sort_keys=True)
    assert hashlib.sha256(dumped.encode()).hexdigest()[:6] == "4d3a0b"
    # an OpenCompass evaluator builds its own prompt template: that one stays OpenCompass's
    template = variables["eval_cfg"]["evaluator"]["prompt_template"]["type"]
    assert not oc.is_inert(template) and oc.origin(template) == "OpenCompass"
