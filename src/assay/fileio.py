"""File reading and atomic writing: the one place assay touches bytes on disk.

Every file assay writes goes through :func:`atomic_write_bytes`: the data is
written to a temporary file in the same directory, flushed and fsynced, then
renamed over the target.  A crash or Ctrl-C leaves either the old file or the
new one, never a truncated one (R-1.4).

The writer holds an exclusive ``flock`` on its temporary file from its making
until it is renamed (the kernel drops it when the writer ends, killed or
not), so that a temporary file is provably abandoned when that lock can be
taken: :func:`remove_if_abandoned` removes only such a file, and never one
another process, running at the same time, is writing.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson

from assay.errors import InputFileError

__all__ = [
    "atomic_append_bytes",
    "atomic_write_bytes",
    "atomic_write_chunks",
    "atomic_write_json",
    "has_non_finite",
    "atomic_write_text",
    "dumps_finite_json",
    "dumps_json",
    "iter_jsonl",
    "loads_json",
    "new_file_umask",
    "read_bytes",
    "read_json",
    "record_temporary_files",
    "remove_if_abandoned",
    "replace_dir",
    "to_jsonable",
]


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` atomically (temp file, fsync, rename).

    ``durable=False`` skips the fsync: the file is still never seen truncated
    after a crash of the process, but a power failure may lose it (logs).
    """
    atomic_write_chunks(path, (data,), durable=durable)


