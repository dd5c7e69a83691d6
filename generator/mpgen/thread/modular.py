"""Arithmetic modulo a number fixed at generation time (odd, or even without the
Montgomery operations), branch-free.

The modulus' words are immediates in the instruction list. Results are reduced
(below p) for reduced operands; a final subtraction is a mask, never a branch.
Montgomery products use R = 2^(32 limbs). Planned at 32-bit limbs (the GPU's), at 64 (the
host's 64-bit rendering) and at the exhaustive tests' toy width: modadd to modsqr; the
gcd's step at 32 only (the loops, in headers/loops.cuh, run on either width's products:
thread/powers.py).
"""
from __future__ import annotations

from ..ir import ANY_WIDTH
from .common import Operation, binary, same_limbs, unary
from .compare import IS_ZERO, all_ones_if_nonzero
from .inverse import BINARY_GCD_STEP
from .powers import NEEDS_ODD_PRIME
from .powers import OPERATIONS as LOOPS
from .mul import multiply
from .reduction import (add_mod, barrett, lazy_allowed, montgomery, montgomery_reduce, montgomery_square,
                        pseudo_mersenne, solinas, subtract_mod)


def _modneg(fn, field, x, y):
    n = field.limbs
    d = fn.temps_list(n)
    fn.chain("sub", [(d[k], (pk, x[0][k])) for k, pk in enumerate(field.modulus_words)],
             carry_out=False)
    nonzero = all_ones_if_nonzero(fn, x[0])
    for k in range(n):
        fn.emit("and", y[k], d[k], nonzero)


def _modmul(fn, field, x, y):
    """a b mod p (a a for one operand), by the cheapest reduction the modulus allows:
    the product then pseudo-Mersenne folding, Solinas sums, or Barrett for an even
    modulus and at 64-bit limbs; else (the GPU's lists of an odd p) a b R^-1 (a a R^-1)
    times R^2 R^-1, two Montgomery products. At 64 bits Barrett's products by columns
    measured 1.7-1.8x faster than the two Montgomery products (BLS12-381's base field 42.9
    against 76.9 ns, P-384 45.1 against 76.0 on the dev machine)."""
    b = x[1] if len(x) > 1 else None
    reduce = (pseudo_mersenne if field.pseudo_mersenne else solinas if field.solinas
              else barrett if field.modulus % 2 == 0 or fn.host_plans else None)
    if reduce:
        t = fn.temps_list(2 * field.limbs)
        multiply(fn, t, x[0], b, len(t), field.mul)
        reduce(fn, field, t, y)
        return
    t = fn.temps_list(field.limbs)
    if b is None:
        montgomery_square(fn, field, x[0], t)
    else:
        montgomery(fn, field, x[0], b, t)
    montgomery(fn, field, t, field.words(field.radix_squared), y)


def _modmul_x86(field) -> bool:
    """Whether modmul and modsqr have an x86 plan: where the pseudo-Mersenne folds go by rows
    too. Barrett's and Solinas' one-chain sums printed as assembly after a product by rows
    measured slower than their C++ (chained, ns, the assembly against C++ on the dev machine:
    modmul secp256k1 17.5 / 18.4, Curve25519 18.4 / 21.0; P-256 34.7 / 32.8, P-384 51.1 / 49.7,
    BLS12-381 51.5 / 46.2; modsqr P-256 36.0 / 32.9, BLS12-381 48.8 / 43.0)."""
    return bool(field.pseudo_mersenne)


MONTGOMERY = ("montmul", "montmul_lazy", "montsqr", "montredc", "tomont", "frommont")


def unavailable(op, field) -> str | None:
    """Why op cannot be generated for this modulus, or None."""
    if op.name in NEEDS_ODD_PRIME and not (field.modulus % 2 and field.prime):
        return (f"needs an odd prime modulus ({NEEDS_ODD_PRIME[op.name]}); this one is "
                f"{'even' if field.modulus % 2 == 0 else 'composite'}"
                f"{': use modinv_gcd' if op.name == 'modinv' and field.modulus % 2 else ''}")
    if op.name in MONTGOMERY and field.modulus % 2 == 0:
        return "needs an odd modulus (Montgomery form); this one is even: use modmul"
    if op.name in ("modinv_gcd", "gcd_step") and field.modulus % 2 == 0:
        return "needs an odd modulus (it halves modulo p); this one is even"
    if op.name == "montmul_lazy" and not lazy_allowed(field):
        return (f"needs 4p < 2^{32 * field.limbs} (two spare bits); this modulus has "
                f"{field.modulus.bit_length()} bits in {field.limbs} limbs")
    return None


# Which operands must be below p (bit k for operand k), where not all of them: the
# runtime's checked entry points refuse the others' values at and above p.
BELOW_MODULUS = {"modexp": 0b01, "modexp_ladder": 0b01, "montredc": 0b10, "montmul_lazy": 0,
                 "gcd_step": 0}


def below_modulus(op, field) -> int:
    return BELOW_MODULUS.get(op.name, (1 << len(op.operand_bits(field))) - 1)


def available(op, field) -> bool:
    return unavailable(op, field) is None


OPERATIONS = [
    Operation("modadd", "a + b mod p", binary, same_limbs,
              lambda fn, f, x, y: add_mod(fn, f, x[0], x[1], y), word_bits=ANY_WIDTH),
    Operation("modsub", "a - b mod p", binary, same_limbs,
              lambda fn, f, x, y: subtract_mod(fn, f, x[0], x[1], y), word_bits=ANY_WIDTH),
    Operation("modneg", "-a mod p", unary, same_limbs, _modneg, word_bits=ANY_WIDTH),
    IS_ZERO,
    Operation("montmul", "a b R^-1 mod p: the Montgomery product (R = 2^(32 limbs))", binary,
              same_limbs, lambda fn, f, x, y: montgomery(fn, f, x[0], x[1], y), word_bits=ANY_WIDTH),
    Operation("montmul_lazy", "a b R^-1, congruent and below 2p, for a, b < 2p, without the "
              "final subtraction (moduli with 4p < R)", binary, same_limbs,
              lambda fn, f, x, y: montgomery(fn, f, x[0], x[1], y, lazy=True), word_bits=ANY_WIDTH),
    Operation("montsqr", "a a R^-1 mod p, each cross product once", unary, same_limbs,
              lambda fn, f, x, y: montgomery_square(fn, f, x[0], y), word_bits=ANY_WIDTH),
    Operation("montredc", "(b R + a) R^-1 mod p for b < p: Montgomery reduction of the double-width "
              "value with low half a, high half b", binary, same_limbs,
              lambda fn, f, x, y: montgomery_reduce(fn, f, x[0], x[1], y), word_bits=ANY_WIDTH),
    Operation("tomont", "a R mod p: into Montgomery form", unary, same_limbs,
              lambda fn, f, x, y: montgomery(fn, f, x[0], f.words(f.radix_squared), y), word_bits=ANY_WIDTH),
    Operation("frommont", "a R^-1 mod p: out of Montgomery form", unary, same_limbs,
              lambda fn, f, x, y: montgomery(fn, f, x[0], f.words(1), y), word_bits=ANY_WIDTH),
    Operation("modmul", "a b mod p, ordinary form (the header says by which reduction)", binary,
              same_limbs, _modmul, word_bits=ANY_WIDTH, x86_plan=_modmul_x86),
    Operation("modsqr", "a a mod p (ordinary form)", unary, same_limbs,
              _modmul, word_bits=ANY_WIDTH, x86_plan=_modmul_x86),
    BINARY_GCD_STEP,
    *LOOPS,
]
