"""SciReasoner's answer readers, as OpenCompass 0.5.4 computes them."""

from __future__ import annotations

import json
import re
from typing import Any

from assay.postprocess.chain import deterministic
from assay.registry import TEXT_POSTPROCESSORS

__all__ = ["GUE_postprocessor", "LLM4CHEM_TAGS", "LLM4Chem_postprocess", "LLM4Mat_postprocessor", "MOL_INSTRUCTIONS_SMILES_TASKS",
           "Mol_Instructions_postprocess_Mol", "Mol_Instructions_postprocess_Protein",
           "Mol_Instructions_postprocess_Protein_Design", "PEER_postprocess", "PEER_postprocess_default",
           "PEER_postprocess_float_compare", "Retrosynthesis_postprocess", "material_postprocessor", "opi_postprocess"]

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)
_VERDICT = re.compile(r"\bThe prediction result is\s+(positive|negative)\b", re.IGNORECASE)
#: Words read as a negative answer, looked for first.
_NEGATIVE = ("negative", "no", "absence", "not", "cannot", "fails", "absent", "lacks")
#: Words and phrases read as a positive answer, looked for after the negative ones.
_POSITIVE = (
    "positive", "positively", "presence", "detected", "identified", "identifiable", "found", "yes", "located",
    "detectable", "observable", "evident", "absolutely", "affirmative", "can", "affirm", "confirm", "confirms",
    "reveals", "existence", "certainly", "consistent", "recognizable", "shows core", "shows promoter",
    "shows characteristic", "evidenced by", "seeing characteristic patterns", "includes", "contains sequences",
    "exhibits clear", "contains transcription", "exhibits sequences", "clearly contains", "recognized",
    "exhibits features", "contains regulatory", "shows clear", "displays", "definitely has", "exhibits patterns",
    "clear evidence", "contains a", "yep", "contains sites", "shows sequences",
)
_NEGATIVE_RE = tuple(re.compile(rf"\b{w}\b", re.IGNORECASE) for w in _NEGATIVE)
_POSITIVE_RE = tuple(re.compile(rf"\b{w}\b", re.IGNORECASE) for w in _POSITIVE)


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def GUE_postprocessor(text: Any) -> str:
    """GUE's (genome classification) reader: ``'positive'``, ``'negative'`` or ``''``.

    The stripped text loses its ``<think>…</think>`` blocks (a text with
    ``<think>`` and no ``</think>`` becomes ``''``); then ``The prediction
    result is positive/negative`` decides, else any whole-word negative
    (``no``, ``not``, ``cannot``, ``absence``, …), else any positive word
    or phrase (``yes``, ``found``, ``can``, ``contains a``, …).  A text
    that is not a string gives ``''``.

    >>> GUE_postprocessor('The prediction result is Positive.'), GUE_postprocessor('No promoter is found')
    ('positive', 'negative')
    """
    if not isinstance(text, str):
        return ""
    text = text.strip()
    if "<think>" in text:
        text = _THINK.sub("", text) if "</think>" in text else ""
    if text == "":
        return ""
    verdict = _VERDICT.search(text)
    if verdict:
        return verdict.group(1).lower()
    if any(p.search(text) for p in _NEGATIVE_RE):
        return "negative"
    if any(p.search(text) for p in _POSITIVE_RE):
        return "positive"
    return ""


#: LLM4Mat's properties whose answers are options, not numbers (True/False read from true/yes, false/no).
LLM4MAT_OPTIONS: dict[str, tuple[Any, ...]] = {
    "Direct_or_indirect": ("Indirect", "Direct"),
    "Direct_or_indirect_HSE": ("Indirect", "Direct"),
    "SOC": (True, False),
    "is_gap_direct": (True, False),
    "is_stable": (True, False),
}
_WORDS = {"true": {"true", "yes"}, "false": {"false", "no"}}
# OpenCompass's pattern is ^```(?:json)?\s*|\s*```$; here a closing fence with whitespace before it is matched
# from the start of that whitespace only, or from the fence itself when an earlier match took the whitespace
# (the same matches: a later start inside the whitespace cannot succeed where its start failed), so that long
# runs of whitespace are read in linear time
_FENCES = re.compile(r"^```(?:json)?\s*|(?<!\s)\s*```$|(?<=\s)```$", re.IGNORECASE | re.MULTILINE)


