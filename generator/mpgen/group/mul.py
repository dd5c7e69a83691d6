"""The group tier's quadratic product: each thread's two balanced column blocks
(ProductRows), their columns turned into limbs, the excess handed to the next block, and
one carry scan over the low half and one over the high half."""
from __future__ import annotations

from ..ir import Function, Reg
from .addsub import finish, propagate_bit
from .program import CarryScan, Handoff, ProductRows, Program, Shape, ThreadStep

EXCESS_WORDS = 2  # what a block's columns hold above its Q limbs: under 2^49 (see columns)
# The rows' tables (a and b, 2 T Q words a group) live in static shared memory, 48 KB a
# block with the handoff's words and the batch kernel's staging: up to 2^16 bits. Larger
# products need the launch's opt-in to more (next).
MAX_BITS = 1 << 16


def rows(q: int) -> Function:
    """One iteration: acc += a-block x b-window, column j of the block taking a[u] b[w]
    with w = j - u + Q - 1 of the window, each product added with its carries into the
    column's three words (mad.lo.cc, madc.hi.cc, addc)."""
    fn = Function("product_row", 3 * q + q + 2 * q - 1, 3 * q)
    acc_in = [Reg("x", i) for i in range(3 * q)]
    a = [Reg("x", 3 * q + u) for u in range(q)]
    window = [Reg("x", 4 * q + w) for w in range(2 * q - 1)]
    acc = [Reg("y", i) for i in range(3 * q)]
    for j in range(q):
        lo, hi, top = j, q + j, 2 * q + j
        for u in range(q):
            source = (lambda i: acc_in[i]) if u == 0 else (lambda i: acc[i])
            b = window[j - u + q - 1]
            fn.chain_of([("mad.lo", acc[lo], (a[u], b, source(lo))),
                         ("mad.hi", acc[hi], (a[u], b, source(hi))),
                         ("add", acc[top], (source(top), 0))], carry_out=False)
    fn.check()
    return fn


def columns(q: int) -> Function:
    """A block's Q columns (low words, high words, carries) as its Q limbs and the excess
    above them: the sum of the three rows, shifted by 0, 1 and 2 limbs. A column sums at
    most L < 2^16 products of 64 bits, so the block's value is under 2^(32 Q + 49): two
    words of excess, and no carry out of the second."""
    fn = Function("columns", 3 * q, q + EXCESS_WORDS)
    lo = [Reg("x", j) for j in range(q)]
    hi = [Reg("x", q + j) for j in range(q)]
    top = [Reg("x", 2 * q + j) for j in range(q)]
    w = [Reg("y", i) for i in range(q + EXCESS_WORDS)]
    fn.emit("mov", w[0], lo[0])
    fn.chain("add", [(w[j], (lo[j], hi[j - 1])) for j in range(1, q)] + [(w[q], (hi[q - 1], 0))])
    fn.emit("addc", w[q + 1], 0, 0)
    fn.chain("add", [(w[j], (w[j], top[j - 2])) for j in range(2, q + 2)], carry_out=False)
    fn.check()
    return fn


def absorb(q: int) -> Function:
    """A block's limbs plus the excess handed to it (under 2^49): its limbs, the carry out
    (generate) and whether a carry in would pass through (propagate: all ones)."""
    fn = Function("absorb", q + EXCESS_WORDS, q + 2)
    d = [Reg("y", i) for i in range(q)]
    x = [Reg("x", i) for i in range(q)]
    excess = [Reg("x", q + i) for i in range(EXCESS_WORDS)] + [0] * (q - EXCESS_WORDS)
    fn.chain("add", [(d[i], (x[i], excess[i])) for i in range(q)])
    fn.emit("addc", Reg("y", q), 0, 0)
    propagate_bit(fn, d, False, Reg("y", q + 1))
    fn.check()
    return fn


def mul(shape: Shape) -> Program:
    """The full product a b (2 bits wide: the low half's T Q limbs, then the high half's)."""
    shape.check()
    q = shape.limbs_per_thread
    if q < EXCESS_WORDS:
        raise ValueError(f"{shape.threads} threads of {q} limbs: the group product needs at least "
                         f"{EXCESS_WORDS} limbs a thread")
    to_limbs, take, add_carry = columns(q), absorb(q), finish("finish", q, False)
    steps = [ProductRows(rows(q), "a", "b", "low_columns", "high_columns")]
    for half in ("low", "high"):
        steps.append(ThreadStep(to_limbs, (f"{half}_columns",), ((f"{half}_d", q), (f"{half}_excess", 2))))
    steps.append(Handoff("low_excess", "high_excess", "low_in", "high_in"))
    for half in ("low", "high"):
        steps.append(ThreadStep(take, (f"{half}_d", f"{half}_in"),
                                ((f"{half}_s", q), (f"{half}_generate", 1), (f"{half}_propagate", 1))))
    steps.append(CarryScan("low_generate", "low_propagate", None, "low_carry", "low_out"))
    steps.append(CarryScan("high_generate", "high_propagate", "low_out", "high_carry", "high_out"))
    for half in ("low", "high"):
        steps.append(ThreadStep(add_carry, (f"{half}_s", f"{half}_carry"), ((half, q),)))
    return Program("mul", shape, ("a", "b"), (), tuple(steps), "low", None, high="high")
