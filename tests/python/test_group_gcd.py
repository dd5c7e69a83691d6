"""The group tier's gcd and modular inverse by divsteps (group/gcd.py) and its square root
(group/sqrt.py: digit by digit, and by Newton's inverse square root), run on the host by the group executor against Python's integers: zeros,
ones, equal operands, powers of two and common powers of two, all ones, coprime and
non-coprime pairs, even moduli (the flag), moduli of all ones and just above a power of
two (d and e past p, inverses of -1), squares and their neighbours, roots of digits near all
ones, random values; shapes holding the size's limbs exactly, sizes not of whole limbs,
an odd one, a thread's limbs not a power of two."""
import math
import random

import pytest

from mpgen.group import Shape, execute
from mpgen.group.gcd import gcd, modinv
from mpgen.group.sqrt import by_newton, first_digit, newton_steps, sqrt
from mpgen.ir import execute as execute_list
from mpgen.tiers import GROUP_TABLE

SHAPES = [(128, 8, 1), (100, 8, 1), (256, 8, 2), (600, 16, 3)]


def values(bits: int, rng: random.Random) -> list[int]:
    top = (1 << bits) - 1
    return [0, 1, 2, top, 1 << bits - 1, 3 << bits // 2, (1 << 32) - 1, rng.getrandbits(bits)]


@pytest.mark.parametrize("bits, threads, q", SHAPES)
def test_gcd_against_python_integers(bits, threads, q):
    program = gcd(Shape(bits, threads, q))
    rng = random.Random(bits)
    cases = values(bits, rng)
    for a in cases:
        for b in cases[a % 2::2] + [a, rng.getrandbits(bits) << 7 & (1 << bits) - 1]:
            assert execute(program, [a, b], []) == (math.gcd(a, b), None), (hex(a), hex(b))


@pytest.mark.parametrize("bits, threads, q", SHAPES)
def test_modinv_against_python_integers(bits, threads, q):
    program = modinv(Shape(bits, threads, q))
    rng = random.Random(bits + 1)
    for p in [1, 3, (1 << bits) - 1, (1 << bits - 1) + 1, 6, rng.getrandbits(bits) | 1, (1 << bits) - 3]:
        for a in {0, 1, 2, p - 1, p - 2, p // 3 * 3 % p, rng.randrange(p)}:
            if not 0 <= a < p:
                continue
            inverse = pow(a, -1, p) if p % 2 and math.gcd(a, p) == 1 else None
            assert execute(program, [a, p], []) == ((inverse, 0) if inverse is not None else (0, 1)), (hex(a), hex(p))


def with_large_digits(bits: int, q: int, rng: random.Random) -> list[int]:
    """Squares of roots whose Q-limb digits are mostly near all ones, and those squares
    plus 1 and plus 2 x (the remainder's bound): the steps whose estimate exceeds the digit
    (by 2 at the first step, 1 at the others, before its rare one more) and the capped
    estimate (remainder 2 x)."""
    found, width = [], bits // 2
    for shift in (s for s in (0, 1, 7, 32 * q) if s < width):
        x = rng.getrandbits(width - shift)
        for at in range(0, width - shift - 32 * q, 32 * q):
            if rng.randrange(3):
                x |= ((1 << 32 * q) - 1 - rng.randrange(4)) << at
        found += [x * x + extra for extra in (0, 1, 2 * x) if x * x + extra < 1 << bits]
    return found


@pytest.fixture(params=["digits", "newton"])
def method(request, monkeypatch):
    """sqrt digit by digit, or by Newton's inverse square root (its 3 and 4 steps here)."""
    if request.param == "newton":
        monkeypatch.setitem(GROUP_TABLE["sqrt"], "newton_from_bits", 0)
    return request.param


# Two limbs a thread at least (the division's); T / 2 - 1 digit steps after the first digit
@pytest.mark.parametrize("bits, threads, q", [(128, 8, 2), (100, 8, 2), (97, 8, 2), (500, 8, 2), (375, 8, 6),
                                              (1024, 16, 2)])
def test_sqrt_against_python_integers(bits, threads, q, method):
    shape = Shape(bits, threads, q)
    assert by_newton(shape) == (method == "newton")
    program = sqrt(shape)
    rng = random.Random(bits + 2)
    root = math.isqrt((1 << bits) - 1)
    for a in values(bits, rng) + [4, 8, 9, root * root, root * root - 1, (root - 1) ** 2, rng.getrandbits(bits) ** 2
                                  >> bits] + with_large_digits(bits, q, rng):
        assert execute(program, [a], []) == (math.isqrt(a), int(math.isqrt(a) ** 2 == a)), hex(a)


@pytest.mark.parametrize("q", [2, 3, 4, 8])
def test_first_digit_against_python_integers(q):
    """sqrt's first digit, limb by limb in one list, on its whole input range [beta^2 / 16,
    beta^2 / 4): the ends, and squares of roots whose limbs are near all ones (Knuth's
    estimate at its largest excess over the limb) plus 0, 1 and 2 s (the remainder's bound),
    and random values."""
    fn, beta, rng = first_digit(q), 1 << 32 * q, random.Random(q)
    roots = [beta // 4, beta // 2 - 1]
    for _ in range(60):
        root = rng.randrange(beta // 4, beta // 2)
        for k in range(q - 1):
            if rng.randrange(2):
                root |= ((1 << 32) - 1 - rng.randrange(3)) << 32 * k
        roots.append(root)
    values = [r * r + extra for r in roots for extra in (0, 1, 2 * r, rng.randrange(2 * r + 1))]
    for x in values + [rng.randrange(beta * beta // 16, beta * beta // 4) for _ in range(40)]:
        words = execute_list(fn, [x >> 32 * k & 0xFFFFFFFF for k in range(2 * q)])
        root = math.isqrt(x)
        assert [sum(w << 32 * k for k, w in enumerate(words[i * q:(i + 1) * q])) for i in (0, 1)] == \
            [root, x - root * root], hex(x)


@pytest.mark.parametrize("bits, threads, q, steps", [(128, 8, 2, 3), (1024, 16, 2, 4), (1 << 21, 2048, 32, 11), (1 << 21, 4096, 16, 12),
                                                     (1 << 24, 16384, 32, 14)])
def test_newton_steps_double_z0_s_bits_to_half_the_width(bits, threads, q, steps):
    """32 Q - 5 bits, each step 2 b - 1, to the held width's half and 2: 59 bits at Q = 2
    (128 bits on 8 threads hold 512: 3 steps to 465 >= 258), 1019 at Q = 32 (2^21 bits: 11
    steps to 2084865 >= 1048578)."""
    assert newton_steps(Shape(bits, threads, q)) == steps


def test_sqrt_goes_by_newton_where_its_group_spans_blocks():
    from mpgen.tiers import group
    for bits, newton in ((1 << 20, False), ((1 << 20) + 32, True), (1 << 24, True)):
        tier = group(bits, -(-bits // 32), op="sqrt")
        assert (tier.blocks_per_instance > 1) == newton
        assert by_newton(Shape(bits, tier.threads_per_instance, tier.limbs_per_thread)) == newton
