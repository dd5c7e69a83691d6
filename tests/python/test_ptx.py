"""The PTX that nvcc makes of the generated code: straight-line, exact width."""
import re
import shutil
import subprocess

import pytest

from mpgen.group.program import flat
from mpgen.plan import plan_request
from mpgen.printers import render
from mpgen.request import defaults
from mpgen.request import check_modulus
from mpgen.size import Size
from mpgen.thread import MODULAR_OPERATIONS, modular
from mpgen.thread.powers import LoopOperation

# One kernel per operation, one instance, no bounds check: any branch in the PTX
# comes from the operation itself.
KERNELS = """
#include "mpgen_{name}.cuh"
#define ONLY(op) \\
  __global__ void only_##op(const uint32_t* in, uint32_t* out) {{ \\
    using Op = mpgen::{name}::op; \\
    uint32_t x[Op::in_words], y[Op::out_words]; \\
    _Pragma("unroll") for (unsigned w = 0; w < Op::in_words; ++w) x[w] = in[w]; \\
    Op::device(y, x); \\
    _Pragma("unroll") for (unsigned w = 0; w < Op::out_words; ++w) out[w] = y[w]; \\
  }}
MPGEN_{upper}_OPS(ONLY)
"""


# The group tier: one thread's part of an operation (Op::thread) between loads and stores.
GROUP_KERNELS = KERNELS.replace("Op::in_words", "Op::thread_in_words").replace(
    "Op::out_words", "Op::thread_out_words").replace("Op::device(y, x)", "Op::thread(y, x)")


def kernels_ptx(tmp_path, size: Size, ops=None, harness: str = KERNELS) -> dict[str, list[str]]:
    """Operation's C++ name -> the instructions of its kernel."""
    nvcc = shutil.which("nvcc")
    assert nvcc, "nvcc (the CUDA toolkit) is needed to check the generated PTX"
    for name, text in render(plan_request([(size, ops or defaults(size))]))[0].items():
        (tmp_path / name).write_text(text)
    (tmp_path / "k.cu").write_text(harness.format(name=size.name, upper=size.name.upper()))
    subprocess.run([nvcc, "-arch=sm_90", "-ptx", "-I", str(tmp_path), str(tmp_path / "k.cu"),
                    "-o", str(tmp_path / "k.ptx")], check=True)
    ptx = (tmp_path / "k.ptx").read_text()
    kernels = {}
    for match in re.finditer(r"\.entry\s+\w*only_(\w+?)P", ptx):
        body = ptx[ptx.index("{", match.end()):]
        body = body[:body.index("\n}")]
        kernels[match[1]] = [line.strip() for line in body.splitlines() if line.strip()
                             and not line.strip().startswith(("//", ".", "{", "}"))]
    return kernels


def assert_straight_line(kernels: dict[str, list[str]], where: str) -> None:
    for name, code in kernels.items():
        branches = [i for i in code if re.match(r"(@!?%p\w+\s+)?bra", i) or i.startswith("@")]
        labels = [i for i in code if re.match(r"\$?\w+:$", i)]
        assert not branches and not labels, f"{name} {where}: {branches + labels}"


@pytest.mark.parametrize("bits, mul", [(64, "auto"), (131, "auto"), (256, "auto"),
                                       (131, "karatsuba")])
def test_every_operation_is_straight_line(tmp_path, bits, mul):
    # but the loops (division's digits), which branch on their counters only
    kernels = kernels_ptx(tmp_path, Size(bits, mul))
    assert sorted(kernels) == sorted(op.cpp_name for op in defaults(Size(bits)))
    loops = {op.cpp_name for op in defaults(Size(bits)) if isinstance(op, LoopOperation)}
    assert loops >= {"div_qr", "div", "rem", "div_qr_wide"}
    assert_straight_line({k: v for k, v in kernels.items() if k not in loops}, f"at {bits} bits")
    for name in loops:
        assert any(i.startswith("@") and "bra" in i for i in kernels[name]), name  # it does loop
        assert branches_on_data(kernels[name]) == [], f"{name} at {bits} bits"


def one_of_each_step_kind(size: Size) -> list:
    """The first operation of the size whose program has each kind of step."""
    (module,) = plan_request([(size, defaults(size))])
    first = {}
    for planned in module.ops:
        for step in flat(planned.program.steps):
            first.setdefault(type(step), planned.op)
    return list({op.name: op for op in first.values()}.values())


