"""Choosing the sandbox's isolation: bubblewrap, ``unshare(2)``, or a refusal that says what is missing."""

from __future__ import annotations

import os

import pytest

from assay.sandbox import NO_BWRAP_ENV, Isolation, Outcome, Sandbox, _runner, bwrap_available, unshare_available


def test_the_environment_variable_hides_bubblewrap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(NO_BWRAP_ENV, "1")
    assert bwrap_available() == f"bubblewrap is hidden by {NO_BWRAP_ENV}"
    monkeypatch.setenv(NO_BWRAP_ENV, "0")
    assert bwrap_available() != f"bubblewrap is hidden by {NO_BWRAP_ENV}"


@pytest.mark.skipif(unshare_available() is not None, reason=f"unshare(2) namespaces unavailable: {unshare_available()}")
def test_without_bubblewrap_the_unshare_backend_isolates(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv(NO_BWRAP_ENV, "1")
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    sb = Sandbox(isolation="auto")
    assert sb.backend == "unshare" and sb.isolation is Isolation.NAMESPACES
    ok = sb.run("import os\nprint(os.getcwd(), sorted(os.listdir('.')), os.getuid() != 0)")
    assert ok.outcome is Outcome.PASSED and ok.stdout.split() == ["/sandbox", "['main.py']", "True"]
    assert ok.isolation is Isolation.NAMESPACES
    read = sb.run(f"print(open({str(secret)!r}).read())")
    assert read.outcome is Outcome.FAILED and "FileNotFoundError" in read.message
    net = sb.run("import socket\nsocket.create_connection(('1.1.1.1', 53), timeout=2)")
    assert net.outcome is Outcome.FAILED and "OSError" in net.message
    killed = sb.run("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)")
    assert killed.outcome is Outcome.KILLED and "SIGKILL" in killed.message


def test_root_without_any_namespace_is_refused_with_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_runner, "bwrap_available", lambda: "bubblewrap is not installed")
    monkeypatch.setattr(_runner, "unshare_available", lambda: "unshare(2) failed: Operation not permitted")
    monkeypatch.setattr(_runner.os, "geteuid", lambda: 0)
    with pytest.raises(RuntimeError) as info:
        Sandbox()
    message = str(info.value)
    assert "bubblewrap is not installed" in message and "Operation not permitted" in message
    assert "apt-get install bubblewrap" in message and "--privileged" in message
    with pytest.raises(RuntimeError, match="namespace isolation is not available"):
        Sandbox(isolation="namespaces")
    assert "apt-get install bubblewrap" in str(_runner.isolation_unavailable("auto"))


def test_non_root_without_namespaces_gets_limits_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_runner, "bwrap_available", lambda: "bubblewrap is not installed")
    monkeypatch.setattr(_runner, "unshare_available", lambda: "creating namespaces needs root")
    monkeypatch.setattr(_runner.os, "geteuid", lambda: os.getuid() or 1000)
    sb = Sandbox()
    assert sb.isolation is Isolation.LIMITS_ONLY and sb.backend is None
    assert "needs root" in sb.isolation_note
