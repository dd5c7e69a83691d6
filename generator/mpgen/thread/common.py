"""What every operation declares, and how its words are split into operands."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..ir import Function, Operand, Reg
from ..size import Size, limbs_for

# C++ alternative tokens cannot name the operation structs.
_CPP_RESERVED = {"and", "or", "xor", "not"}

# plan(fn, size, operands, y): emit into fn; operands are the input limbs of each operand.
Planner = Callable[[Function, Size, list[list[Reg]], list[Reg]], None]


@dataclass(frozen=True)
class Operation:
    name: str
    summary: str
    operand_bits: Callable[[Size], tuple[int, ...]]
    result_limbs: Callable[[Size], int]
    planner: Planner
    flag: bool = False  # one more output word after the result: the carry or borrow
    signed: bool = False  # the result word is a signed 32-bit number (cmp)
    optional: int = 0  # trailing operands a caller may leave out, taken as 0 (carry in)
    # Where the modulus is given at run time: the index of the operand p, and of -p^-1 mod
    # 2^32 or of Barrett's reciprocal where that is an operand too; else None.
    modulus_operand: int | None = None
    minus_inverse_operand: int | None = None
    reciprocal_operand: int | None = None
    odd_modulus: str = "Montgomery form"  # where p is an operand: why it must be odd ("": it may be any)
    parts: int = 1  # the result's numbers of equal limbs, printed apart (div_qr: quotient, remainder)
    word_bits: tuple[int, ...] = (32,)  # the limb widths its planner is written for (ir.WORD_BITS, ir.ANY_WIDTH)
    # At 64 bits: whether the size has a plan of its own for the x86-64 assembly (target X86_64:
    # products by rows there, by columns for C++); without one the assembly prints from the
    # one 64-bit list where that has two carry chains (Montgomery's products)
    x86_plan: Callable[[Size], bool] = lambda size: False

    @property
    def cpp_name(self) -> str:
        return self.name + "_" if self.name in _CPP_RESERVED else self.name

    def plan(self, size: Size) -> Function:
        if size.word_bits not in self.word_bits:
            raise ValueError(f"{self.name} is planned at {', '.join(map(str, self.word_bits))}-bit limbs, "
                             f"not {size.word_bits}")
        widths = [limbs_for(b, size.word_bits) for b in self.operand_bits(size)]
        out = self.result_limbs(size) + self.flag
        fn = Function(self.name, sum(widths), out, word_bits=size.word_bits, host_plans=size.host_plans, x86=size.x86)
        operands, first = [], 0
        for w in widths:
            operands.append([Reg("x", first + i) for i in range(w)])
            first += w
        self.planner(fn, size, operands, [Reg("y", i) for i in range(out)])
        fn.check()
        return fn


# Shapes shared by many operations.
def unary(size: Size) -> tuple[int, ...]:
    return (size.bits,)


def binary(size: Size) -> tuple[int, ...]:
    return (size.bits, size.bits)


def with_word(size: Size) -> tuple[int, ...]:
    """A number and a word u (of one limb, no wider than the number)."""
    return (size.bits, min(size.word_bits, size.bits))


def same_limbs(size: Size) -> int:
    return size.limbs


def one_word(size: Size) -> int:
    return 1


def mask_top(fn: Function, size: Size, limb: Reg) -> None:
    """Clears the bits above the exact width in the top limb."""
    if size.top_bits != size.word_bits:
        fn.emit("and", limb, limb, (1 << size.top_bits) - 1)


def all_ones_if_borrow(fn: Function) -> Reg:
    """A word of ones if the carry flag holds a borrow, else 0 (a mask for selections)."""
    mask = fn.temp()
    fn.emit("subc", mask, 0, 0)
    return mask


def all_ones_if_carry(fn: Function) -> Reg:
    """A word of ones if the carry flag holds a carry, else 0."""
    mask = fn.temp()
    fn.emit("addc", mask, 0, 0)
    fn.emit("sub", mask, 0, mask)
    return mask


def complement(fn: Function, mask: Reg) -> Reg:
    """~mask: all ones where a mask is 0 and 0 where it is all ones."""
    inverted = fn.temp()
    fn.emit("not", inverted, mask)
    return inverted


def borrow_into(fn: Function, dst: Reg) -> None:
    """dst = the borrow (0 or 1) left in the carry flag by a subtraction chain."""
    fn.emit("and", dst, all_ones_if_borrow(fn), 1)


def select(fn: Function, dst: Reg, mask: Reg, if_set: Operand, if_clear: Operand) -> None:
    """dst = if_set where mask is all ones, if_clear where it is 0: no branch."""
    t = fn.temp()
    fn.emit("xor", t, if_clear, if_set)
    fn.emit("and", t, t, mask)
    fn.emit("xor", dst, if_clear, t)


def all_ones_if_set(fn: Function, bit: Operand) -> Reg:
    """A word of ones if bit (0 or 1) is 1, else 0."""
    mask = fn.temp()
    fn.emit("sub", mask, 0, bit)
    return mask


def inverse_word(fn: Function, odd: Operand) -> Reg:
    """odd^-1 mod 2^32 by Newton's steps i = i (2 - odd i), each doubling the good low bits
    (odd odd = 1 mod 8 for any odd word: 3, 6, 12, 24, 48); meaningless for an even word."""
    inverse = fn.temp()
    fn.emit("mov", inverse, odd)
    for _ in range(4):
        t = fn.temp()
        fn.emit("mul.lo", t, odd, inverse)
        fn.emit("sub", t, 2, t)
        fn.emit("mul.lo", inverse, inverse, t)
    return inverse
