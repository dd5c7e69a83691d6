"""mpgen: generator of straight-line multi-precision integer kernels for NVIDIA GPUs.

From Python: mpgen.compile(bits, ops), mpgen.field(name or modulus=p), mpgen.rns_set(count)
and mpgen.gf_field(k) give modules whose operations run on batches (see mpgen.runtime)."""

from .version import __version__

__all__ = ["CompileError", "Module", "OperandError", "Operation", "RequestError", "compile", "field", "gf_field",
           "rns_set"]


def __getattr__(name: str):
    """mpgen.compile, mpgen.field, ...: the Python runtime (mpgen.runtime), imported when first
    used, so that the generator's command line does not load NumPy."""
    if name in __all__:
        from . import runtime  # lazy for NumPy's load time, not for a cycle (tests/python/test_imports.py)
        return getattr(runtime, name)
    raise AttributeError(f"module 'mpgen' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public API, not the generator's submodules."""
    return sorted([*__all__, "__version__"])
