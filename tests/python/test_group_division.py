"""The group tier's division by Newton's reciprocal (group/division.py), run on the host by
the group executor against Python's integers: divisors at the ends of the normalization
(1, a top bit alone, all ones, one bit below the top) and the reciprocal's hardest (a
power of two times one more), quotients of all ones, the flag for b = 0 and for a wide
quotient that does not fit; shapes where the group holds exactly the size's limbs, more
(the wide dividend's halves moved to the held width), and a size not of whole limbs."""
import random

import pytest

from mpgen.group import Shape, execute
from mpgen.group.division import CORRECTIONS, GUESS_ERROR_BITS, div, div_qr, div_qr_wide, modmul, newton_steps, rem

# bits, T, Q: 16 limbs held exactly; 250 bits (8 limbs, the top one short) in 16 (a wide
# dividend's high half moves to the held width).
SHAPES = [(512, 8, 2), (250, 8, 2)]


def divisors(bits: int, rng: random.Random) -> list[int]:
    top = (1 << bits) - 1
    return [1, 2, 3, top, 1 << bits - 1, (1 << bits - 1) + 1, top >> 1, (1 << 32) - 1, 1 << bits // 2] + \
        [rng.getrandbits(rng.randrange(1, bits + 1)) | 1 for _ in range(4)]


def expected(a: int, b: int, limbs: int, fits: bool = True) -> tuple[int, int]:
    if b == 0 or not fits:
        return 0, 1
    return a // b + (a % b << 32 * limbs), 0


@pytest.mark.parametrize("bits, threads, q", SHAPES)
def test_division_against_python_integers(bits, threads, q):
    shape = Shape(bits, threads, q)
    n = shape.limbs
    programs = div_qr(shape), div(shape), rem(shape)
    rng = random.Random(bits)
    top = (1 << bits) - 1
    for b in divisors(bits, rng) + [0]:
        for a in {0, b, b - 1 if b else 0, top, b * (top // b if b else 0), rng.getrandbits(bits)}:
            assert execute(programs[0], [a, b], []) == expected(a, b, n)
        both = expected(top, b, n)  # div and rem: div_qr's steps, one result each
        assert execute(programs[1], [top, b], []) == (both[0] & (1 << 32 * n) - 1, both[1])
        assert execute(programs[2], [top, b], []) == (both[0] >> 32 * n, both[1])


@pytest.mark.parametrize("bits, threads, q", SHAPES)
def test_wide_division_quotients_of_all_ones_and_the_flag(bits, threads, q):
    shape = Shape(bits, threads, q)
    n = shape.limbs
    program = div_qr_wide(shape)
    rng = random.Random(bits + 1)
    for b in divisors(bits, rng):
        all_ones = (1 << 32 * n) - 1
        for quotient in (all_ones, 1 << 32 * n - 1, rng.getrandbits(32 * n)):
            for rest in (0, b - 1):
                a = quotient * b + rest
                if a >> 32 * n < b:  # the quotient fits: a's high half below b
                    assert execute(program, [a, b], []) == expected(a, b, n)
        assert execute(program, [b << 32 * n, b], []) == (0, 1)  # a's high half = b: no room
        assert execute(program, [(1 << 64 * n) - 1, b], []) == (0, 1)
    assert execute(program, [12345, 0], []) == (0, 1)


def test_newton_steps_reach_the_reciprocal_within_its_bound():
    """The plan's first guess and step count, run as the program runs them on Python
    integers: the guess below 2^2H / B by under 2^(H - GUESS_ERROR_BITS), the steps leaving
    2^2H / B - X under 4 at the normalization's two ends, where the top word is all ones,
    and between, and the quotient's estimate within CORRECTIONS of the quotient."""
    for held in (64, 256, 4096):
        rng = random.Random(held)
        for big in [1 << held - 1, (1 << held - 1) + 1, (1 << held) - 1, (1 << held) - (1 << held - 32)] + \
                [rng.randrange(1 << held - 1, 1 << held) for _ in range(20)]:
            top = big >> held - 32
            v = ((1 << 64) - 1) // (top + 1) - (1 << 32) << held - 32 if top + 1 < 1 << 32 else 0
            assert 0 <= (1 << 2 * held) // big - (1 << held) - v < 1 << held - GUESS_ERROR_BITS
            for _ in range(newton_steps(held)):
                product = big * v
                low, high = product & (1 << held) - 1, product >> held
                error = -(high + big + (low != 0)) % (1 << held)
                v += error + (v * error >> held)
            assert 0 <= (1 << 2 * held) // big - (1 << held) - v < 4
            for a in (big << held) - 1, rng.randrange(big << held):
                estimate = (a >> held) + ((a >> held) * v >> held)
                assert 0 <= a // big - estimate <= CORRECTIONS


@pytest.mark.parametrize("bits, threads, q", SHAPES)
def test_modmul_with_any_modulus(bits, threads, q):
    """a b mod p for moduli odd and even (a power of two, 2^k - 1, all ones, 1), a and b
    at the ends below p; p = 0 the flag."""
    program = modmul(Shape(bits, threads, q))
    rng = random.Random(bits + 2)
    for p in divisors(bits, rng)[:9] + [rng.getrandbits(bits) & -2 or 2]:
        for a, b in {(0, p - 1), (p - 1, p - 1), (1, p - 1), (rng.randrange(p), rng.randrange(p))}:
            assert execute(program, [a, b, p], []) == (a * b % p, 0), (hex(a), hex(b), hex(p))
    assert execute(program, [5, 7, 0], []) == (0, 1)
