"""Which pairs apply to a task: the audit plan of its postprocessor chain (R-9.2).

A task's prediction postprocessors run at three levels (:data:`STAGES`).
Where one of them has a declared corrected counterpart
(:func:`assay.audit.pairs.correction_for`), the plan puts the pair at that
level with the corrected config it builds from the official one; the plan
is made once per task, with the postprocessor types the task's setup
resolved, and each postprocessor of either chain is built once from it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from assay._dataclass import FACTORY, FrozenMethods
from assay.audit.pairs import Pair

__all__ = ["STAGES", "AuditPlan", "audit_plan", "chain_configs"]

#: The three prediction postprocessor locations, in the order they apply.
STAGES: tuple[str, ...] = ("model pred_postprocessor", "eval_cfg.pred_postprocessor", "eval_cfg.evaluator.pred_postprocessor")

#: The key of a corrected config whose option mapping failed (the audit records the error).
_FAILED = "__error__"


@dataclass(init=False, repr=False, eq=False)
class AuditPlan(FrozenMethods):
    """The chains of one task: per stage, the official config, its resolved type, and the pair that applies.

    Attributes:
        configs: the official configs of the three stages (``None`` where a stage has none).
        pairs: per stage, the :class:`~assay.audit.pairs.Pair` whose official
            postprocessor that stage uses (``None`` where none applies).
        corrected_configs: per stage with a pair, the corrected counterpart's
            config (the official options mapped as the pair says); ``None`` elsewhere.
        types: the functions the official configs' ``type`` resolve to (``None``
            where a stage has none).
    """

    configs: tuple[Any, Any, Any]
    pairs: tuple[Pair | None, Pair | None, Pair | None]
    corrected_configs: tuple[dict[str, Any] | None, dict[str, Any] | None, dict[str, Any] | None]
    types: tuple[Any, Any, Any] = field(default=(None, None, None), compare=False)
    _built: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def __init__(
        self,
        configs: tuple[Any, Any, Any],
        pairs: tuple[Pair | None, Pair | None, Pair | None],
        corrected_configs: tuple[dict[str, Any] | None, dict[str, Any] | None, dict[str, Any] | None],
        types: tuple[Any, Any, Any] = (None, None, None),
        _built: dict[Any, Any] = FACTORY,
    ) -> None:
        self.configs = configs
        self.pairs = pairs
        self.corrected_configs = corrected_configs
        self.types = types
        self._built = {} if _built is FACTORY else _built

    @property
    def stages(self) -> list[int]:
        """The stages where a pair applies, in order."""
        return [stage for stage, pair in enumerate(self.pairs) if pair is not None]

    def corrected_config(self, stage: int) -> Any:
        """The config of ``stage`` in the corrected chain."""
        found = self.corrected_configs[stage]
        return found if found is not None else self.configs[stage]

    def option_error(self) -> str | None:
        """Why a pair's option mapping could not map the official options (``None``: every one could)."""
        for stage in self.stages:
            cfg = self.corrected_configs[stage] or {}
            pair = self.pairs[stage]
            if _FAILED in cfg and pair is not None:
                return f"the option mapping of {pair.official!r} failed: {cfg[_FAILED]}"
        return None

    def corrected_type(self, stage: int) -> Any:
        """The corrected counterpart's function at ``stage`` (resolved once; raises when it cannot be)."""
        from assay.registry import TEXT_POSTPROCESSORS, resolve_type

        pair = self.pairs[stage]
        if pair is None:
            raise ValueError(f"no corrected counterpart at {STAGES[stage]}")
        key = ("corrected type", stage)
        if key not in self._built:
            try:
                self._built[key] = resolve_type(pair.corrected, TEXT_POSTPROCESSORS, key=f"{STAGES[stage]} (corrected).type")
            except Exception as exc:  # remembered: asked again, the same error
                self._built[key] = exc
        found = self._built[key]
        if isinstance(found, Exception):
            raise found
        return found

    def postprocessor(self, stage: int, *, corrected: bool = False) -> Any:
        """The postprocessor of ``stage`` in the official or the corrected chain, built once (``None``: no config)."""
        from assay.postprocess.chain import build_postprocessor

        swap = corrected and self.pairs[stage] is not None
        key = ("built", stage, swap)
        if key not in self._built:
            if swap:
                self._built[key] = build_postprocessor(self.corrected_config(stage), where=f"{STAGES[stage]} (corrected)",
                                                       resolved=self.corrected_type(stage))
            else:
                self._built[key] = build_postprocessor(self.configs[stage], where=STAGES[stage], resolved=self.types[stage])
        return self._built[key]

    def describe(self) -> list[dict[str, Any]]:
        """The substitutions as the audit record lists them (its ``corrections``).

        >>> plan = audit_plan({}, {'pred_postprocessor': {'type': 'gsm8k_postprocess'}}, {})
        >>> plan.describe()
        [{'at': 'eval_cfg.pred_postprocessor', 'official': 'gsm8k_postprocess', 'corrected': 'gsm8k_extract'}]
        """
        from assay.config.dump import plainify

        out: list[dict[str, Any]] = []
        for stage in self.stages:
            pair = self.pairs[stage]
            assert pair is not None
            entry: dict[str, Any] = {"at": STAGES[stage], "official": pair.official, "corrected": pair.corrected}
            options = {k: v for k, v in (self.corrected_configs[stage] or {}).items() if k != "type"}
            if options:
                entry["options"] = plainify(options)
            out.append(entry)
        return out

    def fingerprint_input(self, source_digest: Callable[[Any], str]) -> list[Any]:
        """What a result depends on: each substitution, its option mapping and the corrected code's source
        (``source_digest`` gives the digest of a function's source)."""
        from assay.config.dump import plainify
        from assay.errors import AssayError

        out: list[Any] = []
        for stage in self.stages:
            pair = self.pairs[stage]
            assert pair is not None
            try:
                source = source_digest(self.corrected_type(stage))
            except (AssayError, ImportError) as exc:
                source = f"unresolved: {exc}"
            out.append([STAGES[stage], plainify(self.configs[stage]), plainify(self.corrected_configs[stage]),
                        pair.describe_options(), source])
        return out


