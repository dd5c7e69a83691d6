"""Generalized Fermat prime fields p = r^k + 1 (after Mohajerani, "Fast Fourier Transforms
over prime fields of large characteristic and their implementation on GPUs"): the request,
the primality check, the constants, against the thesis' table 3.1 and Python's integers."""
import random

import pytest

from mpgen.cli import main
from mpgen.fields import is_probable_prime
from mpgen.gf import TABLE_3_1, parse, preset
from mpgen.request import RequestError

# Mohajerani's table 3.1: p, and the largest power of two dividing p - 1, as printed.
PAPER = {2: ("(2^63+2^53)^2+1", 106), 4: ("(2^64-2^50)^4+1", 200), 8: ("(2^63+2^34)^8+1", 272),
         16: ("(2^62+2^36)^16+1", 576), 32: ("(2^62+2^56)^32+1", 1792), 64: ("(2^63-2^40)^64+1", 2500),
         128: ("(2^64-2^28)^128+1", 3584)}


@pytest.mark.parametrize("k", list(TABLE_3_1))
def test_table_3_1(k):
    gf = preset(k)
    text, paper_adicity = PAPER[k]
    assert gf.text == text and gf.p == eval(text.replace("^", "**"))
    v2 = ((gf.p - 1) & -(gf.p - 1)).bit_length() - 1
    assert gf.two_adicity == v2
    # The paper prints 2^2500 for k = 64; p - 1 = (2^40 (2^23 - 1))^64 is divisible by 2^2560
    # exactly: a misprint.
    assert v2 == (2560 if k == 64 else paper_adicity)
    assert pow(gf.r, gf.k, gf.p) == gf.p - 1  # r is a primitive 2k-th root of unity


@pytest.mark.parametrize("k", [2, 4, 8, 16])
def test_the_table_primes_are_prime_by_miller_rabin_too(k):
    assert is_probable_prime(preset(k).p)  # GMP checks them at generation time; this, independently


def test_a_composite_of_the_form_is_refused_with_the_table_named():
    assert not is_probable_prime((2**62 + 2**34) ** 8 + 1)
    with pytest.raises(RequestError, match=r"\(2\^62\+2\^34\)\^8\+1 is not prime .*table 3.1 has \(2\^63\+2\^53\)"):
        parse(None, "(2^62+2^34)^8+1", "mine")


@pytest.mark.parametrize("text, message", [
    ("2^63+1", "is not of the form (2^w+2^u)^k+1"),
    ("(2^64+2^3)^8+1", "r must be below 2^64"),
    ("(2^99999999999+2^3)^8+1", "r must be below 2^64"),
    ("(2^3+2^5)^8+1", "w must exceed u"),
    ("(2^63+2^34)^6+1", "k must be a power of two from 2 to 128"),
    ("(2^63+2^34)^256+1", "k must be a power of two from 2 to 128"),
])
def test_bad_primes_get_one_line(text, message):
    with pytest.raises(RequestError) as e:
        parse(None, text, "mine")
    assert message in str(e.value) and "\n" not in str(e.value)


def test_requests():
    assert [f.label for f in parse("8,2,8", None, None)] == ["gf8", "gf2"]
    (mine,) = parse(None, " (2^63 + 2^34)^8 + 1 ", "mine")
    assert (mine.w, mine.u, mine.sign, mine.k, mine.label) == (63, 34, 1, 8, "mine")
    with pytest.raises(RequestError, match="'3' is no k of Mohajerani's table 3.1; give 2, 4, 8"):
        parse("3", None, None)
    with pytest.raises(RequestError, match="give the field a name with --name"):
        parse(None, "(2^63+2^34)^8+1", None)


