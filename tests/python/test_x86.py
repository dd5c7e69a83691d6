"""The x86-64 printer (printers/x86.py) on every machine: its assembly for the lists of the
x86 plan (Function.x86: Montgomery's products, the integers' full products and squares, the
fields' modmul), run by a model of the instructions it prints, against the same list run
by ir.execute (itself checked against Python's integers). The model leaves a flag undefined
after an instruction that clobbers it, and a read of an undefined flag fails: that checks
the printer's rule that nothing clobbers a carry still to be read. (On a CPU with BMI2 and
ADX, the compiled tests run the assembly itself against GMP.)"""
import random
import re

import pytest

from mpgen.cli import main
from mpgen.ir import Function, Reg, execute
from mpgen.plan import plan_request
from mpgen.printers import x86
from mpgen.request import check_modulus, check_preset, parse_field, parse_options
from mpgen.size import HOST64, X86_64, limbs_for
from mpgen.thread.reduction import pseudo_mersenne

from test_modular import MONTGOMERY_AT_64, WIDER, value, words

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


def x86_lists(request):
    """(size, list) for each operation of the request: the list the header's assembly is
    printed from (its x86 plan, else its one 64-bit list; printers/cuda.py)."""
    for module in plan_request(request):
        for planned in module.ops:
            if planned.fn64 is not None:
                yield module.size, planned.fn_x86 or planned.fn64


def field_lists(modulus: str, bits: str | None, label: str):
    for name in MONTGOMERY_AT_64 + ["modmul", "modsqr"]:
        try:
            request = parse_field(modulus, bits, name, label)
        except ValueError:  # not for this modulus (montmul_lazy without spare bits)
            continue
        yield from x86_lists(request)


def check_assembly(fn, cases: list[list[int]], label: str) -> None:
    """fn's assembly through the model against fn, on each x."""
    printer = x86._Printer(fn)
    text = printer.run()
    for x in cases:
        assert run(text, printer.constants, x, fn.out_words) == execute(fn, x), (label, fn.name, x)


def random_words(rng, count: int) -> list[int]:
    return [rng.getrandbits(64) if rng.random() < 0.8 else rng.choice([0, 1, M64]) for _ in range(count)]


MODULI = [(check_preset(name)[0], None, name) for name in
          ("curve25519", "secp256k1", "p224", "p256", "p384", "p521", "bn254_fp", "bls12_381_fp", "pallas",
           "eccp131")] + [(hex(p), str(bits), f"wider{bits}") for p, bits in WIDER if p % 2] + \
         [("0xffffffffffffffc5", None, "p64"), ("0x" + "f" * 31 + "1", None, "p124")]


@pytest.mark.parametrize("modulus,bits,label", MODULI, ids=[m[2] for m in MODULI])
def test_field_assembly_runs_as_its_list(modulus, bits, label):
    """Every Montgomery product prints and runs as its list, and modmul and modsqr where they
    have an x86 plan (pseudo-Mersenne moduli: products and folds by rows), whose lists give
    a b mod p (their contract for a, b below p; the compiled tests check the Montgomery
    products against GMP)."""
    rng = random.Random(label)
    lists = list(field_lists(modulus, bits, label))
    assert lists
    folded = check_modulus(modulus, "test", None if bits is None else int(bits)).pseudo_mersenne
    for field, fn in lists:
        printed = x86.assembly(fn) is not None
        assert printed == (fn.name in MONTGOMERY_AT_64 or bool(folded)), fn.name
        if not printed:
            continue
        n = fn.out_words  # the 64-bit limbs of a value below p
        check_assembly(fn, [random_words(rng, fn.in_words) for _ in range(30)], label)
        if fn.name in ("modmul", "modsqr"):
            p = field.modulus
            for a, b in [(p - 1, p - 1), (0, p - 1), (1, 1)] + [(rng.randrange(p), rng.randrange(p))
                                                               for _ in range(30)]:
                b = a if fn.name == "modsqr" else b
                x = words(a, n, 64) + (words(b, n, 64) if fn.name == "modmul" else [])
                assert value(execute(fn, x), 64) == a * b % p, (label, fn.name, hex(a), hex(b))


# The integers' full products and squares print at every size of the thread tier with more
# than one limb of 64 bits, Karatsuba's splits included (1024 and 2048 bits).
PRODUCT_BITS = "65,109,128,131,192,255,256,381,384,521,1024,2048"


