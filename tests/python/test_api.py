"""The Python API as a Python user meets it: its exports and documentation, its errors for
bad requests, empty batches, and the CPU's compile cache (damaged entries, the generator in
the key). On the CPU: the behaviour tested here is the same on either device."""
import hashlib
import os
import pydoc
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import mpgen
from mpgen.runtime import cpu
from mpgen.tomlcompat import tomllib

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = ["CompileError", "Module", "OperandError", "Operation", "RequestError", "compile", "field", "gf_field",
          "rns_set"]


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory):
    """Libraries compiled into a cache of the module's own."""
    saved = os.environ.get("MPGEN_CACHE")
    os.environ["MPGEN_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if saved is None:
        del os.environ["MPGEN_CACHE"]
    else:
        os.environ["MPGEN_CACHE"] = saved


@pytest.fixture(scope="module")
def u64():
    return mpgen.compile(64, ["mul", "add", "div_qr", "montmul", "cmp"], device="cpu")


def test_the_package_exports_its_public_api():
    assert sorted(mpgen.__all__) == PUBLIC
    assert dir(mpgen) == sorted([*PUBLIC, "__version__"])
    star = {}
    exec("from mpgen import *", star)
    assert sorted(set(star) - {"__builtins__"}) == PUBLIC
    from mpgen.request import RequestError
    assert mpgen.RequestError is RequestError and issubclass(mpgen.RequestError, ValueError)
    assert issubclass(mpgen.OperandError, ValueError) and issubclass(mpgen.CompileError, RuntimeError)


def test_the_package_ships_a_typed_marker():
    assert (Path(mpgen.__file__).parent / "py.typed").is_file()
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "py.typed" in package_data["mpgen"]


@pytest.mark.parametrize("function", [mpgen.compile, mpgen.field, mpgen.rns_set, mpgen.gf_field])
def test_public_functions_document_arguments_results_and_errors(function):
    doc = pydoc.getdoc(function)
    for needed in ("Returns", "Raises", "RequestError", "CompileError", "device"):
        assert needed in doc, (function.__name__, needed)


def test_help_on_an_operation_gives_its_contract(u64):
    text = pydoc.render_doc(u64.mul, renderer=pydoc.plaintext)
    assert u64.mul.contract["summary"] in text
    assert "mul(a, b" in text and "an integer below 2^64" in text and "below 2^128" in text
    for error in ("OperandError", "TypeError", "ValueError"):
        assert error in text
    add = pydoc.getdoc(u64.add)
    assert "optional: 0 where left out" in add and "flag" in add
    assert "a tuple of:" in pydoc.getdoc(u64.div_qr) and "3. a flag, 0 or 1" in pydoc.getdoc(u64.div_qr)
    montmul = pydoc.getdoc(u64.montmul)
    assert "modulus" in montmul and "computed from the modulus where left out" in montmul and "odd" in montmul
    assert "signed" in pydoc.getdoc(u64.cmp)


def test_help_on_coded_operations_says_what_goes_in():
    r = mpgen.rns_set(4, ops=["add"], device="cpu")
    text = pydoc.getdoc(r.add)
    assert "below M = 0x" in text and "in magnitude" in text


BAD_REQUESTS = [
    (lambda: mpgen.field(256), "name: 256 is an int, not a field's name; give a preset's name (known: secp256k1, "),
    (lambda: mpgen.gf_field(prime=12345), "prime: 12345 is an int; give the prime as text of the form "
                                          "(2^w+2^u)^k+1 or (2^w-2^u)^k+1"),
    (lambda: mpgen.gf_field(prime="(2^63+2^34)^8+1"), "prime: give the field a name with name="),
    (lambda: mpgen.gf_field(3), "k: '3' is no k of Mohajerani's table 3.1; give 2, 4, 8, 16, 32"),
    (lambda: mpgen.gf_field("8"), "k: '8' is a str; give an int"),
    (lambda: mpgen.compile(64, [None]), "ops: item 0 is None, not an operation's name; give names such as "
                                        "['add', 'mul']"),
    (lambda: mpgen.compile(64, 5), "ops: 5 is an int; give a list of operation names such as ['add', 'mul']"),
    (lambda: mpgen.compile(64, []), "ops: no operation; give at least one name, or leave ops out for all"),
    (lambda: mpgen.compile("64"), "bits: '64' is a str; give an int"),
    (lambda: mpgen.compile(True), "bits: True is a bool; give an int"),
    (lambda: mpgen.compile(4096, tier="thread"), "bits: 4096 bits is above the thread tier's 2048; the group tier "
                                                 "(tier=group or auto) holds"),
    (lambda: mpgen.compile(64, device="tpu"), "device 'tpu': give auto, cpu or gpu"),
    (lambda: mpgen.rns_set(moduli=[7.0, 5], name="mine"), "moduli: element 0 is a float (7.0); give integers"),
    (lambda: mpgen.rns_set(moduli=[True, 5], name="mine"), "moduli: element 0 is a bool (True); give integers"),
    (lambda: mpgen.rns_set(moduli=7, name="mine"), "moduli: 7 is an int; give a list of integers such as [3, 5, 7]"),
    (lambda: mpgen.rns_set(moduli=[3, 5]), "moduli: give the set a name with name="),
    (lambda: mpgen.rns_set(moduli=[3, 5], name=5), "name: 5 is an int; give a name as text"),
    (lambda: mpgen.rns_set("8"), "count: '8' is a str; give an int"),
    (lambda: mpgen.rns_set(True), "count: True is a bool; give an int"),
    (lambda: mpgen.rns_set(1), "count: '1' moduli; give 2 to 512"),
    (lambda: mpgen.rns_set(), "rns_set: give a count of moduli or moduli=, not both or neither"),
    (lambda: mpgen.field(), "field: give a preset's name or modulus=, not both or neither"),
    (lambda: mpgen.field(modulus=2.5), "modulus: 2.5 is a float; give an int"),
    (lambda: mpgen.field(modulus=2**61 - 1, bits="64"), "bits: '64' is a str; give an int"),
    (lambda: mpgen.field(modulus=2**61 - 1, tier="group"), "tier: fields are planned for the thread tier only"),
]


@pytest.mark.parametrize("call, message", BAD_REQUESTS, ids=[m.split(";")[0] for _, m in BAD_REQUESTS])
def test_bad_requests_raise_request_error_in_one_line(call, message):
    with pytest.raises(mpgen.RequestError) as raised:
        call()
    text = str(raised.value)
    assert text.startswith(message), text
    assert "\n" not in text and "--" not in text  # Python's argument names, not the command line's


def test_a_cache_that_is_a_file_or_cannot_be_written(tmp_path, monkeypatch):
    blocker = tmp_path / "a file"
    blocker.write_text("")
    for cache in (blocker, blocker / "below"):
        monkeypatch.setenv("MPGEN_CACHE", str(cache))
        with pytest.raises(mpgen.RequestError, match=rf"^the cache folder '{cache}' is not a folder; set "
                                                     r"MPGEN_CACHE to a folder you may write$"):
            mpgen.compile(32, ["add"], device="cpu")

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setenv("MPGEN_CACHE", str(tmp_path / "locked"))
    monkeypatch.setattr(os, "mkdir", denied)
    with pytest.raises(mpgen.RequestError, match=rf"^the cache folder '{tmp_path / 'locked'}' cannot be written "
                                                 r"\(Permission denied\); set MPGEN_CACHE to a folder you may write$"):
        mpgen.compile(32, ["add"], device="cpu")


def test_booleans_are_no_operands(u64):
    cases = [(lambda: u64.mul(True, 3), "operand 1 of mul: element 0 is a bool, not an integer"),
             (lambda: u64.mul([1, False], [1, 1]), "operand 1 of mul: element 1 is a bool, not an integer"),
             (lambda: u64.add([1], [1], [True]), "operand 3 of add: element 0 is a bool, not an integer"),
             (lambda: u64.mul([np.True_], [1]), "operand 1 of mul: element 0 is a bool, not an integer")]
    for call, message in cases:
        with pytest.raises(TypeError) as raised:
            call()
        assert str(raised.value) == message


def test_an_even_modulus_is_refused_with_the_operations_reason(u64):
    with pytest.raises(ValueError, match="element 0 is even; it must be odd \\(Montgomery form\\)"):
        u64.montmul(1, 1, 10)
    modinv = mpgen.compile(64, ["modinv"], device="cpu")
    with pytest.raises(ValueError, match="element 0 is even; it must be odd \\(modinv divides by 2 modulo p\\)"):
        modinv.modinv(3, 10)


def test_empty_arrays_give_empty_arrays(u64):
    empty = np.zeros((0, 2), np.uint32)
    product = u64.mul(empty, empty)
    assert isinstance(product, np.ndarray) and product.shape == (0, 4)
    assert u64.mul(empty, 3).shape == (0, 4)
    assert u64.mul(empty.T.copy(), empty.T.copy(), layout="interleaved").shape == (4, 0)
    sums, carries = u64.add(empty, empty)
    assert sums.shape == (0, 2) and carries.shape == (0,)
    assert u64.montmul(empty, empty, 7).shape == (0, 2)
    assert u64.montmul(empty, empty, empty).shape == (0, 2)
    assert u64.cmp(empty, empty).shape == (0,)
    f = mpgen.field(modulus=2**61 - 1, ops=["modmul"], device="cpu")
    assert f.modmul(empty, empty).shape == (0, 2) and f.modmul([], []) == []
    assert u64.mul([], []) == [] and u64.montmul([], [], 7) == []


def test_empty_batches_of_rns_integers_are_empty_results():
    r = mpgen.rns_set(4, ops=["add", "neg", "cmp"], device="cpu")
    assert r.add([], []) == ([], [])
    assert r.neg([]) == [] and r.cmp([], []) == []
    words = r.contract["rns"]["words"]
    values, flags = r.add(np.zeros((0, words), np.uint32), np.zeros((0, words), np.uint32))
    assert values.shape == (0, words) and flags.shape == (0,)


def run_python(script: str, cache: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**os.environ, "MPGEN_CACHE": str(cache)})


