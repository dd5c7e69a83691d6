"""Products by rows through two carry chains: Montgomery's in both 64-bit plans of the host,
and the x86 plan's full products, squares and pseudo-Mersenne folds (Function.x86; x86-64
runs them as mulx, adcx and adox: printers/x86.py). A row adds m f (a word by a
number) into the running sum: each product's low word through the chain on CF, its high
word through the chain on OF, so that a product costs a widening multiply and two adds
and neither chain waits on the other. The product (or the square: its triangle of cross
products, then one pass that doubles it through CF and adds the diagonal through OF) comes
first, then n rows m_i p that clear its low half (Montgomery's separated form, as GMP's
mpn_redc_1), each row's carry out added by the next row's last step.
"""
from __future__ import annotations

from typing import Iterator

from ..ir import Function, Operand, Reg


class RowSum:
    """A sum of rows in words t; words no row has written yet hold 0."""

    def __init__(self, fn: Function, words: int, value: list[Operand] = ()) -> None:
        self.fn = fn
        self.t = fn.temps_list(words)
        self.fresh = set(range(len(value), words))
        for k, v in enumerate(value):
            if isinstance(v, int) and v == 0:
                self.fresh.add(k)
            else:
                fn.emit("mov", self.t[k], v)

    def word(self, k: int) -> Operand:
        return 0 if k in self.fresh else self.t[k]

    def add(self, k: int, term: Operand, flag: str, carry_in: bool, carry_out: bool) -> None:
        """t[k] += term (+ the flag's carry): a chain step (term t[k]: doubles it)."""
        mnemonic = ("addc" if carry_in else "add") + (".cc" if carry_out else "")
        word = self.word(k)
        self.fn.emit(mnemonic, self.t[k], word, word if term is self.t[k] else term,
                     flag=flag if carry_in or carry_out else "cf")
        self.fresh.discard(k)

    def _products(self, m: Operand, factors: list[Operand]) -> Iterator[tuple[Operand, Operand]]:
        """(low, high) of each m f, each product emitted as its halves are asked for (so
        that they are summed before the next one: few words live at once)."""
        for f in factors:
            if m == 1 or f == 1 or f == 0:
                yield f if m == 1 else m if f == 1 else 0, 0
            else:
                lo, hi = self.fn.temp(), self.fn.temp()
                self.fn.emit("mul.lo", lo, m, f)
                self.fn.emit("mul.hi", hi, m, f)
                yield lo, hi

    def add_row(self, start: int, m: Operand, factors: list[Operand], extra: Operand = 0) -> Operand:
        """t += m factors 2^(w start), and extra (a carry word, 0 to 2) at start + len(factors);
        returns the carry word out of that position (0 to 2) where its word above is not
        fresh (the next row adds it), else writes it there and returns 0."""
        fn, top = self.fn, start + len(factors)
        above = top + 1
        tail = above < len(self.t)  # else the sum fits: nothing carries out of the top
        assert m != 0 and factors
        if all(k in self.fresh for k in range(start, (above if tail else top) + 1)) and extra == 0:
            # onto zeros: the halves' sums, one chain (a high half is below 2^w - 1, so the
            # top word takes the last carry)
            high: Operand = 0
            for j, (lo, hi) in enumerate(self._products(m, factors)):
                if j == 0:
                    fn.emit("mov", self.t[start], lo)
                else:
                    fn.emit("add.cc" if j == 1 else "addc.cc", self.t[start + j], high, lo)
                self.fresh.discard(start + j)
                high = hi
            if len(factors) == 1:
                fn.emit("mov", self.t[top], high)
            else:
                fn.emit("addc", self.t[top], high, 0)
            self.fresh.discard(top)
            return 0
        for j, (lo, hi) in enumerate(self._products(m, factors)):
            self.add(start + j, lo, "cf", j > 0, True)
            self.add(start + j + 1, hi, "of", j > 0, tail or j < len(factors) - 1)
        self.add(top, extra, "cf", True, tail)
        if not tail:
            return 0
        carry = self.t[above] if above in self.fresh else fn.temp()
        fn.emit("addc", carry, 0, 0, flag="cf")
        fn.emit("addc", carry, carry, 0, flag="of")
        if carry in self.t:
            self.fresh.discard(above)
            return 0
        return carry


def product_rows(fn: Function, a: list[Operand], b: list[Operand]) -> RowSum:
    """a b in 2n words: the rows b_i a."""
    s = RowSum(fn, len(a) + len(b))
    carry: Operand = 0
    for i, bi in enumerate(b):
        if bi != 0:
            carry = s.add_row(i, bi, a, carry)
    assert carry == 0
    return s


def square_rows(fn: Function, a: list[Operand]) -> RowSum:
    """a a in 2n words: the cross products' rows a_i a_(i+1..), then the doubling (CF) and
    the squares a_i^2 on the diagonal (OF), in one pass over the words."""
    n = len(a)
    s = RowSum(fn, 2 * n)
    for i in range(n - 1):
        assert s.add_row(2 * i + 1, a[i], a[i + 1:]) == 0
    for k in range(2 * n):
        i, high = divmod(k, 2)
        if high == 0:
            (square,) = s._products(a[i], [a[i]])
        if k == 0:  # the triangle starts at word 1
            fn.emit("mov", s.t[0], square[0])
            s.fresh.discard(0)
            continue
        last = k == 2 * n - 1  # a a < 2^(2 w n): nothing carries out of the top
        s.add(k, s.t[k], "cf", k > 1, not last)  # the doubling through CF
        s.add(k, square[high], "of", k > 1, not last)  # the diagonal through OF
    return s


def reduce_rows(fn: Function, field, s: RowSum, r: list[Reg]) -> None:
    """r = s 2^(-w n) + (the words above), n = field.limbs, for s < 2^(w n) p (2n words):
    congruent to s R^-1 mod p and below 2p; r has n words, or n + 1 where the sum may not
    fit n (no spare bit)."""
    n, p = field.limbs, field.modulus_words
    if len(s.t) == 2 * n:  # a word for the last row's carry
        s.t.append(fn.temp())
        s.fresh.add(2 * n)
    carry: Operand = 0
    for i in range(n):
        low = s.word(i)
        m = fn.temp()
        if field.minus_inverse == 1:  # p = -1 mod 2^w: m is the word itself
            fn.emit("mov", m, low)
        elif field.minus_inverse == fn.mask:  # p = 1 mod 2^w: m = -word
            fn.emit("sub", m, 0, low)
        else:
            fn.emit("mul.lo", m, low, field.minus_inverse)
        carry = s.add_row(i, m, p, carry)
    assert carry == 0
    for k, dst in enumerate(r):
        fn.emit("mov", dst, s.word(n + k))
