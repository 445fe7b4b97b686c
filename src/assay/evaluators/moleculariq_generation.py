"""MolecularIQ's generation evaluator (``MoleculariqGenerationEvaluator``), as OpenCompass 0.5.4 computes it.

A reply's answer is read as for the count and index questions (:func:`~assay.evaluators.moleculariq.read_answer`);
its SMILES is then taken from it (:func:`reply_smiles`), and the molecule scores 1 when RDKit reads it and it
meets every constraint of the reference (:func:`constraint_reward`), each property computed by MolecularIQ's
solver (:mod:`assay.evaluators.moleculariq_solver`; functional groups, reactions, BRICS and Murcko by
:mod:`assay.evaluators.moleculariq_groups`).

MolecularIQ's rules are kept, quirks included:

* a constraint's property is its ``type`` (else its ``property``), read through MolecularIQ's table of names;
  a property the solver does not know is skipped, and a molecule meeting only skipped constraints scores 0;
* a property whose value is a list (atom indices) fails its constraint, as do a constraint with no
  ``operator`` value, an unknown operator, and a longest carbon chain over more than 60 carbons (or a cage whose
  search runs past its budget, below);
* ``>=``, ``>``, ``<=`` and ``<`` read ``min_value`` (``max_value``) when the constraint has that key, even
  when its value is ``None``, and ``value`` only without the key; since a file's constraints become one
  table, every constraint of a file has every key, so a file mixing ``min_value`` and ``value`` bounds fails
  the ``value`` ones;
* the constraints are checked in order and the first one failed ends the check (later ones are not read);
* with no constraints at all, a reply scores 1 when its answer *as read* is a SMILES RDKit reads: an answer
  ``{"smiles": "CCO"}`` scores 0 and is not counted valid, a bare ``CCO`` scores 1;
* formulas compare by element counts (as texts when a count has more digits than Python reads) only when the
  constraint names its property in ``type``; under ``property`` they compare as texts.

Where OpenCompass stops with an exception — a bound that is text (``"2"``), a ``range`` bound that is
``None``, a number too large for a float, a reference that is JSON text of a number, an answer's SMILES that
is JSON text holding a number of more digits than Python reads or nested deeper than it reads — assay stops
with an :class:`~assay.errors.EvaluationError` naming the sample and the constraint.

Where OpenCompass never ends, assay does not follow: the longest carbon chain of a cage of 60 carbons or
fewer (C60 fullerene) is searched for a bounded number of steps
(:data:`~assay.evaluators.moleculariq_solver.CHAIN_SEARCH_STEPS`), past which its constraint fails.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any, cast

from assay.errors import EvaluationError
from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch
from assay.evaluators.moleculariq import _formula_counts, property_key, read_answer
from assay.evaluators.moleculariq_solver import PROPERTIES, _mol
from assay.registry import ICL_EVALUATORS

__all__ = ["MoleculariqGenerationEvaluator", "constraint_reward", "reply_smiles"]

_STRING_PROPERTIES = frozenset({"molecular_formula", "molecular_formula_count", "molecular_formula_value",
                                "murcko_scaffold_value"})
_FORMULAS = ("molecular_formula", "molecular_formula_count", "molecular_formula_value")
_FG = "functional_group_"
_REACTION = "template_based_reaction_prediction_"
_GROUP_COUNTS = {"brics_decomposition_count": "brics_fragment_count", "brics_decomposition_index": "brics_bond_indices",
                 "murcko_scaffold_count": "murcko_scaffold_count", "murcko_scaffold_index": "murcko_scaffold_indices"}


class _Unsupported:
    """A constraint MolecularIQ's solver does not know: skipped."""


_SKIP = _Unsupported()


def _groups() -> Any:
    """The module computing functional groups, reactions, BRICS and Murcko scaffolds."""
    try:
        from assay.evaluators import moleculariq_groups
    except ImportError as exc:
        raise EvaluationError("MolecularIQ's functional-group, reaction, BRICS and Murcko constraints need "
                              f"assay.evaluators.moleculariq_groups, which cannot be imported here ({exc})") from None
    return moleculariq_groups


def reply_smiles(answer: Any) -> str:
    """The SMILES of an answer: a mapping's ``smiles`` value (any case), else its one value, else the mapping;
    a list's one item (``""`` for an empty list); text stripped, read again when it is a JSON object, its
    ``smiles:`` prefix dropped; anything else as ``str`` (``None`` as ``""``).  Text that is a JSON object holding
    a number of more digits than Python reads raises ``ValueError``, one nested deeper than it reads
    ``RecursionError``, as in OpenCompass.

    >>> reply_smiles({'SMILES': ' CCO '}), reply_smiles({'molecule': ['c1ccccc1']}), reply_smiles('smiles: C=O')
    ('CCO', 'c1ccccc1', 'C=O')
    """
    current = answer
    if isinstance(current, dict):
        named = [k for k in current if isinstance(k, str) and k.lower() == "smiles"]
        if named:
            current = current[named[0]]
        elif len(current) == 1:
            current = next(iter(current.values()))
    if isinstance(current, list):
        current = "" if not current else current[0] if len(current) == 1 else current
    if isinstance(current, str):
        text = current.strip()
        if text.startswith("{") and text.endswith("}"):
            try:
                return reply_smiles(json.loads(text))
            except json.JSONDecodeError:  # not JSON; a number too long (ValueError) goes up, as in OpenCompass
                pass
        if text.lower().startswith("smiles:"):
            return text.split(":", 1)[1].strip()
        return text
    return "" if current is None else str(current)


