"""Rendering: the two printers of an instruction list, and the files around them.

`ptx_body` prints a Function as inline PTX for the device; `host_body` prints the
same list as C++ calls that reproduce PTX's carry flag. Jinja2 templates in
`templates/` hold everything else in the generated files.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import jinja2

from . import __version__
from .ir import OPCODES, Function, Instr, Operand
from .ops import Operation
from .request import Request
from .size import Size, limbs_for

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def _ptx_operand(o: Operand, slot: int) -> str:
    return str(o) if isinstance(o, int) else f"%{slot}"


def ptx_line(ins: Instr) -> str:
    regs = [s for s in ins.srcs if not isinstance(s, int)]
    args, slot = ["%0"], 1
    for s in ins.srcs:
        args.append(_ptx_operand(s, slot))
        slot += not isinstance(s, int)
    inputs = ", ".join(f'"r"({r})' for r in regs)
    op = ins.opcode
    return (f'asm volatile("{op.mnemonic}.{op.ptx_type} {", ".join(args)};" '
            f': "=r"({ins.dst}) : {inputs});')


def host_line(ins: Instr) -> str:
    args = [f"{s}u" if isinstance(s, int) else str(s) for s in ins.srcs]
    if ins.opcode.carry_in or ins.opcode.carry_out:
        args.insert(0, "cf")
    return f"{ins.dst} = {ins.opcode.host_name}({', '.join(args)});"


@dataclass
class PlannedOp:
    op: Operation
    fn: Function
    operand_bits: tuple[int, ...]
    result_limbs: int

    @property
    def operand_limbs(self) -> list[int]:
        return [limbs_for(b) for b in self.operand_bits]

    @property
    def ptx(self) -> list[str]:
        return [ptx_line(i) for i in self.fn.body]

    @property
    def host(self) -> list[str]:
        return [host_line(i) for i in self.fn.body]

    @property
    def uses_carry(self) -> bool:
        return any(i.opcode.carry_in or i.opcode.carry_out for i in self.fn.body)


def plan(size: Size, ops: list[Operation]) -> list[PlannedOp]:
    return [PlannedOp(op, op.plan(size), op.operand_bits(size), op.result_limbs(size)) for op in ops]


def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                              undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                              trim_blocks=True, lstrip_blocks=True)


def render_files(request: Request) -> dict[str, str]:
    """File name -> contents, for a request already validated."""
    env = _environment()
    files = {}
    for size, ops in request:
        files[f"mpgen_{size.name}.cuh"] = env.get_template("size.cuh.j2").render(
            version=__version__, size=size, ops=plan(size, ops), opcodes=OPCODES.values())
    files["mpgen_sizes.cmake"] = env.get_template("sizes.cmake.j2").render(
        version=__version__, sizes=[size for size, _ in request])
    return files
