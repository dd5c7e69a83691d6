"""The group tier's quadratic products: each thread's two balanced column blocks
(ProductRows), their accumulators split into limbs and the excess handed to the next
block, and one carry scan over each half. `mul` (a b), `mad` (a b + c: c joins the low
blocks' accumulators),
`sqr` (each cross product once) and `mul_lo` (the low half alone, in half the rows: the
short blocks' threads help the long ones and hand over their partial columns)."""
from __future__ import annotations

from ..ir import Function, Reg
from ..thread.columns import Columns
from .addsub import finish, propagate_bit
from .program import EXCESS_WORDS, CarryScan, Handoff, Mirror, Neighbours, ProductRows, Program, Shape, ThreadStep, \
    Top, accumulator_words

def rows(q: int, name: str = "product_row", wanted=lambda u, j: True) -> Function:
    """One iteration: the block's accumulator (Q limbs and EXCESS_WORDS above them) plus
    a-block x b-window, column j taking a[u] b[w] with w = j - u + Q - 1 of the window
    (the pairs (u, j) `wanted`). The products go by column parity into the accumulator
    itself (even columns) and an odd one, each product's low and high words one pair of a
    carry chain (thread/columns.py: one wide multiply-add in SASS), the two summed at the
    end. A block sums at most L < 2^16 products of 64 bits a column, under 2^(32 Q + 49):
    the excess holds it."""
    words = accumulator_words(q)
    fn = Function(name, words + q + 2 * q - 1, words)
    a = [Reg("x", words + u) for u in range(q)]
    window = [Reg("x", words + q + w) for w in range(2 * q - 1)]
    acc = [Reg("y", i) for i in range(words)]
    for i in range(words):
        fn.emit("mov", acc[i], Reg("x", i))
    columns = Columns(fn, words, acc, initial=words)
    for u in range(q):
        products = [(j, window[j - u + q - 1]) for j in range(q) if wanted(u, j)]
        if products:
            columns.add_row(a[u], products)
    columns.sum_into(acc)
    fn.check()
    return fn


def square_finish(q: int, odd: bool) -> Function:
    """The last row of a square's block c = 2 r (+1 where odd), a's block r against the
    window: the pairs of limbs i < j (2 u < j, or 2 u < Q + j in an odd block), then the
    accumulator doubled, then the squares a_i^2 whose words fall in the block: column j
    takes the low word of a_u^2 where j + Q (odd) = 2 u, the high word where it is 2 u + 1,
    one chain."""
    fn = rows(q, f"square_finish_{'odd' if odd else 'even'}", lambda u, j: 2 * u < j + q * odd)
    words = accumulator_words(q)
    acc = [Reg("y", i) for i in range(words)]
    a = [Reg("x", words + u) for u in range(q)]
    fn.chain("add", [(acc[i], (acc[i], acc[i])) for i in range(words)], carry_out=False)
    squares = []
    for j in range(q):
        u, high = divmod(j + q * odd, 2)
        squares.append(("mad.hi" if high else "mad.lo", acc[j], (a[u], a[u], acc[j])))
    fn.chain_of(squares + [("add", acc[i], (acc[i], 0)) for i in range(q, words)], carry_out=False)
    fn.check()
    return fn


def add_blocks(q: int) -> Function:
    """Two accumulators of one block summed (mul_lo's own rows and its helper's)."""
    words = accumulator_words(q)
    fn = Function("add_blocks", 2 * words, words)
    fn.chain("add", [(Reg("y", i), (Reg("x", i), Reg("x", words + i))) for i in range(words)], carry_out=False)
    fn.check()
    return fn


def split(q: int, addend: bool = False) -> Function:
    """A block's accumulator as its Q limbs and the excess above them (plus Q limbs of an
    addend: mad's c, which the excess absorbs: under 2^49 + 1)."""
    words = accumulator_words(q)
    fn = Function("split_plus" if addend else "split", words + q * addend, words)
    acc, y = [Reg("x", i) for i in range(words)], [Reg("y", i) for i in range(words)]
    if addend:
        c = [Reg("x", words + j) for j in range(q)]
        fn.chain("add", [(y[j], (acc[j], c[j])) for j in range(q)] + [(y[i], (acc[i], 0)) for i in range(q, words)],
                 carry_out=False)
    else:
        for i in range(words):
            fn.emit("mov", y[i], acc[i])
    fn.check()
    return fn


