"""The group tier's division with remainder: Knuth's algorithm D over the group with a
digit of Q limbs (radix 2^(32 Q): a thread's worth, as CGBN's div_qr), every step a list or
an exchange of the tier, nothing branching on the values. Everything runs at the width
the group holds, H = 32 T Q bits (no bit cleared):

    B = b 2^s, A = a 2^s            s = b's leading zeros: its zero threads at the top by
                                    a stage a bit of their count (are the top 2^k threads
                                    zero? then move up 2^k threads), then the top nonzero
                                    thread's limbs' (a broadcast); one variable shift each
    V = floor((2^(64 (Q + 1)) - 1) / Bt) - 2^(32 (Q + 1))
                                    Bt = B's top Q + 1 limbs; in every thread, by the
                                    per-thread tier's Knuth steps (thread/division.py)
    R = A's high half (below B), L = its low half; then T times:
      N = R 2^(32 Q) + L's top Q limbs
                                    R's top Q + 2 limbs and L's top Q broadcast, R moved
                                    up a thread (ShiftUp)
      e = est                       est = M (2^(32 (Q + 1)) + V) / 2^(32 (Q + 3)) + 2^-30
                                    for N's top Q + 2 limbs M, rounded down: floor(N / B) or,
                                    rarely, one more (the truncated B adds under 2^-31 to N /
                                    B, the truncated M and V take under 2^-31 from it, the
                                    product's dropped low columns under 2^-59)
      R = N - e B                   each thread's Q-by-Q product; its high half (plus its
                                    chain's borrow) passed up a thread, one borrow scan;
                                    R's top word above the held width stays in `above`
      where that word is negative: R + B and e - 1 (masked, one carry scan)
      L moved up a thread, e into its bottom: L ends as the quotient
    r = R / 2^s                     a shift by s

A step costs a thread a Q-by-Q product and most of another (the estimate's and e B's) and
two scans, so the division costs about two products' multiplies plus T steps of
exchanges. b = 0, and
for div_qr_wide a quotient that does not fit (a's high half not below b): the flag, and
every result word 0 (the per-thread tier's contract). modmul (any p at run time, even
ones too) is the full product's remainder by the same steps. From data/group.toml's
[division] newton_from_bits, quotient and remainder come from Newton's reciprocal
(newton.py) after the first of these steps."""
from __future__ import annotations

from ..ir import MASK, Function, Reg
from ..thread.columns import Columns
from ..thread.common import all_ones_if_borrow, all_ones_if_carry, all_ones_if_set
from ..thread.bits import leading_zeros as limb_zeros
from ..thread.compare import all_ones_if_nonzero
from ..thread.division import knuth_step, word_reciprocal
from .addsub import add_or_sub, part
from .bits import shift_constant, shift_variable
from .compare import compare
from .compose import Composer
from .montgomery import constants, held_shape
from .mul import check, mul
from .ntt import auto_mul
from . import newton
from .program import Broadcast, CarryScan, Program, Shape, ShiftUp, ThreadStep
from .words import copy, either, not_bit, select_by_bit, zero_where


def block_reciprocal(q: int) -> Function:
    """x: D (Q limbs, its top bit set); y: V = floor((2^(64 Q) - 1) / D) - 2^(32 Q), Q
    limbs: Knuth's algorithm D on (~D, all ones) by D, whose high half ~D is below D."""
    fn = Function("division_reciprocal", q, q)
    top = [Reg("x", i) for i in range(q)]
    inverse = word_reciprocal(fn, top[-1])
    rest = fn.temps_list(q)
    for i in range(q):
        fn.emit("not", rest[i], top[i])
    digits: list[Reg] = []
    for _ in range(q):
        rest, digit = knuth_step(fn, [MASK] + rest, top, inverse)
        digits.insert(0, digit)
    for i in range(q):
        fn.emit("mov", Reg("y", i), digits[i])
    fn.check()
    return fn


def _product(fn: Function, a: list[Reg], b: list[Reg], limit: int, low: int = 0) -> list[Reg]:
    """a b's limbs from `low` to below `limit`; from low > 0, without the products whose low
    half lands below low - 1: limb low then falls short by at most len(a) + len(b) units
    (their carries)."""
    columns = Columns(fn, limit)
    for j, word in enumerate(a):
        columns.add_row(word, [(j + i, b[i]) for i in range(len(b)) if max(low - 1, 0) <= j + i < limit])
    product = fn.temps_list(limit - low)
    columns.sum_into(product, low)
    return product


