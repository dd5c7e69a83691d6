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

    @staticmethod
    def misaligned(array) -> bool:
        return array.data.ptr % 16 != 0  # the kernels' 16-byte loads

    def __init__(self, source: Source) -> None:
        import cupy
        self._cupy = cupy
        self.array_type = cupy.ndarray
        include = f'#include "{source.header_name}"'
        if include not in source.kernels:
            raise CompileError(f"the kernels source of {source.header_name} does not include it")
        code = source.kernels.replace(include, source.header, 1)  # NVRTC sees one text
        self._module = cupy.RawModule(code=code, options=("--std=c++17", "-DMPGEN_ARRAYS_ENTRIES"))
        self._functions, self._shared = {}, {}
        try:
            for op in source.contract["operations"]:
                self._functions[op["name"]] = self._module.get_function(op["arrays_kernel"] or op["kernel"])
        except cupy.cuda.compiler.CompileException as e:
            raise CompileError(f"NVRTC failed on {source.header_name}: {str(e).splitlines()[0]}") from None

    def _launch(self, op: dict, n: int, layout: int, shared: int, arrays: tuple) -> None:
        launch = op["launch"]
        block = launch["block_threads"]
        blocks = (n * launch["threads_per_instance"] + block - 1) // block
        kernel = self._functions[op["name"]]
        if shared > self._shared.get(op["name"], 0):  # asked for once a kernel and size
            kernel.max_dynamic_shared_size_bytes = self._shared[op["name"]] = shared
        kernel((blocks,), (block,), (self._cupy.uint64(n), self._cupy.int32(layout), *arrays), shared_mem=shared)

    def run_arrays(self, op: dict, n: int, layout: int, inputs: list, outputs: list) -> None:
        """op's arrays entry over n instances: CuPy arrays, C-contiguous and aligned."""
        if n:
            # the contiguous layout staged as the packed kernel's is; the interleaved unstaged
            shared = op["launch"]["contiguous_shared_bytes"] if layout == 1 else op["launch"]["shared_bytes"]
            self._launch(op, n, layout, shared, (*inputs, *outputs))

    def run(self, op: dict, n: int, layout: int, words):
        cupy = self._cupy
        words = cupy.ascontiguousarray(cupy.asarray(words, dtype=cupy.uint32))
        shape = (n, op["out_words"]) if layout == 1 else (op["out_words"], n)
        out = cupy.empty(shape, dtype=cupy.uint32)
        if n:
            shared = op["launch"]["contiguous_shared_bytes"] if layout == 1 else op["launch"]["shared_bytes"]
            self._launch(op, n, layout, shared, (words, out))
        return out
