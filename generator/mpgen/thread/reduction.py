"""Reductions modulo p, branch-free: Montgomery (any odd p), pseudo-Mersenne folding
(p = 2^k - c with a small c), Solinas (p = 2^(32 n) - c, c's words 1, 0 or -1) and Barrett
(any p), each ending in masked final subtractions.

`field` is a Field (p fixed at generation time: its words are immediates) or, for the
modular additions and Montgomery's products, a RuntimeModulus (p an operand: its words and
-p^-1 mod 2^32 are registers); both give limbs, modulus_words, minus_inverse, spare_bit.
At the host's 64-bit limbs (a Field's), Montgomery's products go by rows through two carry
chains (rows.py) and keep the contract's R = 2^(32 n) (Field.radix_shift); so do the
pseudo-Mersenne folds in the x86 plan (Function.x86)."""
from __future__ import annotations

from ..fields import Field, to_words
from ..ir import Function, Operand, Reg
from ..size import limbs_for
from .columns import Columns
from .common import all_ones_if_borrow, select
from .mul import square
from .rows import RowSum, product_rows, reduce_rows, square_rows
from .scanning import scan_product


def subtract_if_not_below(fn: Function, field: Field, r: list[Reg], y: list[Reg]) -> None:
    """y = r - p if r >= p else r, for r < 2p (r may have one limb more than y, or fewer where
    the modulus is narrower than its numbers: y's words above r's are 0)."""
    p = field.modulus_words + [0] * (len(r) - field.limbs)
    d = fn.temps_list(len(r))
    fn.chain("sub", [(d[k], (r[k], p[k])) for k in range(len(r))])
    keep_r = all_ones_if_borrow(fn)
    for k, dst in enumerate(y):
        if k < len(r):
            select(fn, dst, keep_r, r[k], d[k])
        else:
            fn.emit("mov", dst, 0)


def masked_modulus(fn: Function, field: Field, mask: Reg) -> list[Reg]:
    """p's words where mask is all ones, zeros where it is 0."""
    words = fn.temps_list(field.limbs)
    for k, pk in enumerate(field.modulus_words):
        fn.emit("and", words[k], mask, pk)
    return words


def add_mod(fn: Function, field: Field, a: list[Operand], b: list[Operand], y: list[Reg]) -> None:
    """y = a + b mod p for a, b < p: the sum (a word more where p has no spare bit), less p
    where it is not below p."""
    n = field.limbs
    s = fn.temps_list(n if field.spare_bit else n + 1)
    fn.chain("add", [(s[k], (a[k], b[k])) for k in range(n)], carry_out=len(s) > n)
    if len(s) > n:
        fn.emit("addc", s[n], 0, 0)
    subtract_if_not_below(fn, field, s, y)


def subtract_mod(fn: Function, field: Field, a: list[Operand], b: list[Operand], y: list[Reg]) -> None:
    """y = a - b mod p for a, b < p: the difference, plus p where it borrows."""
    n = field.limbs
    d = fn.temps_list(n)
    fn.chain("sub", [(d[k], (a[k], b[k])) for k in range(n)])
    p_or_0 = masked_modulus(fn, field, all_ones_if_borrow(fn))
    fn.chain("add", [(y[k], (d[k], p_or_0[k])) for k in range(n)], carry_out=False)


def lazy_allowed(field: Field) -> bool:
    """4p < R: for a, b < 2p the Montgomery sum (a b + m p) / R stays below 2p, so a
    product whose result feeds another one can skip its final subtraction."""
    return 4 * field.modulus < field.montgomery_radix


def montgomery(fn: Function, field: Field, a: list[Operand], b: list[Operand], y: list[Reg],
               lazy: bool = False) -> None:
    """y = a b R^-1 mod p for a, b < p (CIOS: the row a b_i, then the row m p that
    clears column i), both rows in even/odd columns. lazy: for a, b < 2p, y < 2p and
    congruent, without the final subtraction (needs lazy_allowed)."""
    n = field.limbs
    if fn.host_plans:
        _reduce_rows(fn, field, product_rows(fn, a, shift_left(fn, b, field.radix_shift)), y, lazy)
        return
    columns = Columns(fn, 2 * n + 1)
    for i in range(n):
        if b[i] != 0:
            columns.add_row(b[i], [(i + j, a[j]) for j in range(n)])
        _clear_column(fn, field, columns, i)
    if lazy:
        assert lazy_allowed(field)
        columns.sum_into(y, first=n)
    else:
        _finish(fn, field, columns, y)


