"""mul: the full product, schoolbook, row by row.

Each row adds a * b[i] into the accumulator as two carry chains, the low halves
of the partial products then the high halves (one `IMAD.WIDE` per pair in SASS).
The product has exactly ceil(2*bits/32) limbs: when that is 2n-1, the top limb
is known to be zero, so the last row neither computes nor carries into it.
"""
from __future__ import annotations

from ..ir import Function, Reg
from ..size import Size, limbs_for


def product_limbs(size: Size) -> int:
    return limbs_for(2 * size.bits)


def plan_mul(size: Size) -> Function:
    n, width = size.limbs, product_limbs(size)
    fn = Function("mul", 2 * n, width)
    a = [Reg("x", j) for j in range(n)]
    b = [Reg("x", n + j) for j in range(n)]
    y = [Reg("y", k) for k in range(width)]

    for j in range(n):
        fn.emit("mul.lo", y[j], a[j], b[0])
    fn.emit("mul.hi", y[n], a[n - 1], b[0])
    if n > 1:
        fn.chain("mad.hi", [(y[j + 1], (a[j], b[0], y[j + 1])) for j in range(n - 1)])
        fn.emit("addc", y[n], y[n], 0)

    for i in range(1, n):
        top = i + n < width  # False only in the last row of an odd-width product
        fn.chain("mad.lo", [(y[i + j], (a[j], b[i], y[i + j])) for j in range(n)], carry_out=top)
        if top:
            fn.emit("addc", y[i + n], 0, 0)
        hi_terms = n if top else n - 1
        fn.chain("mad.hi", [(y[i + 1 + j], (a[j], b[i], y[i + 1 + j])) for j in range(hi_terms)],
                 carry_out=False)
    fn.check()
    return fn
