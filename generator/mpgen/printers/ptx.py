"""The device printer: an instruction list as one inline PTX statement."""
from __future__ import annotations

from ..ir import Function, Operand, Reg


def function(fn: Function) -> list[str]:
    """The whole list as one inline PTX statement, as lines of C++: one asm block
    keeps each carry chain intact (no compiler code can come between its steps)
    and costs nvcc's front end far less than one statement per instruction.
    Operands %0.. are the outputs y, then the inputs x; temporaries are PTX
    registers t0.. local to the block."""
    def name(o: Operand) -> str:
        if isinstance(o, int):
            return str(o)
        return {"y": f"%{o.index}", "x": f"%{fn.out_words + o.index}", "t": f"t{o.index}"}[o.bank]

    written: set[int] = set()
    lines = ['"{\\n\\t"']
    if fn.temps:
        lines.append(f'".reg .u32 t<{fn.temps}>;\\n\\t"')
    for ins in fn.body:
        read = [s.index for s in ins.srcs if isinstance(s, Reg) and s.bank == "y"]
        assert written.issuperset(read), f"{fn.name}: an output is read before it is written"
        if ins.dst.bank == "y":
            written.add(ins.dst.index)
        args = ", ".join(name(o) for o in (ins.dst, *ins.srcs))
        lines.append(f'"{ins.opcode.mnemonic}.{ins.opcode.ptx_type} {args};\\n\\t"')
    lines.append('"}"')
    lines.append(": " + ", ".join(f'"=r"(y[{i}])' for i in range(fn.out_words)))
    lines.append(": " + ", ".join(f'"r"(x[{i}])' for i in range(fn.in_words)))
    return lines
