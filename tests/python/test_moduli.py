"""The operations whose modulus is an operand (Montgomery arithmetic modulo an odd p given
at run time), run by the instruction-list interpreter, against Python's integers."""
import math
import random

import pytest

from mpgen.fields import PRESETS, to_words
from mpgen.ir import execute
from mpgen.request import check_modulus
from mpgen.size import Size
from mpgen.thread import MODULAR_OPERATIONS, find, gcd, runtime_modulus
from mpgen.thread.powers import LoopOperation


def value(words: list[int]) -> int:
    return sum(w << 32 * i for i, w in enumerate(words))


def moduli(bits: int, rng: random.Random) -> list[int]:
    """1, 3, 2^bits - 1, 2^(bits-1) + 1, then random odd ones of random widths."""
    edges = [1, 3, (1 << bits) - 1, (1 << bits - 1) | 1]
    return edges + [rng.getrandbits(rng.randrange(2, bits + 1)) | 1 for _ in range(60)]


@pytest.mark.parametrize("bits", [32, 33, 64, 131, 255, 256, 384, 521])
def test_montgomery_with_the_modulus_as_an_operand(bits):
    size, rng = Size(bits), random.Random(bits)
    n, radix = size.limbs, 1 << 32 * size.limbs
    lists = {op.name: op.plan(size) for op in runtime_modulus.OPERATIONS if not isinstance(op, LoopOperation)}
    for p in moduli(bits, rng):
        minus_inverse = -pow(p, -1, 1 << 32) % (1 << 32)
        inverse = pow(radix, -1, p) if p > 1 else 0
        context = to_words(p, n) + [minus_inverse]
        for a, b in [(0, 0), (p - 1, p - 1), (1, p - 1)] + [(rng.randrange(p), rng.randrange(p)) for _ in range(5)]:
            low = rng.getrandbits(bits)
            cases = {"montmul": ([a, b], a * b), "tomont": ([a, b], a * b), "montsqr": ([a], a * a),
                     "frommont": ([a], a), "montredc": ([low, b], b * radix + low)}
            for name, (operands, product) in cases.items():
                got = value(execute(lists[name], [w for v in operands for w in to_words(v, n)] + context))
                assert got == product * inverse % p, (name, hex(p), [hex(v) for v in operands])


def test_the_manifest_names_the_modulus_and_its_inverse():
    op = runtime_modulus.OPERATIONS[0]
    assert op.name == "montmul" and op.modulus_operand == 2
    assert op.operand_bits(Size(256)) == (256, 256, 256, 32)
    assert runtime_modulus.below_modulus(op) == 0b11
    assert runtime_modulus.below_modulus(next(o for o in runtime_modulus.OPERATIONS if o.name == "montredc")) == 0b10


def test_the_manifest_gives_each_operand_its_role():
    from mpgen.thread import find
    from mpgen.plan import plan
    from mpgen.printers import manifest
    module = plan(Size(256), [find("montmul"), find("add")])
    roles = [[o["role"] for o in manifest.operation(p, module)["operands"]] for p in module.ops]
    assert roles == [["value", "value", "modulus", "minus_inverse"], ["value", "value", "value"]]


@pytest.mark.parametrize("bits", [32, 64, 131, 256])
def test_the_constants_of_a_modulus(bits):
    # -p^-1 mod 2^32 by its list; R^2 mod p by division's lists as radix_squared runs them
    # (headers/loops.cuh): the remainder of R, then of (R mod p) R; even p: 0 and the flag
    from test_division import divide
    size, rng = Size(bits), random.Random(bits)
    radix = 1 << 32 * size.limbs
    inverse = runtime_modulus.OPERATIONS[5].plan(size)
    assert inverse.name == "mont_minus_inverse"
    for p in moduli(bits, rng) + [2, 0, (1 << bits) - 2]:
        odd = p % 2
        want = -pow(p, -1, 1 << 32) % (1 << 32) if odd else 0
        assert execute(inverse, to_words(p, size.limbs)) == [want, 1 - odd], hex(p)
        if odd:
            first = divide(size, 1, 0, p)
            once = first[1] if not first[2] else 0
            assert divide(size, once, 0, p)[1] == radix * radix % p, hex(p)


