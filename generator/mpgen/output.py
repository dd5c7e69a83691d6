"""Writing an output folder: all files or none, and never a file mpgen did not write.

The folder's mpgen_manifest.json is mpgen's record there: the modules it generated and
their files. A run adds its modules to the record (replacing those of the same name);
with `clean`, the record's other modules and their files are removed. A file that is in
the way and not in the record (a user's own, or one of an mpgen without a record) is
never overwritten: the run is refused before anything is written.

A run stages its files in a folder of its own in the output folder (.mpgen-XXXXXXXX),
locked while the run lives; a later run removes those of runs that were killed.
"""
from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from . import names
from .printers import manifest
from .errors import RequestError


class OutputError(Exception):
    """Reading or writing the output folder failed (exit status 1); one line."""


def _reason(e: OSError) -> str:
    return e.strerror or str(e)


def read_record(out: Path, name: str = names.MANIFEST, where: str = "--out") -> list[dict]:
    """The modules of the folder's record; none where there is no record. `where` names
    the option that gave the folder, for messages."""
    path = out / name
    try:
        if not path.exists() and not path.is_symlink():
            return []
        record = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise OutputError(f"{where}: cannot read {str(path)!r}: {_reason(e)}") from None
    except ValueError:
        record = None
    if not isinstance(record, dict) or record.get("schema") not in manifest.RECORD_SCHEMAS or \
            not isinstance(record.get("modules"), list) or \
            not all(isinstance(m, dict) and isinstance(m.get("files", {}), dict) and
                    all(_plain(f) for f in m.get("files", {}).values()) for m in record["modules"]):
        advice = "move it away or choose another folder" if where == "--out" else \
            f"give the {names.MANIFEST} of a folder that mpgen generate wrote"
        raise RequestError(f"{where}: {str(path)!r} is not a record of this mpgen (schema "
                           f"{manifest.SCHEMA}); {advice}")
    return record["modules"]


def read_manifest(path: Path) -> list[dict]:
    """The modules of a manifest that `mpgen table` reads: it must be there."""
    try:
        if not path.exists():
            raise OutputError(f"table: cannot read {str(path)!r}: no such file")
    except OSError as e:  # a name too long, say
        raise OutputError(f"table: cannot read {str(path)!r}: {_reason(e)}") from None
    return read_record(path.parent, path.name, "table")


def _plain(name: object) -> bool:
    """A file name in the folder itself: what a record may list (and so remove)."""
    return isinstance(name, str) and name.startswith("mpgen_") and "/" not in name and "\\" not in name


def module_files(module: dict) -> set[str]:
    return set(module.get("files", {}).values())


def compile_ptx(staging: Path, contracts: list[dict], arch: str) -> None:
    """nvcc -ptx of each module's kernels source, in staging."""
    nvcc = shutil.which("nvcc")
    if not nvcc:
        raise RequestError("--ptx: nvcc was not found; install the CUDA toolkit, or use "
                           "--kernels and compile the sources yourself")
    for contract in contracts:
        files = contract["files"]
        done = subprocess.run([nvcc, "-ptx", f"-arch={arch}", "-o", files["ptx"], files["kernels"]],
                              cwd=staging, capture_output=True, text=True)
        if done.returncode:
            first = (done.stderr.strip().splitlines() or ["(no message)"])[0]
            raise RequestError(f"--ptx: nvcc failed on {files['kernels']} for {arch}: {first}")


# A run's staging folder: tempfile.mkdtemp's name, the prefix and 8 characters.
STAGING_PREFIX = ".mpgen-"
STAGING = re.compile(r"\.mpgen-[a-z0-9_]{8}")
STARTED = time.time()  # this run's start: a staging folder made since is a live run's


class Changes(NamedTuple):
    """What a run does to its output folder."""

    kept: list[dict]        # the record's modules that stay
    writing: set[str]       # the files it writes (besides the record)
    stale: list[str]        # with clean: the record's files it no longer lists, removed
    abandoned: list[Path]   # staging folders of killed runs, removed


def changes(out: Path, contracts: list[dict], clean: bool = False) -> Changes:
    """What writing the contracts' modules into out changes there; refused (before anything
    is written) where out is no folder or a file in the way is not one mpgen wrote."""
    try:
        return _changes(out, contracts, clean)
    except OSError as e:  # a name too long, say
        raise OutputError(f"--out: cannot write to {str(out)!r}: {_reason(e)}") from None