def montgomery_square(fn: Function, field: Field, a: list[Reg], y: list[Reg]) -> None:
    """y = a a R^-1 mod p for a < p: the square with each cross product once (n(n+1)/2
    products instead of n^2), then the n rows m p that clear its low half."""
    n = field.limbs
    if fn.host_plans:
        rows = square_rows(fn, a)
        if field.radix_shift:
            rows = RowSum(fn, 2 * n, shift_left(fn, [rows.word(k) for k in range(2 * n)], field.radix_shift))
        _reduce_rows(fn, field, rows, y)
        return
    product = fn.temps_list(2 * n + 1)
    square(fn, product, a, 2 * n)
    columns = Columns(fn, 2 * n + 1, product, initial=2 * n)
    for i in range(n):
        _clear_column(fn, field, columns, i)
    _finish(fn, field, columns, y)


def montgomery_reduce(fn: Function, field: Field, low: list[Operand], high: list[Operand],
                      y: list[Reg]) -> None:
    """y = (high R + low) R^-1 mod p for high < p: the n rows m p that clear the low half
    of a double-width value."""
    n = field.limbs
    if fn.host_plans:  # low's words shifted into the radix' extra bits, under high
        _reduce_rows(fn, field, RowSum(fn, 2 * n, shift_left(fn, low, field.radix_shift) + high), y)
        return
    value = fn.temps_list(2 * n + 1)
    for dst, src in zip(value, low + high):
        fn.emit("mov", dst, src)
    columns = Columns(fn, 2 * n + 1, value, initial=2 * n)
    for i in range(n):
        _clear_column(fn, field, columns, i)
    _finish(fn, field, columns, y)


def _reduce_rows(fn: Function, field: Field, value: RowSum, y: list[Reg], lazy: bool = False) -> None:
    """y = value 2^(-w n) mod p for value < 2^(w n) p, by rows (64-bit limbs); lazy: below 2p
    (the sum itself, needs lazy_allowed)."""
    if lazy:
        assert lazy_allowed(field)
        reduce_rows(fn, field, value, y)
        return
    r = fn.temps_list(field.limbs if field.spare_bit else field.limbs + 1)
    reduce_rows(fn, field, value, r)
    subtract_if_not_below(fn, field, r, y)


def shift_left(fn: Function, value: list[Operand], shift: int) -> list[Operand]:
    """value << shift (shift below a word) in as many words, for a value that fits them:
    immediates shifted here, registers by funnel shifts."""
    if not shift:
        return value
    w = fn.word_bits
    if all(isinstance(v, int) for v in value):
        total = sum(v << w * i for i, v in enumerate(value)) << shift
        return to_words(total, len(value), w)
    out = fn.temps_list(len(value))
    fn.emit("shl", out[0], value[0], shift)
    for j in range(1, len(value)):
        fn.emit("shf.l.clamp", out[j], value[j - 1], value[j], shift)
    return out


def _clear_column(fn: Function, field: Field, columns: Columns, i: int) -> None:
    """Adds m p at column i, m = column i * (-p^-1) mod 2^32, which makes column i zero
    (and drops it): the sum becomes divisible by 2^(32(i+1)). p's zero words cost no
    multiply (Columns), nor does m where -p^-1 is 1 or -1."""
    ones = fn.mask
    parts = columns.take(i)
    if not parts:
        return
    low, carry_into = parts[0], None
    if len(parts) == 2:  # its carry goes to column i + 1 through the flag
        low, carry_into = fn.temp(), i + 1
        fn.emit("add.cc", low, parts[0], parts[1])
    m = fn.temp()
    if field.minus_inverse == 1:  # p = -1 mod 2^32 (P-256, P-384): m is the word itself
        fn.emit("mov", m, low)
    elif field.minus_inverse == ones:  # p = 1 mod 2^32 (Pasta, BLS12 scalar fields): m = -word
        fn.emit("sub", m, 0, low)
    else:
        fn.emit("mul.lo", m, low, field.minus_inverse)
    columns.put(i, low)
    p = field.modulus_words
    columns.add_row(m, [(i + j, p[j]) for j in range(field.limbs)], carry_into)
    columns.take(i)


