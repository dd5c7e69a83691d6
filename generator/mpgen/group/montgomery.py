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
from .words import copy, either, moved, zeros


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
    below_modulus(c, t, carry, p, into)


def below_modulus(c: Composer, t: str, carry: str | None, p: str, into: str) -> None:
    """into = t - p where t (with the carry above its L bits, if any) reaches p, else t: the
    masked subtraction that ends every Montgomery reduction (t < 2 p)."""
    q = c.shape.limbs_per_thread
    d = c.call(add_or_sub("sub", radix_shape(c.shape), carry_in=False), t, p)
    c.step(ThreadStep(choose(q, carry is not None), (t, d.result) + ((carry,) if carry else ()) + (d.flag,), ((into, q),)))


# Each thread's running sum is two accumulators, so that every product's low and high words
# land in one pair of a carry chain (ptxas fuses such a pair into one wide multiply-add):
# "even" holds words at the thread's places 0 .. Q + 2, "odd" at places 1 .. Q + 2 (its word
# k at place k + 1). A limb's products go to places s + i (s = 0 or 1 within a pair of
# limbs), each to the accumulator whose pairs start at that place's parity.
EVEN_WORDS_ABOVE, ODD_WORDS_ABOVE = 3, 2  # beyond the Q limbs: the sum stays below 2^(32 (Q + 2) + 2)


def _accumulate(q: int, s: int, reducing: bool, multiplying: bool = True) -> Function:
    """even, odd += w f at place s: w the broadcast limb of a (f = b; not multiplying: no
    product, only the pending word and the word at place s, montredc's), or where reducing w =
    (the group's word at place s) (-p^-1 mod 2^32) and f = p, so that place s becomes 0 in
    thread 0. Out: even, odd, then the word at place s (not reducing: what m is computed
    from), or the words that leave the thread when the sum moves down (reducing: places 0
    .. s). At s = 1 reducing, place 1's two words first become one (odd's first), its
    carry riding even's chain into place 2; a pair's first limb (s = 0, not reducing)
    first adds the word that the last move down left at place 0 (the pending word, read
    after odd), its carry riding odd's chain into place 1."""
    e_words, o_words = q + EVEN_WORDS_ABOVE, q + ODD_WORDS_ABOVE
    pending = s == 0 and not reducing
    name = ("reduce" if reducing else "multiply") + f"_at_{s}"
    if not multiplying:
        name = f"place_at_{s}"
    fn = Function(name, e_words + o_words + pending + (1 + reducing + q if multiplying else 0),
                  e_words + o_words + (s + 1 if reducing else 1))
    even = [Reg("y", k) for k in range(e_words)]
    odd = [Reg("y", e_words + k) for k in range(o_words)]
    for k, reg in enumerate(even + odd):
        fn.emit("mov", reg, Reg("x", k))
    at = e_words + o_words + pending
    factor = [Reg("x", at + 1 + reducing + i) for i in range(q)] if multiplying else []
    word = Reg("x", at)
    if reducing:
        word = fn.temp()
        fn.emit("mul.lo", word, Reg("x", at), Reg("x", at + 1))
    chains: dict[str, list] = {"even": [], "odd": []}
    if reducing and s == 1:
        chains["even"].append(("add", odd[0], (odd[0], even[1])))
    if pending:
        chains["odd"].append(("add", even[0], (even[0], Reg("x", e_words + o_words))))
    for i in range(len(factor)):
        place = s + i
        target, k = ("even", place) if place % 2 == 0 else ("odd", place - 1)
        words = even if target == "even" else odd
        chains[target] += [("mad.lo", words[k], (word, factor[i], words[k])),
                           ("mad.hi", words[k + 1], (word, factor[i], words[k + 1]))]
    for target, words in (("odd", odd), ("even", even)):  # odd's chain first: it may add into even[0]
        steps = chains[target]
        if not steps:
            continue
        top = max((words.index(dst) for _, dst, _ in steps if dst in words), default=-1)
        fn.chain_of(steps + [("add", words[k], (words[k], 0)) for k in range(top + 1, len(words))], carry_out=False)
    if reducing and s == 1:
        fn.emit("mov", even[1], 0)
    out = e_words + o_words
    if reducing:
        fn.emit("mov", Reg("y", out), even[0])
        if s == 1:
            fn.emit("mov", Reg("y", out + 1), odd[0])
    else:
        fn.emit("add", Reg("y", out), even[s], odd[0]) if s else fn.emit("mov", Reg("y", out), even[0])
    fn.check()
    return fn


