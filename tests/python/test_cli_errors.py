"""The command line's refusals and failures: one line each, what is wrong and what is
allowed, a non-zero exit, nothing half-written, no user's file removed or replaced."""
import fcntl
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from conftest import ROOT, one_line
from mpgen.gf import OPERATIONS as GF_OPERATIONS


def headers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".cuh"))


# 2: an empty --ptx architecture


def test_an_empty_ptx_architecture_is_refused(mpgen, tmp_path):
    r = mpgen("generate", "--bits", "64", "--ops", "add", "--ptx", "", "--out", str(tmp_path / "d"))
    one_line(r, 2, "--ptx: give an architecture")
    assert not (tmp_path / "d").exists()


# 3: names of moduli


def test_two_unnamed_moduli_get_two_headers(mpgen, tmp_path):
    for modulus in ("0xffffffffffffffff", "0xfffffffeffffffff"):
        r = mpgen("generate", "--modulus", modulus, "--ops", "modadd", "--out", str(tmp_path))
        assert r.returncode == 0, r.stderr
    assert headers(tmp_path) == ["mpgen_p64_fffffffeffffffff.cuh", "mpgen_p64_ffffffffffffffff.cuh"]


def test_a_wide_unnamed_modulus_is_named_by_a_hash_of_all_of_it(mpgen, tmp_path):
    # the low words alike, the high ones not: names of the whole modulus, short enough for a file
    for modulus in (2 ** 255 - 19, 2 ** 255 - 2 ** 128 - 19):
        r = mpgen("generate", "--modulus", hex(modulus), "--ops", "modadd", "--out", str(tmp_path))
        assert r.returncode == 0, r.stderr
    names = headers(tmp_path)
    assert len(names) == 2 and all(n.startswith("mpgen_p255_") and len(n) < 40 for n in names)


@pytest.mark.parametrize("args, header", [
    (["--field", "secp256k1"], "mpgen_secp256k1.cuh"),
    (["--modulus", hex(2 ** 256 - 2 ** 32 - 977), "--name", "secp256k1"], "mpgen_secp256k1.cuh"),
    (["--modulus", "0x11", "--name", "mine"], "mpgen_mine.cuh"),
])
def test_preset_and_explicit_names_stay(mpgen, tmp_path, args, header):
    r = mpgen("generate", *args, "--ops", "modadd", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert headers(tmp_path) == [header]


@pytest.mark.parametrize("args, message", [
    (["--modulus", "0x11", "--name", "secp256k1"], "--name: 'secp256k1' names the preset field secp256k1"),
    (["--modulus", "0x11", "--name", "p_256"], "--name: 'p_256' names the preset field p256"),
    (["--gf-prime", "(2^3+2^1)^2+1", "--name", "gf8"], "--name: 'gf8' names Mohajerani's gf8"),
    (["--rns-moduli", "3,5,7", "--name", "rns8"], "--name: 'rns8' names the set of --rns 8"),
])
def test_a_presets_name_for_another_value_is_refused(mpgen, tmp_path, args, message):
    r = mpgen("generate", *args, "--out", str(tmp_path / "d"))
    one_line(r, 2, message)
    assert not (tmp_path / "d").exists()


def test_a_spec_entry_with_a_presets_name_and_another_modulus_is_refused(mpgen, tmp_path):
    (tmp_path / "s.toml").write_text('[fields]\nsecp256k1 = { modulus = "0x11" }\n')
    r = mpgen("generate", "--spec", str(tmp_path / "s.toml"), "--out", str(tmp_path / "d"))
    one_line(r, 2, f"{tmp_path / 's.toml'}:2: --name: 'secp256k1' names the preset field secp256k1")
    assert not (tmp_path / "d").exists()


# 5: operating system errors as one line


def test_an_output_name_too_long_is_one_line(mpgen, tmp_path):
    r = mpgen("generate", "--bits", "64", "--ops", "add", "--out", str(tmp_path / ("a" * 300)))
    one_line(r, 1, "--out: cannot write to")
    assert "File name too long" in r.stderr
    r = mpgen("table", str(tmp_path / ("a" * 300 + ".json")), "--out", str(tmp_path / "x.cpp"))
    one_line(r, 1, "table: cannot read")
    assert "File name too long" in r.stderr and not (tmp_path / "x.cpp").exists()


@pytest.mark.parametrize("args", [["--list"], ["generate", "--bits", "64", "--ops", "add", "--dry-run", "--out"]])
def test_a_full_standard_output_is_one_line(tmp_path, args):
    args = args + [str(tmp_path / "d")] if args[-1] == "--out" else args
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "mpgen", *args], cwd=ROOT, stdout=full, stderr=subprocess.PIPE,
                           text=True)
    one_line(r, 1, "cannot write to standard output: No space left on device")
    assert not (tmp_path / "d").exists()