@pytest.mark.parametrize("bits", [32, 64, 131, 256])
def test_modinv_with_the_modulus_as_an_operand(bits):
    # modinv_start, rounds(bits) modinv_rounds, modinv_finish, as headers/loops.cuh's divsteps
    # runs them; p even or sharing a factor with a: result 0 and the flag
    size, rng = Size(bits), random.Random(bits)
    n = size.limbs
    start, round_, finish = next(op for op in runtime_modulus.OPERATIONS if op.name == "modinv").steps(size)
    for p in moduli(bits, rng)[:10] + [1, 2, 3 * 5 * 7, (1 << bits) - 2]:
        for a in (0, 1, 2, 3, p - 1, rng.randrange(p), rng.randrange(p)):
            a %= p
            state = execute(start, to_words(a, n) + to_words(p, n))
            for _ in range(gcd.rounds(bits)):
                state = execute(round_, state) + state[round_.out_words:]
            y = execute(finish, state)
            has = p % 2 == 1 and math.gcd(a, p) == 1
            want = pow(a, -1, p) if has else 0
            assert (value(y[:n]), y[n]) == (want, int(not has)), (hex(p), hex(a))


@pytest.mark.parametrize("name", [n for n in PRESETS if int(PRESETS[n]["modulus"], 0) % 2])
def test_the_modulus_at_run_time_agrees_with_the_fixed_one_for_every_preset(name):
    # the same size's run-time lists (p and -p^-1 as operands) against the preset field's
    # own (p as immediates), on the same operands: equal words
    field = check_modulus(PRESETS[name]["modulus"], "test", label=name)
    size, rng, p = Size(field.bits), random.Random(name), field.modulus
    n = size.limbs
    context = to_words(p, n) + [field.minus_inverse]
    runtime = {op.name: op.plan(size) for op in runtime_modulus.OPERATIONS if not isinstance(op, LoopOperation)}
    for op_name in ("montmul", "montsqr", "montredc", "tomont", "frommont"):
        fixed = MODULAR_OPERATIONS[op_name].plan(field)
        values = 1 if op_name in ("montsqr", "tomont", "frommont") else 2
        for _ in range(30):
            operands = [rng.randrange(p) for _ in range(values)]
            if op_name == "montredc":
                operands[0] = rng.getrandbits(field.bits)
            words = [w for v in operands for w in to_words(v, n)]
            extra = to_words(field.radix_squared, n) if op_name == "tomont" else []
            assert execute(runtime[op_name], words + extra + context) == execute(fixed, words), (op_name, operands)


def barrett_reciprocal(p: int, limbs: int) -> int:
    """v = floor((2^(2W) - 1) / p') - 2^W, p' = p shifted up by its leading zeros in W bits."""
    width = 32 * limbs
    normal = p << width - p.bit_length()
    return ((1 << 2 * width) - 1) // normal - (1 << width)


@pytest.mark.parametrize("bits", [32, 33, 64, 131, 255, 256, 384, 521, 1024])
def test_barrett_modmul_with_the_modulus_and_its_reciprocal_as_operands(bits):
    """Any p, even ones and powers of two too, with the products that take the corrections:
    (p - 1)^2, and random ones; p = 0 gives the flag and 0."""
    size, rng = Size(bits), random.Random(bits)
    n = size.limbs
    barrett = find("barrett_modmul").plan(size)
    edges = [1, 2, 3, 1 << bits - 1, (1 << bits) - 1, (1 << bits) - 2, (1 << bits - 1) + 1, (1 << 32) - 1]
    randoms = [rng.getrandbits(rng.randrange(1, bits + 1)) or 1 for _ in range(40)]
    for p in edges + randoms:
        context = to_words(p, n) + to_words(barrett_reciprocal(p, n), n)
        pairs = [(0, 0), (p - 1, p - 1), (1, p - 1), (p // 2, p - 1)] + \
            [(rng.randrange(p), rng.randrange(p)) for _ in range(20)]
        for a, b in pairs:
            got = execute(barrett, to_words(a, n) + to_words(b, n) + context)
            assert (value(got[:n]), got[n]) == (a * b % p, 0), (hex(p), hex(a), hex(b))
    assert execute(barrett, to_words(5, n) + to_words(7, n) + [0] * 2 * n) == [0] * n + [1]
