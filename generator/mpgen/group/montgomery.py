"""The group tier's Montgomery arithmetic modulo an odd p given at run time
(docs/group-tier.md): the per-thread contracts (thread/runtime_modulus.py), R = 2^L with
L = 32 limbs, reduced by whole products of the tier instead of a word at a time, so that
the group's threads share the work evenly and the cost follows multiplication's:

    m = (x mod R) (-p^-1) mod R     (mul_lo)
    t = (x + m p) / R               (mad, the shifts to R where the group holds more, add)
    t - p where t >= p              (sub, a masked select)

That needs -p^-1 mod R whole, not mod 2^32: here the minus-inverse operand is L bits wide
(`mont_minus_inverse` computes it by Newton's iteration, a product pair a step), where the
per-thread tier's word-by-word reduction takes one word. Nothing branches on the values.
"""
from __future__ import annotations

from ..ir import Function, Reg
from ..size import LIMB_BITS
from ..thread.common import all_ones_if_set, select
from .addsub import add_or_sub
from .bits import shift_constant
from .compose import Composer
from .mul import check, mad, mul, mul_lo, sqr
from .program import Program, Shape, ThreadStep


def radix_shape(shape: Shape) -> Shape:
    """The shape at R's width, L = 32 limbs (the size rounded up to whole limbs)."""
    return Shape(LIMB_BITS * shape.limbs, shape.threads, shape.limbs_per_thread)


def held_shape(shape: Shape) -> Shape:
    """The shape at the width the group holds, H = 32 T Q (no bit cleared below it)."""
    return Shape(shape.held_bits, shape.threads, shape.limbs_per_thread)


def choose(q: int, carry: bool) -> Function:
    """y = t - p where the carry out of t (bit L) is set or t - p did not borrow, else t:
    x = t, t - p, [the carry,] the borrow."""
    fn = Function("choose_reduced_carry" if carry else "choose_reduced", 2 * q + 1 + carry, q)
    take = fn.temp()  # 1 where t - p is taken: no borrow, or a carry
    fn.emit("xor", take, Reg("x", 2 * q + carry), 1)
    if carry:
        fn.emit("or", take, take, Reg("x", 2 * q))
    fn.emit("and", take, take, 1)
    mask = all_ones_if_set(fn, take)
    for i in range(q):
        select(fn, Reg("y", i), mask, Reg("x", q + i), Reg("x", i))
    fn.check()
    return fn


def reduce(c: Composer, low: str, extra: str | None, p: str, np: str, into: str) -> None:
    """into = (low + m p) / R + extra, reduced below p, m = low (-p^-1) mod R: Montgomery's
    reduction of x = low + extra R (extra < p) where the group holds exactly L bits; where
    it holds H > L, low may carry bits from L up (a product's low half) and extra is what
    lies above H, moved down to R: the sum is the same. Every value below 2^L in its
    vectors, the result below p for x < p R."""
    shape, radix, held = c.shape, radix_shape(c.shape), held_shape(c.shape)
    m = c.call(mul_lo(radix), low, np).result
    s = c.call(mad(shape), m, p, low)  # low + m p = 0 mod R: its bits from L up are t
    if held.bits == radix.bits:
        t = s.high
    else:
        down = c.call(shift_constant("shr", radix.bits, held), s.result).result
        up = c.call(shift_constant("shl", held.bits - radix.bits, held), s.high).result
        t = c.call(add_or_sub("add", held, carry_in=False), down, up).result
    carry = None
    if extra is not None:
        total = c.call(add_or_sub("add", radix, carry_in=False), t, extra)
        t, carry = total.result, total.flag
    d = c.call(add_or_sub("sub", radix, carry_in=False), t, p)
    c.step(ThreadStep(choose(shape.limbs_per_thread, carry is not None),
                      (t, d.result) + ((carry,) if carry else ()) + (d.flag,), ((into, shape.limbs_per_thread),)))


def above_radix(c: Composer, high: str) -> str:
    """A product's high half (from H up) as its part from R up."""
    held, radix = held_shape(c.shape), radix_shape(c.shape)
    if held.bits == radix.bits:
        return high
    return c.call(shift_constant("shl", held.bits - radix.bits, held), high).result


def _program(name: str, shape: Shape, operands: tuple[str, ...], build) -> Program:
    check(shape)
    c = Composer(shape)
    build(c)
    return Program(name, shape, operands, (), tuple(c.steps), "y", None)


