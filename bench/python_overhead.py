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


def kernel_alone(k, a, b, runs):
    """The mul kernel alone over operands packed before timing (interleaved: the layout of
    the CuPy path), as the C++ runtime's batch launches it."""
    op = k.operations["mul"].contract
    n = a.shape[1]
    words = cupy.concatenate([a, b], axis=0)
    return best(lambda: k._backend.run(op, n, values.LAYOUTS["interleaved"], words), runs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    rng = random.Random(1)
    print("bits,n,input,call_ms,kernel_ms,overhead")
    for bits, n in CASES:
        k = mpgen.compile(bits, ["mul"], device="gpu")
        limbs = bits // 32
        host_a = np.frombuffer(rng.randbytes(4 * limbs * n), dtype=np.uint32).reshape(limbs, n).copy()
        host_b = np.frombuffer(rng.randbytes(4 * limbs * n), dtype=np.uint32).reshape(limbs, n).copy()
        a, b = cupy.asarray(host_a), cupy.asarray(host_b)
        kernel = kernel_alone(k, a, b, args.runs)
        check = k.mul(a[:, :4].copy(), b[:, :4].copy(), layout="interleaved").get()
        want = [x * y for x, y in zip(values.limbs_to_ints(host_a[:, :4].T), values.limbs_to_ints(host_b[:, :4].T))]
        assert values.limbs_to_ints(check.T) == want
        for name, x, y in (("cupy", a, b), ("numpy", host_a, host_b)):
            call = best(lambda: k.mul(x, y, layout="interleaved"), args.runs)
            print(f"{bits},{n},{name},{call * 1e3:.4f},{kernel * 1e3:.4f},{call / kernel - 1:.3f}")


if __name__ == "__main__":
    main()