@pytest.mark.parametrize("bits, threads", [(2048, 32), (4096, 64)])  # a warp; two warps
def test_the_group_tier_never_branches_or_addresses_memory_by_data(tmp_path, bits, threads):
    # its steps between threads (ballots, shuffles, shared memory) and the product's loop
    # depend on the thread and the iteration only: every operation over two warps, and over
    # one (whose exchanges are shuffles) an operation for each kind of step
    size = Size(bits, "auto", "group", threads)
    ops = defaults(size) if threads > 32 else one_of_each_step_kind(size)
    kernels = kernels_ptx(tmp_path, size, ops, harness=GROUP_KERNELS)
    assert sorted(kernels) == sorted(op.cpp_name for op in ops)
    for name, code in kernels.items():
        kinds = ("ld.", "st.") if name == "gcd" else ("bra", "ld.", "st.")  # gcd's rounds end once g = 0
        assert on_data(code, kinds) == [], f"{name} at {bits} bits"
    assert any(i.startswith("@") and "bra" in i for i in kernels["mul"])  # the product's rows loop
    if "gcd" in kernels:  # and only its loop's end: one branch on the values
        assert len(on_data(kernels["gcd"], ("bra",))) == 1


REGISTER = re.compile(r"%\w+|\bt\d+\b")  # PTX's registers, and the inline asm's temporaries


def branches_on_data(code: list[str]) -> list[str]:
    return on_data(code, ("bra",))


def on_data(code: list[str], kinds: tuple[str, ...]) -> list[str]:
    """The instructions of these kinds whose predicate, or for loads and stores whose
    address, may depend on a value loaded from memory (a parameter's address excepted):
    loop counters and the modulus' constants are fine; an operand, a table entry or
    anything computed from them is not. A forward data-flow over the kernel's control
    flow (registers are reused across iterations)."""
    steps = []
    for line in code:
        guard = re.match(r"@!?(%\w+)\s+", line)
        body = line[guard.end():] if guard else line
        opcode, _, operands = body.rstrip(";").partition(" ")
        operands = operands.strip()
        writes = not opcode.startswith(("st.", "bra", "ret", "exit", "bar", "membar", "fence")) \
            and not opcode.endswith(":") or opcode.startswith("bar.red")  # a block's reduction writes
        if writes and operands.startswith("{"):
            dst_text, src_text = operands[:operands.index("}") + 1], operands[operands.index("}") + 1:]
        elif writes:
            dst_text, _, src_text = operands.partition(",")
        else:
            dst_text, src_text = "", operands
        srcs = set(REGISTER.findall(src_text)) | ({guard[1]} if guard else set())
        dsts = frozenset(REGISTER.findall(dst_text.replace("|", ",")))
        if opcode.startswith(("addc", "subc", "madc")):  # the carry flag as a register
            srcs.add("%CC")
        if ".cc" in opcode:
            dsts |= {"%CC"}
        steps.append((opcode, dsts, srcs, bool(guard), operands))
    labels = {opcode[:-1]: i for i, (opcode, *_) in enumerate(steps) if opcode.endswith(":")}

    def successors(i: int) -> list[int]:
        opcode, _, _, guarded, operands = steps[i]
        if opcode.startswith("bra"):
            return [labels[operands.split()[-1]]] + ([i + 1] if guarded and i + 1 < len(steps) else [])
        return [] if opcode in ("ret", "exit") or i + 1 == len(steps) else [i + 1]

    # register sets as bits of Python integers: the unions over 50,000 lines stay fast
    bit: dict[str, int] = {}

    def mask(registers) -> int:
        return sum(1 << bit.setdefault(r, len(bit)) for r in set(registers))

    masks = [(mask(dsts), mask(srcs)) for _, dsts, srcs, _, _ in steps]
    tainted_before: list[int | None] = [0] + [None] * (len(steps) - 1)
    work = [0]
    while work:
        i = work.pop()
        opcode, _, _, guarded, _ = steps[i]
        (dsts, srcs), before = masks[i], tainted_before[i]
        loads_data = opcode.startswith("ld.") and not opcode.startswith("ld.param")
        after = before if guarded else before & ~dsts  # a guarded write may not happen
        if loads_data or srcs & before:
            after |= dsts
        for j in successors(i):
            merged = after if tainted_before[j] is None else tainted_before[j] | after
            if merged != tainted_before[j]:
                tainted_before[j] = merged
                work.append(j)

    def watched(opcode: str, srcs: set[str], operands: str) -> set[str]:
        if opcode.startswith(("ld.", "st.")):  # the address's registers
            return set(REGISTER.findall("".join(re.findall(r"\[[^]]*\]", operands))))
        return srcs

    return [line for line, (opcode, _, srcs, _, operands), before in zip(code, steps, tainted_before)
            if opcode.startswith(kinds) and before is not None and mask(watched(opcode, srcs, operands)) & before]