def _move_down(q: int) -> Function:
    """After two limbs: the sum moved down two places (its places 0 and 1 went to the thread
    below), the two words from the thread above added at places Q - 2 and Q - 1; odd's word
    at place 2, now at place 0, becomes the pending word (the last output)."""
    e_words, o_words = q + EVEN_WORDS_ABOVE, q + ODD_WORDS_ABOVE
    fn = Function("move_down_two", e_words + o_words + 2, e_words + o_words + 1)
    x, y = [Reg("x", k) for k in range(e_words + o_words + 2)], [Reg("y", k) for k in range(e_words + o_words)]
    even, odd = y[:e_words], y[e_words:]
    for k in range(e_words):
        fn.emit("mov", even[k], x[k + 2] if k + 2 < e_words else 0)
    for k in range(o_words):
        fn.emit("mov", odd[k], x[e_words + k + 2] if k + 2 < o_words else 0)
    incoming = x[e_words + o_words:]
    fn.chain("add", [(even[q - 2], (even[q - 2], incoming[0])), (even[q - 1], (even[q - 1], incoming[1]))] +
             [(even[k], (even[k], 0)) for k in range(q, e_words)], carry_out=False)
    fn.emit("mov", Reg("y", e_words + o_words), x[e_words + 1])
    fn.check()
    return fn


def _resolve(q: int, moved_one: bool) -> Function:
    """The two accumulators (and the pending word, after a pair) as one: Q limbs and two
    excess words (the sum's places Q and up, below 4). moved_one: after an odd count of
    limbs the sum moves down one place first, the word from the thread above (the last
    input) added at place Q - 1."""
    e_words, o_words = q + EVEN_WORDS_ABOVE, q + ODD_WORDS_ABOVE
    fn = Function("resolve_moved" if moved_one else "resolve", e_words + o_words + 1, q + EXCESS_WORDS)
    even, odd = [Reg("x", k) for k in range(e_words)], [Reg("x", e_words + k) for k in range(o_words)]
    total = fn.temps_list(q + EXCESS_WORDS)
    if moved_one:  # even's place k + 1 and odd's word k are both at place k now
        fn.chain("add", [(total[k], (even[k + 1], odd[k])) for k in range(q + EXCESS_WORDS)], carry_out=False)
        incoming = Reg("x", e_words + o_words)
        fn.chain("add", [(total[q - 1], (total[q - 1], incoming))] +
                 [(total[k], (total[k], 0)) for k in range(q, q + EXCESS_WORDS)], carry_out=False)
    else:
        fn.emit("mov", total[0], even[0])
        fn.chain("add", [(total[k], (even[k], odd[k - 1])) for k in range(1, q + EXCESS_WORDS)], carry_out=False)
        fn.chain("add", [(total[0], (total[0], Reg("x", e_words + o_words)))] +
                 [(total[k], (total[k], 0)) for k in range(1, q + EXCESS_WORDS)], carry_out=False)
    for k, word in enumerate(total):
        fn.emit("mov", Reg("y", k), word)
    fn.check()
    return fn