def estimate(fn: Function, m: list[Reg], v: list[Reg], raised: bool) -> list[Reg]:
    """est = M (2^(32 (Q + 1)) + V) / 2^(32 (Q + 3)) (M: N's top Q + 2 limbs, V: the
    reciprocal, Q + 1), rounded down and at most 2^(32 Q) - 1: within 1 of floor(N / B) (the
    truncated B adds under 2^-31 to N / B, the truncated M and V take under 2^-31 from it;
    M V's limbs from Q + 1 without its products below limb Q, under (2 Q + 3) 2^-64 more).
    `raised`: 2^-30 added before rounding, so that est is floor(N / B) or, rarely, one more."""
    q = len(v) - 1
    above = _product(fn, v, m, 2 * q + 4, low=q + 1)  # M V's limbs Q + 1 .. 2Q + 3
    if raised:  # M V < 2^(32 (2 Q + 3)): the top limb takes the carry
        fn.chain("add", [(above[k], (above[k], 4 if k == 1 else 0)) for k in range(1, q + 3)], carry_out=False)
    # M's low two limbs times 2^(32 (Q + 1)) added: S = M V + (M mod 2^64) 2^(32 (Q + 1))
    lifted = fn.temps_list(q + 3)  # S's limbs Q + 1 .. 2Q + 3
    fn.chain("add", [(lifted[k], (above[k], m[k] if k < 2 else 0)) for k in range(q + 3)], carry_out=False)
    total = fn.temps_list(q + 1)  # M's top Q limbs plus S's limbs from Q + 3
    fn.chain("add", [(total[k], (lifted[k + 2], m[k + 2] if k < q else 0)) for k in range(q + 1)])
    carried = all_ones_if_carry(fn)
    fn.emit("sub.cc", fn.temp(), 0, total[q])
    over = all_ones_if_borrow(fn)  # the estimate reaches 2^(32 Q): all ones instead
    fn.emit("or", over, over, carried)
    capped = fn.temps_list(q)
    for k in range(q):
        fn.emit("or", capped[k], total[k], over)
    return capped


def multiply_subtract(fn: Function, e: list[Reg], b: list[Reg], n: list[Reg], y: int) -> None:
    """y[y:] = N - e B over the thread's Q limbs (mod 2^(32 Q)), then the excess that the
    next thread's limbs owe (e B's high half plus the chain's borrow: e B's high half is at
    most 2^(32 Q) - 2)."""
    q = len(e)
    low_high = _product(fn, e, b, 2 * q)
    fn.chain("sub", [(Reg("y", y + k), (n[k], low_high[k])) for k in range(q)])
    borrow = fn.temp()
    fn.emit("subc", borrow, 0, 0)
    fn.emit("and", borrow, borrow, 1)
    fn.chain("add", [(Reg("y", y + q + k), (low_high[q + k], borrow if k == 0 else 0)) for k in range(q)],
             carry_out=False)


def block_digit(q: int) -> Function:
    """x = M (N's top Q + 2 limbs), V (Q + 1), B's Q limbs, N's Q limbs (R moved up a
    thread); y = N - e B and the excess (multiply_subtract), then e: floor(N / B) or, rarely,
    one more (the raised estimate)."""
    m_limbs, v_limbs = q + 2, q + 1
    fn = Function("division_digit", m_limbs + v_limbs + 2 * q, 3 * q)
    x = [Reg("x", i) for i in range(m_limbs + v_limbs + 2 * q)]
    m, v = x[:m_limbs], x[m_limbs:m_limbs + v_limbs]
    b, n = x[m_limbs + v_limbs:m_limbs + v_limbs + q], x[m_limbs + v_limbs + q:]
    e = estimate(fn, m, v, raised=True)
    multiply_subtract(fn, e, b, n, 0)
    for k in range(q):
        fn.emit("mov", Reg("y", 2 * q + k), e[k])
    fn.check()
    return fn


