"""The instruction list: straight-line 32-bit carry-chain code, PTX's semantics.

Every operation is planned as one `Function`: words in (`x`), words out (`y`),
temporaries (`t`) and a list of `Instr` whose opcodes are PTX mnemonics. The
renderers print it (inline PTX for the device, C++ for the host) and `execute`
runs it here, all with the carry flag semantics defined in `OPCODES`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Union

MASK = 0xFFFFFFFF


@dataclass(frozen=True)
class Reg:
    bank: str  # "x" input word, "y" output word, "t" temporary
    index: int

    def __str__(self) -> str:
        return f"{self.bank}[{self.index}]"


Operand = Union[Reg, int]  # an int is a 32-bit immediate


@dataclass(frozen=True)
class Opcode:
    mnemonic: str  # PTX, without the type suffix
    ptx_type: str  # "u32" or "b32"
    sources: int
    carry_in: bool
    carry_out: bool
    # (sources..., carry) -> full-width value; low 32 bits are the result, bit 32 the carry
    value: Callable[..., int]
    # the same in C++ over uint64_t a, b, d (sources) and k (carry in), for the host
    cpp: str

    @property
    def host_name(self) -> str:
        return "ptx_" + self.mnemonic.replace(".", "_")


def _lo(a: int, b: int) -> int:
    return (a * b) & MASK


def _hi(a: int, b: int) -> int:
    return (a * b) >> 32


def _opcodes() -> list[Opcode]:
    table = [
        Opcode("mov", "b32", 1, False, False, lambda a, k: a, "a"),
        Opcode("not", "b32", 1, False, False, lambda a, k: ~a & MASK, "~a"),
        Opcode("and", "b32", 2, False, False, lambda a, b, k: a & b, "a & b"),
        Opcode("or", "b32", 2, False, False, lambda a, b, k: a | b, "a | b"),
        Opcode("xor", "b32", 2, False, False, lambda a, b, k: a ^ b, "a ^ b"),
        Opcode("shl", "b32", 2, False, False, lambda a, b, k: (a << b) & MASK, "a << b"),
        Opcode("shr", "b32", 2, False, False, lambda a, b, k: a >> b, "a >> b"),
        # funnel shifts of the pair high:low (a low, b high) by min(d, 32)
        Opcode("shf.l.clamp", "b32", 3, False, False,
               lambda a, b, d, k: (((b << 32) | a) << min(d, 32)) >> 32,
               "(((b << 32) | a) << (d < 32 ? d : 32)) >> 32"),
        Opcode("shf.r.clamp", "b32", 3, False, False,
               lambda a, b, d, k: (((b << 32) | a) >> min(d, 32)) & MASK,
               "((b << 32) | a) >> (d < 32 ? d : 32)"),
        Opcode("clz", "b32", 1, False, False, lambda a, k: 32 - a.bit_length(),
               "a ? __builtin_clz(uint32_t(a)) : 32"),
        Opcode("popc", "b32", 1, False, False, lambda a, k: bin(a).count("1"),
               "__builtin_popcount(uint32_t(a))"),
        Opcode("brev", "b32", 1, False, False, lambda a, k: int(f"{a:032b}"[::-1], 2),
               "bit_reverse(uint32_t(a))"),
        Opcode("mul.lo", "u32", 2, False, False, lambda a, b, k: _lo(a, b), "a * b"),
        Opcode("mul.hi", "u32", 2, False, False, lambda a, b, k: _hi(a, b), "(a * b) >> 32"),
    ]
    for cin in (False, True):
        for cout in (False, True):
            table += [
                Opcode(chained("add", cin, cout), "u32", 2, cin, cout,
                       lambda a, b, k: a + b + k, "a + b + k"),
                # the borrow lands in bit 32 as PTX's CC.CF does
                Opcode(chained("sub", cin, cout), "u32", 2, cin, cout,
                       lambda a, b, k: (a - b - k) & ((1 << 33) - 1), "a - b - k"),
                Opcode(chained("mad.lo", cin, cout), "u32", 3, cin, cout,
                       lambda a, b, d, k: _lo(a, b) + d + k, "((a * b) & 0xffffffffu) + d + k"),
                Opcode(chained("mad.hi", cin, cout), "u32", 3, cin, cout,
                       lambda a, b, d, k: _hi(a, b) + d + k, "((a * b) >> 32) + d + k"),
            ]
    return table


def chained(kind: str, carry_in: bool, carry_out: bool) -> str:
    """PTX mnemonic of a chain step: chained("mad.hi", True, True) == "madc.hi.cc"."""
    head, _, tail = kind.partition(".")
    return head + ("c" if carry_in else "") + ("." + tail if tail else "") + (".cc" if carry_out else "")


OPCODES: dict[str, Opcode] = {op.mnemonic: op for op in _opcodes()}


@dataclass(frozen=True)
class Instr:
    opcode: Opcode
    dst: Reg
    srcs: tuple[Operand, ...]


@dataclass
class Function:
    """One operation at one size: y = f(x), as straight-line code."""

    name: str
    in_words: int
    out_words: int
    temps: int = 0
    body: list[Instr] = field(default_factory=list)

    def emit(self, mnemonic: str, dst: Reg, *srcs: Operand) -> None:
        opcode = OPCODES[mnemonic]
        assert len(srcs) == opcode.sources, (mnemonic, srcs)
        self.body.append(Instr(opcode, dst, tuple(srcs)))

    def chain(self, kind: str, steps: list[tuple[Reg, tuple[Operand, ...]]],
              carry_in: bool = False, carry_out: bool = True) -> None:
        """One carry chain: each step feeds its carry to the next."""
        self.chain_of([(kind, dst, srcs) for dst, srcs in steps], carry_in, carry_out)

    def chain_of(self, steps: list[tuple[str, Reg, tuple[Operand, ...]]],
                 carry_in: bool = False, carry_out: bool = True) -> None:
        """One carry chain of steps of different kinds ("mad.lo", "mad.hi", ...)."""
        for i, (kind, dst, srcs) in enumerate(steps):
            last = i == len(steps) - 1
            self.emit(chained(kind, carry_in or i > 0, carry_out or not last), dst, *srcs)

    def temp(self) -> Reg:
        self.temps += 1
        return Reg("t", self.temps - 1)

    def temps_list(self, count: int) -> list[Reg]:
        return [self.temp() for _ in range(count)]

    def check(self) -> None:
        """Every carry read has a carry written before it, within the list."""
        live = False
        for ins in self.body:
            if ins.opcode.carry_in and not live:
                raise ValueError(f"{self.name}: {ins.opcode.mnemonic} reads a carry nobody set")
            if ins.opcode.carry_in or ins.opcode.carry_out:
                live = ins.opcode.carry_out


def execute(fn: Function, x: list[int]) -> list[int]:
    """Runs the list on 32-bit words with PTX's carry semantics (for the generator's tests)."""
    assert len(x) == fn.in_words
    banks = {"x": list(x), "y": [0] * fn.out_words, "t": [0] * fn.temps}
    carry = 0

    def read(o: Operand) -> int:
        return o if isinstance(o, int) else banks[o.bank][o.index]

    for ins in fn.body:
        full = ins.opcode.value(*(read(s) for s in ins.srcs), carry if ins.opcode.carry_in else 0)
        banks[ins.dst.bank][ins.dst.index] = full & MASK
        if ins.opcode.carry_out:
            carry = (full >> 32) & 1
    return banks["y"]
