"""Each plan, run by the instruction-list interpreter, against Python's integers."""
import random

import pytest

from mpgen.ir import execute
from mpgen.ops import OPERATIONS
from mpgen.size import Size

SIZES = [32, 33, 63, 64, 65, 109, 131, 255, 256, 521]


def words(value: int, count: int) -> list[int]:
    return [(value >> (32 * i)) & 0xFFFFFFFF for i in range(count)]


def expected(name: str, a: int, b: int, bits: int) -> tuple[int, int]:
    if name == "add":
        return (a + b) % (1 << bits), (a + b) >> bits
    if name == "sub":
        return (a - b) % (1 << bits), int(a < b)
    return a * b, 0


@pytest.mark.parametrize("bits", SIZES)
@pytest.mark.parametrize("name", list(OPERATIONS))
def test_plan_matches_integers(name, bits):
    size, op = Size(bits), OPERATIONS[name]
    fn = op.plan(size)
    rng = random.Random(bits)
    top = (1 << bits) - 1
    pairs = [(0, 0), (top, top), (top, 1), (0, 1), (1 << (bits - 1), 1 << (bits - 1))]
    pairs += [(rng.getrandbits(bits), rng.getrandbits(bits)) for _ in range(200)]
    for a, b in pairs:
        y = execute(fn, words(a, size.limbs) + words(b, size.limbs))
        result, flag = expected(name, a, b, bits)
        assert y[:op.result_limbs(size)] == words(result, op.result_limbs(size)), (a, b)
        assert y[op.result_limbs(size):] == ([flag] if op.flag else [])


@pytest.mark.parametrize("bits, limbs", [(131, 9), (128, 8), (255, 16), (521, 33), (1024, 64)])
def test_product_has_exact_width(bits, limbs):
    fn = OPERATIONS["mul"].plan(Size(bits))
    assert fn.out_words == limbs
    assert {i.dst.index for i in fn.body if i.dst.bank == "y"} == set(range(limbs))


def test_carry_read_without_carry_set_is_refused():
    from mpgen.ir import Function, Reg
    fn = Function("broken", 2, 1)
    fn.emit("addc", Reg("y", 0), Reg("x", 0), Reg("x", 1))
    with pytest.raises(ValueError, match="reads a carry"):
        fn.check()
