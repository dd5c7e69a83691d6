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

from dataclasses import replace

from ..ir import Function, Reg
from ..size import LIMB_BITS
from ..tiers import GROUP_TABLE
from ..thread.common import all_ones_if_set, select
from .addsub import add_or_sub, finish
from .bits import shift_constant
from .compose import Composer
from .mul import absorb, check, mad, mul, mul_lo, sqr
from .program import EXCESS_WORDS, Broadcast, CarryScan, Program, Shape, ShiftDown, ShiftUp, ThreadStep, Top


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


def _multiply_add_word(q: int, reducing: bool) -> Function:
    """acc (Q limbs and EXCESS_WORDS above) + w f: w = x_0 (-p^-1) mod 2^32 from x_0 =
    the group's lowest limb and the word -p^-1 where reducing (then f = p), else the
    broadcast limb of a (f = b). Two carry chains, the products' low and high words."""
    words = q + EXCESS_WORDS
    fn = Function("reduce_word" if reducing else "multiply_word", words + 1 + reducing + q, words)
    acc = [Reg("y", i) for i in range(words)]
    for i in range(words):
        fn.emit("mov", acc[i], Reg("x", i))
    factor = [Reg("x", words + 1 + reducing + j) for j in range(q)]
    word = Reg("x", words)
    if reducing:
        word = fn.temp()
        fn.emit("mul.lo", word, Reg("x", words), Reg("x", words + 1))
    above = [("add", acc[i], (acc[i], 0)) for i in range(q + 1, words)]
    fn.chain_of([("mad.lo", acc[j], (word, factor[j], acc[j])) for j in range(q)] +
                [("add", acc[q], (acc[q], 0))] + above, carry_out=False)
    fn.chain_of([("mad.hi", acc[j + 1], (word, factor[j], acc[j + 1])) for j in range(q)] + above, carry_out=False)
    fn.check()
    return fn


def _fold(q: int) -> Function:
    """After the shift down a limb: the excess (what lay above limb Q - 1, now at it) added
    into limb Q - 1, its carry kept as the new excess."""
    words = q + EXCESS_WORDS
    fn = Function("fold_excess", words, words)
    for i in range(q - 1):
        fn.emit("mov", Reg("y", i), Reg("x", i))
    fn.chain("add", [(Reg("y", q - 1), (Reg("x", q - 1), Reg("x", q))), (Reg("y", q), (Reg("x", q + 1), 0))],
             carry_out=False)
    for i in range(q + 1, words):
        fn.emit("mov", Reg("y", i), 0)
    fn.check()
    return fn


def _either(name: str) -> Function:
    fn = Function(name, 2, 1)
    fn.emit("or", Reg("y", 0), Reg("x", 0), Reg("x", 1))
    fn.check()
    return fn


