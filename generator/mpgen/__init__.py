"""mpgen: generator of straight-line multi-precision integer kernels for NVIDIA GPUs."""

__version__ = "0.1.0"

_RUNTIME = ("CompileError", "Module", "Operation", "OperandError", "compile", "field", "gf_field", "rns_set")


def __getattr__(name: str):
    """mpgen.compile, mpgen.field, ...: the Python runtime (mpgen.runtime), imported when first
    used, so that the generator's command line does not load NumPy."""
    if name in _RUNTIME:
        from . import runtime
        return getattr(runtime, name)
    raise AttributeError(f"module 'mpgen' has no attribute {name!r}")
