"""Lists that only move words (copies, zeros, a table's slots) or merge two values with no
bit in common: the glue between a program's steps."""
from __future__ import annotations

from collections.abc import Sequence

from ..ir import MASK, Function, Reg


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