def test_branches_on_data_sees_through_arithmetic():
    code = ["ld.param.u64 %rd1, [p];", "mov.u32 %r4, 0;", "mov.u32 %r1, %r4;",
            "ld.global.u32 %r2, [%rd1];", "$L__BB0_1:", "add.s32 %r1, %r1, 1;",
            "xor.b32 %r4, %r2, %r4;",  # %r4 is data from here on, %r1 still a counter
            "setp.lt.u32 %p1, %r1, 8;", "@%p1 bra $L__BB0_1;",
            "xor.b32 %r3, %r2, 5;", "setp.eq.u32 %p2, %r3, 0;", "@!%p2 bra $L__BB0_1;"]
    assert branches_on_data(code) == ["@!%p2 bra $L__BB0_1;"]


def test_branches_on_data_sees_through_the_carry_flag_and_a_block_reduction():
    code = ["ld.param.u64 %rd1, [p];", "ld.global.u32 %r2, [%rd1];", "sub.cc.u32 t1, 0, %r2;",
            "subc.u32 %r3, 0, 0;", "setp.ne.u32 %p1, %r3, 0;", "bar.red.and.pred %p2, 0, %p1;",
            "$L__BB0_1:", "@%p2 bra $L__BB0_1;"]
    assert branches_on_data(code) == ["@%p2 bra $L__BB0_1;"]


# Constant time: no modular operation branches, for moduli with and without spare bits,
# even, pseudo-Mersenne and Solinas (P-224);
# the loops (modexp ... modsqrt) branch on their counters only.
@pytest.mark.parametrize("modulus", [0x9362DA5CC13DA58B, (1 << 131) - 1 - 2 ** 100,
                                     2 ** 224 - 2 ** 96 + 1, 2 ** 255 + 2 ** 77 + 6,
                                     2 ** 256 - 2 ** 32 - 977, 2 ** 521 - 1])
def test_every_modular_operation_is_straight_line(tmp_path, modulus):
    field = check_modulus(hex(modulus), "test")
    ops = [op for op in MODULAR_OPERATIONS.values() if modular.available(op, field)]
    kernels = kernels_ptx(tmp_path, field, ops)
    assert sorted(kernels) == sorted(op.name for op in ops)
    loops = {op.name for op in ops if isinstance(op, LoopOperation)}
    assert_straight_line({k: v for k, v in kernels.items() if k not in loops}, f"modulo {modulus:#x}")
    for name in loops:
        assert any(i.startswith("@") and "bra" in i for i in kernels[name]), name  # it does loop
        assert branches_on_data(kernels[name]) == [], f"{name} modulo {modulus:#x}"


# modexp up to 8 limbs keeps its window table in registers and picks entries by masks:
# no load or store address depends on the operands (above, the table is indexed by e).
@pytest.mark.parametrize("modulus, scans", [(0x9362DA5CC13DA58B, True), (2 ** 224 - 2 ** 96 + 1, True),
                                            ((1 << 511) + 187, False)])
def test_modexp_addresses_memory_by_data_only_above_8_limbs(tmp_path, modulus, scans):
    field = check_modulus(hex(modulus), "test")
    code = kernels_ptx(tmp_path, field, [MODULAR_OPERATIONS["modexp"]])["modexp"]
    assert (on_data(code, ("ld.", "st.")) == []) == scans


def test_mul_131_has_a_9_limb_product_and_no_10th(tmp_path):
    code = kernels_ptx(tmp_path, Size(131))["mul"]
    assert len([i for i in code if i.startswith("st.global")]) == 9
    products = [i for i in code if re.match(r"(mul|mad)c?\.(lo|hi)", i)]
    assert len(products) == 2 * 5 * 5 - 1  # the top limb's high half is never computed


def test_outputs_written_before_an_input_is_read_are_early_clobber():
    """Inline asm lets the compiler give an output the register of an input that dies at the
    statement, unless the output is early-clobber: a list that writes an output and then
    reads an input must say "=&r" (the NTT butterfly, whose rolled-loop build went wrong
    without it), one that reads every input first may say "=r"."""
    from mpgen.ir import Function, Reg
    from mpgen.ntt import PRIMES
    from mpgen.ntt.lists import forward
    from mpgen.printers.ptx import function
    assert any('"=&r"(y[0])' in line for line in function(forward(PRIMES[0], 0)))
    reads_first = Function("reads_first", 2, 2)
    reads_first.emit("add", Reg("t", 0), Reg("x", 0), Reg("x", 1))
    reads_first.temps = 1
    reads_first.emit("mov", Reg("y", 0), Reg("t", 0))
    reads_first.emit("mov", Reg("y", 1), Reg("t", 0))
    assert any('"=r"(y[0])' in line for line in function(reads_first))