def _option(value: Any, options: tuple[Any, ...]) -> Any:
    for option in options:
        if isinstance(option, bool):
            if str(value).lower() in _WORDS[str(option).lower()]:
                return str(option)
        elif str(value).lower() == str(option).lower():
            return option
    return ""


def _llm4mat_value(text: str, prop: str) -> Any:
    clean = _FENCES.sub("", text.strip())
    try:
        data = json.loads(clean)
        if prop in data:
            raw = data[prop]
            if isinstance(raw, (int, float)):  # true/false too, as numbers: OpenCompass reads JSON true as 1.0
                return float(raw)
            if prop in LLM4MAT_OPTIONS:
                return _option(raw, LLM4MAT_OPTIONS[prop])
            return str(raw)
    except Exception:  # not JSON, or not an object holding the property: read it with the pattern below
        pass
    pattern = rf"\{{[^{{}}]*[\"\']?{re.escape(prop)}[\"\']?\s*:\s*[\"\']?(.*?)[\"\']?\s*\}}"
    match = re.search(pattern, clean, flags=re.DOTALL | re.IGNORECASE)
    if not match:
        return ""
    raw_value = match.group(1).strip().strip('"')
    if prop in LLM4MAT_OPTIONS:
        return _option(raw_value, LLM4MAT_OPTIONS[prop])
    try:
        return float(raw_value)
    except ValueError:
        return ""


@TEXT_POSTPROCESSORS.register_module()
def LLM4Mat_postprocessor(text: Any, property: str) -> Any:
    """LLM4Mat's reader of the value of ``property``: a float, an option (``'True'``/``'False'``,
    ``'Direct'``/``'Indirect'``), a text, or ``''``.

    The stripped text loses its ``<think>…</think>`` blocks (``''`` when one is
    not closed) and its code fences; a JSON object holding the property gives
    its value (a number, JSON ``true`` included, as a float; an option
    property's value read as an option, ``''`` when it is none; any other as
    text); otherwise the first ``{… property: value}`` gives the value, read
    as an option, else as a float, else ``''``.

    >>> LLM4Mat_postprocessor('{band_gap : 1.25}', property='band_gap')
    1.25
    >>> LLM4Mat_postprocessor('```json\\n{"is_stable": "yes"}\\n```', property='is_stable')
    'True'
    """
    if not isinstance(text, str):
        return ""
    text = text.strip()
    if "<think>" in text:
        text = _THINK.sub("", text) if "</think>" in text else ""
    if text == "":
        return ""
    return _llm4mat_value(text, property)


_MATERIAL = re.compile(r"<material>(.*?)</material>", re.DOTALL | re.IGNORECASE)


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def material_postprocessor(text: Any) -> str:
    """SciReasoner's materials reader: the stripped text inside the first ``<material>…</material>`` (any case), else ``''``.

    An empty or missing reply gives ``''``; any other value is read as its ``str``.

    >>> material_postprocessor('Here: <MATERIAL> Na Cl <sg> <sg225> </material>')
    'Na Cl <sg> <sg225>'
    >>> material_postprocessor('Na Cl <sg225>')
    ''
    """
    if not text:
        return ""
    found = _MATERIAL.search(text if isinstance(text, str) else str(text))
    return found.group(1).strip() if found else ""


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def opi_postprocess(text: Any, task: Any = None, *args: Any, **kwargs: Any) -> str:
    """OPI's (protein instructions) reader: the stripped text without ``<|endoftext|>`` and ``<|im_end|>``.

    The text is stripped first and the two tokens removed after, so white space
    before a removed token stays, as in OpenCompass.  ``task`` is accepted and not
    read.  ``None`` gives ``''``; any other value is read as its ``str``.

    >>> opi_postprocess('  2.7.11.1; 2.7.10.2 <|im_end|>', task='EC')
    '2.7.11.1; 2.7.10.2 '
    """
    if text is None:
        return ""
    text = (text if isinstance(text, str) else str(text)).strip()
    return text.replace("<|endoftext|>", "").replace("<|im_end|>", "")


