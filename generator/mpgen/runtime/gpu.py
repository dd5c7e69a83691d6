"""A module on the GPU through CuPy (the optional extra `mpgen[gpu]`): its kernels source
compiled by NVRTC (cupy.RawModule; CuPy caches the binary on disk by the source's hash, as the
C++ runtime caches PTX), launched with the contract's geometry on CuPy arrays: operands
already on the GPU are used where they are."""
from __future__ import annotations

import contextlib

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


@contextlib.contextmanager
def batch_memory(name: str, n: int, needs: str):
    """CuPy's out-of-memory error as a MemoryError that says which call: name's batch of n
    instances, which needs `needs`."""
    try:
        yield
    except Exception as e:
        if type(e).__name__ != "OutOfMemoryError":
            raise
        raise MemoryError(f"{name}: a batch of {n} instances does not fit the GPU's memory ({needs}); "
                          f"split it ({e})") from None


OPTIONS = ("--std=c++17", "-DMPGEN_ARRAYS_ENTRIES")  # NVRTC's, beside CuPy's own


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
        self._module = cupy.RawModule(code=code, options=OPTIONS)
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
                self._launches[op["name"]] = (kernel, launch, shared)
            transform = (source.contract.get("gf") or {}).get("fft")
            if transform:  # the FFT's twiddles and passes, as its contract gives them
                self._twiddles = self._module.get_function(transform["twiddles"]["kernel"])
                self._passes = {}
                for kind in transform["passes"]:
                    kernel = self._module.get_function(kind["kernel"])
                    kernel.max_dynamic_shared_size_bytes = transform["shared_bytes"]
                    self._passes[kind["twiddled"], kind["scaled"]] = kernel
        except cupy.cuda.compiler.CompileException as e:
            raise CompileError(f"NVRTC failed on {source.header_name}: {str(e).splitlines()[0]}") from None

    def _launch(self, op: dict, n: int, layout: int, arrays: tuple) -> None:
        kernel, launch, shared = self._launches[op["name"]]
        block, spans = launch["block_threads"], launch["blocks_per_instance"]
        args = (self._cupy.uint64(n), self._cupy.int32(layout), *arrays)
        if spans > 1:  # a group spanning blocks: a cooperative launch of the groups the GPU holds at once
            sms = self._cupy.cuda.Device().attributes["MultiProcessorCount"]  # as the C++ runtime: those resident
            per_sm = self._cupy.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(kernel.kernel.ptr, block,
                                                                                       shared[layout])
            groups = min(sms * per_sm // spans, launch["launch_groups"], n)
            if groups == 0:
                raise RuntimeError(f"{op['name']}: this GPU cannot hold the {spans} blocks of one group at once")
            kernel.kernel((groups * spans,), (block,), args, shared_mem=shared[layout],  # the compiled function's
                          enable_cooperative_groups=True)  # call: cuLaunchCooperativeKernel
        else:
            kernel(((n * launch["threads_per_instance"] + block - 1) // block,), (block,), args,
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

    def transform(self, fft: dict, n: int, count: int, inverse: bool, points):
        """count FFTs of n points (the rows of points, (count n, 2k)) on the GPU: the twiddles'
        table, then the passes of spans 1, K, K^2, ... alternating between two arrays; a new
        array."""
        cupy = self._cupy
        radix, words = fft["radix"], points.shape[1]
        data = cupy.array(points, dtype=cupy.uint32, order="C")  # a copy: the passes overwrite it
        scratch = cupy.empty_like(data)
        log_n = n.bit_length() - 1
        table = cupy.empty((n // radix, words), dtype=cupy.uint32)
        block = fft["twiddles"]["block_threads"]
        self._twiddles(((n // radix + block - 1) // block,), (block,), (table, cupy.uint64(n // radix), cupy.uint32(log_n)))
        lanes, warps = fft["block"]
        most = 65535  # transforms a launch: a grid's y
        span = 1
        while span < n:
            kernel = self._passes[span > 1, inverse and span * radix == n]
            for first in range(0, count, most):
                rows = slice(first * n, min(count, first + most) * n)
                kernel(((n // radix + lanes - 1) // lanes, min(count - first, most)), (lanes, warps),
                       (data[rows], scratch[rows], table, cupy.uint64(n), cupy.uint64(span), cupy.uint32(log_n),
                        cupy.uint32(inverse)), shared_mem=fft["shared_bytes"])
            data, scratch = scratch, data
            span *= radix
        return data
