"""The generalized Fermat field printer: a field's self-contained header
(templates/gf.cuh.j2: each operation's list in both renderings) and its manifest entry."""
from __future__ import annotations

from .. import __version__, names
from ..gf import GfField, plan, summary
from . import host, ptx
from .cuda import environment, prelude


def operation_contract(gf: GfField, name: str) -> dict:
    fn = plan(gf, name)
    operands = fn.in_words // (2 * gf.k)
    return {"name": name, "symbol": name, "summary": summary(name),
            "operands": [{"bits": 64 * gf.k, "limbs": 2 * gf.k, "below_modulus": True, "role": "element"}] * operands,
            "optional_operands": 0, "result": {"limbs": fn.out_words, "parts": 1, "flag": False, "signed": False},
            "in_words": fn.in_words, "out_words": fn.out_words, "instructions": len(fn.body)}


def header(gf: GfField, operations: list[str]) -> str:
    ops = []
    for name in operations:
        fn = plan(gf, name)
        ops.append({"name": name, "summary": summary(name), "in_words": fn.in_words, "out_words": fn.out_words,
                    "instructions": len(fn.body), "ptx": ptx.function(fn), "host": host.function(fn)})
    return environment().get_template("gf.cuh.j2").render(
        version=__version__, gf=gf, name=gf.label, prelude=prelude(), operations=ops,
        r_words=[gf.r & 0xFFFFFFFF, gf.r >> 32])


def module(gf: GfField, operations: list[str], files: dict[str, str]) -> dict:
    """The field's entry in the manifest: p's form and digits, each operation's contract."""
    return {"name": gf.label, "tier": "gf", "bits": gf.p.bit_length(), "limbs": 2 * gf.k, "mul": "radix",
            "files": files, "field": None,
            "gf": {"prime": gf.text, "w": gf.w, "u": gf.u, "sign": gf.sign, "k": gf.k, "r": f"{gf.r:#x}",
                   "modulus": f"{gf.p:#x}", "two_adicity": gf.two_adicity},
            "operations": [operation_contract(gf, name) for name in operations]}


def render(request: list[tuple[GfField, list[str]]]) -> tuple[dict[str, str], list[dict]]:
    files, contracts = {}, []
    for gf, operations in request:
        written = {"header": names.header(gf.label)}
        files[written["header"]] = header(gf, operations)
        contracts.append(module(gf, operations, written))
    return files, contracts
