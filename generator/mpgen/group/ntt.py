"""The group tier's products by number-theoretic transform (docs/group-tier.md): `mul`,
`sqr` (one forward transform a prime) and `mul_lo` (the full convolution's low half), as
the quadratic products' programs (mul.py) with a Convolution in place of the rows: the
blocks' columns, then the same handoffs and carry scans."""
from __future__ import annotations

from functools import lru_cache

from ..ntt import Plan, auto_method
from ..ntt.transform import Convolver
from .mul import both_halves, check, low_half, split
from .mul import mul as rows_mul, sqr as rows_sqr
from .program import Convolution, Program, Shape, ThreadStep

MAX_POINTS_PER_THREAD = 64  # a thread's points of two transforms stay in its registers


def transform_length(shape: Shape) -> int:
    """N: the power of two that holds the 2 T Q - 1 coefficients of a product of T Q limbs."""
    return 1 << (2 * shape.threads * shape.limbs_per_thread - 1).bit_length()


def convolution(shape: Shape, square: bool) -> Convolution:
    """The columns of a b (a a): transforms of N points, the power of two that holds the
    2 T Q - 1 coefficients of T Q limbs; ValueError where the product is not exact or a
    thread's points would pass its registers."""
    q = check(shape)
    Plan(shape.bits).check()
    length = transform_length(shape)
    points = length // shape.threads
    if points > MAX_POINTS_PER_THREAD:
        raise ValueError(f"{shape.threads} threads of {q} limbs would hold {points} points of the transform each; "
                         f"at most {MAX_POINTS_PER_THREAD} fit: give more threads")
    return Convolution("a", "a" if square else "b", "low_columns", "high_columns", Convolver.planned(length, q))


def mul(shape: Shape) -> Program:
    return both_halves("mul", shape, convolution(shape, False), ("a", "b"))


def sqr(shape: Shape) -> Program:
    return both_halves("sqr", shape, convolution(shape, True), ("a",))


def mul_lo(shape: Shape) -> Program:
    q = shape.limbs_per_thread
    return low_half("mul_lo", shape, (
        convolution(shape, False),
        ThreadStep(split(q), ("low_columns",), (("d", q), ("excess", 2)))), "d")


@lru_cache(maxsize=None)
def auto_mul(shape: Shape) -> Program:
    """The full product as `mul = auto` plans it at this width: by transform where its
    measured rate beats the rows' (data/ntt.toml), else by rows. Newton's division's full
    products (whatever the request's `mul`)."""
    return mul(shape) if auto_method("mul", shape.limbs, transform_length(shape)) == "ntt" else rows_mul(shape)


@lru_cache(maxsize=None)
def auto_sqr(shape: Shape) -> Program:
    """The full square as `mul = auto` plans it at this width (sqrt by Newton's squares)."""
    return sqr(shape) if auto_method("sqr", shape.limbs, transform_length(shape)) == "ntt" else rows_sqr(shape)


PLANNERS = {"mul": mul, "mul_lo": mul_lo, "sqr": sqr}
