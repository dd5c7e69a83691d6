"""The group tier's division with remainder by Newton's reciprocal (seed 000's shifted
inverse; issue 20), every step a program of the tier, nothing branching on the values.
Everything runs at the width the group holds, H = 32 T Q bits (no bit cleared):

    B = b 2^s, A = a 2^s            s = b's leading zeros, found bit by bit from the top
                                    (a stage: is B's top 2^k bits zero? then shift by 2^k)
    X = 2^H + V ~ 2^2H / B          V from B's top word's reciprocal (30 good bits), then
                                    Newton's step X + X e / 2^2H, e = 2^2H - B X, truncated:
                                    e's high half and the product's (two full products a
                                    step); from below, it ends within 4 of 2^2H / B
    q = A_hi + (A_hi V) / 2^H       at most 6 below A / B; r = A - q B
    while r >= B: q + 1, r - B      6 masked steps
    r / 2^s                         a shift by s

The cost follows the products': about 2 log2(H / 29) + 4 of them (seed 000's precision doubling
would halve it). b = 0, and for div_qr_wide a quotient that does not fit (a's high half not
below b): the flag, and every result word 0 (the per-thread tier's contract). modmul (any
p at run time, even ones too) is the full product's remainder by the same steps."""
from __future__ import annotations

from ..ir import Function, Reg
from ..ops.division import word_reciprocal
from .addsub import add_or_sub
from .bits import shift_constant, shift_variable
from .compare import compare
from .compose import Composer
from .montgomery import constants, held_shape
from .mul import check, mul
from .powers import copy, select_by_bit, zero_where
from .program import Program, Shape, ThreadStep

# r = A - q B where q is the estimate: r < 7 B (the reciprocal within 4 of 2^2H / B, A's
# low half below 2 B, the truncation 1), so 6 masked subtractions leave r < B.
CORRECTIONS = 6


# The first guess's error: X_0 = 2^H + v 2^(H-32), v = floor((2^64 - 1) / (d + 1)) - 2^32 for
# B's top word d (0 where d + 1 = 2^32), is below 2^2H / B by at most 2^(H-32) (2^64 / (d
# (d + 1)) + 2) < 2^(H-29).
GUESS_ERROR_BITS = 29