def block_settle(q: int) -> Function:
    """x = the lowered difference (Q), its borrow in (the scan's), M (Q + 2), the top
    thread's excess (its low word), the scan's borrow out; y = R's Q limbs, and R's word
    above the held width: N's (M's limb 2) less the excess and the borrow (0, or negative
    where e exceeds the digit)."""
    fn = Function("division_settle", 2 * q + 5, q + 1)
    x = [Reg("x", i) for i in range(2 * q + 5)]
    d, borrow, outgoing, excess, out = x[:q], x[q], x[q + 3], x[2 * q + 3], x[2 * q + 4]
    fn.chain("sub", [(Reg("y", 0), (d[0], borrow))] + [(Reg("y", i), (d[i], 0)) for i in range(1, q)],
             carry_out=False)
    above = fn.temp()
    fn.emit("sub", above, outgoing, excess)
    fn.emit("sub", Reg("y", q), above, out)
    fn.check()
    return fn


def lowered_where_negative(fn: Function, e: list[Reg], above: Reg) -> tuple[Reg, list[Reg]]:
    """(all ones where R's word above the held width is negative: e exceeds the digit,
    e - 1 there and e elsewhere)."""
    sign = fn.temp()
    fn.emit("shr", sign, above, 31)
    negative = all_ones_if_set(fn, sign)
    lowered = fn.temps_list(len(e))  # all ones in every limb: minus 1
    fn.chain("add", [(lowered[i], (e[i], negative)) for i in range(len(e))], carry_out=False)
    return negative, lowered


def block_add_back(q: int) -> Function:
    """x = B (Q), e (Q), R's word above the held width; y = B where that word is negative,
    else 0; e - 1 there, else e."""
    fn = Function("division_add_back", 2 * q + 1, 2 * q)
    x = [Reg("x", i) for i in range(2 * q + 1)]
    negative, lowered = lowered_where_negative(fn, x[q:2 * q], x[2 * q])
    for i in range(q):
        fn.emit("and", Reg("y", i), x[i], negative)
        fn.emit("mov", Reg("y", q + i), lowered[i])
    fn.check()
    return fn


def raise_above(q: int) -> Function:
    """x = R's word above the held width, the carry out of the add back, the sum (Q); y =
    the word plus the carry, the sum."""
    fn = Function("division_raise_above", q + 2, q + 1)
    fn.emit("add", Reg("y", 0), Reg("x", 0), Reg("x", 1))
    for i in range(q):
        fn.emit("mov", Reg("y", 1 + i), Reg("x", 2 + i))
    fn.check()
    return fn


def add_where(amount: int) -> Function:
    """y = x[0] + amount where the bit x[1] is set, else x[0]."""
    fn = Function(f"add_where{amount}", 2, 1)
    mask, part = fn.temp(), fn.temp()
    fn.emit("sub", mask, 0, Reg("x", 1))
    fn.emit("and", part, mask, amount)
    fn.emit("add", Reg("y", 0), Reg("x", 0), part)
    fn.check()
    return fn


def leading_zeros(q: int, width: int) -> Function:
    """x = the zero threads' count (in bits), the top thread's Q limbs; y = s = that count
    plus the limbs' leading zeros, at most width - 1 (b = 0), then 1 where s = 0."""
    fn = Function(f"leading_zeros{q}_{width}", q + 1, 2)
    total = fn.temp()
    limb_zeros(fn, total, [Reg("x", 1 + i) for i in range(q)])
    fn.emit("add", total, total, Reg("x", 0))
    fn.emit("sub.cc", fn.temp(), total, width)
    below = all_ones_if_borrow(fn)  # s < width; else b = 0: width - 1
    capped = fn.temp()
    fn.emit("not", capped, below)
    fn.emit("and", capped, capped, 1)
    fn.emit("sub", Reg("y", 0), total, capped)
    fn.emit("add", Reg("y", 1), all_ones_if_nonzero(fn, [total]), 1)  # 1 where s = 0
    fn.check()
    return fn


def complement_shift(width: int) -> Function:
    """y = width - s: the shift that brings the low half's top bits to the high half's
    bottom (width, a shift to 0, where s = 0)."""
    fn = Function(f"complement_shift{width}", 1, 1)
    fn.emit("sub", Reg("y", 0), width, Reg("x", 0))
    fn.check()
    return fn


def zero_word() -> Function:
    fn = Function("zero_word", 0, 1)
    fn.emit("mov", Reg("y", 0), 0)
    fn.check()
    return fn