def atomic_write_chunks(path: str | os.PathLike[str], chunks: Iterable[bytes], *, durable: bool = True,
                        temp_suffix: str = ".tmp") -> None:
    """Write the concatenation of ``chunks`` to ``path`` atomically, never holding it whole.

    The chunks go to a temporary file beside ``path`` (``.<name>.<8 random characters><temp_suffix>``),
    renamed over ``path`` once complete.

    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / 'a.txt'
    >>> atomic_write_chunks(p, iter([b'ab', b'cd']))
    >>> p.read_bytes()
    b'abcd'
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _temporary_file(target, temp_suffix)
    try:
        os.fchmod(fd, _new_file_mode(target))
        with os.fdopen(fd, "wb") as fh:  # open (and locked) until it is renamed: never taken for abandoned
            for chunk in chunks:
                fh.write(chunk)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
            os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


#: The characters of a temporary file's random part (``tempfile``'s), and a table from a random byte to one of them.
_TEMP_CHARACTERS = b"abcdefghijklmnopqrstuvwxyz0123456789_"
_TEMP_TABLE = bytes(_TEMP_CHARACTERS[i % len(_TEMP_CHARACTERS)] for i in range(256))


#: The descriptor the names of the temporary files this process makes are written to, one a line, before each is
#: made (:func:`record_temporary_files`; ``None``: not written).
_RECORD: list[int | None] = [None]


def record_temporary_files(fd: int | None) -> None:
    """Write the path of every temporary file this process makes from now on to ``fd`` (one a line, before the
    file is made), so that another process can remove what it leaves when it is killed
    (:func:`remove_if_abandoned`); ``None``: no longer."""
    _RECORD[0] = fd


def _temporary_file(target: Path, suffix: str) -> tuple[int, str]:
    """A new file ``.<name>.<8 random characters><suffix>`` beside ``target``, created exclusively and
    readable by its owner only, as ``tempfile.mkstemp`` creates it, and locked (an exclusive ``flock``, where the
    file system has one) while it is still the file of that name: (its descriptor, its path)."""
    import fcntl

    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(10_000):
        tmp = os.path.join(target.parent, f".{target.name}.{os.urandom(8).translate(_TEMP_TABLE).decode()}{suffix}")
        if _RECORD[0] is not None:
            os.write(_RECORD[0], os.fsencode(tmp) + b"\n")
        try:
            fd = os.open(tmp, flags, 0o600)
        except FileExistsError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            mine = _same_file(fd, tmp)  # not taken for abandoned and removed between its making and its lock
        except BlockingIOError:  # a cleaner holds it, to remove it
            mine = False
        except OSError:  # a file system without locks: unlocked (no cleaner can prove it abandoned either)
            mine = True
        except BaseException:  # interrupted (SIGTERM, raised as an exception) before handing it over: not left behind
            try:
                with contextlib.suppress(OSError):  # still the file of that name: removed (no Python call meanwhile)
                    held, named = os.fstat(fd), os.lstat(tmp)
                    if (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino):
                        os.unlink(tmp)
            finally:
                os.close(fd)
            raise
        if mine:
            return fd, tmp
        os.close(fd)
    raise FileExistsError(f"no free name for a temporary file beside {target}")


def _same_file(fd: int, path: str) -> bool:
    """``path`` names the file open as ``fd``."""
    try:
        named = os.lstat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)


def remove_if_abandoned(path: str | os.PathLike[str]) -> bool:
    """Remove the atomic writer's temporary file ``path`` if no process is writing it (its lock can be taken:
    its writer ended, killed or not); whether it was removed.  A file whose lock cannot be known (a file
    system without ``flock``, or NFS, where ``flock`` is a POSIX lock that a read-only descriptor cannot take)
    is kept: it cannot be proved abandoned.  (Opened for writing, the lock would be taken on NFS, but a POSIX
    lock is the process's: the cleaner's would not conflict with a writer of its own process, and closing its
    descriptor would drop that writer's lock.)

    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / '.a.txt.ab_cd123.tmp'
    >>> _ = p.write_text('x')
    >>> remove_if_abandoned(p), p.exists()
    (True, False)
    """
    import fcntl

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:  # gone already (renamed into place, removed), or not a file to remove
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # being written (or no locks here): not abandoned as far as can be known
            return False
        if not _same_file(fd, os.fspath(path)):
            return False
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
            return True
        return False
    finally:
        os.close(fd)


def hold_folder(folder: str | os.PathLike[str]) -> tuple[int, str]:
    """Mark the temporary ``folder``, being filled, as written by this process: a file ``.writing.<8 random
    characters>.tmp`` in it, locked as the atomic writer locks its temporary files and held open until
    :func:`release_folder`; once its writer ended without releasing it (killed), the folder can be proved
    abandoned (:func:`remove_folder_if_abandoned`).  Returns (the mark's descriptor, its path)."""
    return _temporary_file(Path(folder) / "writing", ".tmp")


def release_folder(held: tuple[int, str]) -> None:
    """Remove the mark :func:`hold_folder` put in a folder (before the folder is put in its place) and close it."""
    fd, path = held
    try:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
    finally:
        os.close(fd)


#: The mark of a temporary folder being filled (:func:`hold_folder`).
_FOLDER_MARK = re.compile(r"^\.writing\.[A-Za-z0-9_]{8}\.tmp$")


def remove_folder_if_abandoned(folder: str | os.PathLike[str]) -> bool:
    """Remove the temporary ``folder`` if the process that filled it ended without putting it in its place: its
    mark (:func:`hold_folder`) is there and no process holds its lock; whether it was removed.  A folder without
    a mark (its writer has not marked it yet, or has released it to put it in place) is kept.

    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> held = hold_folder(d)
    >>> remove_folder_if_abandoned(d), d.exists()
    (False, True)
    >>> os.close(held[0])  # its writer gone, the mark left
    >>> remove_folder_if_abandoned(d), d.exists()
    (True, False)
    """
    import shutil

    try:
        marks = [entry.path for entry in os.scandir(folder) if _FOLDER_MARK.match(entry.name)]
    except OSError:
        return False
    for mark in marks:
        if remove_if_abandoned(mark):
            shutil.rmtree(folder, ignore_errors=True)
            return True
    return False


def _new_file_mode(target: Path) -> int:
    """The permission bits the file written to ``target`` gets: the replaced file's when there is one,
    else those ``open`` gives a new file (``0o666`` less the process's umask), not ``mkstemp``'s ``0o600``."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        return 0o666 & ~new_file_umask()


def new_file_umask() -> int:
    """The process's file-creation mask: from ``/proc/self/status`` where Linux gives it (reading it
    changes nothing), else by setting it and setting it back."""
    try:
        with open("/proc/self/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write_text(path: str | os.PathLike[str], text: str, *, durable: bool = True, temp_suffix: str = ".tmp") -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically (the temporary file's name ends with ``temp_suffix``:
    :func:`atomic_write_chunks`)."""
    atomic_write_chunks(path, (text.encode("utf-8"),), durable=durable, temp_suffix=temp_suffix)


def atomic_append_bytes(path: str | os.PathLike[str], data: bytes, *, durable: bool = True) -> None:
    """Append ``data`` to ``path`` (created when absent) atomically: the file is written again whole,
    so a crash leaves it as it was or with ``data`` appended, never with part of it.  Appends to
    files of one folder take turns (an exclusive ``flock`` on the folder, else on a lock file beside
    ``path`` where the file system cannot lock a folder), so that two processes appending to one file
    lose no row.

    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / 'a.csv'
    >>> atomic_append_bytes(p, b'a,b\\n'); atomic_append_bytes(p, b'1,2\\n')
    >>> p.read_bytes()
    b'a,b\\n1,2\\n'
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    with _folder_lock(target):
        try:
            old = target.read_bytes()
        except FileNotFoundError:
            old = b""
        atomic_write_chunks(target, (old, data), durable=durable)


@contextlib.contextmanager
def _folder_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path``'s folder (on NFS, which cannot lock a folder, on ``.<name>.lock``
    beside ``path``) while the block runs."""
    import fcntl

    fd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except OSError:  # a folder this file system cannot lock: a lock file of its own
        os.close(fd)
        fd = os.open(path.parent / f".{path.name}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield
    finally:
        os.close(fd)


def _exchange(a: Path, b: Path) -> bool:
    """Swap the names ``a`` and ``b`` in one step (Linux ``renameat2`` with ``RENAME_EXCHANGE``); ``False``
    where the system or the file system cannot."""
    import ctypes

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):  # not Linux, or a C library without it
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    at_cwd, exchange = -100, 2
    if renameat2(at_cwd, os.fsencode(a), at_cwd, os.fsencode(b), exchange) == 0:
        return True
    errno = ctypes.get_errno()
    if errno in (22, 38, 95):  # EINVAL, ENOSYS, EOPNOTSUPP: this file system or kernel cannot exchange
        return False
    raise OSError(errno, os.strerror(errno), os.fspath(b))


def replace_dir(fresh: str | os.PathLike[str], target: str | os.PathLike[str], *, aside_suffix: str = ".old") -> None:
    """Put the folder ``fresh`` (written whole beside ``target``, in the same folder) in ``target``'s place,
    so that ``target`` names a complete folder at every instant: the old one, then the new one.

    The two are exchanged in one step (``renameat2`` ``RENAME_EXCHANGE``), then the old one, now under
    ``fresh``'s name, is removed; a crash in between leaves ``target`` complete and a leftover folder
    under ``fresh``'s name.  Where the file system cannot exchange, the old folder is renamed aside first
    (so it is never removed before the new one is in place), into a folder
    ``.<name>.<8 random characters><aside_suffix>`` beside it.

    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / 'f').mkdir(); _ = (d / 'f' / 'old').write_text('1')
    >>> (d / 'n').mkdir(); _ = (d / 'n' / 'new').write_text('2')
    >>> replace_dir(d / 'n', d / 'f')
    >>> sorted(p.name for p in d.iterdir()), [p.name for p in (d / 'f').iterdir()]
    (['f'], ['new'])
    """
    import shutil
    import tempfile

    fresh, target = Path(fresh), Path(target)
    if not target.exists():
        os.rename(fresh, target)
        return
    if _exchange(fresh, target):
        shutil.rmtree(fresh, ignore_errors=True)
        return
    aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=aside_suffix, dir=target.parent))
    os.rename(target, aside / target.name)
    os.rename(fresh, target)
    shutil.rmtree(aside, ignore_errors=True)


