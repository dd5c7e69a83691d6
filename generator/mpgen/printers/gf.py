"""The generalized Fermat field printer: a field's self-contained header
(templates/gf.cuh.j2: each operation's list in both renderings, and where the FFT is asked
for, its lists, constants and headers/gf_fft.cuh's passes) and its manifest entry."""
from __future__ import annotations

from .. import names
from ..tiers import THREAD
from ..gf import GfField, fft, summary
from ..gf.lists import COLUMN_WORDS, Looped
from ..ir import Function
from ..plan import GfModule
from ..version import __version__
from . import host, ptx
from .cuda import PACKAGE, environment, prelude


def instructions(fn: Function | Looped) -> int:
    return fn.instructions if isinstance(fn, Looped) else len(fn.body)


def operation_contract(gf: GfField, fn: Function | Looped) -> dict:
    """Operands and result are elements (k digits, each below r: a form the runtime does not
    check), except from_binary's operand and to_binary's result (integers below p in 2k
    binary words) and mul_r's shift a. One element a thread, as the thread tier launches."""
    integer = {"bits": gf.p.bit_length(), "limbs": 2 * gf.k, "below_modulus": True, "role": "integer"}
    element = {"bits": 64 * gf.k, "limbs": 2 * gf.k, "below_modulus": False, "role": "element"}
    operands = [integer if fn.name == "from_binary" else element] * (fn.in_words // (2 * gf.k))
    if fn.name == "mul_r":
        operands.append({"bits": (2 * gf.k - 1).bit_length(), "limbs": 1, "below_modulus": False, "role": "shift"})
    return {"name": fn.name, "symbol": fn.name, "kernel": names.kernel(gf.label, fn.name),
            "arrays_kernel": None,  # packed operands only (the struct has no operand shapes)
            "summary": summary(fn.name),
            "operands": operands, "optional_operands": 0,
            "result": {"limbs": fn.out_words, "parts": 1, "flag": False, "signed": False,
                       "role": "integer" if fn.name == "to_binary" else "element"},
            "in_words": fn.in_words, "out_words": fn.out_words, "instructions": instructions(fn),
            "launch": THREAD.launch(fn.in_words, fn.out_words)}


def _rendered(fn: Function, what: str) -> dict:
    return {"name": fn.name, "summary": what, "in_words": fn.in_words, "out_words": fn.out_words, "instructions": len(fn.body),
            "ptx": ptx.function(fn), "host": host.function(fn)}


# What each part of a looped operation does, for its header comment.
_PART_SUMMARIES = {"mul_accumulate": "sums + a_j y by columns, a row of the product",
                   "mul_shift": "y r (a negacyclic shift), the next row's y",
                   "mul_settle": "the product's k column sums to the element",
                   "divide_step": "a step of a long division by r: remainder 2^32 + word = q r + remainder'",
                   "horner_step": "x r + d, a step of Horner's rule"}


def _operation(fn: Function | Looped) -> dict:
    if not isinstance(fn, Looped):
        return dict(_rendered(fn, summary(fn.name)), loop=None)
    return {"name": fn.name, "summary": summary(fn.name) + ", by a loop (headers/gf_loops.cuh)",
            "in_words": fn.in_words, "out_words": fn.out_words, "instructions": fn.instructions,
            "loop": {"name": fn.loop, "arguments": fn.arguments,
                     "parts": [_rendered(part, _PART_SUMMARIES[part.name]) for part in fn.parts]}}


def header(planned: GfModule, contract: dict) -> str:
    gf, transform = planned.field, planned.transform
    ops = [dict(_operation(fn), launch=THREAD.launch(fn.in_words, fn.out_words)) for fn in planned.lists]
    fft_parts = None
    if transform is not None:
        fft_parts = {"accumulate": [_rendered(fn, f"sums + x r^{s}, lazily (k signed column sums)")
                                    for s, fn in enumerate(transform.accumulate)],
                     "pair_sums": _rendered(transform.pair_sums, "rows J and J + k from the sums over even and odd points"),
                     "settle": _rendered(transform.settle, "k lazy column sums to the element they stand for"),
                     "largest_log": fft.largest_log(gf),
                     "roots": [w for v in fft.roots(gf) for w in gf.words(v)],
                     "inverses": [w for v in fft.inverse_powers_of_two(gf) for w in gf.words(v)],
                     "passes": "\n".join((PACKAGE / "headers" / name).read_text(encoding="utf-8")
                                         for name in ("gf_fft.cuh", "gf_products.cuh")),
                     "column_words": COLUMN_WORDS}
    loops = (PACKAGE / "headers" / "gf_loops.cuh").read_text(encoding="utf-8") if any(o["loop"] for o in ops) else None
    return environment().get_template("gf.cuh.j2").render(
        version=__version__, gf=gf, name=gf.label, prelude=prelude(), operations=ops, fft=fft_parts,
        loops_prelude=loops, r_words=[gf.r & 0xFFFFFFFF, gf.r >> 32])


def fft_contract(gf: GfField) -> dict:
    """The FFT's lengths and entries in the kernels source, for a caller that runs the passes
    itself (the Python runtime): on the host, `host` does count whole transforms in place
    (n, count, inverse, data); on the GPU, `twiddles` fills the table of n / K twiddles
    (table, n / K, log2 n) and a pass s of span ns = K^s runs the kernel of `passes` whose
    twiddled is s > 0 and scaled is the inverse's last pass, over (in, out, table, n, ns,
    log2 n, inverse), in blocks `block` of 32 transforms j < n / K in x, one a transform of
    the batch in y, with `shared_bytes` of dynamic shared memory. The kernels source checks
    these against headers/gf_fft.cuh's own when it compiles."""
    kinds = [(twiddled, scaled) for twiddled in (False, True) for scaled in (False, True)]
    return {"radix": 2 * gf.k, "largest_log": fft.largest_log(gf),
            "host": names.kernel(gf.label, "fft"),
            "twiddles": {"kernel": names.kernel(gf.label, "fft_twiddles"), "block_threads": 128},
            "passes": [{"kernel": names.kernel(gf.label, "fft_pass" + ("_twiddled" if t else "") + ("_scaled" if s else "")),
                        "twiddled": t, "scaled": s} for t, s in kinds],
            "block": [32, gf.k], "shared_bytes": 2 * gf.k * 2 * gf.k * 32 * 4}


def module(planned: GfModule, files: dict[str, str]) -> dict:
    """The field's entry in the manifest: p's form and digits, each operation's contract,
    and the FFT's lengths where it is generated."""
    gf = planned.field
    return {"name": gf.label, "kind": "gf", "tier": "thread", "bits": gf.p.bit_length(), "limbs": 2 * gf.k,
            "files": files, "field": None,
            "gf": {"prime": gf.text, "w": gf.w, "u": gf.u, "sign": gf.sign, "k": gf.k, "r": f"{gf.r:#x}",
                   "modulus": f"{gf.p:#x}", "two_adicity": gf.two_adicity,
                   "fft": fft_contract(gf) if planned.transform is not None else None},
            "operations": [operation_contract(gf, fn) for fn in planned.lists]}
