import contextlib
import io
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from mpgen import cli

ROOT = Path(__file__).resolve().parents[2]

# A program that runs a header's host64() functions, one line of input a call: the
# operation's index, then its input words in hex.
HOST64_DRIVER = """#include <cstdio>
#include <cstdlib>
#include "HEADER"
template <class Op>
void run(const char* line) {
  uint64_t x[Op::in_words64], y[Op::out_words64];
  char* at = const_cast<char*>(line);
  for (unsigned i = 0; i < Op::in_words64; ++i) x[i] = std::strtoull(at, &at, 16);
  Op::host64(y, x);
  for (unsigned i = 0; i < Op::out_words64; ++i) std::printf("%llx%c", (unsigned long long)y[i], i + 1 < Op::out_words64 ? ' ' : '\\n');
}
int main() {
  char line[1 << 16];
  while (std::fgets(line, sizeof line, stdin)) {
    char* rest;
    const long op = std::strtol(line, &rest, 10);
    switch (op) {
CASES
    }
  }
}
"""


def run_host64(out: Path, module: dict, ops: list[dict], lines: list[str],
               every_rendering: bool = True) -> dict[str, list[list[int]]]:
    """Compiles the driver for the manifest's `module` (its header in `out`) twice: the carries
    through x86-64's intrinsics (where the machine has them) and the portable C++; and where
    the header has x86 assembly (which the first picks on a CPU with BMI2 and ADX), a third
    time without it (the intrinsics' C++ of the same lists). Runs each on `lines` ("k
    words...": ops[k] on these 64-bit input words) and returns its output words, a list a
    line, by rendering. With every_rendering False, the first alone."""
    cases = "\n".join(f"      case {k}: run<mpgen::{module['name']}::{op['symbol']}>(rest); break;"
                      for k, op in enumerate(ops))
    (out / "driver.cpp").write_text(HOST64_DRIVER.replace("HEADER", module["files"]["header"])
                                    .replace("CASES", cases))
    compiler = shutil.which("c++") or shutil.which("g++")
    answers = {}
    renderings = [("driver", []), ("portable", ["-DMPGEN_PORTABLE_HOST64"])]
    if "::mpgen::x86_adx" in (out / module["files"]["header"]).read_text():
        renderings.append(("intrinsics", ["-DMPGEN_NO_X86_ASM"]))
    for name, options in renderings if every_rendering else renderings[:1]:
        subprocess.run([compiler, "-O1", "-std=c++17", *options, "-o", str(out / name),
                        str(out / "driver.cpp")], check=True, cwd=out)
        ran = subprocess.run([str(out / name)], input="\n".join(lines) + "\n", capture_output=True,
                             text=True, check=True)
        answers[name] = [[int(w, 16) for w in line.split()] for line in ran.stdout.splitlines()]
    return answers


def one_line(r: subprocess.CompletedProcess, status: int, message: str) -> None:
    """mpgen's refusal: exit `status`, one stderr line that starts with the message, no traceback."""
    assert r.returncode == status, r.stderr
    assert r.stderr.startswith(f"mpgen: error: {message}"), r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def run_mpgen(*args: str) -> subprocess.CompletedProcess:
    """`python -m mpgen args` from the checkout's root, run in this process: cli.main() (which
    __main__ passes to sys.exit), its exit status and output. A process a call cost the tests
    a Python start and mpgen's imports (0.5 s) some hundred times; the tests of what only a
    process shows (signals, a closed or full output, the installed command) start their own."""
    stdout, stderr = io.StringIO(), io.StringIO()
    pipe_handler, folder = signal.getsignal(signal.SIGPIPE), os.getcwd()  # main() sets the first
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                status = cli.main(list(args))
            except SystemExit as e:  # argparse's refusals, --help and --version
                status = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
    finally:
        os.chdir(folder)
        signal.signal(signal.SIGPIPE, pipe_handler)
    return subprocess.CompletedProcess(["mpgen", *args], status, stdout.getvalue(), stderr.getvalue())


@pytest.fixture
def mpgen():
    return run_mpgen


# The heaviest files first (their tests' CPU seconds in a run on 2 cores): pytest-xdist hands
# whole files to its workers in collection order (--dist loadfile, scripts/test), so that a
# heavy file collected last (alphabetically, test_runtime.py was) kept one worker busy after
# the other had run out of files.
HEAVY_FILES_FIRST = ("test_docs.py", "test_runtime.py", "test_ptx.py", "test_modular.py", "test_plans.py",
                     "test_group_montgomery.py", "test_wheel.py", "test_api.py", "test_group.py", "test_rsa_example.py")


def pytest_collection_modifyitems(items):
    rank = {name: k for k, name in enumerate(HEAVY_FILES_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: a file's tests stay in order