def to_jsonable(obj: Any) -> Any:
    """Convert numpy scalars/arrays, sets, tuples, ranges and non-finite floats to JSON values.

    NaN and infinities have no JSON spelling; they are written as the strings
    ``"NaN"``, ``"Infinity"`` and ``"-Infinity"`` so that a reader never
    mistakes them for numbers.

    >>> to_jsonable({'a': float('nan'), 1: {2, 1}})
    {'a': 'NaN', '1': [1, 2]}
    """
    if obj is None or isinstance(obj, (str, bool, int)):
        return obj
    if isinstance(obj, float):
        if math.isfinite(obj):
            return obj
        return "NaN" if math.isnan(obj) else ("Infinity" if obj > 0 else "-Infinity")
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set, frozenset, range)):
        items = sorted(obj, key=repr) if isinstance(obj, (set, frozenset)) else obj
        return [to_jsonable(v) for v in items]
    # numpy without importing it
    tolist = getattr(obj, "tolist", None)
    if callable(tolist) and type(obj).__module__ == "numpy":
        return to_jsonable(tolist())
    item = getattr(obj, "item", None)
    if callable(item) and type(obj).__module__ == "numpy":
        return to_jsonable(item())
    return str(obj)


def _default(obj: Any) -> Any:
    # Called by orjson for values it cannot write itself; the result is written in their place.
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=repr)
    if isinstance(obj, range):
        return list(obj)
    if type(obj).__module__ == "numpy":
        return to_jsonable(obj)
    return str(obj)


