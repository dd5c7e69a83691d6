"""The group tier's Barrett arithmetic modulo p given at run time (group/barrett.py), run on
the host by the group executor against Python's integers: moduli at the ends of the
normalization (1, 2, a top bit alone, all ones, even ones, a word), products that take
the corrections ((p - 1)^2 and its neighbours), p = 0's flag; shapes where the group holds
exactly the size's limbs, and more (250 bits: 8 limbs in 16, the products' halves moved
to W)."""
import random

import pytest

from mpgen.group import Shape, execute
from mpgen.group.barrett import barrett_modmul, barrett_reciprocal
from test_moduli import barrett_reciprocal as reciprocal

SHAPES = [(512, 8, 2), (250, 8, 2)]


def moduli(bits: int, rng: random.Random) -> list[int]:
    top = (1 << bits) - 1
    return [1, 2, 3, top, top - 1, 1 << bits - 1, (1 << bits - 1) + 1, (1 << 32) - 1, 1 << bits // 2] + \
        [rng.getrandbits(rng.randrange(1, bits + 1)) or 1 for _ in range(4)]


@pytest.mark.parametrize("bits, threads, q", SHAPES)
def test_barrett_reciprocal_against_python_integers(bits, threads, q):
    shape = Shape(bits, threads, q)
    program = barrett_reciprocal(shape)
    for p in moduli(bits, random.Random(bits)):
        assert execute(program, [p], []) == (reciprocal(p, shape.limbs), 0), hex(p)
    assert execute(program, [0], []) == (0, 1)


@pytest.mark.parametrize("bits, threads, q", SHAPES)
def test_barrett_modmul_against_python_integers(bits, threads, q):
    shape = Shape(bits, threads, q)
    program = barrett_modmul(shape)
    rng = random.Random(bits + 1)
    for p in moduli(bits, rng):
        v = reciprocal(p, shape.limbs)
        pairs = {(0, 0), (p - 1, p - 1), (1, p - 1), (p // 2, p - 1), (rng.randrange(p), rng.randrange(p))}
        for a, b in pairs:
            assert execute(program, [a, b, p, v], []) == (a * b % p, 0), (hex(p), hex(a), hex(b))
    assert execute(program, [5, 7, 0, 0], []) == (0, 1)
