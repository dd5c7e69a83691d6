"""The greatest common divisor of two integers, one per thread, branch-free: Stein's binary
gcd. gcd_start takes out the common power of two 2^k (k the trailing zeros of a | b), so
that one of u, v is odd; then 2 bits steps of the binary gcd without coefficients
(inverse.py: subtract the smaller from the larger where both are odd, halve the even one)
leave one of them 0 and the other the odd part of the gcd; gcd_finish shifts it back.
The loop (cuda/loops.cuh, binary_gcd) runs the same steps whatever the values.
"""
from __future__ import annotations

from ..ir import Function, Reg
from ..size import Size
from .bits import shift_by, trailing_zeros
from .common import binary, same_limbs
from .inverse import binary_gcd_step
from .powers import LoopOperation


def _stages(size: Size) -> int:
    return (size.limbs - 1).bit_length()  # shifts by below `limbs` limbs (a nonzero value's zeros)


def start(size: Size) -> Function:
    """x = a, b; y = a >> k, b >> k, k for k the trailing zeros of a | b."""
    n = size.limbs
    fn = Function("gcd_start", 2 * n, 2 * n + 1)
    a, b = [Reg("x", i) for i in range(n)], [Reg("x", n + i) for i in range(n)]
    either, shift = fn.temps_list(n), Reg("y", 2 * n)
    for k in range(n):
        fn.emit("or", either[k], a[k], b[k])
    trailing_zeros(fn, shift, either)
    shift_by(fn, a, shift, _stages(size), left=False, out=[Reg("y", i) for i in range(n)])
    shift_by(fn, b, shift, _stages(size), left=False, out=[Reg("y", n + i) for i in range(n)])
    fn.check()
    return fn


def step(size: Size) -> Function:
    """x = u, v (one odd); y = the next u, v."""
    n = size.limbs
    fn = Function("gcd_step", 2 * n, 2 * n)
    x = [[Reg("x", k * n + i) for i in range(n)] for k in range(2)]
    binary_gcd_step(fn, None, x, [Reg("y", i) for i in range(2 * n)])
    fn.check()
    return fn


def finish(size: Size) -> Function:
    """x = u, v (one of them 0), k; y = (u | v) << k."""
    n = size.limbs
    fn = Function("gcd_finish", 2 * n + 1, n)
    odd = fn.temps_list(n)
    for k in range(n):
        fn.emit("or", odd[k], Reg("x", k), Reg("x", n + k))
    shift_by(fn, odd, Reg("x", 2 * n), _stages(size), left=True, out=[Reg("y", i) for i in range(n)])
    fn.check()
    return fn


OPERATIONS = [
    LoopOperation("gcd", "the greatest common divisor of a and b (gcd(a, 0) = a; gcd(0, 0) = 0): Stein's "
                  "binary gcd, 2 bits steps whatever the values", binary,
                  "::mpgen::loops::binary_gcd<gcd_start, gcd_step, gcd_finish, limbs, bits>(y, x);",
                  lambda s: [], result=same_limbs, steps=lambda s: [start(s), step(s), finish(s)]),
]
