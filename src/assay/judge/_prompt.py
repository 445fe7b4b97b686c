"""Rendering OpenCompass-style judge prompt templates into chat messages."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from assay.errors import ConfigError
from assay.registry import ICL_PROMPT_TEMPLATES

__all__ = ["RawPromptTemplate", "render_messages"]

_CHAT_ROLES = ("system", "user", "assistant")


@ICL_PROMPT_TEMPLATES.register_module()
class RawPromptTemplate:
    """OpenCompass's ``RawPromptTemplate``: chat messages given as they are sent.

    ``messages`` holds, in order:

    * dicts with ``role`` (``system``, ``user`` or ``assistant``) and
      ``content``: copied whole (other keys kept), ``content`` filled from the
      sample when it is a string and ``format_variables`` is true;
    * ``{'expand_column': 'col'}``: the sample's ``col``, a list of messages,
      inserted as it is (nothing when the column is missing or not a list);
    * strings (in-context-example placeholders such as ``'</E>'``): skipped,
      as a judge prompt has no in-context examples.

    Filling is OpenCompass's: for each field of the sample, in order, every
    ``{field}`` in the text so far is replaced by ``str(value)`` — so a
    value that itself contains ``{later_field}`` is filled too, and braces
    naming no field are kept.  Roles are not translated: what the messages
    say is what the judge gets.

    Raises:
        ConfigError: ``messages`` is not a list, or an entry is neither a
            string nor a dict, lacks ``role``/``content`` or has another role.

    Example:
        >>> tpl = RawPromptTemplate([{'role': 'system', 'content': 'Grade.'}, '</E>', {'expand_column': 'history'},
        ...                          {'role': 'user', 'content': '{prediction} vs {gold} {x}', 'name': 'q'}])
        >>> tpl.generate_item({'history': [{'role': 'user', 'content': 'hi'}], 'prediction': 'B', 'gold': 'A'})
        [{'role': 'system', 'content': 'Grade.'}, {'role': 'user', 'content': 'hi'}, {'role': 'user', 'content': 'B vs A {x}', 'name': 'q'}]
    """

    #: OpenCompass's dotted name of the class, which a dataset's ``version`` hashes (its ``infer_cfg``).
    opencompass_name = "opencompass.openicl.icl_raw_prompt_template.RawPromptTemplate"

    def __init__(self, messages: list[Any], format_variables: bool = True, ice_token: str = "</E>") -> None:
        if not isinstance(messages, list):
            raise ConfigError(f"RawPromptTemplate: messages must be a list, got {type(messages).__name__}")
        for i, msg in enumerate(messages):
            if isinstance(msg, str):
                continue
            if not isinstance(msg, Mapping):
                raise ConfigError(f"RawPromptTemplate: messages[{i}] must be a dict or a string, got {type(msg).__name__}")
            if "expand_column" in msg:
                continue
            for key in ("role", "content"):
                if key not in msg:
                    raise ConfigError(f"RawPromptTemplate: messages[{i}] has no {key!r}")
            if msg["role"] not in _CHAT_ROLES:
                raise ConfigError(f"RawPromptTemplate: messages[{i}] has role {msg['role']!r}; expected one of {', '.join(_CHAT_ROLES)}")
        self.messages = messages
        self.format_variables = format_variables
        self.ice_token = ice_token

    def generate_item(self, entry: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The messages for one sample (``entry``: its fields, in order)."""
        out: list[dict[str, Any]] = []
        for item in self.messages:
            if isinstance(item, str):
                continue
            if "expand_column" in item:
                inserted = entry.get(item["expand_column"])
                if isinstance(inserted, list):
                    out.extend(copy.deepcopy(inserted))
                continue
            msg = copy.deepcopy(dict(item))
            if self.format_variables and isinstance(msg.get("content"), str):
                text = msg["content"]
                for key, value in entry.items():
                    text = text.replace("{" + str(key) + "}", str(value))
                msg["content"] = text
            out.append(msg)
        return out

    def __repr__(self) -> str:
        return f"RawPromptTemplate(messages={self.messages!r}, ice_token={self.ice_token!r})"

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


def render_messages(prompt_template: Mapping[str, Any], fields: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Chat messages from a ``RawPromptTemplate`` or ``PromptTemplate`` config.

    A ``RawPromptTemplate`` renders as OpenCompass renders it (see
    :class:`RawPromptTemplate`), ``fields`` in their order.  For a
    ``PromptTemplate``, ``{name}`` placeholders are filled from ``fields`` in
    one pass; other braces are kept.  Roles map HUMAN→user, BOT→assistant,
    SYSTEM→system.  A BOT entry without a prompt marks where the judge
    answers and is skipped.

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
        options = {k: v for k, v in prompt_template.items() if k != "type"}
        try:
            raw = RawPromptTemplate(**options)
        except TypeError as exc:
            raise ConfigError(f"prompt_template (RawPromptTemplate): {exc}") from None
        messages = raw.generate_item(fields)
        if not messages:
            raise ConfigError("prompt_template (RawPromptTemplate) renders to no message")
        return messages
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
