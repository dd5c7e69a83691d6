"""The NTT product's plan (docs/group-tier.md): the primes (data/ntt.toml, chosen by
measurement), the digits (whole 32-bit limbs), the transform's length and roots of unity,
and the bound that makes the product exact: every coefficient of the convolution of two
n-limb integers is below n (2^32 - 1)^2, which must stay below the primes' product M, so
that the Chinese remainder theorem gives it back exactly.

`transform.py` runs the transform on the host over each prime's generated field operations
(montmul, modadd, modsub: the instruction lists the GPU will run), the reference that the
GPU's transform is tested against."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from math import prod
from pathlib import Path

from ..fields import Field
from ..size import LIMB_BITS, MIN_BITS
from ..tomlcompat import tomllib

DATA = tomllib.loads((Path(__file__).parent.parent / "data" / "ntt.toml").read_text(encoding="utf-8"))
TABLE = DATA["product"]
AUTO = DATA["auto"]  # mul = auto: each product's measured rates, by rows and by transform


def _prime_factors(n: int) -> list[int]:
    factors, q = [], 2
    while q * q <= n:
        if n % q == 0:
            factors.append(q)
            while n % q == 0:
                n //= q
        q += 1
    return factors + ([n] if n > 1 else [])


@dataclass(frozen=True)
class Prime:
    """An NTT prime p = c 2^k + 1 of one limb, as a field of mpgen's modular generator."""
    p: int

    @cached_property
    def field(self) -> Field:
        return Field(MIN_BITS, "auto", "thread", modulus=self.p, label=f"ntt_{self.p:x}")

    @property
    def two_adicity(self) -> int:
        """k: the longest transform over p has 2^k points."""
        return ((self.p - 1) & -(self.p - 1)).bit_length() - 1

    @cached_property
    def generator(self) -> int:
        """The smallest primitive root modulo p."""
        factors = _prime_factors(self.p - 1)
        return next(g for g in range(2, self.p) if all(pow(g, (self.p - 1) // q, self.p) != 1 for q in factors))

    def root(self, length: int) -> int:
        """A primitive length-th root of unity (length a power of two up to 2^k)."""
        if length & (length - 1) or not 1 <= length <= 1 << self.two_adicity:
            raise ValueError(f"no transform of {length} points modulo {self.p:#x}: lengths are powers of two up to "
                             f"2^{self.two_adicity}")
        return pow(self.generator, (self.p - 1) // length, self.p)

    def to_montgomery(self, value: int) -> int:
        """value R mod p (R = 2^32): a constant that montmul multiplies by value itself."""
        return (value << LIMB_BITS) % self.p


PRIMES = tuple(Prime(p) for p in TABLE["primes"])
MODULUS = prod(prime.p for prime in PRIMES)  # M: the coefficients' exact range
DIGIT_BITS = TABLE["digit_bits"]


@dataclass(frozen=True)
class Plan:
    """The full product of two `bits`-bit integers by NTT: `digits` digits of DIGIT_BITS
    each, transforms of `length` points modulo each prime."""
    bits: int

    @property
    def digits(self) -> int:
        return -(-self.bits // DIGIT_BITS)

    @property
    def length(self) -> int:
        """The next power of two holding the product's 2 digits - 1 coefficients."""
        return 1 << (2 * self.digits - 1).bit_length()

    @property
    def largest_coefficient(self) -> int:
        """The bound of a coefficient: `digits` products of two digits at their largest."""
        return self.digits * ((1 << DIGIT_BITS) - 1) ** 2

    def check(self) -> None:
        """ValueError where the product would not be exact or the primes have no such transform."""
        if self.largest_coefficient >= MODULUS:
            raise ValueError(f"{self.bits} bits: a coefficient may reach {self.largest_coefficient.bit_length()} "
                             f"bits, the primes' product holds {MODULUS.bit_length() - 1}")
        for prime in PRIMES:
            prime.root(self.length)


def auto_method(name: str, limbs: int, length: int) -> str:
    """What `mul = auto` plans product `name` of `limbs` limbs by in the group tier, where a
    transform would take `length` points: "ntt" where the transform's measured rate at that
    length beats the quadratic product's (measured at one size, scaled as limbs^2), else
    "auto" (the quadratic product); data/ntt.toml's [auto]."""
    rates = AUTO.get(name)
    if rates is not None and length > max(map(int, rates["transform"])):
        return "ntt"  # past the lengths measured (2^18 bits), where the rows' tables no longer fit a block
    if rates is None or str(length) not in rates["transform"]:
        return "auto"
    quadratic = rates["quadratic"]["rate"] * (rates["quadratic"]["limbs"] / limbs) ** 2
    return "ntt" if rates["transform"][str(length)] > quadratic else "auto"


__all__ = ["AUTO", "DIGIT_BITS", "MODULUS", "PRIMES", "Plan", "Prime", "auto_method"]
