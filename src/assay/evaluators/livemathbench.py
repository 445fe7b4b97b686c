"""LiveMathBench's evaluator as OpenCompass 0.5.4 computes it without a judge model (``LiveMathBenchEvaluator``)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from assay.errors import ConfigError
from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples, share_percent, test_set_column
from assay.registry import ICL_EVALUATORS

__all__ = ["LiveMathBenchEvaluator"]


@ICL_EVALUATORS.register_module()
class LiveMathBenchEvaluator(BaseEvaluator):
    """LiveMathBench accuracy in [0, 100] by OpenCompass's rule-based judge.

    This is the path OpenCompass takes when the config names no judge model
    (``model_name=''`` or ``url=[]``, as every LiveMathBench config in
    OpenCompass 0.5.4 does): each reply's answer is taken by
    ``math_postprocess_v2`` and compared with ``MATHEvaluator``'s v2
    equivalence.  With a judge model (or an extraction model) the evaluator
    needs a model: that is refused when the evaluator is built.

    Inputs: ``predictions``, ``references`` and ``test_set`` (its
    ``question``, ``question_type`` and ``subdivision`` columns).  As in
    OpenCompass, the language is read from the second ``_``-separated part of
    each row's ``subdivision``, which is the dataset's ``abbr``: an ``abbr``
    without ``_`` (``'LiveMathBench-v202412'``, the configs' own) makes
    OpenCompass stop with an ``IndexError``, and gives an error record here.
    Details: ``pred`` (the whole reply), ``ref``, ``correct`` (1 or 0).
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("correct", share_percent)})

    def __init__(
        self,
        model_name: str = "",
        url: str | list[str] | tuple[str, ...] = (),
        use_extract_model: bool = False,
        extract_url: list[str] | tuple[str, ...] = (),
        extract_model_name: str = "",
    ) -> None:
        super().__init__()
        urls = [url] if isinstance(url, str) else list(url)
        if (model_name != "" and urls) or use_extract_model:
            raise ConfigError(
                "LiveMathBenchEvaluator with a judge or extraction model (model_name/url, use_extract_model) needs a model "
                "to evaluate; assay implements its rule-based judge only (leave model_name='' or url=[])"
            )

    def score(self, predictions: list[Any], references: list[Any], test_set: Any) -> dict[str, Any]:
        from assay.evaluators._mathstrings import math_is_equiv
        from assay.postprocess.math import math_postprocess_v2

        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        if not predictions:
            return no_samples(self)
        columns = {c: test_set_column(test_set, c) for c in ("question", "question_type", "subdivision")}
        missing = [c for c, values in columns.items() if values is None]
        if missing:
            return {"error": f"LiveMathBenchEvaluator: the test set has no {', '.join(map(repr, missing))} column"}
        bad = next((s for s in columns["subdivision"] or () if len(str(s).split("_")) < 2), None)
        if bad is not None:
            return {"error": f"LiveMathBenchEvaluator: the dataset abbr {bad!r} has no '_' to read a language from "
                             "(OpenCompass 0.5.4 stops with an IndexError here); use an abbr such as 'LiveMathBench_en'"}
        labels = [int(math_is_equiv(math_postprocess_v2(p), r, "v2")) for p, r in zip(predictions, references)]
        details = [{"pred": p, "ref": r, "correct": label} for p, r, label in zip(predictions, references, labels)]
        return {"accuracy": share_percent(sum(labels), len(labels)), "details": details}