#: LLM4Chem's tasks (SciReasoner's ``smol``) and the tags around their answers; ``molecule_captioning`` has none.
LLM4CHEM_TAGS: dict[str, tuple[str | None, str | None]] = {
    "forward_synthesis": ("<SMILES>", "</SMILES>"),
    "retrosynthesis": ("<SMILES>", "</SMILES>"),
    "molecule_generation": ("<SMILES>", "</SMILES>"),
    "molecule_captioning": (None, None),
    "name_conversion-i2f": ("<MOLFORMULA>", "</MOLFORMULA>"),
    "name_conversion-i2s": ("<SMILES>", "</SMILES>"),
    "name_conversion-s2f": ("<MOLFORMULA>", "</MOLFORMULA>"),
    "name_conversion-s2i": ("<IUPAC>", "</IUPAC>"),
    "property_prediction-esol": ("<NUMBER>", "</NUMBER>"),
    "property_prediction-lipo": ("<NUMBER>", "</NUMBER>"),
    "property_prediction-bbbp": ("<BOOLEAN>", "</BOOLEAN>"),
    "property_prediction-clintox": ("<BOOLEAN>", "</BOOLEAN>"),
    "property_prediction-hiv": ("<BOOLEAN>", "</BOOLEAN>"),
    "property_prediction-sider": ("<BOOLEAN>", "</BOOLEAN>"),
}
#: The tasks whose SMILES answers have their ``;`` read as ``.`` (parts of one answer).
_SEMICOLON_TASKS = ("forward_synthesis", "retrosynthesis", "molecule_generation", "name_conversion-i2s")
_YES_NO = re.compile(r"\b(?:yes|true|no|false)\b", re.IGNORECASE)
_SMILES_SPAN = re.compile(r"<SMILES>.*?</SMILES>", re.DOTALL)
_LAST_NUMBER = re.compile(r"-?\d*\.\d+|-?\d+")
_FORMULA_LIKE = re.compile(
    r"[\[\(]?[A-Z][a-z]?\d*(?:\([A-Za-z0-9]+\)\d*)?[\]\)]?"
    r"(?:[A-Z][a-z]?\d*|\([^\)]+\)\d*|\[[^\]]+\]\d*)"
    r"*(?:[+-]{1,2})?(?:·\d*[A-Z][a-z]?\d*)*"
)


def _between_tags(text: str, left: str | None, right: str | None) -> str:
    if left is None and right is None:
        return text.replace("<unk>", "").replace("</s>", "").strip()
    assert left is not None and right is not None
    start = text.find(left)
    end = text.find(right)
    if start == -1 or end == -1:
        return ""
    return text[start + len(left):end].strip()


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def LLM4Chem_postprocess(text: Any, task: str, *args: Any, **kwargs: Any) -> str:
    """LLM4Chem's reader (SciReasoner's ``smol``), on replies and references alike.

    ``<think>…</think>`` is removed; the answer is the stripped text from the
    first opening tag of ``task`` to the first closing one (``''`` when either is
    missing — or when the closing tag comes first, the slice being empty then);
    ``molecule_captioning`` takes the whole text without ``<unk>`` and ``</s>``.
    For the four SMILES-answer tasks every ``;`` becomes ``.``.  An empty answer
    is read again from the whole text for three kinds of task: ``<BOOLEAN>`` —
    the last ``yes``/``true``/``no``/``false`` word (any case) as ``'Yes'`` or
    ``'No'``; ``<NUMBER>`` — the last number outside ``<SMILES>…</SMILES>``;
    ``<MOLFORMULA>`` — the last run that looks like a formula (an English word
    with a capital reads as one, as in OpenCompass).  ``None`` reads as ``''``.

    Raises:
        KeyError: ``task`` is not one of LLM4Chem's (:data:`LLM4CHEM_TAGS`), as in OpenCompass.

    >>> LLM4Chem_postprocess('<think>hmm</think> It is <SMILES> CC;O </SMILES>', task='forward_synthesis')
    'CC.O'
    >>> LLM4Chem_postprocess('I think yes, not false... so TRUE', task='property_prediction-bbbp')
    'Yes'
    """
    left, right = LLM4CHEM_TAGS[task]
    text = _THINK.sub("", "" if text is None else text if isinstance(text, str) else str(text))
    pred = _between_tags(text, left, right)
    if task in _SEMICOLON_TASKS:
        pred = pred.replace(";", ".")
    if pred:
        return pred
    if left == "<BOOLEAN>":
        words = _YES_NO.findall(text)
        return ("Yes" if words[-1].lower() in ("yes", "true") else "No") if words else ""
    if left == "<NUMBER>":
        numbers = _LAST_NUMBER.findall(_SMILES_SPAN.sub("", text))
        return numbers[-1] if numbers else ""
    if left == "<MOLFORMULA>":
        formulas = _FORMULA_LIKE.findall(text)
        return formulas[-1] if formulas else ""
    return pred


