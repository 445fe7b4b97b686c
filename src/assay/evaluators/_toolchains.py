"""Language toolchains for programs run in the sandbox: where they are, what they need (private).

A compiled or non-Python program is run in :mod:`assay.sandbox` by a small
Python *driver* that writes the source into the run's private working
directory and calls the toolchain there (compiler, test runner, interpreter),
each step with a time limit of its own.  The sandbox shows ``/usr``, ``/bin``
and ``/lib`` read-only; a toolchain is found on this process's ``PATH`` and
called by its resolved path (Debian reaches ``javac`` and ``java`` through
``/etc/alternatives``, which the sandbox does not show), and what a toolchain
keeps outside ``/usr`` (a JDK's configuration under ``/etc``) is shown
read-only at its own path.  A tool is taken from the first ``PATH`` folder
whose copy resolves into a folder the sandbox shows (:func:`which_shown`): a
per-user install first on ``PATH`` (nvm's ``node``, sdkman's JDK, rustup's
``rustc``), which programs in the sandbox could not call, is passed over.

Each toolchain names the Debian package that provides it: a missing one makes
the programs that need it unscorable, saying which package to install, and
leaves every other program alone.

Go: tests import ``github.com/stretchr/testify/assert``, which is read from
Debian's Go source tree (``/usr/share/gocode``, the package
``golang-github-stretchr-testify-dev``) in GOPATH mode; the sandbox has no
network.  Compiling testify takes seconds, so its compiled objects are built
once, outside the sandbox from a test file of assay's own, into a build cache
under ``~/.cache/assay`` (``$XDG_CACHE_HOME/assay``), and each run starts from a
copy of that cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

logger = logging.getLogger(__name__)

__all__: list[str] = []

#: Go packages the warm build cache is made with (those HumanEval-X's tests and programs import).
GO_WARM_PACKAGES = ("math", "strings", "fmt", "strconv", "time", "bytes", "regexp", "sort", "math/rand", "crypto/md5")
#: Where Debian installs Go sources of packaged libraries (GOPATH layout).
DEBIAN_GOPATH = "/usr/share/gocode"
TESTIFY = "github.com/stretchr/testify/assert"


@dataclass(frozen=True)
class Toolchain:
    """What one language needs, resolved on this machine.

    ``tools``: name → resolved absolute path; ``missing``: a message naming
    what is missing and the Debian package to install (empty when ready);
    ``roots``: folders outside ``/usr`` the sandbox must show; ``env``: the
    environment of the toolchain's steps in the sandbox; ``go_cache``: the warm
    Go build cache to copy, when there is one.
    """

    language: str
    tools: dict[str, str] = field(default_factory=dict)
    missing: str = ""
    roots: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    go_cache: str = ""


#: language → (tool name, Debian package) pairs it needs.
_NEEDS: dict[str, tuple[tuple[str, str], ...]] = {
    "cpp": (("g++", "g++"),),
    "java": (("javac", "default-jdk-headless"), ("java", "default-jdk-headless")),
    "js": (("node", "nodejs"),),
    "go": (("go", "golang-go"),),
}

#: The folders the sandbox shows: a tool found elsewhere on PATH (a per-user install) is passed over.
_SHOWN = ("/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/")

_lock = threading.Lock()
_resolved: dict[tuple[str, str], Toolchain] = {}


def toolchain(language: str) -> Toolchain:
    """The toolchain of ``language`` (``'cpp'``, ``'java'``, ``'js'``, ``'go'``), resolved on this ``PATH`` (cached per PATH).

    Example:
        >>> tc = toolchain('cpp')
        >>> bool(tc.tools) != bool(tc.missing)
        True
    """
    key = (language, os.environ.get("PATH", ""))
    with _lock:
        if key not in _resolved:
            _resolved[key] = _resolve(language)
        return _resolved[key]


def which_shown(tool: str) -> tuple[str | None, str | None]:
    """``tool``'s resolved path in the first ``PATH`` folder whose copy resolves into a folder the sandbox shows.

    Returns ``(path, None)``, or ``(None, elsewhere)`` with the first copy found outside those folders (``None`` when
    there is none at all).

    Example:
        >>> which_shown('no-such-tool-here')
        (None, None)
    """
    elsewhere = None
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        found = shutil.which(tool, path=folder) if folder else None
        if found is None:
            continue
        real = os.path.realpath(found)
        if real.startswith(_SHOWN):
            return real, None
        elsewhere = elsewhere or real
    return None, elsewhere


def _resolve(language: str) -> Toolchain:
    tools: dict[str, str] = {}
    absent: list[str] = []
    for tool, package in _NEEDS[language]:
        found, elsewhere = which_shown(tool)
        if found is None:
            outside = "" if elsewhere is None else f" ({elsewhere} is outside the folders the sandbox shows)"
            absent.append(f"{tool}{outside} (Debian package {package})")
        else:
            tools[tool] = found
    if absent:
        return Toolchain(language, missing=f"{language}: {', '.join(absent)} not found on PATH; install it "
                                            f"(apt-get install {' '.join(sorted({p for t, p in _NEEDS[language] if t not in tools}))})")
    if language == "java":
        return Toolchain(language, tools, roots=tuple(java_config_roots(Path(tools["javac"]).parent.parent)))
    if language == "js":
        return Toolchain(language, tools, env={"NODE_PATH": "/usr/local/lib/node_modules:/usr/lib/node_modules:/usr/share/nodejs"})
    if language == "go":
        return _go(tools)
    return Toolchain(language, tools)


def java_config_roots(home: Path) -> list[str]:
    """Folders outside ``/usr`` that the symbolic links of a JDK's top levels lead to (its configuration under ``/etc``)."""
    found: set[str] = set()
    for folder in (home, home / "lib", home / "conf"):
        with contextlib.suppress(OSError):
            for entry in folder.iterdir():
                if not entry.is_symlink():
                    continue
                target = os.path.realpath(entry)
                if target.startswith("/usr/") or not os.path.exists(target):
                    continue
                if target.startswith("/etc/"):
                    found.add("/etc/" + target.split("/")[2])
    return sorted(found)


