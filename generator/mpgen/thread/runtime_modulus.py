"""Montgomery arithmetic modulo an odd p given at run time: p is an operand of each
instance, so one kernel serves a batch in which every instance brings its own modulus
(RSA-like batches, ECM), where a field's operations (modular.py) have p compiled in.

Each takes p and, beside it, -p^-1 mod 2^32 as operands (the "minus inverse", CGBN's np0;
in the group tier, which reduces by whole products (group/montgomery.py), -p^-1 mod R):
computing it costs a product's worth of instructions at small sizes, and a batch reuses it
for every product under the same modulus, as CGBN's mont_mul does. R = 2^(32 limbs); R^2
mod p (for tomont) comes likewise from the caller. The instruction sequences are the
fixed-modulus ones of reduction.py, with p's words and -p^-1 in registers instead of
immediates; results are reduced for reduced operands, and nothing branches on the data.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..ir import Function, Reg
from ..size import LIMB_BITS, Size, limbs_for
from .bits import leading_zeros, shift_by
from .compare import all_ones_if_nonzero
from .common import Operation, all_ones_if_borrow, all_ones_if_set, inverse_word, same_limbs, unary
from .division import steps as division_steps
from .gcd import loop_call, modinv_finish, modinv_round, modinv_start
from .mul import multiply, schoolbook
from .powers import LoopOperation, scans_table, window_bits
from .reduction import masked_modulus, montgomery, montgomery_reduce, montgomery_square, subtract_if_not_below


@dataclass(frozen=True)
class RuntimeModulus:
    """p as reduction.py reads it, from the operands' registers."""
    limbs: int
    modulus_words: list[Reg]
    minus_inverse: Reg | None  # None for Barrett's reduction, which has none
    spare_bit: bool  # 2p < R: known where the size leaves the top limb's top bit out


def _with_modulus(values: int, plan):
    """A planner over `values` value operands followed by p and -p^-1 mod 2^32."""
    def planner(fn: Function, size: Size, x: list[list[Reg]], y: list[Reg]) -> None:
        modulus = RuntimeModulus(size.limbs, x[values], x[values + 1][0], size.top_bits < 32)
        plan(fn, modulus, x[:values], y)
    return planner


def minus_inverse_bits(size: Size) -> int:
    """-p^-1's width: mod 2^32 where the reduction goes a word at a time (the thread tier),
    mod R = 2^(32 limbs) where it goes by whole products (the group tier)."""
    return LIMB_BITS if size.tier_name == "thread" else LIMB_BITS * size.limbs


def _shape(values: int):
    return lambda size: (size.bits,) * (values + 1) + (minus_inverse_bits(size),)


def _operation(name: str, summary: str, values: int, plan) -> Operation:
    return Operation(name, summary, _shape(values), same_limbs, _with_modulus(values, plan),
                     modulus_operand=values, minus_inverse_operand=values + 1)


def _montmul(fn, m, x, y):
    montgomery(fn, m, x[0], x[1], y)


def _minus_inverse(fn: Function, size: Size, x: list[list[Reg]], y: list[Reg]) -> None:
    """-p^-1 mod 2^32 (common.inverse_word); 0 and the flag where p is even."""
    low = x[0][0]
    inverse, odd = inverse_word(fn, low), fn.temp()
    fn.emit("and", odd, low, 1)
    fn.emit("sub", inverse, 0, inverse)
    fn.emit("and", y[0], inverse, all_ones_if_set(fn, odd))
    fn.emit("xor", y[1], odd, 1)


def reciprocal_bits(size: Size) -> int:
    """Barrett's reciprocal's width, W = 32 limbs: that of p normalized, whatever the tier."""
    return LIMB_BITS * size.limbs


