"""The group tier's division by Knuth's algorithm D over the group (group/division.py), and
by Newton's reciprocal after the schoolbook's first digits (group/newton.py), run on the host by the group executor against Python's integers: divisors at the ends of the
normalization (1, a top bit alone, all ones, one bit below the top), q-hat's hardest (a
top word followed by all ones or zeros: estimates 2 too large), quotients of all ones,
the flag for b = 0 and for a wide quotient that does not fit; shapes where the group
holds exactly the size's limbs, more (the wide dividend's halves moved to the held
width), and a size not of whole limbs."""
import random

import pytest

from mpgen.group import Convolution, Shape, ThreadStep, execute
from mpgen.group.division import block_digit, block_reciprocal, div, div_qr, div_qr_wide, modmul, rem
from mpgen.group.newton import by_newton, iterations
from mpgen.group.program import flat
from mpgen.ir import execute as execute_list
from mpgen.tiers import GROUP_TABLE

# bits, T, Q: 16 limbs held exactly; 250 bits (8 limbs, the top one short) in 16 (a wide
# dividend's high half moves to the held width).
SHAPES = [(512, 8, 2), (250, 8, 2)]


def divisors(bits: int, rng: random.Random) -> list[int]:
    top = (1 << bits) - 1
    knuth = [(1 << bits - 1) + (1 << bits - 33) - 1, ((1 << 31) | 1) << bits - 32]  # q-hat 2 too large
    return [1, 2, 3, top, 1 << bits - 1, (1 << bits - 1) + 1, top >> 1, (1 << 32) - 1, 1 << bits // 2] + knuth + \
        [rng.getrandbits(rng.randrange(1, bits + 1)) | 1 for _ in range(4)]


def expected(a: int, b: int, limbs: int, fits: bool = True) -> tuple[int, int]:
    if b == 0 or not fits:
        return 0, 1
    return a // b + (a % b << 32 * limbs), 0


@pytest.fixture(params=["schoolbook", 4, 1], ids=lambda k: k if k == "schoolbook" else f"newton_from_{k}_digits")
def method(request, monkeypatch):
    """The division by the schoolbook alone, or by Newton's reciprocal after the
    schoolbook's first k digits (8 threads: one Newton step, and three)."""
    if request.param != "schoolbook":
        monkeypatch.setitem(GROUP_TABLE["division"], "newton_from_bits", 0)
        monkeypatch.setitem(GROUP_TABLE["division"], "newton_schoolbook_digits", request.param)
    return request.param


@pytest.mark.parametrize("bits, threads, q", SHAPES)
def test_division_against_python_integers(bits, threads, q, method):
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
def test_wide_division_quotients_of_all_ones_and_the_flag(bits, threads, q, method):
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


@pytest.mark.parametrize("bits, newton, steps", [(65536, False, 1), (131072, True, 2), (262144, True, 3)])
def test_newton_divides_from_data_group_toml_s_size_by_the_transform_s_products(bits, newton, steps):
    # from 64 of the schoolbook's digits: 256 threads of 16 limbs take 2 Newton steps
    shape = Shape(bits, bits // 32 // 16, 16)
    assert by_newton(shape) == newton and iterations(shape) == steps
    planned = list(flat(div_qr(shape).steps))
    names = [step.fn.name for step in planned if isinstance(step, ThreadStep)]
    assert names.count("newton_correction") == newton  # one list, in a Repeat
    assert any(isinstance(step, Convolution) for step in planned) == newton  # the transform's products


def limbs(value: int, count: int) -> list[int]:
    return [value >> 32 * i & 0xFFFFFFFF for i in range(count)]


@pytest.mark.parametrize("q, held", [(2, 4), (4, 8), (8, 16)])
def test_digit_estimate_is_the_digit_or_one_more(q, held):
    """The lists a step runs, on Python integers: V from B's top Q + 1 limbs exactly, and
    the digit's estimate e from N's top Q + 2 limbs within 0 <= e - floor(N / B) <= 1 (one
    add-back), for divisors at the normalization's ends and between, remainders just below
    B, the dividend's next limbs all ones, and dividends just below a multiple of B."""
    rng, beta = random.Random(q), 1 << 32 * q
    low, high = 1 << 32 * held - 1, (1 << 32 * held) - 1
    for _ in range(300):
        kind = rng.randrange(4)
        b = [rng.randrange(low, high + 1), low + rng.getrandbits(rng.randrange(1, 80)),
             high - rng.getrandbits(rng.randrange(1, 80)), low | (1 << rng.randrange(1, 32 * held - 1)) - 1][kind]
        top, wide = b >> 32 * (held - q - 1), beta << 32
        v = execute_list(block_reciprocal(q + 1), limbs(top, q + 1))
        assert sum(w << 32 * i for i, w in enumerate(v)) == (wide * wide - 1) // top - wide
        multiple = rng.randrange(1, beta) * b - rng.randrange(1, 1 << 40)
        for r in (b - 1, b - 1 - rng.getrandbits(rng.randrange(1, 80)) % b, rng.randrange(b)):
            for n in (r * beta + beta - 1, r * beta + rng.randrange(beta), multiple):
                y = execute_list(block_digit(q), limbs(n >> 32 * (held - 2), q + 2) + v + [0] * 2 * q)
                estimate = sum(w << 32 * i for i, w in enumerate(y[2 * q:]))
                assert 0 <= estimate - n // b <= 1, (hex(b), hex(n))


@pytest.mark.parametrize("bits, threads, q", SHAPES)
def test_modmul_with_any_modulus(bits, threads, q, method):
    """a b mod p for moduli odd and even (a power of two, 2^k - 1, all ones, 1), a and b
    at the ends below p; p = 0 the flag."""
    program = modmul(Shape(bits, threads, q))
    rng = random.Random(bits + 2)
    for p in divisors(bits, rng)[:9] + [rng.getrandbits(bits) & -2 or 2]:
        for a, b in {(0, p - 1), (p - 1, p - 1), (1, p - 1), (rng.randrange(p), rng.randrange(p))}:
            assert execute(program, [a, b, p], []) == (a * b % p, 0), (hex(a), hex(b), hex(p))
    assert execute(program, [5, 7, 0], []) == (0, 1)