def _changes(out: Path, contracts: list[dict], clean: bool) -> Changes:
    if out.is_symlink() and not out.exists():
        raise OutputError(f"--out: {str(out)!r} is a symbolic link to {os.readlink(out)!r}, which does "
                          "not exist; create that folder or give another")
    if out.exists() and not out.is_dir():
        raise OutputError(f"--out: {str(out)!r} is not a directory; give a directory")
    old = read_record(out) if out.is_dir() else []
    new_names = {c["name"] for c in contracts}
    kept = [] if clean else [m for m in old if m.get("name") not in new_names]
    recorded = set().union(*(module_files(m) for m in old))
    ours = recorded | {names.MANIFEST}
    writing = set().union(*(module_files(c) for c in contracts))
    for name in sorted(writing):
        target = out / name
        if target.is_symlink() or (target.exists() and not target.is_file()):
            raise RequestError(f"--out: {str(target)!r} is in the way and is not a file mpgen "
                               "wrote; move it away or choose another folder")
        if target.exists() and name not in ours:
            raise RequestError(f"--out: {str(target)!r} exists and mpgen's record "
                               f"({names.MANIFEST}) does not list it; move it away or choose "
                               "another folder")
    stale = sorted(recorded - writing) if clean else []
    abandoned = sorted(p for p in out.iterdir() if STAGING.fullmatch(p.name) and _abandoned(p)) \
        if out.is_dir() else []
    return Changes(kept, writing, stale, abandoned)


def _abandoned(folder: Path) -> bool:
    """Whether a staging folder's run is gone: it holds mpgen's files only (no user's folder
    of a name alike), no process holds its lock (the kernel drops a killed one's), and it is
    older than this run (a run locks its folder just after making it)."""
    try:
        if folder.is_symlink() or not folder.is_dir() or folder.stat().st_mtime >= STARTED or \
                not all(_plain(f.name) and f.is_file() and not f.is_symlink() for f in folder.iterdir()):
            return False
        lock = os.open(folder, os.O_RDONLY)
    except OSError:  # removed meanwhile, or not ours to read
        return False
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(lock)


def _staging(out: Path) -> tuple[Path, int]:
    """A new staging folder in out and its lock, held until this process ends, however it
    ends."""
    staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=out))
    lock = os.open(staging, os.O_RDONLY)
    fcntl.flock(lock, fcntl.LOCK_EX)
    return staging, lock


def write(out: Path, files: dict[str, str], contracts: list[dict], ptx_arch: str | None = None,
          clean: bool = False) -> None:
    """Writes the files and the record into out, each file atomically (written beside,
    then renamed); on any failure before the renames, nothing in out has changed."""
    planned = changes(out, contracts, clean)
    created = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
        staging, lock = _staging(out)
    except OSError as e:
        raise OutputError(f"--out: cannot write to {str(out)!r}: {_reason(e)}") from None
    try:
        try:
            _stage(staging, files, contracts, planned.kept, ptx_arch)
        except OSError as e:
            raise OutputError(f"--out: cannot write to {str(out)!r}: {_reason(e)}") from None
    except BaseException:
        shutil.rmtree(out if created else staging, ignore_errors=True)
        os.close(lock)
        raise
    try:
        for folder in planned.abandoned:
            shutil.rmtree(folder, ignore_errors=True)
        for name in planned.stale:  # before the record: a file it lists may be missing
            (out / name).unlink(missing_ok=True)
        os.replace(staging / names.MANIFEST, out / names.MANIFEST)
        for name in sorted(planned.writing):
            os.replace(staging / name, out / name)
    except OSError as e:
        raise OutputError(f"--out: cannot replace files in {str(out)!r}: {_reason(e)}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        os.close(lock)


def _stage(staging: Path, files: dict[str, str], contracts: list[dict], kept: list[dict],
           ptx_arch: str | None) -> None:
    for name, text in files.items():
        (staging / name).write_text(text, encoding="utf-8")
    if ptx_arch:
        compile_ptx(staging, contracts, ptx_arch)
    (staging / names.MANIFEST).write_text(manifest.text(manifest.document(kept + contracts)),
                                          encoding="utf-8")


def write_generated_file(path: Path, text: str, mark: str) -> None:
    """Writes one generated file atomically; an existing file is replaced only where it
    holds `mark` (mpgen wrote it)."""
    try:
        if path.exists():
            with path.open(encoding="utf-8", errors="replace") as existing:
                if mark not in existing.read(4096):
                    raise RequestError(f"--out: {str(path)!r} exists and mpgen did not write it; "
                                       "move it away or choose another path")
        handle, staging_name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        os.close(handle)
        staging = Path(staging_name)
        try:
            staging.write_text(text, encoding="utf-8")
            os.replace(staging, path)
        finally:
            staging.unlink(missing_ok=True)
    except OSError as e:
        raise OutputError(f"--out: cannot write {str(path)!r}: {_reason(e)}") from None
