"""A sum of products kept by column in two accumulators, even and odd.

A product a_j b_i whose low half lands in an even column adds into the even
accumulator, one landing in an odd column into the odd one. So every lo/hi pair sits
in an aligned register pair (one IMAD.WIDE in SASS), and a row of products is two
independent carry chains of half the length, which the GPU overlaps (sppark's
even/odd split, here for any limb count, truncation, triangle or reduction rows).
Registers are named per column, so dropping low columns (Montgomery) costs nothing.
"""
from __future__ import annotations

from ..ir import Function, Operand, Reg

# The (column, multiplicand) pairs of one row; the multiplier is given beside it.
Products = list[tuple[int, Operand]]


def _factors(a: Operand, b: Operand) -> tuple[Operand, Operand]:
    """A multiply's two factors, an immediate second (PTX wants the first in a register)."""
    return (b, a) if isinstance(a, int) else (a, b)


class Columns:
    def __init__(self, fn: Function, limit: int, even_regs: list[Reg] | None = None,
                 initial: int = 0) -> None:
        """Columns below `limit`; the even accumulator lives in `even_regs` (temporaries
        if None), whose first `initial` limbs already hold a value."""
        self.fn, self.limit, self.even_regs = fn, limit, even_regs
        self.parts: tuple[dict[int, Reg], dict[int, Reg]] = (
            {c: even_regs[c] for c in range(initial)} if even_regs else {}, {})
        self.bound = (1 << fn.word_bits * initial) - 1  # the largest value the sum can have

    def add_row(self, multiplier: Operand, products: Products, carry_into: int | None = None) -> None:
        """sum += multiplier * the products, each at its column. With carry_into = c, the
        carry flag holds a carry into column c (left by the caller), which the chain of
        c's parity takes in."""
        w, ones = self.fn.word_bits, self.fn.mask
        self.bound += sum(ones * ones << w * c for c, aj in products if aj != 0)
        top = min(self.limit - 1, (self.bound.bit_length() - 1) // w)  # no carry leaves it
        first = carry_into % 2 if carry_into is not None else 0  # before the flag is reused
        for parity in (first, 1 - first):
            steps = [(half, c + k, aj) for c, aj in products if c % 2 == parity
                     for k, half in enumerate(("mad.lo", "mad.hi")) if c + k < self.limit]
            carry_in = carry_into is not None and carry_into % 2 == parity
            assert not carry_in or not steps or steps[0][1] == carry_into, (carry_into, steps)
            self._chain(parity, steps, multiplier, top, carry_into if carry_in else None)

    def take(self, c: int) -> list[Reg]:
        """Removes column c and returns its parts (0 to 2 registers)."""
        return [r for part in self.parts if (r := part.pop(c, None)) is not None]

    def put(self, c: int, reg: Reg) -> None:
        """Column c, taken before, is `reg` again."""
        self.parts[c % 2][c] = reg

    def _reg(self, parity: int, c: int) -> Reg:
        part = self.parts[parity]
        if c not in part:
            part[c] = self.even_regs[c] if parity == 0 and self.even_regs else self.fn.temp()
        return part[c]

    def _chain(self, parity: int, steps: list[tuple[str, int, Operand]], multiplier: Operand,
               top: int, carry_into: int | None) -> None:
        """One accumulator += the pairs in `steps` (half, column, a_j; consecutive
        columns), as one carry chain over the columns written before (and from column
        carry_into, taking the carry flag in); fresh columns take plain products."""
        assert all(b[1] == a[1] + 1 for a, b in zip(steps, steps[1:])), steps
        part, fn = self.parts[parity], self.fn
        chain: list = []
        chain_carry_in = carrying = carry_into is not None
        for half, c, aj in steps:
            written = c in part
            if aj == 0 and not carrying:
                continue  # a zero word (of p, say) and no carry to pass on: nothing to add
            if not (written or carrying):
                fn.emit(half.replace("mad", "mul"), self._reg(parity, c), *_factors(aj, multiplier))
                continue
            addend = part[c] if written else 0
            if aj == 0:  # no product, only the carry
                chain.append(("add", self._reg(parity, c), (addend, 0)))
                carrying = written  # 0 + a carry cannot carry further
            else:
                chain.append((half, self._reg(parity, c), (*_factors(aj, multiplier), addend)))
                carrying = written or half == "mad.lo"  # hi(a b) + 1 < 2^w: a fresh high half absorbs it
            if not carrying:
                fn.chain_of(chain, carry_in=chain_carry_in, carry_out=False)
                chain, chain_carry_in = [], False
        if carrying:
            c = steps[-1][1] + 1 if steps else carry_into
            while c <= top and c in part:  # carry through columns already written
                chain.append(("add", part[c], (part[c], 0)))
                c += 1
            if c <= top:
                chain.append(("add", self._reg(parity, c), (0, 0)))
        if chain:
            fn.chain_of(chain, carry_in=chain_carry_in, carry_out=False)

    def sum_into(self, out: list[Reg], first: int = 0) -> None:
        """out[k] = column first + k of the sum, the carry running to the end of out.
        out may hold the even accumulator's registers (at the same columns)."""
        even, odd = self.parts
        chain: list = []
        for k, dst in enumerate(out):
            c = first + k
            e, o = even.get(c, 0), odd.get(c, 0)
            if chain or (c in even and c in odd):
                chain.append(("add", dst, (e, o)))
                if c not in even and c not in odd:  # 0 + 0 + carry cannot carry further
                    self.fn.chain_of(chain, carry_out=False)
                    chain = []
            elif (value := e if c in even else o) is not dst:
                self.fn.emit("mov", dst, value)
        if chain:
            self.fn.chain_of(chain, carry_out=False)
