"""Division with remainder, one integer per thread: Knuth's algorithm D (TAOCP vol. 2,
4.3.1) with the divisor normalized at run time, branch-free.

Three straight-line lists, which the loop in headers/loops.cuh (divide) runs: `normalize`
shifts the divisor b left until its top limb's top bit is set (by its leading zeros, a
count of the data: a barrel of masked limb moves, then a funnel shift) and the dividend
with it, and takes the reciprocal of b's top limb; `step` finds one quotient digit (the
estimate from the top two words by that reciprocal, Moller and Granlund's 2-by-1
division, then the multiply-subtract and two masked add-backs: the estimate exceeds the
digit by at most 2); `finish` shifts the remainder back and masks the results where the
division is undefined. The quotient of a dividend (high, low) of 2n limbs fits n limbs
where high < b, so n steps do it; an n-limb dividend is the case high = 0.
"""
from __future__ import annotations

from ..ir import Function, Operand, Reg
from ..size import Size
from .bits import leading_zeros, shift_by
from .columns import Columns
from .common import all_ones_if_borrow, select
from .powers import LoopOperation


# Newton's steps for the word reciprocal: from the tangent's 11% error, each squares it
# (0.11, 0.012, 1.5e-4, 2.3e-8, 5e-16 after four), each floor taking at most 2 more units.
RECIPROCAL_STEPS = 4
RECIPROCAL_CORRECTIONS = 3  # the last step's floors leave z at most 3 below


def word_reciprocal(fn: Function, d: Reg) -> Reg:
    """floor((2^64 - 1) / d) - 2^32 for d >= 2^31, by Newton's iteration on z = 2^32 + v
    from below (z <= 2^64 / d throughout, so e = 2^64 - d z >= 0): the tangent of 1/x at
    3/4 (x = d / 2^32) rounded down, at least 2^32; then z += floor(z e / 2^64) a step (its
    low product rounded down); then one unit a correction while e > d."""
    v, t_low, t_high, high7 = fn.temp(), fn.temp(), fn.temp(), fn.temp()
    fn.emit("mul.hi", high7, d, 3340530120)  # ceil(7/9 2^32): t = 16/9 d rounded up
    fn.emit("add.cc", t_low, d, high7)
    fn.emit("addc", t_high, 0, 0)
    fn.emit("add.cc", t_low, t_low, 1)
    fn.emit("addc", t_high, t_high, 0)
    fn.emit("sub.cc", v, 0xAAAAAAAA, t_low)  # floor(5/3 2^32) - t: the tangent less 2^32
    fn.emit("subc.cc", fn.temp(), 1, t_high)
    below = all_ones_if_borrow(fn)
    fn.emit("not", below, below)
    fn.emit("and", v, v, below)  # the tangent falls below 2^32 near x = 1: 2^32 there
    negated = fn.temp()
    fn.emit("sub", negated, 0, d)  # 2^32 - d

    def error() -> tuple[Reg, Reg]:
        """e = 2^64 - d (2^32 + v) = (2^32 - d) 2^32 - d v, below 2^62."""
        low, high, e_low, e_high = fn.temp(), fn.temp(), fn.temp(), fn.temp()
        fn.emit("mul.lo", low, d, v)
        fn.emit("mul.hi", high, d, v)
        fn.emit("sub.cc", e_low, 0, low)
        fn.emit("subc", e_high, negated, high)
        return e_low, e_high

    for _ in range(RECIPROCAL_STEPS):
        e_low, e_high = error()
        # z e / 2^64 = e_high + (e_low + v e_high + v e_low / 2^32) / 2^32, rounded down
        low, high, part, step = fn.temp(), fn.temp(), fn.temp(), fn.temp()
        fn.emit("mul.lo", low, v, e_high)
        fn.emit("mul.hi", high, v, e_high)
        fn.emit("mul.hi", part, v, e_low)
        fn.emit("add.cc", low, low, e_low)
        fn.emit("addc", high, high, 0)
        fn.emit("add.cc", low, low, part)
        fn.emit("addc", high, high, 0)
        fn.emit("add", step, e_high, high)
        grown = fn.temp()
        fn.emit("add", grown, v, step)
        v = grown
    e_low, e_high = error()
    for _ in range(RECIPROCAL_CORRECTIONS):  # e - 1 >= d: one more (floor((2^64 - 1) / d) keeps e >= 1)
        lowered, higher, over = fn.temp(), fn.temp(), fn.temp()
        fn.emit("sub.cc", lowered, e_low, 1)
        fn.emit("subc", higher, e_high, 0)
        fn.emit("sub.cc", fn.temp(), lowered, d)
        fn.emit("subc.cc", fn.temp(), higher, 0)
        more = all_ones_if_borrow(fn)
        fn.emit("not", more, more)
        fn.emit("sub", over, v, more)
        v = over
        masked, next_low, next_high = fn.temp(), fn.temp(), fn.temp()
        fn.emit("and", masked, d, more)
        fn.emit("sub.cc", next_low, e_low, masked)
        fn.emit("subc", next_high, e_high, 0)
        e_low, e_high = next_low, next_high
    return v


