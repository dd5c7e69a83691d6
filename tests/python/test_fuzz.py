"""Property-based fuzzing (hypothesis) of the input layers a user types into: spec files,
the command line's options and moduli, and the Python API's operands. Whatever the input,
it is either taken, and then means what it says, or refused with the layer's own error and
a one-line message; no other exception escapes. CI runs each for its default examples;
MPGEN_FUZZ_EXAMPLES raises the count for a long run."""
import json
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from mpgen.errors import RequestError
from mpgen.request import parse_field, parse_options, parse_spec
from mpgen.runtime.values import operand

EXAMPLES = int(os.environ.get("MPGEN_FUZZ_EXAMPLES", "300"))
# CI's examples the same on every run (derandomized), a long run's its own; nothing written
# into the tree (no example database).
fuzz = settings(max_examples=EXAMPLES, deadline=None, database=None,
                derandomize="MPGEN_FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def one_line(error: Exception) -> None:
    assert str(error) and "\n" not in str(error), repr(error)
    event("refused")


# ---- spec files: TOML documents from the spec's own words, and text of any kind -----------

# Sizes planned in well under a second (what a spec may ask is planned while it is read),
# beside sizes and names that are refused.
SIZES = ["32", "64", "109", "131", "255", "256", "381", "1024", "2048", "4096", "0", "-1", "31", "16777217",
         "abc", "1e3", "0x100", "١٢٨"]
WORDS = ["ops", "mul", "tier", "threads", "instances_per_block", "modulus", "bits", "moduli", "prime", "label",
         "sizes", "fields", "rns", "gf"]
NAMES = ["auto", "ntt", "karatsuba", "schoolbook", "thread", "group", "add", "mul", "sqr", "div_qr", "modmul",
         "fft", "nope", "secp256k1", "bn254_fp", "rns8", "gf8", "0xffffffffffffffc5", "(2^63+2^34)^8+1", "97", ""]
scalars = st.one_of(st.integers(-2**70, 2**70), st.sampled_from(NAMES), st.text(max_size=10), st.booleans(),
                    st.floats(allow_nan=False, allow_infinity=False))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) |
                      st.dictionaries(st.sampled_from(WORDS), inner, max_size=3), max_leaves=8)


def toml(value) -> str:
    """value as a TOML value (inline tables and arrays)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string: JSON's escapes are TOML's
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{k} = {toml(v)}" for k, v in value.items()) + "}"


def mostly(valid, other=values):
    """valid seven times in eight, else anything: inputs near the accepted ones reach further."""
    return st.integers(0, 7).flatmap(lambda k: valid if k else other)


op_lists = st.lists(st.sampled_from(["add", "sub", "mul", "sqr", "lt", "shl"]), min_size=1, max_size=3)
size_entries = st.fixed_dictionaries({}, optional={"ops": mostly(op_lists), "mul": mostly(st.sampled_from(NAMES[:4])),
                                                   "tier": mostly(st.sampled_from(["thread", "auto"]))})
top = st.fixed_dictionaries({}, optional={"ops": mostly(op_lists), "mul": mostly(st.sampled_from(NAMES[:4])),
                                          "tier": mostly(st.sampled_from(["thread", "auto"]))})
tables = st.fixed_dictionaries({"sizes": st.dictionaries(mostly(st.sampled_from(SIZES[:8]), st.sampled_from(SIZES)),
                                                        mostly(size_entries), min_size=1, max_size=3)}, optional={
    "fields": st.dictionaries(st.sampled_from(["secp256k1", "bn254_fp", "p25519", "mine", "x"]),
                              mostly(st.just({}) | st.fixed_dictionaries({"modulus": st.sampled_from(
                                  ["0xffffffffffffffc5", "97", "0x10", "-7", "x"])})), max_size=2),
    "rns": st.dictionaries(st.sampled_from(["rns8", "tiny", "rns0"]), mostly(st.just({}) | st.fixed_dictionaries(
        {"moduli": st.lists(st.integers(-3, 40), max_size=4)})), max_size=2),
    "gf": st.dictionaries(st.sampled_from(["gf8", "gf3", "mine"]), mostly(st.just({})), max_size=2),
})


@st.composite
def spec_texts(draw) -> str:
    lines = [f"{key} = {toml(value)}" for key, value in draw(top).items()]
    sections = draw(tables)
    if draw(st.integers(0, 7)) == 0:  # a table the spec does not know, or one left out
        sections[draw(st.sampled_from(WORDS))] = draw(st.dictionaries(st.sampled_from(WORDS), values, max_size=2))
    for name, entries in sections.items():
        lines.append(f"[{name}]")
        lines += [f"{json.dumps(key)} = {toml(value)}" for key, value in entries.items()]
    return "\n".join(lines) + "\n"


@fuzz
@given(st.one_of(spec_texts(), st.text(max_size=200)))
def test_a_spec_file_is_read_or_refused_in_one_line(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("spec") / "spec.toml"
    path.write_text(text, encoding="utf-8")
    try:
        request, rns_sets, gf_fields = parse_spec(path)
    except RequestError as e:
        one_line(e)
        assert str(e).startswith(f"{path}:") or str(e).startswith("unknown key") or "--spec" in str(e), str(e)
    else:
        assert all(operations for _, operations in request)
        event("taken")


# ---- the command line's --bits, --ops, --mul, --tier, --threads and fields ----------------

def item_lists(items: list[str], absent: bool = True):
    """An option's comma-separated items, or any text (or the option left out)."""
    texts = st.one_of(st.text(max_size=24), st.lists(st.sampled_from(items), min_size=1, max_size=4).map(",".join))
    return st.one_of(st.none(), texts) if absent else texts


