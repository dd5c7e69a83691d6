"""A module on the CPU: its kernels source compiled by the host's C++ compiler ($MPGEN_CXX, else
c++) into a shared library, as the C++ runtime's on-demand path does, cached under
$MPGEN_CACHE (else $XDG_CACHE_HOME/mpgen or ~/.cache/mpgen) by a hash of the generator's own
files, the compiler, its options and the source itself, written atomically beside its
checksum, and called through ctypes."""
from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import shlex
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from ..printers.cuda import arrays_results
from ..errors import RequestError
from .source import Source

# -O1 as the runtime's built-in modules (CMakeLists.txt): the long straight-line host
# functions compile in about two thirds of -O2's time (and a quarter of -O3's).
OPTIONS = ("-O1", "-std=c++17", "-shared", "-fPIC", "-DMPGEN_ARRAYS_ENTRIES")
# What makes a source, in any folder: code, templates, data, headers (the C++ runtime's
# makes_kernels, runtime/src/ondemand.cpp, takes the same).
GENERATOR_FILES = ("*.py", "*.j2", "*.toml", "*.cuh")


class CompileError(RuntimeError):
    """The compiler (host or NVRTC) failed on a generated source."""


def cache_dir() -> Path:
    for variable, below in (("MPGEN_CACHE", ()), ("XDG_CACHE_HOME", ("mpgen",))):
        if os.environ.get(variable):
            return Path(os.environ[variable], *below)
    return Path.home() / ".cache" / "mpgen"


def compiler() -> list[str]:
    return shlex.split(os.environ.get("MPGEN_CXX") or "c++")