def absorb(q: int, spare: int = 0) -> Function:
    """A block's limbs plus the excess handed to it (under 2^49; `spare` words after it
    unread): its limbs, the carry out (generate) and whether a carry in would pass
    through (propagate: all ones)."""
    fn = Function("absorb_excesses" if spare else "absorb", q + EXCESS_WORDS + spare, q + 2)
    d = [Reg("y", i) for i in range(q)]
    x = [Reg("x", i) for i in range(q)]
    excess = [Reg("x", q + i) for i in range(EXCESS_WORDS)] + [0] * (q - EXCESS_WORDS)
    fn.chain("add", [(d[i], (x[i], excess[i])) for i in range(q)])
    fn.emit("addc", Reg("y", q), 0, 0)
    propagate_bit(fn, d, False, Reg("y", q + 1))
    fn.check()
    return fn


def check(shape: Shape) -> int:
    shape.check()
    q = shape.limbs_per_thread
    if q < EXCESS_WORDS:
        most = 1 << (shape.limbs - 1).bit_length() - 1  # the most threads that leave each 2 limbs
        raise ValueError(f"{shape.threads} threads of {q} limb{'s' * (q != 1)}: the group's products need at least "
                         f"{EXCESS_WORDS} limbs a thread; give at most {most} threads")
    return q


def both_halves(name: str, shape: Shape, rows_step, operands: tuple[str, ...]) -> Program:
    """The full product's steps after its columns (rows_step: ProductRows or Convolution,
    into low_columns and high_columns): each half's accumulators as limbs (the low
    half plus mad's c), the excess handed on, one carry scan per half."""
    q = shape.limbs_per_thread
    to_limbs, take, add_carry = split(q), absorb(q), finish("finish", q, False)
    low_limbs = split(q, addend=True) if "c" in operands else to_limbs
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
    q = check(shape)
    return both_halves("mul", shape, ProductRows(rows(q), "a", "b", "low_columns", "high_columns"), ("a", "b"))


def mad(shape: Shape) -> Program:
    """a b + c, full (under 2^(2 bits): no carry out)."""
    q = check(shape)
    return both_halves("mad", shape, ProductRows(rows(q), "a", "b", "low_columns", "high_columns"),
                        ("a", "b", "c"))


def sqr(shape: Shape) -> Program:
    """a a, full, each cross product once: T/2 + 2 rows a thread instead of T + 1."""
    q = check(shape)
    finishes = (square_finish(q, False), square_finish(q, True))
    return both_halves("sqr", shape, ProductRows(rows(q), "a", "a", "low_columns", "high_columns",
                                                  "square", finishes), ("a",))


def low_half(name: str, shape: Shape, steps: tuple, limbs: str) -> Program:
    """A low half's program: `steps`, which leave block t's Q limbs and excess in `limbs`
    and "excess", then the excess handed to the next block, one carry scan, the width's top
    cleared."""
    q = shape.limbs_per_thread
    steps += (Neighbours("excess", -1, "excesses"),  # thread t - 1's, then its own
              ThreadStep(absorb(q, EXCESS_WORDS), (limbs, "excesses"),
                         (("s", q), ("generate", 1), ("propagate", 1))),
              CarryScan("generate", "propagate", None, "carry", "out"),
              ThreadStep(finish("finish", q, False), ("s", "carry"), (("y", q),)),
              Top("y", None, None))
    return Program(name, shape, ("a", "b"), (), steps, "y", None)


def mul_lo(shape: Shape) -> Program:
    """a b mod 2^bits: the low blocks' rows shared by threads t and T - 1 - t (T/2 + 1
    each), the partial accumulators passed back (Mirror), one carry scan."""
    q = check(shape)
    return low_half("mul_lo", shape, (
        ProductRows(rows(q), "a", "b", "own_columns", "partner_columns", "low"),
        Mirror("partner_columns", "helped_columns"),
        ThreadStep(add_blocks(q), ("own_columns", "helped_columns"), (("d", q), ("excess", 2)))), "d")
