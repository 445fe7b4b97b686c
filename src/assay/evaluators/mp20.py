"""MP-20's crystal structure evaluator, as OpenCompass 0.5.4 computes it (``MP20Evaluator``).

A reply is read as a structure (lattice parameters and fractional atomic
coordinates, in JSON), built with the reference's species, and matched against
the reference structure with pymatgen's ``StructureMatcher`` (``stol=0.5``,
``ltol=0.3``, ``angle_tol=10``).  The matcher runs in a worker process, ten
seconds at most a reply (a reply past that counts as not matched, the worker
replaced), as OpenCompass runs it: the worker's start and its import of
pymatgen come before a reply's ten seconds begin (:data:`STARTUP_TIMEOUT`), as
OpenCompass's worker, forked from a process that imported pymatgen, has them
before its first reply.  pymatgen comes with assay's optional extra ``chem``;
it is imported when scoring.
"""

from __future__ import annotations

import ast
import json
import multiprocessing
import re
from collections.abc import Mapping
from typing import Any

from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import check_batch
from assay.registry import ICL_EVALUATORS

__all__ = ["MP20Evaluator", "read_structure"]

LTOL = 0.3
STOL = 0.5
ANGLE_TOL = 10
#: Seconds the matcher may take for one reply.
TIMEOUT = 10
#: Seconds the matcher's worker may take to start and import pymatgen, before the first reply's :data:`TIMEOUT`.
STARTUP_TIMEOUT = 600
PYMATGEN_MISSING = "pymatgen is not installed (pip install pymatgen, or pip install 'assay[chem]')"

_TAGS = ("<lattice>", "</lattice>", "<sites>", "</sites>", "<material>", "</material>", "</think>")
_MATERIAL = re.compile(r"<material>(.*?)</material>", re.DOTALL)
_AFTER_OUTPUT = re.compile(r"output:\n(.*?)\n </think>", re.DOTALL)
_FENCED = re.compile(r"```json(.*?)```", re.DOTALL)
_OPENING = re.compile(r"\{|\[")
_BRACES = re.compile(r"\{.*\}", re.DOTALL)


def _last_large_json(text: str, min_length: int) -> str | None:
    """The last JSON value of at least ``min_length`` characters among those decoded left to right from each ``{``/``[``."""
    decoder = json.JSONDecoder()
    found = None
    parsed_end = 0
    for m in _OPENING.finditer(text):
        start = m.start()
        if start < parsed_end:
            continue
        try:
            _, offset = decoder.raw_decode(text[start:])
        except json.JSONDecodeError:
            continue
        if offset >= min_length:
            found = text[start:start + offset]
        parsed_end = start + offset
    return found


def _lenient_object(text: str) -> Any:
    for tag in _TAGS:
        text = text.replace(tag, "")
    start = text.find("{")
    if start == -1:
        raise ValueError("no '{'")
    clean = text[start:].strip()
    try:
        return json.JSONDecoder().raw_decode(clean)[0]
    except json.JSONDecodeError:
        pass
    braces = _BRACES.search(clean)
    if not braces:
        raise ValueError("no braces")
    try:
        return ast.literal_eval(braces.group(0))
    except Exception:  # not a Python literal either: tried as JSON with Python's words below
        pass
    fixed = braces.group(0).replace("'", '"')
    fixed = re.sub(r"\bTrue\b", "true", fixed)
    fixed = re.sub(r"\bFalse\b", "false", fixed)
    fixed = re.sub(r"\bNone\b", "null", fixed)
    return json.JSONDecoder().raw_decode(fixed)[0]


def _lattice_matrix(a: float, b: float, c: float, alpha: float, beta: float, gamma: float) -> list[list[Any]]:
    import numpy as np

    alpha_r, beta_r, gamma_r = np.radians(alpha), np.radians(beta), np.radians(gamma)
    val = (np.cos(alpha_r) - np.cos(beta_r) * np.cos(gamma_r)) / np.sin(gamma_r)
    z_sq = max(0.0, 1 - np.cos(beta_r) ** 2 - val ** 2)
    return [[a, 0, 0], [b * np.cos(gamma_r), b * np.sin(gamma_r), 0], [c * np.cos(beta_r), c * val, c * np.sqrt(z_sq)]]


def read_structure(reply: str) -> tuple[list[list[Any]], list[list[float]]]:
    """The lattice matrix and fractional coordinates a reply gives, as OpenCompass reads them; ``ValueError`` otherwise.

    The text inside a ```` ```json ```` fence, else after ``output:`` up to ``\\n </think>``,
    else inside ``<material>…</material>``, else the last JSON value of 50 characters or more;
    read as JSON (tags removed, from the first ``{``), else as a Python literal, else as JSON
    after swapping quotes and Python's words.  ``lattice_parameters`` ``a``, ``b``, ``c``
    (0 when missing), ``alpha``, ``beta``, ``gamma`` (90 when missing) and each of
    ``atomic_sites``' ``coordinate``.

    >>> lattice, coords = read_structure('{"lattice_parameters": {"a": 2, "b": 2, "c": 2}, '
    ...                                  '"atomic_sites": [{"coordinate": [0, 0, 0.5]}]}')
    >>> [float(x) for x in lattice[0]], coords
    ([2.0, 0.0, 0.0], [[0.0, 0.0, 0.5]])
    """
    try:
        fenced, after, tagged = _FENCED.search(reply), _AFTER_OUTPUT.search(reply), _MATERIAL.search(reply)
        if fenced or after or tagged:
            text = (fenced or after or tagged).group(1)  # type: ignore[union-attr]
        else:
            found = _last_large_json(reply, 50)
            if found is None:
                raise ValueError("no JSON")
            text = found
        data = _lenient_object(text)
        if not isinstance(data, dict):
            raise ValueError("not an object")
        lat = data.get("lattice_parameters", {})
        lattice = _lattice_matrix(float(lat.get("a", 0)), float(lat.get("b", 0)), float(lat.get("c", 0)),
                                  float(lat.get("alpha", 90)), float(lat.get("beta", 90)), float(lat.get("gamma", 90)))
        coords = [[float(x) for x in site["coordinate"]] for site in data.get("atomic_sites", [])]
    except ValueError:
        raise
    except Exception as exc:  # any malformed part of the reply: OpenCompass counts the reply as unread
        raise ValueError(str(exc)) from exc
    return lattice, coords


