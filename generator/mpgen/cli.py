"""Command line: `mpgen generate ...` and `mpgen --list`."""
from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

from . import gf, names, rns
from .errors import RequestError, split_items
from .fields import PRESETS, Field
from .group import PLANNERS as GROUP_PLANNERS
from .output import OutputError, changes, read_manifest, write, write_generated_file
from .plan import plan_gf, plan_request, plan_rns
from .printers import render, table
from .request import check_preset, parse_field, parse_options, parse_spec
from .size import DEFAULT_BITS, MAX_BITS, MIN_BITS, MUL_METHODS
from .thread import DEFAULT_CONSTANT_SHIFTS, MODULAR_OPERATIONS, OPERATIONS
from .tiers import DEFAULT_TIER, GROUP_MIN_BITS, MAX_BLOCK_THREADS, MAX_GROUP_THREADS, MIN_GROUP_THREADS, \
    THREAD_MAX_BITS, TIER_NAMES
from .version import __version__


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit status 2
        self.exit(2, f"mpgen: error: {message}\n")


def _path(text: str) -> Path:
    """A path option's value: Path('') would be the current folder."""
    if not text:
        raise argparse.ArgumentTypeError("give a name (an empty one names no file or folder)")
    return Path(text)


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
    gen.add_argument("--ops", help="comma-separated operations (default: all that the size can run; see --list)")
    gen.add_argument("--mul", default="auto", choices=MUL_METHODS,
                     help="how mul and sqr are planned (default: auto, Karatsuba above the "
                     "measured threshold)")
    gen.add_argument("--tier", default=DEFAULT_TIER, help=f"how many threads hold one integer: "
                     f"{', '.join(TIER_NAMES)} (default: {DEFAULT_TIER}: one per thread up to "
                     f"{THREAD_MAX_BITS} bits, a group of threads above)")
    gen.add_argument("--threads", default=0, help=f"the group tier: threads per integer, a power "
                     f"of two from {MIN_GROUP_THREADS} to {MAX_GROUP_THREADS} (above {MAX_BLOCK_THREADS}: "
                     "spanning blocks; default: from the generator's measurements), or an "
                     "operation's name: every operation of a size on that one's threads (--threads "
                     "mul_lo: add and mul_lo chained in one kernel)")
    gen.add_argument("--instances-per-block", default=0, help="the group tier: integers per block "
                     "(default: from the generator's measurements)")
    gen.add_argument("--modulus", help="arithmetic modulo this number (0x... or decimal), odd or even (an "
                     "even one: Barrett reduction, and no Montgomery operations, gcd_step, modinv, modinv_gcd "
                     "or modsqrt): one header of the modular operations (see --list); --bits sets its size "
                     "(default: the modulus' width)")
    gen.add_argument("--name", help="with --modulus: the header and namespace name, not a preset's "
                     "(default: p<bits>_<the modulus in hex> up to 128 bits, else p<bits>_<64 bits of its "
                     "SHA-256>)")
    gen.add_argument("--field", help="a preset modulus by name, as --modulus with --name "
                     "(see --list)")
    gen.add_argument("--rns", metavar="N", help="residue number system integers (after Isupov and "
                     "Knyazkov, \"Efficient GPU implementation of multiple-precision addition based on residue "
                     "arithmetic\"): comma-separated counts of 32-bit moduli, each set made by the paper's "
                     "Algorithm 3 and named rns<N> (32 N - 1 bits of precision; --ops from "
                     f"{', '.join(rns.OPERATION_NAMES)})")
    gen.add_argument("--rns-moduli", metavar="M0,M1,...", help="an RNS set of your own: pairwise "
                     "coprime moduli from 3 to 2^32 - 1, named by --name")
    gen.add_argument("--gf", metavar="K", help="generalized Fermat prime fields p = r^k + 1 (after "
                     "Mohajerani, \"Fast Fourier Transforms over prime fields of large characteristic and their "
                     "implementation on GPUs\"): comma-separated k of the thesis' table 3.1 (see --list), each "
                     "named gf<k>; --ops from "
                     f"{', '.join(gf.OPERATIONS)} and mul_r<i> (x r^i, 0 < i < 2k); default: "
                     f"{', '.join(gf.DEFAULT_OPS)} (where the field has them)")
    gen.add_argument("--gf-prime", metavar="'(2^W+2^U)^K+1'", help="a generalized Fermat prime of your "
                     "own, (2^w+2^u)^k+1 or (2^w-2^u)^k+1 (r below 2^64, k a power of two from 2 to 128; "
                     "checked prime with GMP), named by --name")
    gen.add_argument("--spec", type=_path, help="a TOML file of sizes with their operations and "
                     "options, instead of --bits/--ops/--mul (see docs/generator.md)")
    gen.add_argument("--out", required=True, type=_path, help="output directory; mpgen records "
                     f"what it writes there in {names.MANIFEST} and never overwrites another file (it removes "
                     "the staging folders, .mpgen-*, of runs that were killed)")
    gen.add_argument("--clean", action="store_true", help="also remove the files of earlier runs "
                     f"that this one does not write (only those {names.MANIFEST} lists)")
    gen.add_argument("--kernels", action="store_true",
                     help="also write mpgen_<name>_kernels.cu: C-named kernels and a manifest, "
                     "for loading at run time")
    gen.add_argument("--ptx", metavar="ARCH", nargs="?", const="sm_90",
                     help="also compile those kernels with nvcc to mpgen_<name>.ptx for ARCH "
                     "(default sm_90), for the runtime's load_ptx and mpgen-run --ptx")
    gen.add_argument("--table", action="store_true",
                     help="also write mpgen_<name>_table.cu: the module's entries for the "
                     "runtime's table of built-in operations (see mpgen table)")
    gen.add_argument("--dry-run", action="store_true",
                     help="check the request and print the paths it would write, then those it would "
                     "remove (each after 'removes '); write nothing")
    table = sub.add_parser("table", help="write the runtime's table of built-in operations: "
                           "the modules of some manifests (made with mpgen generate --table)")
    table.add_argument("--out", required=True, type=_path, help="the C++ file to write")
    table.add_argument("manifests", nargs="+", type=_path, metavar="MANIFEST",
                       help=f"a folder's {names.MANIFEST}")
    return parser