def _barrett_modmul(fn: Function, size: Size, x: list[list[Reg]], y: list[Reg]) -> None:
    """a b mod p for a, b < p, by the reciprocal v = floor((2^(2W) - 1) / p') - 2^W of p' =
    p 2^s, p shifted up by its leading zeros s within W = 32 limbs bits: u = a (b 2^s) = u1
    2^W + u0 (u1 < p'), whose remainder by p' is (a b mod p) 2^s, by Moller and Granlund's
    division by an invariant integer (2011, algorithm 4) with 2^W for the word: (q1, q0) =
    v u1 + u, q1 + 1, r = u0 - q1 p' mod 2^W, then p' added where r > q0 and subtracted
    where r >= p' (masks, no branch). Two full products and a low half, where modmul runs
    the division's digit loop. p = 0: the flag and 0."""
    a, b, p, v = x
    n = size.limbs
    shift = fn.temp()
    leading_zeros(fn, shift, p)
    stages = (n - 1).bit_length()  # p != 0 moves by below n limbs
    normal = shift_by(fn, p, shift, stages, left=True)
    u = fn.temps_list(2 * n)
    multiply(fn, u, a, shift_by(fn, b, shift, stages, left=True), 2 * n, size.mul)
    q = fn.temps_list(2 * n)
    multiply(fn, q, v, u[n:], 2 * n, size.mul)
    fn.chain("add", [(q[k], (q[k], u[k])) for k in range(2 * n)], carry_out=False)
    fn.chain("add", [(q[n + k], (q[n + k], int(k == 0))) for k in range(n)], carry_out=False)
    times = fn.temps_list(n)
    schoolbook(fn, times, q[n:], normal, n)
    r = fn.temps_list(n)
    fn.chain("sub", [(r[k], (u[k], times[k])) for k in range(n)], carry_out=False)
    fn.chain("sub", [(fn.temp(), (q[k], r[k])) for k in range(n)])
    above = all_ones_if_borrow(fn)  # r > q0: q1 was one too many
    modulus = RuntimeModulus(n, normal, None, False)
    back = masked_modulus(fn, modulus, above)
    added = fn.temps_list(n)
    fn.chain("add", [(added[k], (r[k], back[k])) for k in range(n)], carry_out=False)
    rest = fn.temps_list(n)
    subtract_if_not_below(fn, modulus, added, rest)
    remainder = shift_by(fn, rest, shift, stages, left=False)
    nonzero = all_ones_if_nonzero(fn, p)
    for k in range(n):
        fn.emit("and", y[k], remainder[k], nonzero)
    fn.emit("add", y[n], nonzero, 1)


