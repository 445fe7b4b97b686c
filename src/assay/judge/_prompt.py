"""Rendering OpenCompass-style judge prompt templates into chat messages."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from assay.errors import ConfigError
from assay.registry import ICL_PROMPT_TEMPLATES

__all__ = ["DEFAULT_JUDGE_META_TEMPLATE", "RawPromptTemplate", "api_messages", "api_prompt", "render_messages", "template_prompt"]

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
    """Chat messages from a ``RawPromptTemplate`` or ``PromptTemplate`` config, each role its own message.

    A plain rendering, without a judge's meta template: what the judge
    evaluators send is OpenCompass's (:func:`template_prompt`,
    :func:`api_prompt`, :func:`api_messages`), where a SYSTEM prompt without
    a SYSTEM role in the meta template is merged into the user's message.

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
        custom = _message_template(prompt_template)
        if custom is None:
            raise ConfigError(f"prompt_template type {kind!r} is not supported (use PromptTemplate, RawPromptTemplate or a "
                              "registered template building chat messages)")
        return list(custom.generate_item(dict(fields)))
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


# -- OpenCompass 0.5.4's way from a judge prompt template to the chat messages sent -----------------

#: The chat roles OpenCompass's ``OpenAISDK`` sends for the API roles of a meta template.
_API_ROLES = {"HUMAN": "user", "BOT": "assistant", "SYSTEM": "system"}

#: The meta template of the judge OpenCompass builds from ``OC_JUDGE_*`` (no SYSTEM role).
DEFAULT_JUDGE_META_TEMPLATE: dict[str, Any] = {
    "round": [{"role": "HUMAN", "api_role": "HUMAN"}, {"role": "BOT", "api_role": "BOT", "generate": True}]
}


def _safe_format(text: str, entry: Mapping[str, Any]) -> str:
    # OpenCompass's filling: each field in turn, every ``{field}`` of the text so far replaced by
    # ``str(value)`` — a value holding ``{later_field}`` is filled too; other braces are kept.
    for key, value in entry.items():
        text = text.replace("{" + str(key) + "}", str(value))
    return text


def _message_template(prompt_template: Mapping[str, Any]) -> Any:
    """A registered prompt template of a benchmark's own that builds chat messages (``prompt_type`` ``raw_messages``,
    as OpenCompass's retriever tells them), built from the config; ``None`` for any other type."""
    from assay.errors import RegistryError
    from assay.registry import resolve_type

    try:
        cls = resolve_type(prompt_template.get("type"), ICL_PROMPT_TEMPLATES, key="prompt_template.type")
    except RegistryError:
        return None
    if getattr(cls, "prompt_type", None) != "raw_messages" or not callable(getattr(cls, "generate_item", None)):
        return None
    try:
        return cls(**{k: v for k, v in prompt_template.items() if k != "type"})
    except TypeError as exc:
        raise ConfigError(f"prompt_template ({_type_name(prompt_template.get('type'))}): {exc}") from None


