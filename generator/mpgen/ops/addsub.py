"""add and sub: one carry chain across the limbs, carry or borrow out of the exact width."""
from __future__ import annotations

from ..ir import Function, Reg
from ..size import LIMB_BITS, Size


def _limbwise(size: Size) -> list:
    n = size.limbs
    return [(Reg("y", i), (Reg("x", i), Reg("x", n + i))) for i in range(n)]


def plan_add(size: Size) -> Function:
    n = size.limbs
    fn = Function("add", 2 * n, n + 1)
    if size.top_bits == LIMB_BITS:
        fn.chain("add", _limbwise(size))
        fn.emit("addc", Reg("y", n), 0, 0)
    else:
        # Spare top bits: the chain cannot overflow the top limb, and the carry
        # out of the exact width is the bit just above it.
        fn.chain("add", _limbwise(size), carry_out=False)
        fn.emit("shr", Reg("y", n), Reg("y", n - 1), size.top_bits)
        fn.emit("and", Reg("y", n - 1), Reg("y", n - 1), (1 << size.top_bits) - 1)
    fn.check()
    return fn


def plan_sub(size: Size) -> Function:
    n = size.limbs
    fn = Function("sub", 2 * n, n + 1)
    fn.chain("sub", _limbwise(size))
    # Both operands are below 2^bits, so the 32-bit chain's borrow is the exact one.
    borrow = fn.temp()
    fn.emit("subc", borrow, 0, 0)  # 0 or 0xffffffff
    fn.emit("and", Reg("y", n), borrow, 1)
    if size.top_bits != LIMB_BITS:
        fn.emit("and", Reg("y", n - 1), Reg("y", n - 1), (1 << size.top_bits) - 1)
    fn.check()
    return fn
