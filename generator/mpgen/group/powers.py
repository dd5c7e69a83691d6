"""The group tier's modular exponentiation with p at run time (CGBN's powm_odd;
docs/group-tier.md): one program that computes its own constants and then runs the
exponent's bits, every step a call of the tier's own programs (compose.py), nothing
branching on the values:

    -p^-1 mod R                     mont_minus_inverse (Newton, in a Repeat)
    R mod p                         1 doubled L times mod p (a doubling: add, sub, select)
    R^2 mod p                       2^o R by o more doublings, then v Montgomery squarings
                                    (L = 2^v o, o odd): (2^o)^(2^v) R = 2^L R; alone, this
                                    is mont_radix_squared
    a R mod p                       montmul(a, R^2)
    x = R; for each bit of e from the top: x = x^2 R^-1, then x a R R^-1 kept where the bit
    is set (a masked select);       Montgomery's ladder of squarings and products
    a^e = x R^-1                    frommont

The doublings cost L additions' worth (two carry scans each), small beside the 2 L
Montgomery products of the bits; the schoolbook division (group/division.py) would take
R^2 mod p in about two products' multiplies (still to come)."""
from __future__ import annotations

from ..ir import Function, Reg
from ..thread.common import all_ones_if_set, select
from .addsub import add_or_sub
from .compose import Composer
from .montgomery import choose, copy, integer_one, mont_minus_inverse, product, radix_shape, reduce
from .mul import check
from .program import Program, Shape, ThreadStep


def complement(q: int) -> Function:
    """~x, limb by limb."""
    fn = Function("complement", q, q)
    for i in range(q):
        fn.emit("not", Reg("y", i), Reg("x", i))
    fn.check()
    return fn


def select_by_bit(q: int) -> Function:
    """y = x[Q:2Q] where the bit x[2Q] is set, else x[:Q]: no branch."""
    fn = Function("select_by_bit", 2 * q + 1, q)
    bit = fn.temp()
    fn.emit("and", bit, Reg("x", 2 * q), 1)
    mask = all_ones_if_set(fn, bit)
    for i in range(q):
        select(fn, Reg("y", i), mask, Reg("x", q + i), Reg("x", i))
    fn.check()
    return fn


def zero_where(q: int) -> Function:
    """y = x[:Q] where the flag x[Q] is 0, else 0."""
    fn = Function("zero_where_flag", q + 1, q)
    mask = fn.temp()
    fn.emit("sub", mask, Reg("x", q), 1)
    for i in range(q):
        fn.emit("and", Reg("y", i), Reg("x", i), mask)
    fn.check()
    return fn


def double(c: Composer, x: str, p: str) -> None:
    """x = 2 x mod p (x < p): the sum's carry out of L bits, or no borrow from 2 x - p,
    takes the difference."""
    radix, q = radix_shape(c.shape), c.shape.limbs_per_thread
    twice = c.call(add_or_sub("add", radix, carry_in=False), x, x)
    less = c.call(add_or_sub("sub", radix, carry_in=False), twice.result, p)
    c.step(ThreadStep(choose(q, True), (twice.result, less.result, twice.flag, less.flag), ((x, q),)))


def radix_powers(c: Composer, p: str, np: str, unit: str, square: str) -> None:
    """unit = R mod p (1 in Montgomery form), square = R^2 mod p: 1 doubled L times, then
    o times more, then squared v times in Montgomery form (L = 2^v o, o odd)."""
    radix, q = radix_shape(c.shape), c.shape.limbs_per_thread
    width = radix.bits
    v = (width & -width).bit_length() - 1
    integer_one(c, radix, square)
    c.repeat(width, lambda body: double(body, square, p))
    c.step(ThreadStep(copy(q), (square,), ((unit, q),)))
    c.repeat(width >> v, lambda body: double(body, square, p))
    c.repeat(v, lambda body: product(body, square, None, p, np, square))


def mont_radix_squared(shape: Shape) -> Program:
    """R^2 mod p for odd p (what tomont multiplies by); flag 1 and 0 where p is even."""
    q = check(shape)
    c = Composer(shape)
    inverse = c.call(mont_minus_inverse(shape), "p")
    radix_powers(c, "p", inverse.result, "unit", "square")
    c.step(ThreadStep(zero_where(q), ("square", inverse.flag), (("y", q),)))
    return Program("mont_radix_squared", shape, ("p",), (), tuple(c.steps), "y", inverse.flag)


def modexp(shape: Shape) -> Program:
    """a^e mod p for a < p, e below 2^bits, p odd; flag 1 and 0 where p is even."""
    q = check(shape)
    c = Composer(shape)
    inverse = c.call(mont_minus_inverse(shape), "p")
    np, even = inverse.result, inverse.flag
    radix_powers(c, "p", np, "power", "square")
    product(c, "a", "square", "p", np, "base")
    c.step(ThreadStep(copy(q), ("e",), (("exponent", q),)))

    def bit(body: Composer) -> None:
        top = body.call(add_or_sub("add", shape, carry_in=False), "exponent", "exponent")  # its flag: e's top bit
        body.step(ThreadStep(copy(q), (top.result,), (("exponent", q),)))
        product(body, "power", None, "p", np, "power")
        product(body, "power", "base", "p", np, "times")
        body.step(ThreadStep(select_by_bit(q), ("power", "times", top.flag), (("power", q),)))
    c.repeat(shape.bits, bit)
    reduce(c, "power", None, "p", np, "reduced")
    c.step(ThreadStep(zero_where(q), ("reduced", even), (("y", q),)))
    return Program("modexp", shape, ("a", "e", "p"), (), tuple(c.steps), "y", even)


PLANNERS = {"mont_radix_squared": mont_radix_squared, "modexp": modexp}