def template_prompt(prompt_template: Mapping[str, Any], entry: Mapping[str, Any], output_field: str | None = "reference") -> Any:
    """A judge prompt as OpenCompass 0.5.4's ``GenInferencer`` builds it for one sample.

    ``entry`` holds the sample's fields in their order; ``output_field``
    (``reference``, the judge dataset's output column) is filled with ``''``
    in a ``PromptTemplate``, as OpenCompass fills the output column of a
    generation prompt (its ``RawPromptTemplate`` fills it with the value).  A
    ``PromptTemplate`` with ``begin``/``round``/``end`` gives a prompt list
    (section markers ``{'section': ..., 'pos': ...}``, role items with
    ``prompt`` filled, strings); a string template gives a string; a
    ``RawPromptTemplate`` gives its chat messages, and so does a registered
    template of a benchmark's own whose ``prompt_type`` is ``raw_messages``
    (its ``generate_item(entry)``).

    Example:
        >>> tpl = {'type': 'PromptTemplate', 'template': {'round': [{'role': 'HUMAN', 'prompt': '{q}|{reference}|{x}'}]}}
        >>> template_prompt(tpl, {'q': 'Q', 'reference': '4'})
        [{'section': 'round', 'pos': 'begin'}, {'role': 'HUMAN', 'prompt': 'Q||{x}'}, {'section': 'round', 'pos': 'end'}]
    """
    if not isinstance(prompt_template, Mapping):
        raise ConfigError(f"prompt_template must be a dict(type=..., ...), got {prompt_template!r:.80}")
    entry = dict(entry)
    kind = _type_name(prompt_template.get("type", "PromptTemplate"))
    if kind == "RawPromptTemplate":  # OpenCompass's RawPromptTemplate leaves the output column filled
        options = {k: v for k, v in prompt_template.items() if k != "type"}
        try:
            raw = RawPromptTemplate(**options)
        except TypeError as exc:
            raise ConfigError(f"prompt_template (RawPromptTemplate): {exc}") from None
        return raw.generate_item(entry)
    if kind != "PromptTemplate":
        custom = _message_template(prompt_template)
        if custom is None:
            raise ConfigError(f"prompt_template type {kind!r} is not supported (use PromptTemplate, RawPromptTemplate or a "
                              "registered template building chat messages)")
        return custom.generate_item(entry)
    if output_field is not None:
        entry[output_field] = ""
    template = prompt_template.get("template")
    ice_token = prompt_template.get("ice_token")
    sep_token = prompt_template.get("sep_token")
    if isinstance(template, Mapping) and not all(key in ("begin", "round", "end") for key in template):
        template = next(iter(template.values()))  # a template per label: the first one, as OpenCompass takes it
    if isinstance(template, str):
        text = template
        for token in (ice_token, sep_token):
            if token is not None:
                text = text.replace(token, "")
        return _safe_format(text, entry)
    if not isinstance(template, Mapping) or "round" not in template:
        raise ConfigError("prompt_template (PromptTemplate): 'template' must be a string or a dict with 'round'")
    items: list[Any] = []
    for section in ("begin", "round", "end"):
        if section not in template:
            continue
        body = template[section]
        body = list(body) if isinstance(body, list) else [body]
        # OpenCompass closes the end section with pos 'end' twice (its own quirk, harmless to parsing)
        items.append({"section": section, "pos": "begin" if section != "end" else "end"})
        items.extend(body)
        items.append({"section": section, "pos": "end"})
    out: list[Any] = []
    for item in items:
        if isinstance(item, str):
            for token in (ice_token, sep_token):
                if token is not None:
                    item = item.replace(token, "")
            out.append(_safe_format(item, entry))
        elif isinstance(item, Mapping):
            new = copy.deepcopy(dict(item))
            if "prompt" in new:
                prompt = new["prompt"]
                for token in (ice_token, sep_token):
                    if token is not None and isinstance(prompt, str):
                        prompt = prompt.replace(token, "")
                new["prompt"] = _safe_format(prompt, entry) if isinstance(prompt, str) else prompt
            out.append(new)
        else:
            raise ConfigError(f"prompt_template (PromptTemplate): an entry of type {type(item).__name__} (expected a dict or a string)")
    return out


