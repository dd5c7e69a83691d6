"""Comparisons, branch-free: borrows of subtraction chains, and OR-reduction for zero tests."""
from __future__ import annotations

from ..ir import ANY_WIDTH, Function, Reg
from .common import Operation, all_ones_if_borrow, binary, borrow_into, one_word, unary


def is_zero_word(fn: Function, dst: Reg, v: Reg) -> None:
    """dst = 1 if v == 0 else 0: 0 - v borrows exactly when v != 0."""
    fn.emit("sub.cc", fn.temp(), 0, v)
    fn.emit("add", dst, all_ones_if_borrow(fn), 1)


def or_all(fn: Function, words: list[Reg]) -> Reg:
    acc = words[0]
    for w in words[1:]:
        nxt = fn.temp()
        fn.emit("or", nxt, acc, w)
        acc = nxt
    return acc


def all_ones_if_nonzero(fn: Function, words: list[Reg]) -> Reg:
    """A mask: all ones where any of the words is set, 0 where all are 0."""
    fn.emit("sub.cc", fn.temp(), 0, or_all(fn, words))  # borrows unless all are 0
    return all_ones_if_borrow(fn)


def _less(fn: Function, dst: Reg, a: list[Reg], b: list[Reg]) -> Reg:
    """dst = 1 if a < b else 0: the borrow of a - b."""
    fn.chain("sub", [(fn.temp(), (ai, bi)) for ai, bi in zip(a, b)])
    borrow_into(fn, dst)
    return dst


def _eq(fn, size, x, y):
    diffs = []
    for ai, bi in zip(x[0], x[1]):
        diffs.append(fn.temp())
        fn.emit("xor", diffs[-1], ai, bi)
    is_zero_word(fn, y[0], or_all(fn, diffs))


def _cmp(fn, size, x, y):
    fn.emit("sub", y[0], _less(fn, fn.temp(), x[1], x[0]), _less(fn, fn.temp(), x[0], x[1]))


# Also a field's operation: a reduced residue is zero exactly when its limbs are.
IS_ZERO = Operation("is_zero", "1 if a == 0 else 0", unary, one_word,
                    lambda fn, s, x, y: is_zero_word(fn, y[0], or_all(fn, x[0])), word_bits=ANY_WIDTH)

OPERATIONS = [
    Operation("eq", "1 if a == b else 0", binary, one_word, _eq, word_bits=ANY_WIDTH),
    Operation("lt", "1 if a < b else 0", binary, one_word,
              lambda fn, s, x, y: _less(fn, y[0], x[0], x[1]), word_bits=ANY_WIDTH),
    Operation("cmp", "-1, 0 or 1 as a < b, a == b, a > b", binary, one_word, _cmp, signed=True,
              word_bits=ANY_WIDTH),
    IS_ZERO,
]
