"""Products by columns (product scanning, Comba's order), the host's 64-bit plan: column k's
products a_i b_j (i + j = k) summed into a three-word accumulator, whose low word is then
result limb k and whose upper words carry on to column k + 1. Each product's halves go into
one short chain (low, high, the third word's carry), so the host compiler keeps the
accumulator in registers and each product is one widening multiply and three adds with carry.
(Montgomery's products go by rows through two carry chains instead: rows.py.)
(The GPU's plan, columns.py, sums whole rows in even and odd accumulators instead: its
multiply-adds take a carry in, and two independent chains hide their latency.)
"""
from __future__ import annotations

from typing import Union

from ..ir import Function, Operand, Reg

# A column's term: a product (two factors) or a word.
Term = Union[tuple[Operand, Operand], Operand]  # (Python 3.9 has no | between types)


class Accumulator:
    """Three words: the current column and the two above it."""

    def __init__(self, fn: Function) -> None:
        self.fn = fn
        self.low, self.middle, self.high = fn.temp(), fn.temp(), fn.temp()
        self.fresh = {self.low, self.middle, self.high}  # words holding 0 that nothing has written

    def add(self, term: Term, last: bool = False) -> None:
        """Adds a term at the current column; last: nothing of this column carries on (the
        top of a product cut at its limit)."""
        fn = self.fn
        if isinstance(term, tuple) and 1 in term:  # a product by one: the other factor
            term = term[1] if term[0] == 1 else term[0]
        product = isinstance(term, tuple)
        if product and 0 in term:
            return
        lo, hi = (fn.temp(), fn.temp()) if product else (term, 0)
        if product:
            fn.emit("mul.lo", lo, *term)
            if not last:
                fn.emit("mul.hi", hi, *term)
        low, middle, high = self.low, self.middle, self.high
        if low in self.fresh:  # (then so are the words above it)
            fn.emit("mov", low, lo)
            if not last and product:
                fn.emit("mov", middle, hi)
                self.fresh.discard(middle)
            self.fresh.discard(low)
        elif last:
            fn.emit("add", low, low, lo)
        elif middle in self.fresh:
            fn.emit("add.cc", low, low, lo)
            fn.emit("addc", middle, hi, 0)  # a product's high word is below 2^w - 1: no carry out
            self.fresh.discard(middle)
        else:
            fn.emit("add.cc", low, low, lo)
            fn.emit("addc.cc", middle, middle, hi)
            fn.emit("addc", high, 0 if high in self.fresh else high, 0)
            self.fresh.discard(high)

    def next_column(self) -> Reg:
        """The current column's word (0 where nothing was added); the accumulator moves on
        to the column above."""
        if self.low in self.fresh:
            self.fn.emit("mov", self.low, 0)
        done = self.low
        self.low, self.middle, self.high = self.middle, self.high, self.fn.temp()
        self.fresh = {r for r in self.fresh if r is not done} | {self.high}
        return done


def scan_product(fn: Function, out: list[Reg], a: list[Operand], b: list[Operand] | None, limit: int,
                 addend: list[Operand] = ()) -> None:
    """out[:limit] = (a * b + addend) mod 2^(w limit), w the limbs' bits; where b is None, the
    sum of the cross products a_i a_j (i < j) instead (a square's triangle, which square()
    doubles); exact where the value fits in limit limbs."""
    def pairs(k: int) -> list[tuple[Operand, Operand]]:
        if b is None:
            return [(a[i], a[k - i]) for i in range(max(0, k - len(a) + 1), (k + 1) // 2)]
        return [(a[i], b[k - i]) for i in range(max(0, k - len(b) + 1), min(len(a), k + 1))]

    acc = Accumulator(fn)
    for k in range(limit):
        for term in ([addend[k]] if k < len(addend) else []) + pairs(k):
            acc.add(term, last=k == limit - 1)
        fn.emit("mov", out[k], acc.next_column())