def _type_of(cfg: Any) -> Any:
    if isinstance(cfg, Mapping):
        return cfg.get("type")
    if callable(cfg):
        return cfg
    return None


def chain_configs(model_cfg: Mapping[str, Any], eval_cfg: Mapping[str, Any], evaluator_cfg: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    """The prediction postprocessor configs of a task's three :data:`STAGES`."""
    return (model_cfg.get("pred_postprocessor"), eval_cfg.get("pred_postprocessor"), evaluator_cfg.get("pred_postprocessor"))


def audit_plan(
    model_cfg: Mapping[str, Any], eval_cfg: Mapping[str, Any], evaluator_cfg: Mapping[str, Any], *, types: Sequence[Any] | None = None
) -> AuditPlan | None:
    """The audit of a task's chain, or ``None`` when no postprocessor of it has a declared counterpart.

    ``types``: the functions the three stages' ``type`` resolve to, when the
    caller has resolved them (see :func:`~assay.postprocess.chain.resolve_postprocessor_type`).

    >>> audit_plan({}, {'pred_postprocessor': {'type': 'general_postprocess'}}, {}) is None
    True
    """
    from assay.audit.pairs import correction_for
    from assay.postprocess.chain import resolve_postprocessor_type

    configs = chain_configs(model_cfg, eval_cfg, evaluator_cfg)
    resolved = tuple(types) if types is not None else tuple(resolve_postprocessor_type(cfg) for cfg in configs)
    pairs: list[Pair | None] = [None, None, None]
    corrected: list[dict[str, Any] | None] = [None, None, None]
    for stage, cfg in enumerate(configs):
        spec = resolved[stage] if resolved[stage] is not None else _type_of(cfg)
        if spec is None:
            continue
        pair = correction_for(spec)
        if pair is None:
            continue
        pairs[stage] = pair
        try:
            corrected[stage] = pair.corrected_config(cfg if isinstance(cfg, Mapping) else {"type": cfg})
        except Exception as exc:  # a broken option mapping: audited as an error, never the official result
            corrected[stage] = {"type": pair.corrected, _FAILED: f"{type(exc).__name__}: {exc}"}
    if not any(p is not None for p in pairs):
        return None
    return AuditPlan(configs, (pairs[0], pairs[1], pairs[2]), (corrected[0], corrected[1], corrected[2]),
                     (resolved[0], resolved[1], resolved[2]))
