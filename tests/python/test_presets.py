"""The field presets (generator/mpgen/data/fields.toml) against GMP, through gmpy2: every
modulus and group order is prime, and every published point lies on its curve."""
import gmpy2
import pytest

from mpgen.fields import PRESETS, find_preset


def number(text: str) -> int:
    return int(text, 0)


@pytest.mark.parametrize("name", PRESETS)
def test_modulus_and_order_are_prime(name):
    preset = PRESETS[name]
    assert gmpy2.is_prime(number(preset["modulus"]), 64), "modulus"
    if "order" in preset:
        assert gmpy2.is_prime(number(preset["order"]), 64), "order"


@pytest.mark.parametrize("name", [n for n in PRESETS if "curve" in PRESETS[n]])
def test_published_points_are_on_their_curves(name):
    p, curve = number(PRESETS[name]["modulus"]), PRESETS[name]["curve"]
    a, b = number(curve["a"]), number(curve["b"])
    points = [(curve["x"], curve["y"])] + ([(curve["qx"], curve["qy"])] if "qx" in curve else [])
    for x, y in ((number(x), number(y)) for x, y in points):
        assert (y * y - x ** 3 - a * x - b) % p == 0, (hex(x), hex(y))


def test_two_published_forms_agree():
    # BLS12-377's p in hex (EIP-2539) and in decimal (the second source in fields.toml).
    assert number(PRESETS["bls12_377_fp"]["modulus"]) == int(
        "258664426012969094010652733694893533536393512754914660539884262666720468348340822774968888"
        "139573360124440321458177")
    # P-224 as cr.yp.to writes it.
    assert number(PRESETS["p224"]["modulus"]) == 2 ** 224 - 2 ** 96 + 1
    # Pasta: 2^254 + the published low part.
    assert number(PRESETS["pallas"]["modulus"]) == 2 ** 254 + 0x224698FC094CF91B992D30ED00000001


def test_curve_orders_are_the_scalar_fields():
    for curve, scalar in (("bn254_fp", "bn254_fr"), ("bls12_381_fp", "bls12_381_fr"),
                          ("bls12_377_fp", "bls12_377_fr")):
        assert PRESETS[curve]["order"] == PRESETS[scalar]["modulus"]


def test_names_match_loosely():
    assert find_preset("P-256") == "p256"
    assert find_preset("BLS12-381_fp") == "bls12_381_fp"
    assert find_preset("P-224") == "p224"
    assert find_preset("p225") is None


def test_field_option_writes_the_preset(mpgen, tmp_path):
    r = mpgen("generate", "--field", "BN254_fp", "--ops", "montmul", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "mpgen_bn254_fp.cuh").read_text()
    assert "integers modulo p = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47" in text


@pytest.mark.parametrize("args, message", [
    (["--field", "p225"], "--field: unknown field 'p225'; known: secp256k1, p224, p256"),
    (["--field", "p256", "--modulus", "0x1f"], "--field: a preset has its modulus and name"),
])
def test_bad_field_is_refused(mpgen, tmp_path, args, message):
    r = mpgen("generate", *args, "--out", str(tmp_path / "out"))
    assert r.returncode == 2 and r.stderr.startswith(f"mpgen: error: {message}"), r.stderr
    assert not (tmp_path / "out").exists()
