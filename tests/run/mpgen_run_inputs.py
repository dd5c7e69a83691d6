#!/usr/bin/env python3
"""mpgen-run's inputs: usage: mpgen_run_inputs.py PATH/TO/mpgen-run (run by ctest as mpgen-run-inputs).

On the CPU, with a build of any sizes (it needs 64 bits built in, and compiles 97 bits and
a few moduli on demand into caches of its own):
  --modulus is read as `mpgen generate --modulus` reads it: 0x... hex, else decimal (the
  operands on the lines stay hex);
  bad bytes in input lines (and in arguments) come back escaped in one error line:
  printable ASCII as it is, any other byte as \\xNN, a NUL included, and cut to a sane length;
  the cache of kernels compiled on demand is keyed by the generator's content: a changed
  file of the generator (or a new one) misses it, the same content hits it again, and a
  missing generator is one clear error line, not a stale entry;
  a size past 2^18 bits (2^20: a group spanning blocks) runs from the command line as any.
Exits 1 naming each check that failed.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from checks import check, error_line, run_checks

BINARY = sys.argv[1] if len(sys.argv) > 1 else "build/mpgen-run"
GENERATOR = Path(__file__).resolve().parents[2] / "generator"
SCRATCH = Path(tempfile.mkdtemp(prefix="mpgen-run-inputs-"))
os.environ["MPGEN_CACHE"] = str(SCRATCH / "cache")
# A copy of the generator, so that its content (the cache's key) stays the same through the
# checks while the checkout's may change.
SNAPSHOT = SCRATCH / "generator"
shutil.copytree(GENERATOR, SNAPSHOT, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
os.environ["MPGEN_GENERATOR_DIR"] = str(SNAPSHOT)



def run(args, data=b"", env=None, timeout=300):
    """Runs mpgen-run to its end: (exit status, stdout, stderr)."""
    p = subprocess.run([BINARY, *args], input=data, capture_output=True, timeout=timeout,
                       env={**os.environ, **(env or {})})
    return p.returncode, p.stdout, p.stderr


def printable(stderr):
    """Whether stderr is printable ASCII and newlines only."""
    return all(32 <= c < 127 or c == 10 for c in stderr)


def modulus():
    """(4) --modulus 13 is thirteen, as for `mpgen generate --modulus 13`."""
    for text, want in ((b"13", b"1\n"), (b"0xd", b"1\n"), (b"0XD", b"1\n"), (b"0x13", b"e\n"), (b"010", b"4\n")):
        status, out, err = run(["--modulus", text, "--op", "modmul"], b"2 7\n")
        check((status, out, err) == (0, want, b""), f"(4) 2 * 7 modulo --modulus {text.decode()}: {want!r}: "
                                                   f"{status} {out!r} {err!r}")
    # The same field however it is written: 0xd's entry serves 13 (the generator is not run).
    status, out, err = run(["--modulus", "13", "--op", "modmul"], b"2 7\n", env={"MPGEN_PYTHON": "/bin/false"})
    check((status, out) == (0, b"1\n"), f"(4) --modulus 13 and 0xd are one cache entry: {status} {out!r} {err!r}")
    # The operands on the lines stay hex: 10 is sixteen, not below 13.
    status, out, err = run(["--modulus", "13", "--op", "modmul"], b"a 2\n10 1\n")
    line = error_line(err)
    check(status == 2 and out == b"7\n" and line is not None and "line 2: operand 1 of modmul is not below" in line,
          f"(4) operands stay hex with a decimal --modulus: {status} {out!r} {err!r}")
    for text, said in ((b"1a", "0x"), (b"0x", "not a hex number"), (b"0xq7", "not a hex number"), (b"-13", "0x"),
                       (b"", "0x")):
        status, out, err = run(["--modulus", text, "--op", "modmul"], b"2 7\n")
        line = error_line(err)
        check(status == 2 and out == b"" and line is not None and said in line and "decimal" in line,
              f"(4) --modulus {text!r} refused in one line naming 0x... and decimal: {status} {err!r}")
    status, out, err = run(["--modulus", "1" * 700, "--op", "modmul"], b"2 7\n")
    line = error_line(err)
    check(status == 2 and line is not None and len(line) < 300,
          f"(4) a modulus of 700 decimal digits (over 2048 bits) refused in one short line: {status} {err[:300]!r}")


def escaped():
    """(11) bad bytes come back escaped, in one line, whole after a NUL."""
    add = ["--bits", "64", "--op", "add"]
    for data, shown in ((b"1 a\x00b\n", r"'a\x00b'"), (b"1 \x01\x1b[31mred\n", r"'\x01\x1b[31mred'"),
                        (b"1 \xff\xfe\n", r"'\xff\xfe'"), (b"1 12\x00\n", r"bad digit '\x00'"),
                        (b"1 " + b"1" * 100 + b"\x7f\n", r"bad digit '\x7f'"),
                        (b"1 2\n\x00 1\n", r"'\x00'")):
        status, out, err = run(add, data)
        line = error_line(err)
        check(status == 2 and printable(err) and line is not None and shown in line
              and ("line 2" in line if data.startswith(b"1 2\n") else "line 1: operand" in line),
              f"(11) {data[:20]!r}: one printable line showing {shown}: {status} {err!r}")
    for data in (b"1 " + b"\x80" * (1 << 20) + b"\n", b"1 0x" + b"\x00" * (1 << 20) + b"\n",
                 b"1 " + b"\x00" * 41 + b"\n", b"1 " + b"\xee" * 30 + b"\n"):
        status, out, err = run(add, data)
        line = error_line(err)
        check(status == 2 and printable(err) and line is not None and len(line) < 200 and r"\x" in line,
              f"(11) {len(data) - 3} bad bytes: one printable line under 200 characters: {status} {err[:300]!r}")
    status, out, err = run(["--bits", "64", "--op", b"mu\x01l\xff"], b"1 2\n")
    line = error_line(err)
    check(status == 2 and printable(err) and line is not None and r"'mu\x01l\xff'" in line,
          f"(11) an operation's name with bad bytes is escaped: {status} {err!r}")
    status, out, err = run(["--modulus", b"0x1\x1b\xff", "--op", "modmul"], b"2 7\n")
    line = error_line(err)
    check(status == 2 and printable(err) and line is not None and r"\x1b\xff" in line,
          f"(11) a --modulus with bad bytes is escaped: {status} {err!r}")
    status, out, err = run(["--bits", "64", "--op", "a" * 5000], b"1 2\n")
    line = error_line(err)
    check(status == 2 and line is not None and "'" + "a" * 40 + "...'" in line and "a" * 41 not in line,
          f"(11) a 5000-character --op: shown cut to 40 characters: {status} {err[:300]!r}")


def messages():
    """(11, 13) --bits 0 is named as such; an even modulus for modinv says why it must be odd."""
    status, out, err = run(["--bits", "0", "--op", "add"], b"1 2\n")
    line = error_line(err)
    check(status == 2 and line is not None and "--bits 0" in line and "required" not in line,
          f"(11) --bits 0 is named, not called missing: {status} {err!r}")
    status, out, err = run(["--bits", "64", "--op", "modinv"], b"3 a\n")
    line = error_line(err)
    check(status == 2 and line is not None and "modinv divides by 2 modulo p" in line and "Montgomery" not in line,
          f"(13) modinv with an even modulus says why it must be odd: {status} {err!r}")
    status, out, err = run(["--bits", "64", "--op", "montmul"], b"1 1 a 1\n")
    line = error_line(err)
    check(status == 2 and line is not None and "Montgomery form" in line,
          f"(13) montmul with an even modulus names Montgomery's form: {status} {err!r}")


def cache_keyed_by_generator():
    """(12) an entry is the generator's: another generator (or none) misses it."""
    copy = SCRATCH / "changed"
    shutil.copytree(SNAPSHOT, copy)
    env = {"MPGEN_GENERATOR_DIR": str(copy), "MPGEN_CACHE": str(SCRATCH / "keyed")}
    mul97 = ["--bits", "97", "--op", "mul"]
    status, out, err = run(mul97, b"3 5\n", env=env)
    check((status, out) == (0, b"f\n"), f"(12) 97-bit mul compiled now: {status} {out!r} {err!r}")
    unrun = {**env, "MPGEN_PYTHON": "/bin/false"}  # the generator cannot run: only the cache answers
    status, out, err = run(mul97, b"3 5\n", env=unrun)
    check((status, out) == (0, b"f\n"), f"(12) the same generator: the cache answers: {status} {out!r} {err!r}")
    mpgen = copy / "mpgen"
    for path in ("size.py", "thread/mul.py", "templates/kernels.cu.j2", "data/karatsuba.toml", "headers/base.cuh"):
        file = mpgen / path
        if not file.exists():
            check(False, f"(12) the generator has no {path}")
            continue
        original = file.read_bytes()
        file.write_bytes(original + (b"\n# changed\n" if path.endswith((".py", ".toml")) else b"\n"))
        status, out, err = run(mul97, b"3 5\n", env=unrun)
        line = error_line(err)
        check(status != 0 and out == b"" and line is not None and "/bin/false" in line,
              f"(12) {path} changed: the cache misses (the generator is run): {status} {out!r} {err!r}")
        file.write_bytes(original)
    status, out, err = run(mul97, b"3 5\n", env=unrun)
    check((status, out) == (0, b"f\n"), f"(12) the same content again (new mtimes): the cache answers: "
                                        f"{status} {out!r} {err!r}")
    (mpgen / "thread" / "extra.py").write_bytes(b"")
    status, out, err = run(mul97, b"3 5\n", env=unrun)
    check(status != 0 and out == b"", f"(12) a new file in the generator: the cache misses: {status} {out!r} {err!r}")
    (mpgen / "thread" / "extra.py").unlink()
    (mpgen / "notes.txt").write_bytes(b"not the generator's")
    status, out, err = run(mul97, b"3 5\n", env=unrun)
    check((status, out) == (0, b"f\n"), f"(12) a file the generator does not use: the cache answers: "
                                        f"{status} {out!r} {err!r}")
    for where in ("/nonexistent", str(SCRATCH / "empty")):
        Path(SCRATCH / "empty").mkdir(exist_ok=True)
        status, out, err = run(mul97, b"3 5\n", env={**unrun, "MPGEN_GENERATOR_DIR": where})
        line = error_line(err)
        check(status == 1 and out == b"" and line is not None and where in line and "MPGEN_GENERATOR_DIR" in line,
              f"(12) no generator at {where}: one line naming it, exit 1, no stale entry: {status} {out!r} {err!r}")
    # The entries carry the generator's fingerprint in their key: one entry per generator.
    entries = sorted(p.name for p in (SCRATCH / "keyed").iterdir() if re.fullmatch(r"mul-[0-9a-f]{16}\.so", p.name))
    check(len(entries) == 1, f"(12) one cache entry for the one generator content: {entries}")


def past_2_18():
    """(13) 2^20 bits (compiled on demand: a group of 2048 threads over 4 blocks): mul on
    one line of two hex operands, the product Python's."""
    a, b = (1 << (1 << 20)) - 1, int("f0e1d2c3b4a5968778695a4b3c2d1e0f" * 8192, 16)
    status, out, err = run(["--bits", "1048576", "--op", "mul", "--device", "cpu"], f"{a:x} {b:x}\n".encode())
    check((status, err) == (0, b"") and int(out, 16) == a * b,
          f"(13) mul at 1048576 bits from mpgen-run: {status} {out[:40]!r} {err[:200]!r}")


def main():
    try:
        run_checks([modulus, escaped, messages, cache_keyed_by_generator, past_2_18])
    finally:
        shutil.rmtree(SCRATCH, ignore_errors=True)


if __name__ == "__main__":
    main()
