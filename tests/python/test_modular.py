"""Modular operations: each plan, run by the instruction-list interpreter, against
Python's integers (the C++ tests check the rendered code against GMP), and the refusals
of bad moduli."""
import json
import math
import platform
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from mpgen.fields import PRESETS
from mpgen.ir import WORD_BITS, Function, Reg, execute
from mpgen.request import check_modulus
from mpgen.size import GPU, HOST64, X86_64
from mpgen.thread import MODULAR_OPERATIONS, modular
from mpgen.thread.powers import LoopOperation
from mpgen.thread.reduction import solinas

P224 = 2 ** 224 - 2 ** 96 + 1
P256 = 2 ** 256 - 2 ** 224 + 2 ** 192 + 2 ** 96 - 1
P384 = 2 ** 384 - 2 ** 128 - 2 ** 96 + 2 ** 32 - 1
PALLAS = 2 ** 254 + 0x224698FC094CF91B992D30ED00000001
# Moduli with and without a spare top bit, odd widths, Mersenne and Solinas shapes.
# Even moduli take Barrett reduction (and no Montgomery operations).
MODULI = [2, 10, 2 ** 64 - 2 ** 40, 2 ** 255 + 2 ** 77 + 6, 3 * 2 ** 300, 3, 0xFFFFFFFB, 2 ** 29 - 3, 0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47, 0x9362DA5CC13DA58B, 2 ** 127 - 1, (1 << 131) - 2 ** 100 - 1,
          2 ** 255 - 19, 2 ** 256 - 2 ** 32 - 977, P224, P256, P384, PALLAS, 2 ** 521 - 1]


def words(value: int, count: int, width: int = 32) -> list[int]:
    return [(value >> (width * i)) & ((1 << width) - 1) for i in range(count)]


def value(ws: list[int], width: int = 32) -> int:
    return sum(w << (width * i) for i, w in enumerate(ws))


def reference(name: str, p: int, radix: int, a: int, b: int) -> int:
    inverse = pow(radix, -1, p) if p % 2 else None  # Montgomery operations need an odd p
    ordinary = {"modadd": (a + b) % p, "modsub": (a - b) % p, "modneg": -a % p,
                "is_zero": int(a == 0), "modmul": a * b % p, "modsqr": a * a % p}
    if name in ordinary:
        return ordinary[name]
    return {"montmul": a * b * inverse % p, "montsqr": a * a * inverse % p,
            "montredc": (b * radix + a) * inverse % p,
            "tomont": a * radix % p, "frommont": a * inverse % p}[name]


# The operations planned at the host's 64-bit limbs too (the same contract: R = 2^(32 n)).
PLANNED_AT_64 = ["modadd", "modsub", "modneg", "is_zero", "montmul", "montmul_lazy", "montsqr", "montredc",
                 "tomont", "frommont", "modmul", "modsqr"]


# Moduli in wider numbers than their own (generate --modulus P --bits B): odd without a
# special form (Montgomery; Barrett at 64 bits), even, Solinas' at 32 bits, pseudo-Mersenne.
WIDER = [(0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47, 288), (10, 96),
         (2 ** 255 + 2 ** 77 + 6, 320), (P384, 448), (2 ** 256 - 2 ** 32 - 977, 320), (2 ** 255 - 19, 288),
         (2 ** 521 - 1, 576)]


@pytest.mark.parametrize("word_bits", WORD_BITS)
@pytest.mark.parametrize("p", MODULI, ids=hex)
def test_every_modular_plan_matches_integers(p, word_bits):
    check_every_plan(check_modulus(hex(p), "test"), word_bits)


@pytest.mark.parametrize("word_bits", WORD_BITS)
@pytest.mark.parametrize("p, bits", WIDER, ids=lambda v: hex(v) if v > 1000 else str(v))
def test_every_modular_plan_matches_integers_in_wider_numbers(p, bits, word_bits):
    check_every_plan(check_modulus(hex(p), "test", bits=bits), word_bits)


