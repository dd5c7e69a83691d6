"""The NTT product's plan (mpgen/ntt): its primes, its generated lists against Python's
integers, the transform run over them against a direct O(n^2) transform, and products
against Python's integers at the bound (all-ones operands make the largest coefficients)."""
import random

import pytest

from mpgen.ntt import DIGIT_BITS, MODULUS, PRIMES, Plan
from mpgen.group import Convolution, Shape, execute as run_program, ntt
from mpgen.ir import execute
from mpgen.ntt import lists
from mpgen.plan import group_program
from mpgen.request import check_bits
from mpgen.ntt.transform import PrimeLists, forward, inverse, product, twiddles

TIER_SIZES = [2048, 3000, 4096, 8192, 2 ** 14, 2 ** 15 + 96, 2 ** 16, 2 ** 17, 2 ** 18]


def is_prime(n: int) -> bool:
    return n > 1 and all(n % q for q in range(2, int(n ** 0.5) + 1))


@pytest.mark.parametrize("prime", PRIMES, ids=lambda prime: hex(prime.p))
def test_each_prime_is_prime_with_a_primitive_root_and_long_transforms(prime):
    assert is_prime(prime.p) and prime.p < 2 ** 31
    assert (prime.p - 1) % (1 << prime.two_adicity) == 0 and prime.two_adicity >= 24
    order = prime.p - 1  # the generator's order is p - 1: no proper divisor of it gives 1
    factors = [q for q in range(2, 1 << 16) if order % q == 0 and is_prime(q)]
    assert all(pow(prime.generator, order // q, prime.p) != 1 for q in factors)
    root = prime.root(1 << 14)
    assert pow(root, 1 << 14, prime.p) == 1 and pow(root, 1 << 13, prime.p) == prime.p - 1
    with pytest.raises(ValueError, match="lengths are powers of two up to"):
        prime.root(3)


def bit_reversed(i: int, n: int) -> int:
    bits = n.bit_length() - 1
    return int(f"{i:0{bits}b}"[::-1], 2) if bits else 0


EDGES = [0, 1, 2, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff]


@pytest.mark.parametrize("index", range(len(PRIMES)))
def test_the_lists_against_python_integers(index):
    prime = PRIMES[index]
    p, r, rng = prime.p, 1 << 32, random.Random(index)
    got = PrimeLists.of(prime, index)
    for d in EDGES + [p - 1, p, p + 1] + [rng.getrandbits(32) for _ in range(200)]:
        assert execute(got.digit, [d]) == [d * r % p], hex(d)
    below = [0, 1, p - 1, p - 2] + [rng.randrange(p) for _ in range(60)]
    for a in below:
        for b in below[:12]:
            w = rng.randrange(p)
            inv_r = pow(r, -1, p)
            assert execute(got.forward, [a, b, w]) == [(a + b) % p, (a - b) * w * inv_r % p]
            assert execute(got.inverse, [a, b, w]) == [(a - w * b * inv_r) % p, (a + w * b * inv_r) % p]
            assert execute(got.pointwise, [a, b]) == [a * b * inv_r % p]


@pytest.mark.parametrize("index", range(len(PRIMES)))
@pytest.mark.parametrize("n", [2, 8, 64])
def test_the_transform_is_the_direct_one(index, n):
    prime = PRIMES[index]
    rng, p = random.Random(n + prime.p), prime.p
    values = [p - 1, 0, 1][:n] + [rng.randrange(p) for _ in range(n - min(n, 3))]
    root, got, table = prime.root(n), PrimeLists.of(prime, index), twiddles(prime, n)
    direct = [sum(v * pow(root, j * k, p) for j, v in enumerate(values)) % p for k in range(n)]
    points = list(values)
    forward(got.forward, points, table)
    assert [points[bit_reversed(k, n)] for k in range(n)] == direct  # out in bit-reversed order
    inverse(got.inverse, points, table)
    assert points == [n * v % p for v in values]


def test_garner_columns_give_the_coefficients_back():
    """Residues N c R mod p_j of coefficients at the bound's edges, as the inverse
    transform leaves them: the columns list sums them at their places exactly."""
    rng, n, q = random.Random(5), 1 << 14, 4
    top = MODULUS - 1
    for coefficients in ([top] * q, [0] * q, [1, top, 0, 1 << 64], [rng.randrange(MODULUS) for _ in range(q)]):
        x = [n * c * (1 << 32) % prime.p for prime in PRIMES for c in coefficients]
        words = execute(lists.columns(PRIMES, n, q), x)
        assert sum(w << 32 * i for i, w in enumerate(words)) == sum(c << 32 * k for k, c in enumerate(coefficients))


@pytest.mark.parametrize("bits", TIER_SIZES)
def test_every_size_of_the_tier_is_exact(bits):
    plan = Plan(bits)
    plan.check()
    # all ones: coefficient digits - 1 of the square sums `digits` products of 2^32 - 1
    assert plan.largest_coefficient == plan.digits * (2 ** DIGIT_BITS - 1) ** 2 < MODULUS
    assert plan.length >= 2 * plan.digits - 1 and plan.length & (plan.length - 1) == 0


def test_a_size_past_the_bound_is_refused():
    with pytest.raises(ValueError, match="bits: a coefficient may reach"):
        Plan(2 ** 31).check()


@pytest.mark.parametrize("bits", [32, 64, 1000, 2048, 3000])
def test_products_against_python_integers(bits):
    rng, top = random.Random(bits), (1 << bits) - 1
    pairs = [(top, top), (0, top), (1, 1), (1 << bits - 1, 1 << bits - 1), (top, 1 << 32 % bits)] + \
        [(rng.getrandbits(bits), rng.getrandbits(bits)) for _ in range(3)]
    for a, b in pairs:
        assert product(a, b, bits) == a * b, (hex(a), hex(b))


# Group shapes small enough for the interpreter (bits, T, Q): Q = 3 makes N = 2^k > 2 T Q, the
# top thread partly used at 700 bits.
PROGRAM_SHAPES = [(512, 8, 2), (700, 8, 3), (1024, 16, 2), (2048, 16, 4)]


@pytest.mark.parametrize("bits, threads, q", PROGRAM_SHAPES)
def test_the_group_programs_against_python_integers(bits, threads, q):
    """mul, sqr and mul_lo by transform, run as the GPU runs them (each thread's lists,
    the group steps) with the edge values that make the largest coefficients."""
    shape = Shape(bits, threads, q)
    rng, top = random.Random(bits), (1 << bits) - 1
    values = [0, 1, top, top - 1, 1 << bits - 1, (1 << 32 * q) - 1] + [rng.getrandbits(bits) for _ in range(2)]
    pairs = [(top, top), (top, 1), (0, top), (1 << bits - 1, top)] + \
        [(rng.getrandbits(bits), rng.getrandbits(bits)) for _ in range(2)]
    programs = {name: planner(shape) for name, planner in ntt.PLANNERS.items()}
    for a, b in pairs:
        assert run_program(programs["mul"], [a, b], []) == (a * b, None), (hex(a), hex(b))
        assert run_program(programs["mul_lo"], [a, b], []) == (a * b & top, None), (hex(a), hex(b))
    for a in values:
        assert run_program(programs["sqr"], [a], []) == (a * a, None), hex(a)


def test_a_thread_holds_at_most_64_points():
    with pytest.raises(ValueError, match="would hold 128 points of the transform each; at most 64 fit"):
        ntt.mul(Shape(4096, 2 ** 3, 64))


@pytest.mark.parametrize("bits, op, transform", [
    (8192, "mul", False), (16384, "mul", True), (16416, "mul", False), (24576, "mul", False), (32768, "mul", True),
    (32768, "mul_lo", False), (65536, "mul_lo", True), (24576, "sqr", True), (262144, "mul_lo", True),
    (2048, "mul", False)])
def test_auto_takes_the_transform_where_it_measured_faster(bits, op, transform):
    """data/ntt.toml's rates: 16384 bits fill a transform of 1024 points, 16416 need 2048
    (as 32768 do) and multiply faster by rows; mul_lo's rows are half the full product's."""
    size = check_bits(bits, "--bits", "auto", "group")
    assert any(isinstance(step, Convolution) for step in group_program(size, op).steps) == transform
