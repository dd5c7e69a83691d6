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

    assert fn.flags in ([], ["cf"]), f"{fn.name}: PTX has one carry flag"
    written: set[int] = set()
    clobbered = False  # an input read after an output was written
    lines = ['"{\\n\\t"']
    if fn.temps:
        lines.append(f'".reg .u32 t<{fn.temps}>;\\n\\t"')
    for ins in fn.body:
        read = [s.index for s in ins.srcs if isinstance(s, Reg) and s.bank == "y"]
        assert written.issuperset(read), f"{fn.name}: an output is read before it is written"
        clobbered |= bool(written) and any(isinstance(s, Reg) and s.bank == "x" for s in ins.srcs)
        if ins.dst.bank == "y":
            written.add(ins.dst.index)
        args = ", ".join(name(o) for o in (ins.dst, *ins.srcs))
        lines.append(f'"{ins.opcode.mnemonic}.{ins.opcode.ptx_type} {args};\\n\\t"')
    lines.append('"}"')
    # Outputs written before the last input is read are early-clobber ("=&r"): the compiler
    # may otherwise give an output the register of an input that dies at the statement.
    output = '"=&r"' if clobbered else '"=r"'
    lines.append(": " + ", ".join(f'{output}(y[{i}])' for i in range(fn.out_words)))
    lines.append(": " + ", ".join(f'"r"(x[{i}])' for i in range(fn.in_words)))
    return lines