def _table(out: Path, paths: list[Path]) -> None:
    modules, seen = [], {}
    for path in paths:
        for module in read_manifest(path):
            if "table" not in module.get("files", {}):
                raise RequestError(f"{path}: module {module['name']} was generated without --table")
            if module["name"] in seen:
                raise RequestError(f"module {module['name']} is in {seen[module['name']]} and in "
                                   f"{path}; build each module into the runtime once")
            seen[module["name"]] = path
            modules.append(module)
    write_generated_file(out, table.gather(modules), table.GATHER_MARK)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _integer_options_given(args) -> bool:
    """Whether options of integer sizes and fields are given, which RNS sets and GF fields take none of."""
    return _sizes_given(args) or args.field is not None or args.spec is not None or args.kernels or \
        args.ptx is not None


def _generate_rns(args) -> int:
    if args.rns is not None and args.rns_moduli is not None:
        raise RequestError("--rns: give --rns (generated sets) or --rns-moduli (your own), not both")
    if _integer_options_given(args):
        raise RequestError("--rns: an RNS set takes --ops, --name (with --rns-moduli), --out, "
                           "--table, --clean and --dry-run only")
    if args.name is not None and args.rns_moduli is None:
        raise RequestError("--name: names a set of --rns-moduli; --rns sets are named rns<N>")
    request = rns.parse(args.rns, args.rns_moduli, args.name, args.ops)
    files, contracts = render(plan_rns(request), runtime_table=args.table)
    return _write(args, files, contracts, _count(len(request), "RNS set"))


def _generate_gf(args) -> int:
    if args.gf is not None and args.gf_prime is not None:
        raise RequestError("--gf: give --gf (Mohajerani's table 3.1) or --gf-prime (your own), not both")
    if _integer_options_given(args):
        raise RequestError("--gf: a generalized Fermat field takes --ops, --name (with --gf-prime), --out, "
                           "--table, --clean and --dry-run only")
    if args.name is not None and args.gf_prime is None:
        raise RequestError("--name: names a field of --gf-prime; --gf fields are named gf<k>")
    fields = gf.parse(args.gf, args.gf_prime, args.name)
    files, contracts = render(plan_gf([(f, gf.default_ops(f) if args.ops is None else
                                        gf.check_ops(f, split_items("--ops", args.ops))) for f in fields]),
                              runtime_table=args.table)
    return _write(args, files, contracts, _count(len(fields), "generalized Fermat field"))


def _sizes_given(args) -> bool:
    """Whether the command line gives sizes, a modulus or their options (which --spec, --rns and --gf
    do not take)."""
    return (args.bits is not None or args.modulus is not None or args.mul != "auto" or args.tier != DEFAULT_TIER
            or args.threads != 0 or args.instances_per_block != 0)


def _write(args, files: dict[str, str], contracts: list[dict], what: str) -> int:
    """Writes a request's files and manifest into --out (or, with --dry-run, names them and
    what the run would remove)."""
    if args.dry_run:
        planned = changes(args.out, contracts, args.clean)
        written = [str(args.out / name) for name in sorted(planned.writing) + [names.MANIFEST]]
        removed = [f"removes {path}" for path in [args.out / n for n in planned.stale] + planned.abandoned]
        _say("\n".join(written + removed))
        return 0
    write(args.out, files, contracts, args.ptx, args.clean)
    _say(f"mpgen: wrote {what} to {args.out}")
    return 0


def _say(text: str) -> None:
    """Prints text now, so that a full disk or a closed output is one line of error here."""
    try:
        print(text, flush=True)
    except OSError as e:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # (Python's own flush at exit would fail)
        raise OutputError(f"cannot write to standard output: {e.strerror or e}") from None


