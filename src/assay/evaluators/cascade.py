"""``CascadeEvaluator``: a rule-based check first, an LLM judge for the rest (or for all)."""

from __future__ import annotations

import inspect
import logging
from typing import Any

from assay.evaluate.base import INCOMPLETE_KEY, JUDGE_KEY, BaseEvaluator, SampleOutcome, correctness
from assay.evaluators._common import judged_batch
from assay.registry import ICL_EVALUATORS, resolve_type

logger = logging.getLogger(__name__)

__all__ = ["AssayCascadeEvaluator", "CascadeEvaluator"]


def _build(cfg: Any, where: str) -> BaseEvaluator:
    if isinstance(cfg, BaseEvaluator):
        return cfg
    if not isinstance(cfg, dict) or "type" not in cfg:
        raise TypeError(f"CascadeEvaluator.{where} must be an evaluator config dict(type=...), got {cfg!r:.80}")
    cls = resolve_type(cfg["type"], ICL_EVALUATORS, key=f"{where}.type")
    evaluator: BaseEvaluator = cls(**{k: v for k, v in cfg.items() if k != "type"})
    return evaluator


@ICL_EVALUATORS.register_module()
class CascadeEvaluator(BaseEvaluator):
    """Rule evaluator, then LLM judge.

    Args:
        rule_evaluator: any registered evaluator config (e.g.
            ``dict(type=MATHVerifyEvaluator)``); its per-sample details must
            carry ``correct``/``is_correct``.
        llm_evaluator: a :class:`~assay.evaluators.llm_judge.GenericLLMEvaluator` config.
        sample_score_fn: optional ``fn(prediction, reference, test_item) ->
            dict`` replacing the rule evaluator.
        parallel: ``False`` judges only the samples the rule failed;
            ``True`` (OpenCompass's default) judges every sample.
        pred_postprocessor: applied once to the predictions before both steps.

    As OpenCompass 0.5.4's: the judge (``parallel=False``: the samples the
    rule did not find correct; ``True``: every sample) reads the samples'
    test-set columns with ``prediction`` — the prediction as the cascade
    received it, the judge's ``pred_postprocessor`` does not reach its
    prompt — and ``reference`` added, without ``dataset_cfg`` (so no
    ``obj_gold``; a ``PromptTemplate``'s ``{reference}`` is ``''``); without
    a test set nothing is judged.  Its replies go to
    ``results/<model>/<dataset>_llm_judge_replica<i>.json``.  These requests
    and numbers are checked against OpenCompass's recorded ones
    (``tests/evaluators/test_oc_judge_requests.py``).

    A sample is correct when the rule or the judge says so.  The judge says
    so as OpenCompass 0.5.4's ``CascadeEvaluator`` reads it, from the raw
    reply and more strictly than ``generic_llmjudge_postprocess``
    (:func:`assay.judge.cascade_judge_correct`: stripped and upper-cased,
    exactly ``A`` or starting with ``CORRECT``; ``'A.'`` or ``'**A**'`` is
    not correct), whatever the judge's ``dict_postprocessor`` read.
    :class:`AssayCascadeEvaluator` takes the ``dict_postprocessor``'s verdict
    instead.  Metrics:
    ``accuracy`` and a nested ``cascade_stats`` (``total_samples``,
    ``rule_correct``, ``rule_accuracy``, ``llm_evaluated``, ``llm_correct``,
    ``llm_accuracy``, ``llm_failed``, ``final_correct``, ``final_accuracy``,
    ``parallel_mode``).  Details: ``rule_evaluation``, ``llm_evaluation``
    (``None`` when not judged), ``cascade_correct``.

    As in OpenCompass, a sample whose judge request failed counts as not
    correct by the judge (``llm_failed`` counts them); the result lists them
    as ``unjudged`` in ``_meta.incomplete``.  When every judge request
    fails, the task fails with the judge's error.

    Example:
        >>> ev = CascadeEvaluator(rule_evaluator=dict(type='AccEvaluator'),
        ...     llm_evaluator=dict(type='GenericLLMEvaluator', prompt_template=dict(
        ...         type='RawPromptTemplate', messages=[dict(role='user', content='{prediction}')]),
        ...         judge_cfg=dict(type='OpenAISDK', path='j', openai_api_base='http://127.0.0.1:9/v1')),
        ...     parallel=False)
        >>> res = ev.score(['4'], ['4'], [{'q': '2+2'}])
        >>> res['accuracy'], res['cascade_stats']['llm_evaluated']
        (100.0, 0)
    """

    sample_outcome = SampleOutcome(correct="cascade_correct")

    def __init__(
        self,
        rule_evaluator: Any = None,
        llm_evaluator: Any = None,
        sample_score_fn: Any = None,
        parallel: bool = True,
        pred_postprocessor: Any = None,
    ) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if rule_evaluator is None and sample_score_fn is None:
            raise TypeError("CascadeEvaluator needs rule_evaluator or sample_score_fn")
        if llm_evaluator is None:
            raise TypeError("CascadeEvaluator needs llm_evaluator")
        self.rule_evaluator = _build(rule_evaluator, "rule_evaluator") if rule_evaluator is not None else None
        self.llm_evaluator = _build(llm_evaluator, "llm_evaluator")
        self.sample_score_fn = resolve_type(sample_score_fn, None, key="sample_score_fn") if sample_score_fn else None
        self.parallel = bool(parallel)

    # -- rule step -------------------------------------------------------------------
    def sample_score(self, prediction: Any, reference: Any, test_set: Any = None) -> Any:
        """One sample's rule verdict, as OpenCompass 0.5.4's ``CascadeEvaluator.sample_score`` gives it.

        With ``sample_score_fn``: its result when it is a dict, else
        ``{'correct': bool(result), 'pred': prediction, 'answer': reference}``.
        Else the rule evaluator's ``score([prediction], [reference])`` —
        with ``test_set=[test_set]`` when its ``score`` takes a ``test_set`` —
        and the first of its ``details``; without details,
        ``{'correct': accuracy > 0, 'pred': …, 'answer': …}``.  The prediction
        is taken as given (no postprocessor is applied here).  As in
        OpenCompass, ``details`` given as a dict is indexed by ``0``.

        >>> from assay.evaluators.exact import AccEvaluator
        >>> ev = CascadeEvaluator.__new__(CascadeEvaluator)
        >>> ev.sample_score_fn, ev.rule_evaluator = None, AccEvaluator()
        >>> ev.sample_score('B', 'B')['correct'], ev.sample_score('B', 'C')['correct']
        (True, False)
        """
        if self.sample_score_fn:
            result = self.sample_score_fn(prediction, reference, test_set)
            if not isinstance(result, dict):
                result = {"correct": bool(result), "pred": prediction, "answer": reference}
            return result
        rule = self.rule_evaluator
        assert rule is not None
        if "test_set" in inspect.signature(rule.score).parameters:
            scored = rule.score([prediction], [reference], test_set=[test_set])
        else:
            scored = rule.score([prediction], [reference])
        if "details" in scored and len(scored["details"]) > 0:
            return scored["details"][0]
        return {"correct": scored.get("accuracy", 0) > 0, "pred": prediction, "answer": reference}

    def _rule_details(self, predictions: list[Any], references: list[Any], rows: list[dict[str, Any]], test_set: Any) -> list[dict[str, Any]]:
        if self.sample_score_fn is not None:
            out = []
            for p, r, row in zip(predictions, references, rows):
                res = self.sample_score_fn(p, r, row)
                d = dict(res) if isinstance(res, dict) else {"correct": bool(res)}
                d.setdefault("correct", correctness(d))
                out.append(d)
            return out
        rule = self.rule_evaluator
        assert rule is not None
        preds = rule.pred_postprocess(predictions)
        params = inspect.signature(rule.score).parameters
        available = {"predictions": preds, "references": references, "test_set": test_set}
        kwargs = {k: v for k, v in available.items() if k in params}
        result = rule.score(**kwargs)
        details = result.get("details") if isinstance(result, dict) else None
        if isinstance(details, dict):
            details = list(details.values())
        if isinstance(details, list) and len(details) == len(predictions) and all(correctness(d) is not None for d in details):
            return [dict(d, correct=correctness(d)) for d in details]
        # no usable per-sample flags: score the samples one by one
        logger.debug("%s: rule evaluator gave no per-sample flags; scoring samples one at a time", type(rule).__name__)
        out = []
        for i, (p, r) in enumerate(zip(preds, references)):
            one = {"predictions": [p], "references": [r], "test_set": test_set.select([i]) if hasattr(test_set, "select") else [rows[i]]}
            res = rule.score(**{k: v for k, v in one.items() if k in params})
            sub = res.get("details") if isinstance(res, dict) else None
            if isinstance(sub, dict):
                sub = list(sub.values())
            flag = correctness(sub[0]) if isinstance(sub, list) and sub else None
            if flag is None:
                acc = res.get("accuracy", 0) if isinstance(res, dict) else 0
                flag = isinstance(acc, (int, float)) and acc > 0
            out.append({"pred": p, "answer": r, "correct": flag})
        return out

    def _judge_correct(self, detail: dict[str, Any]) -> bool | None:
        """Whether the judge took the sample as correct (``None``: no reply arrived)."""
        from assay.judge import cascade_judge_correct

        reply = detail.get("judge_response")
        return None if reply is None else cascade_judge_correct(reply)

    # -- estimating ------------------------------------------------------------------
    @property
    def judge_count_bound(self) -> str:
        """Why the judge may see fewer samples than :meth:`judge_conversations` gives: with
        ``parallel=False`` the rule step decides, so every sample is counted (an upper bound)."""
        return "" if self.parallel else "parallel=False: the judge sees only the samples the rule step does not find correct"

    def judge_conversations(self, predictions: list[Any], references: list[Any] | None = None, test_set: Any = None) -> list[Any]:
        """The conversations the judge step would send, nothing sent and no rule run: every sample's
        (with ``parallel=False`` only those the rule does not find correct are sent — at most these)."""
        batch = judged_batch(self, predictions, references, test_set)
        if isinstance(batch, dict) or test_set is None:
            return []
        refs, rows = batch
        llm = self._judge_step()
        sub_rows = [dict(row, prediction=p, reference=r) for row, p, r in zip(rows, predictions, refs)]
        return list(llm.judge_conversations(llm.pred_postprocess(list(predictions)), refs, sub_rows))

    def judge_cache_file(self) -> Any:
        """The reply cache the judge step would use."""
        return self._judge_step().judge_cache_file()

    def uncached_judge(self) -> Any:
        """The judge step's client, without a reply cache."""
        return self._judge_step().uncached_judge()

    def judge(self) -> Any:
        """The judge step's client."""
        return self._judge_step().judge()

    def _judge_step(self) -> Any:
        """The LLM evaluator set up as the judge step runs it: its replies beside the result under
        ``_llm_judge``, reading the samples' test-set columns (OpenCompass's ``dataset_cfg=None`` path)."""
        llm = self.llm_evaluator
        out_dir = getattr(self, "_out_dir", None)
        if out_dir is not None:
            llm._out_dir = f"{out_dir}_llm_judge"  # type: ignore[attr-defined]
        if getattr(self, "_judge_cache", None) is not None:  # the cache the task names, the judge step's too
            llm._judge_cache = self._judge_cache  # type: ignore[attr-defined]
        llm._dataset_replica_idx = self.dataset_replica_idx
        llm.dataset_cfg = None  # type: ignore[attr-defined]
        llm._cascade_columns = True  # type: ignore[attr-defined]
        return llm

    # -- scoring ---------------------------------------------------------------------
    def score(self, predictions: list[Any], references: list[Any] | None = None, test_set: Any = None) -> dict[str, Any]:
        batch = judged_batch(self, predictions, references, test_set)
        if isinstance(batch, dict):
            return batch
        refs, rows = batch
        name = type(self).__name__
        n = len(predictions)

        rule_details = self._rule_details(list(predictions), refs, rows, test_set)
        rule_ok = [bool(d.get("correct")) for d in rule_details]
        to_judge = list(range(n)) if self.parallel else [i for i in range(n) if not rule_ok[i]]

        llm = self.llm_evaluator
        out_dir = getattr(self, "_out_dir", None)
        if out_dir is not None:
            llm._out_dir = f"{out_dir}_llm_judge"  # type: ignore[attr-defined]
        if getattr(self, "_judge_cache", None) is not None:  # the cache the task names, the judge step's too
            llm._judge_cache = self._judge_cache  # type: ignore[attr-defined]
        llm._dataset_replica_idx = self.dataset_replica_idx
        llm_details: dict[int, dict[str, Any]] = {}
        llm_metrics: dict[str, Any] = {}
        if to_judge and test_set is not None:
            # As OpenCompass: the judge reads the samples' test-set columns with the prediction as
            # the cascade received it (the judge's pred_postprocessor does not reach the prompt) and
            # the reference added, and no dataset_cfg (so no obj_gold)
            llm.dataset_cfg = None  # type: ignore[attr-defined]
            llm._cascade_columns = True  # type: ignore[attr-defined]
            sub_rows = [dict(rows[i], prediction=predictions[i], reference=refs[i]) for i in to_judge]
            sub_preds = llm.pred_postprocess([predictions[i] for i in to_judge])
            sub_refs = [refs[i] for i in to_judge]
            llm_metrics = llm.score(predictions=sub_preds, references=sub_refs, test_set=sub_rows)
            if "error" in llm_metrics:
                return {"error": f"{name}: the LLM judge failed: {llm_metrics['error']}"}
            for i, d in zip(to_judge, llm_metrics.get("details") or []):
                entry = dict(d)
                entry["llm_correct"] = self._judge_correct(entry)
                entry["dataset_replica_idx"] = self.dataset_replica_idx
                llm_details[i] = entry
        else:
            to_judge = []

        details = []
        final = 0
        llm_correct = llm_failed = 0
        for i in range(n):
            judged = llm_details.get(i)
            judge_ok = judged.get("llm_correct") if judged else None
            if judged is not None:
                llm_correct += judge_ok is True
                llm_failed += judge_ok is None
            ok = rule_ok[i] or judge_ok is True
            final += ok
            details.append({"rule_evaluation": rule_details[i], "llm_evaluation": judged, "cascade_correct": ok})
        rule_correct = sum(rule_ok)
        judged_n = len(to_judge)
        stats = {
            "total_samples": n,
            "rule_correct": rule_correct,
            "rule_accuracy": 100 * rule_correct / n,
            "llm_evaluated": judged_n,
            "llm_correct": llm_correct,
            "llm_accuracy": 100 * llm_correct / judged_n if judged_n else 0.0,
            "llm_failed": llm_failed,
            "final_correct": final,
            "final_accuracy": 100 * final / n,
            "parallel_mode": self.parallel,
        }
        result: dict[str, Any] = {"accuracy": 100 * final / n, "cascade_stats": stats, "details": details}
        if llm_metrics.get(INCOMPLETE_KEY):
            result[INCOMPLETE_KEY] = llm_metrics[INCOMPLETE_KEY]
        if llm_metrics.get(JUDGE_KEY):
            result[JUDGE_KEY] = llm_metrics[JUDGE_KEY]
        return result