_OPTIONS = orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_NON_STR_KEYS


def dumps_json(obj: Any, *, indent: bool = True) -> bytes:
    """Serialize to UTF-8 JSON bytes (non-ASCII kept, 2-space indent).

    Values JSON cannot spell are converted as by :func:`to_jsonable`, except
    non-finite floats, which orjson writes as ``null`` (see
    :func:`atomic_write_json` for the conversion that keeps them).  The output
    of a value does not depend on its neighbours, so pieces serialized apart
    can be spliced together.

    >>> dumps_json({'a': (1, 2), 'b': {3}}, indent=False)
    b'{"a":[1,2],"b":[3]}'
    """
    option = _OPTIONS | (orjson.OPT_INDENT_2 if indent else 0)
    try:
        return orjson.dumps(obj, default=_default, option=option)
    except orjson.JSONEncodeError as exc:
        if exc.__cause__ is not None:  # raised by a value's own conversion
            raise exc.__cause__ from None
        raise


def atomic_write_json(path: str | os.PathLike[str], obj: Any, *, durable: bool = True) -> None:
    """Write ``obj`` as JSON atomically; non-finite floats become strings (see :func:`to_jsonable`)."""
    atomic_write_bytes(path, dumps_finite_json(obj) + b"\n", durable=durable)


def dumps_finite_json(obj: Any, *, indent: bool = True) -> bytes:
    """:func:`dumps_json`, keeping NaN and infinities as the strings ``"NaN"``, ``"Infinity"``, ``"-Infinity"``.

    orjson writes a non-finite float as ``null``; only when the output holds a
    ``null`` is the object walked to find out whether one was there, so the
    common case serializes once and walks nothing.

    >>> dumps_finite_json([float('inf'), None]).split()
    [b'[', b'"Infinity",', b'null', b']']
    """
    data = dumps_json(obj, indent=indent)
    if b"null" in data and _has_non_finite(obj):
        data = dumps_json(_finite(obj), indent=indent)
    return data