OPERATIONS = [
    _operation("montmul", "a b R^-1 mod p, p odd given at run time with -p^-1 mod 2^32 (a, b < p; the group "
               "tier: mod R)", 2, _montmul),
    _operation("montsqr", "a a R^-1 mod p, p odd given at run time with -p^-1 mod 2^32 (a < p; the group tier: "
               "mod R)", 1, lambda fn, m, x, y: montgomery_square(fn, m, x[0], y)),
    _operation("montredc", "(b R + a) R^-1 mod p, p odd given at run time with -p^-1 mod 2^32 "
               "(the group tier: mod R; b < p): Montgomery reduction of the double-width value with low half a, "
               "high half b",
               2, lambda fn, m, x, y: montgomery_reduce(fn, m, x[0], x[1], y)),
    _operation("tomont", "a r R^-1 mod p for r = R^2 mod p: a R mod p, into Montgomery form, p odd "
               "given at run time with -p^-1 mod 2^32 (a, r < p; the group tier: mod R)", 2, _montmul),
    _operation("frommont", "a R^-1 mod p: out of Montgomery form, p odd given at run time with "
               "-p^-1 mod 2^32 (a < p; the group tier: mod R)", 1,
               lambda fn, m, x, y: montgomery(fn, m, x[0], [1] + [0] * (m.limbs - 1), y)),
    # The constants of a modulus, each its own operation (one number each, as mpgen-run
    # prints them).
    Operation("mont_minus_inverse", "-p^-1 mod 2^32 (the group tier: mod R, by Newton's iteration), what the "
              "Montgomery operations take after p; flag 1 and result 0 where p is even", unary,
              lambda s: limbs_for(minus_inverse_bits(s)), _minus_inverse, flag=True),
    LoopOperation("mont_radix_squared", "R^2 mod p, which tomont multiplies by (R = 2^(32 limbs)): the "
                  "remainders of R and then of (R mod p) R, by division; flag 1 and result 0 where p is even",
                  unary, "::mpgen::loops::radix_squared<division_normalize, division_step, division_finish, "
                  "limbs>(y, x);", lambda s: [], flag=True, steps=division_steps),
    LoopOperation("modexp", "a^e mod p for e below 2^bits, p odd given at run time (CGBN's powm_odd): "
                  "fixed windows in Montgomery form as the fields' modexp, after R^2 mod p and -p^-1 mod "
                  "2^32 are computed; flag 1 and result 0 where p is even", lambda s: (s.bits,) * 3,
                  lambda s: "::mpgen::loops::runtime_power<montmul, montsqr, mont_minus_inverse, division_normalize, "
                  f"division_step, division_finish, limbs, bits, {window_bits(s)}, {str(scans_table(s)).lower()}>(y, x);",
                  lambda s: ["montmul", "montsqr", "mont_minus_inverse"], flag=True, modulus_operand=2,
                  steps=division_steps),
    LoopOperation("modmul", "a b mod p for a, b < p, any p given at run time (even ones too): the product, "
                  "then its remainder by division (Knuth's algorithm D; p = 0: flag 1 and result 0)",
                  lambda s: (s.bits,) * 3, "::mpgen::loops::runtime_modmul<mul, division_normalize, division_step, "
                  "division_finish, limbs>(y, x);", lambda s: ["mul"], flag=True, modulus_operand=2,
                  odd_modulus="", steps=division_steps),
    Operation("barrett_modmul", "a b mod p for a, b < p, any p given at run time (even ones too) with its "
              "Barrett reciprocal v (barrett_reciprocal): Moller and Granlund's division by an invariant integer, "
              "two products and a low half; flag 1 and result 0 where p = 0",
              lambda s: (s.bits,) * 3 + (reciprocal_bits(s),), same_limbs, _barrett_modmul, flag=True,
              modulus_operand=2, reciprocal_operand=3, odd_modulus=""),
    LoopOperation("barrett_reciprocal", "floor((2^(2W) - 1) / p') - 2^W for p' = p 2^s, p shifted up by its "
                  "leading zeros s within W = 32 limbs bits: the constant barrett_modmul takes after p (by "
                  "division); flag 1 and result 0 where p = 0", unary,
                  "::mpgen::loops::barrett_reciprocal<division_normalize, division_step, division_finish, limbs>(y, x);",
                  lambda s: [], flag=True, result=lambda s: limbs_for(reciprocal_bits(s)), steps=division_steps),
    LoopOperation("modinv", "a^-1 mod p for a < p, p odd given at run time, the same steps whatever the "
                  "values (Bernstein and Yang's divsteps, in both tiers); flag 1 and result 0 where gcd(a, p) > 1 or p is even", lambda s: (s.bits, s.bits),
                  lambda s: loop_call("modinv_start", "modinv_round", "modinv_finish", s), lambda s: [], flag=True,
                  modulus_operand=1, odd_modulus="modinv divides by 2 modulo p",
                  steps=lambda s: [modinv_start(s), modinv_round(s), modinv_finish(s)]),
]

# Which value operands must be below p (bit k for operand k), where not all of them.
BELOW_MODULUS = {"montredc": 0b10, "modexp": 0b01}  # modinv: its one value operand; (barrett_)modmul: both


def below_modulus(op: Operation) -> int:
    return BELOW_MODULUS.get(op.name, (1 << op.modulus_operand) - 1)
