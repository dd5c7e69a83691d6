"""Division's lists (thread/division.py), run by the instruction-list interpreter in the
order of headers/loops.cuh's divide (normalize, one step per quotient digit from the top,
finish), against Python's integers."""
import random

import pytest

from mpgen.fields import to_words
from mpgen.ir import execute
from mpgen.size import Size
from mpgen.thread import division


def value(words: list[int]) -> int:
    return sum(w << 32 * i for i, w in enumerate(words))


def divide(size: Size, high: int, low: int, b: int) -> tuple[int, int, int]:
    n = size.limbs
    normalize, step, finish = division.steps(size)
    out = execute(normalize, to_words(high, n) + to_words(low, n) + to_words(b, n))
    v, u, shift, reciprocal, undefined = out[:n], out[n:3 * n], out[3 * n], out[3 * n + 1], out[3 * n + 2]
    r, q = u[n:], [0] * n
    for j in reversed(range(n)):
        out = execute(step, r + [u[j]] + v + [reciprocal])
        r, q[j] = out[:n], out[n]
    out = execute(finish, r + [shift] + q + [undefined])
    return value(out[:n]), value(out[n:2 * n]), out[2 * n]


@pytest.mark.parametrize("bits", [32, 64, 96, 131, 256, 521])
def test_division_agrees_with_python(bits):
    size, rng = Size(bits), random.Random(bits)
    n = size.limbs
    top = 1 << 32 * n
    divisors = [1, 2, 3, (1 << bits) - 1, 1 << bits - 1, (1 << bits - 1) + 1, 0xFFFFFFFF, 1 << 32 * (n - 1)]
    divisors = [b for b in divisors if b < 1 << bits]
    divisors += [rng.getrandbits(rng.randrange(1, bits + 1)) | 1 for _ in range(30 if n <= 8 else 10)]  # a step a limb
    for b in divisors:
        for q in (top - 1, top - 2, top // 2, 1, 0, rng.randrange(top)):
            for r in (0, b - 1, rng.randrange(b)):
                a = q * b + r  # a's high half is below b: the quotient fits
                assert divide(size, a >> 32 * n, a % top, b) == (q, r, 0), (hex(a), hex(b))
        low = rng.getrandbits(bits)
        assert divide(size, 0, low, b) == (low // b, low % b, 0)


@pytest.mark.parametrize("bits", [32, 131, 256])
def test_division_by_zero_or_a_quotient_too_wide_is_flagged_with_zeros(bits):
    size = Size(bits)
    assert divide(size, 0, 12345, 0) == (0, 0, 1)
    assert divide(size, 0, 0, 0) == (0, 0, 1)
    assert divide(size, 7, 5, 7) == (0, 0, 1)  # high == b
    assert divide(size, 8, 5, 7) == (0, 0, 1)


def test_the_reciprocal_is_exact():
    # Moller and Granlund's v = floor((2^64 - 1) / d) - 2^32, for normalized d, by Newton's
    # steps: the ends of the range (the tangent's largest error, its clamp near 2^32), the
    # neighbours of powers of two and of 2^32 - 2^k, random divisors. (All 2^31 divisors
    # were checked once through the host printer's C rendering of this list.)
    from mpgen.ir import Function, Reg
    fn = Function("reciprocal", 1, 1)
    fn.emit("mov", Reg("y", 0), division.word_reciprocal(fn, Reg("x", 0)))
    rng = random.Random(1)
    ends = [*range(1 << 31, (1 << 31) + 500), *range((1 << 32) - 500, 1 << 32)]
    powers = [base + sign * (1 << k) + e for k in range(31) for e in (-1, 0, 1) for base, sign in ((1 << 31, 1),
                                                                                               (1 << 32, -1))]
    for d in ends + [d for d in powers if 1 << 31 <= d < 1 << 32] + [rng.randrange(1 << 31, 1 << 32)
                                                                  for _ in range(3000)]:
        assert execute(fn, [d]) == [((1 << 64) - 1) // d - (1 << 32)], hex(d)
