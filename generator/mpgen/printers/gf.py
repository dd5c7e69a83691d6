"""The generalized Fermat field printer: a field's self-contained header
(templates/gf.cuh.j2: each operation's list in both renderings) and its manifest entry."""
from __future__ import annotations

from .. import __version__, names
from ..gf import GfField, plan, summary
from ..ir import Function
from . import host, ptx
from .cuda import environment, prelude


def operation_contract(gf: GfField, fn: Function) -> dict:
    operands = fn.in_words // (2 * gf.k)
    return {"name": fn.name, "symbol": fn.name, "summary": summary(fn.name),
            "operands": [{"bits": 64 * gf.k, "limbs": 2 * gf.k, "below_modulus": True, "role": "element"}] * operands,
            "optional_operands": 0, "result": {"limbs": fn.out_words, "parts": 1, "flag": False, "signed": False},
            "in_words": fn.in_words, "out_words": fn.out_words, "instructions": len(fn.body)}


def header(gf: GfField, lists: list[Function]) -> str:
    ops = [{"name": fn.name, "summary": summary(fn.name), "in_words": fn.in_words, "out_words": fn.out_words,
            "instructions": len(fn.body), "ptx": ptx.function(fn), "host": host.function(fn)} for fn in lists]
    return environment().get_template("gf.cuh.j2").render(
        version=__version__, gf=gf, name=gf.label, prelude=prelude(), operations=ops,
        r_words=[gf.r & 0xFFFFFFFF, gf.r >> 32])


def module(gf: GfField, lists: list[Function], files: dict[str, str]) -> dict:
    """The field's entry in the manifest: p's form and digits, each operation's contract."""
    return {"name": gf.label, "tier": "gf", "bits": gf.p.bit_length(), "limbs": 2 * gf.k, "mul": "radix",
            "files": files, "field": None,
            "gf": {"prime": gf.text, "w": gf.w, "u": gf.u, "sign": gf.sign, "k": gf.k, "r": f"{gf.r:#x}",
                   "modulus": f"{gf.p:#x}", "two_adicity": gf.two_adicity},
            "operations": [operation_contract(gf, fn) for fn in lists]}


def render(request: list[tuple[GfField, list[str]]]) -> tuple[dict[str, str], list[dict]]:
    """Each field's header and manifest entry, each operation's list planned once for both."""
    files, contracts = {}, []
    for gf, operations in request:
        lists = [plan(gf, name) for name in operations]
        written = {"header": names.header(gf.label)}
        files[written["header"]] = header(gf, lists)
        contracts.append(module(gf, lists, written))
    return files, contracts
