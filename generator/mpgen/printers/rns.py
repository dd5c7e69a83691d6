"""The RNS printer: a moduli set's self-contained header (templates/rns.cuh.j2): its
constants as tables, its residue lists per chunk with both renderings, and its
operations over headers/rns.cuh; and the set's entry in the manifest."""
from __future__ import annotations

from fractions import Fraction

from .. import names
from ..plan import RnsModule
from ..rns import OPERATIONS
from ..rns.lists import CHUNK, LISTS
from ..rns.moduli import RnsSet, extended
from ..version import __version__
from . import host, ptx
from .cuda import PACKAGE, environment, prelude



BLOCK_THREADS = 128


def _double(value: float) -> str:
    return "0.0" if value == 0 else value.hex()


def _tables(rns: RnsSet) -> list[dict]:
    half = rns.mixed_radix(rns.half_range)
    down, up = rns.reciprocals
    return [
        {"name": "moduli", "accessor": "modulus", "type": "uint32_t", "comment": "the moduli m_i",
         "values": [f"{m:#010x}u" for m in rns.moduli]},
        {"name": "crt_weights", "accessor": "crt_weight", "type": "uint32_t",
         "comment": "w_i = (M / m_i)^-1 mod m_i (the CRT's weights)",
         "values": [f"{w:#010x}u" for w in rns.crt_weights]},
        {"name": "half_digits", "accessor": "half_digit", "type": "uint32_t",
         "comment": "the mixed-radix digits of (M - 1) / 2",
         "values": [f"{d:#010x}u" for d in half]},
        {"name": "mixed_radix_inverses", "accessor": "mixed_radix_inverse", "type": "uint32_t",
         "comment": "m_i^-1 mod m_j for i < j, row after row (the mixed-radix conversion's)",
         "values": [f"{v:#010x}u" for v in rns.mixed_radix_inverses]},
        {"name": "barrett_reciprocals", "accessor": "barrett", "type": "uint64_t",
         "comment": "floor(2^64 / m_i) (the digit-parallel products' Barrett reduction)",
         "values": [f"{(1 << 64) // m:#018x}ull" for m in rns.moduli]},
        {"name": "reciprocals_down", "accessor": "reciprocal_down", "type": "double",
         "comment": "1 / m_i rounded down", "values": [_double(r) for r in down]},
        {"name": "reciprocals_up", "accessor": "reciprocal_up", "type": "double",
         "comment": "1 / m_i rounded up", "values": [_double(r) for r in up]},
    ]


def _bounds(rns: RnsSet) -> list[dict]:
    """Constants in the extended range (f 2^e)."""
    def bound(name: str, comment: str, value: Fraction, up: bool) -> dict:
        f, e = extended(value, up)
        return {"name": name, "comment": comment, "f": _double(f), "e": e}
    return [bound("inverse_range_down", "1 / M rounded down (Isupov and Knyazkov's V)", Fraction(1, rns.product),
                  False),
            bound("inverse_range_up", "1 / M rounded up", Fraction(1, rns.product), True),
            bound("range_down", "M rounded down", Fraction(rns.product), False),
            bound("range_up", "M rounded up", Fraction(rns.product), True)]


# What a result is: an RNS integer, a magnitude in binary (to_binary's, its sign the flag)
# or one word (sign, cmp).
RESULT_ROLES = {"integer": "rns", "integer+overflow": "rns", "word": "value", "binary": "magnitude"}


def operation_contract(rns: RnsSet, name: str) -> dict:
    """An operation's contract in the manifest's schema (printers/manifest.py), so that the
    runtime reads it as any other: an RNS integer is an operand of 32 words bits; a
    magnitude is below M, the set's "modulus"."""
    op = OPERATIONS[name]
    words = rns.count + 7
    operand = {"integer": {"bits": 32 * words, "limbs": words, "below_modulus": False, "role": "rns"},
               "magnitude": {"bits": rns.product.bit_length(), "limbs": rns.limbs, "below_modulus": True,
                             "role": "magnitude"},
               "sign": {"bits": 1, "limbs": 1, "below_modulus": False, "role": "sign"}}
    limbs, flag, signed = {"integer": (words, False, False), "integer+overflow": (words, True, False),
                           "word": (1, False, True), "binary": (rns.limbs, True, False)}[op.result]
    operands = [operand[kind] for kind in op.operands]
    in_words = sum(o["limbs"] for o in operands)
    return {"name": name, "symbol": name, "kernel": names.kernel(rns.label, name),
            "arrays_kernel": None,  # an operation reads its operands' words through one strided view
            "summary": op.summary,
            "operands": operands, "optional_operands": 0,
            "result": {"limbs": limbs, "parts": 1, "flag": flag, "signed": signed, "role": RESULT_ROLES[op.result]},
            "in_words": in_words, "out_words": limbs + flag,
            "launch": {**LAUNCH, "digit_lanes": digit_lanes(rns) if op.digits else 0}}