@fuzz
@given(bits=mostly(st.lists(st.sampled_from(SIZES[:10]), min_size=1, max_size=3).map(",".join),
                   item_lists(SIZES, absent=False)),
       ops=mostly(op_lists.map(",".join), item_lists(NAMES[4:11] + ["lt", "shl", "nope", " add ", ""])),
       mul=mostly(st.sampled_from(NAMES[:4]), st.text(max_size=8)),
       tier=mostly(st.sampled_from(["thread", "group", "auto"]), st.text(max_size=8)),
       threads=mostly(st.sampled_from([0, 0, 8, 16, 32]), st.one_of(st.integers(-2**40, 2**40),
                                                                    st.sampled_from([3, 2**20, "mul", "add", "x"]))),
       per_block=mostly(st.sampled_from([0, 0, 1, 2]), st.integers(-10, 10**6)))
def test_command_line_options_are_taken_or_refused_in_one_line(bits, ops, mul, tier, threads, per_block):
    # --bits always given: without it every default size is planned, seconds a call
    try:
        request = parse_options(bits, ops, mul, tier, threads, per_block)
    except RequestError as e:
        one_line(e)
    else:
        assert request and all(operations for _, operations in request)
        event("taken")


@fuzz
@given(modulus=st.one_of(st.sampled_from(NAMES[11:]), st.integers(-5, 2**300).map(str),
                         st.integers(0, 2**300).map(hex), st.text(max_size=30)),
       bits=item_lists(["64", "128", "256", "381", "0", "x"]), ops=item_lists(["modmul", "add", "nope", "modexp"]))
def test_a_field_on_the_command_line_is_taken_or_refused_in_one_line(modulus, bits, ops):
    try:
        fields = parse_field(modulus, bits, ops, None)
    except RequestError as e:
        one_line(e)
    else:
        assert fields
        event("taken")


# ---- the Python API's operands --------------------------------------------------------

LIMBS = 3
BITS = 80  # below the limbs' 96: the width check matters
ints = st.integers(-2**100, 2**100)
arrays = st.builds(lambda shape, dtype, seed: np.random.default_rng(seed).integers(0, 2**32, shape).astype(dtype),
                   st.sampled_from([(4, LIMBS), (LIMBS, 4), (4,), (4, LIMBS, 1), (0, LIMBS), (4, 2)]),
                   st.sampled_from([np.uint32, np.int32, np.uint64, np.float64]), st.integers(0, 2**32))
operands = st.one_of(ints, st.lists(ints, max_size=5), arrays, st.floats(), st.text(max_size=5), st.none(),
                     st.booleans(), st.lists(st.one_of(ints, st.floats(), st.text(max_size=3), st.booleans()),
                                             max_size=4), st.sets(ints, max_size=3), st.tuples(ints, ints))


@fuzz
@given(value=operands, layout=st.sampled_from(["contiguous", "interleaved"]))
def test_an_operand_is_its_integers_or_refused_in_one_line(value, layout):
    try:
        got = operand(value, LIMBS, BITS, layout, "x")
    except (TypeError, ValueError) as e:
        one_line(e)
        assert str(e).startswith("x: "), str(e)
        return
    rows = [int.from_bytes(np.ascontiguousarray(r, dtype="<u4").tobytes(), "little") for r in got.rows]
    if isinstance(value, np.ndarray):
        assert value.dtype == np.uint32 and np.array_equal(got.array, value)
    else:
        wanted = [value] if got.single else list(value)
        assert rows == [int(v) for v in wanted]
    assert all(0 <= r < 2**BITS for r in rows)
    event("taken")


def test_the_fuzzers_can_fail():
    """Each property rejects what breaks its layer's contract."""
    with pytest.raises(AssertionError):
        one_line(RequestError("two\nlines"))
    with pytest.raises(AssertionError):
        one_line(TypeError(""))
