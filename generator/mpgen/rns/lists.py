"""The residue arithmetic of a moduli set as instruction lists, a chunk of moduli each.

Each modulus is a one-limb Field, so its sums, differences and products come from the
modular generator with the fastest reduction the modulus allows (pseudo-Mersenne folding
for the generated sets, whose moduli lie just below 2^32). A list covers CHUNK moduli: an
integer's n residues do not fit in a thread's registers at n = 256, so the operations
stream them through a list per chunk (headers/rns.cuh), loading and storing as they go.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..fields import Field
from ..ir import Function, Reg
from ..thread.common import select
from ..thread.modular import _modmul, _modneg
from ..thread.reduction import subtract_mod
from .moduli import MODULUS_BITS, RnsSet

CHUNK = 8  # moduli a list covers


def field(modulus: int) -> Field:
    return Field(MODULUS_BITS, modulus=modulus, label=f"m{modulus:08x}")


def _binary(name: str, fields: list[Field], step) -> Function:
    """x = a's residues, then b's; y = step(a_i, b_i) mod m_i."""
    n = len(fields)
    fn = Function(name, 2 * n, n)
    for i, f in enumerate(fields):
        step(fn, f, [Reg("x", i)], [Reg("x", n + i)], [Reg("y", i)])
    return fn


def _multiply(fn: Function, f: Field, a, b, y) -> None:
    _modmul(fn, f, [a, b], y)


def _add_signed(fields: list[Field]) -> Function:
    """x = a's residues, b's, then two mask words; y = (+-a) + (+-b) mod m_i, each negated
    where its mask is all ones: Algorithm 2's radix-complement sum in one pass."""
    n = len(fields)
    fn = Function("add_signed", 2 * n + 2, n)
    for i, f in enumerate(fields):
        terms = []
        for operand, mask in ((Reg("x", i), Reg("x", 2 * n)), (Reg("x", n + i), Reg("x", 2 * n + 1))):
            negated, term = fn.temp(), fn.temp()
            _modneg(fn, f, [[operand]], [negated])
            select(fn, term, mask, negated, operand)
            terms.append(term)
        _add(fn, f, [terms[0]], [terms[1]], [Reg("y", i)])
    return fn


def _add(fn: Function, f: Field, a, b, y) -> None:
    """a + b mod m as a - (m - b) mod m: m - b is in [1, m], and the difference borrows
    exactly where a + b < m; five instructions where add_mod's carry word costs eight."""
    complement = fn.temp()
    fn.emit("sub", complement, f.modulus, b[0])
    subtract_mod(fn, f, a, [complement], y)


LISTS = {  # name -> (summary, planner over the chunk's fields)
    "add": ("a_i + b_i mod m_i", lambda fields: _binary("add", fields, _add)),
    "sub": ("a_i - b_i mod m_i", lambda fields: _binary("sub", fields, subtract_mod)),
    "mul": ("a_i b_i mod m_i", lambda fields: _binary("mul", fields, _multiply)),
    "add_signed": ("(+-a_i) + (+-b_i) mod m_i, each negated where its mask word is all ones", _add_signed),
}


@dataclass(frozen=True)
class Chunk:
    """Moduli [first, first + count) of a set and their lists."""

    first: int
    moduli: tuple[int, ...]

    @cached_property
    def lists(self) -> dict[str, Function]:
        fields = [field(m) for m in self.moduli]
        return {name: plan(fields) for name, (_, plan) in LISTS.items()}


def chunks(rns: RnsSet) -> list[Chunk]:
    return [Chunk(k, rns.moduli[k:k + CHUNK]) for k in range(0, rns.count, CHUNK)]
