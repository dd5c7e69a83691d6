"""The group tier's Montgomery operations with p at run time (group/montgomery.py) and its
modexp (group/powers.py), run on the host by the group executor against Python's integers:
R = 2^(32 limbs), -p^-1 mod R whole; shapes where the group holds exactly R's limbs, more
limbs than R (the sums moved down to R), and sizes that are not whole limbs. Then the
composition they are built with."""
import random

import pytest

from mpgen.group import Shape, execute
from mpgen.group.addsub import add_or_sub
from mpgen.group.compose import Composer
from mpgen.group.montgomery import by_products, frommont, interleaved, interleaved_reduction, mont_minus_inverse, \
    montmul, montredc, montsqr, newton_steps, reduction_by_products, tomont
from mpgen.group.mul import mul_lo
from mpgen.group.powers import modexp, mont_radix_squared
from mpgen.group.program import Program, Repeat, ThreadStep, flat, vectors
from mpgen.group.words import copy
from mpgen.ir import Function, Reg
from mpgen.printers import group as printer
from mpgen.tiers import GROUP_TABLE, Tier

# bits, T, Q: 16 limbs in 16 (R's limbs held exactly), 15 in 16, 500 bits (16 limbs, the top
# one short) and 94 limbs in 96 (3000 bits). A default size's geometry (4096 and 8192 bits)
# runs these operations against GMP in the C++ tests (tests/cpp/moduli.cpp).
SHAPES = [(512, 8, 2), (480, 8, 2), (500, 8, 2), (3000, 16, 6)]


