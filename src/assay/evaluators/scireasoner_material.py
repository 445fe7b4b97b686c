"""SciReasoner's materials generation evaluators, as OpenCompass 0.5.4 computes them.

Each reads the replies after ``material_postprocessor`` (the text inside
``<material>…</material>``, elements then a space group, as ``Na Cl <sg>
<sg225>``) and checks the composition's charge balance and electronegativity
with SMACT's ``smact_validity`` (the package ``smact``, in assay's optional
extra ``chem``; imported when scoring).  The two conditional evaluators read
the test file of their dataset themselves, as OpenCompass's do, and pair its
``i``-th item with the ``i``-th reply.  OpenCompass writes no details; assay's
(its addition) say what each reply was read as.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import no_samples
from assay.postprocess.scireasoner import material_postprocessor
from assay.registry import ICL_EVALUATORS

__all__ = ["composition_Evaluator", "material_Evaluator", "uncond_material_Evaluator"]

SMACT_MISSING = "SMACT is not installed (pip install smact, or pip install 'assay[chem]')"

_UNCOND = re.compile(r"([A-Z][a-z]?(?: [A-Z][a-z]?)*?)\s*(?:<|⟨)sg(?:>|⟩)\s*(?:<|⟨)sg(\d+)(?:>|⟩)")
_CONDITIONAL = re.compile(r"([A-Z][a-z]?(?: [A-Z][a-z]?)*?)\s*(?:<sg>\s*)?<sg(\d+)>")
_SYMBOL = re.compile(r"\b[A-Z][a-z]?\b")
_TAG = re.compile(r"<[^>]+>")
_PROMPT_LEAD = re.compile(
    r"(?:composed of|that has|characterized by|with the composition|based on|featuring|whose makeup is)\s+(.*?)(?:[\.。\n]|$)",
    re.IGNORECASE)
_SPLIT = re.compile(r"[,\s]+")
_ONE_SYMBOL = re.compile(r"[A-Z][a-z]?")


def _smact() -> Callable[[str], Any] | None:
    try:
        from smact.screening import smact_validity
    except ImportError:
        return None
    return smact_validity


def _missing(cfg: Mapping[str, Any]) -> list[str]:
    import importlib.util

    return [SMACT_MISSING] if importlib.util.find_spec("smact") is None else []


def _formula(elements: str, counts_of_one: bool) -> str:
    """The elements in alphabetical order with their counts (a count of 1 written only when ``counts_of_one``)."""
    counter = Counter(elements.split())
    return "".join(f"{el}{n}" if n > 1 or counts_of_one else el for el, n in sorted(counter.items()))


def _valid(check: Callable[[str], Any], formula: str) -> bool | None:
    """SMACT's verdict on ``formula``; ``None`` when SMACT raises (the reply then counts as not well formed)."""
    try:
        return bool(check(formula))
    except Exception:  # OpenCompass counts a composition SMACT cannot judge as not well formed
        return None


def _reply(item: Any, i: int, name: str) -> tuple[str, str]:
    """The stripped reply text and the prompt it carries (a reply may be a mapping with ``prediction``/``input``)."""
    if isinstance(item, Mapping):
        text, prompt = item.get("prediction", ""), item.get("input", "")
    else:
        text, prompt = item, ""
    if not isinstance(text, str) or not isinstance(prompt, str):
        raise InputFileError(f"{name}: prediction {i} is {item!r:.80}, expected text")
    return text.strip(), prompt.strip()


