"""The thread tier (docs/operations.md): one integer per thread. Its operations, one module per
family, each planning a `Function` for a `Size` (the modular ones for a `Field`)."""
from __future__ import annotations

import re

from ..size import Size
from . import addsub, bits, compare, division, gcd, modular, mul, runtime_modulus, sqrt
from .common import Operation
from .powers import LoopOperation

OPERATIONS: dict[str, Operation | LoopOperation] = {
    op.name: op for family in (addsub, mul, compare, bits, division, gcd, sqrt, runtime_modulus) for op in family.OPERATIONS}

# Operations of a field (a modulus fixed at generation time), apart from the integer ones.
MODULAR_OPERATIONS: dict[str, Operation | LoopOperation] = {op.name: op for op in modular.OPERATIONS}

CONSTANT_SHIFT = re.compile(r"(shl|shr)([1-9][0-9]*)$")
DEFAULT_CONSTANT_SHIFTS = (1, 31, 32, 33)  # a request's default shl<K>/shr<K> (request.defaults)


def find(name: str) -> Operation | None:
    """The operation called `name`, the constant shifts shl<K> and shr<K> included."""
    if name in OPERATIONS:
        return OPERATIONS[name]
    match = CONSTANT_SHIFT.match(name)
    return bits.constant_shift(match[1], int(match[2])) if match else None


def fits(op: Operation, size: Size) -> bool:
    """Constant shifts exist only for amounts below the width."""
    match = CONSTANT_SHIFT.match(op.name)
    return not match or int(match[2]) < size.bits