def has_non_finite(obj: Any) -> bool:
    """True when ``obj`` (nested dicts, lists, tuples) holds a NaN or an infinity.

    >>> has_non_finite({'a': [1.0, float('nan')]}), has_non_finite({'a': None})
    (True, False)
    """
    return _has_non_finite(obj)


_PLAIN = frozenset({str, int, bool, type(None)})
_NUMBERS = frozenset({float, int, bool})


def _has_non_finite(obj: Any) -> bool:
    # a walk with a stack rather than recursion; a list of plain numbers is added up at C speed
    # (math.fsum gives a finite sum exactly when every term is finite, or fails)
    stack = [obj]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is float:
            if not math.isfinite(value):
                return True
        elif kind in _PLAIN:
            continue
        elif kind is dict:
            stack.extend(value.values())
        elif kind is list or kind is tuple:
            types = set(map(type, value))
            if types <= _PLAIN:  # texts, integers, flags (a statistics file's sample ids): nothing to look at
                continue
            if types <= _NUMBERS:
                try:
                    if math.isfinite(math.fsum(value)):
                        continue
                    return True
                except ValueError:  # inf - inf
                    return True
                except OverflowError:  # finite terms too large to add up, or a huge int: looked at one by one
                    pass
            stack.extend(value)
        elif isinstance(value, float):
            if not math.isfinite(value):
                return True
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
    return False


def _finite(obj: Any) -> Any:
    # orjson would write NaN as null; keep the information instead.
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else to_jsonable(obj)
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


def read_bytes(path: str | os.PathLike[str], *, what: str = "file") -> bytes:
    """A file's bytes; a missing, directory or unreadable path is an :class:`InputFileError` naming ``what`` and the file.

    Reads with ``os.read``, about twice as fast as ``open().read()`` for the many
    small files of a summary.
    """
    p = os.fspath(path)
    try:
        fd = os.open(p, os.O_RDONLY)
        try:
            data = os.read(fd, _SMALL_READ)
            if len(data) < _SMALL_READ:
                return data
            chunks = [data]
            while chunk := os.read(fd, 1 << 22):
                chunks.append(chunk)
            return b"".join(chunks)
        finally:
            os.close(fd)
    except FileNotFoundError:
        raise InputFileError(f"{what} {p} does not exist") from None
    except IsADirectoryError:
        raise InputFileError(f"{what} {p} is a directory, not a file") from None
    except OSError as exc:
        raise InputFileError(f"{what} {p} cannot be read: {exc}") from None


_SMALL_READ = 1 << 16


def loads_json(data: bytes) -> Any:
    """Parse JSON with orjson, accepting the ``NaN``/``Infinity`` literals some Python tools write
    (through the standard library); ``ValueError`` with orjson's message when it is not JSON.

    >>> loads_json(b'{"a": NaN}')
    {'a': nan}
    """
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        import json

        try:
            return json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ValueError(str(exc)) from None


def iter_jsonl(lines: Iterable[bytes], *, what: str, path: str | os.PathLike[str]) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` of each non-blank JSON line; a line that is not JSON is an
    :class:`InputFileError` naming ``what``, the file and the line.

    >>> list(iter_jsonl([b'{"a": 1}', b'', b'2'], what='file', path='x.jsonl'))
    [(1, {'a': 1}), (3, 2)]
    """
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise InputFileError(f"{what} {os.fspath(path)}, line {lineno}: not valid JSON ({exc})") from None
        yield lineno, value


def read_json(path: str | os.PathLike[str], *, what: str = "JSON file") -> Any:
    """Read a JSON file; errors name the file and the position of the problem.

    ``NaN``/``Infinity`` literals (written by some Python tools) are accepted.
    """
    data = read_bytes(path, what=what)
    try:
        return loads_json(data)
    except ValueError as exc:
        if not data.strip():
            raise InputFileError(f"{what} {os.fspath(path)} is empty") from None
        raise InputFileError(f"{what} {os.fspath(path)} is not valid JSON: {exc}") from None
