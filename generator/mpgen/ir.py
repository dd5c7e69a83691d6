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
from functools import lru_cache
from typing import Callable, Union

WORD_BITS = (32, 64)  # the widths a list may be planned at: the GPU's words, the host's
# A toy width, at which the lists of the planners written for any width (ANY_WIDTH) run on
# every input of a few limbs (tests/python/test_toy_widths.py).
TOY_BITS = 4
ANY_WIDTH = (TOY_BITS,) + WORD_BITS
GPU_AND_TOY = (TOY_BITS, 32)  # planners written for any width but not yet rendered at the host's 64
MASK = 0xFFFFFFFF  # a 32-bit word's ones (the GPU's lists and their constants)


def mask(width: int) -> int:
    """A word's ones at a width of ANY_WIDTH."""
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
    # The full-width value as a Python expression over the sources {a}, {b}, {d} and the
    # carry in {k}, at word width {W} with the word's ones {M}: its low W bits are the
    # result, bit W the carry. `execute` runs it (by `python`).
    python_template: str
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

    def python(self, width: int, sources: tuple[str, ...], carry: str) -> str:
        """The value as Python at `width` over the sources' and the carry's expressions."""
        return "(" + self.python_template.format(**dict(zip("abd", sources)), k=carry, W=width, M=mask(width)) + ")"