@pytest.mark.parametrize("k, largest", [(2, 1 << 12), (8, 1 << 20)])
def test_roots_of_unity_whose_powers_are_shifts(k, largest):
    gf = preset(k)
    n = 2 * k
    while n <= largest:
        w = gf.root_of_unity(n)
        assert pow(w, n, gf.p) == 1 and pow(w, n // 2, gf.p) == gf.p - 1  # primitive
        assert pow(w, n // (2 * k), gf.p) == gf.r
        n *= 4
    with pytest.raises(ValueError):
        gf.root_of_unity(3 * k)


@pytest.mark.parametrize("k", [2, 8, 32])
def test_digits_in_radix_r(k):
    gf = preset(k)
    rng = random.Random(k)
    for x in [0, 1, gf.r - 1, gf.r, gf.p - 2] + [rng.randrange(gf.p) for _ in range(200)]:
        d = gf.digits(x)
        assert len(d) == k and all(0 <= v < gf.r for v in d) and gf.value(d) == x
    top = gf.digits(gf.p - 1)  # r^k: the one element whose top digit is r
    assert top == [0] * (k - 1) + [gf.r] and gf.value(top) == gf.p - 1


def test_the_list_names_the_table(capsys):
    assert main(["--list"]) == 0
    out = capsys.readouterr().out
    assert "gf8" in out and "(2^63+2^34)^8+1" in out and "2^272" in out


# The element lists (gf/lists.py) through the interpreter, against Python's integers: each
# result must be the unique representation of the exact residue.
from mpgen.gf import GfField  # noqa: E402
from mpgen.fields import to_words  # noqa: E402
from mpgen.gf.lists import (accumulate_r, add, from_binary, mul, mul_by_r_power, mul_r, settle, sub,  # noqa: E402
                            to_binary)
from mpgen.ir import execute  # noqa: E402


def words(gf, x):
    return [w for d in gf.digits(x) for w in (d & 0xFFFFFFFF, d >> 32)]


def check_conversions(gf, values):
    """from_binary and to_binary: every value's binary words to its digits and back."""
    there, back = from_binary(gf), to_binary(gf)
    for a in values:
        assert execute(there, to_words(a, 2 * gf.k)) == words(gf, a), ("from_binary", a)
        assert execute(back, words(gf, a)) == to_words(a, 2 * gf.k), ("to_binary", a)


def check_lists(gf, pairs, singles, products=None):
    lists = {"add": (add(gf), lambda a, b: (a + b) % gf.p), "sub": (sub(gf), lambda a, b: (a - b) % gf.p)}
    fn = mul(gf)
    for a, b in pairs if products is None else products:
        assert execute(fn, words(gf, a) + words(gf, b)) == words(gf, a * b % gf.p), ("mul", a, b)
    for name, (fn, want) in lists.items():
        for a, b in pairs:
            assert execute(fn, words(gf, a) + words(gf, b)) == words(gf, want(a, b)), (name, a, b)
    for i in range(1, 2 * gf.k):
        fn = mul_by_r_power(gf, i)
        for a in singles:
            assert execute(fn, words(gf, a)) == words(gf, a * pow(gf.r, i, gf.p) % gf.p), (i, a)
    shift = mul_r(gf)
    for a in singles:
        for i in range(2 * gf.k):
            assert execute(shift, words(gf, a) + [i]) == words(gf, a * pow(gf.r, i, gf.p) % gf.p), ("mul_r", i, a)
    check_conversions(gf, singles)


def edges(gf):
    powers = [gf.r ** i for i in range(gf.k)]
    values = {0, 1, 2, gf.p - 1, gf.p - 2, gf.r - 1} | set(powers) | {v - 1 for v in powers} | {v + 1 for v in powers}
    values |= {sum((gf.r - 1) * gf.r ** i for i in range(j)) for j in range(1, gf.k + 1)}  # digits at their largest
    return sorted(v % gf.p for v in values)


def test_every_pair_of_a_small_field():
    gf = GfField(3, 1, 1, 2, "tiny")  # (2^3+2^1)^2+1 = 101, r = 10
    assert gf.p == 101
    check_lists(gf, [(a, b) for a in range(gf.p) for b in range(gf.p)], range(gf.p))


@pytest.mark.parametrize("w, u, sign, k", [(4, 2, 1, 4), (4, 3, 1, 4)])
def test_small_fields_of_more_digits(w, u, sign, k):
    gf = GfField(w, u, sign, k, "small")  # 160001 (r = 20), 331777 (r = 24)
    rng = random.Random(gf.p)
    values = edges(gf) + [rng.randrange(gf.p) for _ in range(20)]
    check_lists(gf, [(a, b) for a in values for b in values], values)


@pytest.mark.parametrize("w, u, sign, k", [(2, 1, -1, 8), (2, 1, 1, 4)])
def test_additive_lists_where_r_is_too_small_for_mul(w, u, sign, k):
    gf = GfField(w, u, sign, k, "small")  # 257 (r = 2), 1297 (r = 6): no mul (r <= 2k + 2)
    from mpgen.gf.lists import unavailable
    assert "needs r > 2k + 2" in unavailable(gf, "mul")
    rng = random.Random(gf.p)
    values = edges(gf) + [rng.randrange(gf.p) for _ in range(20)]
    pairs = [(a, b) for a in values for b in values]
    for name, fn, want in (("add", add(gf), lambda a, b: a + b), ("sub", sub(gf), lambda a, b: a - b)):
        for a, b in pairs:
            assert execute(fn, words(gf, a) + words(gf, b)) == words(gf, want(a, b) % gf.p), (name, a, b)
    check_conversions(gf, values)


@pytest.mark.parametrize("k", [2, 4, 8, 16])
def test_the_table_fields(k):
    gf = preset(k)
    rng = random.Random(k)
    values = edges(gf) + [rng.randrange(gf.p) for _ in range(20)]
    pairs = [(a, b) for a in values for b in values[:: max(1, len(values) // 12)]]
    check_lists(gf, pairs, values, products=pairs if k < 16 else pairs[::4])


def mul_by_rows(rows, gf, a, b):
    """mul above k = 16 through its lists, in headers/gf_loops.cuh's order."""
    accumulate, shift, settle = rows.parts
    sums, row, x = [0] * settle.in_words, words(gf, b), words(gf, a)
    for j in range(gf.k):
        sums = execute(accumulate, sums + x[2 * j:2 * j + 2] + row)
        if j + 1 < gf.k:
            row = execute(shift, row)
    return execute(settle, sums)


def from_binary_by_loop(looped, gf, x):
    """from_binary above k = 16 through its divide_step, in headers/gf_loops.cuh's order, the
    words it skips checked to be zero."""
    from mpgen.gf.lists import from_binary_words
    step, = looped.parts
    n, y = to_words(x, 2 * gf.k), []
    for i in range(gf.k - 1):
        top = from_binary_words(gf, i)
        assert not any(n[top:]), (x, i)
        remainder = [0, 0]
        for j in reversed(range(top)):
            n[j], *remainder = execute(step, [n[j]] + remainder)
        y += remainder
    return y + n[:2]


def to_binary_by_loop(looped, gf, digit_words):
    step, = looped.parts
    x = digit_words[-2:] + [0] * (2 * gf.k - 2)
    for i in reversed(range(gf.k - 1)):
        x = execute(step, x + digit_words[2 * i:2 * i + 2])
    return x


@pytest.mark.parametrize("k", [32])
def test_the_table_fields_beyond_the_quadratic_lists(k):
    """gf32 (no FFT yet): add, sub, neg, mul_r<i>, mul_r, and mul and the conversions by
    loops. tests/cpp/gf.cpp runs gf32, gf64 and gf128 against GMP, these same lists
    compiled (here the interpreter took 40 s over gf64's and gf128's)."""
    gf = preset(k)
    rng = random.Random(k)
    values = edges(gf)[:: 3 if k < 128 else 9] + [gf.p - 1, gf.p - 2] + [rng.randrange(gf.p) for _ in range(6)]
    pairs = [(a, b) for a in values for b in values[:: max(1, len(values) // 6)]]
    for fn, want in ((add(gf), lambda a, b: a + b), (sub(gf), lambda a, b: a - b)):
        for a, b in pairs:
            assert execute(fn, words(gf, a) + words(gf, b)) == words(gf, want(a, b) % gf.p), (fn.name, a, b)
    shift = mul_r(gf)
    for i in (1, k - 1, k, k + 1, 2 * k - 1):
        fixed = mul_by_r_power(gf, i)
        for a in values:
            want = words(gf, a * pow(gf.r, i, gf.p) % gf.p)
            assert execute(fixed, words(gf, a)) == want and execute(shift, words(gf, a) + [i]) == want, (i, a)
    from mpgen.gf import plan
    rows = plan(gf, "mul")
    largest = sum((gf.r - 1) * gf.r ** i for i in range(gf.k))  # every digit r - 1: the columns' largest
    for a, b in [(gf.p - 1, gf.p - 1), (largest, largest), (gf.p - 1, largest), (gf.r, gf.p - 2),
                 (rng.randrange(gf.p), rng.randrange(gf.p)), (0, rng.randrange(gf.p))]:
        assert mul_by_rows(rows, gf, a, b) == words(gf, a * b % gf.p), (a, b)
    there, back = plan(gf, "from_binary"), plan(gf, "to_binary")
    # (the interpreter's pace: few values above gf32; tests/cpp/gf.cpp runs more against GMP)
    converted = values if k == 32 else [0, 1, gf.p - 1, gf.p - 2, gf.r - 1, rng.randrange(gf.p)]
    for a in converted + [largest, gf.r ** (gf.k - 1), gf.r ** (gf.k - 1) - 1]:
        assert from_binary_by_loop(there, gf, a) == words(gf, a), ("from_binary", a)
        assert to_binary_by_loop(back, gf, words(gf, a)) == to_words(a, 2 * gf.k), ("to_binary", a)


def check_dft_rows(gf, inputs):
    """The FFT's base case: y_j = sum_i x_i r^(i j) for K = 2k inputs, every row j, by
    accumulate_r<(i j) mod K> from zero sums and settle, against Python's integers."""
    size = 2 * gf.k
    lists, last = [accumulate_r(gf, s) for s in range(size)], settle(gf)
    for xs in inputs:
        for j in range(size):
            sums = [0] * (3 * gf.k)
            for i, x in enumerate(xs):
                sums = execute(lists[i * j % size], sums + words(gf, x))
            want = sum(x * pow(gf.r, i * j, gf.p) for i, x in enumerate(xs)) % gf.p
            assert execute(last, sums) == words(gf, want), (xs, j)


@pytest.mark.parametrize("gf", [GfField(3, 1, 1, 2, "tiny"), GfField(4, 2, 1, 4, "small"), preset(2), preset(4),
                                preset(8), preset(16)], ids=lambda gf: f"{gf.p.bit_length()}bits")
def test_dft_rows_by_shifts(gf):
    rng = random.Random(gf.p)
    size = 2 * gf.k
    largest = sum((gf.r - 1) * gf.r ** i for i in range(gf.k)) % gf.p  # every digit r - 1
    inputs = [[gf.p - 1] * size, [largest] * size, [gf.p - 1, largest] * gf.k,  # the column sums' extremes
              [rng.randrange(gf.p) for _ in range(size)], [rng.choice(edges(gf)) for _ in range(size)]]
    check_dft_rows(gf, inputs)


def test_cli_writes_a_header_and_its_manifest(tmp_path):
    import json
    assert main(["generate", "--gf", "8", "--ops", "add,mul_r3", "--out", str(tmp_path)]) == 0
    header = (tmp_path / "mpgen_gf8.cuh").read_text()
    assert "namespace gf8" in header and "struct add" in header and "struct mul_r3" in header and "struct sub" not in header
    module, = json.loads((tmp_path / "mpgen_manifest.json").read_text())["modules"]
    assert module["kind"] == "gf" and module["gf"]["prime"] == "(2^63+2^34)^8+1"
    assert int(module["gf"]["modulus"], 16) == preset(8).p and module["gf"]["two_adicity"] == 272
    assert [(op["name"], op["in_words"], op["out_words"]) for op in module["operations"]] == [
        ("add", 32, 16), ("mul_r3", 16, 16)]
    assert main(["generate", "--gf-prime", "(2^3+2^1)^2+1", "--name", "tiny", "--out", str(tmp_path)]) == 0
    modules = json.loads((tmp_path / "mpgen_manifest.json").read_text())["modules"]
    roles = {op["name"]: (op["operands"][0]["role"], op["result"]["role"]) for op in modules[-1]["operations"]}
    assert roles["from_binary"] == ("integer", "element") and roles["to_binary"] == ("element", "integer")
    assert roles["mul"] == ("element", "element")
    shift = next(op for op in modules[-1]["operations"] if op["name"] == "mul_r")
    assert [o["role"] for o in shift["operands"]] == ["element", "shift"] and shift["in_words"] == 5
    fft = modules[-1]["gf"]["fft"]
    assert (fft["radix"], fft["largest_log"]) == (4, 2)  # p - 1 = 100: 4 points at most
    # its entries and geometry for a caller that runs the passes (the kernels source checks them)
    assert fft["host"] == "mpgen_tiny_fft" and fft["twiddles"] == {"kernel": "mpgen_tiny_fft_twiddles", "block_threads": 128}
    assert [(p["kernel"], p["twiddled"], p["scaled"]) for p in fft["passes"]] == [
        ("mpgen_tiny_fft_pass", False, False), ("mpgen_tiny_fft_pass_scaled", False, True),
        ("mpgen_tiny_fft_pass_twiddled", True, False), ("mpgen_tiny_fft_pass_twiddled_scaled", True, True)]
    assert fft["block"] == [32, 2] and fft["shared_bytes"] == 4 * 4 * 32 * 4  # K points of 2k words, 32 lanes
    tiny = (tmp_path / "mpgen_tiny.cuh").read_text()  # the default operations
    assert all(f"struct {op} " in tiny for op in ("add", "sub", "neg", "mul", "mul_r1", "from_binary", "to_binary"))


@pytest.mark.parametrize("argv, message", [
    (["--gf", "3"], "--gf: '3' is no k of Mohajerani's table 3.1"),
    (["--gf-prime", "(2^62+2^34)^8+1", "--name", "x"], "is not prime"),
    (["--gf-prime", "(2^63+2^34)^8+1"], "--gf-prime: give the field a name with --name"),
    (["--gf", "8", "--gf-prime", "(2^63+2^34)^8+1"], "give --gf (Mohajerani's table 3.1) or --gf-prime"),
    (["--gf", "8", "--bits", "256"], "--gf: a generalized Fermat field takes --ops"),
    (["--gf", "8", "--name", "x"], "--name: names a field of --gf-prime"),
    (["--gf", "2", "--ops", "mul_r4"], "--ops: 'mul_r4' is not an operation of gf2; known: add, sub, neg, mul, from_binary, to_binary, mul_r, fft, "
                                       "mul_r<i> for 0 < i < 4"),
    (["--gf", "2", "--ops", "div"], "--ops: 'div' is not an operation of gf2"),
    (["--gf", "32", "--ops", "fft"], "--ops: fft of gf32 is generated up to k = 16 so far"),
    (["--gf-prime", "(2^2+2^1)^4+1", "--name", "x", "--ops", "fft"], "--ops: fft of x needs r > 2k + 2"),
])
def test_cli_errors_write_nothing(tmp_path, capsys, argv, message):
    out = tmp_path / "out"
    assert main(["generate", *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and not out.exists()


# The FFT (gf/fft.py) through the lists, in the GPU's order, against the direct DFT in
# Python's integers, and forward then inverse as the identity.
from mpgen.gf.fft import Lists, check_length, inverse_powers_of_two, roots, transform  # noqa: E402


@pytest.mark.parametrize("gf, lengths", [(GfField(4, 2, 1, 4, "small"), [8, 64]), (preset(2), [4, 16, 64, 256]),
                                         (preset(4), [8, 64]), (preset(8), [256])], ids=["160001", "gf2", "gf4", "gf8"])
def test_fft_against_the_direct_dft(gf, lengths):
    fft, rng = Lists(gf), random.Random(gf.k)
    for n in lengths:
        points = [rng.choice(edges(gf)) if i % 3 else rng.randrange(gf.p) for i in range(n)]
        w = roots(gf)[n.bit_length() - 1]
        assert pow(w, n // 2, gf.p) == gf.p - 1 and pow(w, n // (2 * gf.k), gf.p) == gf.r
        spectrum = transform(fft, points)
        assert spectrum == [sum(x * pow(w, i * j, gf.p) for i, x in enumerate(points)) % gf.p for j in range(n)]
        assert transform(fft, spectrum, inverse=True) == points


def test_fft_constants_and_lengths():
    gf = preset(8)
    table = roots(gf)
    assert len(table) == 33 and table[4] == gf.r and table[0] == 1
    assert all(pow(w, 2, gf.p) == v for w, v in zip(table[1:], table))
    assert all(pow(w, 1 << m, gf.p) == 1 and pow(w, 1 << m - 1, gf.p) == gf.p - 1 for m, w in enumerate(table) if m)
    assert all(v * (1 << m) % gf.p == 1 for m, v in enumerate(inverse_powers_of_two(gf)))
    assert check_length(gf, 16) is None and check_length(gf, 16 ** 5) is None
    assert "give K^e points, K = 2k = 16" in check_length(gf, 32)
    assert "at most 2^32" in check_length(gf, 16 ** 9)
    assert "at most 2^8" in check_length(GfField(4, 2, 1, 4, "small"), 8 ** 3)


def test_spec_entries(tmp_path):
    import json
    spec = tmp_path / "spec.toml"
    spec.write_text('[gf]\ngf2 = { ops = ["add", "fft"] }\ntiny = { prime = "(2^3+2^1)^2+1" }\n')
    assert main(["generate", "--spec", str(spec), "--out", str(tmp_path / "out")]) == 0
    modules = {m["name"]: m for m in json.loads((tmp_path / "out" / "mpgen_manifest.json").read_text())["modules"]}
    assert [op["name"] for op in modules["gf2"]["operations"]] == ["add", "mul", "mul_r", "from_binary", "to_binary"]  # what the FFT and its products run
    assert (modules["gf2"]["gf"]["fft"]["radix"], modules["gf2"]["gf"]["fft"]["largest_log"]) == (4, 32)
    assert modules["tiny"]["gf"]["prime"] == "(2^3+2^1)^2+1" and modules["tiny"]["gf"]["fft"] is not None
    assert "struct accumulate_r<3>" in (tmp_path / "out" / "mpgen_gf2.cuh").read_text()


@pytest.mark.parametrize("entry, message", [
    ("gf3 = {}", "bad.toml:2: gf.gf3: '3' is no k of Mohajerani's table 3.1"),
    ("x = {}", "bad.toml:2: gf.x.prime: give prime = "),
    ('x = { prime = "(2^62+2^34)^8+1" }', "bad.toml:2: gf.x.prime: (2^62+2^34)^8+1 is not prime"),
    ('gf8 = { ops = ["div"] }', "bad.toml:2: gf.gf8.ops: 'div' is not an operation of gf8"),
    ("gf8 = { prime = 5 }", "bad.toml:2: gf.gf8.prime: give the prime as a string"),
    ("gf8 = { moduli = [3] }", "bad.toml:2: unknown key 'moduli' in gf.gf8; allowed: prime, ops"),
])
def test_spec_errors_name_the_line(tmp_path, capsys, entry, message):
    spec = tmp_path / "bad.toml"
    spec.write_text(f"[gf]\n{entry}\n")
    assert main(["generate", "--spec", str(spec), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and not (tmp_path / "out").exists()


def test_mul_above_k_16_is_a_loop_over_three_lists(tmp_path):
    import json
    assert main(["generate", "--gf", "64", "--ops", "add,mul", "--out", str(tmp_path)]) == 0
    header = (tmp_path / "mpgen_gf64.cuh").read_text()
    assert "gf_loops::mul<mul_accumulate, mul_shift, mul_settle>(y, x)" in header
    assert all(f"struct {name} {{" in header for name in ("mul_accumulate", "mul_shift", "mul_settle", "mul"))
    mul_op, = [op for op in json.loads((tmp_path / "mpgen_manifest.json").read_text())["modules"][0]["operations"]
               if op["name"] == "mul"]
    assert (mul_op["in_words"], mul_op["out_words"]) == (256, 128) and mul_op["instructions"] > 64 * 1000