def newton_steps(held_bits: int) -> int:
    """Steps from the first guess until X is within 4 of 2^2H / B for every B in [2^(H-1),
    2^H): the error e_k (in units of X) obeys e' < e^2 / 2^H + 3 (the exact step's e^2 B /
    2^2H, and under 3 from the truncations), from e_0 < 2^(H-29)."""
    unit = 1 << 8  # the bound in 1/256ths, rounded up
    steps, error = 0, unit << held_bits - GUESS_ERROR_BITS
    while error >= 4 * unit:
        steps, error = steps + 1, -(-error * error // (unit << held_bits)) + 3 * unit
    return steps


def first_guess(q: int) -> Function:
    """x: Q limbs whose first is B's top word d (thread 0's; the other threads' are 0 and
    their answers unused); y: v = floor((2^64 - 1) / (d + 1)) - 2^32 (0 where d + 1 = 2^32),
    then zeros. d + 1 <= B / 2^(H-32) makes v 2^(H-32) + 2^H an underestimate of 2^2H / B."""
    fn = Function("reciprocal_guess", q, q)
    above, mask = fn.temp(), fn.temp()
    fn.emit("add", above, Reg("x", 0), 1)
    v = word_reciprocal(fn, above)
    fn.emit("sub.cc", fn.temp(), 0, above)
    fn.emit("subc", mask, 0, 0)  # all ones where d + 1 is not 0
    fn.emit("and", Reg("y", 0), v, mask)
    for i in range(1, q):
        fn.emit("mov", Reg("y", i), 0)
    fn.check()
    return fn


def not_bit() -> Function:
    """1 - x (x is 0 or 1)."""
    fn = Function("not_bit", 1, 1)
    fn.emit("xor", Reg("y", 0), Reg("x", 0), 1)
    fn.check()
    return fn


def set_bit(k: int) -> Function:
    """y = x[0] | x[1] << k: bit k of the shift count."""
    fn = Function(f"set_bit{k}", 2, 1)
    moved = fn.temp()
    fn.emit("shl", moved, Reg("x", 1), k)
    fn.emit("or", Reg("y", 0), Reg("x", 0), moved)
    fn.check()
    return fn


def zero_word() -> Function:
    fn = Function("zero_word", 0, 1)
    fn.emit("mov", Reg("y", 0), 0)
    fn.check()
    return fn


def either(q: int) -> Function:
    """x[:Q] | x[Q:2Q] (two values with no bit in common: their sum)."""
    fn = Function("either", 2 * q, q)
    for i in range(q):
        fn.emit("or", Reg("y", i), Reg("x", i), Reg("x", q + i))
    fn.check()
    return fn


class _Division:
    """The steps of one division program over vectors of the held width."""

    def __init__(self, shape: Shape):
        self.q, self.held = check(shape), held_shape(shape)
        self.c = Composer(shape)

    def call(self, program: Program, *inputs: str, into: str | None = None):
        return self.c.call(program, *inputs, into=into)

    def step(self, fn: Function, reads: tuple[str, ...], writes: tuple[tuple[str, int], ...]) -> None:
        self.c.step(ThreadStep(fn, reads, writes))

    def shifted(self, direction: str, amount: int, vector: str) -> str:
        return self.call(shift_constant(direction, amount, self.held), vector).result

    def dividend(self, low: str, high: str | None, limbs: int) -> tuple[str, str]:
        """(A's high half, its low half) at the held width, A = low + high 2^(32 limbs)."""
        self.step(constants(self.q), (), (("zero", self.q), ("one", 1)))
        if high is None:
            return "zero", low
        gap = self.held.bits - 32 * limbs  # where the group holds more limbs than the size
        if not gap:
            return high, low
        return self.shifted("shr", gap, high), self._or(low, self.shifted("shl", 32 * limbs, high))

    def _or(self, a: str, b: str) -> str:
        name = f"{a}_or_{b}"
        self.step(either(self.q), (a, b), ((name, self.q),))
        return name

    def normalize(self, b: str, high: str, low: str) -> tuple[str, str, str, str]:
        """(B, A's high half, A's low half, s): b and A shifted left by b's leading zeros s,
        a stage for each bit of s from the top."""
        width, q = self.held.bits, self.q
        self.step(zero_word(), (), (("shift", 1),))
        for k in reversed(range((width - 1).bit_length())):
            amount = 1 << k
            empty = self.call(compare("is_zero", self.held), self.shifted("shr", width - amount, b)).result
            moved = {"divisor": self.shifted("shl", amount, b),
                     "high": self._or(self.shifted("shl", amount, high), self.shifted("shr", width - amount, low)),
                     "low": self.shifted("shl", amount, low)}
            kept = {"divisor": b, "high": high, "low": low}
            for name in moved:
                self.step(select_by_bit(q), (kept[name], moved[name], empty), ((f"{name}{k}", q),))
            b, high, low = f"divisor{k}", f"high{k}", f"low{k}"
            self.step(set_bit(k), ("shift", empty), (("shift", 1),))
        return b, high, low, "shift"

    def reciprocal(self, divisor: str) -> str:
        """V with 2^H + V within 4 below 2^2H / B (B's top bit set): the first guess from
        B's top word (moved to thread 0 and back to the top by shifts: no broadcast), then
        Newton's steps."""
        held, q = self.held, self.q
        self.step(first_guess(q), (self.shifted("shr", held.bits - 32, divisor),), (("guess", q),))
        self.call(shift_constant("shl", held.bits - 32, held), "guess", into="reciprocal")

        def newton(c: Composer) -> None:
            product = c.call(mul(held), divisor, "reciprocal")
            low_zero = c.call(compare("is_zero", held), product.result).result
            c.step(ThreadStep(not_bit(), (low_zero,), (("borrow", 1),)))
            total = c.call(add_or_sub("add", held), product.high, divisor, "borrow").result
            error = c.call(add_or_sub("neg", held), total).result  # e's high half: 2^2H - B X over 2^H
            correction = c.call(mul(held), "reciprocal", error).high
            partial = c.call(add_or_sub("add", held, carry_in=False), "reciprocal", error).result
            c.call(add_or_sub("add", held, carry_in=False), partial, correction, into="reciprocal")
        self.c.repeat(newton_steps(held.bits), newton)
        return "reciprocal"

    def divide(self, divisor: str, high: str, low: str, reciprocal: str) -> tuple[str, str]:
        """(q, r) of A = high 2^H + low by B, high < B."""
        held, q = self.held, self.q
        estimate = self.call(mul(held), high, reciprocal).high
        self.call(add_or_sub("add", held, carry_in=False), high, estimate, into="quotient")
        product = self.call(mul(held), "quotient", divisor)
        rest = self.call(add_or_sub("sub", held, carry_in=False), low, product.result)
        self.call(add_or_sub("sub", held), high, product.high, rest.flag, into="rest_high")
        self.step(copy(q), (rest.result,), (("rest", q),))

        def correct(c: Composer) -> None:
            less = c.call(add_or_sub("sub", held, carry_in=False), "rest", divisor)
            less_high = c.call(add_or_sub("sub", held), "rest_high", "zero", less.flag)
            c.step(ThreadStep(not_bit(), (less_high.flag,), (("take", 1),)))
            c.step(ThreadStep(select_by_bit(q), ("rest", less.result, "take"), (("rest", q),)))
            c.step(ThreadStep(select_by_bit(q), ("rest_high", less_high.result, "take"), (("rest_high", q),)))
            more = c.call(add_or_sub("add", held), "quotient", "zero", "take").result
            c.step(ThreadStep(copy(q), (more,), (("quotient", q),)))
        self.c.repeat(CORRECTIONS, correct)
        return "quotient", "rest"


def _division(name: str, shape: Shape, wide: bool, quotient: bool, remainder: bool) -> Program:
    d = _Division(shape)
    q, held = d.q, d.held
    operands = ("a", "a_high", "b") if wide else ("a", "b")
    high, low = d.dividend("a", "a_high" if wide else None, shape.limbs)
    divisor, high, low, shift = d.normalize("b", high, low)
    quotient_vector, rest = d.divide(divisor, high, low, d.reciprocal(divisor))
    if wide:
        fits = d.call(compare("lt", held), "a_high", "b").result
        d.step(not_bit(), (fits,), (("flag", 1),))
    else:
        d.call(compare("is_zero", held), "b", into="flag")
    parts = []
    if quotient:
        d.step(zero_where(q), (quotient_vector, "flag"), (("y", q),))
        parts.append("y")
    if remainder:
        moved = d.call(shift_variable("shr", held), rest, shift).result
        d.step(zero_where(q), (moved, "flag"), (("r", q),))
        parts.append("r")
    return Program(name, shape, operands, (), tuple(d.c.steps), parts[0], "flag",
                   second=parts[1] if len(parts) == 2 else None, halves=("a_high",) if wide else ())


def div_qr(shape: Shape) -> Program:
    return _division("div_qr", shape, False, True, True)


def div(shape: Shape) -> Program:
    return _division("div", shape, False, True, False)


def rem(shape: Shape) -> Program:
    return _division("rem", shape, False, False, True)


def div_qr_wide(shape: Shape) -> Program:
    return _division("div_qr_wide", shape, True, True, True)


def modmul(shape: Shape) -> Program:
    """a b mod p for a, b < p and any p (even ones too; the per-thread tier's contract): the
    full product, then its remainder by the wide division's steps (the product's high half
    is below p); p = 0: the flag and every result word 0."""
    d = _Division(shape)
    q, held = d.q, d.held
    product = d.call(mul(held), "a", "b")
    high, low = d.dividend(product.result, product.high, held.limbs)
    divisor, high, low, shift = d.normalize("p", high, low)
    _, rest = d.divide(divisor, high, low, d.reciprocal(divisor))
    d.call(compare("is_zero", held), "p", into="flag")
    moved = d.call(shift_variable("shr", held), rest, shift).result
    d.step(zero_where(q), (moved, "flag"), (("y", q),))
    return Program("modmul", shape, ("a", "b", "p"), (), tuple(d.c.steps), "y", "flag")


PLANNERS = {"div_qr": div_qr, "div": div, "rem": rem, "div_qr_wide": div_qr_wide, "modmul": modmul}
