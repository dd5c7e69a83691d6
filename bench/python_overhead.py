"""The Python runtime's cost per call against its kernel's: k.mul(a, b) end to end, from NumPy
arrays (copies to and from the GPU included) and from CuPy arrays already on the GPU, against
the same compiled kernel launched alone on operands packed beforehand (CUDA events). Prints one
row per size and input kind. Run on a GPU machine with CuPy:
    PYTHONPATH=generator python3 bench/python_overhead.py [--runs 10]"""
import argparse
import random
import time

import cupy
import numpy as np

import mpgen
from mpgen.runtime import values

CASES = ((256, 1 << 22), (4096, 1 << 16))


def best(f, runs):
    """The shortest of `runs` timings of f() (seconds, the device synchronized)."""
    f()
    cupy.cuda.Device().synchronize()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        cupy.cuda.Device().synchronize()
        times.append(time.perf_counter() - start)
    return min(times)


def kernel_alone(k, a, b, layout, runs):
    """The mul kernel alone, on operands and outputs made before timing: the entry k.mul
    launches (the arrays one in the thread tier, the packed one in the group tier)."""
    op = k.operations["mul"].contract
    code = values.LAYOUTS[layout]
    n = a.shape[0] if layout == "contiguous" else a.shape[1]
    if op["arrays_kernel"]:
        limbs = op["result"]["limbs"]
        out = cupy.empty((n, limbs) if layout == "contiguous" else (limbs, n), dtype=cupy.uint32)
        return best(lambda: k._backend.run_arrays(op, n, code, [a, b], [out]), runs)
    words = cupy.concatenate([a, b], axis=1 if layout == "contiguous" else 0)
    return best(lambda: k._backend.run(op, n, code, words), runs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    rng = random.Random(1)
    print("bits,n,layout,input,call_ms,kernel_ms,overhead")
    for bits, n in CASES:
        k = mpgen.compile(bits, ["mul"], device="gpu")
        limbs = bits // 32
        for layout in ("interleaved", "contiguous"):
            shape = (limbs, n) if layout == "interleaved" else (n, limbs)
            host_a = np.frombuffer(rng.randbytes(4 * limbs * n), dtype=np.uint32).reshape(shape).copy()
            host_b = np.frombuffer(rng.randbytes(4 * limbs * n), dtype=np.uint32).reshape(shape).copy()
            a, b = cupy.asarray(host_a), cupy.asarray(host_b)
            kernel = kernel_alone(k, a, b, layout, args.runs)
            rows = (lambda x: x.T) if layout == "interleaved" else (lambda x: x)
            got = rows(k.mul(a, b, layout=layout)[:, :8] if layout == "interleaved" else k.mul(a, b)[:8]).get()
            want = [x * y for x, y in zip(values.limbs_to_ints(rows(host_a)[:8]), values.limbs_to_ints(rows(host_b)[:8]))]
            assert values.limbs_to_ints(got) == want
            for name, x, y in (("cupy", a, b), ("numpy", host_a, host_b)):
                call = best(lambda: k.mul(x, y, layout=layout), args.runs)
                print(f"{bits},{n},{layout},{name},{call * 1e3:.4f},{kernel * 1e3:.4f},{call / kernel - 1:.3f}")


if __name__ == "__main__":
    main()
