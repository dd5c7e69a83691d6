"""The host printer: an instruction list as C++ with PTX's carry semantics, over the
list's words (32-bit: the GPU's own lists; 64-bit: the host's 64-bit lists, host64).

Up to HOST_COMPILED_MAX instructions (for its width) a list prints as C++ statements, one
call of a per-instruction function each; above, a 32-bit list prints as a table of steps
that a small interpreter runs through the same functions (a 64-bit list that long is not
printed). A 32-bit list whose operation has a 64-bit list prints as steps at any length:
the host runs the 64-bit one, and the 32-bit one there only checks the GPU's list, which
compiled took two thirds of a built-in size's host compile (u521: 11.5 s against 3.7 s).
The step format is defined here once: `steps` encodes it and `model` prints the
C++ that decodes it (templates/ptx_host.cuh.j2).
"""
from __future__ import annotations

from ..ir import OPCODES, Function, Instr, Reg

# Above this many instructions the host runs a function from a table of steps: g++
# takes minutes over one straight-line function of a 2048-bit product. Up to it, the
# 17-limb Montgomery products (1,300 instructions) compile in about 2 s each and run
# 7x faster than interpreted (1.05 against 7.6 us on the dev machine, g++ -O2). The 64-bit
# lists have a quarter of the products: up to 6,000 takes in the 2048-bit integer products
# (5,300 at most) and the 1024-bit fields' (modmul 5,316), which g++ -O1 compiles in about
# 2 s each (against minutes for a 32-bit list that long: its chains are four times longer).
HOST_COMPILED_MAX = {32: 1500, 64: 6000}

# A step is STEP_WORDS words: opcode | dst bank << DST_BANK_SHIFT | source k's bank <<
# (SRC_BANK_SHIFT + 2k), then the destination's index and the three sources' indices or
# immediates.
STEP_WORDS = 5
DST_BANK_SHIFT = 8
SRC_BANK_SHIFT = 10
BANK_CODES = {"x": 0, "y": 1, "t": 2}
IMMEDIATE = 3
_OPCODE_NUMBERS = {mnemonic: k for k, mnemonic in enumerate(OPCODES)}


def compiled(fn: Function, beside_host64: bool = False) -> bool:
    """Whether fn prints as statements; `beside_host64`: its operation has a 64-bit list."""
    if beside_host64 and _steps_hold(fn):
        return False
    return len(fn.body) <= HOST_COMPILED_MAX[fn.word_bits]


def _steps_hold(fn: Function) -> bool:
    """The step format holds 32-bit lists with at most one carry flag."""
    return fn.word_bits == 32 and fn.flags in ([], ["cf"])


def _step(ins: Instr) -> str:
    srcs = list(ins.srcs) + [0] * (3 - len(ins.srcs))
    head = _OPCODE_NUMBERS[ins.opcode.mnemonic] | BANK_CODES[ins.dst.bank] << DST_BANK_SHIFT
    words = [ins.dst.index]
    for k, o in enumerate(srcs):
        code = IMMEDIATE if isinstance(o, int) else BANK_CODES[o.bank]
        head |= code << (SRC_BANK_SHIFT + 2 * k)
        words.append(o if isinstance(o, int) else o.index)
    return ",".join(map(str, [head] + words)) + ","


def _statement(ins: Instr, read: set[Reg], word_bits: int) -> str:
    """A C++ statement; a result nobody reads (a step that only sets the carry) is dropped.
    A 64-bit chain step into y writes its word through a pointer (the _to form: the
    intrinsics then store straight to it, ptx_host.cuh.j2); into t it keeps the value
    form, which leaves t in registers (through a pointer a 1024-bit product by columns
    took 113-152 ns against 88)."""
    args = [f"{s}u" if isinstance(s, int) else str(s) for s in ins.srcs]
    if ins.opcode.carry_in or ins.opcode.carry_out:
        args.insert(0, ins.flag)
    dropped = ins.dst.bank == "t" and ins.dst not in read
    if word_bits == 64 and ins.opcode.chain_kind and ins.dst.bank == "y":
        args.insert(1, f"&{ins.dst}")
        return f"{ins.opcode.host_name}_to({', '.join(args)});"
    call = f"{ins.opcode.host_name}({', '.join(args)});"
    return call if dropped else f"{ins.dst} = {call}"


def function(fn: Function, beside_host64: bool = False) -> list[str]:
    """The body of `host(y, x)` (of host64(y, x) for a 64-bit list), as lines of C++."""
    if not compiled(fn, beside_host64):
        assert _steps_hold(fn), f"{fn.name}: a list of {len(fn.body)} instructions at {fn.word_bits} bits " \
            f"with flags {fn.flags} is not printed"
        lines = [f"uint32_t t[{fn.temps}];"] if fn.temps else []
        lines += ["static const uint32_t code[] = {"]
        lines += [f"  {_step(i)}" for i in fn.body]
        lines += ["};", f"interpret(code, {len(fn.body)}, y, x, {'t' if fn.temps else 'nullptr'});"]
        return lines
    read = {s for i in fn.body for s in i.srcs if isinstance(s, Reg)}
    word = f"uint{fn.word_bits}_t"
    lines = []
    lines += [f"{word} {flag} = 0;" for flag in fn.flags]
    if any(isinstance(s, Reg) and s.bank == "t" for s in read):
        lines.append(f"{word} t[{fn.temps}];")
    return lines + [_statement(i, read, fn.word_bits) for i in fn.body]


def model(env) -> str:
    """The C++ both renderings above call: one function per opcode, and the interpreter."""
    return env.get_template("ptx_host.cuh.j2").render(
        opcodes=OPCODES.values(), step_words=STEP_WORDS, dst_bank_shift=DST_BANK_SHIFT,
        src_bank_shift=SRC_BANK_SHIFT, immediate=IMMEDIATE, banks=BANK_CODES)