def normalize(size: Size, name: str = "division_normalize", normal: bool = False) -> Function:
    """x = high (n), low (n), b (n); y = b << s (n), (high, low) << s (2n), s, the
    reciprocal of (b << s)'s top limb, and all ones where the quotient does not fit n limbs
    (high >= b, b = 0 among them), else 0. Where b's top bit is known to be set (`normal`:
    Newton's square root), s = 0 and nothing is shifted."""
    n = size.limbs
    fn = Function(name, 3 * n, 3 * n + 3)
    x = [Reg("x", i) for i in range(3 * n)]
    high, low, b = x[:n], x[n:2 * n], x[2 * n:]
    y = [Reg("y", i) for i in range(3 * n + 3)]
    fn.chain("sub", [(fn.temp(), (high[k], b[k])) for k in range(n)])
    fits = all_ones_if_borrow(fn)  # high < b
    shift = fn.temp()
    if normal:
        fn.emit("mov", shift, 0)
        divisor, dividend = b, low + high
    else:
        leading_zeros(fn, shift, b)  # 32 n for b = 0
        stages = (n - 1).bit_length()  # b != 0 moves it by below n limbs
        divisor = shift_by(fn, b, shift, stages, left=True)
        dividend = shift_by(fn, low + high, shift, stages, left=True)
    for dst, src in zip(y, divisor + dividend + [shift, word_reciprocal(fn, divisor[-1])]):
        fn.emit("mov", dst, src)
    fn.emit("not", y[3 * n + 2], fits)
    fn.check()
    return fn


def _two_by_one(fn: Function, high: Reg, low: Operand, d: Operand, reciprocal: Operand) -> Reg:
    """floor((high 2^32 + low) / d) for high < d, d >= 2^31, by d's reciprocal (Moller and
    Granlund, "Improved division by invariant integers", 2011, algorithm 4)."""
    q0, q1, product, r, too_big, small = (fn.temp() for _ in range(6))
    fn.emit("mul.lo", q0, reciprocal, high)
    fn.emit("mul.hi", q1, reciprocal, high)
    fn.emit("add.cc", q0, q0, low)
    fn.emit("addc", q1, q1, high)
    fn.emit("add", q1, q1, 1)
    fn.emit("mul.lo", product, q1, d)
    fn.emit("sub", r, low, product)
    fn.emit("sub.cc", fn.temp(), q0, r)
    fn.emit("subc", too_big, 0, 0)  # all ones where r > q0: one less
    fn.emit("add", q1, q1, too_big)
    back = fn.temp()
    fn.emit("and", back, d, too_big)
    fn.emit("add", r, r, back)
    fn.emit("sub.cc", fn.temp(), r, d)
    fn.emit("subc", small, 0, 0)  # all ones where r < d, else one more
    fn.emit("add", q1, q1, 1)
    fn.emit("add", q1, q1, small)
    return q1


def estimate_digit(fn: Function, top: Operand, below: Operand, divisor_top: Operand, reciprocal: Operand) -> Reg:
    """Knuth's q-hat: floor((top 2^32 + below) / divisor_top), or 2^32 - 1 where top equals
    divisor_top (top <= divisor_top, whose top bit is set)."""
    differs, equal, estimate = fn.temp(), fn.temp(), fn.temp()
    fn.emit("xor", differs, top, divisor_top)
    fn.emit("sub.cc", fn.temp(), 0, differs)
    unequal = all_ones_if_borrow(fn)
    fn.emit("not", equal, unequal)
    high = fn.temp()
    fn.emit("and", high, top, unequal)  # where equal the digit is 2^32 - 1
    fn.emit("or", estimate, _two_by_one(fn, high, below, divisor_top, reciprocal), equal)
    return estimate


