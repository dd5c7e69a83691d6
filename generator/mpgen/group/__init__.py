"""The group tier (docs/group-tier.md): one integer per group of threads. `program` defines the
steps, programs and their host executor, `compose` programs made of programs; `addsub`,
`compare`, `bits`, `mul`, `ntt`, `montgomery`, `powers`, `division`, `barrett`, `gcd` and
`sqrt` plan the operation families on them (as thread/ does for the thread tier), `words`
the lists that only move words between their steps."""
from __future__ import annotations

import re

from .addsub import add_or_sub
from .bits import shift_constant, shift_variable
from .compare import compare
from . import ntt
from .mul import mad, mul, mul_lo, sqr
from . import barrett, division, gcd, montgomery, powers, sqrt
from .program import All, Broadcast, CarryScan, Convolution, Handoff, Mirror, Neighbours, ProductRows, Program, Repeat, \
    Shape, ShiftDown, ShiftUp, Step, ThreadStep, Top, carries, execute, join, segments, split

# The operations planned for the group tier; their contracts (operands, result, flag) are
# the per-thread tier's (thread/), so that every reader of the manifest treats them alike.
PLANNERS = {kind: (lambda shape, kind=kind: add_or_sub(kind, shape)) for kind in ("add", "sub", "neg")} | \
    {kind: (lambda shape, kind=kind: compare(kind, shape)) for kind in ("eq", "lt", "cmp", "is_zero")} | \
    {kind: (lambda shape, kind=kind: shift_variable(kind, shape)) for kind in ("shl", "shr")} | \
    {"mul": mul, "mul_lo": mul_lo, "sqr": sqr, "mad": mad} | montgomery.PLANNERS | powers.PLANNERS | \
    division.PLANNERS | barrett.PLANNERS | gcd.PLANNERS | sqrt.PLANNERS

NTT_PLANNERS = ntt.PLANNERS  # mul = ntt: these products by transform (the others as always)

CONSTANT_SHIFT = re.compile(r"(shl|shr)([1-9][0-9]*)$")


def planner(name: str, mul_method: str = "auto"):
    """The planner of operation `name` (shl<K> and shr<K> included), or None; `mul_method`
    "ntt": the products that have one by transform (NTT_PLANNERS)."""
    shift = CONSTANT_SHIFT.match(name)
    if shift:
        return lambda shape: shift_constant(shift[1], int(shift[2]), shape)
    if mul_method == "ntt" and name in NTT_PLANNERS:
        return NTT_PLANNERS[name]
    return PLANNERS.get(name)


def unavailable(name: str) -> str | None:
    """Why the group tier has no `name`, or None."""
    if planner(name) is None:
        return f"is not planned yet for the group tier; it has: {', '.join(PLANNERS)}, shl<K>, shr<K>"
    return None


__all__ = ["All", "Broadcast", "CarryScan", "Convolution", "Handoff", "Mirror", "NTT_PLANNERS", "Neighbours", "PLANNERS", "ProductRows",
           "Program", "Repeat", "Shape", "ShiftDown", "ShiftUp", "Step", "ThreadStep", "Top", "add_or_sub", "carries", "compare", "execute", "join",
           "mad", "mul", "mul_lo", "planner", "segments", "shift_constant", "shift_variable", "split", "sqr", "unavailable"]
