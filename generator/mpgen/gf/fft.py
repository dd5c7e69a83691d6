"""The FFT over p = r^k + 1 (chapter 4 of Mohajerani, "Fast Fourier Transforms over prime
fields of large characteristic and their implementation on GPUs"): N = K^e points, K = 2k,
in e Stockham passes of radix K (self-sorting: no bit reversal; each pass reads one array
and writes the other). Pass s (span ns = K^s) takes, for each j < N/K, the K points j + t N/K (t < K),
multiplies point t by the twiddle w^(t (j mod ns) N / (ns K)) (none in the first pass),
runs DFT_K on them and writes output t to (j div ns) ns K + j mod ns + t ns.

DFT_K needs no multiplication: w^(N/K) = r, so output t is the sum of x_i r^(i t), each a
shift of digits (lists.accumulate_r, summed lazily, then lists.settle); rows t and t + k are
E + O and E - O of the sums over even and odd i (lists.pair_sums), one pass over the points
for both. A twiddle w^E is
r^a w^b with E = a N/K + b: a product by the table's w^b (b < N/K) and a shift by a
(lists.mul_r). The inverse takes w^-1: row -t, exponent N - E, and multiplies the last
pass's outputs by N^-1.

This module holds the constants the GPU's code reads (roots of unity, inverses of powers of
two) and the transform on the host over the lists, in the GPU's order, so that the tests
check the plan itself; headers/gf.cuh is the same passes for host and device."""
from __future__ import annotations

from functools import cached_property

from ..ir import Function, execute
from .field import GfField
from . import lists

MAX_LOG = 32  # the largest transform the header's tables serve: 2^32 points


def largest_log(gf: GfField) -> int:
    """log2 of the longest transform: the 2-adicity, at most MAX_LOG."""
    return min(gf.two_adicity, MAX_LOG)


def check_length(gf: GfField, n: int) -> str | None:
    """Why n points is no transform of this field, or None."""
    size = 2 * gf.k
    e, m = 0, 1
    while m < n:
        m, e = m * size, e + 1
    if m != n or e < 1:
        return f"{n} points: give K^e points, K = 2k = {size}, e >= 1"
    if n.bit_length() - 1 > largest_log(gf):
        return f"{n} points: at most 2^{largest_log(gf)} (2^(k u) divides p - 1; the table stops at 2^{MAX_LOG})"
    return None


def roots(gf: GfField) -> list[int]:
    """roots[m] = a primitive 2^m-th root of unity for m = 0 .. largest_log, each the square
    of the next (so that w_N^(2^i) = roots[log N - i]) and roots[log 2k] = r."""
    top = largest_log(gf)
    w = gf.root_of_unity(1 << top)
    out = [w]
    for _ in range(top):
        w = w * w % gf.p
        out.append(w)
    return out[::-1]


def inverse_powers_of_two(gf: GfField) -> list[int]:
    """2^-m mod p for m = 0 .. largest_log: the inverse transform's N^-1."""
    half = (gf.p + 1) // 2
    return [pow(half, m, gf.p) for m in range(largest_log(gf) + 1)]


class Lists:
    """The lists the transform runs, planned once."""

    def __init__(self, gf: GfField) -> None:
        self.gf = gf

    @cached_property
    def mul(self) -> Function:
        return lists.mul(self.gf)

    @cached_property
    def mul_r(self) -> Function:
        return lists.mul_r(self.gf)

    @cached_property
    def accumulate(self) -> list[Function]:
        return [lists.accumulate_r(self.gf, s) for s in range(2 * self.gf.k)]

    @cached_property
    def pair_sums(self) -> Function:
        return lists.pair_sums(self.gf)

    @cached_property
    def settle(self) -> Function:
        return lists.settle(self.gf)


def transform(fft: Lists, points: list[int], inverse: bool = False) -> list[int]:
    """The transform of the points (integers below p) through the lists, pass by pass."""
    gf = fft.gf
    size, n = 2 * gf.k, len(points)
    why = check_length(gf, n)
    if why:
        raise ValueError(why)
    w = roots(gf)[n.bit_length() - 1]
    table = [gf.words(pow(w, b, gf.p)) for b in range(n // size)]
    data = [gf.words(x) for x in points]
    n_inverse = gf.words(inverse_powers_of_two(gf)[n.bit_length() - 1])
    ns = 1
    while ns < n:
        out: list[list[int]] = [[]] * n
        for j in range(n // size):
            xs = []
            for t in range(size):
                x = data[j + t * (n // size)]
                if ns > 1:
                    e = t * (j % ns) * (n // (ns * size))
                    a, b = divmod((n - e) % n if inverse else e, n // size)
                    x = execute(fft.mul_r, execute(fft.mul, x + table[b]) + [a])
                xs.append(x)
            for row in range(gf.k):  # rows row and row + k
                halves = [[0] * (lists.COLUMN_WORDS * gf.k) for _ in range(2)]
                for i, x in enumerate(xs):
                    halves[i % 2] = execute(fft.accumulate[i * row % size], halves[i % 2] + x)
                both = execute(fft.pair_sums, halves[0] + halves[1])
                for half, which in enumerate((row, row + gf.k)):
                    y = execute(fft.settle, both[half * len(both) // 2:(half + 1) * len(both) // 2])
                    if inverse and ns * size == n:
                        y = execute(fft.mul, y + n_inverse)
                    t = (size - which) % size if inverse else which
                    out[(j // ns) * ns * size + j % ns + t * ns] = y
        data, ns = out, ns * size
    return [gf.value_of_words(y) for y in data]
