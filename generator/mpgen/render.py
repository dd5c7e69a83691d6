"""Rendering: the two printers of an instruction list, and the files around them.

`ptx_asm` prints a function as one inline PTX statement for the device; `host_line` prints
it as a C++ call that reproduces PTX's carry flag, and `host_step` as a step of
the host's interpreter (for very long lists). Jinja2 templates in
`templates/` hold everything else in the generated files.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import jinja2

from . import __version__
from .field import Field, to_words
from .ir import OPCODES, Function, Instr, Operand, Reg
from .ops import MODULAR_OPERATIONS, Operation, modular
from .ops.powers import LoopOperation, domain_one, domain_operations, in_domain, \
    montgomery_domain, root_exponent, root_of_unity, scans_table, window_bits
from .request import Request
from .size import Size, limbs_for

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def ptx_asm(fn: Function) -> list[str]:
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


# Above this many instructions the host runs a function from a table of steps: g++
# takes minutes over one straight-line function of a 2048-bit product. Up to it, the
# 17-limb Montgomery products (1,300 instructions) compile in about 2 s each and run
# 7x faster than interpreted (1.05 against 7.6 us on the dev machine, g++ -O2).
HOST_COMPILED_MAX = 1500
_BANK_CODES = {"x": 0, "y": 1, "t": 2}
_IMMEDIATE = 3
_OPCODE_NUMBERS = {mnemonic: k for k, mnemonic in enumerate(OPCODES)}


def host_step(ins: Instr) -> str:
    """The 5 words of one step of the host's interpreter (format: templates/prelude)."""
    srcs = list(ins.srcs) + [0] * (3 - len(ins.srcs))
    head = _OPCODE_NUMBERS[ins.opcode.mnemonic] | _BANK_CODES[ins.dst.bank] << 8
    words = [ins.dst.index]
    for k, o in enumerate(srcs):
        head |= (_IMMEDIATE if isinstance(o, int) else _BANK_CODES[o.bank]) << (10 + 2 * k)
        words.append(o if isinstance(o, int) else o.index)
    return ",".join(map(str, [head] + words)) + ","


def host_line(ins: Instr, read: set[Reg]) -> str:
    """A C++ statement; a result nobody reads (a step that only sets the carry) is dropped."""
    args = [f"{s}u" if isinstance(s, int) else str(s) for s in ins.srcs]
    if ins.opcode.carry_in or ins.opcode.carry_out:
        args.insert(0, "cf")
    call = f"{ins.opcode.host_name}({', '.join(args)});"
    return call if ins.dst.bank == "t" and ins.dst not in read else f"{ins.dst} = {call}"


@dataclass
class PlannedOp:
    op: Operation
    fn: Function
    operand_bits: tuple[int, ...]
    result_limbs: int
    loop = False

    @property
    def in_words(self) -> int:
        return self.fn.in_words

    @property
    def out_words(self) -> int:
        return self.fn.out_words

    @property
    def operand_limbs(self) -> list[int]:
        return [limbs_for(b) for b in self.operand_bits]

    @property
    def ptx(self) -> list[str]:
        return ptx_asm(self.fn)

    @property
    def read_temps(self) -> bool:
        return any(isinstance(s, Reg) and s.bank == "t" for i in self.fn.body for s in i.srcs)

    @property
    def host(self) -> list[str]:
        read = {s for i in self.fn.body for s in i.srcs if isinstance(s, Reg)}
        return [host_line(i, read) for i in self.fn.body]

    @property
    def host_table(self) -> list[str]:
        """The steps for the host's interpreter, for long lists only."""
        if len(self.fn.body) <= HOST_COMPILED_MAX:
            return []
        return [host_step(i) for i in self.fn.body]

    @property
    def multiplies(self) -> int:
        """32-bit multiply halves (mul/mad .lo/.hi): what the multiply-add ceiling counts."""
        return sum(i.opcode.mnemonic.startswith(("mul.", "mad")) for i in self.fn.body)

    @property
    def uses_carry(self) -> bool:
        return any(i.opcode.carry_in or i.opcode.carry_out for i in self.fn.body)


@dataclass
class PlannedLoop:
    """A loop operation: C++ around generated operations, no instruction list of its own."""
    op: LoopOperation
    operand_bits: tuple[int, ...]
    result_limbs: int
    loop = True
    multiplies = 0  # its products are counted in the operations it calls

    @property
    def operand_limbs(self) -> list[int]:
        return [limbs_for(b) for b in self.operand_bits]

    @property
    def in_words(self) -> int:
        return sum(self.operand_limbs)

    @property
    def out_words(self) -> int:
        return self.result_limbs + self.op.flag


def below_modulus(planned, size: Size) -> int:
    """Bit k set where operand k must be below the modulus (fields only)."""
    return modular.below_modulus(planned.op, size) if isinstance(size, Field) else 0


def with_needs(size: Size, ops: list) -> list:
    """ops, each loop operation preceded by the generated operations it calls."""
    named: dict[str, object] = {}
    for op in ops:
        if isinstance(op, LoopOperation):
            for name in op.needs(size):
                named.setdefault(name, MODULAR_OPERATIONS[name])
        named.setdefault(op.name, op)
    return list(named.values())


def plan(size: Size, ops: list) -> list:
    return [PlannedLoop(op, op.operand_bits(size), op.result_limbs(size))
            if isinstance(op, LoopOperation) else
            PlannedOp(op, op.plan(size), op.operand_bits(size), op.result_limbs(size))
            for op in with_needs(size, ops)]


def loop_domain(field, names: set[str]) -> dict:
    """What the field header's loop_domain says: the products the loops call (where
    generated), and the constants they need, in the loops' form."""
    ops = domain_operations(field)
    domain = {"montgomery": montgomery_domain(field), "ops": ops, "window_bits": window_bits(field),
              "scans_table": scans_table(field),
              "products": names.issuperset(ops), "one": field.words(domain_one(field))}
    if field.modulus % 2 and field.prime:
        exponent = root_exponent(field)
        domain.update(fermat_exponent=field.modulus - 2, fermat_exponent_words=to_words(field.modulus - 2),
                      root_exponent_bits=max(1, exponent.bit_length()),
                      root_exponent_words=to_words(exponent, limbs_for(max(1, exponent.bit_length()))),
                      root_of_unity=field.words(in_domain(field, root_of_unity(field))))
    return domain


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["hex_word"] = lambda w: f"{w:#010x}u"
    return env


def render_files(request: Request, kernels: bool = False) -> dict[str, str]:
    """File name -> contents, for a request already validated; with kernels, also a
    source of C-named kernels and a manifest per size, for loading at run time."""
    env = _environment()
    files = {}
    for size, ops in request:
        planned = plan(size, ops)
        files[f"mpgen_{size.name}.cuh"] = env.get_template("size.cuh.j2").render(
            version=__version__, size=size, ops=planned, opcodes=OPCODES.values(),
            below_modulus=lambda p: below_modulus(p, size),
            domain=loop_domain(size, {p.op.name for p in planned})
            if any(p.loop for p in planned) else None)
        if kernels:
            files[f"mpgen_{size.name}_kernels.cu"] = env.get_template("kernels.cu.j2").render(
                version=__version__, size=size, ops=planned,
                below_modulus=lambda p: below_modulus(p, size))
    files["mpgen_sizes.cmake"] = env.get_template("sizes.cmake.j2").render(
        version=__version__, sizes=[size for size, _ in request])
    return files