def interleaved(shape: Shape, square: bool) -> Program:
    """a b R^-1 mod p with the reduction interleaved word by word (Montgomery's, as CGBN
    spreads it over a warp): for each limb a_i of a, every thread adds a_i b and then m p
    to its Q limbs (m = the group's lowest limb times -p^-1 mod 2^32, broadcast), and the
    sum moves down a limb; each thread keeps what its limbs carry out as an excess that
    the next limb's step absorbs, so that the carries cross threads once, at the end.
    L steps of two broadcasts and a shift, 2 L Q multiply-adds a thread in all."""
    q, radix = check(shape), radix_shape(shape)
    words = q + EXCESS_WORDS
    c = Composer(shape)
    b = "a" if square else "b"
    c.step(Broadcast("np", (0,), "np0"))
    c.step(ThreadStep(zeros(words), (), (("acc", q), ("excess", EXCESS_WORDS))))
    c.step(ThreadStep(copy(q), ("a",), (("rest", q),)))

    def limb(body: Composer, j: int) -> None:
        body.step(Broadcast("rest", (j,), "word"))
        body.step(ThreadStep(_multiply_add_word(q, False), ("acc", "excess", "word", b),
                             (("acc", q), ("excess", EXCESS_WORDS))))
        body.step(Broadcast("acc", (0,), "lowest"))
        body.step(ThreadStep(_multiply_add_word(q, True), ("acc", "excess", "lowest", "np0", "p"),
                             (("acc", q), ("excess", EXCESS_WORDS))))
        body.step(ShiftDown("acc", "acc"))
        body.step(ThreadStep(_fold(q), ("acc", "excess"), (("acc", q), ("excess", EXCESS_WORDS))))

    def block(body: Composer) -> None:
        for j in range(q):
            limb(body, j)
        body.step(ShiftDown("rest", "rest", q))
    c.repeat(shape.limbs // q, block)
    for j in range(shape.limbs % q):
        limb(c, j)
    # The excesses into the limbs above them (the top thread's lies above the held limbs).
    c.step(Broadcast("excess", (EXCESS_WORDS * (shape.threads - 1),), "top_excess"))
    c.step(ShiftUp("excess", None, "carried", EXCESS_WORDS))
    c.step(ThreadStep(absorb(q), ("acc", "carried"), (("s", q), ("generate", 1), ("propagate", 1))))
    c.step(CarryScan("generate", "propagate", None, "carry", "out"))
    c.step(ThreadStep(finish("finish", q, False), ("s", "carry"), (("t", q),)))
    c.step(Top("t", "out", "over", radix.bits))
    c.step(ThreadStep(_either("carry_out"), ("over", "top_excess"), (("above", 1),)))
    d = c.call(add_or_sub("sub", radix, carry_in=False), "t", "p")
    c.step(ThreadStep(choose(q, True), ("t", d.result, "above", d.flag), (("y", q),)))
    return Program("montsqr" if square else "montmul", shape, ("a", "p", "np") if square else ("a", "b", "p", "np"), (),
                   tuple(c.steps), "y", None)


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


def interleaves(bits: int) -> bool:
    """Whether Montgomery's product at `bits` takes the interleaved reduction, as measured
    (data/group.toml's [montgomery]), rather than whole products of the tier."""
    return bits <= GROUP_TABLE["montgomery"]["interleaved_up_to_bits"]


def by_products(shape: Shape, square: bool) -> Program:
    """a b R^-1 mod p by the tier's full product (or square) and reduce()."""
    def build(c: Composer) -> None:
        full = c.call(sqr(shape), "a") if square else c.call(mul(shape), "a", "b")
        reduce(c, full.result, above_radix(c, full.high), "p", "np", "y")
    return _program("montsqr" if square else "montmul", shape, ("a", "p", "np") if square else ("a", "b", "p", "np"),
                    build)


def _product(name: str, shape: Shape, square: bool) -> Program:
    """a b R^-1 mod p (a a R^-1 for montsqr; tomont is montmul by R^2 mod p), by the
    method measured for the size."""
    check(shape)
    return replace((interleaved if interleaves(shape.bits) else by_products)(shape, square), name=name)


def product(c: Composer, a: str, b: str | None, p: str, np: str, into: str) -> None:
    """into = a b R^-1 mod p (b None: a a R^-1) within a composed program."""
    square = b is None
    made = c.call(_product("montsqr" if square else "montmul", c.shape, square), a, *((b,) if b else ()), p, np)
    c.step(ThreadStep(copy(c.shape.limbs_per_thread), (made.result,), ((into, c.shape.limbs_per_thread),)))


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


def copy(q: int) -> Function:
    fn = Function("copy", q, q)
    for i in range(q):
        fn.emit("mov", Reg("y", i), Reg("x", i))
    fn.check()
    return fn


def zeros(words: int) -> Function:
    fn = Function("zeros", 0, words)
    for i in range(words):
        fn.emit("mov", Reg("y", i), 0)
    fn.check()
    return fn


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
