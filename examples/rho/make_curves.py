"""Random elliptic curves of prime order for mpgen-rho's tests: for each size, a prime
p = 3 mod 4, a curve y^2 = x^3 + a x + b over F_p whose group has prime order n, a point P,
and Q = k P for a random k. The order is found by baby-step giant-step over the Hasse
interval; a curve is kept only where that multiple of P is prime (then it is the group's
order: see tests/python/test_rho_curves.py, which checks every line with gmpy2).

    python3 examples/rho/make_curves.py --seed 20261123 --bits 30 34 37 40 > examples/rho/test_curves.txt

Each output line: name p a b n px py qx qy k, in hex; '#' starts a comment."""
from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "generator"))
from mpgen.fields import is_probable_prime as is_prime  # noqa: E402  (mpgen's Miller-Rabin)

INFINITY = None


def add(s, t, a, p):
    """s + t on y^2 = x^3 + a x + b over F_p, affine, None for infinity."""
    if s is INFINITY:
        return t
    if t is INFINITY:
        return s
    (x1, y1), (x2, y2) = s, t
    if x1 == x2:
        if (y1 + y2) % p == 0:
            return INFINITY
        slope = (3 * x1 * x1 + a) * pow(2 * y1, -1, p) % p
    else:
        slope = (y2 - y1) * pow(x2 - x1, -1, p) % p
    x3 = (slope * slope - x1 - x2) % p
    return x3, (slope * (x1 - x3) - y1) % p


def negate(s, p):
    return INFINITY if s is INFINITY else (s[0], -s[1] % p)


def multiply(k, s, a, p):
    result = INFINITY
    for bit in bin(k)[2:]:
        result = add(result, result, a, p)
        if bit == "1":
            result = add(result, s, a, p)
    return result


def random_point(a, b, p, rng):
    while True:
        x = rng.randrange(p)
        y = pow(x ** 3 + a * x + b, (p + 1) // 4, p)  # p = 3 mod 4
        if (y * y - x ** 3 - a * x - b) % p == 0 and y:
            return x, y


def order_multiple(point, a, p):
    """The smallest m in the Hasse interval with m P = infinity, by baby-step giant-step."""
    low, width = p + 1 - 2 * math.isqrt(p) - 2, 4 * math.isqrt(p) + 5
    steps = math.isqrt(width) + 1
    baby, current = {}, INFINITY
    for j in range(steps):  # j P -> j
        baby.setdefault(current, j)
        current = add(current, point, a, p)
    giant = multiply(steps, point, a, p)
    current = multiply(low, point, a, p)
    for i in range(steps + 1):  # low P + i (steps P) = -(j P)
        j = baby.get(negate(current, p))
        if j is not None:
            return low + i * steps + j
        current = add(current, giant, a, p)
    return None


def curve(bits: int, rng: random.Random):
    while True:
        p = rng.getrandbits(bits) | 1 << (bits - 1) | 3
        if not is_prime(p):
            continue
        a, b = rng.randrange(p), rng.randrange(p)
        if (4 * a ** 3 + 27 * b ** 2) % p == 0:
            continue
        point = random_point(a, b, p, rng)
        n = order_multiple(point, a, p)
        if n is None or not is_prime(n) or n <= 4 * math.isqrt(p) + 4:
            continue
        k = rng.randrange(1, n)
        return p, a, b, n, point, multiply(k, point, a, p), k


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--bits", type=int, nargs="+", required=True, choices=range(16, 65),
                        metavar="BITS", help="sizes of p, 16 to 64 bits")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"# made by: python3 examples/rho/make_curves.py --seed {args.seed} --bits "
          f"{' '.join(map(str, args.bits))}")
    print("# name p a b n px py qx qy k (hex): y^2 = x^3 + a x + b mod p, n = #E prime, Q = k P")
    for bits in args.bits:
        p, a, b, n, (px, py), (qx, qy), k = curve(bits, rng)
        print(f"curve{bits}", *(hex(v) for v in (p, a, b, n, px, py, qx, qy, k)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
