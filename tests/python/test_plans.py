"""Each plan, run by the instruction-list interpreter, against Python's integers.
(The C++ tests check the rendered code against GMP; these catch a wrong plan early.)"""
import random

import pytest

from mpgen.ir import Function, Reg, execute
from mpgen.request import defaults
from mpgen.size import GPU, HOST64, X86_64, Size
from mpgen.thread import find
from mpgen.thread.mul import product_limbs
from mpgen.thread.powers import LoopOperation

from conftest import run_host64

SIZES = [32, 33, 48, 63, 64, 65, 96, 109, 131, 255, 256, 521]


def words(value: int, count: int, width: int = 32) -> list[int]:
    return [(value >> (width * i)) & ((1 << width) - 1) for i in range(count)]


def reference(name: str, bits: int, x: list[int], word_bits: int = 32) -> list[int]:
    """The result, then the flag where there is one (cmp's -1 a word of ones)."""
    m = (1 << bits) - 1
    a, b = x[0], (x[1] if len(x) > 1 else 0)
    simple = {
        "neg": lambda: -a & m, "mul": lambda: a * b, "mul_lo": lambda: a * b & m,
        "mul_hi": lambda: a * b >> bits, "sqr": lambda: a * a, "mul_ui": lambda: a * b,
        "mad": lambda: a * b + x[-1], "eq": lambda: int(a == b), "lt": lambda: int(a < b),
        "cmp": lambda: ((a > b) - (a < b)) % (1 << word_bits), "is_zero": lambda: int(a == 0),
        "and": lambda: a & b, "or": lambda: a | b, "xor": lambda: a ^ b, "not": lambda: ~a & m,
        "shl": lambda: (a << b) & m, "shr": lambda: a >> b, "popc": lambda: bin(a).count("1"),
        "clz": lambda: bits - a.bit_length(),
        "ctz": lambda: (a & -a).bit_length() - 1 if a else bits,
    }
    if name in simple:
        return [simple[name]()]
    if name == "mont_minus_inverse":  # -p^-1 mod 2^32, then the flag: 1 (and 0) where p is even
        return [-pow(a, -1, 1 << 32) % (1 << 32), 0] if a % 2 else [0, 1]
    if name in ("add", "add_ui", "sub", "sub_ui"):
        total = a + b + x[2] if name == "add" else a - b - x[2] if name == "sub" else \
            a + b if name == "add_ui" else a - b
        return [total & m, int(total < 0 or total > m)]
    k = int(name[3:])
    return [(a << k) & m if name.startswith("shl") else a >> k]


# The operations planned at 64-bit limbs too (the host's 64-bit rendering), so far.
PLANNED_AT_64 = ["add", "sub", "add_ui", "sub_ui", "neg", "mul", "mul_lo", "mul_hi", "sqr", "mul_ui", "mad", "eq", "lt",
                 "cmp", "is_zero", "and", "or", "xor", "not", "shl1", "shl31", "shl32", "shl33", "shr1", "shr31",
                 "shr32", "shr33"]


@pytest.mark.parametrize("bits, word_bits", [(b, 32) for b in SIZES] + [(b, 64) for b in SIZES + [1024, 2048]])
def test_every_plan_matches_integers(bits, word_bits):
    size, rng = Size(bits).at(GPU if word_bits == 32 else HOST64), random.Random(bits)
    planned = [op for op in defaults(size) if word_bits in op.word_bits]
    if word_bits == 64:  # (the constant shifts below the width)
        assert [op.name for op in planned] == [name for name in PLANNED_AT_64 if name in {op.name for op in defaults(size)}]
    for op in planned:
        if op.modulus_operand is not None or isinstance(op, LoopOperation):  # test_moduli.py, test_division.py
            continue
        check_plan(op, size, rng)