_SMILES_TAG = re.compile(r"<SMILES>(.*?)</SMILES>", re.DOTALL)


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def Retrosynthesis_postprocess(text: Any) -> str:
    """USPTO-50K's retrosynthesis reader: the stripped text of the last ``<SMILES>…</SMILES>`` outside
    ``<think>…</think>``, else ``''`` (also for a value that is not text).

    >>> Retrosynthesis_postprocess('<SMILES>C</SMILES> or rather <SMILES> CC(=O)O.N </SMILES>')
    'CC(=O)O.N'
    """
    if not isinstance(text, str):
        return ""
    found = _SMILES_TAG.findall(_THINK.sub("", text))
    return found[-1].strip() if found else ""


#: Mol-Instructions' molecule tasks whose answers are SMILES.
MOL_INSTRUCTIONS_SMILES_TASKS = ("description_guided_molecule_design", "forward_reaction_prediction", "retrosynthesis",
                                 "reagent_prediction")
_ENDOFTEXT = re.compile(r"<\|endoftext\|>")
_IM_END = re.compile(r"<\|im_end\|>")
_DIGIT_GAPS = re.compile(r"(?<=\d) +(?=\d)|(?<=\.) +(?=\d)")
_LEADING_SPACE = re.compile(r"\s*")
_FIRST_NUMBER = re.compile(r"[-+]?\d*\.\d+|\d+")
_FIRST_SMILES = re.compile(r"<SMILES>(.*?)</SMILES>")


def _without_end_tokens(text: str) -> str:
    """Every ``<|endoftext|>`` removed, then every ``<|im_end|>``: two passes, in OpenCompass's order, so that
    ``<|im_<|endoftext|>end|>`` loses both."""
    return _IM_END.sub("", _ENDOFTEXT.sub("", text))


def _without_thoughts(text: str) -> str:
    """The text without end tokens and thoughts: what OpenCompass's ``re.sub(r'.*?</think>\\s*', '', …)`` leaves
    after ``<think>…</think>`` is removed — the text after the last ``</think>`` and the white space after it —,
    found in one pass (the expression scans the rest of the text from every position, quadratic on long replies)."""
    text = _THINK.sub("", _without_end_tokens(text.strip()))
    end = text.rfind("</think>")
    if end == -1:
        return text
    rest = text[end + len("</think>"):]
    return rest[_LEADING_SPACE.match(rest).end():]  # type: ignore[union-attr]


