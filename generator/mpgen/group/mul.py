"""The group tier's quadratic products: each thread's two balanced column blocks
(ProductRows), their columns turned into limbs, the excess handed to the next block, and
one carry scan over each half. `mul` (a b), `mad` (a b + c: c joins the low columns),
`sqr` (each cross product once) and `mul_lo` (the low half alone, in half the rows: the
short blocks' threads help the long ones and hand over their partial columns)."""
from __future__ import annotations

from ..ir import Function, Reg
from .addsub import finish, propagate_bit
from .program import CarryScan, Handoff, Mirror, Neighbours, ProductRows, Program, Shape, ThreadStep, Top

EXCESS_WORDS = 2  # what a block's columns hold above its Q limbs: under 2^49 (see columns)


def rows(q: int, name: str = "product_row", wanted=lambda u, j: True) -> Function:
    """One iteration: acc += a-block x b-window, column j of the block taking a[u] b[w]
    with w = j - u + Q - 1 of the window (the pairs (u, j) `wanted`), each product added
    with its carries into the column's three words (mad.lo.cc, madc.hi.cc, addc)."""
    fn = Function(name, 3 * q + q + 2 * q - 1, 3 * q)
    acc_in = [Reg("x", i) for i in range(3 * q)]
    a = [Reg("x", 3 * q + u) for u in range(q)]
    window = [Reg("x", 4 * q + w) for w in range(2 * q - 1)]
    acc = [Reg("y", i) for i in range(3 * q)]
    written = [False] * q
    for j in range(q):
        lo, hi, top = j, q + j, 2 * q + j
        for u in range(q):
            if not wanted(u, j):
                continue
            source = (lambda i: acc[i]) if written[j] else (lambda i: acc_in[i])
            b = window[j - u + q - 1]
            fn.chain_of([("mad.lo", acc[lo], (a[u], b, source(lo))),
                         ("mad.hi", acc[hi], (a[u], b, source(hi))),
                         ("add", acc[top], (source(top), 0))], carry_out=False)
            written[j] = True
    for j in range(q):
        if not written[j]:
            for i in (j, q + j, 2 * q + j):
                fn.emit("mov", acc[i], acc_in[i])
    fn.check()
    return fn


def square_finish(q: int, odd: bool) -> Function:
    """The last row of a square's block c = 2 r (+1 where odd), a's block r against the
    window: the pairs of limbs i < j (2 u < j, or 2 u < Q + j in an odd block), then the
    columns doubled, then the squares a_i^2 whose words fall in the block (low word at
    column 2 i, high word at 2 i + 1)."""
    fn = rows(q, f"square_finish_{'odd' if odd else 'even'}", lambda u, j: 2 * u < j + q * odd)
    acc = [Reg("y", i) for i in range(3 * q)]
    a = [Reg("x", 3 * q + u) for u in range(q)]
    for j in range(q):
        fn.chain("add", [(acc[i], (acc[i], acc[i])) for i in (j, q + j, 2 * q + j)], carry_out=False)
    for u in range(q):
        for word, half in enumerate(("mad.lo", "mad.hi")):
            j = 2 * u + word - q * odd
            if 0 <= j < q:
                fn.chain_of([(half, acc[j], (a[u], a[u], acc[j])), ("add", acc[q + j], (acc[q + j], 0)),
                             ("add", acc[2 * q + j], (acc[2 * q + j], 0))], carry_out=False)
    fn.check()
    return fn


def add_columns(q: int) -> Function:
    """Two blocks of columns (3 Q words each) summed, column by column."""
    fn = Function("add_columns", 6 * q, 3 * q)
    for j in range(q):
        fn.chain("add", [(Reg("y", i), (Reg("x", i), Reg("x", 3 * q + i))) for i in (j, q + j, 2 * q + j)],
                 carry_out=False)
    fn.check()
    return fn


def columns(q: int, addend: bool = False) -> Function:
    """A block's Q columns (low words, high words, carries) as its Q limbs and the excess
    above them: the sum of the three rows, shifted by 0, 1 and 2 limbs (plus Q limbs of
    an addend: mad's c). A column sums at most L < 2^16 products of 64 bits, so the
    block's value is under 2^(32 Q + 49) (+ 2^(32 Q)): two words of excess, and no carry
    out of the second."""
    fn = Function("columns_plus" if addend else "columns", 3 * q + q * addend, q + EXCESS_WORDS)
    lo = [Reg("x", j) for j in range(q)]
    hi = [Reg("x", q + j) for j in range(q)]
    top = [Reg("x", 2 * q + j) for j in range(q)]
    w = [Reg("y", i) for i in range(q + EXCESS_WORDS)]
    fn.emit("mov", w[0], lo[0])
    fn.chain("add", [(w[j], (lo[j], hi[j - 1])) for j in range(1, q)] + [(w[q], (hi[q - 1], 0))])
    fn.emit("addc", w[q + 1], 0, 0)
    fn.chain("add", [(w[j], (w[j], top[j - 2])) for j in range(2, q + 2)], carry_out=False)
    if addend:
        c = [Reg("x", 3 * q + j) for j in range(q)]
        fn.chain("add", [(w[j], (w[j], c[j])) for j in range(q)] + [(w[q], (w[q], 0)), (w[q + 1], (w[q + 1], 0))],
                 carry_out=False)
    fn.check()
    return fn