def _meta_roles(meta_template: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    roles: dict[str, dict[str, Any]] = {}
    for key in ("round", "reserved_roles"):
        for item in meta_template.get(key) or []:
            if isinstance(item, Mapping):
                roles[item["role"]] = dict(item)
    return roles


def _role_of(item: Mapping[str, Any], roles: Mapping[str, Any]) -> str:
    role = item.get("role")
    if role in roles:
        return str(role)
    fallback = item.get("fallback_role")
    if fallback in roles:
        return str(fallback)
    raise ConfigError(
        f"prompt_template: role {role!r} (fallback {fallback!r}) is not in the judge's meta template "
        f"(roles {', '.join(map(str, roles))})"
    )


def _api_item(item: Mapping[str, Any], roles: Mapping[str, dict[str, Any]], for_gen: bool) -> tuple[dict[str, Any] | None, bool]:
    role_cfg = dict(roles[_role_of(item, roles)])
    role_cfg.update(item)  # the prompt's own keys over its role's (OpenCompass's role dict update)
    if for_gen and role_cfg.get("generate", False):
        return None, False
    text = str(role_cfg.get("begin", "")) + str(role_cfg.get("prompt", "")) + str(role_cfg.get("end", ""))
    return {"role": role_cfg["api_role"], "prompt": text}, True


def _split_rounds(dialogue: list[Any], round_template: list[Any]) -> list[int]:
    index = {cfg["role"]: i for i, cfg in enumerate(round_template) if not isinstance(cfg, str)}
    last, cuts = -1, [0]
    for i, item in enumerate(dialogue):
        if isinstance(item, str):
            continue
        at = index.get(item["role"])
        if at is None:
            if item.get("fallback_role") not in index:
                raise ConfigError(f"prompt_template: {dict(item)!r} has neither a role nor a fallback role of the meta template's round")
            at = index[item["fallback_role"]]
        if at <= last:
            cuts.append(i)
        last = at
    cuts.append(len(dialogue))
    return cuts


def api_prompt(prompt: Any, meta_template: Mapping[str, Any] | list[Any] | None) -> Any:
    """What OpenCompass 0.5.4's API models make of a prompt (``APITemplateParser``, generation mode).

    A string stays as it is.  With a meta template (``round``, optional
    ``reserved_roles`` and ``begin``): every item of ``begin``/``round``/``end``
    becomes ``{'role': <its api_role>, 'prompt': begin + prompt + end}`` (a
    role the template lacks takes its ``fallback_role``), the conversation
    stops before the last round's ``generate`` role, and consecutive items of
    one API role are joined by a newline — so a SYSTEM prompt falling back to
    HUMAN is merged into the user's message.  Without a meta template the
    prompts are joined by newlines into one string.  Chat messages
    (``role``/``content``, from a ``RawPromptTemplate``) are kept as they are.

    Example:
        >>> tpl = {'template': {'begin': [{'role': 'SYSTEM', 'fallback_role': 'HUMAN', 'prompt': 'Grade.'}],
        ...                     'round': [{'role': 'HUMAN', 'prompt': 'Q'}]}}
        >>> p = template_prompt(dict(tpl, type='PromptTemplate'), {})
        >>> api_prompt(p, DEFAULT_JUDGE_META_TEMPLATE)
        [{'role': 'HUMAN', 'prompt': 'Grade.\\nQ'}]
        >>> api_prompt(p, None)
        'Grade.\\nQ'
    """
    if isinstance(prompt, str):
        return prompt
    if prompt and all(isinstance(m, Mapping) and "role" in m and "content" in m for m in prompt):
        return copy.deepcopy(list(prompt))
    if not meta_template:
        text, sep = "", ""
        for item in prompt:
            if isinstance(item, Mapping) and set(item) == {"section", "pos"}:
                continue
            if isinstance(item, str):
                if item:
                    text += sep + item
            elif item.get("prompt", ""):
                text += sep + str(item.get("prompt", ""))
            sep = "\n"
        return text
    if not isinstance(meta_template, Mapping) or not isinstance(meta_template.get("round"), list):
        raise ConfigError(f"judge_cfg.meta_template must be a dict with a 'round' list, got {meta_template!r:.80}")
    roles = _meta_roles(meta_template)
    out: list[dict[str, Any]] = []
    go_on = True
    stack: list[tuple[str, int]] = []
    for i, item in enumerate(prompt):
        if not go_on:
            break
        if isinstance(item, str):
            continue  # OpenCompass warns and drops strings in API prompts
        if "section" in item:
            if item["pos"] == "end":
                section, start = stack.pop()
                if section in ("round", "ice"):
                    dialogue = prompt[start:i]
                    cuts = _split_rounds(dialogue, meta_template["round"])
                    for r in range(len(cuts) - 1):
                        for_gen = section == "round" and r == len(cuts) - 2
                        go_on = _round_to_api(meta_template["round"], roles, dialogue[cuts[r]:cuts[r + 1]], for_gen, out)
                        if not go_on:
                            break
            else:
                stack.append((item["section"], i + 1))
        elif stack and stack[-1][0] in ("begin", "end"):
            api, go_on = _api_item(item, roles, for_gen=True)
            if api is not None:
                out.append(api)
    merged: list[dict[str, Any]] = []
    for api in out:
        if merged and merged[-1]["role"] == api["role"]:
            merged[-1]["prompt"] += "\n" + api["prompt"]
        else:
            merged.append(dict(api))
    if meta_template.get("begin"):
        merged.insert(0, meta_template["begin"])
    return merged


def _round_to_api(round_template: list[Any], roles: Mapping[str, dict[str, Any]], items: list[Any], for_gen: bool,
                  out: list[dict[str, Any]]) -> bool:
    """One round of a prompt through the meta template's round, as OpenCompass converts it: the
    template's roles in the template's order, each with the round's item of that role (a role the
    round lacks gives its own ``begin``/``end`` text), stopping before the ``generate`` role of the
    last round.  Whether to go on."""
    role_dict = {name: dict(cfg) for name, cfg in roles.items()}
    for x in items:
        if isinstance(x, str):
            continue
        role_dict[_role_of(x, roles)].update(x)
    for cfg in round_template:
        if isinstance(cfg, str):
            raise ConfigError("judge_cfg.meta_template: a string in 'round' (not allowed for API judges)")
        merged = role_dict[cfg["role"]]
        if for_gen and merged.get("generate", False):
            return False
        out.append({"role": merged["api_role"],
                    "prompt": str(merged.get("begin", "")) + str(merged.get("prompt", "")) + str(merged.get("end", ""))})
    return True


def api_messages(prompt: Any) -> list[dict[str, Any]]:
    """The chat messages OpenCompass 0.5.4's ``OpenAISDK`` sends for a parsed prompt (:func:`api_prompt`).

    A string is one user message; chat messages whose roles are all
    ``system``/``user``/``assistant`` go as they are; prompt items map their
    API role HUMAN→user, BOT→assistant, SYSTEM→system (another API role: a
    message without ``role``, as OpenCompass sends it).

    Example:
        >>> api_messages([{'role': 'SYSTEM', 'prompt': 'Grade.'}, {'role': 'HUMAN', 'prompt': 'Q'}])
        [{'content': 'Grade.', 'role': 'system'}, {'content': 'Q', 'role': 'user'}]
        >>> api_messages('Q')
        [{'role': 'user', 'content': 'Q'}]
    """
    if isinstance(prompt, str):
        return [{"role": "user", "content": prompt}]
    if prompt and all(isinstance(m, Mapping) and m.get("role") in _CHAT_ROLES for m in prompt):
        return [dict(m) for m in prompt]
    messages = []
    for item in prompt:
        msg: dict[str, Any] = {"content": item["prompt"]}
        role = _API_ROLES.get(item.get("role"))
        if role is not None:
            msg["role"] = role
        messages.append(msg)
    return messages
