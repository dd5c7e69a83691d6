"""Arithmetic modulo a prime or any odd modulus fixed at generation time, branch-free.

The modulus' words are immediates in the instruction list. Results are reduced
(below p) for reduced operands; a final subtraction is a mask, never a branch.
Montgomery products use R = 2^(32 limbs).
"""
from __future__ import annotations

from ..field import Field
from ..ir import Function, Operand, Reg
from .columns import Columns
from .common import Operation, binary, one_word, same_limbs, unary
from .mul import square
from .compare import is_zero_word, or_all


def _spare_bit(field: Field) -> bool:
    """2p < R: a sum of two reduced values, or a Montgomery product before its final
    subtraction, fits in the limbs without a carry word."""
    return 2 * field.modulus < field.montgomery_radix


def _all_ones_if_borrow(fn: Function) -> Reg:
    mask = fn.temp()
    fn.emit("subc", mask, 0, 0)
    return mask


def subtract_if_not_below(fn: Function, field: Field, r: list[Reg], y: list[Reg]) -> None:
    """y = r - p if r >= p else r, for r < 2p (r may have one limb more than y)."""
    p = field.words(field.modulus) + [0] * (len(r) - field.limbs)
    d = fn.temps_list(len(r))
    fn.chain("sub", [(d[k], (r[k], p[k])) for k in range(len(r))])
    keep_r = _all_ones_if_borrow(fn)
    for k, dst in enumerate(y):
        t = fn.temp()
        fn.emit("xor", t, d[k], r[k])
        fn.emit("and", t, t, keep_r)
        fn.emit("xor", dst, d[k], t)


def montgomery(fn: Function, field: Field, a: list[Operand], b: list[Operand], y: list[Reg]) -> None:
    """y = a b R^-1 mod p for a, b < p (CIOS: the row a b_i, then the row m p that
    clears column i), both rows in even/odd columns."""
    n = field.limbs
    columns = Columns(fn, 2 * n + 1)
    for i in range(n):
        if b[i] != 0:
            columns.add_row(b[i], [(i + j, a[j]) for j in range(n)])
        _clear_column(fn, field, columns, i)
    _finish(fn, field, columns, y)


def montgomery_square(fn: Function, field: Field, a: list[Reg], y: list[Reg]) -> None:
    """y = a a R^-1 mod p for a < p: the square with each cross product once (n(n+1)/2
    products instead of n^2), then the n rows m p that clear its low half."""
    n = field.limbs
    product = fn.temps_list(2 * n + 1)
    square(fn, product, a, 2 * n)
    columns = Columns(fn, 2 * n + 1, product, initial=2 * n)
    for i in range(n):
        _clear_column(fn, field, columns, i)
    _finish(fn, field, columns, y)


def _clear_column(fn: Function, field: Field, columns: Columns, i: int) -> None:
    """Adds m p at column i, m = column i * (-p^-1) mod 2^32, which makes column i zero
    (and drops it): the sum becomes divisible by 2^(32(i+1))."""
    parts = columns.take(i)
    if not parts:
        return
    low, carry_into = parts[0], None
    if len(parts) == 2:  # its carry goes to column i + 1 through the flag
        low, carry_into = fn.temp(), i + 1
        fn.emit("add.cc", low, parts[0], parts[1])
    m = fn.temp()
    fn.emit("mul.lo", m, low, field.minus_inverse)
    columns.put(i, low)
    p = field.words(field.modulus)
    columns.add_row(m, [(i + j, p[j]) for j in range(field.limbs)], carry_into)
    columns.take(i)


def _finish(fn: Function, field: Field, columns: Columns, y: list[Reg]) -> None:
    """y = the sum's columns n.. (below 2p), less p if not below p."""
    n = field.limbs
    r = fn.temps_list(n if _spare_bit(field) else n + 1)
    columns.sum_into(r, first=n)
    subtract_if_not_below(fn, field, r, y)


def _modadd(fn, field, x, y):
    n = field.limbs
    s = fn.temps_list(n if _spare_bit(field) else n + 1)
    fn.chain("add", [(s[k], (x[0][k], x[1][k])) for k in range(n)], carry_out=len(s) > n)
    if len(s) > n:
        fn.emit("addc", s[n], 0, 0)
    subtract_if_not_below(fn, field, s, y)


def _modsub(fn, field, x, y):
    n = field.limbs
    d = fn.temps_list(n)
    fn.chain("sub", [(d[k], (x[0][k], x[1][k])) for k in range(n)])
    add_p = _all_ones_if_borrow(fn)
    masked = fn.temps_list(n)
    for k, pk in enumerate(field.words(field.modulus)):
        fn.emit("and", masked[k], add_p, pk)
    fn.chain("add", [(y[k], (d[k], masked[k])) for k in range(n)], carry_out=False)


def _modneg(fn, field, x, y):
    n = field.limbs
    d = fn.temps_list(n)
    fn.chain("sub", [(d[k], (pk, x[0][k])) for k, pk in enumerate(field.words(field.modulus))],
             carry_out=False)
    fn.emit("sub.cc", fn.temp(), 0, or_all(fn, x[0]))  # borrows unless a == 0
    nonzero = _all_ones_if_borrow(fn)
    for k in range(n):
        fn.emit("and", y[k], d[k], nonzero)


def _montmul(fn, field, x, y):
    montgomery(fn, field, x[0], x[1], y)


def _modmul(fn, field, x, y):
    """a b R^-1 (a a R^-1 for one operand), then times R^2 R^-1: two Montgomery products."""
    t = fn.temps_list(field.limbs)
    if len(x) == 1:
        montgomery_square(fn, field, x[0], t)
    else:
        montgomery(fn, field, x[0], x[1], t)
    montgomery(fn, field, t, field.words(field.radix_squared), y)


OPERATIONS = [
    Operation("modadd", "a + b mod p", binary, same_limbs, _modadd),
    Operation("modsub", "a - b mod p", binary, same_limbs, _modsub),
    Operation("modneg", "-a mod p", unary, same_limbs, _modneg),
    Operation("is_zero", "1 if a == 0 else 0", unary, one_word,
              lambda fn, f, x, y: is_zero_word(fn, y[0], or_all(fn, x[0]))),
    Operation("montmul", "a b R^-1 mod p: the Montgomery product (R = 2^(32 limbs))", binary,
              same_limbs, _montmul),
    Operation("montsqr", "a a R^-1 mod p, each cross product once", unary, same_limbs,
              lambda fn, f, x, y: montgomery_square(fn, f, x[0], y)),
    Operation("tomont", "a R mod p: into Montgomery form", unary, same_limbs,
              lambda fn, f, x, y: montgomery(fn, f, x[0], f.words(f.radix_squared), y)),
    Operation("frommont", "a R^-1 mod p: out of Montgomery form", unary, same_limbs,
              lambda fn, f, x, y: montgomery(fn, f, x[0], f.words(1), y)),
    Operation("modmul", "a b mod p (ordinary form: two Montgomery products)", binary, same_limbs,
              _modmul),
    Operation("modsqr", "a a mod p (ordinary form)", unary, same_limbs,
              _modmul),
]
