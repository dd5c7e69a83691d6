"""The cooperative level (mpgen/group.py) run on the host against Python's integers: the
carry scan's one-addition formula against the serial definition, and add, sub, neg and the
comparisons at every shape of SHAPES (2048 to 32,768 bits), with carries and borrows that
ripple across every thread."""
import random

import pytest

import mpgen

from mpgen.group import ProductRows, Shape, add_or_sub, carries, compare, execute, segments, shift_constant, \
    shift_variable
from mpgen.group import ntt
from mpgen.group.division import div_qr
from mpgen.group.mul import mad, mul, mul_lo, sqr
from mpgen.group.program import exchange_shared_bytes, iterations

# Shapes: bits, T, Q (3000 bits: 94 limbs in 32 threads of 3, the top thread half used).
# 262,144 bits' (1,024 threads of 8 limbs: 32 warps) runs these operations against GMP in
# the C++ tests (tests/cpp/arith.cpp), its rendered code on the CPU and the GPU.
SHAPES = [(2048, 16, 4), (3000, 32, 3), (4096, 32, 4), (8192, 32, 8), (32768, 128, 8)]


def edges(bits: int, shape: Shape) -> list[int]:
    top = (1 << bits) - 1
    boundaries = [1 << (32 * shape.limbs_per_thread * t) for t in range(1, shape.threads)
                  if 32 * shape.limbs_per_thread * t < bits]
    return [0, 1, top, top - 1, 1 << (bits - 1)] + boundaries[:3] + [b - 1 for b in boundaries[:3]]


@pytest.mark.parametrize("bits, threads, q", SHAPES)
@pytest.mark.parametrize("kind", ["add", "sub", "neg"])
def test_against_python_integers(kind, bits, threads, q):
    shape = Shape(bits, threads, q)
    program = add_or_sub(kind, shape)
    rng = random.Random(bits)
    values = edges(bits, shape)
    pairs = [(a, b) for a in values for b in values]
    randoms = [(rng.getrandbits(bits), rng.getrandbits(bits)) for _ in range(20)]
    top = 1 << bits
    for a, b in pairs + randoms:
        for k in ((0,) if kind == "neg" else (0, 1)):
            if kind == "neg":
                assert execute(program, [a], []) == ((-a) % top, None)
            elif kind == "add":
                assert execute(program, [a, b], [k]) == ((a + b + k) % top, (a + b + k) >> bits)
            else:
                assert execute(program, [a, b], [k]) == ((a - b - k) % top, int(a - b - k < 0))


def test_carry_scan_formula_is_the_serial_carry():
    rng = random.Random(7)
    for threads in (8, 32, 1024):
        for _ in range(200):
            kinds = [rng.choice("gpn") for _ in range(threads)]  # generate, propagate, neither
            g = sum(1 << t for t, c in enumerate(kinds) if c == "g")
            p = sum(1 << t for t, c in enumerate(kinds) if c == "p")
            carry_in = rng.getrandbits(1)
            serial, c = 0, carry_in
            for t, kind in enumerate(kinds):
                serial |= c << t
                c = 1 if kind == "g" else c if kind == "p" else 0
            assert carries(g, p, carry_in, threads) == (serial, c)


@pytest.mark.parametrize("bits, threads, q", [(4096, 32, 4), (262144, 1024, 8)])
def test_a_carry_ripples_through_every_thread(bits, threads, q):
    shape, top = Shape(bits, threads, q), (1 << bits) - 1
    assert execute(add_or_sub("add", shape), [top, 0], [1]) == (0, 1)
    assert execute(add_or_sub("add", shape), [top, 1], [0]) == (0, 1)
    assert execute(add_or_sub("sub", shape), [0, 0], [1]) == (top, 1)
    assert execute(add_or_sub("sub", shape), [1 << (bits - 1), 1], [0]) == ((1 << (bits - 1)) - 1, 0)


@pytest.mark.parametrize("bits, threads, q, message", [
    (4096, 4, 32, "4 threads: a group is a power of two from 8 to 32768"),
    (4096, 24, 6, "24 threads: a group is a power of two"),
    (4096, 32, 3, "32 threads of 3 limbs do not hold 128 limbs"),
])
def test_shapes_that_cannot_hold_the_size_are_refused(bits, threads, q, message):
    with pytest.raises(ValueError, match=message):
        Shape(bits, threads, q).check()