def interleaved(shape: Shape, square: bool) -> Program:
    """a b R^-1 mod p with the reduction interleaved word by word (Montgomery's, as CGBN
    spreads it over a warp): for each limb a_i of a, every thread adds a_i b and then m p
    to its Q limbs (m = the group's lowest word times -p^-1 mod 2^32, broadcast); after each
    pair of limbs the sum moves down two places, each thread handing its lowest two words
    to the thread below. What a thread's limbs carry out stays in its accumulators' words
    above them, so that the carries cross the threads once, at the end. L steps of two
    broadcasts, a shift a pair; 2 L Q multiply-adds a thread, each a product's low and
    high word in one pair of a carry chain."""
    c = Composer(shape)
    t = _word_by_word(c, "a", "a" if square else "b")
    c.step(ThreadStep(either(1, "carry_out"), ("over", "top_excess"), (("above", 1),)))
    below_modulus(c, t, "above", "p", "y")
    return Program("montsqr" if square else "montmul", shape, ("a", "p", "np") if square else ("a", "b", "p", "np"), (),
                   tuple(c.steps), "y", None)


def interleaved_reduction(shape: Shape, high: bool) -> Program:
    """montredc, (b R + a) R^-1 mod p (high), or frommont, a R^-1 mod p, by the same loop
    without its products: the sum starts as a, each limb adds m p and the sum moves down;
    then b is added (the sum is at most p, so one masked subtraction of p ends it)."""
    c = Composer(shape)
    t, carry = _word_by_word(c, "a", None), None
    if high:
        total = c.call(add_or_sub("add", radix_shape(shape), carry_in=False), t, "b")
        t, carry = total.result, total.flag
    below_modulus(c, t, carry, "p", "y")
    return Program("montredc" if high else "frommont", shape, ("a", "b", "p", "np") if high else ("a", "p", "np"), (),
                   tuple(c.steps), "y", None)


