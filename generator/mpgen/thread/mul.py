"""Multiplication: schoolbook products (full, truncated, high half, by a word,
multiply-add) and squaring: on the GPU's 32-bit limbs as rows of products summed in even
and odd columns (`columns.Columns`); on the host's 64-bit limbs by columns
(scanning.py) for C++, and the full products by rows through two carry chains (rows.py)
for the x86-64 assembly.

A product of exact width ceil(2*bits/w) limbs (w: the limbs' bits) that is 2n-1 has a top limb known
to be zero: no row computes or carries into it, as the truncated products
(mul_lo) drop everything at or above `limit`.
"""
from __future__ import annotations

from pathlib import Path

from ..ir import ANY_WIDTH, Function, Reg, chained
from ..size import Size, limbs_for
from .columns import Columns
from .common import Operation, binary, mask_top, same_limbs, with_word
from ..tomlcompat import tomllib
from .karatsuba import karatsuba
from .rows import RowSum, product_rows, square_rows
from .scanning import scan_product

# Limb counts from which Karatsuba beats schoolbook, by target: measured on the GPU at 32
# bits, on the host at 64 for C++ and for the x86-64 assembly (see the files).
THRESHOLDS = {target: tomllib.loads((Path(__file__).parents[1] / "data" / name).read_text())
              for target, name in ((32, "karatsuba.toml"), (64, "karatsuba_host64.toml"),
                                   ("x86", "karatsuba_x86.toml"))}


def _rows_into(fn: Function, acc: list[Reg], rows: RowSum, limit: int) -> None:
    """acc[:limit] = the rows' sum, whose words from limit up are 0 (an exact width)."""
    for k in range(limit):
        fn.emit("mov", acc[k], rows.word(k))


def product_limbs(size: Size) -> int:
    return limbs_for(2 * size.bits, size.word_bits)


def schoolbook(fn: Function, acc: list[Reg], a: list[Reg], b: list[Reg], limit: int,
               accumulate: bool = False) -> None:
    """acc[:limit] = (a * b (+ acc[:len(a)] if accumulate)) mod 2^(w limit), w the limbs' bits.
    Exact when the value fits in `limit` limbs. By rows on the GPU's 32-bit limbs, by
    columns (scanning.py) on the host's 64-bit ones, by rows through two chains (rows.py)
    for the x86 assembly where the product is full (2n or, of an exact width, 2n - 1)."""
    if fn.x86 and not accumulate and limit >= len(a) + len(b) - 1 and limit > max(len(a), len(b)):
        _rows_into(fn, acc, product_rows(fn, a, b), limit)
        return
    if fn.host_plans:
        scan_product(fn, acc, a, b, limit, acc[:len(a)] if accumulate else ())
        return
    columns = Columns(fn, limit, acc, len(a) if accumulate else 0)
    for i, bi in enumerate(b):
        columns.add_row(bi, [(i + j, aj) for j, aj in enumerate(a)])
    columns.sum_into(acc[:limit])


# Up to this many 64-bit limbs the C++ plan squares as it multiplies (each cross product twice):
# the doubling and diagonal chains cost more than the few products they save (mpgen-bench
# --device cpu on the dev machine, ours / mpn_sqr: 5.56 against 3.91 at 128 bits, 1.83
# against 1.41 at 256; from 8 limbs the triangle wins, 1.15 against 0.90 at 512 bits).
SCAN_SQUARE_LIMBS = 4