@pytest.mark.parametrize("kind", ["add", "sub", "neg"])
def test_threads_above_the_top_limb_hold_zeros_and_results_stay_exact(kind):
    # 2080 bits = 65 limbs on 32 threads of 3: threads 22 to 31 hold only zeros.
    shape, rng = Shape(2080, 32, 3), random.Random(65)
    top = 1 << 2080
    for a, b in [(top - 1, 1), (0, 1), (top - 1, top - 1)] + [(rng.getrandbits(2080), rng.getrandbits(2080))
                                                               for _ in range(20)]:
        if kind == "neg":
            assert execute(add_or_sub("neg", shape), [a], []) == ((-a) % top, None)
        elif kind == "add":
            assert execute(add_or_sub("add", shape), [a, b], [1]) == ((a + b + 1) % top, (a + b + 1) >> 2080)
        else:
            assert execute(add_or_sub("sub", shape), [a, b], [1]) == ((a - b - 1) % top, int(a - b - 1 < 0))


@pytest.mark.parametrize("bits, threads, q, per_block", [
    (2048, 16, 4, 16), (2080, 32, 3, 8), (3000, 32, 3, 8), (4096, 32, 4, 8), (8192, 64, 4, 4),
    (32768, 256, 4, 1), (131072, 1024, 4, 1), (131104, 1024, 5, 1), (262144, 1024, 8, 1),
    (524288, 1024, 16, 1)])  # add at 2^19: one block (the products span two: below)
