"""mpgen-rho's test curves (examples/rho/test_curves.txt) checked with gmpy2, apart from the
script that made them: p and n prime, P and Q on the curve, n P = infinity with n prime and
wider than the Hasse interval (so n is the group's order), Q = k P; and the file is what
the command in its first line prints."""
import subprocess
import sys
from pathlib import Path

import gmpy2
import pytest

ROOT = Path(__file__).resolve().parents[2]
CURVES = ROOT / "examples" / "rho" / "test_curves.txt"


def lines():
    return [line.split() for line in CURVES.read_text().splitlines() if not line.startswith("#")]


def times(k, point, a, p):
    """k * point in Jacobian-free affine form through gmpy2's inverses; None is infinity."""
    def add(s, t):
        if s is None or t is None:
            return t if s is None else s
        if s[0] == t[0]:
            if (s[1] + t[1]) % p == 0:
                return None
            slope = (3 * s[0] * s[0] + a) * gmpy2.invert(2 * s[1], p) % p
        else:
            slope = (t[1] - s[1]) * gmpy2.invert(t[0] - s[0], p) % p
        x = (slope * slope - s[0] - t[0]) % p
        return x, (slope * (s[0] - x) - s[1]) % p
    result, addend = None, point
    while k:
        if k & 1:
            result = add(result, addend)
        addend, k = add(addend, addend), k >> 1
    return result


@pytest.mark.parametrize("fields", lines(), ids=lambda f: f[0])
def test_curve_has_the_stated_prime_order_and_logarithm(fields):
    p, a, b, n, px, py, qx, qy, k = (gmpy2.mpz(int(v, 16)) for v in fields[1:])
    assert gmpy2.is_prime(p, 64) and gmpy2.is_prime(n, 64)
    for x, y in ((px, py), (qx, qy)):
        assert (y * y - x ** 3 - a * x - b) % p == 0
    assert times(n, (px, py), a, p) is None
    assert n > 4 * gmpy2.isqrt(p) + 4 and abs(p + 1 - n) <= 2 * gmpy2.isqrt(p) + 1
    assert times(k, (px, py), a, p) == (qx, qy)


def test_sizes_are_30_to_40_bits():
    assert [int(f[1], 16).bit_length() for f in lines()] == [30, 34, 37, 40]


def test_file_is_what_its_command_prints():
    command = CURVES.read_text().splitlines()[0].removeprefix("# made by: python3 ").split()
    made = subprocess.run([sys.executable, *command], cwd=ROOT, capture_output=True, text=True, check=True)
    assert made.stdout == CURVES.read_text()
