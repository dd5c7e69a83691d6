"""Operations that loop: exponentiation, inverses and square roots modulo a fixed p.

Unrolled, they would be hundreds of thousands of instructions, so each is a short loop
written once in C++ for host and device (templates/loops.cuh.j2) around generated
operations: the products of the field's loop domain, and binary_gcd_step. The loops
branch on their counters only, never on data (tests/python/test_ptx.py checks).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..fields import Field
from ..ir import WORD_BITS, Function
from ..size import Size
from .common import same_limbs, unary


@dataclass(frozen=True)
class LoopOperation:
    name: str
    summary: str
    operand_bits: Callable[[Size], tuple[int, ...]]
    # the C++ statement computing y from x, in the size's namespace (Domain: a field's loop
    # domain, loop_domain or loop_domain64)
    call: str | Callable[[Size], str]
    needs: Callable[[Field], list[str]]  # the generated operations the loop calls
    flag: bool = False  # one more output word: 1 where no result exists
    optional: int = 0
    signed: bool = False
    modulus_operand: int | None = None  # as Operation's
    minus_inverse_operand: int | None = None
    reciprocal_operand: int | None = None
    odd_modulus: str = "Montgomery form"  # as Operation's
    parts: int = 1  # as Operation's
    result: Callable[[Size], int] = same_limbs  # the result's limbs
    # Straight-line lists the loop calls besides operations (printed once per header,
    # shared by the loops that name them), or None.
    steps: Callable[[Size], list[Function]] | None = None
    # as Operation's: 64 where the host runs the loop over its products' 64-bit lists too
    word_bits: tuple[int, ...] = (32,)
    # instances a CPU batch runs side by side through the 64-bit lists (host64_lanes; 1: one
    # at a time)
    lanes64: int = 1

    @property
    def cpp_name(self) -> str:
        return self.name

    def result_limbs(self, size: Size) -> int:
        return self.result(size)

    def call_for(self, size: Size) -> str:
        return self.call if isinstance(self.call, str) else self.call(size)


def montgomery_domain(field: Field) -> bool:
    """Whether the loops multiply in Montgomery form: for odd moduli, unless a
    pseudo-Mersenne or Solinas reduction makes the ordinary product cheaper (measured)."""
    return field.modulus % 2 == 1 and not field.pseudo_mersenne and not field.solinas


def domain_operations(field: Field) -> list[str]:
    if montgomery_domain(field):
        return ["montmul", "montsqr", "tomont", "frommont"]
    return ["modmul", "modsqr"]


def domain_one(field: Field) -> int:
    """1 in the loops' form: R mod p in Montgomery form."""
    return field.montgomery_radix % field.modulus if montgomery_domain(field) else 1


def in_domain(field: Field, value: int) -> int:
    return value * domain_one(field) % field.modulus


def scans_table(field: Size) -> bool:
    """Whether the windowed powers keep their table in registers and pick each entry by
    masks over all of them: up to 8 limbs, where this beat a table in local memory by 1.2-
    1.7x on the H100; at 16 limbs it lost 18% (measured 2026-11-23)."""
    return field.limbs <= 8


def window_bits(field: Size) -> int:
    """The windowed powers' width: 3 bits for a scanned table (8 entries; faster than 16 by
    6-13%, measured 2026-11-23), else 5."""
    return 3 if scans_table(field) else 5


def root_exponent(field: Field) -> int:
    """(p + 1) / 4 where p = 3 mod 4 (the root itself); else (q - 1) / 2 for
    p - 1 = q 2^s, q odd, where Tonelli-Shanks starts (RFC 9380, appendix I.4)."""
    p, s = field.modulus, field.two_adicity
    return (p + 1) // 4 if s == 1 else ((p - 1 >> s) - 1) // 2


def root_of_unity(field: Field) -> int:
    """z^q for the least non-residue z: a primitive 2^s-th root of unity."""
    p = field.modulus
    return pow(field.non_residue, p - 1 >> field.two_adicity, p)


def _exponent(field: Field) -> tuple[int, ...]:
    return (field.bits, field.bits)


# A CPU batch's modexp runs this many instances side by side: their chains of products
# overlap where each product waits on the one before, and at 1024 bits (a table in memory)
# their loads too. Per instance on the dev machine, random exponents, the x86 assembly's
# products, 1 to 4 lanes: 2216, 1443, 1144, 1088 ns at 128 bits; 7478, 5645, 5323, 5363 at
# 256; 29.0, 26.8, 27.3, 27.3 us at 512; 216, 198, 197, 191 us at 1024.
POWER_LANES = 4


OPERATIONS = [
    LoopOperation("modexp", "a^e mod p, e below 2^bits: fixed windows, of 3 bits from a table in "
                  "registers read by masks up to 8 limbs (no address depends on e), else of 5 "
                  "bits from a table in memory indexed by e's digits (not for secret exponents)",
                  _exponent, "::mpgen::loops::window_power<Domain, bits>(y, x, x + Domain::limbs);",
                  domain_operations, word_bits=WORD_BITS, lanes64=POWER_LANES),
    LoopOperation("modexp_ladder", "a^e mod p, e below 2^bits: a Montgomery ladder with masked "
                  "swaps, two products per bit of e whatever its value (constant time)", _exponent,
                  "::mpgen::loops::ladder_power<Domain, bits>(y, x, x + Domain::limbs);",
                  domain_operations, word_bits=WORD_BITS),
    LoopOperation("modinv", "a^-1 mod p by Fermat (a^(p-2), p prime); flag 1 and result 0 for a = 0",
                  unary, "::mpgen::loops::fermat_inverse<Domain, is_zero>(y, x);",
                  lambda f: domain_operations(f) + ["is_zero"], flag=True, word_bits=WORD_BITS),
    LoopOperation("modinv_gcd", "a^-1 mod p by the binary extended gcd (any odd p); flag 1 and "
                  "result 0 where gcd(a, p) > 1", unary,
                  "::mpgen::loops::gcd_inverse<Domain, gcd_step>(y, x);",
                  lambda f: ["gcd_step"], flag=True),
    LoopOperation("modsqrt", "a root r of r^2 = a mod p (p prime; Tonelli-Shanks in constant "
                  "time unless p = 3 mod 4); flag 1 and result 0 where a is not a square", unary,
                  "::mpgen::loops::square_root<Domain>(y, x);", domain_operations, flag=True, word_bits=WORD_BITS),
]

NEEDS_ODD_PRIME = {"modinv": "Fermat's little theorem", "modsqrt": "a square root"}

