"""The group tier's integer square root (issue 20): Newton's iteration on the group's
division (group/division.py), a fixed count of steps whatever a is, at the width the group
holds (H bits):

    s = a's leading zeros           the division's normalization stages (H - 1 for a = 0),
                                    which also give a 2^s: its top two words (broadcast)
    t = a 4^k's top 64 bits         k = floor(s / 2): a 2^s's top two words, or half them
    x = (isqrt(t) + 1) 2^(H/2 - 32 - k)
                                    at least sqrt(a), above it by under 2^-31 of it (the
                                    root of t digit by digit in every thread, ops/sqrt.py's;
                                    for small a, where the exponent is negative, rounded up)
    `newton_steps` times:           x = min(x, floor((x + floor(a / x)) / 2)): never below
                                    floor(sqrt(a)), and at floor(sqrt(a)) once within 1 of
                                    sqrt(a) (the relative error r goes to r^2 / (2 (1 + r))
                                    or less); x = 0 stays 0 (a division by 0 gives 0)
    flag = (x^2 == a)               x^2 below 2^bits: the low half of the product

Each step is a whole division, so a root costs newton_steps(bits) divisions (8 at 4096
bits, 9 at 8192); Newton at doubling precision (the per-thread tier's: each step a
division of the top limbs only, the steps' digits summing to one division's) is next.
Flag 1 where a is an exact square: the per-thread tier's contract."""
from __future__ import annotations

from ..ir import Function, Reg
from ..ops.common import all_ones_if_borrow, complement
from ..ops.sqrt import top_root
from .addsub import add_or_sub
from .bits import shift_constant, shift_variable
from .compare import compare
from .compose import Composer
from .division import Division, div, held_shape
from .montgomery import integer_one
from .mul import mul_lo
from .powers import select_by_bit
from .program import Broadcast, Program, Shape, ThreadStep


# The start's relative error: below 2^-31 where the root has 32 bits or more (t >= 2^62, so
# isqrt(t) >= 2^31); below 1 for smaller a, whose root needs only 33 good bits.
START_ERROR_BITS, SMALL_ROOT_BITS = 31, 33


def newton_steps(bits: int) -> int:
    """Steps until r sqrt(a) < 1/2 for every a below 2^bits (log2 r_(k+1) <= 2 log2 r_k - 1),
    from the start's error (either case), then one to floor(sqrt(a))."""
    def steps(log_error: int, good_bits: int) -> int:
        count = 0
        while log_error > -good_bits:
            count, log_error = count + 1, 2 * log_error - 1
        return count
    return max(steps(-START_ERROR_BITS, bits // 2 + 1), steps(0, SMALL_ROOT_BITS)) + 1


def start(held_bits: int, q: int) -> Function:
    """x = a 2^s's top two words, s, the integer 1's Q limbs (thread 0's first limb 1, every
    other 0: where m goes); y = the start's multiplier m (two words, m = isqrt(t) + 1,
    rounded up by 2^(-e) where e < 0; zero but in thread 0) and its shift max(e, 0), e =
    H/2 - 32 - floor(s / 2)."""
    fn = Function("sqrt_start", 3 + q, 3)
    low, high, shift, first = (Reg("x", i) for i in range(4))
    odd, top, bottom = fn.temp(), fn.temp(), fn.temp()
    fn.emit("and", odd, shift, 1)  # a 4^k = a 2^s / 2 where s is odd
    fn.emit("shf.r.clamp", bottom, low, high, odd)
    fn.emit("shr", top, high, odd)
    root = top_root(fn, top, bottom)
    plus_low, plus_high = fn.temp(), fn.temp()
    fn.emit("add.cc", plus_low, root, 1)
    fn.emit("addc", plus_high, 0, 0)
    half, exponent = fn.temp(), fn.temp()
    fn.emit("shr", half, shift, 1)
    fn.emit("sub", exponent, held_bits // 2 - 32, half)  # e, as a signed word
    fn.emit("sub.cc", fn.temp(), exponent, 0x80000000)
    nonnegative = all_ones_if_borrow(fn)  # all ones where e < 2^31 as unsigned: e >= 0
    right, left = fn.temp(), fn.temp()
    fn.emit("sub", right, 0, exponent)
    fn.emit("and", right, right, complement(fn, nonnegative))  # -e where e < 0, else 0
    fn.emit("and", left, exponent, nonnegative)
    # m rounded up: (m + 2^(-e) - 1) >> -e, -e at most 31 (k < H / 2), m at most 2^32
    bump, rounded_low, rounded_high, mask = fn.temp(), fn.temp(), fn.temp(), fn.temp()
    fn.emit("mov", bump, 1)
    fn.emit("shl", bump, bump, right)
    fn.emit("sub", bump, bump, 1)
    fn.emit("add.cc", rounded_low, plus_low, bump)
    fn.emit("addc", rounded_high, plus_high, 0)
    fn.emit("shf.r.clamp", rounded_low, rounded_low, rounded_high, right)
    fn.emit("shr", rounded_high, rounded_high, right)
    fn.emit("sub", mask, 0, first)
    fn.emit("and", Reg("y", 0), rounded_low, mask)
    fn.emit("and", Reg("y", 1), rounded_high, mask)
    fn.emit("mov", Reg("y", 2), left)
    fn.check()
    return fn



def placed(q: int) -> Function:
    """x = m (two words); y = Q limbs: m in the first two, zeros above."""
    fn = Function("sqrt_start_limbs", 2, q)
    for i in range(q):
        fn.emit("mov", Reg("y", i), Reg("x", i) if i < 2 else 0)
    fn.check()
    return fn


def sqrt(shape: Shape) -> Program:
    """floor(sqrt(a)); flag 1 where a is an exact square."""
    shape.check()
    held, q = held_shape(shape), shape.limbs_per_thread
    limbs = held.threads * q
    d = Division(shape)
    normal, _, _, zeros = d.normalize("a")
    c = d.c
    c.step(Broadcast(normal, (limbs - 2, limbs - 1), "top"))
    integer_one(c, held, "unit")
    c.step(ThreadStep(start(held.bits, q), ("top", zeros, "unit"), (("multiplier", 2), ("exponent", 1))))
    c.step(ThreadStep(placed(q), ("multiplier",), (("start", q),)))
    c.call(shift_variable("shl", held), "start", "exponent", into="root")

    def step(body: Composer) -> None:
        quotient = body.call(div(held), "a", "root").result
        total = body.call(add_or_sub("add", held, carry_in=False), "root", quotient).result
        half = body.call(shift_constant("shr", 1, held), total).result
        smaller = body.call(compare("lt", held), half, "root").result
        body.step(ThreadStep(select_by_bit(q), ("root", half, smaller), (("root", q),)))
    c.repeat(newton_steps(shape.bits), step)
    square = c.call(mul_lo(held), "root", "root").result
    c.call(compare("eq", held), square, "a", into="exact")
    return Program("sqrt", shape, ("a",), (), tuple(c.steps), "root", "exact")


PLANNERS = {"sqrt": sqrt}