def test_a_damaged_cache_entry_is_built_again(tmp_path):
    """A cut or overwritten library is never loaded (a bus error, every time, once): the
    cache checks an entry against the checksum written beside it, and builds a bad one again."""
    script = ("import mpgen; k = mpgen.compile(32, ['add'], device='cpu'); print(k.add([2**32 - 1], [2])); "
              "print(k._backend._library._name)")
    first = run_python(script, tmp_path)
    assert first.returncode == 0 and first.stdout.startswith("([1], [1])\n"), first.stderr
    entry = Path(first.stdout.splitlines()[1])
    size = entry.stat().st_size

    def cut():
        os.truncate(entry, 4096)

    def overwritten():
        with open(entry, "r+b") as library:
            library.seek(size // 2)
            library.write(b"\xff" * 256)

    for damage in (cut, overwritten):
        damage()
        again = run_python(script, tmp_path)
        assert (again.returncode, again.stdout) == (0, first.stdout), (damage.__name__, again.stderr[-500:])
        checksum = entry.with_name(entry.name + ".sha256").read_text()
        assert entry.stat().st_size == size and hashlib.sha256(entry.read_bytes()).hexdigest() == checksum


def test_the_cache_is_keyed_by_the_generator(tmp_path, monkeypatch):
    package = Path(mpgen.__file__).parent
    copy = tmp_path / "mpgen"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert cpu.content_hash(copy) == cpu.generator_fingerprint.__wrapped__()  # the package's own files
    for changed in ("templates/size.cuh.j2", "headers/loops.cuh", "data/fields.toml", "plan.py"):
        original = cpu.content_hash(copy)
        (copy / changed).write_text((copy / changed).read_text() + "\n")
        assert cpu.content_hash(copy) != original, changed
    from mpgen.runtime.source import size_source
    source = size_source(32, ["add"])
    entry = cpu.library(source)
    monkeypatch.setattr(cpu, "generator_fingerprint", lambda: "another generator")
    assert cpu.library(source) != entry