# 6: temporary folders of runs that were killed


def leftover(out, name=".mpgen-x1y2z3w4"):
    """A killed run's staging folder: mpgen's own name, a part-written header, an hour old."""
    folder = out / name
    folder.mkdir(parents=True)
    (folder / "mpgen_u64.cuh").write_text("// half")
    hour_ago = time.time() - 3600
    os.utime(folder, (hour_ago, hour_ago))
    return folder


@pytest.mark.parametrize("clean", [[], ["--clean"]])
def test_a_later_run_removes_a_killed_runs_staging_folder(mpgen, tmp_path, clean):
    dead = leftover(tmp_path)
    mine = [tmp_path / ".mpgen-mine", tmp_path / "mpgen_x1y2z3w4", leftover(tmp_path, ".mpgen-notes123")]
    (mine[-1] / "notes.txt").write_text("a user's folder of mpgen's pattern")
    for folder in mine[:-1]:
        folder.mkdir()
    r = mpgen("generate", "--bits", "64", "--ops", "add", *clean, "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert not dead.exists() and all(folder.is_dir() for folder in mine)


def test_a_live_runs_staging_folder_is_kept(mpgen, tmp_path):
    live = leftover(tmp_path)
    held = os.open(live, os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX)  # as a running mpgen holds its own
        r = mpgen("generate", "--bits", "64", "--ops", "add", "--clean", "--out", str(tmp_path))
        assert r.returncode == 0, r.stderr
        assert (live / "mpgen_u64.cuh").read_text() == "// half"
    finally:
        os.close(held)


def test_a_killed_run_leaves_nothing_for_good(tmp_path):
    # kill -9 while its staging folder is written: an nvcc that never ends holds it there
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "nvcc").write_text("#!/bin/sh\nsleep 600\n")
    (tmp_path / "bin" / "nvcc").chmod(0o755)
    out, environment = tmp_path / "d", {**os.environ, "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}"}
    run = subprocess.Popen([sys.executable, "-m", "mpgen", "generate", "--bits", "64", "--ops", "add", "--ptx",
                            "--out", str(out)], cwd=ROOT, env=environment, start_new_session=True)
    deadline = time.time() + 60
    while not list(out.glob(".mpgen-*/mpgen_u64_kernels.cu")) and time.time() < deadline:
        time.sleep(0.05)
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    assert len(list(out.glob(".mpgen-*"))) == 1
    r = subprocess.run([sys.executable, "-m", "mpgen", "generate", "--bits", "64", "--ops", "add", "--out", str(out)],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in out.iterdir()) == ["mpgen_manifest.json", "mpgen_u64.cuh"]


# 10: empty values, names and digits of other scripts


@pytest.mark.parametrize("args, message", [
    (["--modulus", "0x11", "--name", ""], "--name: '' is not a name mpgen can use"),
    (["--rns-moduli", "3,5", "--name", ""], "--name: '' is not a name mpgen can use"),
    (["--gf-prime", "(2^3+2^1)^2+1", "--name", ""], "--name: '' is not a name mpgen can use"),
    (["--gf-prime", "(2^3+2^1)^2+1", "--name", "int"], "--name: 'int' is a C++ keyword"),
    (["--modulus", "", "--ops", "modadd"], "--modulus: '' is not a number"),
    (["--field", ""], "--field: unknown field ''"),
    (["--bits", "\u0666\u0664"], "--bits: '\u0666\u0664' is not a number"),
    (["--modulus", "\u0661\u0667"], "--modulus: '\u0661\u0667' is not a number"),
    (["--bits", "4096", "--ops", "add", "--threads", "\u0661\u0666"], "--threads: '\u0661\u0666' is neither"),
    (["--gf", "\u0668"], "--gf: '\u0668' is no k"),
    (["--rns", "\u0664"], "--rns: '\u0664' is not a number"),
    (["--rns-moduli", "7,\u0665", "--name", "t"], "--rns-moduli: '\u0665' is not a number"),
    (["--gf", "2", "--ops", "mul_r\u0663"], "--ops: 'mul_r\u0663' is not an operation of gf2"),
])
def test_empty_and_bad_names_and_other_digits_are_refused(mpgen, tmp_path, args, message):
    r = mpgen("generate", *args, "--out", str(tmp_path / "d"))
    one_line(r, 2, message)
    assert not (tmp_path / "d").exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [["generate", "--bits", "64", "--ops", "add", "--out", ""],
                                  ["table", "--out", "", "mpgen_manifest.json"]])
