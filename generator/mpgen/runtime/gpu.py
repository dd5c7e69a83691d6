"""A module on the GPU through CuPy (the optional extra `mpgen[gpu]`): its kernels source
compiled by NVRTC (cupy.RawModule; CuPy caches the binary on disk by the source's hash, as the
C++ runtime caches PTX), launched with the contract's geometry on CuPy arrays: operands
already on the GPU are used where they are."""
from __future__ import annotations

from .cpu import CompileError
from .source import Source


def available() -> str | None:
    """None where a GPU can be used from Python, else why not."""
    try:
        import cupy
    except ImportError:
        return "CuPy is not installed (pip install mpgen[gpu])"
    try:
        if cupy.cuda.runtime.getDeviceCount() == 0:
            return "no CUDA device found"
    except cupy.cuda.runtime.CUDARuntimeError as e:
        return f"no CUDA device can be used: {e}"
    return None


class GpuModule:
    device = "gpu"

    def __init__(self, source: Source) -> None:
        import cupy
        self._cupy = cupy
        include = f'#include "{source.header_name}"'
        if include not in source.kernels:
            raise CompileError(f"the kernels source of {source.header_name} does not include it")
        code = source.kernels.replace(include, source.header, 1)  # NVRTC sees one text
        self._module = cupy.RawModule(code=code, options=("--std=c++17",))
        self._functions = {}
        try:
            for op in source.contract["operations"]:
                self._functions[op["name"]] = self._module.get_function(op["kernel"])
        except cupy.cuda.compiler.CompileException as e:
            raise CompileError(f"NVRTC failed on {source.header_name}: {str(e).splitlines()[0]}") from None

    def run(self, op: dict, n: int, layout: int, words):
        cupy = self._cupy
        words = cupy.ascontiguousarray(cupy.asarray(words, dtype=cupy.uint32))
        shape = (n, op["out_words"]) if layout == 1 else (op["out_words"], n)
        out = cupy.empty(shape, dtype=cupy.uint32)
        if n:
            launch = op["launch"]
            block = launch["block_threads"]
            blocks = (n * launch["threads_per_instance"] + block - 1) // block
            shared = launch["contiguous_shared_bytes"] if layout == 1 else launch["shared_bytes"]
            kernel = self._functions[op["name"]]
            if shared:
                kernel.max_dynamic_shared_size_bytes = shared
            kernel((blocks,), (block,), (cupy.uint64(n), cupy.int32(layout), words, out), shared_mem=shared)
        return out
