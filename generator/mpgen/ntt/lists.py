"""The NTT product's instruction lists, from mpgen's modular generator (one-limb Montgomery
arithmetic modulo each prime, branch-free): what each thread of the group runs on its
points, and what the host runs for the tests.

Scales, with R = 2^32: a digit d enters its field as d R (`digit`); the forward transform
(`forward`, Gentleman-Sande butterflies, twiddles w R) keeps that scale, the pointwise
product (`pointwise`: x y R^-1) gives the product's spectrum times R, and the inverse
transform (`inverse`, Cooley-Tukey butterflies over the table's twiddles) gives N c R for
each coefficient c, N the transform's length. `columns` folds N^-1 and R^-1 into Garner's
constants, so that no pass over the points scales them."""
from __future__ import annotations

from math import prod

from ..ir import Function, Reg
from ..thread.reduction import add_mod, montgomery, subtract_mod
from . import Prime

R = 1 << 32


def _x(i: int) -> Reg:
    return Reg("x", i)


def _y(i: int) -> Reg:
    return Reg("y", i)


def digit(prime: Prime, index: int) -> Function:
    """d (any word) -> d R mod p: d times R^2 mod p by one Montgomery product, exact for
    every d < R, not only d < p (the sum d R^2 + m p stays below 2 p R)."""
    fn = Function(f"digit_p{index}", 1, 1)
    montgomery(fn, prime.field, [_x(0)], [R * R % prime.p], [_y(0)])
    fn.check()
    return fn


def forward(prime: Prime, index: int) -> Function:
    """(a, b, w) -> (a + b, (a - b) w R^-1): decimation in frequency."""
    field, fn = prime.field, Function(f"forward_p{index}", 3, 2)
    difference = fn.temp()
    add_mod(fn, field, [_x(0)], [_x(1)], [_y(0)])
    subtract_mod(fn, field, [_x(0)], [_x(1)], [difference])
    montgomery(fn, field, [_x(2)], [difference], [_y(1)])
    fn.check()
    return fn


def inverse(prime: Prime, index: int) -> Function:
    """(a, b, v) -> (a - v b R^-1, a + v b R^-1): decimation in time by the twiddle w^-1 R
    = -v, v the table's entry (the table holds w^e R for e = 0 .. N/2, and w^-e = -w^(N/2-e))."""
    field, fn = prime.field, Function(f"inverse_p{index}", 3, 2)
    t = fn.temp()
    montgomery(fn, field, [_x(2)], [_x(1)], [t])
    subtract_mod(fn, field, [_x(0)], [t], [_y(0)])
    add_mod(fn, field, [_x(0)], [t], [_y(1)])
    fn.check()
    return fn


def pointwise(prime: Prime, index: int) -> Function:
    """(x, y) -> x y R^-1."""
    fn = Function(f"pointwise_p{index}", 2, 1)
    montgomery(fn, prime.field, [_x(0)], [_x(1)], [_y(0)])
    fn.check()
    return fn


def garner_constants(primes: tuple[Prime, ...], length: int) -> list[list[int]]:
    """For prime j: the constants that turn residue j (N c R) and the mixed-radix digits
    d_0 .. d_(j-1) into d_j = (c - d_0 - p_0 d_1 - ...) / (p_0 ... p_(j-1)) mod p_j, each by
    one Montgomery product: N^-1 / P_j for the residue, then P_i R / P_j for digit i
    (P_j = p_0 ... p_(j-1))."""
    constants = []
    for j, prime in enumerate(primes):
        p = prime.p
        below = pow(prod(q.p for q in primes[:j]), -1, p)
        constants.append([pow(length, -1, p) * below % p] +
                         [prod(q.p for q in primes[:i]) * R * below % p for i in range(j)])
    return constants


def columns(primes: tuple[Prime, ...], length: int, q: int) -> Function:
    """A block of Q coefficients from their residues (x: Q residues modulo each prime in
    turn) to Q + 2 words, sum_k c_k 2^(32 k): Garner's mixed-radix digits d_j (one word
    each), c = d_0 + p_0 (d_1 + p_1 (d_2 + ...)) in 3 words, and the Q coefficients added
    at their places (the coefficients are below M < 2^90, so the block's sum is below
    2^(32 Q + 59): Q + 2 words hold it, and the last carry is 0)."""
    assert len(primes) == 3, "c's words below are written for three primes"
    fn = Function("columns", len(primes) * q, q + 2)
    constants = garner_constants(primes, length)
    acc = [_y(i) for i in range(q + 2)]
    pending = [0, 0]  # what the coefficients so far put above column k: under 2^64
    for k in range(q):
        d0, d1, d2 = _digits(fn, primes, constants, [_x(j * q + k) for j in range(len(primes))])
        p0, p1 = primes[0].p, primes[1].p
        inner = fn.temps_list(2)  # d_1 + p_1 d_2, below p_1 p_2 < 2^64
        fn.chain_of([("mad.lo", inner[0], (d2, p1, d1)), ("mad.hi", inner[1], (d2, p1, 0))], carry_out=False)
        c = fn.temps_list(3)  # d_0 + p_0 (d_1 + p_1 d_2)
        middle = fn.temp()
        fn.chain_of([("mad.lo", c[0], (inner[0], p0, d0)), ("mad.hi", middle, (inner[0], p0, 0))], carry_out=False)
        fn.chain_of([("mad.lo", c[1], (inner[1], p0, middle)), ("mad.hi", c[2], (inner[1], p0, 0))],
                    carry_out=False)
        # column k is final: the pending words plus c, its low word out, the rest pending
        above = [acc[q], acc[q + 1]] if k == q - 1 else fn.temps_list(2)
        fn.chain("add", [(acc[k], (pending[0], c[0])), (above[0], (pending[1], c[1])), (above[1], (c[2], 0))],
                 carry_out=False)
        pending = above
    fn.check()
    return fn


def _digits(fn: Function, primes: tuple[Prime, ...], constants: list[list[int]], residues: list[Reg]) -> list[Reg]:
    """Garner's mixed-radix digits of one coefficient from its residues (N c R mod p_j)."""
    digits: list[Reg] = []
    for j, prime in enumerate(primes):
        field = prime.field
        from_residue = fn.temp()
        montgomery(fn, field, [residues[j]], [constants[j][0]], [from_residue])
        if not digits:
            digits.append(from_residue)
            continue
        known = fn.temp()
        montgomery(fn, field, [digits[0]], [constants[j][1]], [known])
        for i in range(1, j):
            term, total = fn.temp(), fn.temp()
            montgomery(fn, field, [digits[i]], [constants[j][i + 1]], [term])
            add_mod(fn, field, [known], [term], [total])
            known = total
        d = fn.temp()
        subtract_mod(fn, field, [from_residue], [known], [d])
        digits.append(d)
    return digits
