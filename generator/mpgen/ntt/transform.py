"""The NTT product on the host, its transforms' butterflies run through each prime's
generated field operations (montmul with twiddles in Montgomery form, modadd, modsub:
mpgen's modular generator, the instruction lists the GPU runs), so that the tests check
the plan itself. The transform is iterative radix-2 Cooley-Tukey, decimation in time after
a bit-reversal permutation; the twiddles are precomputed constants (the generator's, not
computed per call). The Chinese remainder step and the carries are Python integers here
(the oracle's side) until the GPU's product gets them as generated lists."""
from __future__ import annotations

from functools import cached_property

from ..ir import execute
from ..ops import MODULAR_OPERATIONS
from . import DIGIT_BITS, PRIMES, Plan, Prime

MASK = (1 << DIGIT_BITS) - 1


class FieldOps:
    """One prime's generated operations, as functions of one-limb integers."""

    def __init__(self, prime: Prime):
        self.prime = prime

    @cached_property
    def _lists(self):
        return {name: MODULAR_OPERATIONS[name].plan(self.prime.field) for name in ("montmul", "modadd", "modsub")}

    def montmul(self, x: int, y: int) -> int:
        return execute(self._lists["montmul"], [x, y])[0]

    def add(self, x: int, y: int) -> int:
        return execute(self._lists["modadd"], [x, y])[0]

    def sub(self, x: int, y: int) -> int:
        return execute(self._lists["modsub"], [x, y])[0]


def _bit_reversed(values: list[int]) -> list[int]:
    n, bits = len(values), len(values).bit_length() - 1
    return [values[int(f"{i:0{bits}b}"[::-1], 2) if bits else 0] for i in range(n)]


def transform(ops: FieldOps, values: list[int], root: int) -> list[int]:
    """sum_j values[j] root^(j k) mod p for each k (len(values) a power of two, root of that order)."""
    p, n = ops.prime.p, len(values)
    a = _bit_reversed(values)
    half = 1
    while half < n:
        step = pow(root, n // (2 * half), p)
        twiddles = [ops.prime.to_montgomery(pow(step, j, p)) for j in range(half)]
        for start in range(0, n, 2 * half):
            for j in range(half):
                t = ops.montmul(twiddles[j], a[start + half + j])
                a[start + half + j] = ops.sub(a[start + j], t)
                a[start + j] = ops.add(a[start + j], t)
        half *= 2
    return a


def inverse(ops: FieldOps, values: list[int], root: int, factor: int = 1) -> list[int]:
    """The inverse transform (over root^-1, scaled by n^-1), times `factor`."""
    p, n = ops.prime.p, len(values)
    spectrum = transform(ops, values, pow(root, -1, p))
    scale = ops.prime.to_montgomery(factor * pow(n, -1, p) % p)
    return [ops.montmul(scale, v) for v in spectrum]


def _garner(residues: list[int]) -> int:
    """The integer below M with these residues modulo PRIMES."""
    value, modulus = 0, 1
    for prime, r in zip(PRIMES, residues):
        step = (r - value) * pow(modulus, -1, prime.p) % prime.p
        value, modulus = value + step * modulus, modulus * prime.p
    return value


def product(a: int, b: int, bits: int) -> int:
    """a b (a, b below 2^bits) by the plan: per prime, both operands' digits transformed,
    multiplied point by point (montmul: times R^-1, which the inverse's factor R
    restores), transformed back; the coefficients from their residues, then summed
    at their digits' places."""
    plan = Plan(bits)
    plan.check()
    n = plan.length
    digits_a = [(a >> (DIGIT_BITS * i)) & MASK for i in range(plan.digits)] + [0] * (n - plan.digits)
    digits_b = [(b >> (DIGIT_BITS * i)) & MASK for i in range(plan.digits)] + [0] * (n - plan.digits)
    residues = []
    for prime in PRIMES:
        ops, root = FieldOps(prime), prime.root(n)
        fa = transform(ops, [d % prime.p for d in digits_a], root)
        fb = transform(ops, [d % prime.p for d in digits_b], root)
        pointwise = [ops.montmul(x, y) for x, y in zip(fa, fb)]
        residues.append(inverse(ops, pointwise, root, factor=prime.to_montgomery(1)))
    return sum(_garner(list(r)) << (DIGIT_BITS * k) for k, r in enumerate(zip(*residues)))