def _opcodes() -> list[Opcode]:
    table = [
        Opcode("mov", "b32", 1, False, False, "{a}", "a"),
        Opcode("not", "b32", 1, False, False, "~{a} & {M}", "~a"),
        Opcode("and", "b32", 2, False, False, "{a} & {b}", "a & b"),
        Opcode("or", "b32", 2, False, False, "{a} | {b}", "a | b"),
        Opcode("xor", "b32", 2, False, False, "{a} ^ {b}", "a ^ b"),
        Opcode("shl", "b32", 2, False, False, "({a} << {b}) & {M}", "a << b"),
        Opcode("shr", "b32", 2, False, False, "{a} >> {b}", "a >> b"),
        # funnel shifts of the pair high:low (a low, b high) by min(d, w)
        Opcode("shf.l.clamp", "b32", 3, False, False, "((({b} << {W}) | {a}) << min({d}, {W})) >> {W}",
               "(((b << W) | a) << (d < W ? d : W)) >> W"),
        Opcode("shf.r.clamp", "b32", 3, False, False, "((({b} << {W}) | {a}) >> min({d}, {W})) & {M}",
               "((b << W) | a) >> (d < W ? d : W)"),
        Opcode("clz", "b32", 1, False, False, "{W} - {a}.bit_length()", "a ? count_leading_zeros(a) : W"),
        Opcode("popc", "b32", 1, False, False, "{a}.bit_count()", "count_ones(a)"),
        # the W bits after bin()'s "0b1" (the 1 a marker above them), last first
        Opcode("brev", "b32", 1, False, False, "int(bin({a} | 1 << {W})[:2:-1], 2)", "bit_reverse(a)"),
        Opcode("mul.lo", "u32", 2, False, False, "({a} * {b}) & {M}", "a * b"),
        Opcode("mul.hi", "u32", 2, False, False, "({a} * {b}) >> {W}", "(a * b) >> W"),
    ]
    for cin in (False, True):
        for cout in (False, True):
            table += [
                Opcode(chained("add", cin, cout), "u32", 2, cin, cout, "{a} + {b} + {k}", "a + b + k"),
                # the borrow lands in bit w as PTX's CC.CF does
                Opcode(chained("sub", cin, cout), "u32", 2, cin, cout, "({a} - {b} - {k}) & ((2 << {W}) - 1)",
                       "a - b - k"),
                Opcode(chained("mad.lo", cin, cout), "u32", 3, cin, cout, "(({a} * {b}) & {M}) + {d} + {k}",
                       "((a * b) & word_mask) + d + k"),
                Opcode(chained("mad.hi", cin, cout), "u32", 3, cin, cout, "(({a} * {b}) >> {W}) + {d} + {k}",
                       "((a * b) >> W) + d + k"),
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
    # Planned by the host's plans (size.Target.host_plans): products by columns, two carry chains.
    host_plans: bool = False
    # The list the x86-64 printer prints (64-bit words): its adcx and adox run two carry
    # chains at speed, so products sum by rows (thread/rows.py) where C++ sums them by columns.
    x86: bool = False
    # execute's: how often the list ran, and the Python it compiled to (with the length
    # of the body it was compiled from)
    runs: int = field(default=0, init=False, repr=False, compare=False)
    python: tuple[int, Callable[[list[int]], list[int]]] | None = \
        field(default=None, init=False, repr=False, compare=False)

    @property
    def mask(self) -> int:
        return mask(self.word_bits)

    def emit(self, mnemonic: str, dst: Reg, *srcs: Operand, flag: str = "cf") -> None:
        opcode = OPCODES[mnemonic]
        assert len(srcs) == opcode.sources, (mnemonic, srcs)
        assert flag == "cf" or (self.host_plans and opcode.chain_kind), (mnemonic, flag)
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


# A list runs interpreted its first COMPILE_AFTER times, then as one Python function compiled
# from it: about 10x faster (a 1024-bit Barrett product, 7,328 instructions: 8.6 ms
# interpreted), where compiling costs about 40 interpreted runs; the generator's tests run
# most lists thousands of times, many others a few times.
COMPILE_AFTER = 16


def execute(fn: Function, x: list[int]) -> list[int]:
    """Runs the list on its words with PTX's carry semantics (for the generator's tests)."""
    assert len(x) == fn.in_words
    fn.runs += 1
    if fn.runs <= COMPILE_AFTER:
        return _interpret(fn, x)
    if fn.python is None or fn.python[0] != len(fn.body):
        fn.python = (len(fn.body), _compile(fn))
    return fn.python[1](x)


@lru_cache(maxsize=None)
def _values(width: int) -> dict[str, Callable[..., int]]:
    """Each opcode's value at `width`, a function of its sources and the carry in."""
    def value(op: Opcode) -> Callable[..., int]:
        sources = tuple("abd"[:op.sources])
        return eval(f"lambda {', '.join(sources)}, k: {op.python(width, sources, 'k')}")
    return {op.mnemonic: value(op) for op in OPCODES.values()}


def _interpret(fn: Function, x: list[int]) -> list[int]:
    banks = {"x": list(x), "y": [0] * fn.out_words, "t": [0] * fn.temps}
    carry = dict.fromkeys(FLAGS, 0)
    w, ones, values = fn.word_bits, fn.mask, _values(fn.word_bits)
    for ins in fn.body:
        sources = [s if isinstance(s, int) else banks[s.bank][s.index] for s in ins.srcs]
        full = values[ins.opcode.mnemonic](*sources, carry[ins.flag] if ins.opcode.carry_in else 0)
        banks[ins.dst.bank][ins.dst.index] = full & ones
        if ins.opcode.carry_out:
            carry[ins.flag] = (full >> w) & 1
    return banks["y"]


def _compile(fn: Function) -> Callable[[list[int]], list[int]]:
    """The list as a Python function of x, its words local variables (x3 for x[3]): a
    statement or two an instruction."""
    def name(r: Reg) -> str:
        return f"{r.bank}{r.index}"
    w, ones = fn.word_bits, fn.mask
    lines = ["def run(x):", " " + "".join(f"x{i}, " for i in range(fn.in_words)) + "= x" if fn.in_words else "",
             " " + " = ".join([f"y{i}" for i in range(fn.out_words)] + [f"t{i}" for i in range(fn.temps)] +
                              ["cf = of = 0"])]
    for ins in fn.body:
        sources = tuple(f"({s})" if isinstance(s, int) else name(s) for s in ins.srcs)
        value = ins.opcode.python(w, sources, ins.flag if ins.opcode.carry_in else "0")
        if ins.opcode.carry_out:
            lines += [f" v = {value}", f" {name(ins.dst)} = v & {ones}", f" {ins.flag} = v >> {w} & 1"]
        else:
            lines.append(f" {name(ins.dst)} = {value} & {ones}")
    lines.append(f" return [{', '.join(f'y{i}' for i in range(fn.out_words))}]")
    scope: dict = {}
    exec(compile("\n".join(lines), f"<{fn.name}>", "exec"), scope)
    return scope["run"]
