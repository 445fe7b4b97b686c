"""SciReasoner's PEER evaluators and its judge-reply reader, as OpenCompass 0.5.4 computes them.

* ``PEERRuleEvaluator`` (the rule step of the library's cascade for ``solubility``,
  ``human_ppi`` and ``yeast_ppi``): replies and references read by ``PEER_postprocess``,
  a sample correct when both read ``yes`` or both ``no``;
* ``PEER_Evaluator`` (``stability``, the library's only use of it): the same reading
  of the samples (there ``'Yes'``/``'No'`` from ``PEER_postprocess_float_compare``),
  with OpenCompass's counts and its precision, recall and F1 over the correct samples
  alone (see the class);
* ``peer_llm_judge_postprocess``: the judge's replies as verdicts, ``correct`` when the
  upper-cased reply holds ``TRUE``.  OpenCompass's ``CascadeEvaluator`` does not read
  that verdict: it takes a judged sample as correct only when the judge's reply is
  ``A`` or starts with ``CORRECT`` (:class:`~assay.evaluators.cascade.CascadeEvaluator`),
  never so for PEER's ``True``/``False`` replies — kept, as in OpenCompass.
"""

from __future__ import annotations

from typing import Any

from assay.errors import ConfigError
from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, share_percent
from assay.postprocess.scireasoner import PEER_postprocess
from assay.registry import DICT_POSTPROCESSORS, ICL_EVALUATORS

__all__ = ["PEERRuleEvaluator", "PEER_Evaluator", "peer_llm_judge_postprocess"]


def _first(value: Any) -> Any:
    return value[0] if isinstance(value, list) and value else value


def _read(value: Any) -> str:
    return PEER_postprocess(value).strip().lower()


@ICL_EVALUATORS.register_module()
class PEERRuleEvaluator(BaseEvaluator):
    """PEER's rule check: ``accuracy``, the percentage of samples whose reply and reference both read
    ``yes`` or both ``no`` (``PEER_postprocess``, lower-cased).  Details: ``pred``, ``answer`` (as
    given), ``clean_pred``, ``clean_ref``, ``correct``.

    >>> PEERRuleEvaluator().score(['The answer is Yes', 'maybe'], ['Yes', 'No'])['accuracy']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    def score(self, predictions: list[Any], references: list[Any], test_set: Any = None) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        details = []
        for pred, ref in zip(predictions, references):
            raw_pred, raw_ref = _first(pred), _first(ref)
            clean_pred, clean_ref = _read(raw_pred), _read(raw_ref)
            correct = clean_pred in ("yes", "no") and clean_pred == clean_ref
            details.append({"pred": raw_pred, "answer": raw_ref, "clean_pred": clean_pred, "clean_ref": clean_ref,
                            "correct": correct})
        return {"accuracy": share_percent(sum(d["correct"] for d in details), len(details)), "details": details}


@ICL_EVALUATORS.register_module()
class PEER_Evaluator(BaseEvaluator):
    """PEER's yes/no scores without a judge (OpenCompass uses it for ``stability``, where it never asks one).

    Replies and references are read by ``PEER_postprocess`` (lower-cased); a sample is correct when
    both read ``yes`` or both ``no``.  Metrics, OpenCompass's keys: ``num_all``, ``num_correct``,
    ``num_no_answer``, ``num_invalid`` and ``num_gpt_called`` (the last three always 0),
    ``accuracy`` and ``acc_wo_no_answer_invalid`` (both the percentage correct), and
    ``precision``, ``recall``, ``f1_score`` — computed, as in OpenCompass, over the correct samples
    alone: 100 when one of them is a ``yes``, else 0.  Details (assay's; OpenCompass writes none):
    ``pred``, ``answer``, ``correct``.

    OpenCompass's re-check of the other samples by GPT (``use_gpt=True``, its default for any task
    but ``stability``) sends them to the placeholder address ``'url'``, which no request reaches:
    a config asking for it fails, naming the option.

    >>> r = PEER_Evaluator(task='stability').score(['Yes', 'No', ''], ['Yes', 'Yes', 'No'])
    >>> r['accuracy'], r['precision']
    (33.33333333333333, 100.0)
    """

    sample_outcome = SampleOutcome(correct="correct")

    def __init__(self, task: str = "solubility", gpt_model: str = "gpt-4", openai_key: str = "xxx", use_gpt: bool = True,
                 max_workers: int = 8, *args: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.task = task
        self.use_gpt = False if task == "stability" else bool(use_gpt)
        if self.use_gpt:
            raise ConfigError(f"PEER_Evaluator(task={task!r}): use_gpt=True (the default for any task but 'stability') "
                              "sends replies to OpenCompass's placeholder address 'url', which no request reaches; give "
                              "use_gpt=False, or score the task with the library's cascade (PEERRuleEvaluator and an LLM judge)")
        self.gpt_model = gpt_model
        self.max_workers = max_workers

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        correct = []
        for pred, ref in zip(predictions, references):
            p, r = _read(_first(pred)), _read(_first(ref))
            correct.append((p in ("yes", "no") and p == r, p))
        hits = [p for ok, p in correct if ok]
        count = len(predictions)
        any_yes = 100.0 if "yes" in hits else 0.0
        accuracy = share_percent(len(hits), count)
        return {"num_all": count, "num_correct": len(hits), "num_no_answer": 0, "num_invalid": 0, "num_gpt_called": 0,
                "accuracy": accuracy, "acc_wo_no_answer_invalid": accuracy, "precision": any_yes, "recall": any_yes,
                "f1_score": any_yes,
                "details": [{"pred": _first(p), "answer": _first(r), "correct": ok}
                            for (ok, _), p, r in zip(correct, predictions, references)]}


@DICT_POSTPROCESSORS.register_module("peer_llm_judge_postprocess")
def peer_llm_judge_postprocess(output: dict[str, Any], output_path: str | None = None) -> dict[str, Any]:
    """PEER's judge verdicts: each reply stripped and upper-cased is the detail's ``prediction`` and
    ``llm_judge``, ``correct`` when it holds ``TRUE`` (``UNTRUE`` too).  Only details, no metric, as in
    OpenCompass.  A failed request (no reply) reads as ``''``.

    >>> out = {'0': dict(prediction=' true '), '1': dict(prediction='False')}
    >>> [d['correct'] for d in peer_llm_judge_postprocess(out)['details']]
    [True, False]
    """
    details = []
    for value in output.values():
        reply = value.get("prediction")
        content = (reply if isinstance(reply, str) else "").strip().upper()
        details.append({"prediction": content, "correct": "TRUE" in content, "llm_judge": content})
    return {"details": details}