def square(fn: Function, acc: list[Reg], a: list[Reg], limit: int) -> None:
    """acc[:limit] = a * a, each cross product a_i a_j (i < j) computed once:
    their sum doubled, then the squares a_i^2 added on the diagonal (up to
    SCAN_SQUARE_LIMBS 64-bit limbs, as a product instead; for the x86 assembly by rows through
    two chains, rows.py). Exact when a*a fits in `limit` limbs (2n or 2n-1)."""
    n = len(a)
    if fn.x86 and n > 1 and limit >= 2 * n - 1:
        _rows_into(fn, acc, square_rows(fn, a), limit)
        return
    if fn.host_plans and n <= SCAN_SQUARE_LIMBS:
        scan_product(fn, acc, a, a, limit)
        return
    if n == 1:
        fn.emit("mul.lo", acc[0], a[0], a[0])
        if limit > 1:  # (a square of half a limb fits one: 32 bits at 64-bit limbs)
            fn.emit("mul.hi", acc[1], a[0], a[0])
        return
    # Cross products a_i a_j (i < j) at column i + j: acc[0] = 0, the sum below 2^(w(2n-1));
    # by rows on the GPU's 32-bit limbs, by columns on the host's 64-bit ones.
    if fn.host_plans:
        scan_product(fn, acc, a, None, 2 * n - 1)
    else:
        columns = Columns(fn, 2 * n - 1, acc)
        for i in range(n - 1):
            columns.add_row(a[i], [(i + j, a[j]) for j in range(i + 1, n)])
        columns.sum_into(acc[:2 * n - 1])
    # Double: the carry into acc[2n-1] is zero when the square has only 2n-1 limbs.
    full = limit == 2 * n
    fn.chain("add", [(acc[k], (acc[k], acc[k])) for k in range(1, 2 * n - 1)], carry_out=full)
    if full:
        fn.emit("addc", acc[2 * n - 1], 0, 0)
    # The diagonal: acc[0] is 0 so far; the chain runs through acc[1 .. limit-1].
    fn.emit("mul.lo", acc[0], a[0], a[0])
    for k in range(1, limit):
        half = "mad.hi" if k % 2 else "mad.lo"
        fn.emit(chained(half, k > 1, k < limit - 1), acc[k], a[k // 2], a[k // 2], acc[k])


def multiply(fn: Function, acc: list[Reg], a: list[Reg], b: list[Reg] | None, limit: int,
             method: str = "auto") -> None:
    """acc[:limit] = a * b, or a * a when b is None, by `method`: "karatsuba" splits
    once and multiplies the parts by schoolbook; "auto" splits wherever the threshold
    measured for the target says it pays (the GPU's at 32 bits, the host's C++ and x86
    assembly at 64), recursively."""
    n = len(a)
    op = "mul" if b is not None else "sqr"
    measured = n >= THRESHOLDS["x86" if fn.x86 else 64 if fn.host_plans else 32][op]["threshold_limbs"]
    split = n >= 2 and (method == "karatsuba" or method == "auto" and measured)
    if split:
        below = "schoolbook" if method == "karatsuba" else "auto"
        karatsuba(fn, acc, a, b, limit,
                  lambda f, acc2, a2, b2, limit2: multiply(f, acc2, a2, b2, limit2, below))
    elif b is None:
        square(fn, acc, a, limit)
    else:
        schoolbook(fn, acc, a, b, limit)


def _mul(fn, size, x, y):
    multiply(fn, y, x[0], x[1], len(y), size.mul)


def _mul_lo(fn, size, x, y):
    schoolbook(fn, y, x[0], x[1], size.limbs)
    mask_top(fn, size, y[-1])


def _mul_hi(fn, size, x, y):
    """The full product in temporaries, shifted right by `bits`."""
    product = fn.temps_list(product_limbs(size))
    schoolbook(fn, product, x[0], x[1], len(product))
    q, r = divmod(size.bits, size.word_bits)
    for i, dst in enumerate(y):
        low = product[q + i]
        if r == 0:
            fn.emit("mov", dst, low)
        elif q + i + 1 < len(product):
            fn.emit("shf.r.clamp", dst, low, product[q + i + 1], r)
        else:
            fn.emit("shr", dst, low, r)


def _mad(fn, size, x, y):
    for i, c in enumerate(x[2]):
        fn.emit("mov", y[i], c)
    schoolbook(fn, y, x[0], x[1], len(y), accumulate=True)


def _by_rows(size: Size) -> bool:
    """The full products' x86 plan: rows through two chains, from two limbs."""
    return size.limbs > 1


OPERATIONS = [
    Operation("mul", "a * b, the full product of exact width", binary, product_limbs, _mul, word_bits=ANY_WIDTH,
              x86_plan=_by_rows),
    Operation("mul_lo", "a * b mod 2^bits", binary, same_limbs, _mul_lo, word_bits=ANY_WIDTH),
    Operation("mul_hi", "floor(a * b / 2^bits), the high half", binary, same_limbs, _mul_hi, word_bits=ANY_WIDTH,
              x86_plan=_by_rows),
    Operation("sqr", "a * a, full, each cross product once", lambda s: (s.bits,), product_limbs,
              lambda fn, s, x, y: multiply(fn, y, x[0], None, len(y), s.mul), word_bits=ANY_WIDTH,
              x86_plan=_by_rows),
    Operation("mul_ui", "a * u (u of one limb), full: one more limb", with_word,
              lambda s: limbs_for(s.bits + s.word_bits, s.word_bits),
              lambda fn, s, x, y: schoolbook(fn, y, x[0], x[1], len(y)), word_bits=ANY_WIDTH),
    Operation("mad", "a * b + c, full", lambda s: (s.bits,) * 3, product_limbs, _mad, word_bits=ANY_WIDTH),
]
