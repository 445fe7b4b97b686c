"""The audit record: what a result file holds of its extraction audit (R-9.2).

A result whose postprocessor chain has a corrected counterpart carries,
beside its official metrics and before its ``details``::

    "extraction_audit": {
      "corrections": [{"at": "eval_cfg.pred_postprocessor", "official": "gsm8k_postprocess",
                       "corrected": "gsm8k_extract"}],
      "replies": 1319,          # replies compared (samples × runs)
      "differ": 3,              # replies the two chains read differently
      "samples": [4, 17, 200],  # indices of the samples with such a reply (as in details)
      "readings": [{"official": ["234"], "corrected": ["1234"], "correct": [true]}, ...],
      "metrics": {"accuracy": 81.2}}   # every metric as it would be with the correction

or, when the audit failed, ``{"corrections": [...], "error": "..."}``.
:class:`AuditRecord` is that record; every reader of a result, a summary
``.json`` or a shard takes it through :func:`record_of` /
:meth:`AuditRecord.from_json`, and the writers put it with :func:`attach`,
so that no other module knows its keys.  :meth:`AuditRecord.to_json` gives
back the same JSON, key for key and in the same order.

A result scoring another tool's logged replies with a named ``extraction``
holds, in the same form, the comparison of the tool's own answers (as
``corrected``) with the chain's (as ``official``) under
``_meta.rescored.extraction_audit`` — apart from the top-level record, which
is checked against the declared postprocessor pairs.  :class:`ToolAudit` is
that record with the tool and its extraction named; :func:`tool_record_of`
reads it from a result.
"""

from __future__ import annotations

import itertools
import logging
import marshal
import operator
from collections.abc import Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass, field
from typing import TYPE_CHECKING, Any

from assay._dataclass import FACTORY, FrozenMethods

logger = logging.getLogger(__name__)

__all__ = [
    "AUDIT_KEY",
    "AuditRecord",
    "Reading",
    "ToolAudit",
    "attach",
    "detach",
    "has_record",
    "read_record",
    "read_records",
    "read_tool_record",
    "read_tool_records",
    "record_of",
    "records_json",
    "tool_record_of",
    "tool_records_json",
]

#: The result-file key of the audit record (and of its input in ``_meta.inputs``).
AUDIT_KEY = "extraction_audit"


def _verdict_value(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    raise ValueError(f"{where}: a verdict must be true, false, a number or null, got {value!r}")


@dataclass(init=False, repr=False, eq=False)
class Reading(FrozenMethods):
    """One listed sample: each run's final answer by both chains and, when known, the corrected verdicts.

    Attributes:
        official: per run, the official chain's final answer (texts cut, as written).
        corrected: per run, the corrected chain's final answer.
        correct: per run, the corrected answer's correctness by the statistics'
            verdict rule (:func:`assay.stats.sample_correctness`: 1.0, 0.0, a
            share of candidates, ``None`` for a run without one); ``None``
            when the evaluator gives no per-sample verdict.
    """

    official: list[Any]
    corrected: list[Any]
    correct: list[float | None] | None = None

    def __init__(self, official: list[Any], corrected: list[Any], correct: list[float | None] | None = None) -> None:
        # written out (one per listed sample, read and written by the thousand): the fields set at once
        self.__dict__.update(official=official, corrected=corrected, correct=correct)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"official": self.official, "corrected": self.corrected}
        if self.correct is not None:  # a whole verdict as true/false, a share of candidates (or null) as itself
            out["correct"] = [v == 1.0 if v == 0.0 or v == 1.0 else v for v in self.correct]
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "reading") -> Reading:
        if not isinstance(data, Mapping):
            raise ValueError(f"{where}: expected an object, got {type(data).__name__}")
        official, corrected, correct = data.get("official"), data.get("corrected"), data.get("correct")
        if not isinstance(official, list) or not isinstance(corrected, list):
            name, value = ("official", official) if not isinstance(official, list) else ("corrected", corrected)
            raise ValueError(f"{where}.{name}: expected a list of answers, got {value!r:.80}")
        if correct is not None and not isinstance(correct, list):
            raise ValueError(f"{where}.correct: expected a list of verdicts, got {correct!r:.80}")
        verdicts = None if correct is None else [_verdict_value(v, f"{where}.correct") for v in correct]
        return cls(list(official), list(corrected), verdicts)


