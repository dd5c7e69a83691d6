"""The group tier's integer square root (docs/group-tier.md): Newton's iteration at doubling
precision, the per-thread tier's (thread/sqrt.py) over the group's division
(group/division.py), at the width the group holds (H limbs), nothing branching on a:

    a' = a 4^k                      one of its top two bits set (the division's
                                    normalization stages give a's leading zeros)
    s = floor(sqrt(T))              T = a''s top two limbs: digit by digit in every thread
                                    (thread/sqrt.py's top_root), kept in the top limb
    for each level h (2, ... H/2 limbs, each at most twice the last h'):
      T = a''s top 2h limbs; s extended by h - h' all-ones limbs: above sqrt(T) by less
      than 2^(32 (h - h')), its top bit set
      q = floor(T / s)              the division's steps with s at the top of the vector
                                    and T below it: ceil(h / Q) digits, not T
      s = min(s, (s + q) / 2)       the root or one more (s >= 2^(32 h - 1))
      s = s - 1 where s^2 > T       a low-half product and a comparison
    floor(sqrt(a)) = s / 2^k        0 for a = 0; flag 1 where its square is a

The levels' digits add up to about one division (T steps), where a whole division a
Newton step took 8 or 9 of them (measured); each level adds the
reciprocal of its divisor's top limbs, a low-half product and a few scans."""
from __future__ import annotations

from ..ir import Function, Reg
from ..thread.sqrt import top_root
from .addsub import add_or_sub
from .bits import shift_constant, shift_variable
from .compare import compare
from .division import Division, held_shape
from .montgomery import constants
from .mul import mul_lo
from .powers import complement, select_by_bit, zero_where
from .program import Broadcast, Program, Shape, ThreadStep
from .words import either


def levels(held_limbs: int) -> list[int]:
    """The root's limbs at each level after the first (1 limb): each at most twice the one
    before, the last H / 2 (thread/sqrt.py's levels for a root of H / 2 limbs)."""
    found = [held_limbs // 2]
    while found[-1] > 1:
        found.append((found[-1] + 1) // 2)
    return found[::-1][1:]


def shift_halves() -> Function:
    """x = a's leading zeros z; y = z mod 2 (a 2^z moved back to a 4^k), k = floor(z / 2)."""
    fn = Function("sqrt_shift_halves", 1, 2)
    fn.emit("and", Reg("y", 0), Reg("x", 0), 1)
    fn.emit("shr", Reg("y", 1), Reg("x", 0), 1)
    fn.check()
    return fn


def start(q: int) -> Function:
    """x = a''s top two limbs, then Q limbs of the integer 1 moved to the top limb (1 there
    only); y = Q limbs: the top two limbs' root in the top limb, 0 elsewhere."""
    fn = Function("sqrt_start", 2 + q, q)
    root = top_root(fn, Reg("x", 1), Reg("x", 0))
    for i in range(q):
        mask = fn.temp()
        fn.emit("sub", mask, 0, Reg("x", 2 + i))
        fn.emit("and", Reg("y", i), root, mask)
    fn.check()
    return fn


def both() -> Function:
    """x[0] and x[1] (bits)."""
    fn = Function("both_bits", 2, 1)
    fn.emit("and", Reg("y", 0), Reg("x", 0), Reg("x", 1))
    fn.check()
    return fn


def sqrt(shape: Shape) -> Program:
    """floor(sqrt(a)); flag 1 where a is an exact square."""
    shape.check()
    held, q = held_shape(shape), shape.limbs_per_thread
    limbs = held.threads * q
    d = Division(shape)
    c = d.c

    def shifted(direction: str, limbs_moved: int, vector: str) -> str:
        return d.shifted(direction, 32 * limbs_moved, vector)

    c.step(ThreadStep(constants(q), (), (("zero", q), ("one", 1))))
    c.step(ThreadStep(complement(q), ("zero",), (("ones", q),)))
    normal, _, _, zeros = d.normalize("a")
    c.step(ThreadStep(shift_halves(), (zeros,), (("odd", 1), ("half", 1))))
    halved = d.shifted("shr", 1, normal)
    c.step(ThreadStep(select_by_bit(q), (normal, halved, "odd"), (("even", q),)))
    c.step(Broadcast("even", (limbs - 2, limbs - 1), "top"))
    unit = c.call(add_or_sub("add", held), "zero", "zero", "one").result
    c.step(ThreadStep(start(q), ("top", shifted("shl", limbs - 1, unit)), (("root", q),)))
    root, below = "root", 1  # the root, at the top of the vector: its limbs
    for h in levels(limbs):
        tag = f"level{h}_"
        mask = shifted("shl", limbs - h, shifted("shr", limbs - (h - below), "ones"))  # limbs H-h .. H-h'
        c.step(ThreadStep(either(q), (root, mask), ((tag + "divisor", q),)))
        divisor = tag + "divisor"
        window = shifted("shr", limbs - 2 * h, "even")  # T
        digits = -(-h // q)
        high = shifted("shl", limbs - h - digits * q, window)  # T 2^(32 (H - h)) = high 2^(32 Q digits)
        fits = c.call(compare("lt", held), high, divisor).result
        quotient, _ = d.schoolbook(divisor, high, "zero", steps=digits)
        s = shifted("shr", limbs - h, divisor)
        total = c.call(add_or_sub("add", held, carry_in=False), s, quotient).result
        mean = d.shifted("shr", 1, total)
        smaller = c.call(compare("lt", held), mean, s).result
        c.step(ThreadStep(both(), (smaller, fits), ((tag + "take", 1),)))
        c.step(ThreadStep(select_by_bit(q), (s, mean, tag + "take"), ((tag + "mean", q),)))
        square = c.call(mul_lo(held), tag + "mean", tag + "mean").result
        over = c.call(compare("lt", held), window, square).result
        exact = c.call(add_or_sub("sub", held), tag + "mean", "zero", over).result
        root, below = shifted("shl", limbs - h, exact), h
    moved = c.call(shift_variable("shr", held), exact, "half").result  # the last level's root
    empty = c.call(compare("is_zero", held), "a").result
    c.step(ThreadStep(zero_where(q), (moved, empty), (("y", q),)))
    square = c.call(mul_lo(held), "y", "y").result
    c.call(compare("eq", held), square, "a", into="exact")
    return Program("sqrt", shape, ("a",), (), tuple(c.steps), "y", "exact")


PLANNERS = {"sqrt": sqrt}
