"""A module's kernels source, generated in this process: the same `--kernels` source (C-named
batch kernels and host functions around the module's header) and contract that
`mpgen generate --kernels` writes and the C++ runtime compiles on demand."""
from __future__ import annotations

import operator
import re
from dataclasses import dataclass

from .. import gf, rns
from ..errors import RequestError
from ..fields import PRESETS
from ..plan import plan_gf, plan_request, plan_rns
from ..printers import render
from ..request import check_preset, parse_field, parse_options
from ..rns.moduli import MAX_MODULI, MIN_MODULI
from ..size import MAX_BITS, MIN_BITS
from ..tiers import DEFAULT_TIER


@dataclass(frozen=True)
class Source:
    header_name: str
    header: str
    kernels: str     # includes header_name
    contract: dict   # the module's entry in the manifest


def _given(value: object) -> str:
    """value as a message shows it: its repr, cut where long."""
    if isinstance(value, int) and value.bit_length() > 64:  # (repr fails past 4300 digits)
        return f"{hex(value)[:18]}... ({value.bit_length()} bits)"
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:40]}... ({len(text)} characters)"


def _kind(value: object) -> str:
    name = type(value).__name__
    return ("an " if name[0] in "aeiouAEIOU" else "a ") + name


def _integer(value: object, what: str, allowed: str | None = None) -> int:
    """An argument that is a whole number: an int or anything with __index__ (gmpy2's mpz),
    not a bool, a float or text; of at most 64 bits where allowed says what is."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise RequestError(f"{what}: {_given(value)} is {_kind(value)}; give an int")
    value = operator.index(value)
    if allowed and value.bit_length() > 64:  # out of any range, and past what str() writes
        raise RequestError(f"{what}: {_given(value)} is out of range; {allowed}")
    return value


def _integers(values: object, what: str, allowed: str) -> list[int]:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise RequestError(f"{what}: {_given(values)} is {_kind(values)}; give a list of integers such as [3, 5, 7]")
    items = list(values)
    if not items:
        raise RequestError(f"{what}: an empty list; give a list of integers such as [3, 5, 7]")
    out = []
    for i, v in enumerate(items):
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise RequestError(f"{what}: element {i} is {_kind(v)} ({_given(v)}); give integers")
        out.append(_integer(v, f"{what}: element {i}", allowed))
    return out


def _text(value: object, what: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise RequestError(f"{what}: {_given(value)} is {_kind(value)}; give a {what} as text")
    return value


def _names(ops) -> list[str] | None:
    """ops' operation names: None (the defaults), "mul,add" or ["mul", "add"]."""
    if ops is None:
        return None
    if isinstance(ops, (bytes, bytearray)) or not hasattr(ops, "__iter__"):
        raise RequestError(f"ops: {_given(ops)} is {_kind(ops)}; give a list of operation names such as ['add', 'mul']")
    names = ops.split(",") if isinstance(ops, str) else list(ops)
    if not names:
        raise RequestError("ops: no operation; give at least one name, or leave ops out for all")
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise RequestError(f"ops: item {i} is {_given(name)}, not an operation's name; give names such as "
                               "['add', 'mul']")
    return [name.strip() for name in names]


def _items(ops) -> str | None:
    """ops as the request's text: the names, comma-separated."""
    names = _names(ops)
    return None if names is None else ",".join(names)


# The command line's options that are named otherwise in Python
ARGUMENTS = {"field": "name", "rns": "count", "rns-moduli": "moduli", "gf": "k", "gf-prime": "prime"}
OPTION = re.compile(r"(?<![\w-])--([a-z][a-z-]*)(:| (?=\S))?")


def _request(make):
    """make()'s request, its errors in Python's words: `bits:` where the command line says
    `--bits:`, `tier=group` for `--tier group`."""
    def argument(option: re.Match) -> str:
        return ARGUMENTS.get(option[1], option[1].replace("-", "_")) + (":" if option[2] == ":" else "=")
    try:
        return make()
    except RequestError as e:
        raise RequestError(OPTION.sub(argument, str(e))) from None