def test_an_empty_output_name_is_refused(tmp_path, args):
    # (in an empty folder: the run before the fix wrote into the current one)
    r = subprocess.run([sys.executable, "-m", "mpgen", *args], cwd=tmp_path, capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(ROOT / "generator")})
    one_line(r, 2, "argument --out: give a name")
    assert list(tmp_path.iterdir()) == []


# 11: messages


def test_a_spec_error_names_its_file_and_line_once(mpgen, tmp_path):
    spec = tmp_path / "s7.toml"
    for text in ("[sizes]\n64 = { ops = [] }\n", 'ops = []\n[sizes]\n64 = {}\n'):
        spec.write_text(text)
        r = mpgen("generate", "--spec", str(spec), "--out", str(tmp_path / "d"))
        one_line(r, 2, f"{spec}:")
        assert r.stderr.count("s7.toml") == 1 and "ops: ops" not in r.stderr, r.stderr


def test_a_table_of_a_file_that_is_no_manifest_blames_that_file(mpgen, tmp_path):
    (tmp_path / "afile").write_text("hello\n")
    r = mpgen("table", "--out", str(tmp_path / "t.cpp"), str(tmp_path / "afile"))
    one_line(r, 2, f"table: '{tmp_path / 'afile'}' is not a record of this mpgen")
    assert not (tmp_path / "t.cpp").exists()


def test_a_dangling_output_link_is_named_as_such(mpgen, tmp_path):
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "missing")
    r = mpgen("generate", "--bits", "64", "--ops", "add", "--out", str(link))
    one_line(r, 1, f"--out: '{link}' is a symbolic link to '{tmp_path / 'missing'}', which does not exist")
    assert link.is_symlink() and not (tmp_path / "missing").exists()


def test_one_operation_is_singular(mpgen, tmp_path):
    r = mpgen("generate", "--bits", "64", "--ops", "add", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"mpgen: wrote 1 size, 1 operation to {tmp_path}\n"


def test_help_and_list_say_what_is_accepted(mpgen):
    wide = {**os.environ, "COLUMNS": "1000"}  # a line an option
    options = {line.split()[0]: line for line in subprocess.run(
        [sys.executable, "-m", "mpgen", "generate", "--help"], cwd=ROOT, env=wide, capture_output=True,
        text=True).stdout.splitlines() if line.startswith("  --")}
    assert "odd number" not in options["--modulus"] and "odd or even" in options["--modulus"]
    listing = mpgen("--list").stdout
    assert "being built" not in listing and not re.search(r"\bissue \d", listing)
    for name in GF_OPERATIONS:
        assert name in options["--gf"] and f"\n  {name} " in listing, name


def test_a_constant_shift_is_accepted_as_listed(mpgen, tmp_path):
    assert "  shl<K> " in mpgen("--list").stdout
    r = mpgen("generate", "--bits", "64", "--ops", "shl<3>,shr3,shl3", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "MPGEN_U64_OPS(X) X(shl3) X(shr3) \n" in (tmp_path / "mpgen_u64.cuh").read_text()


def test_a_power_of_r_is_accepted_as_listed(mpgen, tmp_path):
    r = mpgen("generate", "--gf", "2", "--ops", "mul_r<3>,mul_r3,add", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    manifest = json.loads((tmp_path / "mpgen_manifest.json").read_text())
    assert [op["name"] for op in manifest["modules"][0]["operations"]] == ["mul_r3", "add"]


def test_a_dry_run_with_clean_lists_what_it_would_remove(mpgen, tmp_path):
    assert mpgen("generate", "--bits", "64,128", "--ops", "add", "--out", str(tmp_path)).returncode == 0
    dead = leftover(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    r = mpgen("generate", "--bits", "64", "--ops", "add", "--clean", "--dry-run", "--out", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [str(tmp_path / "mpgen_u64.cuh"), str(tmp_path / "mpgen_manifest.json"),
                                     f"removes {tmp_path / 'mpgen_u128.cuh'}", f"removes {dead}"]
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    manifest = json.loads((tmp_path / "mpgen_manifest.json").read_text())
    assert [m["name"] for m in manifest["modules"]] == ["u64", "u128"]