def _finish(fn: Function, field: Field, columns: Columns, y: list[Reg]) -> None:
    """y = the sum's columns n.. (below 2p), less p if not below p."""
    n = field.limbs
    r = fn.temps_list(n if field.spare_bit else n + 1)
    columns.sum_into(r, first=n)
    subtract_if_not_below(fn, field, r, y)


def shift_right(fn: Function, value: list[Reg], shift: int, limbs: int) -> list[Reg]:
    """The `limbs` limbs of value >> shift (value's limbs above its end are zero)."""
    q, r = divmod(shift, fn.word_bits)
    out = fn.temps_list(limbs)
    for j, dst in enumerate(out):
        if q + j >= len(value):
            fn.emit("mov", dst, 0)
        elif not r:
            fn.emit("mov", dst, value[q + j])
        elif q + j + 1 < len(value):
            fn.emit("shf.r.clamp", dst, value[q + j], value[q + j + 1], r)
        else:
            fn.emit("shr", dst, value[q + j], r)
    return out


def barrett(fn: Function, field: Field, t: list[Reg], y: list[Reg]) -> None:
    """y = t mod p for t < p^2 (any p): q = ((t >> (k-1)) mu) >> (k+1) with
    mu = floor(4^k / p) underestimates t / p by at most 2, so t - q p < 3p, then two masked
    subtractions (Handbook of Applied Cryptography, 14.42, in bits)."""
    p, k, w = field.modulus, field.modulus.bit_length(), fn.word_bits
    mu = to_words(field.barrett_factor, word_bits=w)
    top = shift_right(fn, t, k - 1, limbs_for(2 * k - (k - 1), w))
    product = fn.temps_list(len(top) + len(mu))
    _constant_product(fn, product, top, mu, len(product))
    quotient = shift_right(fn, product, k + 1, limbs_for(k + 1, w))
    width = limbs_for((3 * p).bit_length(), w)  # t - q p < 3p: exact modulo 2^(w width)
    subtrahend = fn.temps_list(width)
    _constant_product(fn, subtrahend, quotient, field.words(p), width)
    r = fn.temps_list(width)
    low = t + [0] * max(0, width - len(t))
    fn.chain("sub", [(r[i], (low[i], subtrahend[i])) for i in range(width)], carry_out=False)
    below_2p = fn.temps_list(width)
    subtract_if_not_below(fn, field, r, below_2p)
    subtract_if_not_below(fn, field, below_2p, y)


def _constant_product(fn: Function, out: list[Reg], a: list[Reg], constant: list[int], limit: int) -> None:
    """out[:limit] = a * constant mod 2^(w limit): by rows of the constant's nonzero words on
    the GPU's 32-bit limbs, by columns on the host's 64-bit ones."""
    if fn.host_plans:
        scan_product(fn, out, a, constant, limit)
        return
    columns = Columns(fn, limit)
    for i, word in enumerate(constant):
        if word and i < limit:
            columns.add_row(word, [(i + j, aj) for j, aj in enumerate(a) if i + j < limit])
    columns.sum_into(out)


