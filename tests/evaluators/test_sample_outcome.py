"""Each built-in evaluator's ``sample_outcome`` names fields its ``score()`` writes, and they reproduce its metrics.

The evaluators run on the contract's small inputs (two runs, so that the
per-sample fields are lists and the metrics carry the runs suffix); the
declared fields must be in every detail and the statistics must rebuild the
metric from them.  The code evaluators and the LLM judge run against the
sandbox and a local judge server.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from assay.evaluate import CORPUS_BLEU, SANDBOX_UNSCORABLE, SampleOutcome
from assay.registry import ICL_EVALUATORS
from assay.sandbox import isolation_unavailable
from assay.stats import sample_values, unscorable_of, values_match
from assay.stats._samples import SampleValues
from tests.evaluators.test_contract import INPUTS

#: metric → the basis the statistics must find for it through the declaration.
BACKED: dict[str, dict[str, str]] = {
    "AccEvaluator": {"accuracy": "correct"},
    "AccwithDetailsEvaluator": {"accuracy": "correct"},
    "EMEvaluator": {"score": "correct"},
    "BBHEvaluator": {"score": "correct"},
    "BBHEvaluator_mcq": {"score": "correct"},
    "GPQAEvaluator": {"accuracy": "correct"},
    "MMLUProBaseEvaluator": {"accuracy": "correct"},
    "AGIEvalEvaluator": {"score": "correct"},
    "AGIEvalEvaluator_mcq": {"score": "correct"},
    "EDAccEvaluator": {"accuracy": "correct"},
    "BleuEvaluator": {"score": "corpus bleu"},
    "RougeEvaluator": {k: f"details.{k}" for k in ("rouge1", "rouge2", "rougeL", "rougeLsum")},
    "JiebaRougeEvaluator": {k: f"details.{k}" for k in ("rouge1", "rouge2", "rougeL")},
    "AUCROCEvaluator": {"accuracy": "correct"},
    "CircularEvaluator": {"acc_circular": "correct"},
    "Gsm8kEvaluator": {"accuracy": "correct"},
    "Math401Evaluator": {"accuracy": "correct"},
    "ARCPrizeEvaluator": {"accuracy": "details.correct"},
    "PMMEvalMGSMEvaluator": {"accuracy": "correct"},
    "PMMEvalMMMLUEvaluator": {"accuracy": "correct"},
    "PMMEvalMHellaswagEvaluator": {"accuracy": "correct"},
    "PMMEvalMLogiQAEvaluator": {"accuracy": "correct"},
    "PMMEvalXNLIEvaluator": {"accuracy": "correct"},
    "PMMEvalFloresEvaluator": {},
    "PMMEvalMIFEvalEvaluator": {"strict_acc": "details.strict_acc", "loose_acc": "details.loose_acc"},
    "MGSM_Evaluator": {"accuracy": "correct"},
    "MastermathDatasetv1Evaluator": {"accuracy": "correct"},
    "QuALITYEvaluator": {"all_acc": "correct"},
    "CharmReasonEvaluator": {"score": "correct"},
    "ProcessBenchEvaluator": {},
    "S3EvalEvaluator": {"score": "details.score"},
    "korbenchEvaluator": {"accuracy": "correct"},
    "TabMWPEvaluator": {"accuracy": "correct"},
    "ZebraLogicMCEvaluator": {"score": "correct"},
    "ZebraLogicGridEvaluator": {"perfect_accuracy": "details.correct"},
    "Game24Evaluator": {"acc score": "details.correct"},
    "BBEHEvaluator": {"score": "correct"},
    "BBEHEvaluator_mcq": {"score": "correct"},
    "SuperGPQAEvaluator": {"accuracy": "details.correct"},
    "MATHEvaluator": {"accuracy": "correct"},
    "MATHInternEvaluator": {"accuracy": "correct"},
    "MATHVerifyEvaluator": {"accuracy": "correct"},
    "MathEEDEvaluator": {"accuracy": "details.score"},
    "TriviaQAEvaluator": {"score": "correct"},
    "NQEvaluator": {"score": "correct"},
    "NQEvaluatorCN": {"score": "correct"},
    "TydiQAEvaluator": {"exact_match": "correct", "f1": "details.f1"},
    "CrowspairsEvaluator": {"accuracy": "correct"},
    "SQuAD20Evaluator": {"score": "correct"},
    "LambadaEvaluator": {"accuracy": "correct"},
    "MusrEvaluator": {"accuracy": "correct"},
    "OpenFinDataKWEvaluator": {"accuracy": "correct"},
    "MedmcqaEvaluator": {"accuracy": "correct"},
    "MedXpertQAEvaluator": {"accuracy": "correct"},
    "MedbulletsEvaluator": {"accuracy": "correct"},
    "NejmaibenchEvaluator": {"accuracy": "correct"},
    "AverageRougeScoreEvaluator": {"AvgRougeScore": "details.correct"},
    "AccScoreStr_Evaluator": {"ACCStrScore": "correct"},
    "DropOpenAIEvaluator": {"accuracy": "correct"},
    "IFEvaluator": {"Prompt-level-strict-accuracy": "correct", "Prompt-level-loose-accuracy": "details.is_loose_correct"},
    "TheoremQAEvaluatorV3": {"score": "correct"},
    "OlympiadBenchEvaluator": {"accuracy": "correct"},
    "LiveMathBenchEvaluator": {"accuracy": "correct"},
    "RulerNiahEvaluator": {"score": "details.score"},
    "RulerVtEvaluator": {"score": "details.score"},
    "RulerCweEvaluator": {"score": "details.score"},
    "RulerFweEvaluator": {"score": "details.score"},
    "RulerQaEvaluator": {"score": "details.score"},
    "BabiLongEvaluator": {"score": "correct"},
    "NeedleBenchOriginEvaluator": {"score": "details.score"},
    "NeedleBenchV2OriginEvaluator": {"score": "details.score"},
    "NeedleBenchMultiEvaluator": {"score": "details.score"},
    "NeedleBenchATCEvaluator": {"score": "correct"},
    "CircularLetterEvaluator": {"acc_4": "correct"},
    "InfiniteBenchendiaEvaluator": {"score": "correct"},
    "InfiniteBenchretrievekvEvaluator": {"score": "correct"},
    "InfiniteBenchmathcalcEvaluator": {"score": "details.matched"},
    "LEvalEMEvaluator": {"score": "correct"},
    "MRCREvaluator": {"score": "details.score"},
    "LongBenchF1Evaluator": {"score": "details.score"},
    "LongBenchRougeEvaluator": {"score": "details.score"},
    "LongBenchCodeSimEvaluator": {"score": "details.score"},
    "LongBenchCountEvaluator": {"score": "details.score"},
    "LongBenchRetrievalEvaluator": {"score": "details.score"},
    "LongBenchClassificationEvaluator": {"score": "details.score"},
    "LongBenchv2Evaluator": {"accuracy": "correct"},
    "LVEvalF1Evaluator": {"f1": "details.f1"},
    "LVEvalOPTF1Evaluator": {"LVEval_f1": "details.LVEval_f1"},
    "LVEvalOPTRougeEvaluator": {"LVEval_rouge": "details.LVEval_rouge"},
    "NCExactMatchEvaluator": {"score": "correct"},
    "NCElementMatchEvaluator": {"score": "correct"},
    "RMSEEvaluator": {"score": "details.score"},
    "BiodataAccEvaluator": {"acc": "details.acc"},
    "MoleculariqCountEvaluator": {"score": "correct"},
    "MoleculariqIndexEvaluator": {"score": "correct"},
    "MoleculariqGenerationEvaluator": {"score": "correct"},
    "CMPhysBenchEvaluator": {"score": "details.score"},
    "MolInstructionsMAEEvaluator": {"score": "details.score"},
    "OpenSWIMSEEvaluator": {"score": "details.score"},
    "MatbenchEvaluator_regression": {"mae": "details.error"},
    "MatbenchEvaluator_classification": {"accuracy": "details.correct"},
    "MatbenchEvaluator_classification_glass": {"accuracy": "details.correct"},
    "Mol_Instructions_Evaluator_Protein_Design": {"Average SW score": "details.score"},
    "PEERRuleEvaluator": {"accuracy": "correct"},
    "PEER_Evaluator": {"accuracy": "correct"},
    "CaLMEvaluator": {"Accuracy": "details.score"},
}
#: Evaluators whose details hold no per-sample field behind a metric (or that write no details).
NOTHING = {"MccEvaluator", "GUE_Evaluator", "F1ScoreEvaluator", "MultiIFEvaluator", "AveragePPLEvaluator", "AverageMinKEvaluator", "BPCEvaluator", "NeedleBenchParallelEvaluator",
           "AverageInferencePPLEvaluator", "KaoshiEvaluator", "Opi_Evaluator",
           "LLM4Chem_Evaluator", "RetrosynthesisEvaluator", "Mol_Instructions_Evaluator_Mol",
           "CIBenchStepEvaluator"} | {
    # GAOKAO-Bench: points over points possible, a sub-question each (two for multi_choice), not a mean over samples
    f"GaokaoBenchEvaluator_{kind}" for kind in (
        "single_choice", "multi_choice", "multi_question_choice", "five_out_of_seven", "cloze", "subjective", "correction")
}
#: How to build an evaluator so that its metric is a plain mean of the per-sample field.
BUILD: dict[str, dict[str, Any]] = {"RougeEvaluator": {"aggregate": "mean"}, "CaLMEvaluator": {"task": "CORR-B_correlation_EN"}, "PEER_Evaluator": {"task": "stability"}, "MATHVerifyEvaluator": {"workers": 1}, "MathEEDEvaluator": {"workers": 1}, "CMPhysBenchEvaluator": {"workers": 1}}


def _outcome(name: str) -> SampleOutcome | None:
    return SampleOutcome.of(ICL_EVALUATORS.get(name))


def _flat(values: list[Any]) -> list[Any]:
    return [v for runs in values for v in (runs if isinstance(runs, list) else [runs])]


def _scored(name: str, runs: int, size: int = 12) -> dict[str, Any]:
    inputs = INPUTS[name].make(random.Random(7), size * runs)
    evaluator = ICL_EVALUATORS.get(name)(**BUILD.get(name, {}))
    result = evaluator.evaluate(k=1, n=runs, original_dataset=None, **inputs)
    assert "error" not in result, result
    outcome = _outcome(name)
    if outcome is not None:
        result["_meta"] = {"outcome": outcome.to_json(), "n": runs}
    return result


def test_every_contract_evaluator_has_an_expectation() -> None:
    assert sorted(set(INPUTS) - set(BACKED) - NOTHING) == []
    for name in NOTHING:
        assert _outcome(name) is None, name


@pytest.mark.parametrize("name", sorted(BACKED))
def test_declared_fields_are_written_and_reproduce_the_metrics(name: str) -> None:
    runs = 1 if name == "BleuEvaluator" else 2  # corpus BLEU is recomputed for a single run only
    result = _scored(name, runs)
    outcome = _outcome(name)
    assert outcome is not None
    details = result["details"]
    declared = [outcome.correct, *(f for f in outcome.scores.values() if f != CORPUS_BLEU)]
    for fieldname in filter(None, declared):
        assert all(fieldname in d for d in details), f"{name}: details lack {fieldname!r}"
    if outcome.unscorable_values:
        assert all(outcome.unscorable in d for d in details), f"{name}: details lack {outcome.unscorable!r}"
    suffix = "" if runs == 1 else f" ({runs} runs average)"
    for metric, basis in BACKED[name].items():
        value = result[metric + suffix]
        sv = sample_values(result, metric + suffix)
        assert isinstance(sv, SampleValues), f"{name}.{metric}: {sv}"
        assert sv.basis.startswith(basis) and sv.runs == runs
        if basis == "correct":  # the verdicts by hand: the metric is 100 × their mean
            verdicts = _flat([d[outcome.correct] for d in details])
            assert values_match(value, 100 * sum(map(bool, verdicts)) / len(verdicts), outcome.decimals)
    u = unscorable_of(result)
    assert u.total == 12 * runs


def test_the_judges_declared_flag_counts_the_samples_it_could_not_judge(tmp_path) -> None:
    from datasets import Dataset

    from tests.evaluators.test_llm_judge import ANSWERS, GOLDS, QUESTIONS, grader, make, run_dir
    from tests.judge.fake_server import FakeJudge

    outcome = _outcome("GenericLLMEvaluator")
    assert outcome == SampleOutcome(correct="correct", unscorable="judge_failed")
    ds = Dataset.from_dict({"question": QUESTIONS, "answer": GOLDS})
    with FakeJudge(grader) as server:
        result = make(server.base_url, run_dir(tmp_path)).evaluate(
            k=1, n=1, original_dataset=ds, predictions=ANSWERS, references=GOLDS, test_set=ds
        )
    result["_meta"] = {"outcome": outcome.to_json()}
    sv = sample_values(result, "accuracy")
    assert isinstance(sv, SampleValues) and sv.basis == "correct"
    u = unscorable_of(result, [("accuracy", result["accuracy"])])
    assert u.judge_failed == result["judge_failed_count"] == 1  # the request that never got a reply
    # 4 of 9 right; the one not judged could have been either
    assert u.bounds["accuracy"] == pytest.approx((100 * 4 / 9, 100 * 5 / 9))


_NO_SANDBOX = isolation_unavailable("namespaces")


@pytest.mark.skipif(_NO_SANDBOX is not None, reason=f"no namespace sandbox: {_NO_SANDBOX}")
def test_a_code_evaluators_declared_outcome_counts_programs_not_run() -> None:
    from assay.evaluators.mbpp import MBPPEvaluator, MBPPPassKEvaluator

    outcome = _outcome("MBPPEvaluator")
    assert outcome == SampleOutcome(correct="is_correct", unscorable="outcome", unscorable_values=SANDBOX_UNSCORABLE)
    assert _outcome("MBPPPassKEvaluator") == outcome
    for name in ("HumanEvalEvaluator", "LCBCodeExecutionEvaluator", "LCBTestOutputEvaluator", "LCEvaluator", "LCPassKEvaluator", "APPSEvaluator",
                 "TACOEvaluator"):
        assert _outcome(name) == outcome
    tests = "assert add(2, 3) == 5"
    replies = [
        "def add(a, b):\n    return a + b\n",
        "def add(a, b):\n    return a - b\n",
        "def add(a, b):\n    while True:\n        pass\n",
        "def add(a, b):\n    return b + a\n",
    ]
    result = MBPPEvaluator(timeout=2, isolation="namespaces").evaluate(
        k=1, n=1, original_dataset=None, predictions=replies, references=[tests] * 4
    )
    assert [d["outcome"] for d in result["details"]] == [["passed"], ["failed"], ["timeout"], ["passed"]]
    result["_meta"] = {"outcome": outcome.to_json()}
    sv = sample_values(result, "score")
    assert isinstance(sv, SampleValues) and sv.basis == "correct" and result["score"] == 50.0
    u = unscorable_of(result, [("score", 50.0)])
    assert u.not_executed == 1 and u.judge_failed is None
    assert u.bounds["score"] == (50.0, 75.0)  # the program that timed out might have passed

    refs = [{"test_list_2": tests, "task_id": i // 2} for i in range(4)]
    passk = MBPPPassKEvaluator(k=[1], timeout=2, isolation="namespaces").evaluate(
        k=1, n=1, original_dataset=None, predictions=[replies[:2], replies[2:], replies[:1], replies[1:3]], references=refs
    )
    passk["_meta"] = {"outcome": outcome.to_json()}
    assert unscorable_of(passk).not_executed == 2  # candidates, not samples, as the sandbox counts them
