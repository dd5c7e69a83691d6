"""The instruction lists of a generalized Fermat field's elements (seed 002, chapter 3):
straight-line 32-bit code for both renderings, as every mpgen list.

An element is k digits of two words each (digit i at words 2i, 2i + 1, least significant
first), every digit below r, except p - 1 = r^k, whose top digit is r and the others 0 (the
seed's section 3.1). Digit arithmetic is carry-free of branches: a digit sum or difference
is corrected by r where a mask (0 or all ones, from the borrow of a trial subtraction)
says so.

- add (the seed's Algorithm 3.2): digit sums with carries in radix r, z + c r^k; then
  z - c (r^k = -1), and where that goes below 0, + p.
- sub: digit differences with borrows in radix r, d - b r^k; where b, d + p = d + 1.
- mul by r^i (section 3.4), 0 < i < 2k: a negacyclic shift of the digits, as the difference
  of the digits that stay and those that wrap around (r^k = -1); i = k is negation.
Each ends in the same normalisation: + 1 where a borrow says so, and the one element whose
top digit is r where that carries out.
"""
from __future__ import annotations

from ..field import to_words
from ..ir import MASK, Function, Operand, Reg
from ..ops.columns import Columns
from ..ops.common import select
from . import GfField

Digit = tuple[Operand, Operand]  # (low word, high word)


def _digit_add(fn: Function, gf: GfField, out: tuple[Reg, Reg], a: Digit, b: Digit, carry: Operand | None) -> Reg:
    """out = a + b + carry - r where that is not below 0, else a + b + carry (a + b + carry
    < 2r); returns the carry into the next digit (0 or 1)."""
    s_lo, s_hi, s_top, d_lo, d_hi, below = fn.temps_list(6)
    if carry is not None:
        fn.emit("add.cc", fn.temp(), carry, MASK)  # CC.CF = carry
    fn.chain("add", [(s_lo, (a[0], b[0])), (s_hi, (a[1], b[1])), (s_top, (0, 0))],
             carry_in=carry is not None, carry_out=False)
    fn.chain("sub", [(d_lo, (s_lo, gf.r & MASK)), (d_hi, (s_hi, gf.r >> 32)), (below, (s_top, 0))], carry_out=False)
    select(fn, out[0], below, s_lo, d_lo)
    select(fn, out[1], below, s_hi, d_hi)
    carried = fn.temp()
    fn.emit("add", carried, below, 1)  # 1 where the sum reached r (below = 0), else 0
    return carried


def _digit_sub(fn: Function, gf: GfField, out: tuple[Reg, Reg], a: Digit, b: Digit, borrow: Operand | None) -> Reg:
    """out = a - b - borrow, + r where that is below 0; returns the borrow from the next
    digit (0 or 1)."""
    d_lo, d_hi, negative, add_lo, add_hi = fn.temps_list(5)
    if borrow is not None:
        fn.emit("sub.cc", fn.temp(), 0, borrow)  # CC.CF = borrow
    fn.chain("sub", [(d_lo, (a[0], b[0])), (d_hi, (a[1], b[1])), (negative, (0, 0))],
             carry_in=borrow is not None, carry_out=False)
    fn.emit("and", add_lo, negative, gf.r & MASK)
    fn.emit("and", add_hi, negative, gf.r >> 32)
    fn.chain("add", [(out[0], (d_lo, add_lo)), (out[1], (d_hi, add_hi))], carry_out=False)
    borrowed = fn.temp()
    fn.emit("and", borrowed, negative, 1)
    return borrowed


def _digits(words: list[Reg], k: int) -> list[tuple[Reg, Reg]]:
    return [(words[2 * i], words[2 * i + 1]) for i in range(k)]


def _difference(fn: Function, gf: GfField, y: list[tuple[Reg, Reg]], a: list[Digit], b: list[Digit]) -> None:
    """y = a - b mod p for a, b in the representation (their digits given), then normalized."""
    d = [tuple(fn.temps_list(2)) for _ in range(gf.k)]
    borrow = None
    for i in range(gf.k):
        borrow = _digit_sub(fn, gf, d[i], a[i], b[i], borrow)
    _plus_one_where(fn, gf, y, d, borrow)  # below 0: + p = + r^k + 1, the r^k by the borrow