def test_the_tables_geometry(bits, threads, q, per_block):
    from mpgen.tiers import group
    tier = group(bits, -(-bits // 32))
    assert (tier.threads_per_instance, tier.limbs_per_thread, tier.instances_per_block) == (threads, q, per_block)


@pytest.mark.parametrize("bits, threads, q, blocks, block, launch_groups", [
    (524288, 1024, 16, 2, 512, 128), (524320, 4096, 5, 8, 512, 32), (600000, 4096, 5, 8, 512, 32),
    (1 << 20, 4096, 8, 8, 512, 32), (1 << 22, 8192, 16, 16, 512, 16), (1 << 24, 16384, 32, 32, 512, 8)])
def test_past_2_18_bits_a_products_group_spans_blocks(bits, threads, q, blocks, block, launch_groups):
    from mpgen.tiers import group
    tier = group(bits, -(-bits // 32), op="mul")
    assert (tier.threads_per_instance, tier.limbs_per_thread, tier.blocks_per_instance, tier.block_threads,
            tier.instances_per_block, tier.launch_groups) == (threads, q, blocks, block, 1, launch_groups)
    assert tier.launch(1, 1)["blocks_per_instance"] == blocks


@pytest.mark.parametrize("bits, threads, q, block, blocks", [
    (262144, 512, 16, 512, 1), (524288, 512, 32, 512, 1), (600000, 1024, 19, 1024, 1), (1 << 20, 1024, 32, 1024, 1),
    (1 << 21, 4096, 16, 512, 8), (1 << 22, 8192, 16, 512, 16), (1 << 24, 16384, 32, 512, 32)])
def test_sqrt_keeps_its_group_in_one_block_to_2_20_bits_then_takes_muls_rows(bits, threads, q, block, blocks):
    from mpgen.tiers import group
    tier = group(bits, -(-bits // 32), op="sqrt")
    assert (tier.threads_per_instance, tier.limbs_per_thread, tier.block_threads, tier.blocks_per_instance,
            tier.instances_per_block) == (threads, q, block, blocks, 1)


@pytest.mark.parametrize("bits", [(1 << 20) + 32, 1 << 21, 3 << 20, 1 << 22, 1 << 23, 1 << 24])
def test_past_2_20_bits_division_and_sqrt_take_muls_rows(bits):
    """Their Newton steps are products: on the products' geometry (data/group.toml, measured
    1.10x and 1.17-1.19x faster than on 32 limbs a thread at 2^21 and 2^22)."""
    from mpgen.tiers import group
    limbs = -(-bits // 32)
    shapes = {op: group(bits, limbs, op=op) for op in ("mul", "div_qr", "sqrt")}
    assert len({(t.threads_per_instance, t.limbs_per_thread, t.blocks_per_instance) for t in shapes.values()}) == 1


def test_a_spanning_groups_scratch_is_cuda_group_cuh_s():
    """span_scratch_words' layout is headers/group.cuh's: its first words (barrier, the
    scans' and votes' words a block, a broadcast) end where the header's pool begins; then
    the pool, the regions of the three primes' 2^16 points, and the twiddles with their flag."""
    import re
    from pathlib import Path
    from mpgen.group.program import SPAN_HEADER_WORDS, span_scratch_words
    header = (Path(mpgen.__file__).parent / "headers" / "group.cuh").read_text()
    assert int(re.search(r"pool_words = (\d+);", header)[1]) == SPAN_HEADER_WORDS
    program = ntt.mul(Shape(1 << 20, 2048, 16))
    regions, twiddles = 3 * (65536 + 2048), 1 + 3 * (32768 + 1)
    assert span_scratch_words(program) == SPAN_HEADER_WORDS + 2 * 2048 * 2 + regions + twiddles  # Handoff: 2 words


@pytest.mark.parametrize("bits, threads, q", SHAPES + [(2080, 32, 3)])
def test_comparisons_against_python_integers(bits, threads, q):
    shape, rng = Shape(bits, threads, q), random.Random(bits + 1)
    values = edges(bits, shape)[:8] + [rng.getrandbits(bits) for _ in range(3)]
    programs = {kind: compare(kind, shape) for kind in ("eq", "lt", "cmp", "is_zero")}
    for a in values:
        assert execute(programs["is_zero"], [a], []) == (int(a == 0), None)
        # b equal to a, or differing in one bit at the bottom, in the middle (another
        # thread) and at the top
        for b in values[:4] + [a, a ^ 1, a ^ (1 << bits // 2), a ^ (1 << bits - 1)]:
            assert execute(programs["eq"], [a, b], []) == (int(a == b), None)
            assert execute(programs["lt"], [a, b], []) == (int(a < b), None)
            assert execute(programs["cmp"], [a, b], []) == (((a > b) - (a < b)) % (1 << 32), None)


# (8192 bits on 32 x 8 is the C++ tests' against GMP: here Q = 8 on 2048 bits)
@pytest.mark.parametrize("bits, threads, q", SHAPES[:3] + [(2080, 32, 3), (2048, 8, 8), (2048, 32, 2)])
def test_the_full_product_against_python_integers(bits, threads, q):
    # all-ones operands make the largest column sums; single bits and boundary runs the
    # longest carries through the handoff and both scans
    shape, rng = Shape(bits, threads, q), random.Random(bits + 2)
    program = mul(shape)
    values = edges(bits, shape) + [rng.getrandbits(bits) for _ in range(4)]
    for a in values:
        for b in values[:6] + values[-2:]:
            assert execute(program, [a, b], []) == (a * b, None)


def test_the_products_rows_are_balanced_and_fixed():
    # every thread runs T + 1 iterations of Q^2 products whatever the operands (the loop's
    # trip count and what each iteration reads depend on k and t alone)
    shape = Shape(4096, 32, 4)
    rows = next(s for s in mul(shape).steps if isinstance(s, ProductRows))
    products = sum(i.opcode.mnemonic.startswith(("mad", "mul")) and ".lo" in i.opcode.mnemonic for i in rows.fn.body)
    assert products == 4 * 4
    assert (shape.threads + 1) * products * shape.threads >= shape.limbs ** 2  # covers every product


@pytest.mark.parametrize("bits, threads, q", SHAPES[:2] + [(2048, 8, 8), (2048, 32, 2), (2400, 8, 10)])
def test_the_low_half_the_square_and_mad_against_python_integers(bits, threads, q):
    # odd Q: a square's diagonal words straddle two blocks; mad's c all ones with all-ones
    # operands makes the largest a b + c (2^(2 bits) - 1 - ...: no carry out)
    shape, rng = Shape(bits, threads, q), random.Random(bits + 5)
    top = 1 << bits
    low, square, fused = mul_lo(shape), sqr(shape), mad(shape)
    values = edges(bits, shape) + [rng.getrandbits(bits) for _ in range(2)]
    for a in values:
        assert execute(square, [a], []) == (a * a, None)
        for b in values[:4] + values[-1:]:
            assert execute(low, [a, b], []) == (a * b % top, None)
            for c in (top - 1, b):
                assert execute(fused, [a, b, c], []) == (a * b + c, None)


@pytest.mark.parametrize("threads", [8, 32, 64, 1024])
@pytest.mark.parametrize("schedule", ["full", "low", "square"])
def test_every_schedule_takes_each_row_once_in_the_same_iterations(schedule, threads):
    # block c needs rows c - T <= r <= c (the square: r <= c/2 only, the mixed row last);
    # each is taken by exactly one thread, and no thread runs more than K iterations
    taken = []
    for t in range(threads):
        first, second = segments(schedule, threads, t)
        assert first.rows < iterations(schedule, threads)
        assert first.rows + second.rows <= iterations(schedule, threads)
        taken += [(s.block, s.first_row + r) for s in (first, second) for r in range(s.rows)]
    blocks = range(threads) if schedule == "low" else range(2 * threads)
    wanted = [(c, r) for c in blocks for r in range(max(0, c - threads), min(c, threads - 1) + 1)
              if schedule != "square" or r <= c // 2]
    assert sorted(taken) == sorted(wanted)
    busiest = max(s.rows + z.rows for s, z in (segments(schedule, threads, t) for t in range(threads)))
    assert busiest == iterations(schedule, threads)
    assert busiest * threads <= len(wanted) + threads  # balanced: under one idle row a thread


def test_a_product_needs_two_limbs_a_thread():
    with pytest.raises(ValueError, match="64 threads of 1 limb: the group's products need at least 2 limbs a "
                                         "thread; give at most 32 threads"):
        mul(Shape(2048, 64, 1))


@pytest.mark.parametrize("program, instances_per_block, arrays", [
    # headers/group.cuh's arrays, word by word: the pool of the largest exchange, 8 words a
    # thread at a time (Mirror's 18 and 10, the division's shifts of 16), the carry scan's
    # (2 a warp), the vote's and the broadcast's.
    (mul_lo(Shape(262144, 512, 16)), 1, [512 * 8, 64]),  # ptxas -v: 16640 bytes
    (mul_lo(Shape(262144, 1024, 8)), 1, [1024 * 8, 64]),
    (mul(Shape(32768, 128, 8)), 2, [2 * 2 * 128 * 2, 64]),  # Handoff's lows and highs
    (add_or_sub("add", Shape(4096, 32, 4)), 8, [0]),  # within a warp: ballots and shuffles only
    (div_qr(Shape(262144, 512, 16)), 1, [512 * 8, 64, 32, 32]),  # ptxas -v: 16896 bytes
])
def test_the_exchanges_static_shared_memory_is_cuda_group_cuh_s(program, instances_per_block, arrays):
    assert exchange_shared_bytes(program, instances_per_block) == 4 * sum(arrays)


@pytest.mark.parametrize("bits, threads, q", SHAPES[:4] + [(2080, 32, 3)])
def test_shifts_by_a_constant_against_python_integers(bits, threads, q):
    # within a limb, by whole limbs, by a thread's limbs and more (across threads), to the top
    shape, rng = Shape(bits, threads, q), random.Random(bits + 3)
    top = 1 << bits
    values = [0, 1, top - 1, 1 << bits - 1] + [rng.getrandbits(bits) for _ in range(2)]
    held = 32 * q
    amounts = [1, 31, 32, 33, held - 1, held, held + 1, 3 * held + 5, bits // 2, bits - 1]
    for amount in amounts:
        left, right = shift_constant("shl", amount, shape), shift_constant("shr", amount, shape)
        for a in values:
            assert execute(left, [a], []) == ((a << amount) % top, None)
            assert execute(right, [a], []) == (a >> amount, None)


@pytest.mark.parametrize("bits, threads, q", SHAPES[:4] + [(2080, 32, 3)])
def test_shifts_by_a_run_time_amount_against_python_integers(bits, threads, q):
    # every amount bit's stage kept and dropped, amounts past the width and the largest
    shape, rng = Shape(bits, threads, q), random.Random(bits + 7)
    top, largest = 1 << bits, (1 << (bits - 1).bit_length()) - 1
    values = [1, top - 1, 1 << bits - 1, rng.getrandbits(bits)]
    amounts = [0, 1, 31, 32, 32 * q + 1, bits // 3, bits - 1, largest] + [1 << k for k in range(5, (bits - 1).bit_length())]
    left, right = shift_variable("shl", shape), shift_variable("shr", shape)
    for amount in amounts:
        for a in values:
            assert execute(left, [a], [amount]) == ((a << amount) % top, None)
            assert execute(right, [a], [amount]) == (a >> amount, None)
