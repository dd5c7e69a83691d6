"""Products by columns (product scanning, Comba's order), the host's 64-bit plan: column k's
products a_i b_j (i + j = k) summed into a three-word accumulator, whose low word is then
result limb k and whose upper words carry on to column k + 1. Each product's halves go into
one short chain (low, high, the third word's carry), so the host compiler keeps the
accumulator in registers and each product is one widening multiply and three adds with carry.
Montgomery's products scan the same way (Koc, Acar and Kaliski's FIPS order): column k < n
also takes the products m_j p_(k-j), then its own m_k = low word * -p^-1, whose product by p_0
clears the column.
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

    def column(self) -> Operand:
        """The current column's word so far (0 where nothing was added)."""
        return 0 if self.low in self.fresh else self.low

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


def scan_montgomery(fn: Function, field, a: list[Operand], b: list[Operand] | None, addend: list[Operand],
                    out: list[Reg]) -> None:
    """out = (a b + addend) / 2^(w n) + the words above it, n = field.limbs: the Montgomery sum,
    congruent to (a b + addend) 2^(-w n) mod p and below 2p where (a b + addend) < 2^(w n) p;
    b None: no product (a reduction of the addend). out has n words, or n + 1 where the sum may
    not fit n (the spare word)."""
    n, p = field.limbs, field.modulus_words
    acc, m = Accumulator(fn), []
    for k in range(2 * n):
        terms: list[Term] = [addend[k]] if k < len(addend) else []
        if b is not None:
            terms += [(a[i], b[k - i]) for i in range(max(0, k - n + 1), min(n, k + 1))]
        terms += [(m[j], p[k - j]) for j in range(max(0, k - n + 1), min(n, k))]
        for term in terms:
            acc.add(term)
        if k < n:
            m.append(fn.temp())
            low = acc.column()
            if field.minus_inverse == 1:  # p = -1 mod 2^w: m is the word itself
                fn.emit("mov", m[k], low)
            elif field.minus_inverse == fn.mask:  # p = 1 mod 2^w: m = -word
                fn.emit("sub", m[k], 0, low)
            else:
                fn.emit("mul.lo", m[k], low, field.minus_inverse)
            acc.add((m[k], p[0]))  # the column is now 0 mod 2^w
            acc.next_column()
        else:
            fn.emit("mov", out[k - n], acc.next_column())
    if len(out) > n:
        fn.emit("mov", out[n], acc.next_column())
