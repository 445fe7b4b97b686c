"""MolecularIQ's count and index evaluators, as OpenCompass 0.5.4 computes them.

Each reply's answer is the text of its first ``<answer>…</answer>`` (any
case), read by :func:`read_answer`.  A reply scores 1 only when every property
the reference asks for is answered right; property names are read through
MolecularIQ's table of names (``moleculariq_keys.json`` beside this module:
natural-language phrases and aliases of each property's key, recorded from
OpenCompass's copy of the MolecularIQ package).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from assay.errors import EvaluationError
from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch
from assay.registry import ICL_EVALUATORS

__all__ = ["MoleculariqCountEvaluator", "MoleculariqIndexEvaluator", "read_answer"]

_ANSWER = re.compile(r"<answer>(.*?)</answer>", re.DOTALL | re.IGNORECASE)
_TOLERANCE = 1e-6
_NO_INDICES = ("none", "empty", "[]", "()", "{}", "")


def read_answer(reply: Any) -> Any:
    """The first ``<answer>…</answer>``'s content: a JSON value when it starts with ``{`` and parses, else the
    content in braces as a JSON object, else (when it ends with ``}``) with that brace dropped, else the stripped
    text; ``None`` without the tags or with nothing in them.

    >>> read_answer('<answer>"ring count": 2</answer>'), read_answer('<ANSWER> CCO </ANSWER>'), read_answer('CCO')
    ({'ring count': 2}, 'CCO', None)
    >>> read_answer('<answer>"smiles": "CCO"}</answer>')
    {'smiles': 'CCO'}
    """
    if not isinstance(reply, str):
        return None
    found = _ANSWER.search(reply)
    if not found:
        return None
    content = found.group(1).strip()
    if not content:
        return None
    candidates = [content] if content.startswith("{") else []
    candidates.append("{" + content + "}")
    if not content.startswith("{") and content.endswith("}"):
        candidates.append("{" + content[:-1] + "}")
    for text in candidates:
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            continue
    return content


# -- property names ------------------------------------------------------------------------------------------------

@cache
def _tables() -> tuple[dict[str, str], dict[str, str]]:
    data = json.loads(Path(__file__).with_name("moleculariq_keys.json").read_text(encoding="utf-8"))
    return data["phrases"], data["aliases"]


def property_key(name: str) -> str:
    """The key MolecularIQ stores a property under, from a phrase or alias of it (any case and spacing); the name
    itself, stripped, when the tables do not know it.

    >>> property_key('Number of  Rings'), property_key('ring_count'), property_key(' mystery ')
    ('ring_count', 'ring_count', 'mystery')
    """
    phrases, aliases = _tables()
    collapsed = " ".join(name.lower().split())
    key = phrases.get(collapsed, name) if collapsed else name
    stripped = key.strip()
    if stripped in aliases:
        return aliases[stripped]
    return aliases.get(stripped.lower(), stripped)


# -- counts --------------------------------------------------------------------------------------------------------

def _json_without_repeated_keys(text: str) -> tuple[Any, bool]:
    """The JSON value of ``text`` and whether any key repeats (across all its objects); ``(None, False)`` when it
    does not parse, ``(None, True)`` when a key repeats."""
    seen: set[str] = set()
    repeated = False

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal repeated
        for key, _ in items:
            repeated = repeated or key in seen
            seen.add(key)
        return dict(items)

    try:
        value = json.loads(text, object_pairs_hook=pairs)
    except json.JSONDecodeError:
        return None, False
    return (None, True) if repeated else (value, False)


def _as_record(data: Any) -> tuple[dict[Any, Any] | None, bool]:
    """A record read from a dict, a JSON object or ``key: value`` parts (split at ``;``, ``,`` and new lines), and
    whether a key repeated (the record then ``None``)."""
    if isinstance(data, dict):
        return dict(data), False
    if not isinstance(data, str):
        return None, False
    text = data.strip()
    if not text:
        return {}, False
    parsed, repeated = _json_without_repeated_keys(text)
    if repeated:
        return None, True
    if isinstance(parsed, dict):
        return parsed, False
    record: dict[Any, Any] = {}
    for part in re.split(r"[;,\n]", text):
        if ":" not in part:
            continue
        key, value = (s.strip() for s in part.split(":", 1))
        if key:
            if key in record:
                return None, True
            record[key] = value
    return (record, False) if record else (None, False)


def _count_keys(record: dict[Any, Any]) -> dict[str, Any] | None:
    """The record under MolecularIQ's keys; ``None`` when two different names read as one key."""
    out: dict[str, Any] = {}
    named: dict[str, Any] = {}
    for name, value in record.items():
        key = property_key(str(name)).strip()
        if key in named and named[key] != name:
            return None
        named[key] = name
        out[key] = value
    return out


