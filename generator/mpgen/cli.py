"""Command line: `mpgen generate ...` and `mpgen --list`."""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import __version__
from .ops import DEFAULT_CONSTANT_SHIFTS, MODULAR_OPERATIONS, OPERATIONS
from .render import render_files
from .field import PRESETS
from .request import RequestError, check_preset, parse_field, parse_options, parse_spec
from .size import DEFAULT_BITS, MAX_BITS, MIN_BITS, MUL_METHODS


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit status 2
        self.exit(2, f"mpgen: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mpgen", description="Generate straight-line multi-precision "
                     "integer kernels (CUDA headers with inline PTX and a host rendering).",
                     epilog="example: mpgen generate --bits 131,256 --ops add,mul --out gen")
    parser.add_argument("--version", action="version", version=f"mpgen {__version__}")
    parser.add_argument("--list", action="store_true", help="show sizes and operations")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    gen = sub.add_parser("generate", help="write one header per size into a directory",
                         epilog="example: mpgen generate --bits 131,256 --ops add,sub,mul --out gen")
    gen.add_argument("--bits", help=f"comma-separated sizes, {MIN_BITS} to {MAX_BITS} "
                     f"(default: {','.join(map(str, DEFAULT_BITS))})")
    gen.add_argument("--ops", help="comma-separated operations (default: all; see --list)")
    gen.add_argument("--mul", default="auto", choices=MUL_METHODS,
                     help="how mul and sqr are planned (default: auto, Karatsuba above the "
                     "measured threshold)")
    gen.add_argument("--modulus", help="arithmetic modulo this odd number (0x... or decimal): "
                     "one header of the modular operations (see --list); --bits sets its size "
                     "(default: the modulus' width)")
    gen.add_argument("--name", help="with --modulus: the header and namespace name "
                     "(default: p<bits>_<low word in hex>)")
    gen.add_argument("--field", help="a preset modulus by name, as --modulus with --name "
                     "(see --list)")
    gen.add_argument("--spec", type=Path, help="a TOML file of sizes with their operations and "
                     "options, instead of --bits/--ops/--mul (see README)")
    gen.add_argument("--out", required=True, type=Path, help="output directory")
    gen.add_argument("--kernels", action="store_true",
                     help="also write mpgen_u<bits>_kernels.cu: C-named kernels and a manifest, "
                     "for loading at run time")
    gen.add_argument("--ptx", metavar="ARCH", nargs="?", const="sm_90",
                     help="also compile those kernels with nvcc to mpgen_u<bits>.ptx for ARCH "
                     "(default sm_90), for the runtime's load_ptx and mpgen-run --ptx")
    gen.add_argument("--dry-run", action="store_true",
                     help="check the request and print the paths it would write; write nothing")
    return parser


def _list() -> str:
    lines = [f"sizes: {MIN_BITS} to {MAX_BITS} bits; default: {' '.join(map(str, DEFAULT_BITS))}",
             "operations:"]
    lines += [f"  {op.name:<8} {op.summary}" for op in OPERATIONS.values()]
    lines += ["  shl<K>   a << K, K fixed at generation time (1 <= K < bits)",
              "  shr<K>   a >> K, likewise",
              f"default operations: all of the above, with K = "
              f"{', '.join(map(str, DEFAULT_CONSTANT_SHIFTS))} where below the size",
              "operations modulo p (--modulus; operands below p, results reduced):"]
    lines += [f"  {op.name:<8} {op.summary}" for op in MODULAR_OPERATIONS.values()]
    lines += ["fields (--field NAME):"]
    lines += [f"  {name:<13} {int(f['modulus'], 0).bit_length():>4} bits  {f['title']}"
              for name, f in PRESETS.items()]
    return "\n".join(lines)


def compile_ptx(staging: Path, files: dict[str, str], arch: str) -> list[str]:
    """nvcc -ptx for each kernels source in staging; the names of the PTX files."""
    nvcc = shutil.which("nvcc")
    if not nvcc:
        raise RequestError("--ptx: nvcc was not found; install the CUDA toolkit, or use "
                           "--kernels and compile the sources yourself")
    written = []
    for name in files:
        if name.endswith("_kernels.cu"):
            ptx = name.replace("_kernels.cu", ".ptx")
            done = subprocess.run([nvcc, "-ptx", f"-arch={arch}", "-o", ptx, name], cwd=staging,
                                  capture_output=True, text=True)
            if done.returncode:
                first = (done.stderr.strip().splitlines() or ["(no message)"])[0]
                raise RequestError(f"--ptx: nvcc failed on {name} for {arch}: {first}")
            written.append(ptx)
    return written


def write_files(out: Path, files: dict[str, str], ptx_arch: str | None = None) -> None:
    """Writes all files or none: into a temporary directory beside them, then moved in.
    Files of an earlier generation (mpgen_*) that this one does not write are removed."""
    created = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".mpgen-", dir=out))
    except OSError as e:
        raise RequestError(f"--out: cannot write to {str(out)!r}: {e.strerror}; "
                           "give a writable directory") from None
    try:
        for name, text in files.items():
            (staging / name).write_text(text, encoding="utf-8")
        names = list(files) + (compile_ptx(staging, files, ptx_arch) if ptx_arch else [])
        for stale in out.glob("mpgen_*"):
            if stale.name not in names:
                stale.unlink()
        for name in names:
            os.replace(staging / name, out / name)
    except RequestError:
        if created:
            shutil.rmtree(out, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.list:
            print(_list())
        elif args.command == "generate":
            if args.spec and (args.bits or args.ops or args.mul != "auto" or args.modulus
                              or args.field):
                raise RequestError("--spec: give sizes and operations in the spec or on the "
                                   "command line, not both")
            if args.field and (args.modulus or args.name):
                raise RequestError("--field: a preset has its modulus and name; give --field "
                                   "or --modulus, not both")
            if args.name and not args.modulus:
                raise RequestError("--name: names a modulus' header; give --modulus too")
            if args.field:
                args.modulus, args.name = check_preset(args.field)
            if args.spec:
                request = parse_spec(args.spec)
            elif args.modulus:
                request = parse_field(args.modulus, args.bits, args.ops, args.name, args.mul)
            else:
                request = parse_options(args.bits, args.ops, args.mul)
            files = render_files(request, kernels=args.kernels or args.ptx is not None)
            if args.dry_run:
                print("\n".join(str(args.out / name) for name in files))
                return 0
            write_files(args.out, files, args.ptx)
            count = sum(len(ops) for _, ops in request)
            print(f"mpgen: wrote {len(request)} {'sizes' if len(request) > 1 else 'size'}, "
                  f"{count} operations to {args.out}")
        else:
            parser.error("nothing to do; use 'mpgen generate --out DIR' or 'mpgen --list'")
    except RequestError as e:
        print(f"mpgen: error: {e}", file=sys.stderr)
        return 2
    return 0
