"""Bitwise operations, shifts (by a constant, or by a run-time amount through a
branch-free barrel shifter) and bit counts."""
from __future__ import annotations

from ..ir import ANY_WIDTH, GPU_AND_TOY, Function, Operand, Reg
from ..size import Size, amount_bits
from .common import Operation, binary, mask_top, one_word, same_limbs, unary


def _limbwise(opcode: str):
    def plan(fn, size, x, y):
        for i, dst in enumerate(y):
            fn.emit(opcode, dst, *(operand[i] for operand in x))
        mask_top(fn, size, y[-1])  # only `not` sets bits above the width
    return plan


def _shift_left(fn: Function, y: list[Reg], a: list[Operand], limbs: int, bits: Operand) -> None:
    """y = a shifted left by `limbs` limbs and then `bits` (0..w-1, constant or not) bits."""
    for i, dst in enumerate(y):
        src = i - limbs
        if src < 0:
            fn.emit("mov", dst, 0)
        elif src == 0:
            fn.emit("shl", dst, a[0], bits)
        else:
            fn.emit("shf.l.clamp", dst, a[src - 1], a[src], bits)


def _shift_right(fn: Function, y: list[Reg], a: list[Operand], limbs: int, bits: Operand) -> None:
    n = len(a)
    for i, dst in enumerate(y):
        src = i + limbs
        if src >= n:
            fn.emit("mov", dst, 0)
        elif src == n - 1:
            fn.emit("shr", dst, a[src], bits)
        else:
            fn.emit("shf.r.clamp", dst, a[src], a[src + 1], bits)


def constant_shift(direction: str, amount: int) -> Operation:
    """shl<K> / shr<K>: a shift by K bits fixed at generation time."""
    def plan(fn, size, x, y):
        limbs, bits = divmod(amount, size.word_bits)
        (_shift_left if direction == "shl" else _shift_right)(fn, y, x[0], limbs, bits)
        mask_top(fn, size, y[-1])
    word = "left" if direction == "shl" else "right"
    return Operation(f"{direction}{amount}", f"a shifted {word} by {amount} bits", unary,
                     same_limbs, plan, word_bits=ANY_WIDTH)


def log2_word(fn: Function) -> int:
    """The shift that takes a bit count to whole limbs (the limbs' widths are powers of two)."""
    return fn.word_bits.bit_length() - 1


def shift_by(fn: Function, value: list[Operand], amount: Operand, stages: int, left: bool,
             out: list[Reg] | None = None) -> list[Reg]:
    """value shifted by `amount` bits (below w 2^stages, w the limbs' bits; a register),
    towards the top if left, into `out` (temporaries if None) of value's length: whole limbs
    first, one stage per bit of amount / w, each a masked select between the value and the
    value moved by 2^k limbs; then the bits within a limb."""
    n, limb_shift = len(value), log2_word(fn)
    current: list[Operand] = list(value)
    for k in range(stages):
        step = 1 << k
        bit, select = fn.temp(), fn.temp()
        fn.emit("shr", bit, amount, limb_shift + k)
        fn.emit("and", bit, bit, 1)
        fn.emit("sub", select, 0, bit)  # all ones when this stage shifts
        moved = [current[i - step] if left and i >= step else
                 current[i + step] if not left and i + step < n else 0
                 for i in range(n)]
        stage = fn.temps_list(n)
        if 0 in moved:
            keep = fn.temp()
            fn.emit("not", keep, select)
        for i in range(n):
            if moved[i] == 0:
                fn.emit("and", stage[i], current[i], keep)
            else:  # current ^ ((current ^ moved) & select)
                fn.emit("xor", stage[i], current[i], moved[i])
                fn.emit("and", stage[i], stage[i], select)
                fn.emit("xor", stage[i], stage[i], current[i])
        current = stage
    low, out = fn.temp(), out if out is not None else fn.temps_list(n)
    fn.emit("and", low, amount, fn.word_bits - 1)
    (_shift_left if left else _shift_right)(fn, out, current, 0, low)
    return out


