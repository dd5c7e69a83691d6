"""The integer square root, one per thread, branch-free: the digit-by-digit method in base
4 (a restoring square root). Each step takes the next two bits of a from the top: with root
r and remainder e (a's bits so far = r^2 + e), e' = 4 e + the two bits, and where e' >= 4 r + 1
the root's next bit is 1 and e' -= 4 r + 1. Both r and e stay below 2^(16 limbs + 2), so a
step works on half the limbs plus one. The loop (cuda/loops.cuh, square_root_floor) feeds
the steps a's bits by its counter.
"""
from __future__ import annotations

from ..ir import Function, Reg
from ..size import Size
from .common import all_ones_if_borrow, select, unary
from .powers import LoopOperation


def state_limbs(size: Size) -> int:
    """The root's and the remainder's limbs: r < 2^(16 limbs), e <= 2 r."""
    return size.limbs // 2 + 1


def step(size: Size) -> Function:
    """x = r, e (state_limbs each), the next two bits of a (0..3); y = the next r, e."""
    m = state_limbs(size)
    fn = Function("sqrt_step", 2 * m + 1, 2 * m)
    r, e, pair = [Reg("x", i) for i in range(m)], [Reg("x", m + i) for i in range(m)], Reg("x", 2 * m)
    shifted, trial, difference = fn.temps_list(m), fn.temps_list(m), fn.temps_list(m)
    for k in range(m):  # 4 e + the pair, and 4 r + 1
        if k == 0:
            fn.emit("shl", shifted[0], e[0], 2)
            fn.emit("or", shifted[0], shifted[0], pair)
            fn.emit("shl", trial[0], r[0], 2)
            fn.emit("or", trial[0], trial[0], 1)
        else:
            fn.emit("shf.l.clamp", shifted[k], e[k - 1], e[k], 2)
            fn.emit("shf.l.clamp", trial[k], r[k - 1], r[k], 2)
    fn.chain("sub", [(difference[k], (shifted[k], trial[k])) for k in range(m)])
    below = all_ones_if_borrow(fn)  # the next bit is 0
    bit = fn.temp()
    fn.emit("add", bit, below, 1)
    for k in range(m):
        if k == 0:
            fn.emit("shl", Reg("y", 0), r[0], 1)
            fn.emit("or", Reg("y", 0), Reg("y", 0), bit)
        else:
            fn.emit("shf.l.clamp", Reg("y", k), r[k - 1], r[k], 1)
        select(fn, Reg("y", m + k), below, shifted[k], difference[k])
    fn.check()
    return fn


OPERATIONS = [
    LoopOperation("sqrt", "floor(sqrt(a)); flag 1 where a is an exact square: the digit-by-digit square "
                  "root, a step per bit of the root whatever a is", unary,
                  lambda s: f"::mpgen::loops::square_root_floor<sqrt_step, limbs, bits, {state_limbs(s)}>(y, x);",
                  lambda s: [], flag=True, steps=lambda s: [step(s)]),
]