def _warm() -> None:
    """Import what the matcher uses (run in the worker as it starts)."""
    import pymatgen.analysis.structure_matcher
    import pymatgen.core.structure  # noqa: F401


def _rms_distance(pred_lattice: Any, pred_coords: Any, gt_lattice: Any, species: Any, gt_coords: Any) -> float | None:
    """pymatgen's RMS distance of the two structures, ``None`` when they do not match (run in the worker)."""
    from pymatgen.analysis.structure_matcher import StructureMatcher
    from pymatgen.core.lattice import Lattice
    from pymatgen.core.structure import Structure

    matcher = StructureMatcher(stol=STOL, angle_tol=ANGLE_TOL, ltol=LTOL)
    found = matcher.get_rms_dist(Structure(Lattice(pred_lattice), species, pred_coords),
                                 Structure(Lattice(gt_lattice), species, gt_coords))
    return None if found is None else float(found[0])


class _Matcher:
    """One worker process for the matcher, replaced when a reply takes longer than :data:`TIMEOUT`; each
    started, pymatgen imported, before a reply's time begins."""

    def __init__(self) -> None:
        self._pool: Any = None

    def distance(self, *args: Any) -> float | None:
        if self._pool is None:
            self._pool = multiprocessing.get_context("spawn").Pool(1)
            try:
                self._pool.apply_async(_warm).get(timeout=STARTUP_TIMEOUT)
            except multiprocessing.TimeoutError:  # a worker that cannot start: the reply is not matched
                self.close()
                return None
            except Exception:  # pymatgen unusable there: the reply's own call fails the same way
                pass
        pending = self._pool.apply_async(_rms_distance, args)
        try:
            return pending.get(timeout=TIMEOUT)
        except multiprocessing.TimeoutError:
            self.close()
            return None
        except Exception:  # the matcher failed on this pair: not matched, as in OpenCompass
            return None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


def _reference(gt: Any) -> tuple[Any, list[Any], list[Any]]:
    if not isinstance(gt, Mapping) or "lattice" not in gt or not isinstance(gt.get("sites"), list):
        raise ValueError("needs 'lattice' and a list of 'sites'")
    sites = gt["sites"]
    if not all(isinstance(s, Mapping) and "element" in s and "fractional_coordinates" in s for s in sites):
        raise ValueError("each site needs 'element' and 'fractional_coordinates'")
    return gt["lattice"], [s["element"] for s in sites], [s["fractional_coordinates"] for s in sites]


@ICL_EVALUATORS.register_module()
class MP20Evaluator(BaseEvaluator):
    """MP-20: the share of replies whose structure matches the reference's (see the module).

    A reply that cannot be read (:func:`read_structure`), whose structure
    pymatgen cannot build with the reference's species (a different number of
    sites, say), or that the matcher does not match within ten seconds counts as
    not matched.  Metrics: ``match_rate`` (percent, rounded to 4 decimals),
    ``mean_rms_dist`` (the mean RMS distance of the matched ones, rounded to 4
    decimals; ``None`` when none matched), ``matched``, ``total``.  Details
    (assay's addition; OpenCompass writes none): ``rms_dist`` (``None`` when not
    matched) and ``matched``.  A reference without ``lattice`` and ``sites`` is an
    error record naming the sample (OpenCompass stops with a ``KeyError``).
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """What a dry run says about this machine: pymatgen when it is missing."""
        import importlib.util

        return [PYMATGEN_MISSING] if importlib.util.find_spec("pymatgen") is None else []

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        try:
            from pymatgen.core.lattice import Lattice
            from pymatgen.core.structure import Structure
        except ImportError:
            return {"error": f"{name}: {PYMATGEN_MISSING}"}
        refs = []
        for i, gt in enumerate(references):
            try:
                refs.append(_reference(gt))
            except ValueError as exc:
                return {"error": f"{name}: reference {i} {exc}, got {gt!r:.80}"}
        matcher = _Matcher()
        distances: list[float | None] = []
        try:
            for reply, (gt_lattice, species, gt_coords) in zip(predictions, refs):
                try:
                    pred_lattice, pred_coords = read_structure(reply)
                    Structure(Lattice(pred_lattice), species, pred_coords)
                    Structure(Lattice(gt_lattice), species, gt_coords)
                except Exception:  # unread or unbuildable: not matched, as in OpenCompass
                    distances.append(None)
                    continue
                distances.append(matcher.distance(pred_lattice, pred_coords, gt_lattice, species, gt_coords))
        finally:
            matcher.close()
        matched = [d for d in distances if d is not None]
        total = len(distances)
        return {
            "match_rate": round(len(matched) / total * 100, 4),
            "mean_rms_dist": round(_numpy_mean(matched), 4) if matched else None,
            "matched": len(matched),
            "total": total,
            "details": [{"rms_dist": d, "matched": d is not None} for d in distances],
        }


def _numpy_mean(values: list[float]) -> float:
    import numpy as np

    return float(np.mean(values))
