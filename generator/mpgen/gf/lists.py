"""The instruction lists of a generalized Fermat field's elements (chapter 3 of Mohajerani,
"Fast Fourier Transforms over prime fields of large characteristic and their implementation
on GPUs"): straight-line 32-bit code for both renderings, as every mpgen list.

An element is k digits of two words each (digit i at words 2i, 2i + 1, least significant
first), every digit below r, except p - 1 = r^k, whose top digit is r and the others 0 (the
thesis' section 3.1). Digit arithmetic is carry-free of branches: a digit sum or difference
is corrected by r where a mask (0 or all ones, from the borrow of a trial subtraction)
says so.

- add (the thesis' Algorithm 3.2): digit sums with carries in radix r, z + c r^k; then
  z - c (r^k = -1), and where that goes below 0, + p.
- sub: digit differences with borrows in radix r, d - b r^k; where b, d + p = d + 1.
- mul by r^i (section 3.4), 0 < i < 2k: a negacyclic shift of the digits, as the difference
  of the digits that stay and those that wrap around (r^k = -1); i = k is negation.
- from_binary / to_binary: an integer below p in 2k binary words to its digits (k - 1 long
  divisions by r, word by word) and back (the sum of the digits times r^i, constants).
- mul_r: x r^a with a given at run time (0 <= a < 2k): a barrel shifter of the digits that
  tracks which wrapped around (negated), then the same difference as mul_r<i>.
- The FFT's base case (fft.py) sums K = 2k elements times powers of r lazily: accumulate_r<s>
  adds x r^s into k signed three-word column sums (digits moved, no carries), pair_sums makes
  two rows of the sums over even and odd points, settle turns sums back into an element.
Each ends in the same normalisation: + 1 where a borrow says so, and the one element whose
top digit is r where that carries out.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..fields import to_words
from ..ir import MASK, Function, Operand, Reg
from ..thread.columns import Columns
from ..thread.common import all_ones_if_set, select
from ..thread.reduction import shift_right
from .field import GfField

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
    q = shift_right(fn, product, shift, max(1, -(-(bits - length + 1) // 32)))
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


COLUMN_WORDS = 3  # a lazy column sum (the FFT's): signed, two's complement, |sum| <= K r < 2^72


def _divide_small(fn: Function, gf: GfField, n: list[Operand], bound: int) -> tuple[Operand, tuple[Reg, Reg]]:
    """(q, c): q = floor(n / r) and c = n - q r < r, for n < bound (three words) with a small
    quotient. Where r is within a factor 1 +- r / bound of 2^w, the power of two nearer it
    (r's sparse form: the table's primes), q is n >> w or one off it, which one trial step
    mends (+ r and q - 1 where r > 2^w, - r and q + 1 where r < 2^w); else _divide."""
    w = min((gf.r.bit_length() - 1, gf.r.bit_length()), key=lambda e: abs(gf.r - (1 << e)))  # the nearer power
    if bound * abs(gf.r - (1 << w)) >= gf.r << w or bound >> w >= 1 << 32:
        q, c = _divide(fn, gf, n, bound.bit_length())
        return q[0], c
    word, bit = divmod(w, 32)
    q = fn.temp()
    fn.emit("shf.r.clamp", q, n[word], n[word + 1] if word + 1 < len(n) else 0, bit)
    columns = Columns(fn, COLUMN_WORDS)
    columns.add_row(q, [(0, gf.r & MASK), (1, gf.r >> 32)])
    product = fn.temps_list(COLUMN_WORDS)
    columns.sum_into(product)
    c = fn.temps_list(COLUMN_WORDS)
    fn.chain("sub", [(c[i], (n[i], product[i])) for i in range(COLUMN_WORDS)], carry_out=False)
    r_words = (gf.r & MASK, gf.r >> 32, 0)
    if gf.r > 1 << w:  # n >> w is q or q + 1: + r where c went below 0
        negative, added = fn.temp(), fn.temps_list(COLUMN_WORDS)
        fn.emit("shr", negative, c[2], 31)
        fn.emit("sub", q, q, negative)
        fn.emit("sub", negative, 0, negative)
        fn.chain("add", [(added[i], (c[i], _masked(fn, negative, r_words[i]))) for i in range(COLUMN_WORDS)],
                 carry_out=False)
        c = added
    elif gf.r < 1 << w:  # n >> w is q or q - 1: - r where c is r or more
        d, below = fn.temps_list(COLUMN_WORDS), fn.temp()
        fn.chain("sub", [(d[i], (c[i], r_words[i])) for i in range(COLUMN_WORDS)] + [(below, (0, 0))],
                 carry_out=False)
        for i in range(2):
            select(fn, c[i], below, c[i], d[i])
        fn.emit("add", q, q, below)
        fn.emit("add", q, q, 1)  # + 1 where it went on (below = 0)
    return q, (c[0], c[1])


def _masked(fn: Function, mask: Reg, constant: int) -> Operand:
    """mask & constant (0 where the constant is)."""
    if constant == 0:
        return 0
    out = fn.temp()
    fn.emit("and", out, mask, constant)
    return out


QUADRATIC_MAX_K = 16  # mul's k^2 digit products and the conversions' word divisions are straight-line; above, loops


def unavailable(gf: GfField, name: str) -> str | None:
    """Why the field has no operation `name`, or None."""
    if name == "fft" and gf.k > QUADRATIC_MAX_K:
        return (f"is generated up to k = {QUADRATIC_MAX_K} so far (a block's 32 transforms of 2k points would "
                "not fit in shared memory above)")
    if name in ("mul", "fft") and gf.r <= 2 * gf.k + 2:
        return f"needs r > 2k + 2 (a digit sum below 3r); r = {gf.r}"
    return None


def product_column_words(gf: GfField) -> int:
    """Words of a column sum of digit products (below k r^2): mul_accumulate's."""
    return -(-(gf.k * gf.r * gf.r).bit_length() // 32)


def mul_accumulate(gf: GfField) -> Function:
    """sums + a_j y, column by column (no carries between them): in k column sums of
    product_column_words each, a digit a_j (2 words) and y (2k words); out the sums. mul by
    rows (headers/gf_fft.cuh's mul_by_rows) adds a_j (y r^j mod p) for j < k: the negacyclic
    product's columns, k of them, each below k r^2."""
    k, words = gf.k, product_column_words(gf)
    fn = Function("mul_accumulate", words * k + 2 + 2 * k, words * k)
    a = (Reg("x", words * k), Reg("x", words * k + 1))
    y = _digits([Reg("x", words * k + 2 + w) for w in range(2 * k)], k)
    for c in range(k):
        columns = Columns(fn, 4)
        for half in range(2):
            columns.add_row(y[c][half], [(half, a[0]), (half + 1, a[1])])
        product = fn.temps_list(4)
        columns.sum_into(product)
        fn.chain("add", [(Reg("y", words * c + w), (Reg("x", words * c + w), product[w] if w < 4 else 0))
                         for w in range(words)], carry_out=False)
    fn.check()
    return fn


@dataclass(frozen=True)
class Looped:
    """An operation too long for one straight-line list (k > 16): headers/gf_loops.cuh's loop
    `loop` over short generated lists (`parts`), with template arguments `parts` and then
    `constants`; `instructions` counts those executed."""
    name: str
    loop: str
    parts: tuple[Function, ...]
    constants: tuple[int, ...]
    in_words: int
    out_words: int
    instructions: int

    @property
    def arguments(self) -> str:
        return ", ".join([fn.name for fn in self.parts] + [str(c) for c in self.constants])


def mul_rows(gf: GfField) -> Looped:
    """mul a row at a time: k rows and k - 1 shifts, then the settling."""
    accumulate, shift, settle = mul_accumulate(gf), mul_by_r_power(gf, 1, "mul_shift"), mul_settle(gf)
    executed = gf.k * len(accumulate.body) + (gf.k - 1) * len(shift.body) + len(settle.body)
    return Looped("mul", "mul", (accumulate, shift, settle), (), 4 * gf.k, 2 * gf.k, executed)


def from_binary_words(gf: GfField, divisions: int) -> int:
    """The words of from_binary's dividend after that many divisions by r: it is at most
    r^(k - divisions) (p - 1 = r^k at first), below 2^((k - divisions) L), L = r's bit length
    (headers/gf_loops.cuh's from_binary computes the same)."""
    return min(2 * gf.k, -(-(gf.k - divisions) * gf.r.bit_length() // 32))


def from_binary_loop(gf: GfField) -> Looped:
    """from_binary a word at a time: k - 1 long divisions by r, each over the dividend's
    words from the top (divide_step: a remainder and the next word)."""
    step = divide_step(gf)
    executed = sum(from_binary_words(gf, i) for i in range(gf.k - 1)) * len(step.body)
    return Looped("from_binary", "from_binary", (step,), (2 * gf.k, gf.r.bit_length()), 2 * gf.k, 2 * gf.k,
                  executed)


def divide_step(gf: GfField) -> Function:
    """A step of a long division by r: in a word and a remainder below r (two words), out
    the quotient word and the new remainder: (c 2^32 + word) = q r + c'."""
    fn = Function("divide_step", 3, 3)
    q, (c_lo, c_hi) = _divide(fn, gf, [Reg("x", 0), Reg("x", 1), Reg("x", 2)], (gf.r << 32).bit_length())
    for w, value in enumerate((q[0], c_lo, c_hi)):
        fn.emit("mov", Reg("y", w), value)
    fn.check()
    return fn


def to_binary_loop(gf: GfField) -> Looped:
    """to_binary by Horner's rule: from the top digit down, x r + the next digit."""
    step = horner_step(gf)
    return Looped("to_binary", "to_binary", (step,), (), 2 * gf.k, 2 * gf.k, (gf.k - 1) * len(step.body))


def horner_step(gf: GfField) -> Function:
    """x r + d: in 2k words (x) and a digit (two words), out 2k words. Horner's partial sums
    of an element's digits are at most r^k = p - 1, so 2k words hold them."""
    words = 2 * gf.k
    fn = Function("horner_step", words + 2, words)
    columns = Columns(fn, words)
    for half, r_word in enumerate((gf.r & MASK, gf.r >> 32)):
        if r_word:
            columns.add_row(r_word, [(half + j, Reg("x", j)) for j in range(words)])
    product = fn.temps_list(words)
    columns.sum_into(product)
    fn.chain("add", [(Reg("y", j), (product[j], Reg("x", words + j) if j < 2 else 0)) for j in range(words)],
             carry_out=False)
    fn.check()
    return fn


def mul_settle(gf: GfField) -> Function:
    """The k column sums of mul_accumulate (each below k r^2) to the element sum_c S_c r^c
    mod p: each split into three radix-r digits, folded (_fold: L - H, H of two digits)."""
    k, words = gf.k, product_column_words(gf)
    fn = Function("mul_settle", words * k, 2 * k)
    bits = (k * gf.r * gf.r).bit_length()
    thirds = [_split_column(fn, gf, [Reg("x", words * c + w) for w in range(words)], bits) for c in range(k)]
    _fold(fn, gf, thirds, _digits([Reg("y", w) for w in range(2 * k)], k))
    fn.check()
    return fn


def _split_column(fn: Function, gf: GfField, q: list[Reg], bits: int) -> tuple[Digit, Digit, Reg]:
    """(c, b, a) with q = a r^2 + b r + c, c and b below r, for a column sum q below 2^bits
    whose a is small (one word): exact division by r, twice."""
    q1, low = _divide(fn, gf, q, bits)
    q2, middle = _divide(fn, gf, q1, bits - gf.r.bit_length() + 1)
    return low, middle, q2[0]


def _fold(fn: Function, gf: GfField, thirds: list[tuple[Digit, Digit, Reg]], y: list[tuple[Reg, Reg]]) -> None:
    """y = sum_t Q_t r^t mod p for the columns' (c, b, a) (Q_t = a r^2 + b r + c): the
    integer's digits (column t's c, column t-1's b, column t-2's a and the carry, each sum
    below 3r) carried in radix r, then L - H + h mod p for its digits split k by k (r^k = -1)."""
    k, count = gf.k, len(thirds)
    e = []
    carry: Operand = 0
    for t in range(count + 2):
        s = fn.temps_list(3)
        terms: list[tuple[Operand, Operand]] = []
        if t < count:
            terms.append(thirds[t][0])
        if 0 < t <= count:
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
    assert len(e) <= 2 * k + 1, "the columns of at most a full product"
    zero: Digit = (0, 0)
    low = e[:k]
    high = (e[k:2 * k] + [zero] * k)[:k]
    difference = [tuple(fn.temps_list(2)) for _ in range(k)]
    _difference(fn, gf, difference, low, high)
    if len(e) > 2 * k:  # h, the top digit: 1 only for (p - 1)^2
        _plus_one_where(fn, gf, y, difference, e[2 * k][0])
    else:
        for out, d in zip(y, difference):
            fn.emit("mov", out[0], d[0])
            fn.emit("mov", out[1], d[1])


def mul(gf: GfField) -> Function:
    """x y mod p (the thesis' Algorithm 3.3, with the full product): in 4k words (x, y), out 2k.

    The digit products' column sums Q_t (t < 2k - 1, each below k r^2) are split into three
    radix-r digits by exact division by r and folded (_fold): the 2k + 1 digits of the
    integer x y, L + H r^k with h the top digit (1 only for (p - 1)^2), then L - H + h."""
    why = unavailable(gf, "mul")
    if why or gf.k > QUADRATIC_MAX_K:
        raise ValueError(f"mul {why or 'has k^2 digit products: above k = 16, mul_rows'}")
    k = gf.k
    fn = Function("mul", 4 * k, 2 * k)
    x = _digits([Reg("x", w) for w in range(4 * k)], 2 * k)
    a, b = x[:k], x[k:]
    column_bits = (k * gf.r * gf.r).bit_length()
    thirds = []
    for t in range(2 * k - 1):
        columns = Columns(fn, -(-column_bits // 32))
        for j in range(max(0, t - k + 1), min(t, k - 1) + 1):
            for half in range(2):
                columns.add_row(b[t - j][half], [(half, a[j][0]), (half + 1, a[j][1])])
        q = fn.temps_list(-(-column_bits // 32))
        columns.sum_into(q)
        thirds.append(_split_column(fn, gf, q, column_bits))
    _fold(fn, gf, thirds, _digits([Reg("y", w) for w in range(2 * k)], k))
    fn.check()
    return fn


def from_binary(gf: GfField) -> Function:
    """x (0 <= x < p, 2k binary words) to its digits: k - 1 long divisions by r from the top
    word down, each quotient the next dividend, each remainder a digit; the last quotient is
    the top digit (r only for x = r^k = p - 1, the others 0 then, as the representation has it)."""
    if gf.k > QUADRATIC_MAX_K:
        raise ValueError("from_binary is straight-line up to k = 16; above, from_binary_loop")
    fn = Function("from_binary", 2 * gf.k, 2 * gf.k)
    y = _digits([Reg("y", w) for w in range(2 * gf.k)], gf.k)
    dividend: list[Operand] = [Reg("x", w) for w in range(2 * gf.k)]
    bound = gf.p - 1  # the dividend's largest value
    step_bits = (gf.r << 32).bit_length()  # a remainder and the next word: below r 2^32
    for i in range(gf.k - 1):
        top = len(dividend)  # the words above `top` form a remainder (their value < r)
        while top > 0 and bound >> 32 * (top - 1) < gf.r:
            top -= 1
        remainder = dividend[top:]
        quotient: list[Operand] = [0] * top
        for j in reversed(range(top)):
            q, (c_lo, c_hi) = _divide(fn, gf, [dividend[j]] + remainder, step_bits if remainder else 32)
            quotient[j], remainder = q[0], [c_lo, c_hi]
        remainder += [0] * (2 - len(remainder))
        fn.emit("mov", y[i][0], remainder[0])
        fn.emit("mov", y[i][1], remainder[1])
        dividend, bound = quotient, bound // gf.r
    top_digit = dividend + [0] * (2 - len(dividend))
    fn.emit("mov", y[-1][0], top_digit[0])
    fn.emit("mov", y[-1][1], top_digit[1])
    fn.check()
    return fn


def to_binary(gf: GfField) -> Function:
    """The digits to x in 2k binary words: the sum of digit i times the constant r^i."""
    if gf.k > QUADRATIC_MAX_K:
        raise ValueError("to_binary is straight-line up to k = 16; above, to_binary_loop")
    fn = Function("to_binary", 2 * gf.k, 2 * gf.k)
    x = [Reg("x", w) for w in range(2 * gf.k)]
    columns = Columns(fn, 2 * gf.k)
    for i in range(gf.k):
        power = to_words(gf.r ** i)
        for half in range(2):
            columns.add_row(x[2 * i + half], [(half + c, word) for c, word in enumerate(power)])
    columns.sum_into([Reg("y", w) for w in range(2 * gf.k)])
    fn.check()
    return fn


def mul_r(gf: GfField) -> Function:
    """x r^a mod p, a (0 <= a < 2k) given at run time: in 2k words (x) and a, out 2k.

    p - 1 (top digit r) is first rewritten as -1 (digit 0 is 1, negated), so that every
    digit is below r; then a barrel shifter: the stage of bit b moves every digit up 2^b
    places where a has that bit, those that pass the top wrapping to the bottom negated
    (r^k = -1; the stage of 2^b = k negates all). Digits kept positive minus those negated."""
    k = gf.k
    fn = Function("mul_r", 2 * k + 1, 2 * k)
    x = _digits([Reg("x", w) for w in range(2 * k)], k)
    a = Reg("x", 2 * k)
    lo, hi = fn.temps_list(2)
    fn.emit("xor", lo, x[-1][0], gf.r & MASK)
    fn.emit("xor", hi, x[-1][1], gf.r >> 32)
    fn.emit("or", lo, lo, hi)
    is_top, ignored = fn.temp(), fn.temp()
    fn.chain("sub", [(ignored, (lo, 1)), (is_top, (0, 0))], carry_out=False)  # all ones where the top digit is r
    keep = fn.temp()
    fn.emit("not", keep, is_top)
    digits: list[tuple[Operand, Operand]] = [(x[i][0], x[i][1]) for i in range(k)]
    top_lo, top_hi, one = fn.temps_list(3)
    fn.emit("and", top_lo, x[-1][0], keep)
    fn.emit("and", top_hi, x[-1][1], keep)
    digits[-1] = (top_lo, top_hi)
    fn.emit("and", one, is_top, 1)
    fn.emit("or", one, one, x[0][0])
    digits[0] = (one, x[0][1])
    negated: list[Operand] = [is_top] + [0] * (k - 1)
    for bit in range((2 * k).bit_length() - 1):
        step = 1 << bit
        set_bit = fn.temp()
        fn.emit("shr", set_bit, a, bit)
        fn.emit("and", set_bit, set_bit, 1)
        mask = all_ones_if_set(fn, set_bit)
        if step == k:  # r^k = -1
            flipped = []
            for f in negated:
                g = fn.temp()
                fn.emit("xor", g, f, mask)
                flipped.append(g)
            negated = flipped
            continue
        moved, flags = [], []
        for i in range(k):
            source = i - step if i >= step else i - step + k
            lo, hi, flag = fn.temps_list(3)
            select(fn, lo, mask, digits[source][0], digits[i][0])
            select(fn, hi, mask, digits[source][1], digits[i][1])
            if i >= step:
                select(fn, flag, mask, negated[source], negated[i])
            else:  # wrapped: negated once more
                wrapped = fn.temp()
                fn.emit("not", wrapped, negated[source])
                select(fn, flag, mask, wrapped, negated[i])
            moved.append((lo, hi))
            flags.append(flag)
        digits, negated = moved, flags
    plus, minus = [], []
    for (lo, hi), f in zip(digits, negated):
        p_lo, p_hi, m_lo, m_hi, kept = fn.temps_list(5)
        fn.emit("not", kept, f)
        fn.emit("and", p_lo, lo, kept)
        fn.emit("and", p_hi, hi, kept)
        fn.emit("and", m_lo, lo, f)
        fn.emit("and", m_hi, hi, f)
        plus.append((p_lo, p_hi))
        minus.append((m_lo, m_hi))
    _difference(fn, gf, _digits([Reg("y", w) for w in range(2 * k)], k), plus, minus)
    fn.check()
    return fn



def accumulate_r(gf: GfField, s: int) -> Function:
    """sums + x r^s (0 <= s < 2k), lazily: in 3k words (k column sums) and 2k (x), out 3k.
    Digit i of x goes to column (i + s) mod 2k, negated where that is k or more (r^k = -1)."""
    k = gf.k
    fn = Function(f"accumulate_r{s}", COLUMN_WORDS * k + 2 * k, COLUMN_WORDS * k)
    sums = [Reg("x", w) for w in range(COLUMN_WORDS * k)]
    x = _digits([Reg("x", COLUMN_WORDS * k + w) for w in range(2 * k)], k)
    y = [Reg("y", w) for w in range(COLUMN_WORDS * k)]
    for i in range(k):
        column, negate = (i + s) % k, (i + s) % (2 * k) >= k
        words = range(COLUMN_WORDS * column, COLUMN_WORDS * (column + 1))
        fn.chain("sub" if negate else "add", [(y[w], (sums[w], d)) for w, d in zip(words, (*x[i], 0))],
                 carry_out=False)
    fn.check()
    return fn


def pair_sums(gf: GfField) -> Function:
    """(E + O, E - O) of two sets of k lazy column sums: in 6k words (E, O), out 6k. DFT_K's
    rows J and J + k share their terms up to sign, r^(i (J + k)) = (-1)^i r^(i J): with E and
    O the sums over even and odd i, row J is E + O and row J + k is E - O."""
    words = COLUMN_WORDS * gf.k
    fn = Function("pair_sums", 2 * words, 2 * words)
    for c in range(gf.k):
        e = [Reg("x", COLUMN_WORDS * c + w) for w in range(COLUMN_WORDS)]
        o = [Reg("x", words + COLUMN_WORDS * c + w) for w in range(COLUMN_WORDS)]
        for kind, base in (("add", 0), ("sub", words)):
            fn.chain(kind, [(Reg("y", base + COLUMN_WORDS * c + w), (e[w], o[w])) for w in range(COLUMN_WORDS)],
                     carry_out=False)
    fn.check()
    return fn


def settle_bias(gf: GfField) -> list[int]:
    """beta_c = D (r - 1), beta_0 = D (r + 1), D = K + 1: each at least K r, above any negative
    column sum, and sum beta_c r^c = D (r^k - 1) + 2D = D p = 0 (mod p)."""
    d = 2 * gf.k + 1
    return [d * (gf.r + 1)] + [d * (gf.r - 1)] * (gf.k - 1)


def settle(gf: GfField) -> Function:
    """k lazy column sums (accumulate_r's, each |sum| <= K r) to the element sum_c S_c r^c
    mod p: the bias makes each column non-negative, its digits are carried in radix r (each
    quotient below 2K + 4: _divide_small), and the carry out of the top, C r^k = -C,
    subtracted; + p where that goes below 0. (Splitting every column at once and carrying the
    quotients in a second, short chain measured 2% slower on the H100: more instructions.)"""
    why = unavailable(gf, "mul")
    if why:
        raise ValueError(f"the FFT's settle {why}")
    k = gf.k
    fn = Function("settle", COLUMN_WORDS * k, 2 * k)
    sums = [Reg("x", w) for w in range(COLUMN_WORDS * k)]
    bias = settle_bias(gf)
    bound = max(bias) + 2 * gf.k * gf.r + 2 * gf.k + 4  # a biased column and the carry into it
    digits = []
    carry: Operand = 0
    for c in range(k):
        t = fn.temps_list(COLUMN_WORDS)
        words = to_words(bias[c], COLUMN_WORDS)
        fn.chain("add", [(t[w], (sums[COLUMN_WORDS * c + w], words[w])) for w in range(COLUMN_WORDS)],
                 carry_out=False)
        fn.chain("add", [(t[w], (t[w], carry if w == 0 else 0)) for w in range(COLUMN_WORDS)], carry_out=False)
        carry, digit = _divide_small(fn, gf, t, bound)
        digits.append(digit)
    d = [tuple(fn.temps_list(2)) for _ in range(k)]
    borrow = _digit_sub(fn, gf, d[0], digits[0], (carry, 0), None)
    for i in range(1, k):
        borrow = _digit_sub(fn, gf, d[i], digits[i], (0, 0), borrow)
    _plus_one_where(fn, gf, _digits([Reg("y", w) for w in range(2 * k)], k), d, borrow)
    fn.check()
    return fn