def _rdkit_canonical(smiles: str) -> str | None:
    try:
        from rdkit import Chem, RDLogger
    except ImportError:
        raise ImportError("RDKit is not installed (pip install rdkit, or pip install 'assay[chem]'); "
                          "Mol_Instructions_postprocess_Mol reads SMILES with it") from None
    log: Any = RDLogger
    log.DisableLog("rdApp.*")
    try:
        mol = Chem.MolFromSmiles(smiles)
        return None if mol is None else str(Chem.MolToSmiles(mol, isomericSmiles=False, canonical=True))
    finally:
        log.EnableLog("rdApp.*")


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def Mol_Instructions_postprocess_Mol(text: Any, task: str, *args: Any, **kwargs: Any) -> Any:
    """Mol-Instructions' molecule reader (SciReasoner), on replies and references alike.

    The text is stripped, ``<|endoftext|>`` and ``<|im_end|>`` removed, then every
    ``<think>…</think>`` and everything up to the first remaining ``</think>``.
    ``property_prediction_str``: spaces between digits (and after a ``.`` before a
    digit) are removed and the first number is the answer — a text, or the integer
    ``0`` when there is none, as in OpenCompass; the SMILES tasks
    (:data:`MOL_INSTRUCTIONS_SMILES_TASKS`): the first ``<SMILES>…</SMILES>`` on one
    line, stripped and written by RDKit as canonical SMILES without stereochemistry —
    ``None`` when there is no tag or RDKit cannot read it; ``molecular_description_generation``:
    the text so cleaned.  Any other task gives the text unchanged.  ``None`` reads as
    ``''`` and another value as its ``str`` (OpenCompass fails on them).

    >>> Mol_Instructions_postprocess_Mol('<think>x</think> The value is - 0. 25 or 3', task='property_prediction_str')
    '0.25'
    """
    text = "" if text is None else text if isinstance(text, str) else str(text)
    if task == "property_prediction_str":
        found = _FIRST_NUMBER.search(_DIGIT_GAPS.sub("", _without_thoughts(text)))
        return found.group(0) if found else 0
    if task in MOL_INSTRUCTIONS_SMILES_TASKS:
        found = _FIRST_SMILES.search(_without_thoughts(text))
        return _rdkit_canonical(found.group(1).strip()) if found else None
    if task == "molecular_description_generation":
        return _without_thoughts(text)
    return text


_PROTEIN = re.compile(r"<protein>(.*?)</protein>")
_AMINO_ACIDS = frozenset("ACDEFGHIKLMNPQRSTVWY")


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def Mol_Instructions_postprocess_Protein(text: Any, *args: Any, **kwargs: Any) -> str:
    """Mol-Instructions' protein text reader (SciReasoner), on replies and references alike: the text
    stripped, without ``<|endoftext|>``, ``<|im_end|>``, ``<think>…</think>`` blocks and everything up to
    the last remaining ``</think>``, stripped again.  ``None`` reads as ``''`` and another value as its
    ``str`` (OpenCompass fails on them).

    >>> Mol_Instructions_postprocess_Protein(' <think>plan</think> A kinase.<|im_end|> ')
    'A kinase.'
    """
    text = "" if text is None else text if isinstance(text, str) else str(text)
    return _without_thoughts(text).strip()


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def Mol_Instructions_postprocess_Protein_Design(text: Any, *args: Any, **kwargs: Any) -> str:
    """Mol-Instructions' designed-protein reader (SciReasoner): the first ``<protein>…</protein>`` on one
    line, after ``<think>…</think>`` blocks and everything up to the last remaining ``</think>`` are
    removed, keeping only the 20 amino acids' upper-case letters; ``''`` without the tag.  End tokens are
    not removed (their letters are lower case).  ``None`` reads as ``''``.

    >>> Mol_Instructions_postprocess_Protein_Design('<think>x</think>Here: <protein>MK v-LA</protein>')
    'MKLA'
    """
    text = "" if text is None else text if isinstance(text, str) else str(text)
    text = _THINK.sub("", text.strip())
    end = text.rfind("</think>")
    if end != -1:
        rest = text[end + len("</think>"):]
        text = rest[_LEADING_SPACE.match(rest).end():]  # type: ignore[union-attr]
    found = _PROTEIN.search(text)
    return "".join(c for c in found.group(1) if c in _AMINO_ACIDS) if found else ""