class Division:
    """The steps of one division program over vectors of the held width."""

    def __init__(self, shape: Shape):
        self.q, self.held = check(shape), held_shape(shape)
        self.c = Composer(shape)

    def call(self, program: Program, *inputs: str, into: str | None = None):
        return self.c.call(program, *inputs, into=into)

    def step(self, fn: Function, reads: tuple[str, ...], writes: tuple[tuple[str, int], ...]) -> None:
        self.c.step(ThreadStep(fn, reads, writes))

    def shifted(self, direction: str, amount: int, vector: str) -> str:
        """vector shifted by `amount` bits at the held width (itself for 0)."""
        return self.call(shift_constant(direction, amount, self.held), vector).result if amount else vector

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

    def normalize(self, b: str, high: str | None = None, low: str | None = None) -> tuple[str, str, str, str]:
        """(B, A's high half, A's low half, s): b and A shifted left by b's leading zeros s
        (H - 1 for b = 0); without A, b alone. The zero threads at b's top first, a stage
        for each bit of their count m (are b's top 2^k threads zero? then move it up 2^k
        threads), then the leading zeros c of the top thread's limbs (one broadcast): s =
        32 Q m + c, and each vector moved by s at once."""
        width, q, threads = self.held.bits, self.q, self.held.threads
        self.step(zero_word(), (), (("shift", 1),))
        top = b
        for k in reversed(range(threads.bit_length() - 1)):
            amount = 32 * q << k
            empty = self.call(compare("is_zero", self.held), self.shifted("shr", width - amount, top)).result
            self.step(select_by_bit(q), (top, self.shifted("shl", amount, top), empty), ((f"top{k}", q),))
            self.step(add_where(amount), ("shift", empty), (("shift", 1),))
            top = f"top{k}"
        self.c.step(Broadcast(top, tuple(range(width // 32 - q, width // 32)), "top_limbs"))
        self.step(leading_zeros(q, width), ("shift", "top_limbs"), (("shift", 1), ("unshifted", 1)))
        left = shift_variable("shl", self.held)
        divisor = self.call(left, b, "shift").result
        if not (high and low):
            return divisor, None, None, "shift"
        self.step(complement_shift(width), ("shift",), (("back", 1),))
        carried = self.call(shift_variable("shr", self.held), low, "back").result
        self.step(zero_where(q), (carried, "unshifted"), (("carried", q),))
        moved_high = self._or(self.call(left, high, "shift").result, "carried")
        return divisor, moved_high, self.call(left, low, "shift").result, "shift"

    def schoolbook(self, divisor: str, high: str, low: str, steps: int | None = None) -> tuple[str, str]:
        """(q, r) of A = high 2^H + low by B (its top bit set), high < B: a digit of Q limbs
        a step from the top, e B subtracted from the remainder moved up a thread. With
        `steps` = k below T, A = high 2^(32 Q k) + low's top k Q limbs (the quotient's k
        digits, low's other limbs shifted out)."""
        t, q = self.held.threads, self.q
        limbs = t * q
        self.c.step(Broadcast(divisor, tuple(range(limbs - q - 1, limbs)), "divisor_top"))
        self.step(block_reciprocal(q + 1), ("divisor_top",), (("reciprocal", q + 1),))
        self.step(copy(q), (high,), (("rest", q),))
        self.step(copy(q), (low,), (("quotient", q),))

        def digit_step(c: Composer) -> None:
            c.step(Broadcast("quotient", tuple(range(limbs - q, limbs)), "incoming"))
            self.moved_up(c, "incoming")
            c.step(ThreadStep(block_digit(q), ("window", "reciprocal", divisor, "moved"),
                              (("difference", q), ("excess", q), ("estimate", q))))
            self.settle(c)
            self.add_back(c, ThreadStep(block_add_back(q), (divisor, "estimate", "above"),
                                        (("addend", q), ("estimate", q))))
            c.step(ShiftUp("quotient", "estimate", "quotient", q))
        self.c.repeat(t if steps is None else steps, digit_step)
        return "quotient", "rest"

    def moved_up(self, c: Composer, incoming: str | None) -> None:
        """window = the remainder R's top Q + 2 limbs (N's, with R's top limbs above the held
        width), moved = N's limbs: R moved up a thread, `incoming` into thread 0."""
        limbs, q = self.held.limbs, self.q
        c.step(Broadcast("rest", tuple(range(limbs - q - 2, limbs)), "window"))
        c.step(ShiftUp("rest", incoming, "moved", q))

    def add_back(self, c: Composer, addend: ThreadStep) -> None:
        """Where R's word above the held width went negative (e one too many): `addend`
        (it writes the vector addend, 0 elsewhere, and the lowered estimate), R + addend,
        and that word plus the carry out."""
        c.step(addend)
        total = c.call(add_or_sub("add", self.held, carry_in=False), "rest", "addend")
        c.step(ThreadStep(raise_above(self.q), ("above", total.flag, total.result), (("above", 1), ("rest", self.q))))

    def settle(self, c: Composer) -> None:
        """rest = N - e B from each thread's difference less the excess of the thread below
        (one borrow scan); above = its word above the held width."""
        limbs, q = self.held.limbs, self.q
        c.step(ShiftUp("excess", None, "excess_in", q))
        c.step(Broadcast("excess", (limbs - q,), "excess_top"))
        c.step(ThreadStep(part("division_borrow_in", q, True, 2), ("difference", "excess_in"),
                          (("lowered", q), ("borrow", 1), ("zeros", 1))))
        c.step(CarryScan("borrow", "zeros", None, "borrow_in", "borrow_out"))
        c.step(ThreadStep(block_settle(q), ("lowered", "borrow_in", "window", "excess_top", "borrow_out"),
                          (("rest", q), ("above", 1))))


def divided(d: Division, divisor: str, high: str, low: str) -> tuple[str, str]:
    """(quotient, remainder) of high 2^H + low by the normalized divisor, high below it: by
    Newton's reciprocal from data/group.toml's [division] newton_from_bits, else by the
    schoolbook."""
    return newton.divide(d, divisor, high, low) if newton.by_newton(d.held) else d.schoolbook(divisor, high, low)


def _division(name: str, shape: Shape, operands: tuple[str, ...], quotient: bool, remainder: bool) -> Program:
    """The division of A = a + a_high 2^(32 limbs) by b, for operands (a, b), (a, a_high, b)
    (wide: the flag where a_high >= b) or (a_high, b) (a = 0)."""
    d = Division(shape)
    q, held = d.q, d.held
    wide = "a_high" in operands
    high, low = d.dividend("a" if "a" in operands else "zero", "a_high" if wide else None, shape.limbs)
    divisor, high, low, shift = d.normalize("b", high, low)
    quotient_vector, rest = divided(d, divisor, high, low)
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
    return _division("div_qr", shape, ("a", "b"), True, True)


def div(shape: Shape) -> Program:
    return _division("div", shape, ("a", "b"), True, False)


def rem(shape: Shape) -> Program:
    return _division("rem", shape, ("a", "b"), False, True)


def div_qr_wide(shape: Shape) -> Program:
    return _division("div_qr_wide", shape, ("a", "a_high", "b"), True, True)


def radix_remainder(shape: Shape) -> Program:
    """a_high R mod b (R = 2^(32 limbs)) for a_high < b; elsewhere (b = 1 among them) the
    flag and 0. Not an operation of its own: the Montgomery constants' (group/powers.py)."""
    return _division("radix_remainder", shape, ("a_high", "b"), False, True)


def modmul(shape: Shape) -> Program:
    """a b mod p for a, b < p and any p (even ones too; the per-thread tier's contract): the
    full product, then its remainder by the wide division's steps (the product's high half
    is below p: by Newton's reciprocal where the division goes so); p = 0: the flag and
    every result word 0."""
    d = Division(shape)
    q, held = d.q, d.held
    # by transform only where Newton's steps already take its shared memory (the rows' tables
    # are smaller: more blocks share an SM for the schoolbook's steps)
    product = d.call(auto_mul(held) if newton.by_newton(held) else mul(held), "a", "b")
    high, low = d.dividend(product.result, product.high, held.limbs)
    divisor, high, low, shift = d.normalize("p", high, low)
    _, rest = divided(d, divisor, high, low)
    d.call(compare("is_zero", held), "p", into="flag")
    moved = d.call(shift_variable("shr", held), rest, shift).result
    d.step(zero_where(q), (moved, "flag"), (("y", q),))
    return Program("modmul", shape, ("a", "b", "p"), (), tuple(d.c.steps), "y", "flag")


PLANNERS = {"div_qr": div_qr, "div": div, "rem": rem, "div_qr_wide": div_qr_wide, "modmul": modmul}