def _list() -> str:
    lines = [f"sizes: {MIN_BITS} to {MAX_BITS} bits; default: {' '.join(map(str, DEFAULT_BITS))}",
             f"tiers (--tier): thread ({MIN_BITS} to {THREAD_MAX_BITS} bits, one integer per thread), "
             f"group ({GROUP_MIN_BITS} to {MAX_BITS} bits, one per group of threads: --threads, "
             f"--instances-per-block), auto (thread up to {THREAD_MAX_BITS} bits, group above)",
             f"operations of the group tier: {', '.join(GROUP_PLANNERS)}, shl<K>, shr<K>",
             "operations:"]
    lines += [f"  {op.name:<8} {op.summary}" for op in OPERATIONS.values()]
    lines += ["  shl<K>   a << K, K fixed at generation time (1 <= K < bits): shl<3>, or shl3",
              "  shr<K>   a >> K, likewise",
              f"default operations: all of the above, with K = "
              f"{', '.join(map(str, DEFAULT_CONSTANT_SHIFTS))} where below the size",
              "operations modulo p (--modulus, odd or even; operands below p, results reduced):"]
    lines += [f"  {op.name:<8} {op.summary}" for op in MODULAR_OPERATIONS.values()]
    lines += ["fields (--field NAME):"]
    lines += [f"  {name:<13} {int(f['modulus'], 0).bit_length():>4} bits  {f['title']}"
              for name, f in PRESETS.items()]
    lines += ["generalized Fermat prime fields p = r^k + 1 (--gf K: table 3.1 of Mohajerani, "
              "\"Fast Fourier Transforms over prime fields of large characteristic and their implementation on "
              "GPUs\"; --gf-prime: one's own):"]
    lines += [f"  {f.label:<13} {f.p.bit_length():>4} bits  {f.text}, 2^{f.two_adicity} divides p - 1"
              for f in map(gf.preset, gf.TABLE_3_1)]
    lines += ["operations of a generalized Fermat field (--gf, --gf-prime):"]
    lines += [f"  {name:<11} {summary}" for name, summary in gf.OPERATIONS.items()]
    lines += ["  mul_r<i>    x r^i mod p, i fixed at generation time (0 < i < 2k): mul_r1, mul_r2, ...",
              "RNS integers (--rns N: N moduli by Algorithm 3 of Isupov and Knyazkov, "
              "\"Efficient GPU implementation of multiple-precision addition based on residue arithmetic\"; "
              "--rns-moduli: one's own):"]
    lines += [f"  {name:<13} {op.summary}" for name, op in rns.OPERATIONS.items()]
    return "\n".join(lines)


def _generate(args) -> int:
    if args.spec is not None and (_sizes_given(args) or args.ops is not None or args.field is not None):
        raise RequestError("--spec: give sizes and operations in the spec or on the "
                           "command line, not both")
    if args.field is not None and (args.modulus is not None or args.name is not None):
        raise RequestError("--field: a preset has its modulus and name; give --field "
                           "or --modulus, not both")
    if args.ptx is not None and not args.ptx.strip():
        raise RequestError("--ptx: give an architecture such as sm_90, or --ptx alone for sm_90")
    if args.rns is not None or args.rns_moduli is not None:  # '' too: an empty list
        return _generate_rns(args)
    if args.gf is not None or args.gf_prime is not None:
        return _generate_gf(args)
    if args.name is not None and args.modulus is None:
        raise RequestError("--name: names a modulus' header (or an RNS set's); give "
                           "--modulus (or --rns-moduli) too")
    if args.field is not None:
        args.modulus, args.name = check_preset(args.field)
    sets, prime_fields = [], []  # RNS sets and generalized Fermat fields, from a spec
    if args.spec is not None:
        request, sets, prime_fields = parse_spec(args.spec)
        if (sets or prime_fields) and (args.kernels or args.ptx is not None):
            raise RequestError("--spec: RNS sets and [gf] fields have no kernels source (--kernels, --ptx) "
                               "yet; generate their headers without it")
    elif args.modulus is not None:
        request = parse_field(args.modulus, args.bits, args.ops, args.name, args.mul, args.tier)
    else:
        request = parse_options(args.bits, args.ops, args.mul, args.tier, args.threads,
                                args.instances_per_block)
    files, contracts = render(plan_request(request) + plan_rns(sets) + plan_gf(prime_fields), kernels=args.kernels,
                              ptx=args.ptx is not None, runtime_table=args.table)
    fields = sum(isinstance(size, Field) for size, _ in request)
    what = [_count(len(request) - fields, "size")] if len(request) > fields else []
    what += [_count(fields, "field")] if fields else []
    what += [_count(sum(len(ops) for _, ops in request), "operation")] if request else []
    what += [_count(len(sets), "RNS set")] if sets else []
    what += [_count(len(prime_fields), "generalized Fermat field")] if prime_fields else []
    return _write(args, files, contracts, ", ".join(what))


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `mpgen --list | head` ends quietly
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.list:
            _say(_list())
        elif args.command == "generate":
            return _generate(args)
        elif args.command == "table":
            _table(args.out, args.manifests)
        else:
            parser.error("nothing to do; use 'mpgen generate --out DIR' or 'mpgen --list'")
    except RequestError as e:
        print(f"mpgen: error: {e}", file=sys.stderr)
        return 2
    except OutputError as e:
        print(f"mpgen: error: {e}", file=sys.stderr)
        return 1
    return 0