def _plus_one_where(fn: Function, gf: GfField, y: list[tuple[Reg, Reg]], d: list[Digit], one: Reg) -> None:
    """y = d + one (0 or 1) in radix r; a carry out of the top means d + one = r^k = p - 1,
    whose top digit is r (the others are 0 then)."""
    carry: Operand = one
    top = [fn.temp(), fn.temp()]
    for i in range(gf.k):
        out = (top[0], top[1]) if i == gf.k - 1 else y[i]
        carry = _digit_add(fn, gf, out, d[i], (0, 0), carry)
    r_lo, r_hi = fn.temps_list(2)
    everything = fn.temp()
    fn.emit("sub", everything, 0, carry)  # all ones where it carried out
    fn.emit("and", r_lo, everything, gf.r & MASK)
    fn.emit("and", r_hi, everything, gf.r >> 32)
    fn.chain("add", [(y[-1][0], (top[0], r_lo)), (y[-1][1], (top[1], r_hi))], carry_out=False)


def add(gf: GfField) -> Function:
    """x + y mod p: in 4k words (x, y), out 2k."""
    fn = Function("add", 4 * gf.k, 2 * gf.k)
    x = _digits([Reg("x", w) for w in range(4 * gf.k)], 2 * gf.k)
    y = _digits([Reg("y", w) for w in range(2 * gf.k)], gf.k)
    z = [tuple(fn.temps_list(2)) for _ in range(gf.k)]
    carry = None
    for i in range(gf.k):
        carry = _digit_add(fn, gf, z[i], x[i], x[gf.k + i], carry)
    # x + y = z + carry r^k = z - carry (mod p): the borrow pass, then + p where below 0.
    d = [tuple(fn.temps_list(2)) for _ in range(gf.k)]
    borrow: Reg = carry
    for i in range(gf.k):
        borrow = _digit_sub(fn, gf, d[i], z[i], (0, 0), borrow)
    _plus_one_where(fn, gf, y, d, borrow)
    fn.check()
    return fn


def sub(gf: GfField) -> Function:
    """x - y mod p: in 4k words (x, y), out 2k."""
    fn = Function("sub", 4 * gf.k, 2 * gf.k)
    x = _digits([Reg("x", w) for w in range(4 * gf.k)], 2 * gf.k)
    _difference(fn, gf, _digits([Reg("y", w) for w in range(2 * gf.k)], gf.k), x[:gf.k], x[gf.k:])
    fn.check()
    return fn


def mul_by_r_power(gf: GfField, i: int, name: str | None = None) -> Function:
    """x r^i mod p, 0 < i < 2k (r^i fixed at generation time): in 2k words, out 2k. For
    i < k the digits that stay minus those that wrap (r^k = -1); for i >= k, the reverse."""
    if not 0 < i < 2 * gf.k:
        raise ValueError(f"r^{i}: give 0 < i < {2 * gf.k}")
    fn = Function(name or f"mul_r{i}", 2 * gf.k, 2 * gf.k)
    x = _digits([Reg("x", w) for w in range(2 * gf.k)], gf.k)
    s = i % gf.k
    zero: Digit = (0, 0)
    stay = [zero] * s + x[:gf.k - s]    # x_h r^(h+s) for h + s < k
    wrap = x[gf.k - s:] + [zero] * (gf.k - s)  # x_h r^(h+s-k) for h + s >= k, negated
    a, b = (stay, wrap) if i < gf.k else (wrap, stay)
    _difference(fn, gf, _digits([Reg("y", w) for w in range(2 * gf.k)], gf.k), a, b)
    fn.check()
    return fn


