"""What the mpgen-run checks (mpgen_run_inputs.py, mpgen_run_stream.py) share: a check that
prints its verdict and remembers a failure, mpgen-run's one error line, and the runner
that gives each check function its verdict and the script its exit status."""
import sys

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def error_line(stderr):
    """The one error line of stderr (bytes), or None where stderr is not exactly one
    "mpgen-run: error: " line ending in a newline."""
    lines = stderr.split(b"\n")
    if len(lines) != 2 or lines[1] != b"" or not lines[0].startswith(b"mpgen-run: error: "):
        return None
    return lines[0].decode("ascii", errors="replace")


def run_checks(tests):
    """Runs each check function (a hang, which is a timeout, or a crash of one fails it),
    then exits 1 naming the count of failed checks, or says all passed."""
    for test in tests:
        try:
            test()
        except Exception as e:
            check(False, f"{test.__name__}: {type(e).__name__}: {e}")
    if failures:
        print(f"{len(failures)} check(s) failed", flush=True)
        sys.exit(1)
    print("all checks passed")