def _variable_shift(direction: str):
    def plan(fn, size, x, y):
        shift_by(fn, x[0], x[1][0], max(0, amount_bits(size.bits) - log2_word(fn)), direction == "shl", y)
        mask_top(fn, size, y[-1])
    return plan


def _popc(fn, size, x, y):
    fn.emit("popc", y[0], x[0][0])
    for limb in x[0][1:]:
        count = fn.temp()
        fn.emit("popc", count, limb)
        fn.emit("add", y[0], y[0], count)


def count_zeros(fn: Function, dst: Reg, limbs: list[Operand], count) -> None:
    """Leading zeros of the limbs, walked from the far end: each limb's count, plus
    the total so far when that limb is all zeros (count w), selected by a mask."""
    count(dst, limbs[0])
    for limb in limbs[1:]:
        c, empty = fn.temp(), fn.temp()
        count(c, limb)
        fn.emit("shr", empty, c, log2_word(fn))
        fn.emit("sub", empty, 0, empty)
        fn.emit("and", dst, dst, empty)
        fn.emit("add", dst, dst, c)


def leading_zeros(fn: Function, dst: Reg, limbs: list[Operand]) -> None:
    """dst = the leading zero bits of the limbs (least significant first; w per limb for 0)."""
    count_zeros(fn, dst, limbs, lambda d, v: fn.emit("clz", d, v))


def trailing_zeros(fn: Function, dst: Reg, limbs: list[Operand]) -> None:
    """dst = the trailing zero bits of the limbs (least significant first; w per limb for 0)."""
    def count(d, v):
        fn.emit("brev", d, v)
        fn.emit("clz", d, d)
    count_zeros(fn, dst, list(reversed(limbs)), count)


def _clz(fn, size, x, y):
    leading_zeros(fn, y[0], x[0])
    if size.top_bits != size.word_bits:  # the top limb's spare bits are not part of the number
        fn.emit("sub", y[0], y[0], size.word_bits - size.top_bits)


def _ctz(fn, size, x, y):
    limbs = list(x[0])
    if size.top_bits != size.word_bits:  # a sentinel bit just above the width: ctz(0) == bits
        top = fn.temp()
        fn.emit("or", top, limbs[-1], 1 << size.top_bits)
        limbs[-1] = top
    trailing_zeros(fn, y[0], limbs)


OPERATIONS = [
    Operation("and", "a & b", binary, same_limbs, _limbwise("and"), word_bits=ANY_WIDTH),
    Operation("or", "a | b", binary, same_limbs, _limbwise("or"), word_bits=ANY_WIDTH),
    Operation("xor", "a ^ b", binary, same_limbs, _limbwise("xor"), word_bits=ANY_WIDTH),
    Operation("not", "~a within the width", unary, same_limbs, _limbwise("not"), word_bits=ANY_WIDTH),
    Operation("shl", "a << s mod 2^bits (s < 2^ceil(log2 bits); 0 once s >= bits)",
              lambda s: (s.bits, amount_bits(s.bits)), same_limbs, _variable_shift("shl"), word_bits=GPU_AND_TOY),
    Operation("shr", "a >> s (s < 2^ceil(log2 bits); 0 once s >= bits)",
              lambda s: (s.bits, amount_bits(s.bits)), same_limbs, _variable_shift("shr"), word_bits=GPU_AND_TOY),
    Operation("popc", "number of set bits", unary, one_word, _popc, word_bits=GPU_AND_TOY),
    Operation("clz", "leading zeros within the width (bits for 0)", unary, one_word, _clz, word_bits=GPU_AND_TOY),
    Operation("ctz", "trailing zeros (bits for 0)", unary, one_word, _ctz, word_bits=GPU_AND_TOY),
]
