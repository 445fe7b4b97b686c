"""Record what OpenCompass 0.5.4 computes for SciReasoner's PEER with its LLM judge (``peer_gen``, ``peer_rawprompt_gen``).

Run it with a Python that has ``opencompass==0.5.4`` installed, with RDKit (which importing
OpenCompass's SciReasoner package needs); OpenCompass is not a dependency of assay::

    python scripts/record_oc_judge_sci4a.py [--only CASE ...]

The data files are those of ``scripts/record_oc_sci4a.py`` (run it first), under
``tests/data/oc_families/sci4a/cache`` (``$COMPASS_DATA_CACHE``); the prediction files
are written under ``tests/data/oc_families/judge_sci4a/predictions``, each reply saying
``item N``.  Each case imports a library config unchanged and scores its ``PEER_datasets``
(the ``-mini`` twins draw 150 questions, more than the small files hold) with the
recording code of ``scripts/record_oc_judge_b.py``: OpenCompass's own ``OpenICLEvalTask``
(loader, postprocessors, ``CascadeEvaluator`` with ``PEERRuleEvaluator`` and
``GenericLLMEvaluator``, ``peer_llm_judge_postprocess``), the judge being the
``OC_JUDGE_*`` one, pointed at a local OpenAI-compatible server
(``tests/judge/fake_server.py``) that logs every request and answers the sample whose
reply says ``item N`` with ``REPLIES[N % len]``.  ``expected/<case>.json`` receives the
config text, the request bodies as sent, the result files and, per dataset, the rows
OpenCompass's loader returns.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path

from _oc_recording import judge_recording, record_in_children, write_json, write_prediction_file

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "judge_sci4a"
CACHE = REPO / "tests" / "data" / "oc_families" / "sci4a" / "cache"
MODEL = "oc-model"

_HEAD = "from mmengine.config import read_base\n\nwith read_base():\n    from opencompass.configs.datasets.{module} import {variable}\n\n"
_MODELS = f"\nmodels = [dict(abbr={MODEL!r}, path='org/model')]\n"


def _case(module: str, variable: str) -> str:
    return _HEAD.format(module=module, variable=variable) + f"datasets = {variable}\n" + _MODELS


#: case id → (config text, kind, reply family), as ``record_oc_judge_b.CASES``
CASES: dict[str, tuple[str, str, str]] = {
    "peer_gen": (_case("SciReasoner.peer_gen", "PEER_datasets"), "eval", "peer"),
    "peer_rawprompt_gen": (_case("SciReasoner.peer_rawprompt_gen", "PEER_datasets"), "eval", "peer"),
}

#: the judge's canned replies: the sample whose reply says ``item N`` gets ``REPLIES["peer"][N % len]``
REPLIES: dict[str, list[str]] = {
    "peer": ["True", "False", " true. ", "TRUE", "", "The answer is False", "A", "CORRECT, it matches", "I am not sure",
             "untrue"],
}

#: task → the model's replies (before ``PEER_postprocess_default``), one per test item of the data files
PREDICTIONS: dict[str, list[str]] = {
    "solubility": ["item 0: The answer is Yes.", "<think>unsure</think>item 1: It is not soluble.<|im_end|>",
                   "item 2: Hard to say.", "item 3: The protein will dissolve.", "item 4: maybe", "item 5: {reference}"],
    "human_ppi": ["item 6: Yes", "item 7: No", "item 8: They might bind", "item 9: No interaction", ""],
    "yeast_ppi": ["item 10: indeed they interact", "item 11: The answer is No", "item 12: unknown", "item 13: low affinity"],
}


def write_fixtures() -> None:
    """The prediction files of the cases (the data files are ``record_oc_sci4a.py``'s)."""
    preds = FIXTURES / "predictions" / MODEL
    shutil.rmtree(FIXTURES / "predictions", ignore_errors=True)
    preds.mkdir(parents=True)
    peer = CACHE / "data" / "SciReasoner" / "PEER-test"
    replies = dict(PREDICTIONS)
    stability = json.loads((peer / "stability" / "test" / "data.json").read_text(encoding="utf-8"))
    replies["stability"] = [f"The score is {(i % 7 - 3) * 0.5}" if i % 5 else "no number" for i in range(len(stability))]
    for task, answers in replies.items():
        items = json.loads((peer / task / "test" / "data.json").read_text(encoding="utf-8"))
        assert len(items) == len(answers), task
        write_prediction_file(preds / f"SciReasoner-PEER_{task}.json", [item["input"] + "." for item in items], answers,
                              [item["output"] for item in items])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="case ids to record (default: all)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(REPO / "scripts"))
    import record_oc_judge_b as judge

    scratch = judge_recording("record_oc_judge_sci4a_", CACHE)
    os.environ["HF_DATASETS_OFFLINE"] = "1"
    if args.child:
        os.chdir(CACHE)
        judge.FIXTURES, judge.CASES, judge.REPLIES = FIXTURES, CASES, REPLIES  # judge_b's recording code, on these cases
        record = judge._run_case(args.child, scratch / "work")
        write_json(FIXTURES / "expected" / f"{args.child}.json", record, sort_keys=True)
        return
    write_fixtures()
    record_in_children(__file__, args.only or CASES)


if __name__ == "__main__":
    main()
