#!/usr/bin/env python3
"""mpgen-run streams: usage: mpgen_run_stream.py PATH/TO/mpgen-run (run by ctest as mpgen-run-stream).

On the CPU: a million 64-bit additions fed through a pipe whose writer waits for the first
result after 1,000 lines (it must come before the rest is written), the peak RSS of the
whole run under a fixed bound, every result checked against Python's integers; blank
lines; a bad line after good ones; stdin that cannot be read; a 1 MB operand; --bits with
--modulus; --tier; --mul ntt; RNS integers (--rns). Exits 1 naming each check that failed.
"""
import os
import subprocess
import sys
import tempfile
import threading
import time

from checks import check, error_line, run_checks

BINARY = sys.argv[1] if len(sys.argv) > 1 else "build/mpgen-run"
# Sizes and moduli compiled on demand go to a cache of the test's own.
os.environ["MPGEN_CACHE"] = tempfile.mkdtemp(prefix="mpgen-run-stream-cache-")
ADD64 = [BINARY, "--bits", "64", "--op", "add"]
LINES = 1_000_000
FIRST = 1_000            # lines written before the writer waits for the first result
FIRST_RESULT_WAIT = 30   # seconds the writer waits for it before the check fails
# The whole million-line run may take this much more than a run of one line (its code and
# libraries: CUDA's make several MB); reading it all first took 185 MB more.
PEAK_RSS_ABOVE_ONE_LINE_KB = 16 * 1024
MASK = (1 << 64) - 1



def operands(i):
    # Spread over all 64 bits, so that about half the sums carry.
    return (i * 0x9E3779B97F4A7C15) & MASK, (i * 0xBF58476D1CE4E5B9 + 1) & MASK


def expected(i):
    a, b = operands(i)
    s = a + b
    return b"%x %d\n" % (s & MASK, s >> 64)


def chunk(start, stop):
    return b"".join(b"%x %x\n" % operands(i) for i in range(start, stop))


