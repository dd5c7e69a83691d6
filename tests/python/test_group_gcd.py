"""The group tier's gcd and modular inverse by divsteps (group/gcd.py) and its square root
(group/sqrt.py), run on the host by the group executor against Python's integers: zeros,
ones, equal operands, powers of two and common powers of two, all ones, coprime and
non-coprime pairs, even moduli (the flag), moduli of all ones and just above a power of
two (d and e past p, inverses of -1), squares and their neighbours, random values; shapes
holding the size's limbs exactly, sizes not of whole limbs, an odd one, a thread's limbs
not a power of two; the square root's levels."""
import math
import random

import pytest

from mpgen.group import Shape, execute
from mpgen.group.gcd import gcd, modinv
from mpgen.group.sqrt import levels, sqrt

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


# Two limbs a thread at least (the division's); 375 bits on 8 x 6: levels of 2, 3, 6, 12 and
# 24 limbs, digits of 6 (one, one, one, two, four steps)
@pytest.mark.parametrize("bits, threads, q", [(128, 8, 2), (100, 8, 2), (97, 8, 2), (500, 8, 2), (375, 8, 6)])
def test_sqrt_against_python_integers(bits, threads, q):
    program = sqrt(Shape(bits, threads, q))
    rng = random.Random(bits + 2)
    root = math.isqrt((1 << bits) - 1)
    for a in values(bits, rng) + [4, 8, 9, root * root, root * root - 1, (root - 1) ** 2, rng.getrandbits(bits) ** 2
                                  >> bits]:
        assert execute(program, [a], []) == (math.isqrt(a), int(math.isqrt(a) ** 2 == a)), hex(a)


def test_sqrt_levels_at_most_double():
    """Each level's root at most twice the last (one Newton round then reaches it), from 1
    limb to half the held limbs."""
    for held in (16, 48, 94, 96, 128, 256):
        found = [1] + levels(held)
        assert found[-1] == held // 2 and all(b < a <= 2 * b for b, a in zip(found, found[1:])), (held, found)
