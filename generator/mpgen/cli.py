"""Command line: `mpgen generate ...` and `mpgen --list`."""
from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from . import __version__, gf, names, rns
from .fields import PRESETS
from .group import PLANNERS as GROUP_PLANNERS
from .ops import DEFAULT_CONSTANT_SHIFTS, MODULAR_OPERATIONS, OPERATIONS
from .output import OutputError, read_record, write, write_generated_file
from .plan import plan_request
from .printers import gf as gf_printer, render, rns as rns_printer, table
from .request import RequestError, check_preset, parse_field, parse_options, parse_spec, split_items
from .size import DEFAULT_BITS, MAX_BITS, MIN_BITS, MUL_METHODS
from .tiers import DEFAULT_TIER, GROUP_MIN_BITS, THREAD_MAX_BITS, TIER_NAMES


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
    gen.add_argument("--tier", default=DEFAULT_TIER, help=f"how many threads hold one integer: "
                     f"{', '.join(TIER_NAMES)} (default: {DEFAULT_TIER}: one per thread up to "
                     f"{THREAD_MAX_BITS} bits, a group of threads above)")
    gen.add_argument("--threads", default=0, help="the group tier: threads per integer, a power "
                     "of two from 8 to 1024 (default: from the generator's measurements), or an "
                     "operation's name: every operation of a size on that one's threads (--threads "
                     "mul_lo: add and mul_lo chained in one kernel)")
    gen.add_argument("--instances-per-block", default=0, help="the group tier: integers per block "
                     "(default: from the generator's measurements)")
    gen.add_argument("--modulus", help="arithmetic modulo this odd number (0x... or decimal): "
                     "one header of the modular operations (see --list); --bits sets its size "
                     "(default: the modulus' width)")
    gen.add_argument("--name", help="with --modulus: the header and namespace name "
                     "(default: p<bits>_<low word in hex>)")
    gen.add_argument("--field", help="a preset modulus by name, as --modulus with --name "
                     "(see --list)")
    gen.add_argument("--rns", metavar="N", help="residue number system integers (seed 001): "
                     "comma-separated counts of 32-bit moduli, each set made by the seed's "
                     "Algorithm 3 and named rns<N> (32 N - 1 bits of precision; --ops from "
                     f"{', '.join(rns.OPERATION_NAMES)})")
    gen.add_argument("--rns-moduli", metavar="M0,M1,...", help="an RNS set of your own: pairwise "
                     "coprime moduli from 3 to 2^32 - 1, named by --name")
    gen.add_argument("--gf", metavar="K", help="generalized Fermat prime fields p = r^k + 1 (seed 002): "
                     "comma-separated k of the seed's table 3.1 (see --list), each named gf<k>; --ops from "
                     "add, sub, neg, mul (k up to 16), mul_r<i> (x r^i, 0 < i < 2k); default: all but "
                     "mul_r<i> for i > 1")
    gen.add_argument("--gf-prime", metavar="'(2^W+2^U)^K+1'", help="a generalized Fermat prime of your "
                     "own, (2^w+2^u)^k+1 or (2^w-2^u)^k+1 (r below 2^64, k a power of two from 2 to 128; "
                     "checked prime with GMP), named by --name")
    gen.add_argument("--spec", type=Path, help="a TOML file of sizes with their operations and "
                     "options, instead of --bits/--ops/--mul (see README)")
    gen.add_argument("--out", required=True, type=Path, help="output directory; mpgen records "
                     f"what it writes there in {names.MANIFEST} and never overwrites another file")
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
                     help="check the request and print the paths it would write; write nothing")
    table = sub.add_parser("table", help="write the runtime's table of built-in operations: "
                           "the modules of some manifests (made with mpgen generate --table)")
    table.add_argument("--out", required=True, type=Path, help="the C++ file to write")
    table.add_argument("manifests", nargs="+", type=Path, metavar="MANIFEST",
                       help=f"a folder's {names.MANIFEST}")
    return parser


def _table(out: Path, paths: list[Path]) -> None:
    modules, seen = [], {}
    for path in paths:
        if not path.is_file():
            raise OutputError(f"table: cannot read {str(path)!r}: no such file")
        for module in read_record(path.parent, path.name):
            if "table" not in module.get("files", {}):
                raise RequestError(f"{path}: module {module['name']} was generated without --table")
            if module["name"] in seen:
                raise RequestError(f"module {module['name']} is in {seen[module['name']]} and in "
                                   f"{path}; build each module into the runtime once")
            seen[module["name"]] = path
            modules.append(module)
    write_generated_file(out, table.gather(modules), table.GATHER_MARK)


def _generate_rns(args) -> int:
    if args.rns is not None and args.rns_moduli is not None:
        raise RequestError("--rns: give --rns (generated sets) or --rns-moduli (your own), not both")
    if (args.bits or args.modulus or args.field or args.spec or args.mul != "auto" or args.tier != DEFAULT_TIER
            or args.threads or args.instances_per_block or args.kernels or args.ptx):
        raise RequestError("--rns: an RNS set takes --ops, --name (with --rns-moduli), --out, "
                           "--table, --clean and --dry-run only")
    if args.name and args.rns_moduli is None:
        raise RequestError("--name: names a set of --rns-moduli; --rns sets are named rns<N>")
    request = rns.parse(args.rns, args.rns_moduli, args.name, args.ops)
    files, contracts = rns_printer.render(request, runtime_table=args.table)
    return _write(args, files, contracts, f"{len(request)} RNS {'sets' if len(request) > 1 else 'set'}")


