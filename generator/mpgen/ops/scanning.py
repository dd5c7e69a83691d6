"""Products by columns (product scanning, Comba's order), the host's 64-bit plan: column k's
products a_i b_j (i + j = k) summed into a three-word accumulator, whose low word is then
result limb k and whose upper words carry on to column k + 1. Each product's halves go into
one short chain (low, high, the third word's carry), so the host compiler keeps the
accumulator in registers and each product is one widening multiply and three adds with carry.
(The GPU's plan, columns.py, sums whole rows in even and odd accumulators instead: its
multiply-adds take a carry in, and two independent chains hide their latency.)
"""
from __future__ import annotations

from ..ir import Function, Operand, Reg


def scan_product(fn: Function, out: list[Reg], a: list[Operand], b: list[Operand] | None, limit: int,
                 addend: list[Operand] = ()) -> None:
    """out[:limit] = (a * b + addend) mod 2^(w limit), w the limbs' bits; where b is None, the
    sum of the cross products a_i a_j (i < j) instead (a square's triangle, which square()
    doubles); exact where the value fits in limit limbs."""
    def pairs(k: int) -> list[tuple[Operand, Operand]]:
        if b is None:
            return [(a[i], a[k - i]) for i in range(max(0, k - len(a) + 1), (k + 1) // 2)]
        return [(a[i], b[k - i]) for i in range(max(0, k - len(b) + 1), min(len(a), k + 1))]

    low, middle, high = fn.temp(), fn.temp(), fn.temp()  # the accumulator: column k and the two above
    fresh = {low, middle, high}  # words holding 0 that no instruction has written yet
    for k in range(limit):
        terms: list[tuple[Operand, Operand] | Operand] = [addend[k]] if k < len(addend) else []
        terms += pairs(k)
        last = k == limit - 1  # nothing of this column carries anywhere
        for term in terms:
            product = isinstance(term, tuple)
            lo, hi = (fn.temp(), fn.temp()) if product else (term, 0)
            if product:
                fn.emit("mul.lo", lo, *term)
                if not last:
                    fn.emit("mul.hi", hi, *term)
            if low in fresh:  # (then so are the words above it)
                fn.emit("mov", low, lo)
                if not last:
                    fn.emit("mov", middle, hi)
                    fresh.discard(middle)
                fresh.discard(low)
            elif last:
                fn.emit("add", low, low, lo)
            elif middle in fresh:
                fn.emit("add.cc", low, low, lo)
                fn.emit("addc", middle, hi, 0)  # a product's high word is below 2^w - 1: no carry out
                fresh.discard(middle)
            else:
                fn.emit("add.cc", low, low, lo)
                fn.emit("addc.cc", middle, middle, hi)
                fn.emit("addc", high, 0 if high in fresh else high, 0)
                fresh.discard(high)
        if low in fresh:  # a column with no terms (the top of a short product)
            fn.emit("mov", low, 0)
            fresh.discard(low)
        fn.emit("mov", out[k], low)
        low, middle, high = middle, high, fn.temp()
        fresh.add(high)