def _test_items(data_path: Any, folder: str, name: str) -> list[dict[str, Any]]:
    if not isinstance(data_path, str):
        raise InputFileError(f"{name}: data_path must name the dataset's folder, got {data_path!r}")
    file = os.path.join(get_data_path(data_path), folder, "test", "data.json")
    try:
        with open(file, encoding="utf-8") as f:
            items = json.load(f)
    except OSError as exc:
        raise InputFileError(f"{name}: cannot read its test file {file}: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise InputFileError(f"{name}: {file} is not JSON: {exc}") from exc
    if not isinstance(items, list) or not all(isinstance(it, dict) for it in items):
        raise InputFileError(f"{name}: {file} must hold a JSON list of objects")
    return items


def _percent(part: float, whole: int) -> float:
    return part / whole * 100 if whole else 0.0


@ICL_EVALUATORS.register_module()
class uncond_material_Evaluator(BaseEvaluator):
    """Unconditional materials: how many replies name a composition SMACT accepts.

    A reply counts when, stripped, it starts with element symbols separated by
    single spaces, then ``<sg>`` (or ``⟨sg⟩``) and ``<sgN>``; its formula is
    the symbols sorted with their counts (a count of 1 not written).  Metrics:
    ``total_samples``, ``format_valid_count`` (replies read and judged by SMACT;
    a formula SMACT raises on is not counted), ``smact_valid_count``,
    ``smact_validity_ratio_in_format_valid`` and ``smact_validity_ratio_in_all``
    (percentages, 0 when their base is 0).  Details: ``formula`` (``''`` when not
    read), ``smact_valid`` (``None`` when not judged).
    """

    dry_run_notes = staticmethod(_missing)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)

    def score(self, predictions: list[Any]) -> dict[str, Any]:
        if not predictions:
            return no_samples(self)
        check = _smact()
        if check is None:
            return {"error": f"{type(self).__name__}: {SMACT_MISSING}"}
        format_valid = smact_valid = 0
        details = []
        for i, item in enumerate(predictions):
            text, _ = _reply(item, i, type(self).__name__)
            found = _UNCOND.match(text)
            formula = _formula(found.group(1), counts_of_one=False) if found else ""
            verdict = _valid(check, formula) if found else None
            if verdict is not None:
                format_valid += 1
                smact_valid += verdict
            details.append({"formula": formula, "smact_valid": verdict})
        total = len(predictions)
        return {
            "total_samples": total,
            "format_valid_count": format_valid,
            "smact_valid_count": smact_valid,
            # OpenCompass scales 0 (an int) when nothing was judged, and writes it so
            "smact_validity_ratio_in_format_valid": smact_valid / format_valid * 100 if format_valid else 0,
            "smact_validity_ratio_in_all": _percent(smact_valid, total),
            "details": details,
        }


def prompt_elements(prompt: str) -> list[str]:
    """The element symbols a composition prompt asks for, as OpenCompass reads them.

    The words after the first ``composed of``, ``that has``, ``characterized by``,
    ``with the composition``, ``based on``, ``featuring`` or ``whose makeup is``
    up to a period, ``。``, a newline or the end, split on commas and spaces,
    those that are a symbol; without such a lead, every capitalized one- or
    two-letter word of the prompt (``A`` and ``I`` included).

    >>> prompt_elements('Design a material composed of Fe, O and Li.')
    ['Fe', 'O', 'Li']
    """
    lead = _PROMPT_LEAD.search(prompt)
    if lead:
        return [word for word in (w.strip() for w in _SPLIT.split(lead.group(1))) if _ONE_SYMBOL.fullmatch(word)]
    return _SYMBOL.findall(prompt)


def _conditional_validity(check: Callable[[str], Any], text: str) -> tuple[str, bool | None]:
    found = _CONDITIONAL.match(text)
    if not found:
        return "", None
    formula = _formula(found.group(1), counts_of_one=True)
    return formula, _valid(check, formula)


