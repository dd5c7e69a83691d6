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


@pytest.mark.parametrize("bits", [32, 64, 131])
def test_gcd_agrees_with_python(bits):
    size, rng = Size(bits), random.Random(bits)
    n, top = size.limbs, (1 << bits) - 1
    start, step, finish = gcd.start(size), gcd.step(size), gcd.finish(size)
    for _ in range(40):
        a = rng.choice([0, 1, top, rng.getrandbits(bits), rng.getrandbits(bits) << rng.randrange(bits) & top])
        b = rng.choice([0, 1, a, rng.getrandbits(bits), rng.getrandbits(bits // 2) * a & top])
        state = execute(start, to_words(a, n) + to_words(b, n))
        pair, shift = state[:2 * n], state[2 * n]
        for _ in range(2 * bits):
            pair = execute(step, pair)
        assert value(execute(finish, pair + [shift])) == math.gcd(a, b), (hex(a), hex(b))


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
