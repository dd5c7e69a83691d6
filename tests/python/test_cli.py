"""The command line: output, determinism, freshness of generated/, and every refusal."""
import filecmp
import json
from pathlib import Path

import pytest

from conftest import ROOT


def test_list_shows_sizes_and_operations(mpgen):
    r = mpgen("--list")
    assert r.returncode == 0
    assert "default: 64 109 128 131 163 191 239 255 256 381 384 521\n" in r.stdout
    for op in ("add", "sub", "add_ui", "neg", "mul", "mul_hi", "sqr", "mad", "cmp", "xor", "shl",
               "shl<K>", "ctz", "modadd", "montmul", "montmul_lazy", "modsqr"):
        assert f"\n  {op} " in r.stdout
    assert "\n  bls12_381_fp   381 bits  BLS12-381 base field" in r.stdout


def test_generate_is_deterministic(mpgen, tmp_path):
    for out in ("one", "two"):
        r = mpgen("generate", "--bits", "131,64", "--ops", "mul,add", "--out", str(tmp_path / out))
        assert r.returncode == 0, r.stderr
    one, two = sorted((tmp_path / "one").iterdir()), sorted((tmp_path / "two").iterdir())
    assert [p.name for p in one] == ["mpgen_manifest.json", "mpgen_u131.cuh", "mpgen_u64.cuh"]
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(one, two))


