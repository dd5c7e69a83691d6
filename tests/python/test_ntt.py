"""The NTT product's plan (mpgen/ntt): its primes, the transform run over their generated
field operations against a direct O(n^2) transform in Python's integers, and products
against Python's integers at the bound (all-ones operands make the largest coefficients)."""
import random

import pytest

from mpgen.ntt import DIGIT_BITS, MODULUS, PRIMES, Plan
from mpgen.ntt.transform import FieldOps, inverse, product, transform

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


@pytest.mark.parametrize("prime", PRIMES, ids=lambda prime: hex(prime.p))
@pytest.mark.parametrize("n", [1, 2, 8, 64])
def test_the_transform_is_the_direct_one(prime, n):
    rng, p = random.Random(n + prime.p), prime.p
    values = [p - 1, 0, 1][:n] + [rng.randrange(p) for _ in range(n - min(n, 3))]
    root, ops = prime.root(n), FieldOps(prime)
    direct = [sum(v * pow(root, j * k, p) for j, v in enumerate(values)) % p for k in range(n)]
    assert transform(ops, values, root) == direct
    assert inverse(ops, direct, root) == values


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