@ICL_EVALUATORS.register_module()
class composition_Evaluator(BaseEvaluator):
    """Materials from a composition: SMACT validity, the prompt's elements used, novelty.

    ``data_path`` is the dataset's id; its
    ``conditional_generation/composition_material/test/data.json`` gives each
    reply's prompt (the ``i``-th item's ``input``; a reply carrying its own
    ``input`` uses that) and the known materials (every ``<material>`` of an
    ``output``).  A reply is read as ``uncond_material_Evaluator`` reads one, except
    that ``⟨sg⟩`` is not accepted, ``<sg>`` may be left out and every count is written
    (``Na1Cl1``).  Metrics: ``total_samples``, ``format_valid_count``,
    ``smact_valid_count``, ``smact_validity_ratio_in_format_valid_%``,
    ``smact_validity_ratio_in_all_%``, ``average_precision_%`` (the share of the
    prompt's elements among the reply's symbols, tags removed, summed over the replies whose
    prompt names elements and divided by all replies) and ``novel_material_ratio_%``
    (non-empty replies that are not a known material; the reply's own ``<material>``
    text when it has one — never after the configs' postprocessor —, else the reply).
    Details: ``formula``, ``smact_valid``, ``precision`` (``None`` without prompt
    elements), ``novel``.
    """

    dry_run_notes = staticmethod(_missing)

    def __init__(self, data_path: Any = None, tuning_data: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        items = _test_items(data_path, "conditional_generation/composition_material", type(self).__name__)
        self.prompts = [it.get("input", "") for it in items]
        self.known = {m for m in (material_postprocessor(it.get("output", "")) for it in items) if m}

    def score(self, predictions: list[Any]) -> dict[str, Any]:
        if not predictions:
            return no_samples(self)
        check = _smact()
        if check is None:
            return {"error": f"{type(self).__name__}: {SMACT_MISSING}"}
        format_valid = smact_valid = novel = 0
        precision_sum = 0.0
        details = []
        for i, item in enumerate(predictions):
            text, prompt = _reply(item, i, type(self).__name__)
            if not prompt and i < len(self.prompts):
                prompt = str(self.prompts[i]).strip()
            formula, verdict = _conditional_validity(check, text)
            if verdict is not None:
                format_valid += 1
                smact_valid += verdict
            wanted = set(prompt_elements(prompt))
            precision = None
            if wanted:
                precision = len(wanted & set(_SYMBOL.findall(_TAG.sub(" ", text)))) / len(wanted)
                precision_sum += precision
            material = material_postprocessor(text) or text.strip()
            is_novel = bool(material) and material not in self.known
            novel += is_novel
            details.append({"formula": formula, "smact_valid": verdict, "precision": precision, "novel": is_novel})
        total = len(predictions)
        return {
            "total_samples": total,
            "format_valid_count": format_valid,
            "smact_valid_count": smact_valid,
            "smact_validity_ratio_in_format_valid_%": _percent(smact_valid, format_valid),
            "smact_validity_ratio_in_all_%": _percent(smact_valid, total),
            "average_precision_%": _percent(precision_sum, total),
            "novel_material_ratio_%": _percent(novel, total),
            "details": details,
        }


@ICL_EVALUATORS.register_module()
class material_Evaluator(BaseEvaluator):
    """Materials with a bulk modulus: SMACT validity, the reference's elements used, exact match.

    ``data_path`` is the dataset's id; its ``bulk_modulus_material/test/data.json``'s
    ``i``-th item is the ``i``-th reply's reference (its ``<material>`` text and the
    symbols in it).  Replies are read as ``composition_Evaluator`` reads them.  Metrics:
    ``total_samples``, ``format_valid_count``, ``smact_valid_count``,
    ``smact_validity_ratio_in_format_valid_%``, ``smact_validity_ratio_in_all_%``,
    ``average_precision_%`` (the share of the reference's symbols among the reply's,
    over all replies) and ``exact_match_ratio_%``: the reply's own ``<material>`` text
    equal to the reference's — after the configs' ``material_postprocessor`` the reply
    holds no tag any more, so only a reference without one matches, as in OpenCompass.
    Details: ``formula``, ``smact_valid``, ``precision`` (``None`` without reference
    symbols), ``exact_match``.
    """

    dry_run_notes = staticmethod(_missing)

    def __init__(self, data_path: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        items = _test_items(data_path, "bulk_modulus_material", type(self).__name__)
        self.references = [material_postprocessor(it.get("output", "")) for it in items]

    def score(self, predictions: list[Any]) -> dict[str, Any]:
        if not predictions:
            return no_samples(self)
        check = _smact()
        if check is None:
            return {"error": f"{type(self).__name__}: {SMACT_MISSING}"}
        format_valid = smact_valid = exact = 0
        precision_sum = 0.0
        details = []
        for i, item in enumerate(predictions):
            text, _ = _reply(item, i, type(self).__name__)
            formula, verdict = _conditional_validity(check, text)
            if verdict is not None:
                format_valid += 1
                smact_valid += verdict
            precision = matched = None
            if i < len(self.references):
                wanted = set(_SYMBOL.findall(self.references[i]))
                if wanted:
                    precision = len(wanted & set(_SYMBOL.findall(text))) / len(wanted)
                    precision_sum += precision
                matched = material_postprocessor(text) == self.references[i]
                exact += matched
            details.append({"formula": formula, "smact_valid": verdict, "precision": precision, "exact_match": matched})
        total = len(predictions)
        return {
            "total_samples": total,
            "format_valid_count": format_valid,
            "smact_valid_count": smact_valid,
            "smact_validity_ratio_in_format_valid_%": _percent(smact_valid, format_valid),
            "smact_validity_ratio_in_all_%": _percent(smact_valid, total),
            "average_precision_%": _percent(precision_sum, total),
            "exact_match_ratio_%": _percent(exact, total),
            "details": details,
        }
