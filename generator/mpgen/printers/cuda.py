"""The CUDA printer: a module's self-contained header (each operation's struct with its
device and host renderings, and the shared prelude) and its C-named kernels source.
Shapes come from the manifest's contract; the instruction lists from the PTX and host
printers; the hand-written C++ (headers/*.cuh) is copied in verbatim."""
from __future__ import annotations

from functools import cache
from pathlib import Path

import jinja2

from ..fields import Field
from ..plan import Module
from ..size import HOST64
from ..version import __version__
from . import group, host, manifest, ptx, x86

PACKAGE = Path(__file__).resolve().parents[1]
# The prelude's parts, in order; host.model() goes after the first.
HAND_WRITTEN = ("base.cuh", "loops.cuh", "group.cuh", "batch.cuh", "element.cuh", "value.cuh")


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(PACKAGE / "templates")),
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["hex_word"] = lambda w: f"{w:#010x}u"
    env.filters["hex_limb"] = lambda w: f"{w:#018x}ull"
    env.filters["limbs64"] = lambda words: [words[k] | (words[k + 1] << 32 if k + 1 < len(words) else 0)
                                            for k in range(0, len(words), 2)]
    env.filters["tojson_c"] = c_string
    return env


def c_string(text: str) -> str:
    """text as a C string literal (JSON needs only its quotes and backslashes escaped)."""
    assert text.isascii() and "\n" not in text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def version_macro() -> str:
    return "MPGEN_PRELUDE_" + __version__.replace(".", "_")


@cache
def prelude() -> str:
    """What every header shares, once per translation unit: guarded by a macro that
    carries the version, so that headers of two mpgen versions cannot silently share
    one copy."""
    parts = [(PACKAGE / "headers" / name).read_text(encoding="utf-8") for name in HAND_WRITTEN]
    parts.insert(1, host.model(environment()))
    guard = version_macro()
    return (f"#if defined(MPGEN_PRELUDE) && !defined({guard})\n"
            f'#error "mpgen headers of different versions are included together; this one '
            f'is mpgen {__version__}"\n'
            f"#endif\n#ifndef {guard}\n#define {guard}\n#define MPGEN_PRELUDE\n"
            + "\n".join(parts) + f"#endif  // {guard}\n")


def _operations(module: Module, contract: dict, shared: dict) -> list[dict]:
    return [_operation(p, c, shared) for p, c in zip(module.ops, contract["operations"])]


def _list_key(fn) -> tuple:
    """What makes two thread-step lists one."""
    return fn.name, fn.in_words, fn.out_words, tuple(fn.body)


def _group_steps(module: Module) -> dict:
    """The group programs' straight-line lists, each distinct list once per header: most
    operations of a size share their division, product and shift steps, and a copy in
    every operation's struct would multiply what nvcc and the host compiler read. Keyed
    by the list itself; a name that two different lists carry gets a numbered suffix."""
    shared: dict = {}
    taken: set[str] = set()
    for p in module.ops:
        for fn in group.lists(p.program) if p.program is not None else ():
            key = _list_key(fn)
            if key not in shared:
                symbol, k = fn.name, 1
                while symbol in taken:
                    k += 1
                    symbol = f"{fn.name}_{k}"
                taken.add(symbol)
                shared[key] = {"symbol": symbol, **group.step(fn)}
    return shared


def _operation(p, c: dict, shared: dict) -> dict:
    o = {"p": p, "c": c, "below_mask": sum(o["below_modulus"] << k for k, o in enumerate(c["operands"])),
         "ptx": None if p.fn is None else ptx.function(p.fn),
         "host": None if p.fn is None else host.function(p.fn, bool(c["host64"])), "group": None,
         "host64": x86.host64(p.fn_x86 or p.fn64, host.function(p.fn64)) if c["host64"] and p.fn64 else None}
    if p.program is not None:
        o["group"] = {"steps": [{"name": fn.name, "symbol": shared[_list_key(fn)]["symbol"]}
                                for fn in group.lists(p.program)],
                      "thread_words": group.thread_words(p.program),
                      "result_parts": group.result_parts(p.program),
                      "result_part_limbs": group.result_part_limbs(p.program),
                      "operand_parts": group.operand_parts(p.program),
                      "device": group.device(p.program, p.tier),
                      "host": group.host(p.program, p.operand_limbs, p.result_limbs)}
    return o


def _twiddles(module: Module) -> list[dict]:
    """The NTT products' twiddles: each length's table with its two C++ names, or the
    constants it is computed from at first use (roots: each prime's R and w R mod p)."""
    programs = [p.program for p in module.ops if p.program is not None]
    tables = [{"length": n, "words": words, "device": group.twiddles_name(n, True), "host": group.twiddles_name(n, False)}
              for n, words in sorted(group.twiddle_tables(programs).items())]
    roots = [{"length": n, "name": group.roots_name(n),
              "one": [p.prime.to_montgomery(1) for p in transform.primes],
              "root": [p.prime.to_montgomery(p.prime.root(n)) for p in transform.primes]}
             for n, transform in sorted(group.twiddle_roots(programs).items())]
    return tables + roots


def _loop_steps(module: Module) -> list[dict]:
    """The lists the loops call besides operations (division's steps), as structs."""
    return [{"name": fn.name, "in_words": fn.in_words, "out_words": fn.out_words, "instructions": len(fn.body),
             "ptx": ptx.function(fn), "host": host.function(fn)} for fn in module.steps]


def header(module: Module, contract: dict) -> str:
    shared = _group_steps(module)
    ops = _operations(module, contract, shared)
    return environment().get_template("size.cuh.j2").render(
        version=__version__, size=module.size, ops=ops, twiddles=_twiddles(module),
        wide_domain=any(o["p"].loop and o["c"]["host64"] for o in ops),
        reduction64=module.size.at(HOST64).reduction if isinstance(module.size, Field) else None,
        group_steps=list(shared.values()),
        loop_steps=_loop_steps(module),
        prelude=prelude(), domain=module.domain, element=module.element, value=module.value,
        curve=module.curve)


def arrays_results(op: dict) -> int:
    """An operation's result arrays: its result's numbers, then the flag."""
    return op["result"]["parts"] + op["result"]["flag"]


def arrays_parameters(op: dict) -> str:
    """The parameters of an operation's arrays entry: n, the layout, then an array a pointer."""
    ins = [f"const uint32_t* in{k}" for k in range(len(op["operands"]))]
    outs = [f"uint32_t* out{r}" for r in range(arrays_results(op))]
    return ", ".join(["std::size_t n", "mpgen::Layout layout", *ins, *outs])


def arrays_value(op: dict) -> str:
    """Those pointers as the mpgen::Arrays the batch function takes."""
    ins = ", ".join(f"in{k}" for k in range(len(op["operands"])))
    outs = ", ".join(f"out{r}" for r in range(arrays_results(op)))
    return f"{{{{{ins}}}, {{{outs}}}}}"


def kernels(contract: dict) -> str:
    """A module's kernels source (templates/kernels.cu.j2), from its contract."""
    return environment().get_template("kernels.cu.j2").render(
        version=__version__, module=contract, manifest=manifest.compact(contract),
        arrays_parameters=arrays_parameters, arrays_value=arrays_value)
