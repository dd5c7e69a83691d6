"""The x86-64 printer (printers/x86.py) on every machine: its assembly for Montgomery's
products, run by a model of the instructions it prints, against the same list run by
ir.execute (itself checked against Python's integers). The model leaves a flag undefined
after an instruction that clobbers it, and a read of an undefined flag fails: that checks
the printer's rule that nothing clobbers a carry still to be read. (On a CPU with BMI2 and
ADX, test_modular.py runs the assembly itself.)"""
import random
import re

import pytest

from mpgen.ir import execute
from mpgen.plan import plan_request
from mpgen.printers import x86
from mpgen.request import check_preset, parse_field

from test_modular import MONTGOMERY_AT_64, WIDER

M64 = (1 << 64) - 1
MEMORY = re.compile(r"(-?\d+)\(%(\w+)\)")


def run(lines: list[str], constants: list[int], x: list[int], out_words: int) -> list[int]:
    """The printed instructions on x; y's words."""
    regs = dict.fromkeys(x86.POOL + ("rdx",), 0)
    bases = {"rsi": 1 << 20, "rdi": 2 << 20, "rcx": 3 << 20}
    regs.update(bases)
    memory = {bases["rsi"] + 8 * k: v for k, v in enumerate(x)}
    memory.update({bases["rcx"] + 8 * k: v for k, v in enumerate(constants)})
    flags = {"cf": 0, "of": 0}

    def address(o: str) -> int:
        offset, base = MEMORY.fullmatch(o).groups()
        return int(offset) + regs[base]

    def read(o: str) -> int:
        if o.startswith("$"):
            return int(o[1:]) & M64
        return regs[o[1:]] if o.startswith("%") else memory[address(o)]

    def write(o: str, v: int) -> None:
        if o.startswith("%"):
            regs[o[1:]] = v & M64
        else:
            memory[address(o)] = v & M64

    def carry(flag: str) -> int:
        assert flags[flag] is not None, f"reads {flag} after an instruction clobbered it"
        return flags[flag]

    for line in lines:
        op, _, rest = line.replace("%%", "%").partition(" ")
        args = [a.strip() for a in rest.split(",")] if rest else []
        if op in ("movq", "movabsq"):
            write(args[1], read(args[0]))
        elif op == "mulx":
            product = regs["rdx"] * read(args[0])
            write(args[1], product)
            write(args[2], product >> 64)
        elif op in ("adcxq", "adoxq"):
            flag = "cf" if op == "adcxq" else "of"
            total = read(args[1]) + read(args[0]) + carry(flag)
            write(args[1], total)
            flags[flag] = total >> 64
        elif op in ("subq", "sbbq"):
            difference = read(args[1]) - read(args[0]) - (carry("cf") if op == "sbbq" else 0)
            write(args[1], difference)
            flags.update(cf=int(difference < 0), of=None)
        elif op == "testq":
            flags.update(cf=0, of=0)
        elif op == "clc":
            flags["cf"] = 0
        elif op in ("andq", "orq", "xorq", "addq", "shlq", "shrq"):
            a, b = read(args[1]), read(args[0])
            operation = {"andq": int.__and__, "orq": int.__or__, "xorq": int.__xor__, "addq": int.__add__,
                         "shlq": int.__lshift__, "shrq": int.__rshift__}[op]
            write(args[1], operation(a, b))
            flags.update(cf=None, of=None)
        elif op == "notq":
            write(args[0], ~read(args[0]))
        elif op in ("shldq", "shrdq"):
            k, source, target = read(args[0]), read(args[1]), read(args[2])
            write(args[2], target << k | source >> 64 - k if op == "shldq" else target >> k | source << 64 - k)
            flags.update(cf=None, of=None)
        else:
            raise AssertionError(f"the model has no {op}")
    return [memory.get(bases["rdi"] + 8 * k, 0) for k in range(out_words)]


def montgomery_lists(modulus: str, bits: str | None, label: str):
    for name in MONTGOMERY_AT_64:
        try:
            request = parse_field(modulus, bits, name, label)
        except ValueError:  # not for this modulus (montmul_lazy without spare bits)
            continue
        for module in plan_request(request):
            for planned in module.ops:
                yield planned.fn64


MODULI = [(check_preset(name)[0], None, name) for name in
          ("curve25519", "secp256k1", "p224", "p256", "p384", "p521", "bn254_fp", "bls12_381_fp", "pallas",
           "eccp131")] + [(hex(p), str(bits), f"wider{bits}") for p, bits in WIDER if p % 2] + \
         [("0xffffffffffffffc5", None, "p64"), ("0x" + "f" * 31 + "1", None, "p124")]


@pytest.mark.parametrize("modulus,bits,label", MODULI, ids=[m[2] for m in MODULI])
def test_montgomery_assembly_runs_as_its_list(modulus, bits, label):
    rng = random.Random(label)
    lists = list(montgomery_lists(modulus, bits, label))
    assert lists
    for fn in lists:
        printer = x86._Printer(fn)
        text = printer.run()
        assert x86.assembly(fn) is not None, fn.name
        for _ in range(30):
            x = [rng.getrandbits(64) if rng.random() < 0.8 else rng.choice([0, 1, M64]) for _ in range(fn.in_words)]
            assert run(text, printer.constants, x, fn.out_words) == execute(fn, x), (label, fn.name, x)
