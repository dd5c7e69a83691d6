"""Addition and subtraction: one carry chain across the limbs."""
from __future__ import annotations

from ..ir import ANY_WIDTH, Function, Operand, Reg
from ..size import Size
from .common import Operation, binary, borrow_into, mask_top, same_limbs, unary, with_word


def add_into(fn: Function, size: Size, y: list[Reg], a: list[Operand], b: list[Operand],
             carry_in: Operand | None = None) -> None:
    """y[:n] = a + b (+ carry_in) mod 2^bits and y[n] = the carry out of the exact width."""
    n = size.limbs
    if carry_in is not None:
        fn.emit("add.cc", fn.temp(), carry_in, fn.mask)  # sets CC.CF to carry_in (0 or 1)
    full = size.top_bits == size.word_bits
    fn.chain("add", [(y[i], (a[i], b[i])) for i in range(n)],
             carry_in=carry_in is not None, carry_out=full)
    if full:
        fn.emit("addc", y[n], 0, 0)
    else:
        # Spare top bits: the sum fits the top limb, and its carry is the bit above the width.
        fn.emit("shr", y[n], y[n - 1], size.top_bits)
        mask_top(fn, size, y[n - 1])


def sub_into(fn: Function, size: Size, y: list[Reg], a: list[Operand], b: list[Operand],
             borrow_in: Operand | None = None, borrow_out: bool = True) -> None:
    """y[:n] = a - b (- borrow_in) mod 2^bits and, if borrow_out, y[n] = the borrow."""
    n = size.limbs
    if borrow_in is not None:
        fn.emit("sub.cc", fn.temp(), 0, borrow_in)  # sets CC.CF to borrow_in (0 or 1)
    # Operands below 2^bits: the limbs' chain's borrow is the exact width's.
    fn.chain("sub", [(y[i], (a[i], b[i])) for i in range(n)],
             carry_in=borrow_in is not None, carry_out=borrow_out)
    if borrow_out:
        borrow_into(fn, y[n])
    mask_top(fn, size, y[n - 1])


def _word_operand(size: Size, u: list[Reg]) -> list[Operand]:
    return u + [0] * (size.limbs - 1)


OPERATIONS = [
    Operation("add", "a + b + carry_in (0 or 1), then the carry out",
              lambda s: (s.bits, s.bits, 1), same_limbs,
              lambda fn, s, x, y: add_into(fn, s, y, x[0], x[1], carry_in=x[2][0]), flag=True,
              optional=1, word_bits=ANY_WIDTH),
    Operation("sub", "a - b - borrow_in (0 or 1), then the borrow out",
              lambda s: (s.bits, s.bits, 1), same_limbs,
              lambda fn, s, x, y: sub_into(fn, s, y, x[0], x[1], borrow_in=x[2][0]), flag=True,
              optional=1, word_bits=ANY_WIDTH),
    Operation("add_ui", "a + u (u of one limb), then the carry out", with_word, same_limbs,
              lambda fn, s, x, y: add_into(fn, s, y, x[0], _word_operand(s, x[1])), flag=True, word_bits=ANY_WIDTH),
    Operation("sub_ui", "a - u (u of one limb), then the borrow out", with_word, same_limbs,
              lambda fn, s, x, y: sub_into(fn, s, y, x[0], _word_operand(s, x[1])), flag=True, word_bits=ANY_WIDTH),
    Operation("neg", "-a mod 2^bits", unary, same_limbs,
              lambda fn, s, x, y: sub_into(fn, s, y, [0] * s.limbs, x[0], borrow_out=False), word_bits=ANY_WIDTH),
]
