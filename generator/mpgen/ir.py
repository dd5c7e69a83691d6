"""The instruction list: straight-line carry-chain code over words of 32 bits (the GPU's)
or 64 (the host's 64-bit rendering), with PTX's semantics at either width.

Every operation is planned as one `Function`: words in (`x`), words out (`y`),
temporaries (`t`) and a list of `Instr` whose opcodes are PTX mnemonics. The
renderers print it (inline PTX for the device, C++ for the host) and `execute`
runs it here, all with the carry flag semantics defined in `OPCODES`, at the
function's word width.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Union

WORD_BITS = (32, 64)  # the widths a list may be planned at: the GPU's words, the host's
MASK = 0xFFFFFFFF  # a 32-bit word's ones (the GPU's lists and their constants)


def mask(width: int) -> int:
    """A word's ones at a width of WORD_BITS."""
    return (1 << width) - 1


@dataclass(frozen=True)
class Reg:
    bank: str  # "x" input word, "y" output word, "t" temporary
    index: int

    def __str__(self) -> str:
        return f"{self.bank}[{self.index}]"


Operand = Union[Reg, int]  # an int is an immediate of the word's width


@dataclass(frozen=True)
class Opcode:
    mnemonic: str  # PTX, without the type suffix
    ptx_type: str  # "u32" or "b32" (at 32 bits)
    sources: int
    carry_in: bool
    carry_out: bool
    # (w, sources..., carry) -> full-width value at word width w; its low w bits are the
    # result, bit w the carry
    value: Callable[..., int]
    # the same in C++ over `wide` a, b, d (sources) and k (carry in), W the word's bits:
    # `wide` twice the word (uint64_t for 32-bit words, unsigned __int128 for 64)
    cpp_template: str

    @property
    def host_name(self) -> str:
        return "ptx_" + self.mnemonic.replace(".", "_")

    @property
    def chain_kind(self) -> str | None:
        """A carry chain step's kind ("add", "sub", "mad.lo", "mad.hi": chained's first
        argument), else None."""
        if not (self.carry_in or self.carry_out):
            return None
        head, _, tail = self.mnemonic.removesuffix(".cc").partition(".")
        if self.carry_in:
            head = head.removesuffix("c")  # addc -> add, madc -> mad
        return head + ("." + tail if tail else "")

    def cpp(self, width: int = 32) -> str:
        return self.cpp_template.replace("W", str(width))


def _opcodes() -> list[Opcode]:
    table = [
        Opcode("mov", "b32", 1, False, False, lambda w, a, k: a, "a"),
        Opcode("not", "b32", 1, False, False, lambda w, a, k: ~a & mask(w), "~a"),
        Opcode("and", "b32", 2, False, False, lambda w, a, b, k: a & b, "a & b"),
        Opcode("or", "b32", 2, False, False, lambda w, a, b, k: a | b, "a | b"),
        Opcode("xor", "b32", 2, False, False, lambda w, a, b, k: a ^ b, "a ^ b"),
        Opcode("shl", "b32", 2, False, False, lambda w, a, b, k: (a << b) & mask(w), "a << b"),
        Opcode("shr", "b32", 2, False, False, lambda w, a, b, k: a >> b, "a >> b"),
        # funnel shifts of the pair high:low (a low, b high) by min(d, w)
        Opcode("shf.l.clamp", "b32", 3, False, False,
               lambda w, a, b, d, k: (((b << w) | a) << min(d, w)) >> w,
               "(((b << W) | a) << (d < W ? d : W)) >> W"),
        Opcode("shf.r.clamp", "b32", 3, False, False,
               lambda w, a, b, d, k: (((b << w) | a) >> min(d, w)) & mask(w),
               "((b << W) | a) >> (d < W ? d : W)"),
        Opcode("clz", "b32", 1, False, False, lambda w, a, k: w - a.bit_length(),
               "a ? count_leading_zeros(a) : W"),
        Opcode("popc", "b32", 1, False, False, lambda w, a, k: bin(a).count("1"),
               "count_ones(a)"),
        Opcode("brev", "b32", 1, False, False, lambda w, a, k: int(f"{a:0{w}b}"[::-1], 2),
               "bit_reverse(a)"),
        Opcode("mul.lo", "u32", 2, False, False, lambda w, a, b, k: (a * b) & mask(w), "a * b"),
        Opcode("mul.hi", "u32", 2, False, False, lambda w, a, b, k: (a * b) >> w, "(a * b) >> W"),
    ]
    for cin in (False, True):
        for cout in (False, True):
            table += [
                Opcode(chained("add", cin, cout), "u32", 2, cin, cout,
                       lambda w, a, b, k: a + b + k, "a + b + k"),
                # the borrow lands in bit w as PTX's CC.CF does
                Opcode(chained("sub", cin, cout), "u32", 2, cin, cout,
                       lambda w, a, b, k: (a - b - k) & ((2 << w) - 1), "a - b - k"),
                Opcode(chained("mad.lo", cin, cout), "u32", 3, cin, cout,
                       lambda w, a, b, d, k: ((a * b) & mask(w)) + d + k, "((a * b) & word_mask) + d + k"),
                Opcode(chained("mad.hi", cin, cout), "u32", 3, cin, cout,
                       lambda w, a, b, d, k: ((a * b) >> w) + d + k, "((a * b) >> W) + d + k"),
            ]
    return table


