"""Rendering OpenCompass-style judge prompt templates into chat messages."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from assay.errors import ConfigError

__all__ = ["render_messages"]

_ROLES = {"HUMAN": "user", "USER": "user", "BOT": "assistant", "ASSISTANT": "assistant", "SYSTEM": "system"}
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _fill(text: str, fields: Mapping[str, Any]) -> str:
    # One pass: placeholders inside inserted values are left alone, and braces
    # that name no field (LaTeX, JSON examples) are kept as written.
    def sub(m: re.Match[str]) -> str:
        key = m.group(1)
        return str(fields[key]) if key in fields else m.group(0)

    return _PLACEHOLDER.sub(sub, text)


def _type_name(spec: Any) -> str:
    if isinstance(spec, str):
        return spec.rsplit(".", 1)[-1]
    return str(getattr(spec, "__name__", type(spec).__name__))


def _role(item: Mapping[str, Any], where: str) -> str:
    for key in ("role", "fallback_role"):
        name = item.get(key)
        if isinstance(name, str) and name.upper() in _ROLES:
            return _ROLES[name.upper()]
    raise ConfigError(f"{where}: unknown role {item.get('role')!r} (expected HUMAN, BOT or SYSTEM)")


def render_messages(prompt_template: Mapping[str, Any], fields: Mapping[str, Any]) -> list[dict[str, str]]:
    """Chat messages from a ``RawPromptTemplate`` or ``PromptTemplate`` config.

    ``{name}`` placeholders are filled from ``fields``; other braces are kept.
    Roles map HUMAN→user, BOT→assistant, SYSTEM→system.  A BOT entry without
    a prompt marks where the judge answers and is skipped.

    Example:
        >>> tpl = {'type': 'PromptTemplate', 'template': {
        ...     'begin': [{'role': 'SYSTEM', 'fallback_role': 'HUMAN', 'prompt': 'Grade.'}],
        ...     'round': [{'role': 'HUMAN', 'prompt': 'Q: {q} A: {prediction} {x}'}]}}
        >>> render_messages(tpl, {'q': '1+1', 'prediction': '2'})
        [{'role': 'system', 'content': 'Grade.'}, {'role': 'user', 'content': 'Q: 1+1 A: 2 {x}'}]
        >>> render_messages({'type': 'RawPromptTemplate',
        ...                  'messages': [{'role': 'user', 'content': '{prediction}'}]}, {'prediction': 'B'})
        [{'role': 'user', 'content': 'B'}]
    """
    if not isinstance(prompt_template, Mapping):
        raise ConfigError(f"prompt_template must be a dict(type=..., ...), got {prompt_template!r:.80}")
    kind = _type_name(prompt_template.get("type", "PromptTemplate"))
    if kind == "RawPromptTemplate":
        messages = prompt_template.get("messages")
        if not isinstance(messages, list) or not messages:
            raise ConfigError("prompt_template (RawPromptTemplate): 'messages' must be a non-empty list")
        out = []
        for i, m in enumerate(messages):
            if not isinstance(m, Mapping) or "content" not in m:
                raise ConfigError(f"prompt_template.messages[{i}] must be a dict with 'role' and 'content'")
            role = str(m.get("role", "user"))
            out.append({"role": _ROLES.get(role.upper(), role), "content": _fill(str(m["content"]), fields)})
        return out
    if kind != "PromptTemplate":
        raise ConfigError(f"prompt_template type {kind!r} is not supported (use PromptTemplate or RawPromptTemplate)")
    template = prompt_template.get("template")
    if isinstance(template, str):
        return [{"role": "user", "content": _fill(template, fields)}]
    if not isinstance(template, Mapping):
        raise ConfigError("prompt_template (PromptTemplate): 'template' must be a string or a dict with 'round'")
    out = []
    for section in ("begin", "round", "end"):
        items = template.get(section) or []
        if isinstance(items, (str, Mapping)):
            items = [items]
        for i, item in enumerate(items):
            where = f"prompt_template.template.{section}[{i}]"
            if isinstance(item, str):
                if item.strip():
                    out.append({"role": "user", "content": _fill(item, fields)})
                continue
            if not isinstance(item, Mapping):
                raise ConfigError(f"{where}: expected a dict with 'role' and 'prompt'")
            prompt = item.get("prompt")
            role = _role(item, where)
            if prompt is None or (role == "assistant" and item.get("generate")):
                continue
            out.append({"role": role, "content": _fill(str(prompt), fields)})
    if not out:
        raise ConfigError("prompt_template renders to no message")
    return out