def check_plan(op, size: Size, rng) -> None:
    """op's list at this size against the integers, on random and edge operands."""
    fn, bits, word_bits = op.plan(size), size.bits, size.word_bits
    assert (fn.word_bits, fn.x86) == (word_bits, size.x86)
    widths = op.operand_bits(size)
    for t in range(120 if bits <= 521 else 20):
        x = [rng.choice([0, 1, (1 << w) - 1, rng.getrandbits(w)]) if t % 2
             else rng.getrandbits(w) for w in widths]
        inputs = [w for v, width in zip(x, widths) for w in words(v, -(-width // word_bits), word_bits)]
        want = reference(op.name, bits, x, word_bits)
        assert execute(fn, inputs) == words(want[0], op.result_limbs(size), word_bits) + want[1:], \
            (op.name, [hex(v) for v in x])


@pytest.mark.parametrize("bits", SIZES + [1024, 2048])
def test_every_x86_plan_matches_integers(bits):
    """The plans for the x86-64 assembly (the full products by rows through two chains)."""
    size, rng = Size(bits).at(X86_64), random.Random(bits)
    planned = [op for op in defaults(size) if 64 in op.word_bits and op.x86_plan(size)]
    assert {op.name for op in planned} == ({"mul", "sqr", "mul_hi"} if bits > 64 else set())
    for op in planned:
        check_plan(op, size, rng)


@pytest.mark.parametrize("bits, limbs", [(131, 9), (128, 8), (255, 16), (521, 33), (1024, 64)])
@pytest.mark.parametrize("name", ["mul", "sqr", "mad"])
def test_products_have_exact_width(bits, limbs, name):
    fn = find(name).plan(Size(bits))
    assert fn.out_words == limbs == product_limbs(Size(bits))
    assert {i.dst.index for i in fn.body if i.dst.bank == "y"} == set(range(limbs))


def test_square_computes_each_cross_product_once():
    n = Size(256).limbs
    products = [i for i in find("sqr").plan(Size(256)).body if i.opcode.sources == 3
                or i.opcode.mnemonic.startswith("mul")]
    assert len(products) == n * (n - 1) + 2 * n  # cross pairs (lo, hi) + the diagonal


def test_carry_read_without_carry_set_is_refused():
    fn = Function("broken", 2, 1)
    fn.emit("addc", Reg("y", 0), Reg("x", 0), Reg("x", 1))
    with pytest.raises(ValueError, match="reads a carry"):
        fn.check()


@pytest.mark.parametrize("bits", [64, 65, 96, 131, 255, 256, 521, 1024])
@pytest.mark.parametrize("name", ["mul", "sqr"])
def test_karatsuba_matches_integers(name, bits):
    size, op, rng = Size(bits, "karatsuba"), find(name), random.Random(bits)
    fn = op.plan(size)
    top = (1 << bits) - 1
    for a, b in [(top, top), (0, top), (1 << (bits - 1), top)] + \
            [(rng.getrandbits(bits), rng.getrandbits(bits)) for _ in range(200)]:
        inputs = words(a, size.limbs) + (words(b, size.limbs) if name == "mul" else [])
        want = a * b if name == "mul" else a * a
        assert execute(fn, inputs) == words(want, op.result_limbs(size)), (hex(a), hex(b))


@pytest.mark.parametrize("name", ["mul", "sqr"])
@pytest.mark.parametrize("target", [32, 64, "x86"])
def test_auto_uses_karatsuba_from_the_measured_threshold(name, target):
    from mpgen.thread.mul import THRESHOLDS
    limbs = THRESHOLDS[target][name]["threshold_limbs"]
    word_bits = 32 if target == 32 else 64

    def length(bits: int, method: str) -> int:
        return len(find(name).plan(Size(bits, method).at({32: GPU, 64: HOST64, "x86": X86_64}[target])).body)

    at = word_bits * limbs  # (one level: the halves are below the threshold)
    assert length(at, "auto") == length(at, "karatsuba") != length(at, "schoolbook")
    below = word_bits * (limbs - 1)
    assert length(below, "auto") == length(below, "schoolbook") != length(below, "karatsuba")


# (Not 2048 bits: its module took 65 s of CI's 2 cores; the C++ tests check that size's
# 64-bit add, sub, mul, sqr, division, gcd and sqrt, the runtime's CPU path, against GMP.)
# Every rendering (x86 assembly, intrinsics, portable C++) at one, three and nine 64-bit
# limbs, the first elsewhere: the renderings print each instruction alike at any size.
@pytest.mark.parametrize("bits", [64, 109, 131, 255, 256, 381, 521, 1024])
def test_host64_compiled_matches_integers(bits, tmp_path):
    import json
    from mpgen.cli import main

    assert main(["generate", "--bits", str(bits), "--ops", ",".join(PLANNED_AT_64), "--out", str(tmp_path)]) == 0
    (module,) = json.loads((tmp_path / "mpgen_manifest.json").read_text())["modules"]
    ops = [op for op in module["operations"] if op["host64"]]
    # every one at these sizes
    assert {op["name"] for op in ops} == {name for name in PLANNED_AT_64 if not (name[:3] in ("shl", "shr") and int(name[3:]) >= bits)}
    rng, lines, wanted = random.Random(bits), [], []
    for k, op in enumerate(ops):
        widths = [o["bits"] for o in op["operands"]]
        edges = [0, 1, (1 << 64) - 1, 1 << 63]
        for t in range(60):
            x = [rng.choice(edges + [(1 << w) - 1, 1 << (w - 1), rng.getrandbits(w)]) % (1 << w) if t % 2
                 else rng.getrandbits(w) for w in widths]
            inputs = [w for v, width in zip(x, op["host64"]["operand_limbs"]) for w in words(v, width, 64)]
            lines.append(f"{k} " + " ".join(f"{w:x}" for w in inputs))
            want = reference(op["name"], bits, x, 64)
            wanted.append((op["name"], x, words(want[0], op["host64"]["result_limbs"], 64) + want[1:]))
    for driver, answers in run_host64(tmp_path, module, ops, lines, every_rendering=bits in (64, 131, 521)).items():
        assert len(answers) == len(wanted)
        for (name, x, want), answer in zip(wanted, answers):
            assert answer == want, (driver, name, [hex(v) for v in x])
