"""gcd's and sqrt's lists (thread/gcd.py, thread/sqrt.py), run by the instruction-list
interpreter in the order of their loops in headers/loops.cuh, against Python's integers."""
import math
import random

import pytest

from mpgen.fields import to_words
from mpgen.ir import execute
from mpgen.size import Size
from mpgen.thread import gcd, sqrt


def value(words: list[int]) -> int:
    return sum(w << 32 * i for i, w in enumerate(words))


@pytest.mark.parametrize("bits", [32, 64, 131, 256])
def test_gcd_agrees_with_python(bits):
    # gcd_start, rounds(bits) gcd_rounds, gcd_finish, as headers/loops.cuh's divsteps runs them
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


@pytest.mark.parametrize("bits", [32, 33, 64, 96])
def test_sqrt_digit_by_digit_agrees_with_python(bits):
    size, rng = Size(bits), random.Random(bits)
    assert not sqrt.newton(size)
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


def newton_sqrt(size: Size, a: int) -> tuple[int, int]:
    """sqrt's Newton lists in the order of headers/loops.cuh's square_root_newton and
    root_level (divide as its loop runs division's lists): (the root, the flag)."""
    n, h_all = size.limbs, sqrt.root_limbs(size)
    lists = {fn.name: fn for fn in sqrt._steps(size)}
    start = execute(lists["sqrt_newton_start"], to_words(a, n))
    normal, s, exact, below = start[:2 * h_all], start[2 * h_all:3 * h_all], 0, 1
    for h in sqrt.levels(size):
        root = [0xFFFFFFFF] * (h - below) + s[h_all - below:]
        top = normal[2 * (h_all - h):]
        u = execute(lists[f"sqrt_division_normalize_{h}"], top[h:] + top[:h] + root)
        window, quotient = u[2 * h:3 * h] + [0] + u[:h] + [u[3 * h + 1]], [0] * h
        for j in reversed(range(h)):
            window[h] = u[h + j]
            digit = execute(lists[f"sqrt_division_step_{h}"], window)
            window[:h], quotient[j] = digit[:h], digit[h]
        out = execute(lists[f"sqrt_division_finish_{h}"], window[:h] + [u[3 * h]] + quotient + [u[3 * h + 2]])
        mean = execute(lists[f"sqrt_newton_update_{h}"], root + out[:h] + [out[2 * h]])
        checked = execute(lists[f"sqrt_newton_check_{h}"], mean + top)
        s, exact, below = s[:h_all - h] + checked[:h], checked[h], h
    y = execute(lists["sqrt_newton_root"], s + start[3 * h_all:3 * h_all + 2] + [exact])
    return value(y[:n]), y[n]


@pytest.mark.parametrize("bits", [128, 131, 256, 288, 521, 1024])
def test_sqrt_by_newton_agrees_with_python(bits):
    # squares and their neighbours (the check's two cases: the root or one more, the gap
    # 2 s - 1), all ones (a''s high half equal to the root: the division's flag), powers of
    # four and two, and random widths
    size, rng = Size(bits), random.Random(bits)
    assert sqrt.newton(size)
    top = (1 << bits) - 1
    roots = [(1 << bits // 2) - 1, 1 << (bits - 1) // 2, 3] + [rng.getrandbits(rng.randrange(1, bits // 2 + 1))
                                                               for _ in range(12)]
    values = [0, 1, 2, 3, 4, top, 1 << (bits - 1), 1 << (bits - 2)] + \
        [r * r + d for r in roots for d in (-1, 0, 1) if 0 <= r * r + d <= top] + \
        [rng.getrandbits(rng.randrange(1, bits + 1)) for _ in range(20)]
    for a in values:
        root = math.isqrt(a)
        assert newton_sqrt(size, a) == (root, int(root * root == a)), hex(a)


def test_newton_levels_at_most_double():
    # each level's estimate is above the root by less than 2^(32 (h - h')), which one round
    # takes below 1 only where h <= 2 h'
    for bits in (128, 131, 256, 288, 521, 768, 1024, 1056, 2048):
        levels = [1] + sqrt.levels(Size(bits))
        assert levels[-1] == sqrt.root_limbs(Size(bits))
        assert all(below < h <= 2 * below for below, h in zip(levels, levels[1:])), (bits, levels)