def _product(name: str, shape: Shape, square: bool) -> Program:
    """a b R^-1 mod p (a a R^-1 for montsqr; tomont is montmul by R^2 mod p)."""
    def build(c: Composer) -> None:
        product = c.call(sqr(shape), "a") if square else c.call(mul(shape), "a", "b")
        reduce(c, product.result, above_radix(c, product.high), "p", "np", "y")
    return _program(name, shape, ("a", "p", "np") if square else ("a", "b", "p", "np"), build)


def montmul(shape: Shape) -> Program:
    return _product("montmul", shape, False)


def tomont(shape: Shape) -> Program:
    return _product("tomont", shape, False)


def montsqr(shape: Shape) -> Program:
    return _product("montsqr", shape, True)


def montredc(shape: Shape) -> Program:
    """(b R + a) R^-1 mod p (b < p)."""
    return _program("montredc", shape, ("a", "b", "p", "np"), lambda c: reduce(c, "a", "b", "p", "np", "y"))


def frommont(shape: Shape) -> Program:
    """a R^-1 mod p."""
    return _program("frommont", shape, ("a", "p", "np"), lambda c: reduce(c, "a", None, "p", "np", "y"))


def newton_steps(bits: int) -> int:
    """Newton steps from 3 good bits (-p is -p^-1 mod 8) to `bits`, each doubling them."""
    steps, good = 0, 3
    while good < bits:
        steps, good = steps + 1, 2 * good
    return steps


def integer_one(c: Composer, shape: Shape, into: str) -> None:
    """The vectors zero (Q zero limbs) and one (the word 1), then `into` = the integer 1 at
    shape's width (zero + zero with the carry in 1): 1 in thread 0's first limb only."""
    q = shape.limbs_per_thread
    c.step(ThreadStep(constants(q), (), (("zero", q), ("one", 1))))
    c.call(add_or_sub("add", shape), "zero", "zero", "one", into=into)


def constants(q: int) -> Function:
    """Q zero limbs, then the word 1 (the group's integers 0 and, as a carry in, 1)."""
    fn = Function("zero_and_one", 0, q + 1)
    for i in range(q):
        fn.emit("mov", Reg("y", i), 0)
    fn.emit("mov", Reg("y", q), 1)
    fn.check()
    return fn


def _keep_if(q: int) -> Function:
    """x = Q limbs, ok (0 or 1): y = the limbs where ok, else 0; then 1 - ok (the flag)."""
    fn = Function("keep_if", q + 1, q + 1)
    ok, mask = Reg("x", q), fn.temp()
    fn.emit("sub", mask, 0, ok)
    for i in range(q):
        fn.emit("and", Reg("y", i), Reg("x", i), mask)
    fn.emit("xor", Reg("y", q), ok, 1)
    fn.check()
    return fn


def mont_minus_inverse(shape: Shape) -> Program:
    """-p^-1 mod R whole: y = -p, then y (2 + p y) = y (p y) + 2 y a step (mod R), each
    doubling the good low bits; then the check p y + 1 = R (the carry out of L bits): where
    it fails (p even) the flag, and y = 0."""
    q, radix = check(shape), radix_shape(shape)

    def step(c: Composer) -> None:
        e = c.call(mul_lo(radix), "p", "inverse").result
        f = c.call(mul_lo(radix), "inverse", e).result
        twice = c.call(add_or_sub("add", radix, carry_in=False), "inverse", "inverse").result
        c.call(add_or_sub("add", radix, carry_in=False), f, twice, into="inverse")

    def build(c: Composer) -> None:
        c.call(add_or_sub("neg", radix), "p", into="inverse")
        c.repeat(newton_steps(radix.bits), step)
        e = c.call(mul_lo(radix), "p", "inverse").result
        c.step(ThreadStep(constants(q), (), (("zero", q), ("one", 1))))
        ok = c.call(add_or_sub("add", radix), e, "zero", "one").flag  # e + 1 = R: e = -1
        c.step(ThreadStep(_keep_if(q), ("inverse", ok), (("y", q), ("flag", 1))))
    c = Composer(shape)
    build(c)
    return Program("mont_minus_inverse", shape, ("p",), (), tuple(c.steps), "y", "flag")


PLANNERS = {"montmul": montmul, "montsqr": montsqr, "montredc": montredc, "tomont": tomont, "frommont": frommont,
            "mont_minus_inverse": mont_minus_inverse}
