"""The group tier's integer square root (issue 20): the per-thread tier's digit-by-digit
method in base 4 (ops/sqrt.py) over the group's vectors, a step per bit of the root in a
Repeat whatever a is, at the width the group holds (H bits):

    a placed at the top of H bits (a << (H - 2 pairs), pairs = ceil(bits / 2))
    each step:  the pair = the top two bits, moved to thread 0 (a >> (H - 2)); a <<= 2
                e' = 4 e + the pair; where e' >= 4 r + 1 (no borrow from the scan):
                e' -= 4 r + 1, r's next bit 1
    r is kept as 4 r (4 r + 1 is then a bit set, and the next 4 r is 2 (4 r) + 4 bit):
    one one-bit shift a step instead of two; r = (4 r) >> 2 at the end

Flag 1 where a is an exact square (e = 0 at the end): the per-thread tier's contract."""
from __future__ import annotations

from ..ir import Function, Reg
from .addsub import add_or_sub
from .bits import shift_constant
from .compare import compare
from .compose import Composer
from .division import either, held_shape, not_bit
from .montgomery import integer_one
from .powers import copy, select_by_bit
from .program import Program, Shape, ThreadStep


def next_root(q: int) -> Function:
    """x = 2 (4 r), the integer 4 (Q limbs each), the bit; y = 2 (4 r) + 4 bit."""
    fn = Function("sqrt_next_root", 2 * q + 1, q)
    mask = fn.temp()
    fn.emit("sub", mask, 0, Reg("x", 2 * q))
    for i in range(q):
        fn.emit("and", Reg("y", i), Reg("x", q + i), mask)
        fn.emit("or", Reg("y", i), Reg("y", i), Reg("x", i))
    fn.check()
    return fn


def sqrt(shape: Shape) -> Program:
    """floor(sqrt(a)); flag 1 where a is an exact square."""
    shape.check()
    held, q = held_shape(shape), shape.limbs_per_thread
    pairs = (shape.bits + 1) // 2
    c = Composer(shape)
    integer_one(c, held, "unit")
    c.call(shift_constant("shl", 2, held), "unit", into="four")
    gap = held.bits - 2 * pairs
    if gap:
        c.call(shift_constant("shl", gap, held), "a", into="fed")
    else:
        c.step(ThreadStep(copy(q), ("a",), (("fed", q),)))
    c.step(ThreadStep(copy(q), ("zero",), (("rest", q),)))
    c.step(ThreadStep(copy(q), ("zero",), (("root4", q),)))

    def digit(body: Composer) -> None:
        pair = body.call(shift_constant("shr", held.bits - 2, held), "fed").result
        body.call(shift_constant("shl", 2, held), "fed", into="fed_next")
        body.step(ThreadStep(copy(q), ("fed_next",), (("fed", q),)))
        moved = body.call(shift_constant("shl", 2, held), "rest").result
        body.step(ThreadStep(either(q), (moved, pair), (("widened", q),)))
        body.step(ThreadStep(either(q), ("root4", "unit"), (("trial", q),)))  # 4 r + 1
        less = body.call(add_or_sub("sub", held, carry_in=False), "widened", "trial")
        body.step(ThreadStep(not_bit(), (less.flag,), (("bit", 1),)))
        body.step(ThreadStep(select_by_bit(q), ("widened", less.result, "bit"), (("rest", q),)))
        doubled = body.call(shift_constant("shl", 1, held), "root4").result
        body.step(ThreadStep(next_root(q), (doubled, "four", "bit"), (("root4", q),)))
    c.repeat(pairs, digit)
    c.call(shift_constant("shr", 2, held), "root4", into="y")
    c.call(compare("is_zero", held), "rest", into="exact")
    return Program("sqrt", shape, ("a",), (), tuple(c.steps), "y", "exact")


PLANNERS = {"sqrt": sqrt}