def check_every_plan(field, word_bits: int) -> None:
    p = field.modulus
    rng = random.Random(p)
    edges = sorted({0, 1, 2 % p, p - 1, p - 2 if p > 2 else 0, p // 2, (p + 1) // 2,
                    ((1 << 32 * (field.limbs - 1)) - 1) % p})
    ops = [op for op in MODULAR_OPERATIONS.values() if modular.available(op, field)
           and not isinstance(op, LoopOperation) and op.name != "gcd_step"]  # the loops: tests/cpp against GMP; the gcd's step: below
    if word_bits == 64:
        assert [op.name for op in ops if 64 in op.word_bits] == [n for n in PLANNED_AT_64 if n in {op.name for op in ops}]
        ops, field = [op for op in ops if 64 in op.word_bits], field.at(HOST64)
    plans = [(op, op.plan(field)) for op in ops]
    if word_bits == 64:  # and the x86 plans (modmul and modsqr's for a pseudo-Mersenne p)
        plans += [(op, op.plan(field.at(X86_64))) for op in ops if op.x86_plan(field)]
        assert {op.name for op, fn in plans if fn.x86} == ({"modmul", "modsqr"} if field.pseudo_mersenne else set())
    for op, fn in plans:
        binary = len(op.operand_bits(field)) == 2
        pairs = [(a, b) for a in edges for b in edges] + \
            [(rng.randrange(p), rng.randrange(p)) for _ in range(200)]
        for a, b in pairs:
            x = words(a, field.limbs, word_bits) + (words(b, field.limbs, word_bits) if binary else [])
            got = value(execute(fn, x), word_bits)
            if op.name == "montmul_lazy":
                assert got < 2 * p and got % p == reference("montmul", p, field.montgomery_radix, a, b)
                continue
            assert got == reference(op.name, p, field.montgomery_radix, a, b), \
                (op.name, hex(p), hex(a), hex(b))