_PEER_ANSWER = re.compile(r"The answer is\s+(Yes|No)", re.IGNORECASE)
#: PEER's expressions of a yes, looked for (anywhere, any case) before those of a no.
_PEER_YES = ("will be soluble", "will dissolve", "is soluble", "can be predicted", "positive", "Yes", "correct", "valid",
             "accurate", "certainly", "indeed", "affirmative", "highly soluble", "easily soluble", "dissolves easily",
             "is assured", "be soluble")
#: PEER's expressions of a no.
_PEER_NO = ("will not be soluble", "is not soluble", "will not dissolve", "low solubility", "low", "cannot be predicted",
            "negative", "No", "incorrect", "invalid", "inaccurate", "impossible", "not possible", "denied", "be insoluble")
_PEER_YES_RE = tuple(re.compile(p, re.IGNORECASE) for p in _PEER_YES)
_PEER_NO_RE = tuple(re.compile(p, re.IGNORECASE) for p in _PEER_NO)


def _after_thoughts(text: str) -> str:
    """``<think>…</think>`` blocks removed, then everything up to the last remaining ``</think>`` and the white
    space after it (no stripping, no end tokens removed)."""
    text = _THINK.sub("", text)
    end = text.rfind("</think>")
    if end == -1:
        return text
    rest = text[end + len("</think>"):]
    return rest[_LEADING_SPACE.match(rest).end():]  # type: ignore[union-attr]


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def PEER_postprocess(text: Any) -> str:
    """PEER's yes/no reader (SciReasoner): ``'Yes'``, ``'No'``, the word after ``The answer is`` as written, or ``''``.

    After ``<think>…</think>`` blocks and everything up to the last remaining ``</think>`` are removed:
    ``The answer is Yes|No`` (any case) gives its word; else any of PEER's expressions of a yes found
    anywhere, in any case, as a part of a word too (``is soluble``, ``positive``, ``yes``, ``correct``,
    ``indeed``, ``be soluble``, …) gives ``'Yes'`` — so "It will not be soluble" is a yes, as in
    OpenCompass —; else any expression of a no (``is not soluble``, ``low``, ``negative``, ``no``
    — "cannot" holds it —, ``impossible``, …) gives ``'No'``.  A text that is not a string gives ``''``.

    >>> PEER_postprocess('The answer is yes.'), PEER_postprocess('It will not be soluble.'), PEER_postprocess('I cannot tell')
    ('yes', 'Yes', 'No')
    """
    if not isinstance(text, str):
        return ""
    text = _after_thoughts(text)
    found = _PEER_ANSWER.search(text)
    if found:
        return found.group(1)
    if any(p.search(text) for p in _PEER_YES_RE):
        return "Yes"
    if any(p.search(text) for p in _PEER_NO_RE):
        return "No"
    return ""


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def PEER_postprocess_default(text: Any) -> str:
    """PEER's reply cleaner (SciReasoner), which keeps the text for the judge: stripped, without
    ``<|endoftext|>``, ``<|im_end|>`` and ``<think>…</think>`` blocks (not stripped again).  ``None`` reads
    as ``''`` and another value as its ``str`` (OpenCompass fails on them).

    >>> PEER_postprocess_default(' <think>x</think> Yes<|im_end|>')
    ' Yes'
    """
    text = "" if text is None else text if isinstance(text, str) else str(text)
    return _THINK.sub("", _without_end_tokens(text.strip()))


@TEXT_POSTPROCESSORS.register_module()
@deterministic
def PEER_postprocess_float_compare(text: Any, compare_number: float) -> str:
    """PEER's number reader (SciReasoner's stability task): ``'Yes'`` when the first number of the text (after
    ``<think>`` blocks and everything up to the last remaining ``</think>``; digits with at most one ``.``
    and a sign — ``1e3`` reads as 1) is above ``compare_number``, ``'No'`` when it is not, ``''`` without a
    number or for a text that is not a string.

    >>> PEER_postprocess_float_compare('The score is 1.25', 1), PEER_postprocess_float_compare('+1.0', 1)
    ('Yes', 'No')
    """
    if not isinstance(text, str):
        return ""
    found = _FIRST_NUMBER.search(_after_thoughts(text))
    if not found:
        return ""
    return "Yes" if float(found.group(0)) > compare_number else "No"