def _go(tools: dict[str, str]) -> Toolchain:
    go = tools["go"]
    env = {"GO111MODULE": "off", "GOPATH": DEBIAN_GOPATH, "GOFLAGS": "", "GOTOOLCHAIN": "local", "GOPROXY": "off"}
    if not (Path(DEBIAN_GOPATH) / "src" / TESTIFY).is_dir():
        return Toolchain("go", tools, missing=f"go: the test library {TESTIFY} is not under {DEBIAN_GOPATH}; install it "
                                               "(apt-get install golang-github-stretchr-testify-dev)")
    return Toolchain("go", tools, env=env, go_cache=_warm_go_cache(go, env) or "")


def _cache_home() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "assay"


def _warm_go_cache(go: str, env: dict[str, str]) -> str | None:
    """A Go build cache holding testify and the usual standard packages compiled, or ``None`` (runs then compile cold)."""
    try:
        version = subprocess.run([go, "version"], capture_output=True, text=True, timeout=60, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError) as exc:
        logger.warning("go version failed (%s): Go programs compile without a warm build cache", exc)
        return None
    tag = hashlib.sha256(f"{version}\n{go}\n{sorted(GO_WARM_PACKAGES)}".encode()).hexdigest()[:16]
    home = _cache_home()
    target = home / f"go-build-{tag}"
    if target.is_dir():
        return str(target)
    for replaced in ("/tmp", "/proc", "/dev"):
        if str(home.resolve()).startswith(replaced + "/"):
            logger.warning("the cache folder %s is under %s, which the sandbox replaces: Go programs compile cold", home, replaced)
            return None
    try:
        home.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".go-build-", dir=home))
    except OSError as exc:
        logger.warning("cannot make a Go build cache under %s (%s): Go programs compile cold", home, exc)
        return None
    try:
        cache = work / "cache"
        src = work / "src"
        src.mkdir()
        imports = "\n".join(f'    _ "{p}"' for p in GO_WARM_PACKAGES)
        (src / "warm_test.go").write_text(
            f'package main\n\nimport (\n    "testing"\n    "github.com/stretchr/testify/assert"\n{imports}\n)\n\n'
            "func TestWarm(t *testing.T) {\n    assert.New(t).Equal(1, 1)\n}\n"
        )
        run_env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(work), "GOCACHE": str(cache), **env}
        done = subprocess.run([go, "test", "warm_test.go"], cwd=src, env=run_env, capture_output=True, text=True, timeout=600, check=False)
        if done.returncode != 0:
            logger.warning("building the warm Go cache failed: %s", (done.stderr or done.stdout).strip()[-300:])
            return None
        for dirpath, _dirnames, filenames in os.walk(cache):
            os.chmod(dirpath, 0o755)
            for name in filenames:
                os.chmod(os.path.join(dirpath, name), 0o644)
        os.chmod(work, 0o755)
        try:
            cache.rename(target)
        except OSError:  # another process made it meanwhile
            if not target.is_dir():
                return None
        return str(target)
    except (OSError, subprocess.SubprocessError) as exc:
        logger.warning("building the warm Go cache failed: %s", exc)
        return None
    finally:
        shutil.rmtree(work, ignore_errors=True)
