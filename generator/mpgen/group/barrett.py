"""The group tier's Barrett arithmetic modulo any p given at run time (docs/group-tier.md), the
per-thread contracts (thread/runtime_modulus.py) by whole products of the tier, at W = 32
limbs bits (the size's limbs; the group may hold more, H bits):

    p' = p 2^s                      s = p's leading zeros in W bits (the division's
                                    normalization stages)
    barrett_reciprocal:  v = floor((2^(2W) - 1) / p') - 2^W
                                    the quotient of (~p') 2^W + 2^W - 1 by p' (the
                                    division's schoolbook steps; ~p' < p')
    barrett_modmul:      u = a (b 2^s) = u1 2^W + u0
                                    a full product; u1 < p'
                         (q1, q0) = v u1 + u, q1 + 1
                                    a full product and two sums (Moller and Granlund's
                                    division by an invariant integer, 2^W for the word)
                         r = u0 - q1 p' mod 2^W
                                    a low half
                         r + p' where r > q0; r - p' where r >= p'
                                    masked selects
                         r / 2^s    (a b mod p) 2^s shifted back

barrett_modmul costs two products and a low half, where modmul divides digit by digit; p
= 0 gives the flag and 0. Nothing branches on the values."""
from __future__ import annotations

from .addsub import add_or_sub
from .bits import shift_variable
from .compare import compare
from .division import Division
from .montgomery import constants, radix_shape
from .mul import mul, mul_lo
from .program import Program, Shape, ThreadStep
from .words import complement, select_by_bit, zero_where


class _Width:
    """Moves between the held width H and W = 32 limbs (gap = H - W; nothing to do at 0)."""

    def __init__(self, d: Division, shape: Shape):
        self.c, self.held, self.shifted = d.c, d.held, d.shifted
        self.radix = radix_shape(shape)
        self.gap = self.held.bits - self.radix.bits

    def halves(self, low: str, high: str) -> tuple[str, str]:
        """(u mod 2^W, u >> W) for a full product u = low + high 2^H of values below 2^W."""
        if not self.gap:
            return low, high
        down = self.shifted("shr", self.radix.bits, low)
        up = self.shifted("shl", self.gap, high)
        top = self.c.call(add_or_sub("add", self.held, carry_in=False), down, up).result
        return self.shifted("shr", self.gap, self.shifted("shl", self.gap, low)), top


def _normalized(d: Division, w: _Width, values: tuple[str, ...]) -> tuple[str, str, list[str]]:
    """(p' at H, shift s_H, the values shifted up by s_H and down by the gap: by s): p
    normalized at the held width (the division's stages), then each value moved alike."""
    normal, _, _, shift = d.normalize("p")
    moved = [w.shifted("shr", w.gap, d.call(shift_variable("shl", w.held), v, shift).result) for v in values]
    return normal, shift, moved


def barrett_reciprocal(shape: Shape) -> Program:
    """v = floor((2^(2W) - 1) / p') - 2^W; p = 0: the flag and 0."""
    d = Division(shape)
    w, q = _Width(d, shape), d.q
    d.step(constants(q), (), (("zero", q), ("one", 1)))
    normal, _, _ = _normalized(d, w, ())
    d.step(complement(q), (w.shifted("shr", w.gap, normal),), (("inverted", q),))
    high = w.shifted("shr", w.gap, w.shifted("shl", w.gap, "inverted"))  # ~p' in W bits
    d.step(complement(q), ("zero",), (("ones", q),))
    quotient, _ = d.schoolbook(normal, high, w.shifted("shl", w.gap, "ones"))  # (2^W - 1) 2^gap
    d.call(compare("is_zero", w.held), "p", into="flag")
    d.step(zero_where(q), (quotient, "flag"), (("y", q),))
    return Program("barrett_reciprocal", shape, ("p",), (), tuple(d.c.steps), "y", "flag")


def barrett_modmul(shape: Shape) -> Program:
    """a b mod p for a, b < p with v = barrett_reciprocal(p); p = 0: the flag and 0."""
    d = Division(shape)
    c, q = d.c, d.q
    w = _Width(d, shape)
    held, radix = w.held, w.radix
    c.step(ThreadStep(constants(q), (), (("zero", q), ("one", 1))))
    normal, shift, (b,) = _normalized(d, w, ("b",))
    modulus = w.shifted("shr", w.gap, normal)
    product = c.call(mul(held), "a", b)
    u0, u1 = w.halves(product.result, product.high)
    estimate = c.call(mul(held), "v", u1)
    t0, t1 = w.halves(estimate.result, estimate.high)
    low = c.call(add_or_sub("add", radix, carry_in=False), t0, u0)
    high = c.call(add_or_sub("add", radix), t1, u1, low.flag).result
    q1 = c.call(add_or_sub("add", radix), high, "zero", "one").result
    times = c.call(mul_lo(radix), q1, modulus).result
    r = c.call(add_or_sub("sub", radix, carry_in=False), u0, times).result
    above = c.call(compare("lt", radix), low.result, r).result  # r > q0: q1 was one too many
    c.step(ThreadStep(select_by_bit(q), ("zero", modulus, above), (("back", q),)))
    added = c.call(add_or_sub("add", radix, carry_in=False), r, "back").result
    less = c.call(add_or_sub("sub", radix, carry_in=False), added, modulus)
    c.step(ThreadStep(select_by_bit(q), (less.result, added, less.flag), (("rest", q),)))
    remainder = c.call(shift_variable("shr", held), w.shifted("shl", w.gap, "rest"), shift).result
    c.call(compare("is_zero", held), "p", into="flag")
    c.step(ThreadStep(zero_where(q), (remainder, "flag"), (("y", q),)))
    return Program("barrett_modmul", shape, ("a", "b", "p", "v"), (), tuple(c.steps), "y", "flag")


PLANNERS = {"barrett_reciprocal": barrett_reciprocal, "barrett_modmul": barrett_modmul}
