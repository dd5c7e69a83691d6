"""The Python runtime (mpgen.compile, mpgen.field) against Python's integers and gmpy2: every
input kind, the results' forms, the checks and their messages. On the CPU always; on the GPU
too where CuPy sees one (MPGEN_REQUIRE_GPU=1 makes its absence a failure)."""
import math
import os
import random
from pathlib import Path

import gmpy2
import numpy as np
import pytest

import mpgen
from mpgen.runtime import cpu, gpu
from mpgen.runtime.values import OperandError

DEVICES = ["cpu"] + (["gpu"] if gpu.available() is None or os.environ.get("MPGEN_REQUIRE_GPU") == "1" else [])
rng = random.Random(int(os.environ.get("MPGEN_TEST_SEED", "1")))
COUNT = 300


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory):
    """Libraries compiled into a cache of the session's own."""
    saved = os.environ.get("MPGEN_CACHE")
    os.environ["MPGEN_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if saved is None:
        del os.environ["MPGEN_CACHE"]
    else:
        os.environ["MPGEN_CACHE"] = saved


_modules = {}


def module(device, kind, *args, **options):
    """One compiled module per request and device for the whole session."""
    key = (device, kind, args, tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items())))
    if key not in _modules:
        make = {"size": mpgen.compile, "field": mpgen.field, "rns": mpgen.rns_set, "gf": mpgen.gf_field}[kind]
        _modules[key] = make(*args, device=device, **options)
    return _modules[key]


def u256(device):
    return module(device, "size", 256, ops=["add", "mul", "div_qr", "cmp", "shl", "mul_ui", "montmul", "modexp",
                                            "barrett_modmul", "modinv"])


def randoms(bits, count=COUNT):
    """Random values with the edges first: 0, 1, all ones, a single top bit."""
    edges = [0, 1, (1 << bits) - 1, 1 << (bits - 1)]
    return edges + [rng.getrandbits(rng.randrange(1, bits + 1)) for _ in range(count - len(edges))]


def limbs(values, count):
    return np.array([[(v >> (32 * i)) & 0xFFFFFFFF for i in range(count)] for v in values], dtype=np.uint32)


def ints(array):
    return [sum(int(w) << (32 * i) for i, w in enumerate(row)) for row in array]


