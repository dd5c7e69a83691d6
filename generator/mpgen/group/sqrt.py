"""The group tier's integer square root (issue 20): Newton's iteration on the group's
division (group/division.py), a fixed count of steps whatever a is, at the width the group
holds (H bits):

    n = a's bit length              H less its leading zeros (division's normalization
                                    stages; 1 for a = 0)
    x = 2^ceil(n / 2)               at least sqrt(a), below 2 sqrt(a)
    `newton_steps` times:           x = min(x, floor((x + floor(a / x)) / 2)): never below
                                    floor(sqrt(a)), and at floor(sqrt(a)) once within 1 of
                                    sqrt(a) (the relative error r goes to r^2 / (2 (1 + r))
                                    or less); x = 0 stays 0 (a division by 0 gives 0)
    flag = (x^2 == a)               x^2 below 2^bits: the low half of the product

Each step is a whole division, so a root costs about newton_steps(bits) divisions (13 at
4096 bits, 14 at 8192); Newton at doubling precision (the per-thread tier's: each step a
division of the top limbs only, the steps' digits summing to one division's) is next.
Flag 1 where a is an exact square: the per-thread tier's contract."""
from __future__ import annotations

from ..ir import Function, Reg
from .addsub import add_or_sub
from .bits import shift_constant, shift_variable
from .compare import compare
from .compose import Composer
from .division import Division, div, held_shape
from .montgomery import integer_one
from .mul import mul_lo
from .powers import select_by_bit
from .program import Program, Shape, ThreadStep


def newton_steps(bits: int) -> int:
    """Steps from r_0 <= 1 until r sqrt(a) < 1/2 for every a below 2^bits (r_k below
    2^-(bits/2 + 1), by log2 r_(k+1) <= 2 log2 r_k - 1), then one to floor(sqrt(a))."""
    steps, log_error = 0, 0
    while log_error > -(bits // 2 + 1):
        steps, log_error = steps + 1, 2 * log_error - 1
    return steps + 1


def start_exponent(held_bits: int) -> Function:
    """x = s, the leading zeros; y = ceil((H - s) / 2)."""
    fn = Function("sqrt_start_exponent", 1, 1)
    width = fn.temp()
    fn.emit("sub", width, held_bits + 1, Reg("x", 0))
    fn.emit("shr", Reg("y", 0), width, 1)
    fn.check()
    return fn


def sqrt(shape: Shape) -> Program:
    """floor(sqrt(a)); flag 1 where a is an exact square."""
    shape.check()
    held, q = held_shape(shape), shape.limbs_per_thread
    d = Division(shape)
    _, _, _, zeros = d.normalize("a")
    c = d.c
    c.step(ThreadStep(start_exponent(held.bits), (zeros,), (("exponent", 1),)))
    integer_one(c, held, "unit")
    c.call(shift_variable("shl", held), "unit", "exponent", into="root")

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