def _readable(smiles: Any) -> bool:
    """Whether ``smiles`` is non-empty text RDKit reads and sanitizes."""
    if not smiles or not isinstance(smiles, str):
        return False
    from rdkit import Chem

    try:
        mol = _mol(smiles)
        if mol is None:
            return False
        Chem.SanitizeMol(mol)
    except Exception:  # RDKit's own failures: not a valid molecule
        return False
    return True


@lru_cache(maxsize=128)
def _group_data(smiles: str) -> dict[str, Any]:
    """:func:`~assay.evaluators.moleculariq_groups.functional_group_data` of ``smiles``, kept for the molecule's
    other constraints (as OpenCompass keeps it); only read, never changed."""
    return cast(dict[str, Any], _groups().functional_group_data(smiles))


@lru_cache(maxsize=128)
def _reaction_data(smiles: str) -> dict[str, Any]:
    """:func:`~assay.evaluators.moleculariq_groups.reaction_data` of ``smiles``, kept likewise."""
    return cast(dict[str, Any], _groups().reaction_data(smiles))


def _group_count(smiles: str, group: str) -> float:
    data = _group_data(smiles)
    for key in (f"functional_group_{group}_nbrInstances", f"functional_group_{group}_count"):
        if key in data:
            return float(data[key])
    return 0.0


def _reaction_count(smiles: str, template: str) -> float:
    data = _reaction_data(smiles)
    entry = data.get(template)
    if isinstance(entry, dict):
        return float(entry.get("count", 0))
    if template in data and isinstance(entry, int | float):
        return float(int(entry))
    if not template.startswith(_REACTION):
        for key in (f"{_REACTION}{template}_count", f"{_REACTION}{template}_success"):
            if key in data:
                return float(data[key])
    return 0.0


def _lookup(key: str) -> tuple[str, str] | None:
    """How MolecularIQ's solver computes property ``key``: ``("core", key)``, ``("group", name)``,
    ``("reaction", template)``, ``("brics_murcko", function)``, or ``None`` when it does not know it."""
    if key in PROPERTIES:
        return ("core", key)
    if key in _GROUP_COUNTS:
        return ("brics_murcko", _GROUP_COUNTS[key])
    if key.startswith("oxidation_state_"):
        parts = key.split("_")
        if len(parts) >= 4:
            rebuilt = "_".join(["oxidation_state", parts[2].upper(), parts[3], *parts[4:5]])
            if rebuilt in PROPERTIES:
                return ("core", rebuilt)
    if key.startswith(_FG):
        parts = key.split("_")
        if len(parts) >= 3:
            return ("group", "_".join(parts[2:-1]))
    if key.startswith(_REACTION):
        template = key[len(_REACTION):]
        for suffix in ("_count", "_index", "_success", "_products"):
            if template.endswith(suffix):
                template = template[: -len(suffix)]
                break
        return ("reaction", template)
    if key.startswith("reaction_"):
        template = key[len("reaction_"):]
        return ("reaction", template[:-6] if template.endswith("_count") else template)
    return None


def _value(smiles: str, constraint: dict[str, Any]) -> Any:
    """The property value a constraint checks: ``("string", actual, expected)``, ``("numeric", value)``,
    ``None`` when MolecularIQ's solver fails on it (the constraint then fails), or :data:`_SKIP`."""
    raw = constraint.get("type", constraint.get("property", ""))
    if not raw:
        return _SKIP
    key = property_key(str(raw)).strip()
    if not key:
        return _SKIP
    if key in _STRING_PROPERTIES:
        expected = constraint.get("value")
        if expected is None:
            return None
        actual = (_groups().murcko_scaffold_value(smiles) if key == "murcko_scaffold_value"
                  else PROPERTIES[key](smiles))
        return ("string", actual, expected)
    how = _lookup(key)
    if how is None:
        return _SKIP
    kind, name = how
    if kind == "group" and name:
        return ("numeric", _group_count(smiles, name))
    if kind == "reaction" and name:
        if "_success" in key:
            success = name if name.startswith(_REACTION) else f"{_REACTION}{name}_success"
            return ("numeric", float(_reaction_data(smiles).get(success, 0)))
        return ("numeric", _reaction_count(smiles, name))
    if kind in ("group", "reaction"):  # no group or template named: MolecularIQ's call fails
        return None
    compute = PROPERTIES[name] if kind == "core" else getattr(_groups(), name)
    try:
        result = compute(smiles)
    except Exception:  # MolecularIQ counts any failure of the solver as a failed constraint
        return None
    if isinstance(result, list):  # atom indices are no number: MolecularIQ's conversion fails
        return None
    return ("numeric", float(result))