def chained(kind: str, carry_in: bool, carry_out: bool) -> str:
    """PTX mnemonic of a chain step: chained("mad.hi", True, True) == "madc.hi.cc"."""
    head, _, tail = kind.partition(".")
    return head + ("c" if carry_in else "") + ("." + tail if tail else "") + (".cc" if carry_out else "")


OPCODES: dict[str, Opcode] = {op.mnemonic: op for op in _opcodes()}


# The carry flags a chain may run through: PTX's CC.CF, and for the host's 64-bit lists a
# second one (x86-64's OF, which adox chains beside adcx's CF), so that two chains
# interleave without waiting on each other.
FLAGS = ("cf", "of")


@dataclass(frozen=True)
class Instr:
    opcode: Opcode
    dst: Reg
    srcs: tuple[Operand, ...]
    flag: str = "cf"  # the flag its carry comes from and goes to (a chain step's)


@dataclass
class Function:
    """One operation at one size: y = f(x), as straight-line code over words of word_bits."""

    name: str
    in_words: int
    out_words: int
    temps: int = 0
    body: list[Instr] = field(default_factory=list)
    word_bits: int = 32
    # The list the x86-64 printer prints (64-bit words): its adcx and adox run two carry
    # chains at speed, so products sum by rows (ops/rows.py) where C++ sums them by columns.
    x86: bool = False

    @property
    def mask(self) -> int:
        return mask(self.word_bits)

    def emit(self, mnemonic: str, dst: Reg, *srcs: Operand, flag: str = "cf") -> None:
        opcode = OPCODES[mnemonic]
        assert len(srcs) == opcode.sources, (mnemonic, srcs)
        assert flag == "cf" or (self.word_bits == 64 and opcode.chain_kind), (mnemonic, flag)
        self.body.append(Instr(opcode, dst, tuple(srcs), flag))

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

    @property
    def flags(self) -> list[str]:
        """The carry flags its chains use, in FLAGS' order."""
        used = {i.flag for i in self.body if i.opcode.chain_kind}
        return [f for f in FLAGS if f in used]

    def temp(self) -> Reg:
        self.temps += 1
        return Reg("t", self.temps - 1)

    def temps_list(self, count: int) -> list[Reg]:
        return [self.temp() for _ in range(count)]

    def check(self) -> None:
        """Every carry read has a carry written before it, within the list (each flag's)."""
        live = {f: False for f in FLAGS}
        for ins in self.body:
            if ins.opcode.carry_in and not live[ins.flag]:
                raise ValueError(f"{self.name}: {ins.opcode.mnemonic} reads a carry nobody set")
            if ins.opcode.carry_in or ins.opcode.carry_out:
                live[ins.flag] = ins.opcode.carry_out


def execute(fn: Function, x: list[int]) -> list[int]:
    """Runs the list on its words with PTX's carry semantics (for the generator's tests)."""
    assert len(x) == fn.in_words
    banks = {"x": list(x), "y": [0] * fn.out_words, "t": [0] * fn.temps}
    carry = {f: 0 for f in FLAGS}

    def read(o: Operand) -> int:
        return o if isinstance(o, int) else banks[o.bank][o.index]

    w, ones = fn.word_bits, fn.mask
    for ins in fn.body:
        full = ins.opcode.value(w, *(read(s) for s in ins.srcs), carry[ins.flag] if ins.opcode.carry_in else 0)
        banks[ins.dst.bank][ins.dst.index] = full & ones
        if ins.opcode.carry_out:
            carry[ins.flag] = (full >> w) & 1
    return banks["y"]
