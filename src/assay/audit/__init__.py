"""The extraction audit: OpenCompass-named postprocessors against their corrected counterparts (R-9.2).

A postprocessor under an OpenCompass name computes what OpenCompass 0.5.4
computes, bugs included; its corrected counterpart lives under an assay
name.  For every task whose chain uses one of a declared pair, the eval
also reads the replies with the counterpart in its place and records,
beside the official numbers it leaves untouched, how many replies the two
read differently and what each metric would be with the correction.

* :mod:`assay.audit.pairs` — the :class:`Pair` type, the built-in pairs and
  the public declarations (:func:`declare_correction`,
  :func:`withdraw_correction`, :func:`declared_corrections`; plugins declare
  theirs from an ``assay.plugins`` entry point);
* :mod:`assay.audit.plan` — which pairs apply to a task, and where;
* :mod:`assay.audit.run` — both chains read, the differing samples, the would-be metrics;
* :mod:`assay.audit.merge` — the audit of a task scored in shards;
* :mod:`assay.audit.record` — the record a result file holds (:class:`AuditRecord`);
* :mod:`assay.audit.check` — recomputing a recorded audit (``assay verify``).
"""

from __future__ import annotations

from assay.audit.pairs import (
    BUILTIN_PAIRS,
    Pair,
    corrected_counterpart,
    correction_for,
    declare_correction,
    declared_corrections,
    withdraw_correction,
)
from assay.audit.plan import STAGES, AuditPlan, audit_plan, chain_configs
from assay.audit.record import (
    AuditRecord,
    Reading,
    ToolAudit,
    attach,
    detach,
    has_record,
    read_record,
    read_records,
    read_tool_record,
    read_tool_records,
    record_of,
    records_json,
    tool_record_of,
    tool_records_json,
)

__all__ = [
    "BUILTIN_PAIRS",
    "STAGES",
    "AuditPlan",
    "AuditRecord",
    "Pair",
    "Reading",
    "ToolAudit",
    "attach",
    "audit_plan",
    "chain_configs",
    "corrected_counterpart",
    "correction_for",
    "declare_correction",
    "declared_corrections",
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
    "withdraw_correction",
]