def test_products_assembly_runs_as_its_list():
    """mul, sqr and mul_hi print and run as their lists (their x86 plans), which give the
    product and its high half."""
    rng = random.Random(1)
    lists = list(x86_lists(parse_options(PRODUCT_BITS, "mul,sqr,mul_hi")))
    assert all(fn.x86 for _, fn in lists) and len(lists) == 3 * len(PRODUCT_BITS.split(","))
    for size, fn in lists:
        n, top = limbs_for(size.bits, 64), (1 << size.bits) - 1
        expected = {"mul": lambda a, b: a * b, "sqr": lambda a, b: a * a,
                    "mul_hi": lambda a, b: a * b >> size.bits}[fn.name]
        cases = [(top, top), (top, 1), (0, top)] + [(rng.getrandbits(size.bits), rng.getrandbits(size.bits))
                                                      for _ in range(30)]
        inputs = [words(a, n, 64) + (words(b, fn.in_words - n, 64) if fn.name != "sqr" else []) for a, b in cases]
        for (a, b), x in zip(cases, inputs):
            assert value(execute(fn, x), 64) == expected(a, b), (size.bits, fn.name, hex(a), hex(b))
        assert x86.assembly(fn) is not None, (size.bits, fn.name)
        check_assembly(fn, inputs + [random_words(rng, fn.in_words) for _ in range(10)], fn.name)


@pytest.mark.parametrize("args,printed", [
    (["--bits", "1024", "--ops", "add,mul,mul_lo,mul_hi,sqr,mul_ui,mad"], {"mul", "mul_hi", "sqr"}),
    (["--bits", "64", "--ops", "mul,sqr"], set()),
    (["--field", "secp256k1", "--ops", "montmul,modmul,modsqr,modadd"], {"montmul", "modmul", "modsqr"}),
    (["--field", "p256", "--ops", "montmul,modmul,modsqr,modadd"], {"montmul"})])
def test_headers_print_the_assembly_of_their_x86_lists(args, printed, tmp_path):
    """The header's host64 has the assembly exactly where the x86 list (or a Montgomery
    product's one list) prints: the products by rows, not the one-chain lists."""
    assert main(["generate", *args, "--out", str(tmp_path)]) == 0
    (header,) = tmp_path.glob("*.cuh")
    found, struct = set(), None
    for line in header.read_text().splitlines():
        if re.match(r"struct \w+ \{", line):
            struct = line.split()[1]
        if "if (::mpgen::x86_adx) {" in line:
            found.add(struct)
    assert found == printed


@pytest.mark.parametrize("p,bits", [(2 ** 256 - 2 ** 32 - 977, None), (2 ** 256 - 2 ** 32 - 977, 320),
                                    (2 ** 255 - 19, None), (2 ** 255 - 19, 288), (2 ** 521 - 1, None),
                                    (2 ** 127 - 1, None)])
@pytest.mark.parametrize("x86_plan", [False, True], ids=["cpp", "x86"])
def test_pseudo_mersenne_folds(p, bits, x86_plan):
    """The folding alone at 64 bits, for t up to p^2 - 1: random t, words all ones or zeros,
    and t whose folds end one below a word boundary (l + h c = 2^k + 2^(64 j) - 1: the second
    fold's carry runs through the words above its row), which random products never reach."""
    field = check_modulus(hex(p), "test", bits).at(X86_64 if x86_plan else HOST64)
    k, c = field.pseudo_mersenne
    n = field.limbs
    fn = Function("fold", 2 * n, n, word_bits=64, host_plans=True, x86=x86_plan)
    pseudo_mersenne(fn, field, [Reg("x", i) for i in range(2 * n)], [Reg("y", i) for i in range(n)])
    rng = random.Random(p)
    cases = [0, p * p - 1, (p - 1) ** 2, p] + [sum(rng.choice((0, M64)) << 64 * i for i in range(2 * n)) % (p * p)
                                               for _ in range(100)] + [rng.randrange(p * p) for _ in range(300)]
    for j in range(1, n + 1):
        for _ in range(10):
            h = rng.randrange(p * p >> k)
            low = (2 ** k + 2 ** (64 * j) - 1 - h * c) % 2 ** k
            cases.append(min(h * 2 ** k + low, p * p - 1))
    for t in cases:
        assert value(execute(fn, words(t, 2 * n, 64)), 64) == t % p, hex(t)