def knuth_step(fn: Function, window: list[Operand], v: list[Operand], reciprocal: Operand) -> tuple[list[Reg], Reg]:
    """One digit of Knuth's algorithm D: for window (n + 1 limbs, below v 2^32) and v (n
    limbs, its top bit set, its top limb's reciprocal), (window - q v, q) with q =
    floor(window / v): the estimate from the top two words, the multiply-subtract, and two
    masked add-backs (the estimate exceeds q by at most 2)."""
    n = len(v)
    estimate = estimate_digit(fn, window[n], window[n - 1], v[-1], reciprocal)
    columns = Columns(fn, n + 1)
    columns.add_row(estimate, [(j, v[j]) for j in range(n)])
    product = fn.temps_list(n + 1)
    columns.sum_into(product)
    rest = fn.temps_list(n + 2)
    fn.chain("sub", [(rest[k], (window[k], product[k])) for k in range(n + 1)])
    fn.emit("subc", rest[n + 1], 0, 0)  # the sign word: all ones where negative
    for _ in range(2):  # add v back while negative
        sign, masked = rest[n + 1], fn.temps_list(n)
        for k in range(n):
            fn.emit("and", masked[k], v[k], sign)
        fn.emit("add", estimate, estimate, sign)
        added = fn.temps_list(n + 2)
        fn.chain("add", [(added[k], (rest[k], masked[k] if k < n else 0)) for k in range(n + 2)],
                 carry_out=False)
        rest = added
    return rest[:n], estimate


def step(size: Size, name: str = "division_step") -> Function:
    """x = r (n limbs, r < v), the dividend's next limb d, v (n, its top bit set), v's top
    limb's reciprocal; y = r 2^32 + d - q v (n), then q = floor((r 2^32 + d) / v)."""
    n = size.limbs
    fn = Function(name, 2 * n + 2, n + 1)
    x = [Reg("x", i) for i in range(2 * n + 2)]
    r, d, v, reciprocal = x[:n], x[n], x[n + 1:2 * n + 1], x[2 * n + 1]
    rest, estimate = knuth_step(fn, [d] + r, v, reciprocal)
    for k in range(n):
        fn.emit("mov", Reg("y", k), rest[k])
    fn.emit("mov", Reg("y", n), estimate)
    fn.check()
    return fn


def finish(size: Size, name: str = "division_finish") -> Function:
    """x = the normalized remainder (n), s, the quotient (n), the mask of normalize; y = the
    quotient, the remainder >> s, each 0 under the mask, and the flag (1 under it)."""
    n = size.limbs
    fn = Function(name, 2 * n + 2, 2 * n + 1)
    x = [Reg("x", i) for i in range(2 * n + 2)]
    r, shift, q, undefined = x[:n], x[n], x[n + 1:2 * n + 1], x[2 * n + 1]
    defined = fn.temp()
    fn.emit("not", defined, undefined)
    remainder = shift_by(fn, r, shift, (n - 1).bit_length(), left=False)
    for k, value in enumerate(q + remainder):
        fn.emit("and", Reg("y", k), value, defined)
    fn.emit("and", Reg("y", 2 * n), undefined, 1)
    fn.check()
    return fn


def steps(size: Size) -> list[Function]:
    return [normalize(size), step(size), finish(size)]


def _call(wide: bool, quotient: bool, remainder: bool) -> str:
    flags = ", ".join("true" if f else "false" for f in (wide, quotient, remainder))
    return (f"::mpgen::loops::divide<division_normalize, division_step, division_finish, limbs, {flags}>(y, x);")


def _operation(name: str, summary: str, wide: bool, quotient: bool, remainder: bool) -> LoopOperation:
    return LoopOperation(
        name, summary + "; flag 1 and every result word 0 where b = 0"
        + (" or the quotient does not fit (a's high half not below b)" if wide else ""),
        (lambda s: (64 * s.limbs, s.bits)) if wide else (lambda s: (s.bits, s.bits)),
        _call(wide, quotient, remainder), lambda s: [], flag=True,
        result=lambda s: s.limbs * (quotient + remainder), parts=quotient + remainder, steps=steps)


OPERATIONS = [
    _operation("div_qr", "a / b and a mod b (the quotient's limbs, then the remainder's): "
               "Knuth's algorithm D, branch-free", False, True, True),
    _operation("div", "a / b, rounded down", False, True, False),
    _operation("rem", "a mod b", False, False, True),
    _operation("div_qr_wide", "a / b and a mod b for a of twice the limbs (CGBN's div_rem_wide)",
               True, True, True),
]