@ICL_EVALUATORS.register_module()
class AssayCascadeEvaluator(CascadeEvaluator):
    """:class:`CascadeEvaluator` taking the judge's verdict from the judge
    evaluator's ``dict_postprocessor`` (its per-sample ``correct``) instead of
    OpenCompass's stricter check of the raw reply (opt-in).

    With ``dict_postprocessor=dict(type='assay_llmjudge_postprocess')`` on the
    ``llm_evaluator``, "**A**" or "The answer is A" counts as correct and a
    reply without a grade letter is unjudged (``llm_failed``), not wrong.
    Same arguments, metrics and details as :class:`CascadeEvaluator`.

    Example:
        >>> ev = AssayCascadeEvaluator(rule_evaluator=dict(type='AccEvaluator'),
        ...     llm_evaluator=dict(type='GenericLLMEvaluator', prompt_template=dict(
        ...         type='RawPromptTemplate', messages=[dict(role='user', content='{prediction}')]),
        ...         judge_cfg=dict(type='OpenAISDK', path='j', openai_api_base='http://127.0.0.1:9/v1')))
        >>> ev._judge_correct({'judge_response': '**A**', 'correct': True})
        True
    """

    def _judge_correct(self, detail: dict[str, Any]) -> bool | None:
        flag = detail.get("correct")
        return None if flag is None else bool(flag)