def moduli(bits: int, rng: random.Random, count: int) -> list[int]:
    top = (1 << bits) - 1
    edges = [3, top, (1 << (bits - 1)) + 1, (1 << bits) - (1 << 32) + 1, (1 << 32) - 1,
             int("ab" * (bits // 8), 16) | 1]
    return [p for p in edges if p < 1 << bits] + [rng.getrandbits(rng.randrange(2, bits + 1)) | 1 for _ in range(count)]


@pytest.mark.parametrize("bits, threads, q", SHAPES)
def test_montgomery_operations_against_python_integers(bits, threads, q):
    shape = Shape(bits, threads, q)
    width = 32 * shape.limbs
    radix = 1 << width
    programs = {name: plan(shape) for name, plan in
                (("montmul", montmul), ("tomont", tomont), ("montsqr", montsqr), ("montredc", montredc),
                 ("frommont", frommont))}
    rng = random.Random(bits)
    for p in moduli(bits, rng, 2 if bits > 1000 else 6):
        np = -pow(p, -1, radix) % radix
        back = pow(radix, -1, p)
        values = [0, 1, p - 1, (p + 1) // 2, rng.randrange(p)]
        for a, b in ([(values[i], values[j]) for i in range(5) for j in range(5)] if bits < 1000 else
                     [(values[2], values[2]), (values[4], rng.randrange(p))]):
            assert execute(programs["montmul"], [a, b, p, np], []) == (a * b * back % p, None)
            assert execute(programs["tomont"], [a, b, p, np], []) == (a * b * back % p, None)
            assert execute(programs["montsqr"], [a, p, np], []) == (a * a * back % p, None)
            assert execute(programs["frommont"], [a, p, np], []) == (a * back % p, None)
            low = rng.getrandbits(width) if a == 0 else (1 << width) - 1  # any low half: all ones too
            assert execute(programs["montredc"], [low, b, p, np], []) == ((low + b * radix) * back % p, None)


# Q = 8 and 9 beside SHAPES' 2 and 6 (3072 bits, R's width held exactly, runs against GMP in
# tests/cpp/moduli.cpp's RSA-3072 case, 3000 here)
@pytest.mark.parametrize("method", [interleaved, by_products])
@pytest.mark.parametrize("bits, threads, q", SHAPES + [(2048, 8, 8), (2080, 8, 9)])
def test_both_methods_of_montgomerys_product(method, bits, threads, q):
    """Each method whatever the data picks for the size: edge moduli (all ones, 2^(bits-1)
    + 1, ...) with a, b at 0, 1, p - 1 and random."""
    shape = Shape(bits, threads, q)
    radix = 1 << 32 * shape.limbs
    product, square = method(shape, False), method(shape, True)
    rng = random.Random(bits + q)
    for p in moduli(bits, rng, 2):
        np, back = -pow(p, -1, radix) % radix, pow(radix, -1, p)
        for a, b in [(0, p - 1), (1, 1), (p - 1, p - 1), (rng.randrange(p), rng.randrange(p))]:
            assert execute(product, [a, b, p, np], []) == (a * b * back % p, None)
            assert execute(square, [a, p, np], []) == (a * a * back % p, None)


@pytest.mark.parametrize("method", [interleaved_reduction, reduction_by_products])
@pytest.mark.parametrize("bits, threads, q", SHAPES + [(2080, 8, 9)])
def test_both_methods_of_montgomerys_reduction(method, bits, threads, q):
    """montredc and frommont by each method, whatever the size picks: edge moduli, low
    halves of 0, all ones and random, high halves of 0, p - 1 and random."""
    shape = Shape(bits, threads, q)
    width = 32 * shape.limbs
    radix = 1 << width
    redc, back_from = method(shape, True), method(shape, False)
    rng = random.Random(bits + q + 1)
    for p in moduli(bits, rng, 2):
        np, back = -pow(p, -1, radix) % radix, pow(radix, -1, p)
        for low, high in [(0, 0), (radix - 1, p - 1), (rng.getrandbits(width), rng.randrange(p))]:
            assert execute(redc, [low, high, p, np], []) == ((low + high * radix) * back % p, None)
        for a in (0, 1, p - 1, rng.randrange(p)):
            assert execute(back_from, [a, p, np], []) == (a * back % p, None)


@pytest.mark.parametrize("bits, threads, q", SHAPES)
def test_minus_inverse_mod_r_whole_and_the_flag_for_even_moduli(bits, threads, q):
    shape = Shape(bits, threads, q)
    radix = 1 << 32 * shape.limbs
    program = mont_minus_inverse(shape)
    rng = random.Random(bits + 1)
    for p in moduli(bits, rng, 2 if bits > 1000 else 8):
        assert execute(program, [p], []) == (-pow(p, -1, radix) % radix, 0)
    for p in (0, 2, 1 << (bits - 1), (1 << bits) - 2):
        assert execute(program, [p], []) == (0, 1)
    steps = newton_steps(32 * shape.limbs)  # from 3 good bits, doubled until R's are
    assert 3 << steps >= 32 * shape.limbs > 3 << (steps - 1)


def test_a_repeat_runs_its_body_count_times_carrying_its_vectors():
    shape = Shape(512, 8, 2)
    c = Composer(shape)
    def quadruple(body: Composer) -> None:
        twice = body.call(add_or_sub("add", shape, carry_in=False), "x", "x").result
        body.call(add_or_sub("add", shape, carry_in=False), twice, twice, into="x")
    c.repeat(5, quadruple)
    program = Program("times1024", shape, ("x",), (), tuple(c.steps), "x", None)
    assert isinstance(program.steps[0], Repeat) and program.steps[0].count == 5
    assert execute(program, [3], []) == (3 << 10, None)
    assert execute(program, [1 << 508], []) == (0, None)  # mod 2^512
    device = "\n".join(printer.device(program, Tier("group", 8, 1, 2)))
    assert "for (unsigned repeat0 = 0; repeat0 < 5; ++repeat0) {" in device


def test_a_repeat_until_ends_once_every_thread_is_done():
    """x doubles each run, at most 20 runs, until bit 40 is set: each thread's done bit is
    1 where its limbs are 0 (all but thread 0 here) or hold bit 40 (thread 0's limb 1, bit
    8). From 2^30 the loop ends after 10 runs, from 3 it runs all 20; in a call its vector
    takes the call's name."""
    shape = Shape(512, 8, 2)
    inner = Composer(shape)
    inner.step(ThreadStep(copy(2), ("a",), (("x", 2),)))

    def double(body: Composer) -> None:
        body.call(add_or_sub("add", shape, carry_in=False), "x", "x", into="doubled")
        body.step(ThreadStep(_done_at_bit_40(), ("doubled",), (("x", 2), ("done", 1))))
    inner.repeat(20, double, until="done")
    outer = Composer(shape)
    outer.call(Program("double_until", shape, ("a",), (), tuple(inner.steps), "x", None), "input", into="y")
    program = Program("outer", shape, ("input",), (), tuple(outer.steps), "y", None)
    loop = program.steps[1]
    assert isinstance(loop, Repeat) and loop.until.endswith("_done") and loop.count == 20
    assert execute(program, [1 << 30], []) == (1 << 40, None)
    assert execute(program, [3], []) == (3 << 20, None)
    device = "\n".join(printer.device(program, Tier("group", 8, 1, 2)))
    assert f"every<false>(v_{loop.until}[0])) break;" in device
    host = "\n".join(printer.host(program, [16], 16))
    assert f"on_host::every(8, v_{loop.until})) break;" in host


def _done_at_bit_40() -> Function:
    """x = a thread's 2 limbs; y = them, then 1 where both are 0 or bit 8 of the second is set."""
    fn = Function("done_at_bit_40", 2, 3)
    either_, zero = fn.temp(), fn.temp()
    fn.emit("mov", Reg("y", 0), Reg("x", 0))
    fn.emit("mov", Reg("y", 1), Reg("x", 1))
    fn.emit("or", either_, Reg("x", 0), Reg("x", 1))
    fn.emit("sub.cc", fn.temp(), 0, either_)  # borrows unless both are 0
    fn.emit("subc", zero, 0, 0)
    fn.emit("add", zero, zero, 1)
    fn.emit("shr", Reg("y", 2), Reg("x", 1), 8)
    fn.emit("or", Reg("y", 2), Reg("y", 2), zero)
    fn.check()
    return fn


def test_a_call_keeps_its_own_width_and_refuses_what_would_clobber_its_operands():
    shape = Shape(512, 8, 2)
    narrow = Shape(500, 8, 2)
    c = Composer(shape)
    total = c.call(add_or_sub("add", narrow, carry_in=False), "a", "b")
    program = Program("add500", shape, ("a", "b"), (), tuple(c.steps), total.result, total.flag)
    top = (1 << 500) - 1
    assert execute(program, [top, 1], []) == (0, 1)  # the carry out of 500 bits, not 512
    with pytest.raises(ValueError, match="called with"):
        c.call(mul_lo(shape), "a")
    with pytest.raises(ValueError, match="called with"):
        c.call(mul_lo(Shape(512, 16, 2)), "a", "b")
    with pytest.raises(ValueError, match="called with"):
        c.call(add_or_sub("add", shape, carry_in=False), "a", "b", into="a")
    clobber = Function("clobber", 2, 2)
    for i in range(2):
        clobber.emit("mov", Reg("y", i), Reg("x", i))
    writes_operand = Program("clobber", shape, ("a",), (), (ThreadStep(clobber, ("a",), (("a", 2),)),), "a", None)
    with pytest.raises(ValueError, match="writes one of its operands"):
        Composer(shape).call(writes_operand, "v")


def test_two_different_lists_of_one_name_in_a_program_are_refused():
    shape = Shape(512, 8, 2)
    one, two = Function("same", 1, 1), Function("same", 1, 1)
    one.emit("mov", Reg("y", 0), Reg("x", 0))
    two.emit("not", Reg("y", 0), Reg("x", 0))
    program = Program("twice", shape, ("a",), (), (ThreadStep(one, ("a",), (("b", 1),)),
                                                   ThreadStep(two, ("b",), (("c", 1),))), "c", None)
    with pytest.raises(ValueError, match="two different lists are called same"):
        printer.lists(program)


# modexp runs 2 L Montgomery products in the interpreter: small widths on the smallest group
# (64 bits on 8 threads of 2 limbs; 100 bits, R = 2^128 on 16 limbs), few cases.
@pytest.mark.parametrize("bits", [64, 100])
def test_modexp_computes_its_constants_and_agrees_with_python(bits):
    program = modexp(Shape(bits, 8, 2))
    rng = random.Random(bits)
    top = (1 << bits) - 1
    for p in (1, 3, top, rng.getrandbits(bits) | 1 | 1 << (bits - 1), rng.getrandbits(40) | 1):
        a = rng.randrange(p)
        # every base and exponent edge at the full-width modulus, one random pair elsewhere
        pairs = ((a, rng.getrandbits(bits)), (p - 1, top), (0, 0), (a, 1)) if p >> (bits - 1) else ((a, rng.getrandbits(bits)),)
        for base, exponent in pairs:
            assert execute(program, [base, exponent, p], []) == (pow(base, exponent, p), 0), (p, base, exponent)
    assert execute(program, [1, 5, 6], []) == (0, 1)  # p even: the flag, and 0


@pytest.mark.parametrize("bits, threads, q, newton", [(64, 8, 2, False), (500, 8, 2, False), (3000, 16, 6, False),
                                                     (500, 8, 2, True)])
def test_radix_squared_by_the_division(bits, threads, q, newton, monkeypatch):
    # the division by the schoolbook, and by Newton's reciprocal as from data/group.toml's
    # [division] newton_from_bits (after the schoolbook's first 2 digits of 8)
    if newton:
        monkeypatch.setitem(GROUP_TABLE["division"], "newton_from_bits", 0)
        monkeypatch.setitem(GROUP_TABLE["division"], "newton_schoolbook_digits", 2)
    shape = Shape(bits, threads, q)
    radix = 1 << 32 * shape.limbs
    program = mont_radix_squared(shape)
    names = {step.fn.name for step in flat(program.steps) if isinstance(step, ThreadStep)}
    assert "division_digit" in names
    assert not any(name.startswith("mont_minus_inverse") for name in vectors(program))  # the flag: p's lowest bit
    rng = random.Random(bits)
    # 1 (R mod 1 = 0, where the division raises a flag of its own), short ones (the normalization's longest shifts),
    # all ones, R's half plus one, random
    moduli = [1, 3, (1 << 32) - 1, (1 << bits) - 1, (1 << (bits - 1)) + 1, rng.getrandbits(bits) | 1,
              rng.getrandbits(bits // 2) | 1]
    for p in moduli:
        assert execute(program, [p], []) == (radix * radix % p, 0), p
    assert execute(program, [10], []) == (0, 1)
