"""A module's kernels source, generated in this process: the same `--kernels` source (C-named
batch kernels and host functions around the module's header) and contract that
`mpgen generate --kernels` writes and the C++ runtime compiles on demand."""
from __future__ import annotations

import operator
import re
from dataclasses import dataclass

from .. import gf, rns
from ..plan import plan_request
from ..printers import gf as gf_printer, render, rns as rns_printer
from ..request import RequestError, check_preset, parse_field, parse_options
from ..tiers import DEFAULT_TIER


@dataclass(frozen=True)
class Source:
    header_name: str
    header: str
    kernels: str     # includes header_name
    contract: dict   # the module's entry in the manifest


def _items(ops) -> str | None:
    if ops is None:
        return None
    if isinstance(ops, str):
        return ops
    return ",".join(ops)


def _request(make):
    """make()'s request, its errors worded for Python (`bits:` where the command line says
    `--bits:`)."""
    try:
        return make()
    except RequestError as e:
        raise RequestError(re.sub(r"^--([a-z-]+):", lambda m: m.group(1).replace("-", "_") + ":", str(e))) from None


def size_source(bits: int, ops=None, tier: str | None = None, mul: str | None = None) -> Source:
    if isinstance(bits, bool) or not isinstance(bits, int):
        raise TypeError(f"bits: {bits!r}; give an int")
    request = _request(lambda: parse_options(str(bits), _items(ops), mul or "auto", tier or DEFAULT_TIER))
    return _generate(request)


def field_source(name: str | None = None, modulus: int | None = None, bits: int | None = None, ops=None,
                 tier: str | None = None, mul: str | None = None) -> Source:
    if (name is None) == (modulus is None):
        raise ValueError("field: give a preset's name or modulus=, not both or neither")
    if name is not None:
        modulus_text, label = _request(lambda: check_preset(name))
    else:
        if isinstance(modulus, bool) or not hasattr(modulus, "__index__"):
            raise TypeError(f"modulus: {modulus!r}; give an int")
        modulus_text, label = hex(modulus.__index__()), None
    request = _request(lambda: parse_field(modulus_text, None if bits is None else str(bits), _items(ops), label,
                                           mul or "auto", tier or DEFAULT_TIER))
    return _generate(request)


CONVERSIONS = ["from_binary", "to_binary"]  # an RNS set's or a GF field's: ints go through them


def rns_source(count: int | None = None, moduli=None, name: str | None = None, ops=None) -> Source:
    """An RNS set: `count` moduli by the seed's Algorithm 3 (rns<count>), or moduli of yours."""
    if (count is None) == (moduli is None):
        raise ValueError("rns: give a count of moduli or moduli=, not both or neither")
    names = None if ops is None else list(dict.fromkeys([*_items(ops).split(","), *CONVERSIONS]))
    moduli_text = None if moduli is None else ",".join(str(operator.index(m)) for m in moduli)
    request = _request(lambda: rns.parse(None if count is None else str(count), moduli_text, name,
                                         None if names is None else ",".join(names)))
    return _source(*rns_printer.render(request, kernels=True))


def gf_source(k: int | None = None, prime: str | None = None, name: str | None = None, ops=None) -> Source:
    """A generalized Fermat field: gf<k> of the seed's table 3.1, or prime = '(2^w+2^u)^k+1'."""
    if (k is None) == (prime is None):
        raise ValueError("gf: give a k of the seed's table 3.1 or prime=, not both or neither")
    (field,) = _request(lambda: gf.parse(None if k is None else str(k), prime, name))
    names = gf.default_ops(field) if ops is None else _request(lambda: gf.check_ops(field, _items(ops).split(",")))
    return _source(*gf_printer.render([(field, list(dict.fromkeys([*names, *CONVERSIONS])))], kernels=True))


def _generate(request) -> Source:
    return _source(*render(plan_request(request), kernels=True))


def _source(files: dict, contracts: list) -> Source:
    (contract,) = contracts
    header_name = contract["files"]["header"]
    return Source(header_name, files[header_name], files[contract["files"]["kernels"]], contract)
