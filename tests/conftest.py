"""Shared test helpers."""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture
def no_builtin_pairs(request: pytest.FixtureRequest) -> Iterator[None]:
    """Each test declares the pairs it needs; the built-in ones are put back afterwards."""
    if "builtin_pairs" in request.keywords:
        yield
        return
    from assay.audit import declare_correction, declared_corrections, withdraw_correction

    saved = declared_corrections()
    for name in saved:
        withdraw_correction(name)
    try:
        yield
    finally:
        for name in declared_corrections():
            withdraw_correction(name)
        for c in saved.values():
            declare_correction(c.official, c.corrected, options=c.options)


@pytest.fixture
def data_dir() -> Path:
    return DATA


class _Starts(list[bool]):
    """Whether each child beside the caller started, in order; ``what`` says what each one does."""

    def __init__(self) -> None:
        super().__init__()
        self.what: list[str] = []


@pytest.fixture
def beside_starts(monkeypatch: pytest.MonkeyPatch) -> _Starts:
    """Work may run in a child process beside the caller (``assay._beside``) as on a machine with a
    second CPU, whatever idle threads other tests of this process left; each start is recorded
    (True: a child started), and what the child does in ``.what``."""
    import assay._beside as beside_module

    monkeypatch.setattr(beside_module, "cpus", lambda: 2)
    monkeypatch.setattr(beside_module, "fork_is_safe", lambda: True)
    started = _Starts()
    real = beside_module.Beside.start.__func__  # type: ignore[attr-defined]

    def start(cls: type, fn: object, what: str = "") -> object:
        job = real(cls, fn, what)
        started.append(job is not None)
        started.what.append(what)
        return job

    monkeypatch.setattr(beside_module.Beside, "start", classmethod(start))
    return started


OPENCOMPASS_VERSION = "0.5.4"


def _opencompass_library() -> tuple[Path | None, str]:
    """A folder holding ``opencompass/configs`` of OpenCompass 0.5.4, or why there is none.

    ``ASSAY_OPENCOMPASS`` names one (an unpacked wheel or a checkout); otherwise the
    wheel is fetched once from the package index with ``pip download --no-deps`` and
    unpacked into a cache folder (``ASSAY_TEST_CACHE``, default ``~/.cache/assay-tests``).
    Parallel test processes (pytest-xdist workers, concurrent runs) take turns on a
    lock file, and the unpacked folder appears by one rename, complete or not at all.
    """
    import fcntl
    import os

    named = os.environ.get("ASSAY_OPENCOMPASS")
    if named:
        root = Path(named)
        if (root / "opencompass" / "configs").is_dir():
            return root, ""
        return None, f"ASSAY_OPENCOMPASS={named} holds no opencompass/configs"
    cache = Path(os.environ.get("ASSAY_TEST_CACHE") or Path.home() / ".cache" / "assay-tests")
    root = cache / f"opencompass-{OPENCOMPASS_VERSION}"
    if (root / "opencompass" / "configs").is_dir():
        return root, ""
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        return _fetch_opencompass(cache, root)


def _fetch_opencompass(cache: Path, root: Path) -> tuple[Path | None, str]:
    """Download and unpack the wheel into ``root`` (the caller holds the cache's lock)."""
    import shutil
    import subprocess
    import sys
    import tempfile
    import zipfile

    if (root / "opencompass" / "configs").is_dir():  # another process did it while this one waited
        return root, ""
    wheels = cache / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    found = sorted(wheels.glob(f"opencompass-{OPENCOMPASS_VERSION}-*.whl"))
    if not found:
        cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", f"opencompass=={OPENCOMPASS_VERSION}", "-d", str(wheels)]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return None, f"cannot download opencompass=={OPENCOMPASS_VERSION}: {exc}"
        found = sorted(wheels.glob(f"opencompass-{OPENCOMPASS_VERSION}-*.whl"))
        if done.returncode != 0 or not found:
            return None, f"cannot download opencompass=={OPENCOMPASS_VERSION}: {done.stderr.strip()[-300:]}"
    partial = Path(tempfile.mkdtemp(prefix=root.name + ".partial-", dir=cache))
    partial.chmod(0o755)
    try:
        with zipfile.ZipFile(found[0]) as zf:
            zf.extractall(partial)
        if root.exists():  # a leftover without configs (an older, interrupted unpacking)
            shutil.rmtree(root)
        partial.rename(root)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return root, ""


@pytest.fixture(scope="session")
def oc_library() -> Path:
    """OpenCompass 0.5.4's files (its config library under ``opencompass/configs``).

    Skips, saying why, where they cannot be had.
    """
    root, why = _opencompass_library()
    if root is None:
        pytest.skip(why)
    return root


@pytest.fixture(params=["bwrap", "unshare"])
def sandbox_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each sandbox backend in turn: bubblewrap, and ``unshare(2)`` with bubblewrap hidden (skipped where
    the backend cannot run, saying why)."""
    from assay.sandbox import NO_BWRAP_ENV, bwrap_available, unshare_available

    if request.param == "unshare":
        monkeypatch.setenv(NO_BWRAP_ENV, "1")
        reason = unshare_available()
    else:
        monkeypatch.delenv(NO_BWRAP_ENV, raising=False)
        reason = bwrap_available()
    if reason is not None:
        pytest.skip(f"{request.param}: {reason}")
    return str(request.param)


CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def chromium_missing() -> str | None:
    """Why the headless-browser tests cannot run here (``None``: they can)."""
    if importlib.util.find_spec("selenium") is None:
        return "selenium is not installed (pip install selenium)"
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        return "headless browser test needs the Debian packages chromium and chromium-driver"
    return None


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    """A headless Chromium (selenium's driver) with a profile of its own, no network services, 1400×1000."""
    missing = chromium_missing()
    if missing:
        pytest.skip(missing)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1000",
                f"--user-data-dir={tmp_path / 'chrome-profile'}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()
