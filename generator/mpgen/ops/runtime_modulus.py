"""Montgomery arithmetic modulo an odd p given at run time: p is an operand of each
instance, so one kernel serves a batch in which every instance brings its own modulus
(RSA-like batches, ECM), where a field's operations (modular.py) have p compiled in.

Each takes p and, beside it, -p^-1 mod 2^32 as operands (the "minus inverse", CGBN's np0):
computing it costs a product's worth of instructions at small sizes, and a batch reuses it
for every product under the same modulus, as CGBN's mont_mul does. R = 2^(32 limbs); R^2
mod p (for tomont) comes likewise from the caller. The instruction sequences are the
fixed-modulus ones of reduction.py, with p's words and -p^-1 in registers instead of
immediates; results are reduced for reduced operands, and nothing branches on the data.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ir import Function, Reg
from ..size import Size
from .common import Operation, same_limbs
from .reduction import montgomery, montgomery_reduce, montgomery_square


@dataclass(frozen=True)
class RuntimeModulus:
    """p as reduction.py reads it, from the operands' registers."""
    limbs: int
    modulus_words: list[Reg]
    minus_inverse: Reg
    spare_bit: bool  # 2p < R: known where the size leaves the top limb's top bit out


def _with_modulus(values: int, plan):
    """A planner over `values` value operands followed by p and -p^-1 mod 2^32."""
    def planner(fn: Function, size: Size, x: list[list[Reg]], y: list[Reg]) -> None:
        modulus = RuntimeModulus(size.limbs, x[values], x[values + 1][0], size.top_bits < 32)
        plan(fn, modulus, x[:values], y)
    return planner


def _shape(values: int):
    return lambda size: (size.bits,) * (values + 1) + (32,)


def _operation(name: str, summary: str, values: int, plan) -> Operation:
    return Operation(name, summary, _shape(values), same_limbs, _with_modulus(values, plan),
                     modulus_operand=values)


def _montmul(fn, m, x, y):
    montgomery(fn, m, x[0], x[1], y)


OPERATIONS = [
    _operation("montmul", "a b R^-1 mod p, p odd given at run time with -p^-1 mod 2^32 (a, b < p)",
               2, _montmul),
    _operation("montsqr", "a a R^-1 mod p, p odd given at run time with -p^-1 mod 2^32 (a < p)",
               1, lambda fn, m, x, y: montgomery_square(fn, m, x[0], y)),
    _operation("montredc", "(b R + a) R^-1 mod p, p odd given at run time with -p^-1 mod 2^32 "
               "(b < p): Montgomery reduction of the double-width value with low half a, high half b",
               2, lambda fn, m, x, y: montgomery_reduce(fn, m, x[0], x[1], y)),
    _operation("tomont", "a r R^-1 mod p for r = R^2 mod p: a R mod p, into Montgomery form, p odd "
               "given at run time with -p^-1 mod 2^32 (a, r < p)", 2, _montmul),
    _operation("frommont", "a R^-1 mod p: out of Montgomery form, p odd given at run time with "
               "-p^-1 mod 2^32 (a < p)", 1, lambda fn, m, x, y: montgomery(fn, m, x[0], [1] + [0] * (m.limbs - 1), y)),
]

# Which value operands must be below p (bit k for operand k), where not all of them.
BELOW_MODULUS = {"montredc": 0b10}


def below_modulus(op: Operation) -> int:
    return BELOW_MODULUS.get(op.name, (1 << op.modulus_operand) - 1)
