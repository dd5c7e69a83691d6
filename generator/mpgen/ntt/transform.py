"""The NTT product on the host, over its generated lists (lists.py: the instruction lists
the GPU runs), in the GPU's order of butterflies, so that the tests check the plan itself.

The layout: the forward transform decimates in frequency (Gentleman-Sande: natural order
in, bit-reversed order out), the pointwise products take the spectra in that order, and the
inverse decimates in time (Cooley-Tukey: bit-reversed order in, natural order out), so that
no pass reorders the points; radix 2, the stages of half N/2 down to 1 and back. A stage of
half h pairs points i and i + h (bit h of i clear) with twiddle w^((i mod h) N / 2h). The
twiddles are one table per prime, w^e R for e = 0 .. N/2 (`twiddles`), the generator's
constants: the inverse's twiddle w^-e is -w^(N/2 - e), the table's entry N/2 - e negated,
which the inverse butterfly's list takes into account."""
from __future__ import annotations

from dataclasses import dataclass

from ..ir import Function, execute
from . import DIGIT_BITS, PRIMES, Plan, Prime
from . import lists

MASK = (1 << DIGIT_BITS) - 1


def twiddles(prime: Prime, length: int) -> list[int]:
    """w^e R mod p for e = 0 .. N/2, w a primitive N-th root of unity."""
    root = prime.root(length)
    return [prime.to_montgomery(pow(root, e, prime.p)) for e in range(length // 2 + 1)]


@dataclass(frozen=True)
class PrimeLists:
    """One prime's lists, as the GPU's transform calls them."""
    prime: Prime
    digit: Function
    forward: Function
    pointwise: Function
    inverse: Function

    @staticmethod
    def of(prime: Prime, index: int) -> "PrimeLists":
        return PrimeLists(prime, lists.digit(prime, index), lists.forward(prime, index),
                          lists.pointwise(prime, index), lists.inverse(prime, index))

    @property
    def all(self) -> tuple[Function, ...]:
        return (self.digit, self.forward, self.pointwise, self.inverse)


def forward(fly: Function, points: list[int], table: list[int]) -> None:
    """Decimation in frequency, in place."""
    n, half = len(points), len(points) // 2
    while half:
        for start in range(0, n, 2 * half):
            for j in range(half):
                i = start + j
                points[i], points[i + half] = execute(fly, [points[i], points[i + half], table[j * (n // (2 * half))]])
        half //= 2


def inverse(fly: Function, points: list[int], table: list[int]) -> None:
    """Decimation in time over the inverse twiddles (table entries N/2 - e), in place:
    N times the inverse of `forward`."""
    n, half = len(points), 1
    while half < n:
        for start in range(0, n, 2 * half):
            for j in range(half):
                i = start + j
                points[i], points[i + half] = execute(
                    fly, [points[i], points[i + half], table[n // 2 - j * (n // (2 * half))]])
        half *= 2


def residues(p: PrimeLists, a: list[int], b: list[int] | None, length: int) -> list[int]:
    """N c R mod p for the coefficients c of the product of digit vectors a and b (b None:
    a squared, one forward transform)."""
    table = twiddles(p.prime, length)

    def spectrum(digits: list[int]) -> list[int]:
        points = [execute(p.digit, [d])[0] for d in digits] + [0] * (length - len(digits))
        forward(p.forward, points, table)
        return points
    fa = spectrum(a)
    fb = fa if b is None else spectrum(b)
    points = [execute(p.pointwise, [x, y])[0] for x, y in zip(fa, fb)]
    inverse(p.inverse, points, table)
    return points


@dataclass(frozen=True)
class Convolver:
    """The product's coefficients in blocks of q, from transforms of `length` points."""
    length: int
    q: int
    primes: tuple[PrimeLists, ...]
    columns: Function

    @staticmethod
    def planned(length: int, q: int) -> "Convolver":
        return Convolver(length, q, tuple(PrimeLists.of(prime, j) for j, prime in enumerate(PRIMES)),
                         lists.columns(PRIMES, length, q))

    @property
    def lists(self) -> tuple[Function, ...]:
        return tuple(fn for p in self.primes for fn in p.all) + (self.columns,)

    @property
    def table(self) -> list[int]:
        """The twiddles of every prime, one after the other (N/2 + 1 words each)."""
        return [w for p in self.primes for w in twiddles(p.prime, self.length)]

    def blocks(self, a: list[int], b: list[int] | None) -> list[list[int]]:
        """Block c: sum_k c_(cQ + k) 2^(32 k) as Q + 2 words, for every block of the
        length's coefficients (a and b: digits, b None for a square)."""
        found = [residues(p, a, b, self.length) for p in self.primes]
        return [execute(self.columns, [r[c * self.q + k] for r in found for k in range(self.q)])
                for c in range(self.length // self.q)]


def product(a: int, b: int, bits: int, q: int = 4) -> int:
    """a b (a, b below 2^bits) by the lists, blocks of q coefficients summed as the GPU's
    threads sum them."""
    plan = Plan(bits)
    plan.check()

    def digits(value: int) -> list[int]:
        return [(value >> (DIGIT_BITS * i)) & MASK for i in range(plan.digits)]
    convolver = Convolver.planned(plan.length, min(q, plan.length))
    blocks = convolver.blocks(digits(a), None if a == b else digits(b))
    return sum(sum(w << 32 * i for i, w in enumerate(block)) << (32 * q * c) for c, block in enumerate(blocks))
