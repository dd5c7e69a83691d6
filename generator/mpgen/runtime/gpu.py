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
        # per operation: its kernel, block, threads an instance and the dynamic shared memory of
        # each layout (the contiguous one's staged rows), as its contract's launch geometry says
        self._launches = {}
        try:
            for op in source.contract["operations"]:
                launch = op["launch"]
                kernel = self._module.get_function(op["arrays_kernel"] or op["kernel"])
                shared = (launch["shared_bytes"], launch["contiguous_shared_bytes"])
                if max(shared):  # asked for once: with the static shared memory it may pass 48 KB
                    kernel.max_dynamic_shared_size_bytes = max(shared)
                self._launches[op["name"]] = (kernel, launch["block_threads"], launch["threads_per_instance"], shared)
        except cupy.cuda.compiler.CompileException as e:
            raise CompileError(f"NVRTC failed on {source.header_name}: {str(e).splitlines()[0]}") from None

    def _launch(self, op: dict, n: int, layout: int, arrays: tuple) -> None:
        kernel, block, threads, shared = self._launches[op["name"]]
        kernel(((n * threads + block - 1) // block,), (block,), (self._cupy.uint64(n), self._cupy.int32(layout), *arrays),
               shared_mem=shared[layout])

    def run_arrays(self, op: dict, n: int, layout: int, inputs, outputs) -> None:
        """op's arrays entry over n instances: CuPy arrays, C-contiguous and aligned."""
        if n:
            self._launch(op, n, layout, (*inputs, *outputs))

    def run(self, op: dict, n: int, layout: int, words):
        cupy = self._cupy
        words = cupy.ascontiguousarray(cupy.asarray(words, dtype=cupy.uint32))
        shape = (n, op["out_words"]) if layout == 1 else (op["out_words"], n)
        out = cupy.empty(shape, dtype=cupy.uint32)
        if n:
            self._launch(op, n, layout, (words, out))
        return out
