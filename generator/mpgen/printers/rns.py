"""The RNS printer: a moduli set's self-contained header (templates/rns.cuh.j2): its
constants as tables, its residue lists per chunk with both renderings, and its
operations over cuda/rns.cuh; and the set's entry in the manifest."""
from __future__ import annotations

from fractions import Fraction

from .. import __version__, names
from ..rns import OPERATIONS
from ..rns.lists import CHUNK, LISTS, chunks
from ..rns.moduli import RnsSet, extended
from . import host, ptx
from .cuda import PACKAGE, environment, prelude



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
    return [bound("inverse_range_down", "1 / M rounded down (the seed's V)", Fraction(1, rns.product), False),
            bound("inverse_range_up", "1 / M rounded up", Fraction(1, rns.product), True),
            bound("range_down", "M rounded down", Fraction(rns.product), False),
            bound("range_up", "M rounded up", Fraction(rns.product), True)]


def operation_contract(rns: RnsSet, name: str) -> dict:
    summary, operands, extra, _ = OPERATIONS[name]
    words = rns.count + 7
    return {"name": name, "summary": summary, "operands": operands, "in_words": operands * words,
            "out_words": 1 if extra < 0 else words + extra, "flag": extra > 0}


def header(rns: RnsSet, operations: list[str]) -> str:
    contracts = [operation_contract(rns, name) for name in operations]
    for c in contracts:
        c["body"] = OPERATIONS[c["name"]][3]
        result = ("one word" if c["out_words"] == 1 else
                  "the result, then the overflow flag" if c["flag"] else "the result")
        c["contract"] = (f"x = {c['operands']} integer{'s' if c['operands'] > 1 else ''} of {rns.count + 7} "
                         f"words; y = {result}")
    chunk_context = [{"first": c.first, "moduli": c.moduli,
                      "lists": [{"name": name, "summary": LISTS[name][0], "in_words": fn.in_words,
                                 "out_words": fn.out_words, "instructions": len(fn.body),
                                 "ptx": ptx.function(fn), "host": host.function(fn)}
                                for name, fn in c.lists.items()]} for c in chunks(rns)]
    return environment().get_template("rns.cuh.j2").render(
        version=__version__, rns=rns, name=rns.label, prelude=prelude(),
        rns_prelude=(PACKAGE / "cuda" / "rns.cuh").read_text(encoding="utf-8"), chunk_size=CHUNK,
        tables=_tables(rns), bounds=_bounds(rns), chunks=chunk_context, operations=contracts)


def module(rns: RnsSet, operations: list[str], files: dict[str, str]) -> dict:
    """The set's entry in the manifest: its moduli and each operation's contract."""
    return {"name": rns.label, "tier": "rns", "bits": rns.bits, "limbs": -(-rns.product.bit_length() // 32),
            "mul": "residues", "files": files, "field": None,
            "rns": {"moduli": [f"{m:#010x}" for m in rns.moduli], "words": rns.count + 7},
            "operations": [operation_contract(rns, name) for name in operations]}


def render(request: list[tuple[RnsSet, list[str]]]) -> tuple[dict[str, str], list[dict]]:
    """Each set's header, and its manifest entry."""
    files, contracts = {}, []
    for rns, operations in request:
        written = {"header": names.header(rns.label)}
        files[written["header"]] = header(rns, operations)
        contracts.append(module(rns, operations, written))
    return files, contracts
