"""The group tier's binary gcd and modular inverse (group/gcd.py) and its square root
(group/sqrt.py), run on the host by the group executor against Python's integers: zeros,
ones, equal operands, powers of two and common powers of two, all ones, coprime and
non-coprime pairs, even moduli (the flag), squares and their neighbours, random values; a
shape holding the size's limbs exactly, sizes not of whole limbs, an odd one; the square
root's a few more steps of Newton's iteration than it needs (the count's bound)."""
import math
import random

import pytest

from mpgen.group import Shape, execute
from mpgen.group.gcd import gcd, modinv
from mpgen.group.sqrt import newton_steps, sqrt

SHAPES = [(128, 8, 1), (100, 8, 1)]


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
    for p in [1, 3, (1 << bits) - 1, (1 << bits - 1) + 1, 6, rng.getrandbits(bits) | 1]:
        for a in {0, 1, p - 1, p // 3 * 3 % p, rng.randrange(p)}:
            if a >= p:
                continue
            inverse = pow(a, -1, p) if p % 2 and math.gcd(a, p) == 1 else None
            assert execute(program, [a, p], []) == ((inverse, 0) if inverse is not None else (0, 1)), (hex(a), hex(p))


@pytest.mark.parametrize("bits, threads, q", [(128, 8, 2), (100, 8, 2), (97, 8, 2), (500, 8, 2)])
def test_sqrt_against_python_integers(bits, threads, q):  # two limbs a thread at least: its division's
    program = sqrt(Shape(bits, threads, q))
    rng = random.Random(bits + 2)
    root = math.isqrt((1 << bits) - 1)
    for a in values(bits, rng) + [4, 8, 9, root * root, root * root - 1, (root - 1) ** 2, rng.getrandbits(bits) ** 2
                                  >> bits]:
        assert execute(program, [a], []) == (math.isqrt(a), int(math.isqrt(a) ** 2 == a)), hex(a)


def start(a: int, held: int) -> int:
    """The program's start, on Python integers: (isqrt(t) + 1) 2^e, t = a 4^k's top 64 bits."""
    k = (held - a.bit_length()) // 2
    multiplier, exponent = math.isqrt((a << 2 * k) >> held - 64) + 1, held // 2 - 32 - k
    return multiplier << exponent if exponent >= 0 else -(-multiplier >> -exponent)


def test_newton_steps_reach_the_root_from_the_start():
    """The plan's count, run as the program runs it on Python integers: within 1 above
    floor(sqrt(a)) after newton_steps(bits) - 1 steps, at it after one more, for the start's
    hardest cases (a = 2^(n-1), just above a power of four, all ones, small a whose start
    is rounded up) and random ones; the start never below sqrt(a)."""
    for bits in (64, 512, 4096):
        rng = random.Random(bits)
        for a in [1 << bits - 1, (1 << bits - 2) + 1, (1 << bits) - 1, 3, 5, (1 << 40) + 1, (1 << 66) - 1] + \
                [rng.getrandbits(rng.randrange(1, bits + 1)) for _ in range(30)]:
            if a >> bits or not a:  # (0: the executor tests; x reaches 0, whose division gives 0)
                continue
            x = start(a, bits)
            assert x * x >= a, (bits, hex(a))
            for _ in range(newton_steps(bits) - 1):
                x = min(x, (x + a // x) // 2)
            assert 0 <= x - math.isqrt(a) <= 1, (bits, hex(a))
            assert min(x, (x + a // x) // 2) == math.isqrt(a), (bits, hex(a))
