"""RNS moduli sets (Algorithm 3 of Isupov and Knyazkov, "Efficient GPU implementation of
multiple-precision addition based on residue arithmetic", and user sets), their constants,
and the residue lists run by the instruction-list interpreter, against Python's integers;
the CLI's one-line errors."""
import math
import random
from fractions import Fraction

import pytest

from mpgen.cli import main
from mpgen.ir import execute
from mpgen.request import RequestError
from mpgen.rns import OPERATIONS, parse
from mpgen.rns.lists import LISTS, chunks
from mpgen.rns.moduli import RnsSet, algorithm_3, check, extended, for_precision, generate


@pytest.mark.parametrize("count", [2, 8, 32, 64, 256])
def test_generated_sets_follow_algorithm_3_below_2_to_the_32(count):
    moduli = generate(count)
    assert len(moduli) == count and moduli[-1] < 1 << 32
    assert all(math.gcd(a, b) == 1 for k, a in enumerate(moduli) for b in moduli[:k])
    # Algorithm 3: every odd number between two moduli shares a factor with an earlier one
    product = 1
    for k, m in enumerate(moduli):
        if k:
            assert all(math.gcd(c, product) > 1 for c in range(moduli[k - 1] + 2, m, 2))
        product *= m
    assert list(moduli) == algorithm_3(moduli[0], count)
    # the largest such m_0: two more makes the set overflow 32 bits
    assert algorithm_3(moduli[0] + 2, count, below=1 << 32) is None


@pytest.mark.parametrize("bits", [128, 256, 1024, 4096])
def test_the_fewest_moduli_for_a_precision(bits):
    moduli = for_precision(bits)
    assert math.prod(moduli).bit_length() - 1 >= bits
    assert math.prod(generate(len(moduli) - 1)).bit_length() - 1 < bits


def test_user_sets_are_checked():
    assert check([3, 4, 5, 7, 2**32 - 1 - 2]) == (3, 4, 5, 7, 2**32 - 3)
    with pytest.raises(RequestError, match=r"moduli 0 \(6\) and 2 \(9\) share the factor 3"):
        check([6, 7, 9])
    with pytest.raises(RequestError, match=r"modulus 1 \(4294967296\) is out of range"):
        check([3, 2**32])
    with pytest.raises(RequestError, match="1 moduli; give 2 to 512"):
        check([3])