def run(args, data=b"", stdin=None, merge=False, timeout=60):
    """Runs mpgen-run to its end: (exit status, stdout, stderr)."""
    p = subprocess.run(args, input=None if stdin is not None else data, stdin=stdin, capture_output=not merge,
                       stdout=subprocess.PIPE if merge else None, stderr=subprocess.STDOUT if merge else None,
                       timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def child_of(pid, wait=10):
    """The pid of the process whose parent is pid (what /usr/bin/time started)."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as f:
                        stat = f.read()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    return int(entry)
        time.sleep(0.01)
    return None


def vm_hwm(pid):
    """The peak RSS of a running process so far, in KiB (VmHWM of /proc/PID/status)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return next((int(l.split()[1]) for l in f if l.startswith("VmHWM:")), None)
    except OSError:
        return None


def one_line_peak():
    """VmHWM of mpgen-run that has answered one line and waits for more."""
    proc = subprocess.Popen(ADD64, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdin.write(b"1 2\n")
    proc.stdin.flush()
    proc.stdout.readline()
    peak = vm_hwm(proc.pid)
    proc.stdin.close()
    proc.wait(60)
    return peak


def million():
    """(a), (b), (g): a million lines through a pipe, results read as they come."""
    # The peak RSS of the whole run: from GNU time where it is (the rusage that a Python
    # parent gets counts the memory of its own fork before the exec), and in any case VmHWM
    # once all the lines are written, just before the end of input.
    timed = os.access("/usr/bin/time", os.X_OK)
    peak_file = tempfile.NamedTemporaryFile(prefix="mpgen-run-peak-", delete=False)
    peak_file.close()
    args = (["/usr/bin/time", "-f", "%M", "-o", peak_file.name] if timed else []) + ADD64
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    pid = child_of(proc.pid) if timed else proc.pid
    first = threading.Event()
    seen = {"lines": 0, "wrong": [], "first_at": None, "stderr": b""}

    def read_results():
        for i, line in enumerate(proc.stdout):
            if i == 0:
                seen["first_at"] = time.monotonic()
                first.set()
            if i >= LINES or line != expected(i):
                if len(seen["wrong"]) < 5:
                    seen["wrong"].append((i, line))
            seen["lines"] += 1

    def read_errors():
        seen["stderr"] = proc.stderr.read()

    threads = [threading.Thread(target=read_results), threading.Thread(target=read_errors)]
    for t in threads:
        t.start()
    written_at = time.monotonic()
    proc.stdin.write(chunk(0, FIRST))
    proc.stdin.flush()
    arrived = first.wait(FIRST_RESULT_WAIT)  # the pipe stays open: no end of input yet
    check(arrived, f"(a) the first result arrives while the writer holds back lines {FIRST + 1} to {LINES}"
                   + (f": after {1000 * (seen['first_at'] - written_at):.1f} ms" if arrived else
                      f": nothing after {FIRST_RESULT_WAIT} s"))
    for start in range(FIRST, LINES, 20_000):
        proc.stdin.write(chunk(start, min(start + 20_000, LINES)))
    proc.stdin.flush()
    hwm = vm_hwm(pid) if pid else None  # all written; still running, as stdin is open
    proc.stdin.close()
    proc.wait(120)
    for t in threads:
        t.join(120)
    whole = None
    if timed:
        with open(peak_file.name) as f:
            text = f.read().split()
        whole = int(text[-1]) if text and text[-1].isdigit() else None
    os.unlink(peak_file.name)
    bound = one_line_peak() + PEAK_RSS_ABOVE_ONE_LINE_KB
    check(hwm is not None and hwm < bound and (whole is None or whole < bound)
          and (whole is not None or not timed),
          f"(b) peak RSS of the million-line run: {whole} KiB over the whole run (GNU time"
          f"{'' if timed else ': not here'}), {hwm} KiB before the end of input (VmHWM); "
          f"bound {bound} KiB ({PEAK_RSS_ABOVE_ONE_LINE_KB} above a run of one line)")
    check(proc.returncode == 0 and seen["stderr"] == b"",
          f"(g) the million-line run exits 0, silent on stderr (status {proc.returncode}, {seen['stderr'][:200]!r})")
    check(seen["lines"] == LINES and not seen["wrong"],
          f"(g) {seen['lines']} result lines, all right as Python computes them (wrong: {seen['wrong']})")


def one_line_interactive():
    """(a) again, for one line typed: its answer comes with stdin still open."""
    proc = subprocess.Popen(ADD64, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    got = []
    reader = threading.Thread(target=lambda: got.append(proc.stdout.readline()))
    reader.start()
    proc.stdin.write(b"ffffffffffffffff 1\n")
    proc.stdin.flush()
    reader.join(FIRST_RESULT_WAIT)
    check(got == [b"0 1\n"], f"(a) one line typed gets its answer at once, stdin still open: {got}")
    proc.communicate(timeout=60)


def blank_lines():
    status, out, err = run(ADD64, b"1 2\n\n   \n\t\r\n3 4\n\n \n")
    check((status, out, err) == (0, b"3 0\n7 0\n", b""),
          f"(c) blank lines skipped, trailing ones too: {status} {out!r} {err!r}")
    status, out, err = run(ADD64, b"1 2\n\n  \nzz 1\n")
    line = error_line(err)
    check(status == 2 and out == b"3 0\n" and line is not None and "line 4:" in line,
          f"(c) blank lines still count in line numbers: {status} {out!r} {err!r}")


def bad_line():
    status, out, err = run(ADD64, b"1 2\n3 4\nzz 1\n5 6\n")
    line = error_line(err)
    check(status == 2 and out == b"3 0\n7 0\n" and line is not None and line.startswith("mpgen-run: error: line 3:"),
          f"(d) bad line 3: two results, one error line naming line 3, status 2: {status} {out!r} {err!r}")
    status, both, _ = run(ADD64, b"1 2\n3 4\n1 2 3 4\n", merge=True)  # stdout and stderr in one pipe
    lines = both.decode().splitlines()
    check(status == 2 and len(lines) == 3 and lines[:2] == ["3 0", "7 0"]
          and lines[2].startswith("mpgen-run: error: line 3: 4 operands"),
          f"(d) the results come before the error: {status} {lines}")


def unreadable_stdin():
    fd = os.open("/", os.O_RDONLY)
    try:
        status, out, err = run(ADD64, stdin=fd)
    finally:
        os.close(fd)
    check(status == 1 and out == b"" and error_line(err) is not None,
          f"(e) stdin a directory: one error line, status 1: {status} {out!r} {err!r}")


def long_operand():
    mb = 1 << 20
    for name, text in [("too wide", b"1" * mb), ("not hex", b"1" * (mb - 1) + b"z"),
                       ("too wide after 0x", b"0x" + b"f" * mb)]:
        status, out, err = run(ADD64, b"1 2\n" + text + b" 2\n")
        line = error_line(err)
        check(status == 2 and out == b"3 0\n" and line is not None and "line 2: operand 1" in line
              and len(line) < 200 and str(len(text) - text.startswith(b"0x") * 2) in line,
              f"(f) a 1 MB operand ({name}): one line under 200 characters with its length: {status} {out!r} "
              f"{err[:300]!r}")
    status, out, err = run(ADD64, b"0" * mb + b"ffffffffffffffff 0x" + b"0" * mb + b"2\n")
    check((status, out, err) == (0, b"1 1\n", b""), f"(f) 1 MB of leading zeros is a value: {status} {out!r} {err!r}")


def modulus_bits():
    # The generator checks the width, once a GPU is there to compile for (without one,
    # that is the error).
    gpu = run(ADD64 + ["--device", "gpu"], b"1 2\n")[0] == 0
    status, out, err = run([BINARY, "--modulus", "0x1" + "f" * 18, "--bits", "64", "--op", "modadd",
                            "--device", "gpu"])
    line = error_line(err)
    if gpu:
        check(status == 2 and line is not None and "declare at least 73" in line,
              f"--bits below the modulus' width is refused: {status} {err!r}")
    else:
        check(status == 1 and line is not None and "no GPU" in line,
              f"--bits with --modulus and no GPU: one line, exit 1: {status} {err!r}")
    status, out, err = run([BINARY, "--modulus", "0xb", "--bits", "64", "--op", "modadd"], b"3 9\na a\n")
    check((status, out) == (0, b"1\n9\n"),
          f"--bits with --modulus on the CPU (a host library compiled now): {status} {out!r} {err!r}")


def unchanged():
    status, out, err = run([BINARY, "--bits", "64", "--op", "cmp"], b"1 2\n2 1\n2 2\n")
    check((status, out) == (0, b"-1\n1\n0\n"), f"cmp prints signed results: {status} {out!r} {err!r}")
    status, out, err = run([BINARY, "--field", "secp256k1", "--op", "modexp"], b"2 3")  # no final newline
    check((status, out) == (0, b"8\n"), f"a field, a last line with no newline: {status} {out!r} {err!r}")
    status, out, err = run([BINARY, "--field", "secp256k1", "--op", "modadd"], b"1 2\n" + b"f" * 64 + b" 1\n")
    line = error_line(err)
    check(status == 2 and out == b"3\n" and line is not None and "line 2: operand 1 of modadd is not below" in line,
          f"operands not below the modulus are refused: {status} {out!r} {err!r}")


def tiers():
    # 2048 bits in the group tier, compiled now for the CPU; its product as Python's.
    a, b = (1 << 2048) - 1, (1 << 2047) + 12345
    status, out, err = run([BINARY, "--bits", "2048", "--tier", "group", "--op", "mul"], b"%x %x\n3 5\n" % (a, b),
                           timeout=300)
    check((status, out) == (0, b"%x\nf\n" % (a * b)), f"--tier group at 2048 bits: {status} {out[:80]!r} {err!r}")
    for args, what in ((["--bits", "2048", "--tier", "warp"], "an unknown tier"),
                       (["--bits", "4096", "--tier", "thread"], "a tier that does not hold the size")):
        status, out, err = run([BINARY, *args, "--op", "mul"], b"3 5\n")
        check(status == 2 and out == b"" and len(err.splitlines()) == 1,
              f"{what}: one line, exit 2: {status} {err!r}")


def products_by_transform():
    # 16384 bits with --mul ntt (the module u16384_ntt), compiled now for the CPU: all ones
    # squared (every coefficient of the convolution its largest), a product that fills the
    # top limb and a small one, as Python computes them.
    bits = 16384
    ones, top = (1 << bits) - 1, (1 << (bits - 1)) + 12345
    for op, lines, want in (("mul", [(ones, ones), (ones, top), (3, 5)], [ones * ones, ones * top, 15]),
                            ("mul_lo", [(ones, top)], [(ones * top) % (1 << bits)]),
                            ("sqr", [(ones,), (top,)], [ones * ones, top * top])):
        data = b"".join(b" ".join(b"%x" % x for x in line) + b"\n" for line in lines)
        status, out, err = run([BINARY, "--bits", str(bits), "--mul", "ntt", "--op", op], data, timeout=300)
        check((status, out) == (0, b"".join(b"%x\n" % w for w in want)),
              f"--mul ntt {op} at {bits} bits: {status} {out[:80]!r} {err!r}")
    for args, what, said in ((["--bits", "16384", "--mul", "fft"], "an unknown method", "allowed: auto, ntt"),
                             (["--bits", "16384", "--mul", "karatsuba"], "a method the runtime does not name",
                              "allowed: auto, ntt"),
                             (["--bits", "2048", "--mul", "ntt"], "ntt in the thread tier", "mul ntt"),
                             (["--bits", "2048", "--tier", "thread", "--mul", "ntt"], "ntt in the thread tier, named",
                              "mul ntt")):
        status, out, err = run([BINARY, *args, "--op", "mul"], b"3 5\n", timeout=120)
        line = error_line(err)
        check(status == 2 and out == b"" and line is not None and said in line,
              f"{what}: one line saying {said!r}, exit 2: {status} {err!r}")
    status, out, err = run([BINARY, "--mul", "ntt", "--op", "mul"], b"3 5\n")
    check(status == 2 and out == b"" and error_line(err) is not None and "--bits" in err.decode(),
          f"--mul without --bits: one line naming --bits, exit 2: {status} {err!r}")


def runtime_modulus():
    # montmul with the modulus on each line (two moduli in one batch), as Python computes it;
    # a wrong -p^-1 mod 2^32 refused with the right one named, an even modulus refused.
    def line(a, b, p):
        return b"%x %x %x %x\n" % (a, b, p, -pow(p, -1, 1 << 32) % (1 << 32))
    p, q, r = 0xfb, (1 << 255) - 19, pow(2, -256, (1 << 255) - 19)
    status, out, err = run([BINARY, "--bits", "256", "--op", "montmul"], line(3, 5, p) + line(q - 1, q - 2, q))
    check((status, out) == (0, b"%x\n%x\n" % (15 * pow(2, -256, p) % p, (q - 1) * (q - 2) * r % q)),
          f"montmul with a modulus per line: {status} {out!r} {err!r}")
    status, out, err = run([BINARY, "--bits", "64", "--op", "montmul"], b"3 5 fb 1\n")
    line_ = error_line(err)
    check(status == 2 and out == b"" and line_ is not None and "line 1: operand 4 of montmul is not -p^-1 mod 2^32"
          in line_ and "that is 0x65fdf5cd" in line_, f"a wrong -p^-1 mod 2^32 is named: {status} {err!r}")
    status, out, err = run([BINARY, "--bits", "64", "--op", "modexp"], b"2 3 fb\n2 64 fb\n")
    check((status, out) == (0, b"8 0\n%x 0\n" % pow(2, 100, 0xfb)), f"modexp with the modulus on the line: {status} {out!r}")
    status, out, err = run([BINARY, "--bits", "256", "--op", "div_qr"], b"64 7\n5 0\n")
    check((status, out) == (0, b"e 2 0\n0 0 1\n"), f"div_qr prints quotient, remainder, flag: {status} {out!r}")
    status, out, err = run([BINARY, "--bits", "64", "--op", "montsqr"], b"3 fa 1\n")
    line_ = error_line(err)
    check(status == 2 and line_ is not None and "the modulus, is even" in line_,
          f"an even modulus is refused: {status} {err!r}")


def rns_integers():
    # rns8's signed integers, decimal and 0x hex, 5,000 lines in one stream against Python's
    # integers (sums past M flagged, their values left out), then the errors.
    moduli = [0xffffffe9, 0xffffffeb, 0xffffffed, 0xffffffef, 0xfffffff1, 0xfffffff7, 0xfffffffb, 0xfffffffd]
    m = 1
    for modulus in moduli:
        m *= modulus
    values = [0, 1, -1, m - 1, 1 - m, (m - 1) // 2, -(m - 1) // 2] + [
        (i * 0x9E3779B97F4A7C15 ** 4 % m) * (-1) ** i >> (i % 200) for i in range(5000)]
    pairs = [(values[i % len(values)], values[(7 * i + 3) % len(values)]) for i in range(5000)]
    text = b"".join((b"%d %s\n" % (x, (b"-0x%x" if y < 0 else b"0x%x") % abs(y))) for x, y in pairs)
    status, out, err = run([BINARY, "--rns", "rns8", "--op", "add"], text)
    lines = out.decode().splitlines()
    wrong = [i for i, (x, y) in enumerate(pairs) if i >= len(lines) or
             lines[i].split()[1] != str(int(abs(x + y) >= m)) or (abs(x + y) < m and lines[i].split()[0] != str(x + y))]
    check(status == 0 and len(lines) == len(pairs) and not wrong,
          f"--rns rns8 add: 5,000 signed sums against Python's: {status} {len(lines)} lines, wrong {wrong[:3]} {err!r}")
    status, out, err = run([BINARY, "--rns", "rns8", "--op", "mul", "--hex"], b"-7 0x10\n-3 -5\n")
    check((status, out) == (0, b"-0x70 0\n0xf 0\n"), f"--rns mul --hex: {status} {out!r} {err!r}")
    status, out, err = run([BINARY, "--rns", "rns8", "--op", "cmp"], b"-7 5\n5 -7\n0 -0\n")
    check((status, out) == (0, b"-1\n1\n0\n"), f"--rns cmp: {status} {out!r} {err!r}")
    status, out, err = run([BINARY, "--rns", "rns8", "--op", "neg"], b"5\n%d\n" % m)
    line_ = error_line(err)
    check(status == 2 and out == b"-5\n" and line_ is not None and "line 2: operand 1 of neg: its magnitude is not "
          "below M of rns8" in line_, f"--rns: M itself is refused: {status} {out!r} {err!r}")
    status, out, err = run([BINARY, "--rns", "rns8", "--op", "neg"], b"1a\n")
    line_ = error_line(err)
    check(status == 2 and line_ is not None and "'1a' is not a decimal or 0x hex integer (bad digit 'a')" in line_,
          f"--rns: hex without 0x is refused: {status} {err!r}")
    status, out, err = run([BINARY, "--rns", "rns9", "--op", "add"])
    line_ = error_line(err)
    check(status == 2 and line_ is not None and "built sets: rns8, rns32" in line_,
          f"--rns: an unknown set names the built ones: {status} {err!r}")


def gf_integers():
    # gf8 ((2^63+2^34)^8+1, from Mohajerani's table 3.1): its operations on integers below p, decimal and 0x hex,
    # 2,000 lines in one stream against Python's integers, then the errors.
    r = 2 ** 63 + 2 ** 34
    p = r ** 8 + 1
    values = [0, 1, 2, p - 1, p - 2, r - 1, r, r + 1, r ** 7, r ** 8 - r, (r - 1) * (r ** 8 - 1) // (r - 1)] + [
        i * 0x9E3779B97F4A7C15 ** 8 % p >> (i % 500) for i in range(2000)]
    values = [v % p for v in values]
    pairs = [(values[i % len(values)], values[(7 * i + 3) % len(values)]) for i in range(2000)]
    text = b"".join(b"%d 0x%x\n" % pair for pair in pairs)
    for op, want in (("mul", lambda a, b: a * b), ("add", lambda a, b: a + b), ("sub", lambda a, b: a - b)):
        status, out, err = run([BINARY, "--gf", "gf8", "--op", op], text)
        lines = out.decode().splitlines()
        wrong = [i for i, (a, b) in enumerate(pairs) if i >= len(lines) or lines[i] != str(want(a, b) % p)]
        check(status == 0 and len(lines) == len(pairs) and not wrong,
              f"--gf gf8 {op}: 2,000 against Python's: {status} {len(lines)} lines, wrong {wrong[:3]} {err!r}")
    shifts = b"".join(b"%d %d\n" % (values[i], i % 16) for i in range(200))
    status, out, err = run([BINARY, "--gf", "gf8", "--op", "mul_r", "--hex"], shifts)
    check((status, out.decode().split()) == (0, [hex(values[i] * pow(r, i % 16, p) % p) for i in range(200)]),
          f"--gf gf8 mul_r --hex: x r^a: {status} {err!r}")
    status, out, err = run([BINARY, "--gf", "gf8", "--op", "neg"], b"5\n%d\n" % p)
    line_ = error_line(err)
    check(status == 2 and out == b"%d\n" % (p - 5) and line_ is not None and
          "line 2: operand 1 of neg: not an integer from 0 to p - 1 of gf8" in line_, f"--gf: p itself is refused: {status} {out!r} {err!r}")
    for line, message in ((b"-1\n", "operand 1 of neg: not an integer from 0 to p - 1"),
                          (b"1a\n", "'1a' is not a decimal or 0x hex integer (bad digit 'a')")):
        status, out, err = run([BINARY, "--gf", "gf8", "--op", "neg"], line)
        line_ = error_line(err)
        check(status == 2 and line_ is not None and message in line_, f"--gf neg {line!r} is refused: {status} {err!r}")
    status, out, err = run([BINARY, "--gf", "gf8", "--op", "mul_r"], b"1 16\n")
    line_ = error_line(err)
    check(status == 2 and line_ is not None and "the shift must be from 0 to 15" in line_, f"--gf: a shift of 2k: {err!r}")
    for args, message in ((["--gf", "gf9", "--op", "add"], "built fields: gf8"),
                          (["--gf", "gf8", "--op", "from_binary"], "is no operation on elements but a conversion"),
                          (["--gf", "gf8", "--fft", "32"], "give K^e points (K = 16, e >= 1), at most 2^32"),
                          (["--gf", "gf8", "--fft", "16", "--op", "add"], "excludes"),
                          (["--bits", "64", "--op", "add", "--hex"], "--hex: prints the results of --rns or --gf")):
        status, out, err = run([BINARY] + args)
        line_ = error_line(err)
        check(status == 2 and line_ is not None and message in line_, f"{args}: {status} {err!r}")


def gf_fft():
    # --gf gf8 --fft N against a direct DFT in Python's integers: its root w is read off the
    # transform of x = (0, 1, 0, ...) (X_j = w^j) and checked to be a primitive N-th root of
    # unity with w^(N/16) = r; then two transforms of random points in one stream, and back.
    r = 2 ** 63 + 2 ** 34
    p = r ** 8 + 1
    for n in (16, 256):
        status, out, err = run([BINARY, "--gf", "gf8", "--fft", str(n)], b"0\n1\n" + b"0\n" * (n - 2))
        w = int(out.split()[1]) if status == 0 and len(out.split()) == n else 0
        check(w and pow(w, n // 16, p) == r and pow(w, n // 2, p) == p - 1,
              f"--fft {n}: the root is a primitive {n}-th root with w^(N/16) = r: {status} {err!r}")
        points = [[(j * 0x9E3779B97F4A7C15 ** 7 + t) % p for j in range(n)] for t in range(2)]
        points[1][:3] = [p - 1, 0, r]
        text = b"".join(b"%d\n" % x for transform in points for x in transform)
        status, out, err = run([BINARY, "--gf", "gf8", "--fft", str(n)], text)
        powers = [pow(w, e, p) for e in range(n)]
        want = [sum(x[i] * powers[i * j % n] for i in range(n)) % p for x in points for j in range(n)]
        check(status == 0 and [int(v) for v in out.split()] == want, f"--fft {n}: two transforms against the direct DFT: {status} {err!r}")
        status, back, err = run([BINARY, "--gf", "gf8", "--fft", str(n), "--inverse"], out)
        check(status == 0 and back == text, f"--fft {n} --inverse gives the points back: {status} {err!r}")
    status, out, err = run([BINARY, "--gf", "gf8", "--fft", "16"], b"1\n" * 20)
    line_ = error_line(err)
    check(status == 2 and len(out.split()) == 16 and line_ is not None and
          "the input ends inside a transform: 4 values after the last whole one" in line_,
          f"--fft 16 with 20 values: the whole transform, then the error: {status} {err!r}")


def main():
    run_checks([one_line_interactive, million, blank_lines, bad_line, unreadable_stdin, long_operand, modulus_bits,
                 tiers, products_by_transform, unchanged, runtime_modulus, rns_integers, gf_integers, gf_fft])


if __name__ == "__main__":
    main()
