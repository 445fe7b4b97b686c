"""MRCR's evaluator, as OpenCompass 0.5.4 computes it (``MRCREvaluator``).

MRCR (multi-round co-reference resolution) asks the model to repeat one of
several similar earlier replies of a long conversation, prefixed with a
random string the question gives.
"""

from __future__ import annotations

import difflib
import json
from types import MappingProxyType
from typing import Any

from assay.errors import InputFileError
from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, share_percent
from assay.registry import ICL_EVALUATORS

__all__ = ["MRCREvaluator"]


@ICL_EVALUATORS.register_module()
class MRCREvaluator(BaseEvaluator):
    """The similarity of the reply to the expected reply, when it starts with the required prefix.

    Inputs: ``predictions`` and ``references``, each reference the JSON text
    ``MRCRDataset`` writes in its ``gold`` column:
    ``{"answer": <expected reply>, "prefix": <random prefix>}``.  A reply
    that does not start with the prefix scores 0; otherwise the prefix's
    length is cut from the front of both the reply and the expected reply,
    and the sample scores ``difflib.SequenceMatcher(None, reply,
    expected).ratio()`` (in [0, 1]).  Metric: ``score``, the mean × 100.
    Details, as OpenCompass writes them: ``pred``, ``answer`` (the expected
    reply), ``score`` (in [0, 1]).

    OpenCompass behaviour reproduced: the expected reply is cut by the
    prefix's length whether or not it starts with the prefix; an empty
    prefix (a question without ``Prepend … to``) accepts every reply;
    ``SequenceMatcher``'s automatic junk heuristic is on, so when the
    expected reply (cut) has 200 characters or more, every character making
    up more than 1% of it (spaces, common letters) is ignored when matching
    blocks, which can lower the ratio of long replies (a one-word change in
    a 400-character reply can score 0.04).  ``autojunk=False`` (assay's
    option) compares every character instead.

    Raises:
        InputFileError: a reference is not that JSON text (it names the sample).

    >>> gold = json.dumps({'answer': 'xK2p# A poem about tapirs', 'prefix': 'xK2p#'})
    >>> MRCREvaluator().score(['xK2p# A poem about tapirs', 'A poem about tapirs'], [gold, gold])['score']
    50.0
    """

    sample_outcome = SampleOutcome(scores={"score": "score"})

    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("score", share_percent)})

    def __init__(self, autojunk: bool = True, pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self.autojunk = autojunk

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        details = []
        for i, (pred, ref) in enumerate(zip(predictions, references)):
            answer, prefix = _gold(ref, i)
            text = "" if pred is None else str(pred)
            if text.startswith(prefix):
                value = difflib.SequenceMatcher(None, text[len(prefix) :], answer[len(prefix) :], autojunk=self.autojunk).ratio()
            else:
                value = 0.0
            details.append({"pred": pred, "answer": answer, "score": value})
        return {"score": share_percent(sum(d["score"] for d in details), len(details)), "details": details}


def _gold(ref: Any, index: int) -> tuple[str, str]:
    try:
        gold = json.loads(ref)
        answer, prefix = gold["answer"], gold["prefix"]
    except (TypeError, ValueError, KeyError) as exc:
        raise InputFileError(
            f"MRCREvaluator: reference {index} is {str(ref)[:80]!r}; expected the JSON text "
            f"{{\"answer\": ..., \"prefix\": ...}} of MRCRDataset's gold column ({exc})"
        ) from None
    if not isinstance(answer, str) or not isinstance(prefix, str):
        raise InputFileError(f"MRCREvaluator: reference {index} holds answer {answer!r:.80} and prefix {prefix!r:.80}; both must be text")
    return answer, prefix