def _word_by_word(c: Composer, a: str, b: str | None) -> str:
    """The interleaved loop over L limbs: a b + m p (b None: a + m p) divided by R, as "t"
    (L bits) with "over" and "top_excess" (what lies above them); returns t."""
    shape = c.shape
    q, radix = check(shape), radix_shape(shape)
    state = (("even", q + EVEN_WORDS_ABOVE), ("odd", q + ODD_WORDS_ABOVE))
    with_pending = state + (("pending", 1),)
    c.step(Broadcast("np", (0,), "np0"))
    if b is None:  # the sum starts as a: even's words at places 0 .. Q - 1
        c.step(ThreadStep(moved("start_sum", q, list(range(q)) + [None] * (EVEN_WORDS_ABOVE + q + ODD_WORDS_ABOVE + 1)),
                          (a,), with_pending))
    else:
        c.step(ThreadStep(zeros(2 * q + EVEN_WORDS_ABOVE + ODD_WORDS_ABOVE + 1), (), with_pending))
        c.step(ThreadStep(copy(q), (a,), (("rest", q),)))

    def limb(body: Composer, j: int, s: int) -> None:
        """Limb j of rest at place s: its products (where b), then the reduction's."""
        pending = ("pending",) if s == 0 else ()
        if b is None:
            body.step(ThreadStep(_accumulate(q, s, False, False), ("even", "odd") + pending, state + (("place", 1),)))
        else:
            body.step(Broadcast("rest", (j,), "word"))
            body.step(ThreadStep(_accumulate(q, s, False), ("even", "odd") + pending + ("word", b),
                                 state + (("place", 1),)))
        body.step(Broadcast("place", (0,), "lowest"))
        body.step(ThreadStep(_accumulate(q, s, True), ("even", "odd", "lowest", "np0", "p"),
                             state + ((f"leaving{s}", s + 1),)))

    def pair(body: Composer, j: int) -> None:
        limb(body, j, 0)
        limb(body, j + 1, 1)
        body.step(ShiftDown("leaving1", "incoming", 2))
        body.step(ThreadStep(_move_down(q), ("even", "odd", "incoming"), with_pending))

    per_body = q if q % 2 == 0 else 2 * q  # whole pairs, and rest moves by whole threads

    def block(body: Composer) -> None:
        for j in range(0, per_body, 2):
            pair(body, j)
        if b is not None:
            for _ in range(per_body // q):
                body.step(ShiftDown("rest", "rest", q))
    c.repeat(shape.limbs // per_body, block)
    left = shape.limbs % per_body
    for j in range(0, left - 1, 2):
        pair(c, j)
    if left % 2:
        limb(c, left - 1, 0)
        c.step(ShiftDown("leaving0", "incoming", 1))
        c.step(ThreadStep(_resolve(q, True), ("even", "odd", "incoming"), (("sum", q), ("excess", EXCESS_WORDS))))
    else:
        c.step(ThreadStep(_resolve(q, False), ("even", "odd", "pending"), (("sum", q), ("excess", EXCESS_WORDS))))
    # The excesses into the limbs above them (the top thread's lies above the held limbs).
    c.step(Broadcast("excess", (EXCESS_WORDS * (shape.threads - 1),), "top_excess"))
    c.step(ShiftUp("excess", None, "carried", EXCESS_WORDS))
    c.step(ThreadStep(absorb(q), ("sum", "carried"), (("s", q), ("generate", 1), ("propagate", 1))))
    c.step(CarryScan("generate", "propagate", None, "carry", "out"))
    c.step(ThreadStep(finish("finish", q, False), ("s", "carry"), (("t", q),)))
    c.step(Top("t", "out", "over", radix.bits))
    return "t"


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


def by_products(shape: Shape, square: bool) -> Program:
    """a b R^-1 mod p by the tier's full product (or square) and reduce()."""
    def build(c: Composer) -> None:
        full = c.call(sqr(shape), "a") if square else c.call(mul(shape), "a", "b")
        reduce(c, full.result, above_radix(c, full.high), "p", "np", "y")
    return _program("montsqr" if square else "montmul", shape, ("a", "p", "np") if square else ("a", "b", "p", "np"),
                    build)


def _method(bits: int):
    """The planner of Montgomery's product at `bits`, as measured (data/group.toml's
    [montgomery]): interleaved, or by whole products of the tier."""
    return interleaved if bits <= GROUP_TABLE["montgomery"]["interleaved_up_to_bits"] else by_products


def _product(name: str, shape: Shape, square: bool) -> Program:
    """a b R^-1 mod p (a a R^-1 for montsqr; tomont is montmul by R^2 mod p)."""
    return replace(_method(shape.bits)(shape, square), name=name)


def product(c: Composer, a: str, b: str | None, p: str, np: str, into: str) -> None:
    """into = a b R^-1 mod p (b None: a a R^-1) within a composed program."""
    made = c.call(_method(c.shape.bits)(c.shape, b is None), a, *((b,) if b else ()), p, np)
    c.step(ThreadStep(copy(c.shape.limbs_per_thread), (made.result,), ((into, c.shape.limbs_per_thread),)))


def montmul(shape: Shape) -> Program:
    return _product("montmul", shape, False)


def tomont(shape: Shape) -> Program:
    return _product("tomont", shape, False)


def montsqr(shape: Shape) -> Program:
    return _product("montsqr", shape, True)


def reduction_by_products(shape: Shape, high: bool) -> Program:
    """montredc (high) or frommont by reduce(): three whole products of the tier."""
    if high:
        return _program("montredc", shape, ("a", "b", "p", "np"), lambda c: reduce(c, "a", "b", "p", "np", "y"))
    return _program("frommont", shape, ("a", "p", "np"), lambda c: reduce(c, "a", None, "p", "np", "y"))


def _reduction(shape: Shape, high: bool) -> Program:
    """Montgomery's reduction by the method the product takes at this size (_method)."""
    method = interleaved_reduction if _method(shape.bits) is interleaved else reduction_by_products
    return method(shape, high)


def montredc(shape: Shape) -> Program:
    """(b R + a) R^-1 mod p (b < p)."""
    return _reduction(shape, True)


def frommont(shape: Shape) -> Program:
    """a R^-1 mod p."""
    return _reduction(shape, False)


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
