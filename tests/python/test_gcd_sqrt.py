"""gcd's and sqrt's lists (ops/gcd.py, ops/sqrt.py), run by the instruction-list
interpreter in the order of their loops in cuda/loops.cuh, against Python's integers."""
import math
import random

import pytest

from mpgen.field import to_words
from mpgen.ir import execute
from mpgen.ops import gcd, sqrt
from mpgen.size import Size


def value(words: list[int]) -> int:
    return sum(w << 32 * i for i, w in enumerate(words))


@pytest.mark.parametrize("bits", [32, 64, 131, 256])
def test_gcd_agrees_with_python(bits):
    # gcd_start, rounds(bits) gcd_rounds, gcd_finish, as cuda/loops.cuh's divsteps runs them
    size, rng = Size(bits), random.Random(bits)
    n, top = size.limbs, (1 << bits) - 1
    start, round_, finish = gcd.gcd_start(size), gcd.gcd_round(size), gcd.gcd_finish(size)
    for _ in range(40):
        a = rng.choice([0, 1, top, rng.getrandbits(bits), rng.getrandbits(bits) << rng.randrange(bits) & top])
        b = rng.choice([0, 1, a, top, rng.getrandbits(bits), rng.getrandbits(bits // 2) * a & top])
        state = execute(start, to_words(a, n) + to_words(b, n))
        for _ in range(gcd.rounds(bits)):
            state = execute(round_, state[:round_.in_words]) + state[round_.in_words:]
        assert value(execute(finish, state)) == math.gcd(a, b), (hex(a), hex(b))


def test_the_rounds_cover_the_worst_case_bound():
    # Bernstein and Yang's theorem 11.2: floor((49 d + 80) / 17) divsteps below d = 46 bits,
    # floor((49 d + 57) / 17) from there, 30 a round
    for bits, divsteps in ((32, 96), (45, 134), (46, 135), (256, 741), (2048, 5906)):
        assert gcd.rounds(bits) == -(-divsteps // 30), bits


@pytest.mark.parametrize("bits", [32, 33, 64, 131, 256])
def test_sqrt_agrees_with_python(bits):
    size, rng = Size(bits), random.Random(bits)
    m, top = sqrt.state_limbs(size), (1 << bits) - 1
    step = sqrt.step(size)
    for _ in range(40):
        root = rng.getrandbits(bits // 2)
        a = rng.choice([0, 1, 2, 3, 4, top, rng.getrandbits(bits), root * root & top, (root * root - 1) & top])
        state = [0] * (2 * m)
        for i in reversed(range((bits + 1) // 2)):
            state = execute(step, state + [(a >> 2 * i) & 3])
        r, rest = value(state[:m]), value(state[m:])
        assert (r, rest) == (math.isqrt(a), a - math.isqrt(a) ** 2), hex(a)
