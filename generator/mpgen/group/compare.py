"""The group tier's comparisons, from subtraction's first step: a thread's propagate bit
says its limbs are equal, and the borrow out of the scan says a < b."""
from __future__ import annotations

from ..ir import Function, Reg
from .addsub import part
from .program import All, CarryScan, Program, Shape, Step, ThreadStep


def _cmp_finish(name: str) -> Function:
    """cmp's word from lt and eq (0 or 1 each): 0 where equal, else -1 where less, else 1."""
    fn = Function(name, 2, 1)
    less, equal = Reg("x", 0), Reg("x", 1)
    sign, unequal = fn.temp(), fn.temp()
    fn.emit("sub", sign, 0, less)  # all ones where less
    fn.emit("or", sign, sign, 1)  # -1 or 1
    fn.emit("sub", unequal, equal, 1)  # 0 where equal, else all ones
    fn.emit("and", Reg("y", 0), sign, unequal)
    fn.check()
    return fn


def compare(kind: str, shape: Shape) -> Program:
    """`eq`, `lt`, `cmp` (-1, 0, 1) of a and b, or `is_zero` of a, from sub's first step
    (neg's for is_zero): a thread's propagate bit says its limbs are equal (zero), and the
    borrow out of the scan says a < b. The one-word result lies in every thread."""
    shape.check()
    q = shape.limbs_per_thread
    operands = ("a",) if kind == "is_zero" else ("a", "b")
    first = ThreadStep(part(f"{kind}_part", q, True, len(operands)), operands,
                       (("d", q), ("generate", 1), ("propagate", 1)))
    steps: tuple[Step, ...]
    if kind in ("eq", "is_zero"):
        steps = (first, All("propagate", "y"))
    elif kind == "lt":
        steps = (first, CarryScan("generate", "propagate", None, "carry", "y"))
    else:
        steps = (first, CarryScan("generate", "propagate", None, "carry", "less"), All("propagate", "equal"),
                 ThreadStep(_cmp_finish("cmp_finish"), ("less", "equal"), (("y", 1),)))
    return Program(kind, shape, operands, (), steps, "y", None, scalar=True)
