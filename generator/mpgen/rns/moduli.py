"""Moduli sets of a residue number system (after Isupov and Knyazkov, "Efficient GPU
implementation of multiple-precision addition based on residue arithmetic"): generated as
the paper's Algorithm 3 does, or given by the user, and every constant the arithmetic
needs, fixed here once.

A set of n pairwise coprime moduli m_i below 2^32 represents the integers 0 <= X < M,
M = m_0 ... m_(n-1), by their residues x_i = X mod m_i; a signed integer is a sign and
such a magnitude (the paper's format), with an interval [lower, upper] around X / M.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property

from ..errors import RequestError

MODULUS_BITS = 32
MIN_MODULI, MAX_MODULI = 2, 512


def algorithm_3(smallest: int, count: int, below: int | None = None) -> list[int] | None:
    """Isupov and Knyazkov's Algorithm 3: `smallest` (odd), then the least odd integers above it, each
    coprime to all before it, until there are `count` (None where one reaches `below`)."""
    moduli, product, candidate = [smallest], smallest, smallest
    while len(moduli) < count:
        candidate += 2
        if below is not None and candidate >= below:
            return None
        if math.gcd(candidate, product) == 1:
            moduli.append(candidate)
            product *= candidate
    return moduli


@cache
def generate(count: int) -> tuple[int, ...]:
    """`count` moduli by Algorithm 3 with the largest smallest modulus whose set stays below
    2^32 (the paper picks m_0 by trial as well): the widest range for n 32-bit words. A
    second or so at n = 256, ten at 512: each trial m_0 reruns the algorithm."""
    if not MIN_MODULI <= count <= MAX_MODULI:
        raise RequestError(f"--rns: {count} moduli; give {MIN_MODULI} to {MAX_MODULI}")
    smallest = (1 << MODULUS_BITS) - 1 - 2 * (count - 1)
    while (moduli := algorithm_3(smallest, count, below=1 << MODULUS_BITS)) is None:
        smallest -= 2
    return tuple(moduli)


def for_precision(bits: int) -> tuple[int, ...]:
    """The fewest generated moduli whose product M has floor(log2 M) >= bits."""
    count = max(MIN_MODULI, -(-bits // MODULUS_BITS))
    while (moduli := generate(count)) and math.prod(moduli).bit_length() - 1 < bits:
        count += 1
    return moduli


def check(moduli: list[int]) -> tuple[int, ...]:
    """A user's set: each modulus from 3 to 2^32 - 1, odd or not, pairwise coprime."""
    if not MIN_MODULI <= len(moduli) <= MAX_MODULI:
        raise RequestError(f"--rns-moduli: {len(moduli)} moduli; give {MIN_MODULI} to {MAX_MODULI}")
    for k, m in enumerate(moduli):
        if not 3 <= m < 1 << MODULUS_BITS:
            raise RequestError(f"--rns-moduli: modulus {k} ({m}) is out of range; each must be "
                               f"from 3 to 2^32 - 1")
        for j in range(k):
            if (g := math.gcd(m, moduli[j])) != 1:
                raise RequestError(f"--rns-moduli: moduli {j} ({moduli[j]}) and {k} ({m}) share the "
                                   f"factor {g}; the moduli must be pairwise coprime")
    return tuple(moduli)


def _round_down(value: Fraction) -> float:
    """The largest double <= value (value positive and in double's normal range)."""
    nearest = float(value)
    return nearest if Fraction(nearest) <= value else math.nextafter(nearest, 0.0)


def _round_up(value: Fraction) -> float:
    nearest = float(value)
    return nearest if Fraction(nearest) >= value else math.nextafter(nearest, math.inf)


def extended(value: Fraction, up: bool) -> tuple[float, int]:
    """value as (f, e) with value about f 2^e, f in [0.5, 1): f rounded down, or up, so
    that f 2^e <= value (>= value where up); (0.0, 0) for zero. Isupov and Knyazkov's extended range:
    X / M of an 8192-bit M is far below double's smallest normal."""
    if value == 0:
        return 0.0, 0
    sign = -1 if value < 0 else 1
    magnitude = abs(value)
    e = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if magnitude >= Fraction(2) ** e:  # then magnitude / 2^e is in [1, 2)
        e += 1
    f = magnitude / Fraction(2) ** e
    rounded = _round_up(f) if (up == (sign > 0)) else _round_down(f)
    if rounded == 1.0:
        rounded, e = 0.5, e + 1
    return sign * rounded, e


@dataclass(frozen=True)
class RnsSet:
    """n moduli and the constants of their arithmetic; `label` names the header."""

    moduli: tuple[int, ...]
    label: str

    @property
    def count(self) -> int:
        return len(self.moduli)

    @cached_property
    def product(self) -> int:
        return math.prod(self.moduli)

    @property
    def limbs(self) -> int:
        """The 32-bit words of a magnitude below M (a binary conversion's)."""
        return -(-self.product.bit_length() // 32)

    @property
    def bits(self) -> int:
        """The precision: floor(log2 M)."""
        return self.product.bit_length() - 1

    @cached_property
    def crt_weights(self) -> tuple[int, ...]:
        """w_i = (M / m_i)^-1 mod m_i: X / M = frac(sum x_i w_i mod m_i / m_i) (the CRT)."""
        return tuple(pow(self.product // m, -1, m) for m in self.moduli)

    @cached_property
    def reciprocals(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """1 / m_i rounded down and up: the interval evaluation's per-residue fractions."""
        return (tuple(_round_down(Fraction(1, m)) for m in self.moduli),
                tuple(_round_up(Fraction(1, m)) for m in self.moduli))

    @cached_property
    def mixed_radix_inverses(self) -> tuple[int, ...]:
        """m_i^-1 mod m_j for i < j, row i after row i - 1 (entry (i, j) at
        i n - i (i + 1) / 2 + j - i - 1): the mixed-radix conversion's multipliers, digit
        a_j = (((x_j - a_0) m_0^-1 - a_1) m_1^-1 - ...) mod m_j."""
        return tuple(pow(self.moduli[i], -1, self.moduli[j]) for i in range(self.count)
                     for j in range(i + 1, self.count))

    def residues(self, value: int) -> list[int]:
        return [value % m for m in self.moduli]

    def mixed_radix(self, value: int) -> list[int]:
        """value's mixed-radix digits a_0 ... a_(n-1): value = a_0 + a_1 m_0 + a_2 m_0 m_1 + ..."""
        digits = []
        for m in self.moduli:
            value, digit = divmod(value, m)
            digits.append(digit)
        return digits

    def evaluation(self, magnitude: int) -> tuple[tuple[float, int], tuple[float, int]]:
        """The tightest interval evaluation of magnitude / M: its bounds rounded outwards."""
        ratio = Fraction(magnitude, self.product)
        return extended(ratio, up=False), extended(ratio, up=True)

    @property
    def half_range(self) -> int:
        """(M - 1) / 2 rounded down: the largest magnitude a sum of two in range keeps in range
        (the paper's datasets stay within it)."""
        return (self.product - 1) // 2
