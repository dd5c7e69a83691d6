"""Karatsuba multiplication and squaring, branch-free.

a = a1 B^h + a0 and b = b1 B^h + b0 (B = 2^w for limbs of w bits, h = ceil(n/2)):
    a b = z2 B^2h + (z0 + z2 - (a0 - a1)(b0 - b1)) B^h + z0,
with z0 = a0 b0 and z2 = a1 b1. The middle product is taken of |a0 - a1| and
|b0 - b1| (conditional negation by masks), and added or subtracted by a mask from
the two signs, so no step depends on the data.
"""
from __future__ import annotations

from typing import Callable

from ..ir import Function, Operand, Reg
from .common import all_ones_if_borrow

# multiply(fn, acc, a, b, limit): acc[:limit] = a * b (b is None for a square)
SubProduct = Callable[[Function, list[Reg], list[Reg], "list[Reg] | None", int], None]


def _abs_difference(fn: Function, a0: list[Reg], a1: list[Reg]) -> tuple[list[Reg], Reg]:
    """|a0 - a1| over len(a0) limbs (a1 may be shorter), and a mask: all ones if a0 < a1."""
    h = len(a0)
    diff = fn.temps_list(h)
    wide: list[Operand] = a1 + [0] * (h - len(a1))
    fn.chain("sub", [(diff[i], (a0[i], wide[i])) for i in range(h)])
    negative = all_ones_if_borrow(fn)
    one_if_negative = fn.temp()
    fn.emit("and", one_if_negative, negative, 1)
    for d in diff:  # two's complement when negative: (d ^ m) + 1
        fn.emit("xor", d, d, negative)
    fn.chain("add", [(diff[0], (diff[0], one_if_negative))] +
             [(diff[i], (diff[i], 0)) for i in range(1, h)], carry_out=False)
    return diff, negative


def karatsuba(fn: Function, acc: list[Reg], a: list[Reg], b: list[Reg] | None, limit: int,
              sub_product: SubProduct) -> None:
    """acc[:limit] = a * b (a * a when b is None), exact when the product fits in limit limbs."""
    n = len(a)
    h = n - n // 2
    full = acc[:limit] + fn.temps_list(2 * n - limit)  # a known-zero top limb still takes part
    a0, a1 = a[:h], a[h:]
    b0, b1 = (b[:h], b[h:]) if b is not None else (None, None)
    z0, z2 = full[:2 * h], full[2 * h:]
    sub_product(fn, z0, a0, b0, 2 * h)
    sub_product(fn, z2, a1, b1, 2 * (n - h))

    da, sign_a = _abs_difference(fn, a0, a1)
    if b is None:
        middle_sign = None  # (a0 - a1)^2 >= 0: always subtracted
        db = None
    else:
        db, sign_b = _abs_difference(fn, b0, b1)
        middle_sign = fn.temp()
        fn.emit("xor", middle_sign, sign_a, sign_b)  # all ones when the product is negative
    middle = fn.temps_list(2 * h)
    sub_product(fn, middle, da, db, 2 * h)

    # z1 = z0 + z2 -/+ middle over 2h+1 limbs: subtracting is adding ~middle + 1.
    z1 = fn.temps_list(2 * h + 1)
    z2_wide: list[Operand] = z2 + [0] * (2 * h - len(z2))
    fn.chain("add", [(z1[i], (z0[i], z2_wide[i])) for i in range(2 * h)])
    fn.emit("addc", z1[2 * h], 0, 0)
    subtract, one_if_subtract = fn.temp(), fn.temp()
    if middle_sign is None:
        fn.emit("mov", subtract, fn.mask)
    else:
        fn.emit("not", subtract, middle_sign)
    fn.emit("and", one_if_subtract, subtract, 1)
    flipped = fn.temps_list(2 * h)
    for m, f in zip(middle, flipped):
        fn.emit("xor", f, m, subtract)
    fn.emit("add.cc", fn.temp(), one_if_subtract, fn.mask)  # carry in: 1 when subtracting
    fn.chain("add", [(z1[i], (z1[i], f)) for i, f in enumerate(flipped)] +
             [(z1[2 * h], (z1[2 * h], subtract))], carry_in=True, carry_out=False)

    # full[h:] += z1, the carry running to the top (the product fits in 2n limbs).
    span = min(2 * h + 1, 2 * n - h)
    steps = [(full[h + i], (full[h + i], z1[i])) for i in range(span)]
    steps += [(full[k], (full[k], 0)) for k in range(h + span, 2 * n)]
    fn.chain("add", steps, carry_out=False)
