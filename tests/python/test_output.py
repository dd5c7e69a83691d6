"""The output folder: mpgen's record, users' files, collisions, names and failures."""
import json
import resource
import signal
import subprocess
import sys

import pytest

from conftest import ROOT, one_line


def files_in(folder):
    return sorted(p.name for p in folder.iterdir())


def snapshot(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def test_runs_into_one_folder_add_up_and_user_files_survive(mpgen, tmp_path):
    # docs/generator.md's first three commands into one folder, beside a user's own mpgen_* files
    (tmp_path / "mpgen_app.cu").write_text("// mine\n")
    (tmp_path / "mpgen_x").mkdir()
    (tmp_path / "notes.txt").write_text("mine too\n")
    for args in (["--bits", "131,256", "--ops", "add,sub,mul"], ["--field", "bn254_fp"],
                 ["--modulus", "0xffffffffffffffc5", "--name", "p64"]):
        r = mpgen("generate", *args, "--out", str(tmp_path))
        assert r.returncode == 0, r.stderr
    assert files_in(tmp_path) == ["mpgen_app.cu", "mpgen_bn254_fp.cuh", "mpgen_manifest.json",
                                  "mpgen_p64.cuh", "mpgen_u131.cuh", "mpgen_u256.cuh", "mpgen_x",
                                  "notes.txt"]
    assert (tmp_path / "mpgen_app.cu").read_text() == "// mine\n"
    record = json.loads((tmp_path / "mpgen_manifest.json").read_text())
    assert [m["name"] for m in record["modules"]] == ["u131", "u256", "bn254_fp", "p64"]


def test_a_run_replaces_only_its_own_names_and_clean_removes_only_recorded_files(mpgen, tmp_path):
    assert mpgen("generate", "--bits", "64,128", "--ops", "add", "--out", str(tmp_path)).returncode == 0
    (tmp_path / "mpgen_app.cu").write_text("// mine\n")
    r = mpgen("generate", "--bits", "64", "--ops", "add,mul", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "X(add) X(mul)" in (tmp_path / "mpgen_u64.cuh").read_text()
    assert files_in(tmp_path) == ["mpgen_app.cu", "mpgen_manifest.json", "mpgen_u128.cuh", "mpgen_u64.cuh"]
    r = mpgen("generate", "--bits", "64", "--ops", "add", "--clean", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert files_in(tmp_path) == ["mpgen_app.cu", "mpgen_manifest.json", "mpgen_u64.cuh"]
    record = json.loads((tmp_path / "mpgen_manifest.json").read_text())
    assert [m["name"] for m in record["modules"]] == ["u64"]


def test_a_file_mpgen_did_not_write_is_never_overwritten(mpgen, tmp_path):
    (tmp_path / "mpgen_u64.cuh").write_text("// a user's header of that name\n")
    before = snapshot(tmp_path)
    r = mpgen("generate", "--bits", "64,128", "--out", str(tmp_path))
    one_line(r, 2, f"--out: '{tmp_path / 'mpgen_u64.cuh'}' exists and mpgen's record")
    assert snapshot(tmp_path) == before


def test_a_directory_in_the_way_is_refused_before_anything_is_written(mpgen, tmp_path):
    assert mpgen("generate", "--bits", "128", "--out", str(tmp_path)).returncode == 0
    (tmp_path / "mpgen_u64.cuh").mkdir()
    before = snapshot_tree = files_in(tmp_path), (tmp_path / "mpgen_u128.cuh").read_text()
    r = mpgen("generate", "--bits", "64,128", "--ops", "add", "--out", str(tmp_path))
    one_line(r, 2, f"--out: '{tmp_path / 'mpgen_u64.cuh'}' is in the way")
    assert (files_in(tmp_path), (tmp_path / "mpgen_u128.cuh").read_text()) == snapshot_tree == before


@pytest.mark.parametrize("record", [
    "{ not mpgen's }",
    '{"schema": 99, "modules": []}',
    # a record naming a file outside the folder: --clean would remove it
    '{"schema": 2, "modules": [{"name": "u64", "files": {"header": "../victim.txt"}}]}',
])
def test_a_record_mpgen_cannot_read_is_left_alone(mpgen, tmp_path, record):
    out = tmp_path / "out"
    out.mkdir()
    (out / "mpgen_manifest.json").write_text(record)
    (tmp_path / "victim.txt").write_text("mine\n")
    r = mpgen("generate", "--bits", "64", "--clean", "--out", str(out))
    one_line(r, 2, f"--out: '{out / 'mpgen_manifest.json'}' is not a record of this mpgen")
    assert files_in(out) == ["mpgen_manifest.json"] and (out / "mpgen_manifest.json").read_text() == record
    assert (tmp_path / "victim.txt").read_text() == "mine\n"


def _limit_file_size():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit then fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, 100_000))


@pytest.mark.parametrize("schema", [1, 2, 3, 4, 5])
def test_a_record_of_an_earlier_schema_is_generated_into_again(mpgen, tmp_path, schema):
    # build folders from before schema 2 (the group tier's launch geometry), 3 (its
    # products' dynamic shared memory), 4 (the operands' roles: a modulus at run time), 5
    # (the module's kind apart from its tier) and 6 (a group spanning blocks)
    (tmp_path / "mpgen_u64.cuh").write_text("// old\n")
    (tmp_path / "mpgen_manifest.json").write_text(json.dumps(
        {"schema": schema, "mpgen": "0.1.0", "modules": [{"name": "u64", "files": {"header": "mpgen_u64.cuh"}}]}))
    r = mpgen("generate", "--bits", "64", "--ops", "add", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "mpgen_manifest.json").read_text())["schema"] == 6
    assert "// old" not in (tmp_path / "mpgen_u64.cuh").read_text()