def _divide(fn: Function, gf: GfField, n: list[Operand], bits: int) -> tuple[list[Reg], tuple[Reg, Reg]]:
    """(q, c): q = floor(n / r) and c = n - q r < r, for n < 2^bits. Granlund and
    Montgomery's division by a constant: with l = r's bit length and m = floor(2^(bits+l) /
    r) + 1, m r - 2^(bits+l) <= r < 2^l, so floor(n m / 2^(bits+l)) = floor(n / r) exactly."""
    length = gf.r.bit_length()
    shift = bits + length
    m = to_words((1 << shift) // gf.r + 1)
    columns = Columns(fn, len(n) + len(m))
    for i, mi in enumerate(m):
        if mi:
            columns.add_row(mi, [(i + j, nj) for j, nj in enumerate(n)])
    product = fn.temps_list(len(n) + len(m))
    columns.sum_into(product)
    word, bit = divmod(shift, 32)
    q = fn.temps_list(max(1, -(-(bits - length + 1) // 32)))
    for i, qi in enumerate(q):
        low = product[word + i]
        high = product[word + i + 1] if word + i + 1 < len(product) else 0
        if bit:
            fn.emit("shf.r.clamp", qi, low, high, bit)
        else:
            fn.emit("mov", qi, low)
    # c = n - q r in two words (c < r < 2^64): q r mod 2^64.
    r_lo, r_hi = gf.r & MASK, gf.r >> 32
    qr_lo, qr_hi, c_lo, c_hi = fn.temps_list(4)
    fn.emit("mul.lo", qr_lo, q[0], r_lo)
    fn.emit("mul.hi", qr_hi, q[0], r_lo)
    if r_hi:
        fn.emit("mad.lo", qr_hi, q[0], r_hi, qr_hi)
    if len(q) > 1:
        fn.emit("mad.lo", qr_hi, q[1], r_lo, qr_hi)
    fn.chain("sub", [(c_lo, (n[0], qr_lo)), (c_hi, (n[1] if len(n) > 1 else 0, qr_hi))], carry_out=False)
    return q, (c_lo, c_hi)


MUL_MAX_K = 16  # the convolution is k^2 digit products, straight-line


def mul_unavailable(gf: GfField) -> str | None:
    """Why the field has no mul, or None."""
    if gf.k > MUL_MAX_K:
        return f"is generated up to k = {MUL_MAX_K} so far (its k^2 digit products are straight-line)"
    if gf.r <= 2 * gf.k + 2:
        return f"needs r > 2k + 2 (a digit sum below 3r); r = {gf.r}"
    return None


def mul(gf: GfField) -> Function:
    """x y mod p (the seed's Algorithm 3.3, with the full product): in 4k words (x, y), out 2k.

    The digit products' column sums Q_t (t < 2k - 1, each below k r^2) are split into three
    radix-r digits by exact division by r, the digits of each column added up (below 3r)
    and carried in radix r: the 2k + 1 digits of the integer x y, L + H r^k with h the top
    digit (1 only for (p - 1)^2). Then x y = L - H' + h (mod p), r^k = -1."""
    why = mul_unavailable(gf)
    if why:
        raise ValueError(f"mul {why}")
    k = gf.k
    fn = Function("mul", 4 * k, 2 * k)
    x = _digits([Reg("x", w) for w in range(4 * k)], 2 * k)
    a, b = x[:k], x[k:]
    column_bits = (k * gf.r * gf.r).bit_length()
    thirds = []  # (c, b, a) of each column: Q_t = a r^2 + b r + c
    for t in range(2 * k - 1):
        columns = Columns(fn, -(-column_bits // 32))
        for j in range(max(0, t - k + 1), min(t, k - 1) + 1):
            for half in range(2):
                columns.add_row(b[t - j][half], [(half, a[j][0]), (half + 1, a[j][1])])
        q = fn.temps_list(-(-column_bits // 32))
        columns.sum_into(q)
        q1, low = _divide(fn, gf, q, column_bits)
        q2, middle = _divide(fn, gf, q1, (k * gf.r).bit_length())
        thirds.append((low, middle, q2[0]))
    # The integer's digits: column t's c, column t-1's b, column t-2's a, and the carry.
    e = []
    carry: Operand = 0
    for t in range(2 * k + 1):
        s = fn.temps_list(3)
        terms: list[tuple[Operand, Operand]] = []
        if t < 2 * k - 1:
            terms.append(thirds[t][0])
        if 0 < t < 2 * k:
            terms.append(thirds[t - 1][1])
        if 1 < t:
            terms.append((thirds[t - 2][2], 0))
        fn.emit("mov", s[0], carry)
        fn.emit("mov", s[1], 0)
        fn.emit("mov", s[2], 0)
        for lo, hi in terms:
            fn.chain("add", [(s[0], (s[0], lo)), (s[1], (s[1], hi)), (s[2], (s[2], 0))], carry_out=False)
        carry = fn.temp()
        fn.emit("mov", carry, 0)
        for _ in range(2):  # the quotient by r is 0, 1 or 2
            d_lo, d_hi, d_top, negative = fn.temps_list(4)
            fn.chain("sub", [(d_lo, (s[0], gf.r & MASK)), (d_hi, (s[1], gf.r >> 32)), (d_top, (s[2], 0)),
                             (negative, (0, 0))], carry_out=False)
            for word, d in zip(s, (d_lo, d_hi, d_top)):
                select(fn, word, negative, word, d)
            fn.emit("add", carry, carry, negative)
            fn.emit("add", carry, carry, 1)  # + 1 where it went on (negative = 0), + 0 where not
        e.append((s[0], s[1]))
    low = e[:k]
    high = e[k:2 * k]
    difference = [tuple(fn.temps_list(2)) for _ in range(k)]
    _difference(fn, gf, difference, low, high)
    _plus_one_where(fn, gf, _digits([Reg("y", w) for w in range(2 * k)], k), difference, e[2 * k][0])
    fn.check()
    return fn