def content_hash(root: Path) -> str:
    """A hash of the generator's files under root, each by its path and bytes."""
    digest = hashlib.sha256()
    for path in sorted({p for pattern in GENERATOR_FILES for p in root.rglob(pattern)}):
        data = path.read_bytes()
        digest.update(f"{path.relative_to(root).as_posix()}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


@functools.cache
def generator_fingerprint() -> str:
    """This package's content_hash, once a process (a few milliseconds): part of the cache key,
    so that a changed generator never loads an old library."""
    return content_hash(Path(__file__).resolve().parents[1])


def _umask() -> int:
    """The process's umask, read without setting it (os.umask would, for every thread)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    return 0o022


def _version(command: list[str]) -> str:
    """The compiler's own account of itself (`--version`): part of the cache key, so that
    another or an upgraded compiler builds afresh."""
    try:
        return subprocess.run([*command, "--version"], capture_output=True, text=True).stdout
    except OSError as e:
        raise CompileError(f"cannot start the C++ compiler {command[0]!r} (MPGEN_CXX): {e.strerror}") from None


def _checksum_file(entry: Path) -> Path:
    return entry.with_name(entry.name + ".sha256")


def _checksum(path: Path | str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _whole(entry: Path) -> bool:
    """Whether entry is there with the bytes its checksum was written for. A cut or damaged
    library is never loaded: dlopen would map it, and the first touch of a missing page kills
    the process (SIGBUS)."""
    try:
        return _checksum_file(entry).read_text() == _checksum(entry)
    except OSError:
        return False


def _beside(entry: Path) -> str:
    """A new empty file in entry's folder, to be renamed over it (a reader sees no entry or a
    whole one); the folder is made where missing."""
    folder = entry.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=entry.name + ".tmp-", dir=folder)
    except (FileExistsError, NotADirectoryError):
        raise RequestError(f"the cache folder {str(folder)!r} is not a folder; set MPGEN_CACHE to a folder you may "
                           "write") from None
    except OSError as e:
        raise RequestError(f"the cache folder {str(folder)!r} cannot be written ({e.strerror}); set MPGEN_CACHE to "
                           "a folder you may write") from None
    os.close(fd)
    return temporary


def library(source: Source, rebuild: bool = False) -> Path:
    """The cached library of source, compiled first where the cache has no whole one (or rebuild)."""
    command = compiler()
    key = "\0".join([generator_fingerprint(), *command, _version(command), *OPTIONS, source.header_name,
                     source.header, source.kernels])
    entry = cache_dir() / f"{source.contract['name']}-{hashlib.sha256(key.encode()).hexdigest()[:24]}.so"
    if rebuild or not _whole(entry):
        _build(source, command, entry)
    return entry


def _build(source: Source, command: list[str], entry: Path) -> None:
    """Compiles source into the cache as entry, then its checksum beside it, each written whole
    and renamed into place (an entry without its checksum is built again)."""
    built = _beside(entry)  # first: a cache that cannot be written fails before the compiler runs
    try:
        _compile(source, command, built)
        os.chmod(built, 0o755 & ~_umask())  # as the compiler's own output would be
        checksum = _checksum(built)
        os.replace(built, entry)
    finally:
        if os.path.exists(built):
            os.unlink(built)
    _write_whole(_checksum_file(entry), checksum)


def _write_whole(path: Path, text: str) -> None:
    temporary = _beside(path)
    try:
        Path(temporary).write_text(text)
        os.chmod(temporary, 0o644 & ~_umask())  # readable where the library is
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _compile(source: Source, command: list[str], output: str) -> None:
    with tempfile.TemporaryDirectory(prefix="mpgen-compile-") as work:
        (Path(work) / source.header_name).write_text(source.header)
        kernels = Path(work) / "kernels.cpp"
        kernels.write_text(source.kernels)
        try:
            done = subprocess.run([*command, *OPTIONS, "-o", output, str(kernels)], capture_output=True, text=True)
        except OSError as e:
            raise CompileError(f"cannot start the C++ compiler {command[0]!r} (MPGEN_CXX): {e.strerror}") from None
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if "error" in line] or [f"exit status {done.returncode}"]
        raise CompileError(f"compiling {source.header_name} with {command[0]} failed: {lines[0]}")


def _on_host(array) -> np.ndarray:
    """A C-contiguous uint32 NumPy array of array (a CuPy one copied from the GPU)."""
    return np.ascontiguousarray(array.get() if hasattr(array, "get") else array, dtype=np.uint32)


class CpuModule:
    """The module's host batch functions: fn(n, layout, in, out) over host memory."""
    device = "cpu"
    array_type = np.ndarray

    @staticmethod
    def misaligned(array: np.ndarray) -> bool:
        return False  # the host functions read word by word

    def __init__(self, source: Source) -> None:
        try:
            self._library = ctypes.CDLL(str(library(source)))
        except OSError:  # a whole entry that does not load (another machine's): made afresh
            self._library = ctypes.CDLL(str(library(source, rebuild=True)))
        self._functions = {}
        for op in source.contract["operations"]:
            # the arrays entry where the operation has one: n, the layout, then a pointer an array
            arrays = len(op["operands"]) + arrays_results(op) if op["arrays_kernel"] else 2
            fn = getattr(self._library, op["arrays_kernel"] or op["kernel"])
            fn.argtypes = (ctypes.c_size_t, ctypes.c_int, *[ctypes.c_void_p] * arrays)
            fn.restype = None
            self._functions[op["name"]] = fn
        transform = (source.contract.get("gf") or {}).get("fft")
        if transform:  # whole transforms in place: n, count, inverse, the points
            self._transform = getattr(self._library, transform["host"])
            self._transform.argtypes = (ctypes.c_size_t, ctypes.c_size_t, ctypes.c_int, ctypes.c_void_p)
            self._transform.restype = ctypes.c_int

    def run_arrays(self, op: dict, n: int, layout: int, inputs: list, outputs: list) -> None:
        """op's arrays entry over n instances: inputs and outputs C-contiguous, on the host."""
        inputs = [_on_host(a) for a in inputs]
        if n:
            self._functions[op["name"]](n, layout, *[a.ctypes.data for a in inputs + outputs])

    def run(self, op: dict, n: int, layout: int, words: np.ndarray) -> np.ndarray:
        """The out words of op over n instances whose in words are `words` (in the layout's
        orientation: (n, in_words) contiguous, (in_words, n) interleaved)."""
        words = _on_host(words)
        shape = (n, op["out_words"]) if layout == 1 else (op["out_words"], n)
        out = np.empty(shape, dtype=np.uint32)
        if n:
            self._functions[op["name"]](n, layout, words.ctypes.data, out.ctypes.data)
        return out

    def transform(self, fft: dict, n: int, count: int, inverse: bool, points) -> np.ndarray:
        """count FFTs of n points (the rows of points, (count n, 2k)): a new array."""
        out = np.array(_on_host(points), copy=True)
        if self._transform(n, count, int(inverse), out.ctypes.data) != 0:
            raise ValueError(f"fft: {n} points is no length of this field's transforms")
        return out