def test_generated_directory_is_fresh(mpgen, tmp_path):
    r = mpgen("generate", "--table", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    committed = ROOT / "generated"
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(p.name for p in committed.iterdir()), "regenerate generated/"
    match, mismatch, errors = filecmp.cmpfiles(tmp_path, committed, names, shallow=False)
    assert not mismatch and not errors, f"generated/ is stale: {mismatch + errors}; run " \
        "'mpgen generate --table --clean --out generated'"


@pytest.mark.parametrize("args, message", [
    (["--bits", "0"], "--bits: 0 is out of range; sizes are whole numbers of bits from 32 to 16777216"),
    (["--bits", "16777217"], "--bits: 16777217 is out of range; sizes are whole numbers of bits from 32 to 16777216"),
    (["--bits", "4096", "--tier", "thread"], "--bits: 4096 bits is above the thread tier's 2048; the group"),
    (["--bits", "1024", "--tier", "group"], "--bits: 1024 bits is below the group tier's 2048"),
    (["--bits", "4096", "--ops", "add,popc"], "--ops: popc at 4096 bits is not planned yet for the group tier; it "
                                               "has: add, sub, neg, eq, lt, cmp, is_zero, shl, shr, mul, mul_lo, sqr, "
                                               "mad, montmul, montsqr, montredc, tomont, frommont, "
                                               "mont_minus_inverse, mont_radix_squared, modexp, div_qr, div, rem, div_qr_wide, modmul, "
                                               "barrett_reciprocal, barrett_modmul, gcd, "
                                               "modinv, sqrt, "
                                               "shl<K>, shr<K>"),
    (["--bits", "262144", "--ops", "mul", "--threads", "128", "--instances-per-block", "4"],
     "--ops: mul at 262144 bits in the group tier: 4 instances of 128 threads of 64 limbs need 258 KB of product "
     "tables a block; a block has at most 227 KB: give fewer instances per block"),
    (["--bits", "262144", "--threads", "1024", "--ops", "add,div_qr"],
     "--ops: div_qr at 262144 bits in the group tier: 1 instance of 1024 threads of 8 limbs need 230.5 KB of "
     "shared memory a block for div_qr (the products' 198.0 KB and the exchanges' 32.5 KB); a block has at most "
     "227 KB: give fewer threads or instances per block"),
    (["--bits", "4096", "--threads", "popcount"], "--threads: 'popcount' is neither a whole number nor an "
                                                  "operation of the group tier"),
    (["--bits", "4096", "--threads", "12"], "--bits: 4096 bits in the group tier: 12 threads: a group is a "
                                            "power of two from 8 to 32768"),
    (["--bits", "262144", "--threads", "64"], "--bits: 262144 bits in the group tier: 64 threads would hold "
                                              "128 limbs each"),
    (["--bits", "1048576", "--ops", "add,montmul"],  # a group spanning blocks: no rows' tables there
     "--ops: montmul at 1048576 bits in the group tier: montmul multiplies by rows, whose tables hold the whole "
     "integer in one block, and a group of 4096 threads spans 8 blocks: there the products are by transform (mul, "
     "mul_lo, sqr) and what runs on them (the division, sqrt)"),
    (["--bits", "1048576", "--ops", "gcd"], "--ops: gcd at 1048576 bits in the group tier: gcd holds up to 262144 bits"),
    (["--bits", "1048576", "--threads", "65536"], "--bits: 1048576 bits in the group tier: 65536 threads: a group is "
                                                  "a power of two from 8 to 32768"),
    (["--bits", "16777216", "--threads", "32768"], "--bits: 16777216 bits in the group tier: 32768 threads would "
                                                   "span 64 blocks of 512; a group spans at most 32: give fewer "
                                                   "threads"),
    (["--bits", "16777216", "--threads", "4096"], "--bits: 16777216 bits in the group tier: 4096 threads would hold "
                                                  "128 limbs each"),
    (["--bits", "1048576", "--instances-per-block", "2"], "--bits: 1048576 bits in the group tier: 2048 threads span "
                                                          "4 blocks of 512, one instance over them: not 2 instances "
                                                          "a block"),
    (["--bits", "2048", "--tier", "group", "--instances-per-block", "128"],
     "--bits: 2048 bits in the group tier: 128 instances of 16 threads need 2048 threads a block"),
    (["--bits", "1024", "--threads", "16"], "--bits: threads and instances per block are the group tier's"),
    (["--bits", "1024", "--mul", "ntt"], "--bits: 1024 bits: products by transform (mul ntt) are the group tier's"),
    (["--bits", "131072", "--mul", "ntt", "--ops", "mul", "--threads", "256", "--instances-per-block", "3"],
     "--ops: mul at 131072 bits in the group tier: 3 instances of 256 threads of 16 limbs need 297.0 KB of shared "
     "memory a block for mul; a block has at most 227 KB"),
    (["--bits", "4096", "--threads", "many"], "--threads: 'many' is neither a whole number nor an operation"),
    (["--modulus", "0x7", "--tier", "group"], "--tier: fields are planned for the thread tier only"),
    (["--bits", "-64"], "--bits: -64 is out of range"),
    (["--bits", "abc"], "--bits: 'abc' is not a number"),
    (["--bits", "12.5"], "--bits: '12.5' is not a number"),
    (["--bits", "9" * 9], "--bits: '999999999' is above the maximum"),
    (["--bits", ""], "--bits: empty item"),
    (["--bits", "64,,128"], "--bits: empty item"),
    (["--ops", "add,divide"], "--ops: unknown operation 'divide'; known: add, sub, add_ui"),
    (["--ops", "shl0"], "--ops: unknown operation 'shl0'"),
    (["--bits", "64,128", "--ops", "shr64"], "--ops: shr64 shifts by 64 bits, not below the 64-bit"),
    (["--ops", ""], "--ops: empty item"),
])
def test_bad_request_is_one_line_exit_2_nothing_written(mpgen, tmp_path, args, message):
    out = tmp_path / "out"
    r = mpgen("generate", *args, "--out", str(out))
    assert r.returncode == 2
    assert r.stderr.startswith(f"mpgen: error: {message}")
    assert r.stderr.count("\n") == 1
    assert not out.exists()


def test_a_group_size_without_ops_gets_those_that_fit_a_block(mpgen, tmp_path):
    # On 1024 threads at 262144 bits the division's transforms beside its exchanges take more
    # shared memory than a block has: the defaults leave it out, and naming it is the
    # one-line refusal.
    r = mpgen("generate", "--bits", "262144", "--threads", "1024", "--out", str(tmp_path / "d"))
    assert r.returncode == 0, r.stderr
    (module,) = json.loads((tmp_path / "d" / "mpgen_manifest.json").read_text())["modules"]
    names = [op["name"] for op in module["operations"]]
    assert not {"div_qr", "mont_radix_squared", "modexp"} & set(names) and {"add", "mul", "sqrt", "gcd"} <= set(names)
    r = mpgen("generate", "--bits", "262144", "--threads", "1024", "--ops", "rem", "--out", str(tmp_path / "e"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert r.stderr.startswith("mpgen: error: --ops: rem at 262144 bits in the group tier: ")


def test_at_2_19_bits_the_products_span_two_blocks(mpgen, tmp_path):
    # 1024 threads of 16 limbs: one block for add, but the products' transforms (396 KB of
    # shared memory) take two blocks of 512 (data/group.toml's rows with `spans`); sqrt, no
    # products, keeps one (of 512 threads of 32)
    r = mpgen("generate", "--bits", "524288", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    (module,) = json.loads((tmp_path / "mpgen_manifest.json").read_text())["modules"]
    blocks = {op["name"]: op["launch"]["blocks_per_instance"] for op in module["operations"]}
    assert {name: blocks.get(name) for name in ("add", "shl", "mul", "mul_lo", "sqr", "div_qr", "sqrt")} == \
        {"add": 1, "shl": 1, "mul": 2, "mul_lo": 2, "sqr": 2, "div_qr": 2, "sqrt": 1}


def test_unwritable_output_is_refused(mpgen, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    r = mpgen("generate", "--bits", "64", "--out", str(blocker / "sub"))
    assert r.returncode == 1
    assert r.stderr.startswith("mpgen: error: --out: cannot write to")
    assert r.stderr.count("\n") == 1
    assert blocker.read_text() == "not a directory"


@pytest.mark.parametrize("args", [[], ["generate"], ["generate", "--out"], ["frob"]])
def test_bad_command_line_is_one_line_exit_2(mpgen, args):
    r = mpgen(*args)
    assert r.returncode == 2
    assert r.stderr.startswith("mpgen: error:") and r.stderr.count("\n") == 1


SPEC = """# two sizes
ops = ["add", "mul"]
mul = "schoolbook"

[sizes]
131 = {}
256 = { ops = ["mul", "sqr", "shl7"], mul = "karatsuba" }
"""


def test_spec_file_gives_sizes_with_their_own_operations(mpgen, tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC)
    r = mpgen("generate", "--spec", str(spec), "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    u131 = (tmp_path / "out" / "mpgen_u131.cuh").read_text()
    u256 = (tmp_path / "out" / "mpgen_u256.cuh").read_text()
    assert "MPGEN_U131_OPS(X) X(add) X(mul)" in u131
    assert "MPGEN_U256_OPS(X) X(mul) X(sqr) X(shl7)" in u256


@pytest.mark.parametrize("text, message", [
    ('ops = ["add"\n', "spec.toml:1: not valid TOML"),
    ("[sizes]\n64 = {}\n33554432 = {}\n", "spec.toml:3: sizes.33554432: 33554432 is out of range"),
    ("[sizes]\n4096 = { threads = 24 }\n", "spec.toml:2: sizes.4096: 4096 bits in the group tier: 24 threads"),
    ("[sizes]\n4096 = { threads = -1 }\n", "spec.toml:2: sizes.4096.threads: '-1' is not a whole number"),
    ('[sizes]\n64 = {}\n\n128 = { ops = ["add", "divide"] }\n', "spec.toml:4: sizes.128: unknown operation 'divide'"),
    ("opz = 1\n[sizes]\n64 = {}\n", "spec.toml:1: unknown key 'opz' at the top; allowed: ops, mul, tier, sizes"),
    ('mul = "fast"\n[sizes]\n64 = {}\n', "spec.toml:1: mul: unknown multiplication method 'fast'"),
    ('ops = ["add"]\n', "spec.toml: no [sizes], [fields], [rns] or [gf] table"),
    ("[fields]\np999 = {}\n", "spec.toml:2: --field: unknown field 'p999'"),
    ("[fields]\nmine = { modulus = \"0x1f\", base = 3 }\n", "spec.toml:2: unknown key 'base' in fields.mine"),
    ("[fields]\nmine = { modulus = \"0x10\", ops = [\"montmul\"] }\n",
     "spec.toml:2: --ops: montmul needs an odd modulus"),
    ("[sizes]\n64 = { bits = 3 }\n", "spec.toml:2: unknown key 'bits' in sizes.64"),
    ("[sizes]\nabc = {}\n", "spec.toml:2: sizes.abc: 'abc' is not a number"),
    ("[sizes]\n64 = { ops = [] }\n", "spec.toml:2: sizes.64: ops must be a non-empty list"),
])
def test_bad_spec_names_file_and_line(mpgen, tmp_path, text, message):
    spec = tmp_path / "spec.toml"
    spec.write_text(text)
    r = mpgen("generate", "--spec", str(spec), "--out", str(tmp_path / "out"))
    assert r.returncode == 2
    assert r.stderr.startswith("mpgen: error: ") and message in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_spec_gives_fields_by_preset_and_by_modulus(mpgen, tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC + '[fields]\nsecp256k1 = {}\nmine = { modulus = "0xffffffffffffffc5", '
                    'ops = ["modmul"], bits = 64 }\n')
    r = mpgen("generate", "--spec", str(spec), "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    mine = (tmp_path / "out" / "mpgen_mine.cuh").read_text()
    assert "MPGEN_MINE_OPS(X) X(modmul)" in mine and "pseudo-Mersenne" in mine
    assert "X(montmul)" in (tmp_path / "out" / "mpgen_secp256k1.cuh").read_text()


def test_spec_and_bits_together_are_refused(mpgen, tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC)
    r = mpgen("generate", "--spec", str(spec), "--bits", "64", "--out", str(tmp_path / "out"))
    assert r.returncode == 2 and "not both" in r.stderr


def test_threads_named_by_an_operation_put_every_operation_on_its_threads(mpgen, tmp_path):
    # add alone takes 32 threads of 4 limbs at 4096 bits, 256 of 4 at 32768 (data/group.toml);
    # --threads mul_lo puts it on the product's 16 threads of 8 and 64 of 16
    r = mpgen("generate", "--bits", "4096,32768", "--threads", "mul_lo", "--ops", "add,mul_lo", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    modules = json.loads((tmp_path / "mpgen_manifest.json").read_text())["modules"]
    geometry = {(m["bits"], op["name"]): (op["launch"]["threads_per_instance"], op["launch"]["limbs_per_thread"])
                for m in modules for op in m["operations"]}
    assert geometry == {(4096, "add"): (16, 8), (4096, "mul_lo"): (16, 8),
                        (32768, "add"): (64, 16), (32768, "mul_lo"): (64, 16)}


def test_products_by_transform_get_a_module_of_their_own_with_twiddles(mpgen, tmp_path):
    r = mpgen("generate", "--bits", "16384", "--ops", "mul,sqr,add", "--mul", "ntt", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    header = (tmp_path / "mpgen_u16384_ntt.cuh").read_text()
    assert header.count("static __device__ const uint32_t ntt_twiddles_1024_device[]") == 1
    # mul: 32 threads of 16 limbs, 8 a block; sqr (its own rows): 64 threads of 8, 4 a block
    assert "template convolution<16, 18, 8, 1024, false, columns, ::mpgen::group::ntt_prime<digit_p0, " \
        "forward_p0, pointwise_p0, inverse_p0>" in header
    assert "template convolution<8, 10, 4, 1024, true, columns," in header
    manifest = json.loads((tmp_path / "mpgen_manifest.json").read_text())
    assert [m["name"] for m in manifest["modules"]] == ["u16384_ntt"]
