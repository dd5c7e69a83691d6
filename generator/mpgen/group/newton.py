"""The group tier's division by Newton's reciprocal: the whole shifted inverse of the divisor
by Newton's iteration, as Watt ("Efficient generic quotients using exact arithmetic") and
Bringgaard's thesis ("Efficient Big Integer Arithmetic Using GPGPU") divide, each step
whole products of the tier (by transform where `mul = auto` takes it at the held width),
the first digits from the schoolbook (division.py). At the held width, n = T Q limbs,
beta = 2^32, B normalized (its top bit set), A = A1 beta^n + A0 with A1 < B:

    Y = floor((beta^(n+h) - 1) / B)     the schoolbook's first k steps (h = k Q limbs) on
                                        (~B, all ones): Y - beta^h, k digits
    X = beta^n + V = Y beta^(n-h)       below beta^(2n) / B by d < beta^(n-h) (1 + 1/B)
    m times, X + X E / beta^(2n):       E = beta^(2n) - B X >= 0: its high half
      E1 = -(P1 + B + [P0 != 0])        from P = B V (X = beta^n + V), its low half dropped
      V += E1 + floor(V E1 / beta^n)    the new distance under d^2 / beta^n + 3 (the dropped
                                        half and the floors), X still below beta^(2n) / B
    V' = V after m = log2(T / k) steps: under beta^(2n) / B - beta^n by less than 4.1
    q = A1 + floor(V' A1 / beta^n)      floor(A1 X' / beta^n): at most floor(A / B), and
                                        short of it by under A1 4.1 / beta^n + A0 / B + 1 < 8
    r = A - q B                         below 8 B: its word above the held width (thread 0's
                                        lowest, broadcast) and n limbs
    7 times: where r >= B, r - B and q + 1 (a borrow scan and a carry scan)

The schoolbook's k steps, 2 m + 2 products, 4 m + 16 carry scans and m votes, none of it
branching on the values; the products are `mul = auto`'s choice at the held width (as the
tier's other composed programs, whatever the request's `mul`);
data/group.toml's [division] says from which size, and k (64: measured best at 131072 and
262144 bits, 1.22x and 1.83x the schoolbook alone; the products there are fixed-width, each
the whole width's, so that div_qr takes 9.8 and 11.3 products' time)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..ir import Function, Reg
from ..thread.common import all_ones_if_set, select
from ..tiers import GROUP_TABLE
from .addsub import add_or_sub
from .bits import shift_constant
from .compare import compare
from .ntt import auto_mul
from .program import Broadcast, Shape, ThreadStep
from .words import complement, copy, not_bit

if TYPE_CHECKING:
    from .division import Division

CORRECTIONS = 7  # r - B taken at most this often (the bound above)


def by_newton(shape: Shape, section: str = "division") -> bool:
    """Whether the division (or sqrt, section "sqrt") at this size goes by Newton's
    iteration: data/group.toml's newton_from_bits in that section."""
    return shape.bits >= GROUP_TABLE[section]["newton_from_bits"]


def iterations(shape: Shape) -> int:
    """m: Newton's steps after the schoolbook's T / 2^m digits, data/group.toml's
    newton_schoolbook_digits, or spanning_newton_schoolbook_digits where the group spans
    blocks (or all T, and no step, where the group has fewer threads)."""
    digits = GROUP_TABLE["division"][f"{'spanning_' * shape.spanning}newton_schoolbook_digits"]
    return max(shape.threads // digits, 1).bit_length() - 1


def top_word(q: int) -> Function:
    """x = A1's limbs, P1's, the borrow from A0 - P0: y = A1 - P1 - borrow's lowest word
    (the remainder's word above the held width: under 8, so exact mod 2^32)."""
    fn = Function("newton_top_word", 2 * q + 1, 1)
    difference = fn.temp()
    fn.emit("sub", difference, Reg("x", 0), Reg("x", q))
    fn.emit("sub", Reg("y", 0), difference, Reg("x", 2 * q))
    fn.check()
    return fn


def correction(q: int) -> Function:
    """x = r's n limbs, r - B's, r's word above, the borrow of r - B: y = r - B where that
    is not negative (the word above less the borrow keeps its sign bit clear), else r; the
    word above after it; 1 where r - B was taken."""
    fn = Function("newton_correction", 2 * q + 2, q + 2)
    above, borrow = Reg("x", 2 * q), Reg("x", 2 * q + 1)
    lowered, sign = fn.temp(), fn.temp()
    fn.emit("sub", lowered, above, borrow)
    fn.emit("shr", sign, lowered, 31)  # 1 where r < B: r stays
    keep = all_ones_if_set(fn, sign)
    for i in range(q):
        select(fn, Reg("y", i), keep, Reg("x", i), Reg("x", q + i))
    select(fn, Reg("y", q), keep, above, lowered)
    fn.emit("xor", Reg("y", q + 1), sign, 1)
    fn.check()
    return fn


def reciprocal(d: Division, divisor: str) -> str:
    """V' (the vector's name): below floor((beta^(2n) - 1) / B) - beta^n by at most 4."""
    c, q, held = d.c, d.q, d.held
    m = iterations(held)
    digits = held.threads >> m
    d.step(complement(q), (divisor,), (("inverted", q),))
    d.step(complement(q), ("zero",), (("ones", q),))
    quotient, _ = d.schoolbook(divisor, "inverted", "ones", steps=digits)
    d.call(shift_constant("shl", 32 * q * (held.threads - digits), held), quotient, into="v")
    times = auto_mul(held)

    def newton_step(body) -> None:
        p = body.call(times, divisor, "v")
        nonzero = body.call(compare("is_zero", held), p.result).result
        body.step(ThreadStep(not_bit(), (nonzero,), (("low_borrow", 1),)))
        total = body.call(add_or_sub("add", held), p.high, divisor, "low_borrow").result
        error = body.call(add_or_sub("neg", held), total).result
        scaled = body.call(times, "v", error).high
        step = body.call(add_or_sub("add", held, carry_in=False), error, scaled).result
        body.call(add_or_sub("add", held, carry_in=False), "v", step, into="v_next")
        body.step(ThreadStep(copy(q), ("v_next",), (("v", q),)))
    c.repeat(m, newton_step)
    return "v"


def divide(d: Division, divisor: str, high: str, low: str) -> tuple[str, str]:
    """(quotient, remainder) of A = high beta^n + low by B (normalized), high < B."""
    c, q, held = d.c, d.q, d.held
    v = reciprocal(d, divisor)
    times = auto_mul(held)
    scaled = c.call(times, v, high).high
    c.call(add_or_sub("add", held, carry_in=False), high, scaled, into="estimate")
    p = c.call(times, "estimate", divisor)
    rest = c.call(add_or_sub("sub", held, carry_in=False), low, p.result, into="r")
    c.step(ThreadStep(top_word(q), (high, p.high, rest.flag), (("top_words", 1),)))
    c.step(Broadcast("top_words", (0,), "above"))

    def corrected(body) -> None:
        less = body.call(add_or_sub("sub", held, carry_in=False), "r", divisor)
        body.step(ThreadStep(correction(q), ("r", less.result, "above", less.flag),
                             (("r", q), ("above", 1), ("taken", 1))))
        body.call(add_or_sub("add", held), "estimate", "zero", "taken", into="raised")
        body.step(ThreadStep(copy(q), ("raised",), (("estimate", q),)))
    c.repeat(CORRECTIONS, corrected)
    return "estimate", "r"
