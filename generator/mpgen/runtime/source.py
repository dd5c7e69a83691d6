"""A module's kernels source, generated in this process: the same `--kernels` source (C-named
batch kernels and host functions around the module's header) and contract that
`mpgen generate --kernels` writes and the C++ runtime compiles on demand."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..plan import plan_request
from ..printers import render
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


def _generate(request) -> Source:
    files, contracts = render(plan_request(request), kernels=True)
    (contract,) = contracts
    header_name = contract["files"]["header"]
    return Source(header_name, files[header_name], files[contract["files"]["kernels"]], contract)
