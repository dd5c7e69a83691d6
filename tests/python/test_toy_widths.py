"""Every input at a toy width: the per-thread planners written for any word width
(ir.ANY_WIDTH: sums, differences, products, comparisons, logic, constant shifts and the
modular lists for every kind of modulus; ir.GPU_AND_TOY: the variable shifts and the bit
counts), the GPU's plans, the host's (size.Target.host_plans: products by columns) and
the x86 assembly's (the full products by rows through two chains), planned at 4-bit limbs
(ir.TOY_BITS) and run by the lists' interpreter on every operand of 2 and 3 limbs at once
(NumPy arrays of every combination, one word an array) against the integers: each carry,
borrow and mask path of the lists that print the 32- and 64-bit code."""
import numpy as np
import pytest

from mpgen.ir import ANY_WIDTH, TOY_BITS, execute
from mpgen.request import check_modulus, defaults
from mpgen.size import Size, Target
from mpgen.thread import modular
from mpgen.thread.bits import constant_shift
from mpgen.thread.powers import LoopOperation

# 2 limbs (a top limb of 1 to 4 bits) and 3; every input of an operation where they number
# at most INPUTS (binary operations to 10 bits, unary ones to 12, mad's three to 6), or
# ONE_BY_ONE for the lists whose opcodes (clz, popc, brev, the clamped funnel shifts) the
# interpreter runs on one integer at a time.
BITS = range(TOY_BITS + 1, 3 * TOY_BITS + 1)
INPUTS = 1 << 20
ONE_BY_ONE = 1 << 14
FAMILIES = {"gpu": Target(TOY_BITS), "host": Target(TOY_BITS, host_plans=True),
            "x86": Target(TOY_BITS, host_plans=True, x86=True)}
ANY_WIDTH_OPERATIONS = {"add", "sub", "add_ui", "sub_ui", "neg", "mul", "mul_lo", "mul_hi", "sqr", "mul_ui", "mad",
                        "eq", "lt", "cmp", "is_zero", "and", "or", "xor", "not"}
GPU_AND_TOY_OPERATIONS = {"shl", "shr", "popc", "clz", "ctz"}


def every_input(widths: tuple[int, ...]) -> list[np.ndarray]:
    """Each operand's values over every combination of the operands' values."""
    index = np.arange(1 << sum(widths), dtype=np.uint64)
    operands, shift = [], 0
    for width in widths:
        operands.append((index >> np.uint64(shift)) & np.uint64((1 << width) - 1))
        shift += width
    return operands


def expected(name: str, bits: int, x: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray | None]:
    """The result as an integer array, then the flag (the carry or borrow) where there is one."""
    m = np.uint64((1 << bits) - 1)
    a, b = x[0], x[1] if len(x) > 1 else None
    if name in ("add", "add_ui", "sub", "sub_ui"):
        signed = [v.astype(np.int64) for v in x]
        total = signed[0] + signed[1] + (signed[2] if len(x) > 2 else 0) if name.startswith("add") else \
            signed[0] - signed[1] - (signed[2] if len(x) > 2 else 0)
        return total.astype(np.uint64) & m, ((total < 0) | (total > int(m))).astype(np.uint64)
    word_ones = np.uint64((1 << TOY_BITS) - 1)
    results = {
        "neg": lambda: (m + np.uint64(1) - a) & m, "mul": lambda: a * b, "mul_lo": lambda: a * b & m,
        "mul_hi": lambda: a * b >> np.uint64(bits), "sqr": lambda: a * a, "mul_ui": lambda: a * b,
        "mad": lambda: a * b + x[2], "eq": lambda: (a == b).astype(np.uint64), "lt": lambda: (a < b).astype(np.uint64),
        "cmp": lambda: np.where(a > b, np.uint64(1), np.where(a < b, word_ones, np.uint64(0))),
        "is_zero": lambda: (a == 0).astype(np.uint64), "and": lambda: a & b, "or": lambda: a | b,
        "xor": lambda: a ^ b, "not": lambda: ~a & m, "shl": lambda: (a << b) & m, "shr": lambda: a >> b,
        "popc": lambda: each(a, int.bit_count), "clz": lambda: each(a, lambda v: bits - v.bit_length()),
        "ctz": lambda: each(a, lambda v: (v & -v).bit_length() - 1 if v else bits),
    }
    if name in results:
        return results[name](), None
    k = np.uint64(int(name[3:]))
    return ((a << k) & m if name.startswith("shl") else a >> k), None


