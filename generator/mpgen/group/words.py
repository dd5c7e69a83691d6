"""Lists that only move words (copies, zeros, a table's slots), merge two values with no
bit in common or keep one of two (or zero) by a flag with no branch: the glue between a
program's steps."""
from __future__ import annotations

from collections.abc import Sequence

from ..ir import MASK, Function, Reg
from ..thread.common import all_ones_if_set, select


def moved(name: str, in_words: int, sources: Sequence[int | None]) -> Function:
    """y[i] = x[sources[i]], or 0 where it is None."""
    fn = Function(name, in_words, len(sources))
    for i, source in enumerate(sources):
        fn.emit("mov", Reg("y", i), 0 if source is None else Reg("x", source))
    fn.check()
    return fn


def copy(q: int) -> Function:
    return moved("copy", q, range(q))


def zeros(words: int) -> Function:
    return moved("zeros", 0, [None] * words)


def all_ones() -> Function:
    """One word of ones (the masks' start)."""
    fn = Function("all_ones", 0, 1)
    fn.emit("mov", Reg("y", 0), MASK)
    fn.check()
    return fn


def either(q: int, name: str = "either") -> Function:
    """x[:Q] | x[Q:2Q] (two values with no bit in common: their sum)."""
    fn = Function(name, 2 * q, q)
    for i in range(q):
        fn.emit("or", Reg("y", i), Reg("x", i), Reg("x", q + i))
    fn.check()
    return fn


def complement(q: int) -> Function:
    """~x, limb by limb."""
    fn = Function("complement", q, q)
    for i in range(q):
        fn.emit("not", Reg("y", i), Reg("x", i))
    fn.check()
    return fn


def not_bit() -> Function:
    """1 - x (x is 0 or 1)."""
    fn = Function("not_bit", 1, 1)
    fn.emit("xor", Reg("y", 0), Reg("x", 0), 1)
    fn.check()
    return fn


def select_by_bit(q: int) -> Function:
    """y = x[Q:2Q] where the bit x[2Q] is set, else x[:Q]: no branch."""
    fn = Function("select_by_bit", 2 * q + 1, q)
    bit = fn.temp()
    fn.emit("and", bit, Reg("x", 2 * q), 1)
    mask = all_ones_if_set(fn, bit)
    for i in range(q):
        select(fn, Reg("y", i), mask, Reg("x", q + i), Reg("x", i))
    fn.check()
    return fn


def zero_where(q: int) -> Function:
    """y = x[:Q] where the flag x[Q] is 0, else 0."""
    fn = Function("zero_where_flag", q + 1, q)
    mask = fn.temp()
    fn.emit("sub", mask, Reg("x", q), 1)
    for i in range(q):
        fn.emit("and", Reg("y", i), Reg("x", i), mask)
    fn.check()
    return fn