BITS_ALLOWED = f"sizes are whole numbers of bits from {MIN_BITS} to {MAX_BITS}"


def size_source(bits: int, ops=None, tier: str | None = None, mul: str | None = None) -> Source:
    bits = _integer(bits, "bits", BITS_ALLOWED)
    request = _request(lambda: parse_options(str(bits), _items(ops), mul or "auto", tier or DEFAULT_TIER))
    return _generate(request)


def field_source(name: str | None = None, modulus: int | None = None, bits: int | None = None, ops=None,
                 tier: str | None = None, mul: str | None = None) -> Source:
    if (name is None) == (modulus is None):
        raise RequestError("field: give a preset's name or modulus=, not both or neither")
    if name is not None and not isinstance(name, str):
        example = name if isinstance(name, int) and not isinstance(name, bool) and name.bit_length() <= 64 else "p"
        raise RequestError(f"name: {_given(name)} is {_kind(name)}, not a field's name; give a preset's name "
                           f"(known: {', '.join(PRESETS)}) or modulus={example}")
    bits_text = None if bits is None else str(_integer(bits, "bits", BITS_ALLOWED))
    if name is not None:
        modulus_text, label = _request(lambda: check_preset(name))
    else:
        modulus_text, label = hex(_integer(modulus, "modulus")), None
    request = _request(lambda: parse_field(modulus_text, bits_text, _items(ops), label, mul or "auto",
                                           tier or DEFAULT_TIER))
    return _generate(request)


CONVERSIONS = ["from_binary", "to_binary"]  # an RNS set's or a GF field's: ints go through them


def rns_source(count: int | None = None, moduli=None, name: str | None = None, ops=None) -> Source:
    """An RNS set: `count` moduli by Isupov and Knyazkov's Algorithm 3 (rns<count>), or moduli of yours."""
    if (count is None) == (moduli is None):
        raise RequestError("rns_set: give a count of moduli or moduli=, not both or neither")
    count_text = None if count is None else str(_integer(count, "count", f"give {MIN_MODULI} to {MAX_MODULI}"))
    moduli_text = None if moduli is None else \
        ",".join(map(str, _integers(moduli, "moduli", "each must be from 3 to 2^32 - 1")))
    label = _text(name, "name")
    names = None if ops is None else list(dict.fromkeys([*_names(ops), *CONVERSIONS]))
    request = _request(lambda: rns.parse(count_text, moduli_text, label, None if names is None else ",".join(names)))
    return _source(*render(plan_rns(request), kernels=True))


def gf_source(k: int | None = None, prime: str | None = None, name: str | None = None, ops=None) -> Source:
    """A generalized Fermat field: gf<k> of Mohajerani's table 3.1, or prime = '(2^w+2^u)^k+1'."""
    if (k is None) == (prime is None):
        raise RequestError("gf_field: give a k of Mohajerani's table 3.1 or prime=, not both or neither")
    k_text = None if k is None else str(_integer(k, "k", f"give {', '.join(map(str, gf.TABLE_3_1))}"))
    if prime is not None and not isinstance(prime, str):
        raise RequestError(f"prime: {_given(prime)} is {_kind(prime)}; give the prime as text of the form {gf.FORM}")
    label = _text(name, "name")
    (field,) = _request(lambda: gf.parse(k_text, prime, label))
    names = gf.default_ops(field) if ops is None else _request(lambda: gf.check_ops(field, _names(ops)))
    return _source(*render(plan_gf([(field, list(dict.fromkeys([*names, *CONVERSIONS])))]), kernels=True))


def _generate(request) -> Source:
    return _source(*render(plan_request(request), kernels=True))


def _source(files: dict, contracts: list) -> Source:
    (contract,) = contracts
    header_name = contract["files"]["header"]
    return Source(header_name, files[header_name], files[contract["files"]["kernels"]], contract)