def _meets(actual: float, constraint: dict[str, Any]) -> bool:
    operator = constraint.get("operator", "=")
    if operator == "=":
        target = constraint.get("value")
        return target is not None and abs(actual - target) < 1e-6
    if operator in (">=", ">"):
        low = constraint.get("min_value", constraint.get("value"))
        return low is not None and (actual >= low if operator == ">=" else actual > low)
    if operator in ("<=", "<"):
        high = constraint.get("max_value", constraint.get("value"))
        return high is not None and (actual <= high if operator == "<=" else actual < high)
    if operator in ("range", "-"):
        return bool(constraint.get("min_value", -math.inf) <= actual <= constraint.get("max_value", math.inf))
    return False


def _same_formula(actual: str, expected: Any) -> bool:
    try:
        mine = _formula_counts(actual) if isinstance(actual, str) and actual else {}
        theirs = _formula_counts(expected) if isinstance(expected, str) and expected else {}
    except ValueError:  # a count of more digits than int() reads: MolecularIQ compares the texts then
        return bool(actual == expected)
    return mine == theirs


def _satisfied(smiles: str, constraint: dict[str, Any], result: Any) -> bool:
    if result is None:
        return False
    if result[0] == "string":
        _, actual, expected = result
        if property_key(str(constraint.get("type", ""))) in _FORMULAS:
            return _same_formula(actual, expected)
        return bool(actual == expected)
    return _meets(result[1], constraint)


def constraint_reward(answer: Any, constraints: Any) -> tuple[float, bool]:
    """``(reward, valid)`` of an answer against a reference's constraints (a list, or JSON text of one): reward 1
    when the answer's SMILES is a molecule meeting every constraint MolecularIQ's solver knows (and it knows
    one), ``valid`` when RDKit reads that SMILES.  Raises ``TypeError``, ``OverflowError``, ``ValueError`` or
    ``RecursionError`` where OpenCompass does.

    >>> constraint_reward({'smiles': 'c1ccccc1O'}, [{'type': 'ring count', 'operator': '=', 'value': 1}])
    (1.0, True)
    >>> constraint_reward('C1CC', [{'type': 'ring_count', 'operator': '=', 'value': 1}])
    (0.0, False)
    """
    if isinstance(constraints, str):
        try:
            constraints = json.loads(constraints)
        except ValueError:
            return 0.0, False
    if not constraints:
        valid = _readable(answer)
        return (1.0 if valid else 0.0), valid
    smiles = reply_smiles(answer)
    if not _readable(smiles):
        if not hasattr(constraints, "__len__"):  # a number is no list of constraints: OpenCompass fails on it here
            raise TypeError(f"the constraints are a {type(constraints).__name__}, not a list")
        return 0.0, False
    supported = 0
    for constraint in constraints:
        if not isinstance(constraint, dict):
            continue
        result = _value(smiles, constraint)
        if result is _SKIP:
            continue
        supported += 1
        if not _satisfied(smiles, constraint, result):
            return 0.0, True
    return (1.0 if supported else 0.0), True


@ICL_EVALUATORS.register_module()
class MoleculariqGenerationEvaluator(BaseEvaluator):
    """MolecularIQ's constraint-generation questions (:func:`constraint_reward`): ``score`` = percent of replies
    meeting every constraint, ``valid`` = percent whose SMILES RDKit reads.  Details: ``pred`` (the answer read,
    ``None`` without one), ``constraints``, ``score``, ``correct`` and, for a reply with an answer,
    ``valid_smiles``.  ``pred_postprocessor`` is applied to the replies first, as in OpenCompass.

    >>> MoleculariqGenerationEvaluator().score(['<answer>"smiles": "C1CCCCC1"</answer>', 'no answer'],
    ...     [[{'type': 'ring_count', 'operator': '=', 'value': 1}]] * 2)['score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        scores: list[float] = []
        valid = 0
        details = []
        for i, (reply, ref) in enumerate(zip(predictions, references)):
            answer = read_answer(reply)
            if answer is None:
                scores.append(0.0)
                details.append({"pred": None, "constraints": ref, "score": 0, "correct": 0})
                continue
            try:
                reward, readable = constraint_reward(answer, ref)
            except (TypeError, OverflowError, ValueError, RecursionError) as exc:  # OpenCompass stops with the same one
                raise EvaluationError(
                    f"{type(self).__name__}: sample {i}'s constraints {ref!r:.200} cannot be checked against the reply "
                    f"{str(reply)!r:.80} ({type(exc).__name__}: {exc!s:.100}); OpenCompass 0.5.4 stops on it too") from None
            scores.append(reward)
            valid += readable
            details.append({"pred": answer, "constraints": ref, "score": reward, "correct": int(reward == 1.0),
                            "valid_smiles": readable})
        return {"score": sum(scores) / len(scores) * 100, "valid": valid / len(scores) * 100, "details": details}