def test_a_failing_write_is_one_line_exit_1_and_changes_nothing(tmp_path):
    out = tmp_path / "out"
    ok = subprocess.run([sys.executable, "-m", "mpgen", "generate", "--bits", "64", "--out", str(out)],
                        cwd=ROOT, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    before = snapshot(out)
    # the 1024-bit header is some megabytes: past the limit
    r = subprocess.run([sys.executable, "-m", "mpgen", "generate", "--bits", "64,1024", "--out", str(out)],
                       cwd=ROOT, capture_output=True, text=True, preexec_fn=_limit_file_size)
    one_line(r, 1, f"--out: cannot write to '{out}': File too large")
    assert snapshot(out) == before
    r = subprocess.run([sys.executable, "-m", "mpgen", "generate", "--bits", "1024", "--out", str(tmp_path / "new")],
                       cwd=ROOT, capture_output=True, text=True, preexec_fn=_limit_file_size)
    one_line(r, 1, "--out: cannot write to")
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("spec, message", [
    ("[sizes]\n131 = {}\n0131 = {}\n", "spec.toml:3: sizes.131 and sizes.0131 both write u131's header"),
    ("[sizes]\n131 = {}\n[fields]\nu131 = { modulus = \"0x7\" }\n",
     "spec.toml:4: sizes.131 and fields.u131 both write u131's header"),
    ("[fields]\np256 = {}\nP-256 = {}\n", "spec.toml:3: fields.p256 and fields.P-256 both write p256's header"),
])
def test_two_requests_for_one_file_are_refused_with_both_spellings(mpgen, tmp_path, spec, message):
    (tmp_path / "spec.toml").write_text(spec)
    r = mpgen("generate", "--spec", str(tmp_path / "spec.toml"), "--out", str(tmp_path / "out"))
    one_line(r, 2, "")
    assert message in r.stderr, r.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args, message", [
    (["--bits", "131,0131"], "--bits: '131' and '0131' both ask for 131 bits"),
    (["--modulus", "0xb", "--name", "int"], "--name: 'int' is a C++ keyword"),
    (["--modulus", "0xb", "--name", "and_eq"], "--name: 'and_eq' is a C++ keyword"),
    (["--modulus", "0xb", "--name", "loops"], "--name: 'loops' is a name mpgen's headers use"),
    (["--modulus", "0xb", "--name", "My"], "--name: 'My' is not a name mpgen can use"),
    (["--modulus", "0xb", "--name", "a__b"], "--name: 'a__b' is not a name mpgen can use"),
    (["--ops", "shl" + "7" * 5000], "--ops: shl by a 5000-digit amount is not below the"),
    (["--bits", "9" * 5000], "--bits: '99999"),
    (["--modulus", "9" * 5000], "--modulus: '99999"),
    (["--modulus", "0x" + "f" * 600], "--modulus: the modulus has 2400 bits"),
    (["--ops", "x" * 5000], "--ops: unknown operation 'xxxx"),
    (["--tier", "warp"], "--tier: unknown tier 'warp'; allowed: auto, thread, group"),
])
def test_bad_names_and_huge_numbers_are_one_line(mpgen, tmp_path, args, message):
    r = mpgen("generate", *args, "--out", str(tmp_path / "out"))
    one_line(r, 2, message)
    assert len(r.stderr) < 600  # a 5000-character input shown in 40; the list of known operations
    assert not (tmp_path / "out").exists()


def test_runtime_table_lists_modules_of_manifests(mpgen, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert mpgen("generate", "--bits", "64", "--ops", "add", "--table", "--out", str(a)).returncode == 0
    assert mpgen("generate", "--field", "secp256k1", "--ops", "modmul", "--table", "--out", str(b)).returncode == 0
    table = tmp_path / "table.cpp"
    r = mpgen("table", "--out", str(table), str(a / "mpgen_manifest.json"), str(b / "mpgen_manifest.json"))
    assert r.returncode == 0, r.stderr
    assert "{&mpgen_table_u64, &mpgen_table_secp256k1}" in table.read_text()
    assert "entry<u64::add>()" in (a / "mpgen_u64_table.cu").read_text()
    r = mpgen("table", "--out", str(table), str(a / "mpgen_manifest.json"), str(a / "mpgen_manifest.json"))
    one_line(r, 2, f"module u64 is in {a / 'mpgen_manifest.json'} and in")
    mine = tmp_path / "mine.cpp"
    mine.write_text("int main() {}\n")
    r = mpgen("table", "--out", str(mine), str(a / "mpgen_manifest.json"))
    one_line(r, 2, f"--out: '{mine}' exists and mpgen did not write it")
    assert mine.read_text() == "int main() {}\n"
    r = mpgen("table", "--out", str(table), str(tmp_path / "none.json"))
    one_line(r, 1, "table: cannot read")
    assert mpgen("generate", "--bits", "64", "--out", str(tmp_path / "c")).returncode == 0
    r = mpgen("table", "--out", str(table), str(tmp_path / "c" / "mpgen_manifest.json"))
    one_line(r, 2, "")
    assert "module u64 was generated without --table" in r.stderr
