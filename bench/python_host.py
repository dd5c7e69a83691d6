"""The Python runtime's own costs on the host, no GPU needed: converting a million 256-bit
ints to limbs and back, and a call's Python work on whole NumPy arrays with the kernel call
stubbed out (what a call adds beside its kernel, apart from the output's allocation and the
launch). Run: PYTHONPATH=generator python3 bench/python_host.py"""
import random
import time

import numpy as np

import mpgen
from mpgen.runtime import values


def main():
    ints = [random.getrandbits(256) for _ in range(10**6)]
    start = time.perf_counter()
    limbs = values.ints_to_limbs(ints, 8, 256, "x")
    middle = time.perf_counter()
    back = values.limbs_to_ints(limbs)
    end = time.perf_counter()
    assert back == ints
    print(f"a million 256-bit ints to limbs: {middle - start:.3f} s, back: {end - middle:.3f} s")

    k = mpgen.compile(256, ["mul"], device="cpu")
    k._backend.run_arrays = lambda op, n, layout, inputs, outputs: None  # the kernel call stubbed
    a = np.zeros((1 << 10, 8), dtype=np.uint32)
    calls = 20000
    for _ in range(1000):
        k.mul(a, a)
    start = time.perf_counter()
    for _ in range(calls):
        k.mul(a, a)
    print(f"a call's Python work, whole arrays: {(time.perf_counter() - start) / calls * 1e6:.1f} us")


if __name__ == "__main__":
    main()
