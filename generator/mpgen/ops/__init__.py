"""The operations, one module per family; each plans a `Function` for a `Size`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..ir import Function
from ..size import Size
from . import addsub, mul


@dataclass(frozen=True)
class Operation:
    name: str
    summary: str
    operands: Callable[[Size], tuple[int, ...]]  # limbs of each operand
    result_limbs: Callable[[Size], int]
    flag: bool  # one more output word after the result (carry, borrow)
    plan: Callable[[Size], Function]


def _two(size: Size) -> tuple[int, ...]:
    return (size.limbs, size.limbs)


OPERATIONS = {
    op.name: op
    for op in [
        Operation("add", "a + b, carry out", _two, lambda s: s.limbs, True, addsub.plan_add),
        Operation("sub", "a - b, borrow out", _two, lambda s: s.limbs, True, addsub.plan_sub),
        Operation("mul", "a * b, full product of exact width", _two, mul.product_limbs, False,
                  mul.plan_mul),
    ]
}
