"""Writing an output folder: all files or none, and never a file mpgen did not write.

The folder's mpgen_manifest.json is mpgen's record there: the modules it generated and
their files. A run adds its modules to the record (replacing those of the same name);
with `clean`, the record's other modules and their files are removed. A file that is in
the way and not in the record (a user's own, or one of an mpgen without a record) is
never overwritten: the run is refused before anything is written.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import names
from .printers import manifest
from .request import RequestError


class OutputError(Exception):
    """Reading or writing the output folder failed (exit status 1); one line."""


def _reason(e: OSError) -> str:
    return e.strerror or str(e)


def read_record(out: Path, name: str = names.MANIFEST) -> list[dict]:
    """The modules of the folder's record; none where there is no record."""
    path = out / name
    if not path.exists() and not path.is_symlink():
        return []
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise OutputError(f"--out: cannot read {str(path)!r}: {_reason(e)}") from None
    except ValueError:
        record = None
    if not isinstance(record, dict) or record.get("schema") not in manifest.RECORD_SCHEMAS or \
            not isinstance(record.get("modules"), list) or \
            not all(isinstance(m, dict) and isinstance(m.get("files", {}), dict) and
                    all(_plain(f) for f in m.get("files", {}).values()) for m in record["modules"]):
        raise RequestError(f"--out: {str(path)!r} is not a record of this mpgen (schema "
                           f"{manifest.SCHEMA}); move it away or choose another folder")
    return record["modules"]


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


def write(out: Path, files: dict[str, str], contracts: list[dict], ptx_arch: str | None = None,
          clean: bool = False) -> None:
    """Writes the files and the record into out, each file atomically (written beside,
    then renamed); on any failure before the renames, nothing in out has changed."""
    if out.exists() and not out.is_dir():
        raise OutputError(f"--out: {str(out)!r} is not a directory; give a directory")
    old = read_record(out) if out.is_dir() else []
    new_names = {c["name"] for c in contracts}
    kept = [] if clean else [m for m in old if m.get("name") not in new_names]
    recorded = set().union(*(module_files(m) for m in old))
    ours = recorded | {names.MANIFEST}
    writing = set().union(*(module_files(c) for c in contracts))
    stale = recorded - writing if clean else set()

    for name in sorted(writing):
        target = out / name
        if target.is_symlink() or (target.exists() and not target.is_file()):
            raise RequestError(f"--out: {str(target)!r} is in the way and is not a file mpgen "
                               "wrote; move it away or choose another folder")
        if target.exists() and name not in ours:
            raise RequestError(f"--out: {str(target)!r} exists and mpgen's record "
                               f"({names.MANIFEST}) does not list it; move it away or choose "
                               "another folder")

    created = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".mpgen-", dir=out))
    except OSError as e:
        raise OutputError(f"--out: cannot write to {str(out)!r}: {_reason(e)}") from None
    try:
        try:
            _stage(staging, files, contracts, kept, ptx_arch)
        except OSError as e:
            raise OutputError(f"--out: cannot write to {str(out)!r}: {_reason(e)}") from None
    except BaseException:
        shutil.rmtree(out if created else staging, ignore_errors=True)
        raise
    try:
        for name in sorted(stale):  # before the record: a file it lists may be missing
            (out / name).unlink(missing_ok=True)
        os.replace(staging / names.MANIFEST, out / names.MANIFEST)
        for name in sorted(writing):
            os.replace(staging / name, out / name)
    except OSError as e:
        raise OutputError(f"--out: cannot replace files in {str(out)!r}: {_reason(e)}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


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