def _write(args, files: dict[str, str], contracts: list[dict], what: str) -> int:
    """Writes a request's files and manifest into --out (or, with --dry-run, names them)."""
    if args.dry_run:
        print("\n".join(str(args.out / name) for name in sorted(files) + [names.MANIFEST]))
        return 0
    write(args.out, files, contracts, None, args.clean)
    print(f"mpgen: wrote {what} to {args.out}")
    return 0


def _generate_gf(args) -> int:
    if args.gf is not None and args.gf_prime is not None:
        raise RequestError("--gf: give --gf (the seed's table) or --gf-prime (your own), not both")
    if (args.bits or args.modulus or args.field or args.spec or args.mul != "auto" or args.tier != DEFAULT_TIER
            or args.threads or args.instances_per_block or args.kernels or args.ptx):
        raise RequestError("--gf: a generalized Fermat field takes --ops, --name (with --gf-prime), --out, "
                           "--table, --clean and --dry-run only")
    if args.name and args.gf_prime is None:
        raise RequestError("--name: names a field of --gf-prime; --gf fields are named gf<k>")
    fields = gf.parse(args.gf, args.gf_prime, args.name)
    files, contracts = gf_printer.render([(f, gf.default_ops(f) if args.ops is None else
                                           gf.check_ops(f, split_items("--ops", args.ops))) for f in fields],
                                         runtime_table=args.table)
    return _write(args, files, contracts, f"{len(fields)} generalized Fermat {'fields' if len(fields) > 1 else 'field'}")


def _list() -> str:
    lines = [f"sizes: {MIN_BITS} to {MAX_BITS} bits; default: {' '.join(map(str, DEFAULT_BITS))}",
             f"tiers (--tier): thread ({MIN_BITS} to {THREAD_MAX_BITS} bits, one integer per thread), "
             f"group ({GROUP_MIN_BITS} to {MAX_BITS} bits, one per group of threads: --threads, "
             f"--instances-per-block), auto (thread up to {THREAD_MAX_BITS} bits, group above)",
             f"operations of the group tier: {', '.join(GROUP_PLANNERS)}, shl<K>, shr<K>",
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
    lines += ["generalized Fermat prime fields p = r^k + 1 (seed 002's table 3.1; their elements and "
              "FFTs are being built: issue 22):"]
    lines += [f"  {f.label:<13} {f.p.bit_length():>4} bits  {f.text}, 2^{f.two_adicity} divides p - 1"
              for f in map(gf.preset, gf.TABLE_3_1)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `mpgen --list | head` ends quietly
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.list:
            print(_list())
        elif args.command == "generate":
            if args.spec and (args.bits or args.ops or args.mul != "auto" or args.modulus
                              or args.field or args.tier != DEFAULT_TIER or args.threads
                              or args.instances_per_block):
                raise RequestError("--spec: give sizes and operations in the spec or on the "
                                   "command line, not both")
            if args.field and (args.modulus or args.name):
                raise RequestError("--field: a preset has its modulus and name; give --field "
                                   "or --modulus, not both")
            if args.rns is not None or args.rns_moduli is not None:  # '' too: an empty list
                return _generate_rns(args)
            if args.gf is not None or args.gf_prime is not None:
                return _generate_gf(args)
            if args.name and not args.modulus:
                raise RequestError("--name: names a modulus' header (or an RNS set's); give "
                                   "--modulus (or --rns-moduli) too")
            if args.field:
                args.modulus, args.name = check_preset(args.field)
            sets, prime_fields = [], []  # RNS sets and generalized Fermat fields, from a spec
            if args.spec:
                request, sets, prime_fields = parse_spec(args.spec)
                if (sets or prime_fields) and (args.kernels or args.ptx is not None):
                    raise RequestError("--spec: RNS sets and [gf] fields have no kernels source (--kernels, --ptx) "
                                       "yet; generate their headers without it")
            elif args.modulus:
                request = parse_field(args.modulus, args.bits, args.ops, args.name, args.mul,
                                      args.tier)
            else:
                request = parse_options(args.bits, args.ops, args.mul, args.tier, args.threads,
                                        args.instances_per_block)
            files, contracts = render(plan_request(request), kernels=args.kernels,
                                      ptx=args.ptx is not None, runtime_table=args.table)
            for extra_files, extra_contracts in (rns_printer.render(sets, runtime_table=args.table),
                                                 gf_printer.render(prime_fields, runtime_table=args.table)):
                files.update(extra_files)
                contracts += extra_contracts
            if args.dry_run:
                written = sorted({f for c in contracts for f in c["files"].values()})
                print("\n".join(str(args.out / name) for name in written + [names.MANIFEST]))
                return 0
            write(args.out, files, contracts, args.ptx, args.clean)
            count = sum(len(ops) for _, ops in request)
            rns_sets = f", {len(sets)} RNS {'sets' if len(sets) > 1 else 'set'}" if sets else ""
            gf_fields = (f", {len(prime_fields)} generalized Fermat {'fields' if len(prime_fields) > 1 else 'field'}"
                         if prime_fields else "")
            print(f"mpgen: wrote {len(request)} {'sizes' if len(request) != 1 else 'size'}, "
                  f"{count} operations{rns_sets}{gf_fields} to {args.out}")
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