def pseudo_mersenne(fn: Function, field: Field, t: list[Reg], y: list[Reg]) -> None:
    """y = t mod p for t < p^2, p = 2^k - c: t = h 2^k + l is congruent to l + h c, folded
    until below 2p (twice, as c (c + 2) < p), then one masked subtraction. Each fold is a
    few rows of products by c's words, against n rows for Montgomery's m p."""
    k, c = field.pseudo_mersenne
    w = fn.word_bits
    c_words = to_words(c, word_bits=w)
    q, r = divmod(k, w)
    value, bound = t, (field.modulus - 1) ** 2
    while bound >= 2 * field.modulus:
        high = shift_right(fn, value, k, limbs_for(bound.bit_length() - k, w))
        low = value[:q]
        if r:
            low.append(fn.temp())
            fn.emit("and", low[-1], value[q], (1 << r) - 1)
        bound = (1 << k) - 1 + (bound >> k) * c
        width = limbs_for(bound.bit_length(), w)
        if fn.x86:  # c < 2^64: one word
            value = _fold_rows(fn, low, high, c, width)
            continue
        columns = Columns(fn, width, low + fn.temps_list(width - len(low)), initial=len(low))
        for i, word in enumerate(c_words):
            if word:
                columns.add_row(word, [(i + j, h) for j, h in enumerate(high)])
        value = fn.temps_list(width)
        columns.sum_into(value)
    subtract_if_not_below(fn, field, value, y)


def _fold_rows(fn: Function, low: list[Reg], high: list[Reg], c: int, width: int) -> list[Reg]:
    """low + high c in `width` words (where it fits), c one word: one row through two chains
    (the x86 plan), its carry word run through low's words above the row where low reaches
    them."""
    rows = RowSum(fn, max(width, len(high) + 2), low)
    above = len(high) + 1
    carry = rows.add_row(0, c, high)
    if carry != 0 and above < width:
        fn.chain("add", [(rows.t[k], (rows.word(k), carry if k == above else 0)) for k in range(above, width)],
                 carry_out=False)
        rows.fresh.difference_update(range(above, width))
    value = fn.temps_list(width)
    for k, dst in enumerate(value):
        fn.emit("mov", dst, rows.word(k))
    return value


def solinas(fn: Function, field: Field, t: list[Reg], y: list[Reg]) -> None:
    """y = t mod p for t < p^2 where field.solinas applies: column j of the sum is t_j plus
    the multiples of high words the substitution gives it. Its positive terms are added and
    its negative ones subtracted row by row, over n + 1 words, onto a multiple of p that
    covers every negative sum (so the total stays positive); the top word h is then folded
    as h c, c's digits one chain each way, until below 2p; then one masked subtraction.
    Additions only, against Montgomery's n^2 products."""
    n, p, w = field.limbs, field.modulus, fn.word_bits
    digits, substitution = field.solinas
    plus: list[list[Operand]] = [[t[j]] for j in range(n)]
    minus: list[list[Operand]] = [[] for _ in range(n)]
    for i, row in substitution.items():
        for j, times in row.items():
            (plus if times > 0 else minus)[j].extend([t[i]] * abs(times))

    def largest(columns: list[list[Operand]]) -> int:
        return sum(len(terms) * fn.mask << w * j for j, terms in enumerate(columns))

    offset = -(-largest(minus) // p) * p
    bound = largest(plus) + offset
    assert bound < 1 << w * (n + 1)
    acc = fn.temps_list(n + 1)
    fn.chain("add", [(acc[j], (plus[j][0] if j < n else 0, word))
                     for j, word in enumerate(to_words(offset, n + 1, w))], carry_out=False)
    for kind, columns, first in (("add", plus, 1), ("sub", minus, 0)):
        for r in range(first, max(map(len, columns))):
            row = [terms[r] if len(terms) > r else 0 for terms in columns] + [0]
            start = next(j for j, term in enumerate(row) if term != 0)
            fn.chain(kind, [(acc[j], (acc[j], row[j])) for j in range(start, n + 1)],
                     carry_out=False)
    c = (1 << w * n) - p
    while bound >= 2 * p:
        h, acc[n] = acc[n], fn.temp()
        for kind, sign in (("add", 1), ("sub", -1)):
            row = [h if digits.get(j) == sign else 0 for j in range(n)] + [0]
            start = next((j for j, term in enumerate(row) if term != 0), None)
            if start is not None:
                low = acc[:n] + [0 if sign == 1 else acc[n]]  # the first chain starts the top
                fn.chain(kind, [(acc[j], (low[j], row[j])) for j in range(start, n + 1)],
                         carry_out=False)
        bound = (1 << w * n) - 1 + (bound >> w * n) * c
    subtract_if_not_below(fn, field, acc, y)