def each(values: np.ndarray, count) -> np.ndarray:
    """count(v) of each value, as Python's integers count."""
    return np.array([count(int(v)) for v in values], dtype=np.uint64)


def words(value: np.ndarray, count: int) -> list[np.ndarray]:
    ones = np.uint64((1 << TOY_BITS) - 1)
    return [(value >> np.uint64(TOY_BITS * i)) & ones for i in range(count)]


def run(fn, inputs: list[np.ndarray], one_by_one: bool) -> list[np.ndarray]:
    """The list on every input at once, or (one_by_one) on each input's integers in turn."""
    if not one_by_one:
        return execute(fn, inputs)
    rows = [execute(fn, [int(w[i]) for w in inputs]) for i in range(len(inputs[0]))]
    return [np.array(column, dtype=np.uint64) for column in zip(*rows)]


def toy_operations(size: Size) -> list:
    """The operations planned at the toy width (for the x86 assembly, those it has plans of
    its own for: it prints the others from the host's)."""
    return [op for op in defaults(size) if TOY_BITS in op.word_bits and (not size.x86 or op.x86_plan(size))]


def shifts(size: Size) -> list:
    """The constant shifts by every amount below the width (across limbs and within one)."""
    return [] if size.x86 else [constant_shift(direction, k) for direction in ("shl", "shr") for k in range(1, size.bits)]


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("bits", BITS)
def test_every_input_at_4_bit_limbs(family, bits):
    checked, auto_bodies = 0, {}
    for method in ("auto", "karatsuba"):
        size = Size(bits, method).at(FAMILIES[family])
        operations = toy_operations(size)
        assert {op.name for op in operations} - ANY_WIDTH_OPERATIONS - GPU_AND_TOY_OPERATIONS == \
            {op.name for op in operations if op.name[:3] in ("shl", "shr") and op.name[3:].isdigit()}
        if family == "x86":
            assert {op.name for op in operations} == {"mul", "sqr", "mul_hi"}
        for op in operations + [s for s in shifts(size) if s.name not in {op.name for op in operations}]:
            fn, widths = op.plan(size), op.operand_bits(size)
            one_by_one = op.name in GPU_AND_TOY_OPERATIONS
            if method == "auto":
                auto_bodies[op.name] = fn.body
            elif fn.body == auto_bodies[op.name]:  # Karatsuba plans it as auto does: checked
                continue
            if 1 << sum(widths) > (ONE_BY_ONE if one_by_one else INPUTS):
                continue
            x = every_input(widths)
            inputs = [w for value, width in zip(x, widths) for w in words(value, -(-width // TOY_BITS))]
            result, flag = expected(op.name, bits, x)
            got = run(fn, inputs, one_by_one)
            want = words(result, op.result_limbs(size)) + ([flag] if flag is not None else [])
            assert len(got) == len(want)
            for k, (g, w) in enumerate(zip(got, want)):
                wrong = np.nonzero(np.broadcast_to(g, w.shape) != w)[0]
                assert not wrong.size, (op.name, method, f"word {k}", [int(v[wrong[0]]) for v in x])
            checked += 1
    assert checked >= (1 if family == "x86" else 10)


def test_what_is_not_yet_planned_at_the_toy_width():
    """A size's operations all run at 4 bits but the division's, gcd's and sqrt's (their
    reciprocals and estimates hold 32-bit constants), the loops (modexp, modinv: C++ over
    the lists) and those of a modulus given at run time (montmul ... with p an operand);
    a field's modular lists run below (test_every_modular_input_at_4_bit_limbs)."""
    size = Size(8).at(FAMILIES["gpu"])
    assert TOY_BITS in ANY_WIDTH
    assert {op.name for op in toy_operations(size)} == ANY_WIDTH_OPERATIONS | GPU_AND_TOY_OPERATIONS | {"shl1", "shr1"}
    assert {op.name for op in defaults(size)} - {op.name for op in toy_operations(size)} == {
        "div_qr", "div", "rem", "div_qr_wide", "gcd", "sqrt", "modexp", "modinv", "barrett_modmul",
        "barrett_reciprocal", "montmul", "montsqr", "montredc", "tomont", "frommont", "modmul", "mont_minus_inverse",
        "mont_radix_squared"}


# Moduli of every kind the modular planners tell apart, in fields of 5 to 10 bits (2 and 3
# limbs): Montgomery's without a spare bit, with two (montmul_lazy), with -p^-1 mod 16 all
# ones and 1 (their shortcuts), pseudo-Mersenne's (2^8 - 5, 2^10 - 3), Solinas' (2^8 - 2^4
# + 1), an even one (Barrett's), a top limb of one bit.
MODULI = [(0xB5, 8), (0x3B, 8), (0xC1, 8), (0xCF, 8), (0xFB, 8), (0xF1, 8), (0xB6, 8), (0x13, 5), (0x1F3, 9),
          (0x3FD, 10)]


def modular_expected(name: str, p: int, radix: int, x: list[np.ndarray]) -> np.ndarray:
    a, b = x[0], x[1] if len(x) > 1 else None
    inverse = np.uint64(pow(radix, -1, p) if p % 2 else 0)
    p, r = np.uint64(p), np.uint64(radix % p)
    return {"modadd": lambda: (a + b) % p, "modsub": lambda: (a + p - b) % p, "modneg": lambda: (p - a) % p,
            "is_zero": lambda: (a == 0).astype(np.uint64), "modmul": lambda: a * b % p, "modsqr": lambda: a * a % p,
            "montmul": lambda: a * b % p * inverse % p, "montmul_lazy": lambda: a * b % p * inverse % p,
            "montsqr": lambda: a * a % p * inverse % p, "montredc": lambda: (b * r + a) % p * inverse % p,
            "tomont": lambda: a * r % p, "frommont": lambda: a * inverse % p}[name]()


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("p, bits", MODULI, ids=lambda v: hex(v) if v > 16 else str(v))
def test_every_modular_input_at_4_bit_limbs(family, p, bits):
    """Every pair of operands below p (below 2p for montmul_lazy, whose result need only be
    congruent and below 2p)."""
    field = check_modulus(hex(p), "test", bits=bits).at(FAMILIES[family])
    operations = [op for op in modular.OPERATIONS if not isinstance(op, LoopOperation) and op.name != "gcd_step"
                  and modular.available(op, field) and (family != "x86" or op.x86_plan(field))]
    assert all(TOY_BITS in op.word_bits for op in operations)
    if family == "x86":
        assert {op.name for op in operations} == ({"modmul", "modsqr"} if field.pseudo_mersenne else set())
    for op in operations:
        fn, count = op.plan(field), len(op.operand_bits(field))
        bound = 2 * p if op.name == "montmul_lazy" else p
        index = np.arange(bound ** count, dtype=np.uint64)
        x = [index % np.uint64(bound), index // np.uint64(bound)][:count]
        got = execute(fn, [w for value in x for w in words(value, field.limbs)])
        got = sum(np.broadcast_to(g, index.shape) << np.uint64(TOY_BITS * k) for k, g in enumerate(got))
        want = modular_expected(op.name, p, field.montgomery_radix, x)
        if op.name == "montmul_lazy":
            got = np.where(got < np.uint64(2 * p), got % np.uint64(p), np.uint64(2 * p))
        wrong = np.nonzero(got != want)[0]
        assert not wrong.size, (op.name, [int(v[wrong[0]]) for v in x])