@pytest.mark.parametrize("p", [p for p in MODULI if p % 2 and 3 < p < 2 ** 140], ids=hex)
def test_two_k_gcd_steps_leave_the_gcd_and_the_inverse(p):
    """modinv_gcd's loop, run on the step's list: u = 0, v = gcd(a, p), C a = v mod p."""
    field, rng = check_modulus(hex(p), "test"), random.Random(p)
    step, n = MODULAR_OPERATIONS["gcd_step"].plan(field), field.limbs
    for a in [0, 1, 2, p - 1, p // 2] + [rng.randrange(p) for _ in range(5)]:
        state = words(a, n) + words(p, n) + words(1, n) + words(0, n)
        for _ in range(2 * p.bit_length()):
            state = execute(step, state)
        u, v, c = (value(state[i * n:(i + 1) * n]) for i in (0, 1, 3))
        assert (u, v) == (0, math.gcd(a, p)) and c < p and c * a % p == v % p, hex(a)


def test_montgomery_product_issues_two_n_squared_pairs_and_n_reductions():
    field = check_modulus(hex(2 ** 255 - 19), "test")
    fn = MODULAR_OPERATIONS["montmul"].plan(field)
    halves = [i for i in fn.body if i.opcode.mnemonic.startswith(("mul.", "mad"))]
    assert len(halves) == 2 * (2 * 8 * 8) + 8  # a b and m p as lo/hi pairs, and the m words


@pytest.mark.parametrize("p", [P256, PALLAS])  # -p^-1 mod 2^32 is 1 and -1
def test_montgomery_multiplies_by_no_zero_word_of_p_and_finds_m_without_a_product(p):
    field = check_modulus(hex(p), "test")
    nonzero = sum(w != 0 for w in field.words(p))
    assert nonzero < 8  # three zero words each
    assert halves(MODULAR_OPERATIONS["montmul"].plan(field)) == 2 * (8 * 8 + 8 * nonzero)


def test_montgomery_square_computes_each_cross_product_once():
    field = check_modulus(hex(2 ** 255 - 19), "test")
    fn = MODULAR_OPERATIONS["montsqr"].plan(field)
    halves = [i for i in fn.body if i.opcode.mnemonic.startswith(("mul.", "mad"))]
    assert len(halves) == 2 * (8 * 9 // 2 + 8 * 8) + 8  # the square's pairs, m p's, the m words


def halves(fn) -> int:
    return sum(i.opcode.mnemonic.startswith(("mul.", "mad")) for i in fn.body)


@pytest.mark.parametrize("p, k, c", [(2 ** 255 - 19, 255, 19), (2 ** 521 - 1, 521, 1),
                                     (2 ** 256 - 2 ** 32 - 977, 256, 2 ** 32 + 977)])
def test_pseudo_mersenne_moduli_fold_instead_of_montgomery(p, k, c):
    field = check_modulus(hex(p), "test")
    assert field.pseudo_mersenne == (k, c)
    n, c_words = field.limbs, (c.bit_length() + 31) // 32
    # the product's n^2 pairs, then folds by c's words: n + 1 rows of high limbs, and a few
    assert halves(MODULAR_OPERATIONS["modmul"].plan(field)) <= 2 * (n * n + c_words * (n + 4))


@pytest.mark.parametrize("p, form, terms", [(P224, "2^224 - 2^96 + 1", 17),
                                             (P256, "2^256 - 2^224 + 2^192 + 2^96 - 1", 55),
                                             (P384, "2^384 - 2^128 - 2^96 + 2^32 - 1", 66)])
def test_nist_primes_take_solinas_sums(p, form, terms):
    field = check_modulus(hex(p), "test")
    assert field.reduction.startswith(f"Solinas reduction, p = {form}: the product's high words "
                                      f"as {terms} signed terms")
    n = field.limbs
    assert halves(MODULAR_OPERATIONS["modmul"].plan(field)) == 2 * n * n  # the product's only
    # The reduction alone, for double-width values up to p^2 - 1: all ones or zeros in the
    # words that the substitution adds or subtracts, and random ones.
    fn = Function("solinas", 2 * n, n)
    solinas(fn, field, [Reg("x", i) for i in range(2 * n)], [Reg("y", i) for i in range(n)])
    rng = random.Random(p)
    pattern = [sum(rng.choice((0, 0xFFFFFFFF)) << 32 * i for i in range(2 * n)) for _ in range(300)]
    for t in [0, p * p - 1, (p - 1) ** 2, p, 2 ** (32 * n) - 1] + [v % (p * p) for v in pattern] + \
            [rng.randrange(p * p) for _ in range(1000)]:
        assert value(execute(fn, words(t, 2 * n))) == t % p, hex(t)


def test_other_moduli_use_montgomery():
    for p, bits in ((P256, 288), (0x9362DA5CC13DA58B, None), (2 ** 256 - 2 ** 224 - 3, None)):
        field = check_modulus(hex(p), "test", bits)
        assert field.pseudo_mersenne is None and field.solinas is None, hex(p)
        assert "Montgomery" in field.reduction


# BN254's base field (R = 2^256 at either width), and a 131-bit one (five 32-bit limbs:
# R = 2^160, against the 64-bit limbs' 2^192)
@pytest.mark.parametrize("word_bits", WORD_BITS)
@pytest.mark.parametrize("p", [0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47,
                               (1 << 130) + 0x194c43186b3abc0b], ids=hex)
def test_lazy_montgomery_takes_operands_below_2p(p, word_bits):
    field, rng = check_modulus(hex(p), "test").at(GPU if word_bits == 32 else HOST64), random.Random(5)
    fn = MODULAR_OPERATIONS["montmul_lazy"].plan(field)
    n = field.limbs
    for a, b in [(2 * p - 1, 2 * p - 1), (p, p + 1)] + [(rng.randrange(2 * p), rng.randrange(2 * p))
                                                        for _ in range(300)]:
        got = value(execute(fn, words(a, n, word_bits) + words(b, n, word_bits)), word_bits)
        assert got < 2 * p and got % p == a * b * pow(field.montgomery_radix, -1, p) % p


@pytest.mark.parametrize("args, message", [
    (["--modulus", "0xfffffffb", "--ops", "montmul_lazy"], "--ops: montmul_lazy needs 4p < 2^32"),
    (["--modulus", "0"], "--modulus: the modulus must be above 1, not 0"),
    (["--modulus", "1"], "--modulus: the modulus must be above 1, not 1"),
    (["--modulus", "0x10", "--ops", "modmul,montmul"],
     "--ops: montmul needs an odd modulus (Montgomery form); this one is even: use modmul"),
    (["--modulus", "12z"], "--modulus: '12z' is not a number"),
    (["--modulus", hex(2 ** 2049 - 1)], "--modulus: the modulus has 2049 bits"),
    (["--modulus", "0xffffffffffffffc5", "--bits", "32"],
     "--modulus: the modulus has 64 bits, more than the 32 declared"),
    (["--modulus", "0x1f", "--bits", "64,128"], "--bits: give one size with --modulus"),
    (["--modulus", "0x1f", "--ops", "modadd,mul"], "--ops: unknown operation 'mul' for a modulus"),
    (["--modulus", "0x1f", "--name", "9lives"], "--name: '9lives' is not a name mpgen can use"),
    (["--name", "f"], "--name: names a modulus' header (or an RNS set's); give --modulus (or --rns-moduli) too"),
])
def test_bad_modulus_is_one_line_exit_2_nothing_written(mpgen, tmp_path, args, message):
    out = tmp_path / "out"
    r = mpgen("generate", *args, "--out", str(out))
    assert r.returncode == 2
    assert r.stderr.startswith(f"mpgen: error: {message}"), r.stderr
    assert r.stderr.count("\n") == 1
    assert not out.exists()


def test_modulus_header_is_named_and_lists_its_constants(mpgen, tmp_path):
    r = mpgen("generate", "--modulus", hex(2 ** 255 - 19), "--name", "curve25519", "--out",
              str(tmp_path))
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "mpgen_curve25519.cuh").read_text()
    assert "namespace curve25519 {" in text
    assert "constexpr uint32_t modulus[limbs] = {0xffffffedu, 0xffffffffu," in text
    record = json.loads((tmp_path / "mpgen_manifest.json").read_text())
    module = record["modules"][0]
    assert module["name"] == "curve25519" and module["field"]["modulus"] == hex(2 ** 255 - 19)
    assert module["field"]["minus_inverse"] == f"{-pow(2 ** 255 - 19, -1, 2 ** 32) % 2 ** 32:#010x}"
    montmul = next(op for op in module["operations"] if op["name"] == "montmul")
    assert [o["below_modulus"] for o in montmul["operands"]] == [True, True]
    modexp = next(op for op in module["operations"] if op["name"] == "modexp")
    assert [o["below_modulus"] for o in modexp["operands"]] == [True, False]


def test_even_modulus_header_has_no_montgomery_constants(mpgen, tmp_path):
    r = mpgen("generate", "--modulus", "0x1000", "--name", "even", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "mpgen_even.cuh").read_text()
    assert "Barrett" in text and "montgomery_minus_inverse" not in text
    assert "MPGEN_EVEN_OPS(X) X(modadd) X(modsub) X(modneg) X(is_zero) X(modmul) X(modsqr)" in text


# The 64-bit lists as the host compiles them (host64(), both carry renderings), on the
# presets (Solinas, pseudo-Mersenne and Montgomery reductions; 7 and 17 32-bit limbs, where
# the 64-bit limbs hold R's 32 bits more) and an even modulus (Barrett), against Python's
# integers; and the loops over them (modexp, modexp_ladder, modinv, modsqrt: the loop domain's
# products through their host64).
LOOPS_AT_64 = ["modexp", "modexp_ladder", "modinv", "modsqrt"]


# Each kind of reduction (pseudo-Mersenne, Solinas, Montgomery with and without the lazy
# product, Barrett for an even modulus) in every rendering of the 64-bit lists; the C++
# tests (tests/cpp/modular*.cpp) run every preset's default rendering against GMP.
@pytest.mark.parametrize("field", ["curve25519", "p256", "bls12_381_fp", "0x1000000000000000000000000000000000f6"])
def test_host64_compiled_matches_integers(field, mpgen, tmp_path):
    from conftest import run_host64
    p = int(PRESETS[field]["modulus"], 0) if field in PRESETS else int(field, 16)
    f32, rng = check_modulus(hex(p), "test"), random.Random(p)
    names = [n for n in PLANNED_AT_64 + LOOPS_AT_64 if modular.available(MODULAR_OPERATIONS[n], f32)]
    which = ["--field", field] if field in PRESETS else ["--modulus", field, "--name", "even"]
    r = mpgen("generate", *which, "--ops", ",".join(names + ["modinv_gcd"] * (p % 2)), "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    (module,) = json.loads((tmp_path / "mpgen_manifest.json").read_text())["modules"]
    ops = [op for op in module["operations"] if op["name"] in names]
    assert [op["name"] for op in ops if op["host64"]] == names  # (not modinv_gcd: its step is 32-bit only)
    assert all((op["host64"]["instructions"] is None) == op["loop"] for op in ops)
    edges = [0, 1, p - 1, p // 2, ((1 << 32 * (f32.limbs - 1)) - 1) % p]
    lines, wanted = [], []
    for k, op in enumerate(ops):
        n, binary = op["host64"]["operand_limbs"][0], len(op["operands"]) == 2
        top = 2 * p if op["name"] == "montmul_lazy" else p
        count = 10 if op["loop"] else 100
        for a, b in [(a, b) for a in edges for b in edges] + [(rng.randrange(top), rng.randrange(top))
                                                              for _ in range(count)]:
            lines.append(f"{k} " + " ".join(f"{w:x}" for w in words(a, n, 64) + (words(b, n, 64) if binary else [])))
            wanted.append((op, a, b))
    for driver, answers in run_host64(tmp_path, module, ops, lines).items():
        assert len(answers) == len(wanted)
        for (op, a, b), answer in zip(wanted, answers):
            name, result_limbs = op["name"], op["host64"]["result_limbs"]
            got, flag = value(answer[:result_limbs], 64), answer[result_limbs:]
            if name == "montmul_lazy":
                ok = got < 2 * p and got % p == reference("montmul", p, f32.montgomery_radix, a, b)
            elif name in ("modexp", "modexp_ladder"):
                ok = got == pow(a, b, p)
            elif name == "modinv":
                ok = (got, flag) == ((pow(a, -1, p), [0]) if a else (0, [1]))
            elif name == "modsqrt":
                square = a == 0 or pow(a, (p - 1) // 2, p) == 1
                ok = (got * got % p == a and flag == [0]) if square else (got, flag) == (0, [1])
            else:
                ok = got == reference(name, p, f32.montgomery_radix, a, b)
            assert ok, (driver, name, hex(a), hex(b), hex(got), flag)


# Montgomery's products at 64 bits print as x86-64 assembly too (mulx, adcx, adox: the rows of
# thread/rows.py), which host64() runs where the CPU has BMI2 and ADX; the test above checks
# both renderings against the integers, this one that the assembly is there and chosen
# exactly where /proc/cpuinfo says the CPU has both.
MONTGOMERY_AT_64 = ["montmul", "montmul_lazy", "montsqr", "montredc", "tomont", "frommont"]


@pytest.mark.parametrize("field", ["p224", "p256", "p521", "bls12_381_fp", "curve25519"])
def test_montgomery_products_print_as_x86_assembly(field, mpgen, tmp_path):
    f32 = check_modulus(PRESETS[field]["modulus"], "test")
    names = [n for n in MONTGOMERY_AT_64 if modular.available(MODULAR_OPERATIONS[n], f32)]
    r = mpgen("generate", "--field", field, "--ops", ",".join(names), "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    header = tmp_path / f"mpgen_{field}.cuh"
    assert header.read_text().count("if (::mpgen::x86_adx) {") == len(names)
    (tmp_path / "adx.cpp").write_text(f'#include "{header.name}"\n'
                                      "int main() {\n#ifdef MPGEN_X86_ASM\n  return mpgen::x86_adx ? 0 : 1;\n"
                                      "#else\n  return 1;\n#endif\n}\n")
    compiler = shutil.which("c++") or shutil.which("g++")
    subprocess.run([compiler, "-std=c++17", "-o", str(tmp_path / "adx"), str(tmp_path / "adx.cpp")], check=True,
                   cwd=tmp_path)
    flags = set()
    if platform.machine() == "x86_64" and Path("/proc/cpuinfo").exists():
        flags = {w for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("flags")
                 for w in line.split(":", 1)[1].split()}
    chosen = subprocess.run([str(tmp_path / "adx")]).returncode == 0
    assert chosen == ({"bmi2", "adx"} <= flags)