def absorb(q: int, spare: int = 0) -> Function:
    """A block's limbs plus the excess handed to it (under 2^49; `spare` words after it
    unread): its limbs, the carry out (generate) and whether a carry in would pass
    through (propagate: all ones)."""
    fn = Function("absorb", q + EXCESS_WORDS + spare, q + 2)
    d = [Reg("y", i) for i in range(q)]
    x = [Reg("x", i) for i in range(q)]
    excess = [Reg("x", q + i) for i in range(EXCESS_WORDS)] + [0] * (q - EXCESS_WORDS)
    fn.chain("add", [(d[i], (x[i], excess[i])) for i in range(q)])
    fn.emit("addc", Reg("y", q), 0, 0)
    propagate_bit(fn, d, False, Reg("y", q + 1))
    fn.check()
    return fn


def _check(shape: Shape) -> int:
    shape.check()
    q = shape.limbs_per_thread
    if q < EXCESS_WORDS:
        raise ValueError(f"{shape.threads} threads of {q} limbs: the group product needs at least "
                         f"{EXCESS_WORDS} limbs a thread")
    return q


def _both_halves(name: str, shape: Shape, rows_step: ProductRows, operands: tuple[str, ...]) -> Program:
    """The full product's steps after its rows: each half's columns as limbs (the low half
    plus mad's c), the excess handed on, one carry scan per half."""
    q = shape.limbs_per_thread
    to_limbs, take, add_carry = columns(q), absorb(q), finish("finish", q, False)
    low_limbs = columns(q, addend=True) if "c" in operands else to_limbs
    steps = [rows_step,
             ThreadStep(low_limbs, ("low_columns",) + (("c",) if "c" in operands else ()),
                        (("low_d", q), ("low_excess", 2))),
             ThreadStep(to_limbs, ("high_columns",), (("high_d", q), ("high_excess", 2))),
             Handoff("low_excess", "high_excess", "low_in", "high_in")]
    for half in ("low", "high"):
        steps.append(ThreadStep(take, (f"{half}_d", f"{half}_in"),
                                ((f"{half}_s", q), (f"{half}_generate", 1), (f"{half}_propagate", 1))))
    steps.append(CarryScan("low_generate", "low_propagate", None, "low_carry", "low_out"))
    steps.append(CarryScan("high_generate", "high_propagate", "low_out", "high_carry", "high_out"))
    for half in ("low", "high"):
        steps.append(ThreadStep(add_carry, (f"{half}_s", f"{half}_carry"), ((half, q),)))
    return Program(name, shape, operands, (), tuple(steps), "low", None, high="high")


def mul(shape: Shape) -> Program:
    """The full product a b (2 bits wide: the low half's T Q limbs, then the high half's)."""
    q = _check(shape)
    return _both_halves("mul", shape, ProductRows(rows(q), "a", "b", "low_columns", "high_columns"), ("a", "b"))


def mad(shape: Shape) -> Program:
    """a b + c, full (under 2^(2 bits): no carry out)."""
    q = _check(shape)
    return _both_halves("mad", shape, ProductRows(rows(q), "a", "b", "low_columns", "high_columns"),
                        ("a", "b", "c"))


def sqr(shape: Shape) -> Program:
    """a a, full, each cross product once: T/2 + 2 rows a thread instead of T + 1."""
    q = _check(shape)
    finishes = (square_finish(q, False), square_finish(q, True))
    return _both_halves("sqr", shape, ProductRows(rows(q), "a", "a", "low_columns", "high_columns",
                                                  "square", finishes), ("a",))


def mul_lo(shape: Shape) -> Program:
    """a b mod 2^bits: the low blocks' rows shared by threads t and T - 1 - t (T/2 + 1
    each), the partial columns passed back (Mirror), one carry scan."""
    q = _check(shape)
    steps = (ProductRows(rows(q), "a", "b", "own_columns", "partner_columns", "low"),
             Mirror("partner_columns", "helped_columns"),
             ThreadStep(add_columns(q), ("own_columns", "helped_columns"), (("columns", 3 * q),)),
             ThreadStep(columns(q), ("columns",), (("d", q), ("excess", 2))),
             Neighbours("excess", -1, "excesses"),  # thread t - 1's, then its own
             ThreadStep(absorb(q, EXCESS_WORDS), ("d", "excesses"), (("s", q), ("generate", 1), ("propagate", 1))),
             CarryScan("generate", "propagate", None, "carry", "out"),
             ThreadStep(finish("finish", q, False), ("s", "carry"), (("y", q),)),
             Top("y", None, None))
    return Program("mul_lo", shape, ("a", "b"), (), steps, "y", None)