@pytest.mark.parametrize("device", DEVICES)
def test_integer_operations_against_python(device):
    k = u256(device)
    assert k.device == device and k.bits == 256 and k.tier == "thread" and k.kind == "size"
    a, b = randoms(256), list(reversed(randoms(256)))
    assert k.mul(a, b) == [x * y for x, y in zip(a, b)]
    sums, carries = k.add(a, b)
    assert [s + (c << 256) for s, c in zip(sums, carries)] == [x + y for x, y in zip(a, b)]
    sums, carries = k.add(a, b, [1] * len(a))  # the optional carry in
    assert [s + (c << 256) for s, c in zip(sums, carries)] == [x + y + 1 for x, y in zip(a, b)]
    q, r, zero = k.div_qr(a, b)
    assert [(qi, ri, z) for qi, ri, z in zip(q, r, zero)] == \
           [(x // y, x % y, 0) if y else (0, 0, 1) for x, y in zip(a, b)]
    assert k.cmp(a, b) == [(x > y) - (x < y) for x, y in zip(a, b)]
    assert k.shl(a, [s % 256 for s in range(len(a))]) == [(x << (s % 256)) % (1 << 256) for s, x in enumerate(a)]
    assert k.mul_ui(a, 0xFFFFFFFF) == [x * 0xFFFFFFFF for x in a]  # a single value for every instance
    assert k.mul(3, 5) == 15  # single values give a single result


MASK = (1 << 256) - 1
# Every integer operation of a size (but the Montgomery and modular ones, tested below):
# what Python's integers say it gives, from operands a, b, c (c: a third value, or a small one).
ORACLES = {
    "sub": lambda a, b, c: ((a - b) & MASK, int(a < b)),
    "add_ui": lambda a, b, c: ((a + (c & 0xFFFFFFFF)) & MASK, (a + (c & 0xFFFFFFFF)) >> 256),
    "sub_ui": lambda a, b, c: ((a - (c & 0xFFFFFFFF)) & MASK, int(a < (c & 0xFFFFFFFF))),
    "neg": lambda a, b, c: -a & MASK,
    "mul_lo": lambda a, b, c: a * b & MASK,
    "mul_hi": lambda a, b, c: a * b >> 256,
    "sqr": lambda a, b, c: a * a,
    "mad": lambda a, b, c: a * b + c,
    "eq": lambda a, b, c: int(a == b),
    "lt": lambda a, b, c: int(a < b),
    "is_zero": lambda a, b, c: int(a == 0),
    "and": lambda a, b, c: a & b,
    "or": lambda a, b, c: a | b,
    "xor": lambda a, b, c: a ^ b,
    "not": lambda a, b, c: ~a & MASK,
    "shr": lambda a, b, c: a >> (c % 256),
    "popc": lambda a, b, c: bin(a).count("1"),
    "clz": lambda a, b, c: 256 - a.bit_length(),
    "ctz": lambda a, b, c: (a & -a).bit_length() - 1 if a else 256,
    "div": lambda a, b, c: (a // b, 0) if b else (0, 1),
    "rem": lambda a, b, c: (a % b, 0) if b else (0, 1),
    "div_qr_wide": lambda a, b, c: (((a << 256 | c) // b, (a << 256 | c) % b, 0) if b > a else (0, 0, 1)),
    "gcd": lambda a, b, c: math.gcd(a, b),
    "sqrt": lambda a, b, c: (math.isqrt(a), int(math.isqrt(a) ** 2 == a)),
    "shl1": lambda a, b, c: a << 1 & MASK,
    "shr33": lambda a, b, c: a >> 33,
}


@pytest.mark.parametrize("device", DEVICES)
def test_every_integer_operation_against_python(device):
    k = module(device, "size", 256, ops=list(ORACLES))
    a, b, c = randoms(256), list(reversed(randoms(256))), randoms(256)[1:] + [0]
    b[7] = a[7]  # equal operands for eq, lt, gcd
    for name, oracle in ORACLES.items():
        op = k.operations[name]
        shape = op.contract["operands"][:len(op.contract["operands"]) - op.contract["optional_operands"]]
        if name == "div_qr_wide":
            given = [[x << 256 | z for x, z in zip(a, c)], b]
        elif len(shape) == 1:
            given = [a]
        elif shape[1]["limbs"] == 1:  # a word: the _ui operations' u, a shift's count
            given = [a, [z % (1 << shape[1]["bits"]) for z in c]]
        elif len(shape) == 2:
            given = [a, b]
        else:
            given = [a, b, c]
        got = op(*given)
        small = [z % (1 << shape[1]["bits"]) for z in c] if len(shape) > 1 and shape[1]["limbs"] == 1 else c
        want = [oracle(x, y, z) for x, y, z in zip(a, b, small)]
        if isinstance(got, tuple):
            got = list(zip(*got))
        assert got == want, name


@pytest.mark.parametrize("device", DEVICES)
def test_runtime_moduli_and_their_derived_operands(device):
    k = u256(device)
    p = rng.getrandbits(256) | 1 | (1 << 255)
    a, b = [x % p for x in randoms(256)], [x % p for x in reversed(randoms(256))]
    r_inverse = pow(1 << 256, -1, p)
    assert k.montmul(a, b, p) == [x * y * r_inverse % p for x, y in zip(a, b)]  # -p^-1 computed
    minus_inverse = -pow(p, -1, 1 << 32) % (1 << 32)
    assert k.montmul(a, b, p, minus_inverse) == k.montmul(a, b, [p] * len(a))
    assert k.barrett_modmul(a, b, p) == ([x * y % p for x, y in zip(a, b)], [0] * len(a))
    assert k.modexp(a[:40], b[:40], p) == ([pow(x, y, p) for x, y in zip(a[:40], b[:40])], [0] * 40)
    assert k.montmul(1, 1, [p, 7]) == [r_inverse, pow(1 << 256, -1, 7)]  # one value, a batch of moduli
    inverses, failed = k.modinv(a, p)
    assert [(i, f) for i, f in zip(inverses, failed)] == \
           [(int(gmpy2.invert(x, p)), 0) if gmpy2.gcd(x, p) == 1 else (0, 1) for x in a]


@pytest.mark.parametrize("device", DEVICES)
def test_fields_by_preset_and_by_modulus(device):
    f = module(device, "field", "secp256k1", ops=["modmul", "modinv", "modsqrt"])
    p = f.modulus
    assert p == 2**256 - 2**32 - 977
    a, b = [x % p for x in randoms(256)], [x % p for x in reversed(randoms(256))]
    assert f.modmul(a, b) == [x * y % p for x, y in zip(a, b)]
    inverses, failed = f.modinv(a)
    assert inverses == [pow(x, -1, p) if x else 0 for x in a] and failed == [int(x == 0) for x in a]
    roots, none = f.modsqrt(a)
    for x, r, n in zip(a, roots, none):
        assert (n == 0 and r * r % p == x) or (n == 1 and r == 0 and gmpy2.legendre(x, p) == -1)
    q = module(device, "field", modulus=2**127 - 1, ops=["modmul"])
    assert q.name.startswith("p127") and q.bits == 127
    assert q.modmul([2**126, 5], [4, 7]) == [2, 35]


@pytest.mark.parametrize("device", DEVICES)
def test_rns_integers_against_python(device):
    r = module(device, "rns", 8)
    M = r.modulus
    assert r.kind == "rns" and M == math.prod(int(m, 16) for m in r.contract["rns"]["moduli"])
    a = [0, 1, -1, M - 1, -(M - 1)] + [rng.randrange(-(M // 4), M // 4) for _ in range(200)]
    b = [0, -1, 1, 0, 0] + [rng.randrange(-(M // 4), M // 4) for _ in range(200)]
    assert r.add(a, b) == ([x + y for x, y in zip(a, b)], [0] * len(a))
    assert r.sub(a, b) == ([x - y for x, y in zip(a, b)], [0] * len(a))
    small = [x % (1 << 120) - (1 << 119) for x in a]
    assert r.mul(small, small[::-1]) == ([x * y for x, y in zip(small, small[::-1])], [0] * len(a))
    assert r.neg(a) == [-x for x in a]
    assert r.sign(a) == [(x > 0) - (x < 0) for x in a]
    assert r.cmp(a, b) == [(x > y) - (x < y) for x, y in zip(a, b)]
    assert r.add(M - 1, 1)[1] == 1  # overflow flagged
    within = a[5:]  # below M / 4: their doubles fit
    residues = r.from_binary(limbs([abs(x) for x in within], 8), np.array([x < 0 for x in within], dtype=np.uint32))
    assert residues.shape == (len(within), 15)  # arrays: the residues' own words, as the kernels read them
    magnitudes, signs = r.to_binary(r.add(residues, residues)[0])
    assert [-m if s else m for m, s in zip(ints(magnitudes), signs)] == [2 * x for x in within]
    with pytest.raises(OperandError, match=r"^operand 2 of add: element 0 is not below M = 0x[0-9a-f]+ in magnitude$"):
        r.add([1], [-M])


@pytest.mark.parametrize("device", DEVICES)
def test_generalized_fermat_field_against_python(device):
    g = module(device, "gf", 8)
    p, radix = g.modulus, int(g.contract["gf"]["r"], 16)
    assert p == radix ** 8 + 1
    x = [0, 1, p - 1, radix, radix - 1] + [rng.randrange(p) for _ in range(200)]
    y = [p - 1, p - 1, p - 1, radix ** 7, 1] + [rng.randrange(p) for _ in range(200)]
    assert g.mul(x, y) == [u * v % p for u, v in zip(x, y)]
    assert g.add(x, y) == [(u + v) % p for u, v in zip(x, y)]
    assert g.sub(x, y) == [(u - v) % p for u, v in zip(x, y)]
    assert g.neg(x) == [-u % p for u in x]
    assert g.mul_r(x, [i % 16 for i in range(len(x))]) == [u * pow(radix, i % 16, p) % p for i, u in enumerate(x)]
    elements = g.from_binary(limbs(x, 16))  # arrays: k digits in radix r, as the kernels read them
    assert ints(g.to_binary(g.mul(elements, elements))) == [u * u % p for u in x]
    big = module(device, "gf", 32, ops=["mul"])
    q = big.modulus
    x = [q - 1, 1] + [rng.randrange(q) for _ in range(20)]
    assert big.mul(x, x[::-1]) == [u * v % q for u, v in zip(x, x[::-1])]
    with pytest.raises(OperandError, match=r"^operand 1 of mul: element 0 is not below p = 0x"):
        g.mul([p], [1])


def direct_dft(points, w, p):
    """X_j = sum_i x_i w^(i j) mod p, over the nonzero points (powers by repeated products)."""
    nonzero = [(i, x) for i, x in enumerate(points) if x]
    spectrum, w_j = [], 1
    for _ in points:
        total, power, at = 0, 1, 0
        for i, x in nonzero:
            power = power * pow(w_j, i - at, p) % p
            total, at = total + x * power, i
        spectrum.append(total % p)
        w_j = w_j * w % p
    return spectrum


# gf16's passes take NVRTC about 3.5 minutes (once: CuPy caches them), too long for a test run;
# on the GPU they are the C++ tests' (tests/cpp/gf.cpp, built by nvcc), the same code as gf8's.
@pytest.mark.parametrize("device, k, lengths", [(device, k, lengths) for device in DEVICES
                                                for k, lengths in ((2, [4, 16, 256]), (8, [16, 256, 4096]), (16, [32, 1024]))
                                                if device == "cpu" or k < 16])
def test_generalized_fermat_fft_against_the_direct_dft(device, k, lengths):
    """module.fft against sum_i x_i w^(i j) in Python's integers, w read off the transform of
    the point 1 at i = 1 (X_j = w^j) and checked to be a primitive n-th root with
    w^(n/K) = r; the inverse undoes it; batches of lists and arrays of elements alike."""
    g = module(device, "gf", k)
    p, radix = g.modulus, int(g.contract["gf"]["r"], 16)
    for n in lengths:
        w = g.fft([0, 1] + [0] * (n - 2))[1]
        assert pow(w, n // (2 * k), p) == radix and pow(w, n // 2, p) == p - 1
        batch = [[p - 1, radix, 1] + [rng.randrange(p) for _ in range(n - 3)] for _ in range(3)]
        checked = batch[0] if n <= 256 else batch[0][:64] + [0] * (n - 64)  # the direct DFT is quadratic
        assert g.fft(checked) == direct_dft(checked, w, p)
        spectra = g.fft(batch)
        assert spectra[0] == g.fft(batch[0]) and g.fft(spectra, inverse=True) == batch
        elements = g.from_binary(limbs([x for t in batch for x in t], 2 * k)).reshape(3, n, 2 * k)
        assert ints(g.to_binary(g.fft(elements).reshape(-1, 2 * k))) == [x for t in spectra for x in t]
        assert (g.fft(g.fft(elements[1]), inverse=True) == elements[1]).all()
        if device == "gpu":
            import cupy
            on_gpu = g.fft(cupy.asarray(elements), inverse=True)
            assert isinstance(on_gpu, cupy.ndarray) and (on_gpu.get() == g.fft(elements, inverse=True)).all()


@pytest.mark.parametrize("device", DEVICES)
def test_every_input_kind_gives_its_own_kind_back(device):
    k = u256(device)
    a, b = randoms(256, 64), randoms(256, 64)[::-1]
    want = [x * y for x, y in zip(a, b)]
    got = k.mul([gmpy2.mpz(x) for x in a], b)
    assert got == want and all(isinstance(x, type(gmpy2.mpz(0))) for x in got)
    rows = k.mul(limbs(a, 8), limbs(b, 8))
    assert rows.dtype == np.uint32 and rows.shape == (64, 16) and ints(rows) == want
    columns = k.mul(limbs(a, 8).T.copy(), limbs(b, 8).T.copy(), layout="interleaved")
    assert columns.shape == (16, 64) and ints(columns.T) == want
    assert ints(k.mul(limbs(a, 8), b)) == want  # kinds mixed: the first batch's kind back
    signs = k.cmp(limbs(a, 8), limbs(b, 8))
    assert signs.dtype == np.int32 and list(signs) == [(x > y) - (x < y) for x, y in zip(a, b)]
    values, flags = k.add(limbs(a, 8), limbs(b, 8))
    assert flags.shape == (64,) and list(flags) == [(x + y) >> 256 for x, y in zip(a, b)]
    assert k.mul([], []) == []
    if device == "gpu":
        import cupy
        on_gpu = k.mul(cupy.asarray(limbs(a, 8)), cupy.asarray(limbs(b, 8)))
        assert isinstance(on_gpu, cupy.ndarray) and ints(on_gpu.get()) == want
        shifted = cupy.zeros(64 * 8 + 1, dtype=cupy.uint32)[1:].reshape(64, 8)  # 4 bytes off 16
        shifted[...] = cupy.asarray(limbs(a, 8))
        assert ints(k.mul(shifted, cupy.asarray(limbs(b, 8))).get()) == want
        huge = cupy.broadcast_to(cupy.zeros((1, 8), dtype=cupy.uint32), (1 << 34, 8))  # 512 GiB once copied
        with pytest.raises(MemoryError, match=r"^mul: a batch of 17179869184 instances does not fit the GPU's memory"):
            k.mul(huge, huge)
        strided = cupy.asarray(limbs(a + a, 8).T.copy())[:, ::2]  # interleaved, not contiguous
        assert ints(k.mul(strided, cupy.asarray(limbs(b, 8).T.copy()), layout="interleaved").get().T) == \
            [x * y for x, y in zip((a + a)[::2], b)]


@pytest.mark.parametrize("device", DEVICES)
def test_group_tier_and_widths_not_a_multiple_of_32(device):
    g = module(device, "size", 2048, ops=["add", "mul", "div_qr"], tier="group")
    assert g.tier == "group"
    a, b = randoms(2048, 40), randoms(2048, 40)[::-1]
    assert g.mul(a, b) == [x * y for x, y in zip(a, b)]
    sums, carries = g.add(limbs(a, 64).T.copy(), limbs(b, 64).T.copy(), layout="interleaved")
    assert [s + (int(c) << 2048) for s, c in zip(ints(sums.T), carries)] == [x + y for x, y in zip(a, b)]
    q, r, zero = g.div_qr(a, b)
    assert list(zip(q, r, zero)) == [(x // y, x % y, 0) if y else (0, 0, 1) for x, y in zip(a, b)]
    ntt = module(device, "size", 16384, ops=["mul"], mul="ntt")  # products by number-theoretic transform
    assert ntt.tier == "group" and ntt.name == "u16384_ntt"
    a, b = randoms(16384, 6), randoms(16384, 6)[::-1]
    assert ntt.mul(a, b) == [x * y for x, y in zip(a, b)]
    span = module(device, "size", 1 << 20, ops=["add", "mul"])  # past 2^18 bits a group spans blocks
    assert span.tier == "group"
    a, b = randoms(1 << 20, 4), randoms(1 << 20, 4)[::-1]
    assert span.mul(a, b) == [x * y for x, y in zip(a, b)]
    assert [s + (c << (1 << 20)) for s, c in zip(*span.add(a, b))] == [x + y for x, y in zip(a, b)]
    k = module(device, "size", 131, ops=["mul"])
    with pytest.raises(OperandError, match=r"^operand 2 of mul: element 1 is wider than 131 bits$"):
        k.mul([1, 2], [3, 1 << 131])
    with pytest.raises(OperandError, match=r"^operand 1 of mul: element 0 is wider than 131 bits$"):
        k.mul(limbs([1 << 131], 5), [1])
    assert k.mul([(1 << 131) - 1], [(1 << 131) - 1]) == [((1 << 131) - 1) ** 2]
    assert k.mul([1 << 130, np.int64(3)], [1, 1]) == [1 << 130, 3]  # the slow path of ints, whole width
    word = module(device, "size", 32, ops=["neg", "cmp"])  # numbers of one word keep two dimensions
    assert word.neg(np.array([[1], [2]], dtype=np.uint32)).tolist() == [[2**32 - 1], [2**32 - 2]]


def test_errors_say_what_and_which_element():
    k, f = u256("cpu"), module("cpu", "field", "secp256k1", ops=["modmul", "modinv", "modsqrt"])
    p = f.modulus
    cases = [
        (lambda: f.modmul([1, p], [1, 1]), OperandError,
         f"operand 1 of modmul: element 1 is not below p = {hex(p)}"),
        (lambda: k.mul([1, -5], [1, 1]), OperandError,
         "operand 1 of mul: element 1 is negative (-5); give values in [0, 2^256)"),
        (lambda: k.mul([1, 2.0], [1, 1]), TypeError, "operand 1 of mul: element 1 is a float, not an integer"),
        (lambda: k.mul([1 << 256], [1]), OperandError, "operand 1 of mul: element 0 is wider than 256 bits"),
        (lambda: k.mul([1, 2], [1, 2, 3]), ValueError,
         "mul: batches of 2, 3 instances; give one count (or a single value, used for every instance)"),
        (lambda: k.mul(np.zeros((2, 8), dtype=np.int64), [1, 2]), TypeError,
         "operand 1 of mul: an array of int64; give uint32 limbs"),
        (lambda: k.mul(np.zeros((2, 7), dtype=np.uint32), [1, 2]), ValueError,
         "operand 1 of mul: shape (2, 7); give shape (n, 8)"),
        (lambda: k.mul(np.zeros((2, 8), dtype=np.uint32), 1, layout="interleaved"), ValueError,
         "operand 1 of mul: shape (2, 8); give shape (8, n) (interleaved)"),
        (lambda: k.mul([1]), TypeError, "mul takes 2 operands, not 1"),
        (lambda: k.mul({1, 2}, [1, 2]), TypeError,
         "operand 1 of mul: a set has no order; give a list, a tuple or an array"),
        (lambda: k.mul([1, -1, np.int64(2)], [1, 1, 1]), OperandError,
         "operand 1 of mul: element 1 is negative (-1); give values in [0, 2^256)"),
        (lambda: k.montmul([1], [1], 4), OperandError,
         "operand 3 of montmul (modulus): element 0 is even; it must be odd (Montgomery form)"),
        (lambda: k.montmul([1], [1], 7, 5), OperandError,
         "operand 4 of montmul (minus inverse): element 0 is not -p^-1 mod 2^32 of its modulus; leave it out and "
         "it is computed"),
        (lambda: k.montmul([1, 9], [1, 1], 7), OperandError,
         "operand 1 of montmul: element 1 is not below the modulus (operand 3)"),
        (lambda: k.modexp([1], [1], 0), OperandError, "operand 3 of modexp (modulus): element 0 is 0"),
        (lambda: k.mul([1], [1], layout="rows"), ValueError, "layout 'rows': give one of interleaved, contiguous"),
        (lambda: k.sqr, AttributeError, "u256 has no operation 'sqr'; it has add, mul, div_qr, cmp, shl, mul_ui, "
                                        "montmul, montsqr, mont_minus_inverse, modexp"),
        (lambda: mpgen.compile(13), ValueError,
         "bits: 13 is out of range; sizes are whole numbers of bits from 32 to 16777216"),
        (lambda: mpgen.compile(256, ["mul", "nope"]), ValueError, "ops: unknown operation 'nope'"),
        (lambda: mpgen.compile(256, device="tpu"), ValueError, "device 'tpu': give auto, cpu or gpu"),
        (lambda: mpgen.field("nope"), mpgen.RequestError, "name: unknown field 'nope'; known: secp256k1"),
        (lambda: mpgen.field(modulus=1), ValueError, "modulus: the modulus must be above 1, not 1"),
        (lambda: mpgen.field(), ValueError, "field: give a preset's name or modulus=, not both or neither"),
        (lambda: mpgen.rns_set(1), mpgen.RequestError, "count: '1' moduli; give 2 to 512"),
        (lambda: mpgen.rns_set(moduli=[6, 9], name="bad"), ValueError,
         "moduli: moduli 0 (6) and 1 (9) share the factor 3; the moduli must be pairwise coprime"),
        (lambda: mpgen.gf_field(3), mpgen.RequestError, "k: '3' is no k of Mohajerani's table 3.1"),
        (lambda: mpgen.gf_field(2, ops=["fft"]).fft([1] * 8), ValueError,
         "fft: 8 points; give K^e points (K = 2k = 4, e >= 1), at most 2^32"),
        (lambda: mpgen.gf_field(2, ops=["fft"]).fft([[1] * 4, [1] * 16]), ValueError,
         "fft: transform 1 has 16 points, transform 0 has 4; give one length"),
        (lambda: mpgen.gf_field(2, ops=["fft"]).fft([0, 1, 2, (1 << 126) + (1 << 118) + (1 << 108) + 1]), OperandError,
         "fft's points: element 3 is not below p = 0x40200400000000000000000000000001"),
        (lambda: mpgen.gf_field(2, ops=["fft"]).fft(np.zeros((4, 3), dtype=np.uint32)), ValueError,
         "fft: shape (4, 3); give (n, 4) or (count, n, 4) (elements, 2k words each)"),
        (lambda: mpgen.gf_field(2, ops=["fft"]).fft(np.zeros((4, 4), dtype=np.int64)), TypeError,
         "fft: an array of int64; give uint32 elements"),
        (lambda: mpgen.gf_field(2, ops=["fft"]).fft([1] * 4, inverse=1), TypeError,
         "fft: inverse=1; give True or False"),
    ]
    for call, error, message in cases:
        with pytest.raises(error) as raised:
            call()
        assert str(raised.value).startswith(message), (message, str(raised.value))


def test_the_cache_serves_a_second_compile(monkeypatch):
    u256("cpu")  # compiled and cached

    run = cpu.subprocess.run

    def no_compiler(command, **kwargs):  # asking its version is allowed: it is part of the key
        if "--version" not in command:
            raise AssertionError("the compiler ran again")
        return run(command, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(cpu.subprocess, "run", no_compiler)
        again = mpgen.compile(256, ["add", "mul", "div_qr", "cmp", "shl", "mul_ui", "montmul", "modexp",
                                    "barrett_modmul", "modinv"], device="cpu")
        assert again.mul([7], [6]) == [42]
    monkeypatch.setenv("MPGEN_CXX", "/nonexistent/c++")  # part of the key: compiled afresh
    with pytest.raises(mpgen.CompileError, match=r"^cannot start the C\+\+ compiler '/nonexistent/c\+\+' \(MPGEN_CXX\)"):
        mpgen.compile(256, ["add"], device="cpu")


def test_the_readme_example_runs_as_written():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme[readme.index("### Python"):]
    section = section[:section.index("\n## ")]
    blocks = [block.split("\n```", 1)[0] for block in section.split("```python\n")[1:]]
    assert blocks
    namespace = {}
    for code in blocks:  # one after another, as a notebook runs them
        exec(compile(code, "README.md", "exec"), namespace)