def _number(value: Any) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str) and value.strip():
        try:
            return float(value.strip())
        except ValueError:
            return None
    return None


def _formula_counts(formula: str) -> dict[str, int]:
    """Element counts of a formula (subscript digits read, spaces, hyphens and ``·`` dropped); a letter pair is read
    as one element in any case (``CH4`` reads as ``Ch``: 4), as MolecularIQ reads it."""
    text = formula.translate(str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789"))
    text = text.replace(" ", "").replace("-", "").replace("·", "")
    counts: dict[str, int] = {}
    for symbol, digits in re.findall(r"([A-Z][a-z]?|[a-z]+)(\d*)", text, re.IGNORECASE):
        symbol = symbol.upper() if len(symbol) == 1 else symbol[0].upper() + symbol[1:].lower()
        counts[symbol] = counts.get(symbol, 0) + (int(digits) if digits else 1)
    return counts


def _count_matches(target: Any, predicted: Any, key: str) -> bool:
    if "molecular_formula" in key:
        target_text, predicted_text = str(target).strip(), str(predicted).strip()
        try:
            return _formula_counts(target_text) == _formula_counts(predicted_text)
        except ValueError:  # a count of more digits than int() reads: MolecularIQ compares the texts then
            return target_text == predicted_text
    t, p = _number(target), _number(predicted)
    if t is not None and p is not None:
        return abs(t - p) <= _TOLERANCE
    return str(target).strip() == str(predicted).strip()


def _single_count(predicted: Any, key: str) -> tuple[Any, bool]:
    """The value a reply gives for the one property asked, and whether its keys repeated."""
    if isinstance(predicted, int | float) and not isinstance(predicted, bool):
        return predicted, False
    record: dict[Any, Any] | None = None
    if isinstance(predicted, str):
        if "molecular_formula" in key:
            record, repeated = _as_record(predicted)
            if repeated:
                return None, True
            if record is None:
                return predicted, False
        else:
            number = _number(predicted)
            if number is not None:
                return number, False
            record, repeated = _as_record(predicted)
            if repeated:
                return None, True
    elif isinstance(predicted, dict):
        record = dict(predicted)
    if record is None:
        return None, False
    keyed = _count_keys(record)
    if keyed is None:
        return None, True
    if key in keyed:
        return keyed[key], False
    return (next(iter(keyed.values())), False) if len(keyed) == 1 else (None, False)


def count_reward(predicted: Any, target: Any) -> float:
    """1.0 when the reply gives every count of ``target`` (a record, or its JSON or ``key: value`` text) within 1e-6
    (molecular formulas compared by element counts, other values as text), else 0.0; a reply repeating a key
    scores 0.  With one property asked the reply may be the bare number.

    >>> count_reward({'number of rings': 2, 'halogen_count': '1'}, {'ring_count': 2, 'halogen_count': 1})
    1.0
    >>> count_reward('3', {'ring_count': 3}), count_reward({'rings': 3, 'ring count': 3}, {'ring_count': 3})
    (1.0, 0.0)
    """
    record, _ = _as_record(target)
    if record is None:
        return 0.0
    wanted = _count_keys(record)
    if not wanted:
        return 0.0
    if len(wanted) == 1:
        ((key, value),) = wanted.items()
        given, repeated = _single_count(predicted, key)
        return 1.0 if not repeated and given is not None and _count_matches(value, given, key) else 0.0
    if isinstance(predicted, dict):
        raw: dict[Any, Any] | None = dict(predicted)
    elif isinstance(predicted, str):
        raw, repeated = _as_record(predicted)
        if repeated:
            return 0.0
    else:
        raw = None
    if raw is None:
        return 0.0
    given_all = _count_keys(raw)
    if not given_all:
        return 0.0
    right = all(given_all.get(k) is not None and _count_matches(v, given_all[k], k) for k, v in wanted.items())
    return 1.0 if right else 0.0


# -- atom indices --------------------------------------------------------------------------------------------------

def parse_indices(text: str) -> list[int] | None:
    """Atom indices written as ``0, 2, 3`` (in ``[]``, ``()`` or ``{}`` or none), sorted without repeats; ``[]`` for
    ``none``/``empty``; ``None`` for anything else, a negative index included.

    >>> parse_indices('[3, 0, 3]'), parse_indices('none'), parse_indices('1, -2'), parse_indices('1.5')
    ([0, 3], [], None, None)
    """
    if not text or text.lower() in _NO_INDICES:
        return []
    text = text.strip()
    if not text or text.lower() in _NO_INDICES:
        return []
    text = re.sub(r"^\[|\]$|^\(|\)$|^\{|\}$", "", text.strip())
    parts = [p.strip() for p in text.split(",") if p.strip()]
    try:
        indices = [int(p) for p in parts]
    except (ValueError, TypeError):
        return None
    if any(i < 0 for i in indices):
        return None
    return sorted(set(indices))


def _clean(indices: list[Any]) -> set[int]:
    return {int(i) for i in indices if isinstance(i, int | float) and i >= 0}


def _index_keys(record: dict[Any, Any]) -> dict[str, list[int]] | None:
    """The record's index lists under MolecularIQ's keys (text lists parsed, other values dropped); ``None`` when
    two different names read as one key."""
    out: dict[str, list[int]] = {}
    named: dict[str, Any] = {}
    for name, indices in record.items():
        key = property_key(name.lower())
        if key in named and named[key] != name:
            return None
        named[key] = name
        if isinstance(indices, str):
            parsed = parse_indices(indices)
            if parsed is not None:
                out[key] = parsed
        elif isinstance(indices, list):
            out[key] = sorted(_clean(indices))
    return out


def _semicolon_record(text: str) -> dict[str, list[int]]:
    record: dict[str, list[int]] = {}
    for part in text.split(";"):
        if ":" in part:
            name, indices = part.strip().split(":", 1)
            parsed = parse_indices(indices)
            if parsed is not None:
                record[name.strip()] = parsed
    return record


def _single_indices(predicted: Any) -> Any:
    if isinstance(predicted, list):
        return predicted
    if isinstance(predicted, dict):
        return next(iter(predicted.values())) if len(predicted) == 1 else None
    if not isinstance(predicted, str):
        return None
    predicted = predicted.strip()
    parsed = parse_indices(predicted)
    if parsed is not None:
        return parsed
    try:
        data = json.loads(predicted)
    except (json.JSONDecodeError, ValueError):
        return parse_indices(predicted.split(":", 1)[1]) if ":" in predicted else None
    if isinstance(data, list):
        return data
    if isinstance(data, dict) and len(data) == 1:
        return next(iter(data.values()))
    return None


def index_reward(predicted: Any, target: Any) -> float:
    """1.0 when the reply gives exactly the atom indices of every property of ``target`` (a record, or its JSON or
    ``name: i, j; …`` text), else 0.0; a reply naming a key twice scores 0.  With one property asked the reply may
    be the bare list (or text of it).

    >>> index_reward({'ring atoms': [2, 1, 0]}, {'ring_index': [0, 1, 2]}), index_reward('0, 1', {'ring_index': [0, 1]})
    (1.0, 1.0)
    >>> index_reward({'ring_index': [0], 'halogen_index': []}, {'ring_index': [0], 'halogen_index': [5]})
    0.0
    """
    if isinstance(target, str):
        try:
            target = json.loads(target)
        except (json.JSONDecodeError, ValueError):
            target = _semicolon_record(target)
    if not isinstance(target, dict):
        return 0.0
    wanted = _index_keys(target)
    if wanted is None:
        return 0.0
    if len(wanted) == 1:
        ((_, gold),) = wanted.items()
        given = _single_indices(predicted)
        if isinstance(given, str):
            given = parse_indices(given)
        if not isinstance(given, list):
            return 0.0
        return 1.0 if _clean(given) == set(gold) else 0.0
    record: Any = None
    if isinstance(predicted, dict):
        record = predicted
    elif isinstance(predicted, str):
        try:
            record = json.loads(predicted)
        except (json.JSONDecodeError, ValueError):
            record = _semicolon_record(predicted)
        else:
            if not isinstance(record, dict):
                return 0.0
    if not record:
        return 0.0
    given_all = _index_keys(record)
    if given_all is None or not wanted:
        return 0.0
    right = all(k in given_all and set(given_all[k]) == set(v) for k, v in wanted.items())
    return 1.0 if right else 0.0


class _MoleculariqEvaluator(BaseEvaluator):
    """Scores each reply's :func:`read_answer` with :meth:`reward`: ``score`` = 100 × the mean reward, ``valid`` =
    the percentage of replies with an answer.  Details: ``pred`` (the answer read, ``None`` without one),
    ``answer``, ``score`` and ``correct`` (1 when the reward is 1).

    ``pred_postprocessor`` is applied to the replies before they are read, as in
    OpenCompass.  A reply OpenCompass cannot score either (an index that is not
    finite, ``[1e400]``, ``[Infinity]``; a number of more than 4,300 digits) is
    an :class:`~assay.errors.EvaluationError` naming the sample and the reply."""

    sample_outcome = SampleOutcome(correct="correct")

    def __init__(self, pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)

    @staticmethod
    def reward(predicted: Any, target: Any) -> float:
        raise NotImplementedError

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        scores: list[float] = []
        valid = 0
        details = []
        for i, (reply, ref) in enumerate(zip(predictions, references)):
            try:
                answer = read_answer(reply)
                reward = None if answer is None else self.reward(answer, ref)
            except (ValueError, OverflowError) as exc:  # OpenCompass stops with the same exception
                raise EvaluationError(f"{type(self).__name__}: sample {i}'s reply {str(reply)!r:.120} cannot be scored "
                                      f"({type(exc).__name__}: {exc!s:.100}); OpenCompass 0.5.4 stops on it too") from None
            if answer is None or reward is None:
                scores.append(0.0)
                details.append({"pred": None, "answer": ref, "score": 0, "correct": 0})
                continue
            valid += 1
            scores.append(reward)
            details.append({"pred": answer, "answer": ref, "score": reward, "correct": int(reward == 1.0)})
        return {"score": sum(scores) / len(scores) * 100, "valid": valid / len(scores) * 100, "details": details}


@ICL_EVALUATORS.register_module()
class MoleculariqCountEvaluator(_MoleculariqEvaluator):
    """MolecularIQ's count questions (:func:`count_reward`): ``score`` and ``valid`` in percent.

    >>> MoleculariqCountEvaluator().score(['<answer>"ring count": 2</answer>', 'two'], [{'ring_count': 2}] * 2)['score']
    50.0
    """

    @staticmethod
    def reward(predicted: Any, target: Any) -> float:
        return count_reward(predicted, target)


@ICL_EVALUATORS.register_module()
class MoleculariqIndexEvaluator(_MoleculariqEvaluator):
    """MolecularIQ's atom-index questions (:func:`index_reward`): ``score`` and ``valid`` in percent.

    >>> MoleculariqIndexEvaluator().score(['<answer>{"ring atoms": [0, 1, 2]}</answer>'], [{'ring_index': [2, 1, 0]}])['score']
    100.0
    """

    @staticmethod
    def reward(predicted: Any, target: Any) -> float:
        return index_reward(predicted, target)