def test_constants_against_their_definitions():
    rns = RnsSet(generate(8), "rns8")
    M = rns.product
    for m, w in zip(rns.moduli, rns.crt_weights):
        assert (M // m) * w % m == 1
    down, up = rns.reciprocals
    for m, d, u in zip(rns.moduli, down, up):
        assert Fraction(d) < Fraction(1, m) < Fraction(u) and math.nextafter(d, 1) == u
    k = 0
    for i in range(rns.count):
        for j in range(i + 1, rns.count):
            assert rns.mixed_radix_inverses[k] * rns.moduli[i] % rns.moduli[j] == 1
            k += 1
    value = random.Random(1).randrange(M)
    digits, weight, total = rns.mixed_radix(value), 1, 0
    for d, m in zip(digits, rns.moduli):
        total, weight = total + d * weight, weight * m
    assert total == value


@pytest.mark.parametrize("value", [Fraction(1, 3), Fraction(1, 2**9000 + 1), Fraction(-5, 7), Fraction(2**70 + 1)])
def test_extended_bounds_bracket_the_value(value):
    (fl, el), (fu, eu) = extended(value, up=False), extended(value, up=True)
    low, high = Fraction(fl) * Fraction(2) ** el, Fraction(fu) * Fraction(2) ** eu
    assert low <= value <= high and 0.5 <= abs(fl) < 1 and 0.5 <= abs(fu) < 1


@pytest.mark.parametrize("moduli", [generate(8), (3, 4, 5, 7, 11, 13, 2**31 - 1, 2**32 - 17, 2**32 - 1 - 2**30)],
                         ids=["generated", "mixed"])
def test_residue_lists_against_python(moduli):
    rng = random.Random(7)
    for chunk in chunks(RnsSet(tuple(moduli), "t")):
        lists, ms = chunk.lists, chunk.moduli
        assert set(lists) == set(LISTS)
        cases = [([m - 1 for m in ms], [m - 1 for m in ms]), ([0] * len(ms), [m - 1 for m in ms]),
                 ([m - 1 for m in ms], [0] * len(ms))]
        cases += [([rng.randrange(m) for m in ms], [rng.randrange(m) for m in ms]) for _ in range(300)]
        for a, b in cases:
            assert execute(lists["add"], a + b) == [(x + y) % m for x, y, m in zip(a, b, ms)]
            assert execute(lists["sub"], a + b) == [(x - y) % m for x, y, m in zip(a, b, ms)]
            assert execute(lists["mul"], a + b) == [x * y % m for x, y, m in zip(a, b, ms)]
            for sa in (0, 1):
                for sb in (0, 1):
                    masks = [-sa & 0xFFFFFFFF, -sb & 0xFFFFFFFF]
                    assert execute(lists["add_signed"], a + b + masks) == \
                        [((-1) ** sa * x + (-1) ** sb * y) % m for x, y, m in zip(a, b, ms)]


def test_requests():
    (rns, ops), = parse("8", None, None, None)
    assert rns.label == "rns8" and rns.count == 8 and ops == ["add", "add_branching", "sub", "mul", "neg", "evaluate",
                                                               "sign", "cmp", "from_binary", "to_binary"]
    (rns, ops), = parse(None, "3,5,0x7", "tiny", "mul")  # the conversions come with every set
    assert rns.moduli == (3, 5, 7) and ops == ["mul", "from_binary", "to_binary"]
    with pytest.raises(RequestError, match="give the set a name with --name"):
        parse(None, "3,5", None, None)
    with pytest.raises(RequestError, match="'div' is not an operation of RNS integers"):
        parse("8", None, None, "add,div")
    with pytest.raises(RequestError, match="'600' moduli; give 2 to 512"):
        parse("600", None, None, None)


@pytest.mark.parametrize("argv, message", [
    (["--rns", "8", "--bits", "64"], "an RNS set takes --ops, --name"),
    (["--rns", "8", "--rns-moduli", "3,5", "--name", "a"], "give --rns (generated sets) or --rns-moduli"),
    (["--rns", "8", "--name", "a"], "--rns sets are named rns<N>"),
    (["--rns-moduli", "3,x", "--name", "a"], "'x' is not a number"),
    (["--rns-moduli", "3,5", "--name", "int"], "is a C++ keyword"),
    (["--rns", ""], "--rns: empty item"),
    (["--rns-moduli", "", "--name", "a"], "--rns-moduli: empty item"),
])
def test_cli_errors_write_nothing(tmp_path, capsys, argv, message):
    out = tmp_path / "out"
    assert main(["generate", *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and not out.exists()


def test_contracts_of_every_operation():
    rns = RnsSet(generate(8), "rns8")
    from mpgen.printers.rns import operation_contract
    words = {name: (c["in_words"], c["out_words"], c["result"]["flag"], c["result"]["signed"],
                    [o["role"] for o in c["operands"]])
             for name in ("add", "sub", "neg", "sign", "cmp", "from_binary", "to_binary")
             for c in [operation_contract(rns, name)]}
    # M of rns8 has 256 bits: a magnitude is 8 words, an integer 8 residues + 7 words.
    assert words == {"add": (30, 16, True, False, ["rns", "rns"]), "sub": (30, 16, True, False, ["rns", "rns"]),
                     "neg": (15, 15, False, False, ["rns"]), "sign": (15, 1, False, True, ["rns"]),
                     "cmp": (30, 1, False, True, ["rns", "rns"]),
                     "from_binary": (9, 15, False, False, ["magnitude", "sign"]),
                     "to_binary": (15, 9, True, False, ["rns"])}
    magnitude = operation_contract(rns, "from_binary")["operands"][0]
    assert magnitude["bits"] == rns.product.bit_length() == 256 and magnitude["below_modulus"]


def test_cli_writes_a_header_and_its_manifest(tmp_path):
    assert main(["generate", "--rns", "8", "--ops", "add,mul", "--out", str(tmp_path)]) == 0
    header = (tmp_path / "mpgen_rns8.cuh").read_text()
    assert "namespace rns8" in header and "struct add" in header and "struct add_branching" not in header
    import json
    module, = json.loads((tmp_path / "mpgen_manifest.json").read_text())["modules"]
    assert module["kind"] == "rns" and len(module["rns"]["moduli"]) == 8
    assert [op["name"] for op in module["operations"]] == ["add", "mul", "from_binary", "to_binary"]
    assert int(module["rns"]["product"], 16) == RnsSet(generate(8), "rns8").product
    assert module["operations"][0]["in_words"] == 2 * 15 and module["operations"][0]["out_words"] == 16
    assert module["operations"][0]["result"]["flag"]


def test_table_entries_for_the_runtime(tmp_path):
    assert main(["generate", "--rns", "8", "--ops", "sign", "--table", "--out", str(tmp_path)]) == 0
    table = (tmp_path / "mpgen_rns8_table.cu").read_text()
    assert '#include "mpgen_rns8.cuh"' in table
    assert [line.strip() for line in table.splitlines() if "_entry<" in line] == [
        "rns_entry<rns8::sign>(),", "rns_entry<rns8::from_binary>(),", "rns_entry<rns8::to_binary>(),"]


def test_a_spec_names_rns_sets_beside_sizes(tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text('[sizes]\n131 = { ops = ["add"] }\n[rns]\nrns8 = { ops = ["add"] }\n'
                    'tiny = { moduli = [3, 5, "0x7"], ops = ["mul"] }\n')
    out = tmp_path / "out"
    assert main(["generate", "--spec", str(spec), "--out", str(out)]) == 0
    import json
    modules = {m["name"]: m for m in json.loads((out / "mpgen_manifest.json").read_text())["modules"]}
    assert sorted(modules) == ["rns8", "tiny", "u131"]
    assert modules["tiny"]["rns"]["moduli"] == ["0x00000003", "0x00000005", "0x00000007"]
    assert [op["name"] for op in modules["tiny"]["operations"]] == ["mul", "from_binary", "to_binary"]
    assert (out / "mpgen_tiny.cuh").is_file() and (out / "mpgen_rns8.cuh").is_file()


@pytest.mark.parametrize("entry, message", [
    ("rns8 = { moduli = [6, 9] }", "spec.toml:2: rns.rns8.moduli: moduli 0 (6) and 1 (9) share the factor 3"),
    ('rns8 = { ops = ["div"] }', "spec.toml:2: rns.rns8.ops: 'div' is not an operation of RNS integers"),
    ("rns8 = { count = 3 }", "spec.toml:2: unknown key 'count' in rns.rns8; allowed: moduli, ops"),
    ("mine = {}", "spec.toml:2: rns.mine: give moduli = [m0, m1, ...], or name the set rns<N>"),
    ("rns1000 = {}", "spec.toml:2: rns.rns1000.moduli: '1000' moduli; give 2 to 512"),
    ("x = { moduli = [true] }", "spec.toml:2: rns.x: moduli must be a list of numbers"),
    ("rns8 = 3", "spec.toml:2: rns.rns8: give a table of options, e.g. rns8 = {}"),
    ('rns8 = {}\n[fields]\nrns8 = { modulus = "0xfb" }', "fields.rns8 and rns.rns8 both write rns8's header"),
])
def test_spec_errors_name_the_entry_and_write_nothing(tmp_path, capsys, entry, message):
    spec = tmp_path / "spec.toml"
    spec.write_text(f"[rns]\n{entry}\n")
    out = tmp_path / "out"
    assert main(["generate", "--spec", str(spec), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and not out.exists()


def test_the_digit_parallel_form_from_129_moduli():
    # The measured choice (printers/rns.py, DIGITS_FROM): add, sub and mul of a set of 129
    # moduli or more take 32 lanes an integer over the contiguous layout; nothing else does.
    from mpgen.printers.rns import operation_contract
    for count, lanes in ((8, 0), (128, 0), (129, 32), (257, 32)):
        rns = RnsSet(generate(count), f"rns{count}")
        got = {name: operation_contract(rns, name)["launch"]["digit_lanes"] for name in OPERATIONS}
        assert got == {name: lanes if name in ("add", "sub", "mul") else 0 for name in OPERATIONS}
