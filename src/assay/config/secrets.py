"""Secrets in configs: kept out of the configs dumped into run directories (R-12.5).

A string under a secret-named key — ``key``, ``api_key``, ``openai_api_key``,
``token``, ``password``, an ``Authorization`` or ``X-Api-Key`` header, … (case
and ``-``/``_`` ignored) — anywhere in a config (models, ``judge_cfg``,
evaluator options, top-level variables) is written as :data:`REDACTED` in a
dumped config, and left out of input fingerprints, so that a result computed
with the key is reused from the dumped config.  ``'ENV'`` (OpenCompass's "read
the key from the environment") and empty values are kept.  Credentials inside
URLs are secrets too, in any string: the user information of
``https://user:sk-1@host/v1`` and secret-named query parameters such as
``?api_key=sk-1`` or ``&token=…`` are written as :data:`REDACTED` (see
:func:`redact_url_credentials`); such a URL is not filled again from the
environment, so a judge asked through it fails with an error saying so.

When a config holding :data:`REDACTED` is loaded again (``assay eval -w RUN -r``
without a config file), each redacted value is read from the environment
variables OpenCompass uses for keys, ``OC_JUDGE_API_KEY`` then
``OPENAI_API_KEY`` (an ``Authorization`` header as ``Bearer <key>``).  With
neither set, results that are reused, summaries and reports need no key; a
judge that would be asked fails its task with an error naming the variables.

Example:
    >>> redact_secrets({'judge_cfg': {'key': 'sk-1', 'path': 'gpt'}, 'headers': {'Authorization': 'Bearer sk-2'}})
    {'judge_cfg': {'key': '<redacted>', 'path': 'gpt'}, 'headers': {'Authorization': '<redacted>'}}
"""

from __future__ import annotations

import os
import re
from typing import Any
from urllib.parse import quote

__all__ = [
    "KEY_VARIABLES", "REDACTED", "is_secret_key", "redact_secrets", "redact_url_credentials", "redacted_keys",
    "restore_secrets", "url_has_redacted_credentials",
]

#: What a dumped config holds in place of a secret.
REDACTED = "<redacted>"
#: The environment variables a redacted key is read from, in order.
KEY_VARIABLES = ("OC_JUDGE_API_KEY", "OPENAI_API_KEY")

_SECRET_NAMES = frozenset({
    "key", "keys", "api_key", "api_keys", "apikey", "openai_api_key", "anthropic_api_key", "secret", "secret_key",
    "client_secret", "token", "access_token", "api_token", "auth_token", "hf_token", "password", "passwd",
    "authorization", "proxy_authorization", "x_api_key", "api_secret",
})
_KEPT = frozenset({"", "ENV", REDACTED})


def is_secret_key(name: Any) -> bool:
    """Whether a dict key or variable name holds a secret (``'api_key'``, ``'Authorization'``, ``'X-Api-Key'``)."""
    return isinstance(name, str) and name.lower().replace("-", "_") in _SECRET_NAMES


# a URL inside any text: scheme, "://", then everything up to white space or a quote
_URL = re.compile(r"""\b[A-Za-z][A-Za-z0-9+.-]*://[^\s'"<>`]+""")
# user information before the host: "user:password@" or "token@"
_USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)([^/?#@]*)@")
# one query (or fragment) parameter: its separator, name, "=", and value
_PARAM = re.compile(r"([?&;#])([^=&;#]+)=([^&;#]*)")


def _redact_url(match: re.Match[str]) -> str:
    url = match.group(0)
    found = _USERINFO.match(url)
    if found:
        user, colon, _password = found.group(2).partition(":")
        userinfo = f"{user}:{REDACTED}" if colon else REDACTED
        url = f"{found.group(1)}{userinfo}@{url[found.end():]}"

    def param(p: re.Match[str]) -> str:
        name = p.group(2)
        if p.group(3) and p.group(3) not in _KEPT and is_secret_key(name.replace("%2D", "-").replace("%5F", "_")):
            return f"{p.group(1)}{name}={REDACTED}"
        return p.group(0)

    return _PARAM.sub(param, url)


def redact_url_credentials(text: str) -> str:
    """``text`` with the credentials of every URL in it replaced by :data:`REDACTED`.

    The password of ``user:password@`` (or the whole user information when it has no
    ``:``, as a token given as ``https://TOKEN@host``) and the value of each query or
    fragment parameter with a secret name (:func:`is_secret_key`).  Text without
    ``://`` is returned as it is.

    Example:
        >>> redact_url_credentials('https://me:sk-1@api.example/v1?api_key=sk-2&model=m')
        'https://me:<redacted>@api.example/v1?api_key=<redacted>&model=m'
        >>> redact_url_credentials('failed: http://127.0.0.1:8000/v1 (no credentials)')
        'failed: http://127.0.0.1:8000/v1 (no credentials)'
    """
    if "://" not in text:
        return text
    return _URL.sub(_redact_url, text)


def url_has_redacted_credentials(url: str) -> bool:
    """Whether ``url`` holds a credential that :func:`redact_url_credentials` replaced."""
    return REDACTED in url or quote(REDACTED) in url


def _redact_value(value: Any) -> Any:
    if isinstance(value, str):
        return value if value in _KEPT else REDACTED
    if isinstance(value, (list, tuple)):
        return type(value)(_redact_value(v) for v in value)
    return redact_secrets(value)


def redact_secrets(obj: Any) -> Any:
    """A copy of plain data (dicts, lists) with every secret string replaced by :data:`REDACTED`."""
    if isinstance(obj, dict):
        return {k: _redact_value(v) if is_secret_key(k) else redact_secrets(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(redact_secrets(v) for v in obj)
    if isinstance(obj, str):
        return redact_url_credentials(obj)
    return obj


def redacted_keys(obj: Any, where: str = "") -> list[str]:
    """The config keys (``'eval_cfg.evaluator.judge_cfg.key'``) still holding :data:`REDACTED`."""
    found: list[str] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            path = f"{where}.{k}" if where else str(k)
            if v == REDACTED or (isinstance(v, (list, tuple)) and REDACTED in v):
                found.append(path)
            else:
                found += redacted_keys(v, path)
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            found += redacted_keys(v, f"{where}[{i}]")
    return found


def restore_secrets(obj: Any) -> Any:
    """Fill each :data:`REDACTED` value in place from ``OC_JUDGE_API_KEY``, else ``OPENAI_API_KEY``.

    Returns ``obj``; with neither variable set it is left as it is.
    """
    value = next((v for v in (os.environ.get(name) for name in KEY_VARIABLES) if v), None)
    if value is None:
        return obj

    def fill(name: Any, v: Any) -> Any:
        if v == REDACTED:
            lowered = str(name).lower()
            return f"Bearer {value}" if lowered in ("authorization", "proxy-authorization", "proxy_authorization") else value
        if isinstance(v, list):
            return [fill(name, x) for x in v]
        return restore_secrets(v)

    if isinstance(obj, dict):
        for k in list(obj):
            obj[k] = fill(k, obj[k]) if is_secret_key(k) else restore_secrets(obj[k])
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            obj[i] = restore_secrets(v)
    return obj