@dataclass(init=False, repr=False, eq=False)
class AuditRecord(FrozenMethods):
    """A result's extraction audit (see the module docs).

    Attributes:
        corrections: each substitution made (``at``, ``official``, ``corrected``, ``options``), plain data.
        replies: replies compared (samples × runs).
        differ: replies the two chains read differently.
        samples: the sorted indices of the samples with such a reply.
        readings: one :class:`Reading` per listed sample.
        metrics: every metric as it would be with the correction.
        error: why the audit failed (then the counts are not known).
    """

    corrections: list[Any]
    replies: int = 0
    differ: int = 0
    samples: list[int] = field(default_factory=list)
    readings: list[Reading] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)
    error: str | None = None

    def __init__(
        self,
        corrections: list[Any],
        replies: int = 0,
        differ: int = 0,
        samples: list[int] = FACTORY,
        readings: list[Reading] = FACTORY,
        metrics: dict[str, Any] = FACTORY,
        error: str | None = None,
    ) -> None:
        self.corrections = corrections
        self.replies = replies
        self.differ = differ
        self.samples = [] if samples is FACTORY else samples
        if readings is not _LATER:  # else read from their JSON when first asked for (see from_json)
            self.readings = [] if readings is FACTORY else readings
        self.metrics = {} if metrics is FACTORY else metrics
        self.error = error

    if not TYPE_CHECKING:  # (a type checker keeps checking the attributes' names)

        def __getattr__(self, name: str) -> Any:
            # only a record read by from_json lacks its readings until they are asked for: built then, from their JSON
            snapshot = self.__dict__.get("_plain_readings") if name == "readings" else None
            if snapshot is None:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            readings = [Reading(r["official"], r["corrected"], _verdicts_of(r)) for r in marshal.loads(snapshot)]
            object.__setattr__(self, "readings", readings)
            return readings

    def __setattr__(self, name: str, value: Any) -> None:
        if "_plain_readings" in self.__dict__:  # read by from_json: every field is set, the readings as their JSON
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super().__setattr__(name, value)

    @classmethod
    def failed(cls, corrections: Sequence[Any], error: str) -> AuditRecord:
        """The record of an audit that failed: the substitutions and why."""
        return cls(list(corrections), error=error)

    @property
    def ok(self) -> bool:
        """The audit ran: its counts, readings and would-be metrics are known."""
        return self.error is None

    def would_be(self, metric: str) -> float | None:
        """``metric`` as it would be with the correction (``None``: not known)."""
        value = self.metrics.get(metric)
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None

    def to_json(self) -> dict[str, Any]:
        """The record as the result file holds it.

        >>> AuditRecord([], 2, 1, [0], [Reading(['a'], ['b'], [1.0])], {'accuracy': 50.0}).to_json()['readings']
        [{'official': ['a'], 'corrected': ['b'], 'correct': [True]}]
        >>> AuditRecord.failed([], 'ValueError: boom').to_json()
        {'corrections': [], 'error': 'ValueError: boom'}
        """
        if self.error is not None:
            return {"corrections": self.corrections, "error": self.error}
        return {
            "corrections": self.corrections,
            "replies": self.replies,
            "differ": self.differ,
            "samples": self.samples,
            "readings": self._readings_json(),
            "metrics": self.metrics,
        }

    def plain_readings(self) -> list[dict[str, Any]] | None:
        """The readings' JSON, while the record was read by :meth:`from_json` and its readings are not built yet
        (a fresh copy: each with the lists ``official`` and ``corrected`` and, when there are verdicts, ``correct``
        of true or false — what :meth:`Reading.to_json` writes); else ``None`` (read :attr:`readings`).  A reader
        of every reading's answers and verdicts takes them so without building a :class:`Reading` of each."""
        if "readings" not in self.__dict__ and "_plain_readings" in self.__dict__:
            plain: list[dict[str, Any]] = marshal.loads(self.__dict__["_plain_readings"])
            return plain
        return None

    def _readings_json(self) -> list[Any]:
        """The readings as :meth:`Reading.to_json` writes them: a fresh copy of the JSON they were read from,
        while they are not built (it is that, key for key: see :func:`_all_plain`)."""
        if "readings" not in self.__dict__ and "_plain_readings" in self.__dict__:
            return marshal.loads(self.__dict__["_plain_readings"])
        return [r.to_json() for r in self.readings]

    @classmethod
    def from_json(cls, data: Any) -> AuditRecord:
        """The record of its JSON form.

        Readings as :meth:`Reading.to_json` writes them are checked and kept as a snapshot of their JSON (the
        record shares nothing with ``data``), built into :class:`Reading` objects when ``readings`` is first
        asked for; until then :meth:`to_json` gives a fresh copy of that JSON.

        Raises:
            ValueError: ``data`` is not an audit record (the message names the field at fault).

        >>> AuditRecord.from_json({'corrections': [], 'replies': 2, 'differ': 0, 'samples': [], 'readings': [],
        ...                        'metrics': {'accuracy': 50.0}}).would_be('accuracy')
        50.0
        >>> AuditRecord.from_json({'corrections': [], 'replies': 2})
        Traceback (most recent call last):
        ...
        ValueError: extraction_audit.differ: expected a count, got None
        """
        where = AUDIT_KEY
        if not isinstance(data, Mapping):
            raise ValueError(f"{where}: expected an object, got {type(data).__name__}")
        corrections = data.get("corrections", [])
        if not isinstance(corrections, list):
            raise ValueError(f"{where}.corrections: expected a list, got {corrections!r:.80}")
        if "error" in data:
            return cls.failed(corrections, str(data["error"]))
        counts = []
        for name in ("replies", "differ"):
            value = data.get(name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{where}.{name}: expected a count, got {value!r:.80}")
            counts.append(value)
        samples = data.get("samples")
        if not isinstance(samples, list) or not all(isinstance(j, int) and not isinstance(j, bool) for j in samples):
            raise ValueError(f"{where}.samples: expected a list of sample indices, got {samples!r:.80}")
        readings = data.get("readings")
        if not isinstance(readings, list):
            raise ValueError(f"{where}.readings: expected a list, got {readings!r:.80}")
        metrics = data.get("metrics")
        if not isinstance(metrics, Mapping):
            raise ValueError(f"{where}.metrics: expected an object, got {metrics!r:.80}")
        if _all_plain(readings):
            # the usual readings: checked, and built only when asked for (a summary reads thousands and
            # writes them again as they are).  Kept as marshal's bytes: a copy of the JSON, taken without
            # making thousands of objects; an answer that is not plain data is read at once
            try:
                snapshot = marshal.dumps(readings)
            except ValueError:
                pass
            else:
                record = cls(corrections, counts[0], counts[1], list(samples), _LATER, dict(metrics))
                object.__setattr__(record, "_plain_readings", snapshot)
                return record
        return cls(corrections, counts[0], counts[1], list(samples), _readings(readings, where), dict(metrics))


def _readings(readings: list[Any], where: str) -> list[Reading]:
    """:meth:`Reading.from_json` of each; the usual reading (lists of answers, verdicts true or false) taken as it is."""
    out: list[Reading] = []
    append = out.append
    for i, r in enumerate(readings):
        if type(r) is dict:
            official, corrected, correct = r.get("official"), r.get("corrected"), r.get("correct")
            if type(official) is list and type(corrected) is list:
                if correct is None:
                    append(Reading(list(official), list(corrected), None))
                    continue
                if type(correct) is list and set(map(type, correct)) == _BOOL:
                    append(Reading(list(official), list(corrected), [1.0 if v else 0.0 for v in correct]))
                    continue
        append(Reading.from_json(r, f"{where}.readings[{i}]"))
    return out


_BOOL = {bool}
#: The readings of an AuditRecord built by from_json are read from their JSON when first asked for.
_LATER: Any = object()
_KEYS = ("official", "corrected")
_KEYS_VERDICTS = ("official", "corrected", "correct")


_DICT, _LIST = {dict}, {list}
_SHAPES = {_KEYS, _KEYS_VERDICTS}
_OFFICIAL, _CORRECTED, _CORRECT = (operator.itemgetter(k) for k in _KEYS_VERDICTS)


def _all_plain(readings: list[Any]) -> bool:
    """Whether every reading's JSON is what :meth:`Reading.to_json` writes of the :class:`Reading` it gives, key for
    key: a dict of ``official`` and ``corrected`` lists of answers, and ``correct`` (when there are verdicts) a
    non-empty list of true and false.  Checked field by field at C speed (a summary checks tens of thousands).

    >>> _all_plain([{'official': ['A'], 'corrected': ['B'], 'correct': [True]}, {'official': ['A'], 'corrected': ['B']}])
    True
    >>> _all_plain([{'official': ['A'], 'corrected': ['B'], 'correct': []}]), _all_plain([{'official': 'A', 'corrected': ['B']}])
    (False, False)
    """
    if not readings:
        return True
    if set(map(type, readings)) != _DICT:
        return False
    shapes = set(map(tuple, readings))  # each reading's keys, in order
    if not shapes <= _SHAPES or set(map(type, map(_OFFICIAL, readings))) != _LIST or set(map(type, map(_CORRECTED, readings))) != _LIST:
        return False
    if _KEYS_VERDICTS not in shapes:
        return True
    judged = readings if len(shapes) == 1 else [r for r in readings if len(r) == len(_KEYS_VERDICTS)]
    verdicts = list(map(_CORRECT, judged))
    return set(map(type, verdicts)) == _LIST and min(map(len, verdicts)) > 0 and set(map(type, itertools.chain.from_iterable(verdicts))) == _BOOL


def _verdicts_of(reading: dict[str, Any]) -> list[float | None] | None:
    """The verdicts of a reading's JSON that :func:`_all_plain` accepts, as :class:`Reading` holds them."""
    correct = reading.get("correct")
    return None if correct is None else [1.0 if v else 0.0 for v in correct]


def has_record(result: Mapping[str, Any]) -> bool:
    """Whether a result (or its head) carries an audit record."""
    return AUDIT_KEY in result


def record_of(result: Mapping[str, Any]) -> AuditRecord | None:
    """The audit record of a result (``None`` when it has none).

    Raises:
        ValueError: the result's record is malformed.
    """
    if AUDIT_KEY not in result:
        return None
    return AuditRecord.from_json(result[AUDIT_KEY])


def read_record(result: Mapping[str, Any], source: str) -> AuditRecord | None:
    """The audit record of a result read by a summary or a report: ``None`` when it has none,
    or when it is malformed (then a warning names ``source``, the file it was read from)."""
    try:
        return record_of(result)
    except ValueError as exc:
        logger.warning("%s: the extraction audit is left out: %s", source, exc)
        return None


def attach(result: dict[str, Any], record: AuditRecord) -> None:
    """Put ``record`` into ``result``, before its ``details`` (so that reading the head never parses them)."""
    details = result.pop("details", None)
    result.pop(AUDIT_KEY, None)
    result[AUDIT_KEY] = record.to_json()
    if details is not None:
        result["details"] = details


def detach(result: dict[str, Any]) -> AuditRecord | None:
    """Take the audit record out of ``result`` (``None`` when it has none).

    Raises:
        ValueError: the record is malformed.
    """
    record = record_of(result)
    result.pop(AUDIT_KEY, None)
    return record


def records_json(records: Mapping[str, Mapping[str, AuditRecord]]) -> dict[str, dict[str, Any]]:
    """Records by model column and dataset as plain data (the summary ``.json`` keeps them so)."""
    return {column: {abbr: r.to_json() for abbr, r in per.items()} for column, per in records.items()}


def read_records(data: Any, source: str) -> dict[str, dict[str, AuditRecord]]:
    """The records of :func:`records_json`'s plain data; a malformed one is left out with a warning naming ``source``.

    >>> read_records({'m': {'gsm': {'corrections': [], 'error': 'boom'}}}, 'summary.json')['m']['gsm'].error
    'boom'
    """
    out: dict[str, dict[str, AuditRecord]] = {}
    if not isinstance(data, Mapping):
        return out
    for column, per in data.items():
        if not isinstance(per, Mapping):
            continue
        for abbr, item in per.items():
            try:
                out.setdefault(str(column), {})[str(abbr)] = AuditRecord.from_json(item)
            except ValueError as exc:
                logger.warning("%s: the extraction audit of %s/%s is left out: %s", source, column, abbr, exc)
    return out


@dataclass(init=False, repr=False, eq=False)
class ToolAudit(FrozenMethods):
    """Another tool's own extraction of the replies assay scored again, against assay's chain.

    Attributes:
        tool: the tool whose replies were scored (``lm_eval``, ``inspect_ai``, ``helm``).
        extraction: the tool's extraction compared (a filter, a scorer).
        record: the comparison: assay's chain as ``official``, the tool's answers as
            ``corrected``, ``metrics`` every metric of the evaluator given the tool's answers.
    """

    tool: str
    extraction: str
    record: AuditRecord

    def __init__(self, tool: str, extraction: str, record: AuditRecord) -> None:
        self.tool = tool
        self.extraction = extraction
        self.record = record

    def to_json(self) -> dict[str, Any]:
        """The record as the summary ``.json`` keeps it: ``tool``, ``extraction``, then the audit record's keys."""
        return {"tool": self.tool, "extraction": self.extraction, **self.record.to_json()}

    @classmethod
    def from_json(cls, data: Any) -> ToolAudit:
        """The record of :meth:`to_json`'s form.

        Raises:
            ValueError: ``data`` is not such a record (the message names the field at fault).
        """
        if not isinstance(data, Mapping):
            raise ValueError(f"{AUDIT_KEY}: expected an object, got {type(data).__name__}")
        tool, extraction = data.get("tool"), data.get("extraction")
        if not isinstance(tool, str) or not isinstance(extraction, str):
            raise ValueError(f"{AUDIT_KEY}: expected the tool and its extraction named, got {tool!r:.40} and {extraction!r:.40}")
        return cls(tool, extraction, AuditRecord.from_json({k: v for k, v in data.items() if k not in ("tool", "extraction")}))

    def note(self, metric: str, value: float | None) -> str:
        """One sentence on a cell: what the tool's extraction would give, and how many replies it reads differently.

        >>> audit = ToolAudit('lm_eval', 'strict-match', AuditRecord([], 24, 7, metrics={'accuracy': 50.0}))
        >>> audit.note('accuracy', 62.5)
        "lm_eval's strict-match extraction would give accuracy 50.00 instead of 62.50 (7 of 24 replies read differently)"
        >>> ToolAudit('lm_eval', 'strict-match', AuditRecord([], 24, 0, metrics={'accuracy': 62.5})).note('accuracy', 62.5)
        "lm_eval's strict-match extraction reads all 24 replies as assay's postprocessors do"
        >>> ToolAudit('helm', 'exact_match', AuditRecord.failed([], 'ValueError: boom')).note('accuracy', 62.5)
        "comparing helm's exact_match extraction failed: ValueError: boom"
        """
        record, who = self.record, f"{self.tool}'s {self.extraction} extraction"
        if record.error is not None:
            return f"comparing {who} failed: {record.error}"
        if not record.differ:
            return f"{who} reads all {record.replies:,} replies as assay's postprocessors do"
        counted = f"{record.differ:,} of {record.replies:,} repl{'y' if record.replies == 1 else 'ies'} read differently"
        would = record.would_be(metric)
        if would is None or value is None:
            return f"{who}: {counted}"
        return f"{who} would give {metric} {would:.2f} instead of {value:.2f} ({counted})"


def tool_record_of(result: Mapping[str, Any]) -> ToolAudit | None:
    """The comparison with another tool's extraction a result holds in ``_meta.rescored`` (``None`` when none).

    Raises:
        ValueError: the record is malformed.
    """
    meta = result.get("_meta")
    rescored = meta.get("rescored") if isinstance(meta, Mapping) else None
    if not isinstance(rescored, Mapping) or AUDIT_KEY not in rescored:
        return None
    return ToolAudit(str(rescored.get("tool")), str(rescored.get("extraction")), AuditRecord.from_json(rescored[AUDIT_KEY]))


def read_tool_record(result: Mapping[str, Any], source: str) -> ToolAudit | None:
    """:func:`tool_record_of` for a summary or a report: a malformed record is left out with a warning naming ``source``."""
    try:
        return tool_record_of(result)
    except ValueError as exc:
        logger.warning("%s: the comparison with the tool's own extraction is left out: %s", source, exc)
        return None


def tool_records_json(records: Mapping[str, Mapping[str, ToolAudit]]) -> dict[str, dict[str, Any]]:
    """Tool comparisons by model column and dataset as plain data (the summary ``.json``'s ``tool_extraction_audits``)."""
    return {column: {abbr: r.to_json() for abbr, r in per.items()} for column, per in records.items()}


def read_tool_records(data: Any, source: str) -> dict[str, dict[str, ToolAudit]]:
    """The records of :func:`tool_records_json`'s plain data; a malformed one is left out with a warning naming ``source``."""
    out: dict[str, dict[str, ToolAudit]] = {}
    if not isinstance(data, Mapping):
        return out
    for column, per in data.items():
        if not isinstance(per, Mapping):
            continue
        for abbr, item in per.items():
            try:
                out.setdefault(str(column), {})[str(abbr)] = ToolAudit.from_json(item)
            except ValueError as exc:
                logger.warning("%s: the comparison with the tool's extraction of %s/%s is left out: %s", source, column, abbr, exc)
    return out