# One integer per thread, 128 a block (headers/rns.cuh's batch loops): as the thread tier.
LAUNCH = {"threads_per_instance": 1, "instances_per_block": BLOCK_THREADS, "block_threads": BLOCK_THREADS,
          "blocks_per_instance": 1, "launch_groups": 1, "min_blocks_per_sm": 1, "limbs_per_thread": 0,
          "stage_stride": 0, "shared_bytes": 0, "contiguous_shared_bytes": 0}

# The digit-parallel form (a warp's 32 lanes an integer) runs add, sub and mul over the
# contiguous layout from this many moduli: measured on the H100 (docs/performance.md, "RNS
# integers against GRNS and GMP"), it gives 1.00x-1.10x one thread an integer (interleaved) at 129 and 257 moduli
# for 2^18 to 10^6 integers and 1.0x-2.1x at 16,384; at 5 to 65 moduli 0.26x-0.93x.
DIGITS_FROM = 129


def digit_lanes(rns: RnsSet) -> int:
    """The lanes an integer of the contiguous layout takes on the GPU: 32 (digit-parallel)
    or 0 (one thread an integer, as in the interleaved layout)."""
    return 32 if rns.count >= DIGITS_FROM else 0


def _contract_text(rns: RnsSet, op) -> str:
    words, limbs = rns.count + 7, rns.limbs
    operand = {"integer": f"an integer ({words} words)", "magnitude": f"a magnitude below M ({limbs} words)",
               "sign": "a sign word (1: negative)"}
    result = {"integer": "an integer", "integer+overflow": "an integer, then its overflow flag",
              "word": "one word", "binary": "the magnitude, then the sign"}
    return f"x = {', '.join(operand[o] for o in op.operands)}; y = {result[op.result]}"


def header(planned: RnsModule, contract: dict) -> str:
    rns = planned.rns
    contracts = [dict(c) for c in contract["operations"]]
    for c in contracts:
        c["body"] = OPERATIONS[c["name"]].call
        c["digits"] = OPERATIONS[c["name"]].digits
        c["contract"] = _contract_text(rns, OPERATIONS[c["name"]])
    chunk_context = [{"first": c.first, "moduli": c.moduli,
                      "lists": [{"name": name, "summary": LISTS[name][0], "in_words": fn.in_words,
                                 "out_words": fn.out_words, "instructions": len(fn.body),
                                 "ptx": ptx.function(fn), "host": host.function(fn)}
                                for name, fn in c.lists.items()]} for c in planned.chunks]
    return environment().get_template("rns.cuh.j2").render(
        version=__version__, rns=rns, name=rns.label, prelude=prelude(),
        rns_prelude=(PACKAGE / "headers" / "rns.cuh").read_text(encoding="utf-8"), chunk_size=CHUNK,
        tables=_tables(rns), bounds=_bounds(rns), chunks=chunk_context, operations=contracts)


def module(planned: RnsModule, files: dict[str, str]) -> dict:
    """The set's entry in the manifest: its moduli and each operation's contract."""
    rns = planned.rns
    return {"name": rns.label, "kind": "rns", "tier": "thread", "bits": rns.bits, "limbs": rns.limbs,
            "files": files, "field": None,
            "rns": {"moduli": [f"{m:#010x}" for m in rns.moduli], "words": rns.count + 7,
                    "product": f"{rns.product:#x}"},
            "operations": [operation_contract(rns, name) for name in planned.operations]}
