"""The group tier's addition and subtraction: each thread's own chain, then the carry scan."""
from __future__ import annotations

from ..ir import Function, Operand, Reg
from .program import CarryScan, Program, Shape, Step, ThreadStep, Top


def part(name: str, q: int, subtract: bool, operands: int) -> Function:
    """Each thread's first step: d = a +- b over its Q limbs (b = 0 - a for neg), and its
    generate bit (the chain's carry or borrow out) and propagate bit (d all ones for a
    sum, all zeros for a difference: a carry or borrow in would pass through)."""
    fn = Function(name, operands * q, q + 2)
    a = [Reg("x", i) for i in range(q)]
    b = [Reg("x", q + i) for i in range(q)] if operands == 2 else a
    first: list[Operand] = a if operands == 2 else [0] * q
    d = [Reg("y", i) for i in range(q)]
    generate, propagate = Reg("y", q), Reg("y", q + 1)
    fn.chain("sub" if subtract else "add", [(d[i], (first[i], b[i])) for i in range(q)])
    fn.emit("subc" if subtract else "addc", generate, 0, 0)
    if subtract:
        fn.emit("and", generate, generate, 1)  # subc of 0 - 0 leaves 0 - borrow: all ones
    propagate_bit(fn, d, subtract, propagate)
    fn.check()
    return fn


def propagate_bit(fn: Function, d: list[Reg], subtract: bool, propagate: Reg) -> None:
    """propagate = 1 where a carry (borrow) into d would pass through it: d all ones for a
    sum, all zeros for a difference."""
    folded = fn.temp()
    fn.emit("mov", folded, d[0])
    for word in d[1:]:
        fn.emit("and" if not subtract else "or", folded, folded, word)
    if not subtract:
        fn.emit("not", folded, folded)  # 0 exactly where d is all ones
    # propagate = 1 where folded is 0: 0 - folded borrows unless folded is 0.
    borrow = fn.temp()
    fn.emit("sub.cc", fn.temp(), 0, folded)
    fn.emit("subc", borrow, 0, 0)
    fn.emit("add", propagate, borrow, 1)


def finish(name: str, q: int, subtract: bool) -> Function:
    """Each thread's second step: y = d +- its carry in (the chain's own carry out is the
    next thread's carry in, which the scan already gave it)."""
    fn = Function(name, q + 1, q)
    d, c = [Reg("x", i) for i in range(q)], Reg("x", q)
    steps = [(Reg("y", 0), (d[0], c))] + [(Reg("y", i), (d[i], 0)) for i in range(1, q)]
    fn.chain("sub" if subtract else "add", steps, carry_out=False)
    fn.check()
    return fn


def add_or_sub(kind: str, shape: Shape, carry_in: bool = True) -> Program:
    """`add` (a + b + carry_in), `sub` (a - b - borrow_in) with the carry or borrow out of
    the exact width, or `neg` (0 - a mod 2^bits): three steps and the width's top.
    carry_in False: no carry or borrow in (within a composed program)."""
    shape.check()
    q, subtract = shape.limbs_per_thread, kind != "add"
    operands = ("a",) if kind == "neg" else ("a", "b")
    words = () if kind == "neg" or not carry_in else ("carry_in",)
    steps: tuple[Step, ...] = (
        ThreadStep(part(f"{kind}_part", q, subtract, len(operands)), operands,
                   (("d", q), ("generate", 1), ("propagate", 1))),
        CarryScan("generate", "propagate", words[0] if words else None, "carry", "out"),
        ThreadStep(finish(f"{kind}_finish", q, subtract), ("d", "carry"), (("y", q),)),
        Top("y", "out", None if kind == "neg" else "flag"),
    )
    return Program(kind, shape, operands, words, steps, "y", None if kind == "neg" else "flag")
