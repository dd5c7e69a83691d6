"""Residue number system integers (after Isupov and Knyazkov, "Efficient GPU
implementation of multiple-precision addition based on residue arithmetic"): moduli sets
(moduli.py), their residue lists (lists.py), and the request that names them (`mpgen
generate --rns` or `--rns-moduli`). The header's printer is printers/rns.py; the arithmetic around the lists,
written once for host and device, is headers/rns.cuh."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import RequestError, check_name, integer, shown, split_items
from .moduli import MAX_MODULI, MIN_MODULI, RnsSet, check, generate

@dataclass(frozen=True)
class Operation:
    """One operation's contract, once: what it does, its operands and its result, each an
    RNS integer ("integer"), a binary magnitude below M ("magnitude", limbs least
    significant first) or a sign word (0 or 1: "sign"); a result may also be "integer"
    then its overflow flag ("integer+overflow"), one signed word ("word": -1, 0, 1), or a
    magnitude then its sign as the flag word ("binary"); and the call in headers/rns.cuh that
    the header's struct makes (limbs: a magnitude's words)."""
    summary: str
    operands: tuple[str, ...]
    result: str
    call: str
    digits: str = ""  # its digit-parallel form's call (headers/rns.cuh's digits), where it has one


_TWO = ("integer", "integer")
OPERATIONS = {
    "add": Operation("x + y by Isupov and Knyazkov's Algorithm 2 (radix complement, no branch on the signs)", _TWO,
                     "integer+overflow", "y[words] = ::mpgen::rns::add_complement<set>(y, x, x.from(words));",
                     "::mpgen::rns::digits::add<set, G>(y, x, x.from(words), lane, active);"),
    "add_branching": Operation("x + y by Isupov and Knyazkov's Algorithm 1 (a branch on the signs)", _TWO,
                               "integer+overflow", "y[words] = ::mpgen::rns::add_branching<set>(y, x, x.from(words));"),
    "sub": Operation("x - y by Algorithm 2", _TWO, "integer+overflow",
                     "y[words] = ::mpgen::rns::add_complement<set>(y, x, x.from(words), 1);",
                     "::mpgen::rns::digits::add<set, G>(y, x, x.from(words), lane, active, 1);"),
    "mul": Operation("x y, residue by residue, the interval as (X / M) (Y / M) M", _TWO, "integer+overflow",
                     "y[words] = ::mpgen::rns::multiply<set>(y, x, x.from(words));",
                     "::mpgen::rns::digits::multiply<set, G>(y, x, x.from(words), lane, active);"),
    "neg": Operation("-x", ("integer",), "integer", "::mpgen::rns::negate<set>(y, x);"),
    "evaluate": Operation("x with its interval evaluation made again from the residues alone (the CRT's "
                          "fractions, refined for small x)", ("integer",), "integer",
                          "::mpgen::rns::reevaluate<set>(y, x);"),
    "sign": Operation("-1, 0 or 1 (-1 as 2^32 - 1)", ("integer",), "word", "y[0] = ::mpgen::rns::sign_of<set>(x);"),
    "cmp": Operation("-1, 0 or 1 as x < y, x = y, x > y (-1 as 2^32 - 1)", _TWO, "word",
                     "y[0] = ::mpgen::rns::compare<set>(x, x.from(words));"),
    "from_binary": Operation("the integer of a magnitude below M and a sign (1: negative): its residues by "
                             "Horner's rule, its interval from the top bits", ("magnitude", "sign"), "integer",
                             "::mpgen::rns::from_binary<set>(y, x, limbs, x[limbs]);"),
    "to_binary": Operation("x's magnitude (by its mixed-radix digits), then its sign", ("integer",), "binary",
                           "::mpgen::rns::to_binary<set>(y, limbs, x);\n    y[limbs] = x[count];"),
}
# Every set's module has the conversions, whatever --ops names: the runtime converts its
# operands and results through them.
CONVERSIONS = ("from_binary", "to_binary")
OPERATION_NAMES = tuple(OPERATIONS)


def _number(text: str, where: str) -> int:
    if (number := integer(text)) is None:
        raise RequestError(f"{where}: {shown(text)} is not a number; give decimal or 0x hex")
    return number


def _ops(ops_text: str | None) -> list[str]:
    names = list(OPERATION_NAMES) if ops_text is None else split_items("--ops", ops_text)
    for name in names:
        if name not in OPERATION_NAMES:
            raise RequestError(f"--ops: {shown(name)} is not an operation of RNS integers; known: "
                               f"{', '.join(OPERATION_NAMES)}")
    return list(dict.fromkeys(names + list(CONVERSIONS)))


SPEC_KEYS = ("moduli", "ops")


def parse_spec_entry(name: str, options: dict) -> list[tuple[RnsSet, list[str]]]:
    """A spec's [rns] entry (request.parse_spec): rns<N> = {} is N moduli by Algorithm 3;
    any name with moduli = [m0, m1, ...] (numbers, or strings such as "0xffffffe9") is a
    set of one's own; ops as --ops, all by default."""
    where = f"rns.{name}"
    try:
        return _spec_entry(name, options, where)
    except RequestError as e:  # the command line's option names, as the spec's keys
        raise RequestError(re.sub(r"^--(rns-moduli|rns|ops):",
                                  lambda m: f"{where}.{'ops' if m[1] == 'ops' else 'moduli'}:", str(e))) from None


def _spec_entry(name: str, options: dict, where: str) -> list[tuple[RnsSet, list[str]]]:
    ops = options.get("ops")
    if ops is not None and (not isinstance(ops, list) or not ops or not all(isinstance(o, str) for o in ops)):
        raise RequestError(f"{where}: ops must be a non-empty list of operation names")
    ops_text = None if ops is None else ",".join(ops)
    if "moduli" in options:
        moduli = options["moduli"]
        if not isinstance(moduli, list) or not all(isinstance(m, (int, str)) and not isinstance(m, bool)
                                                   for m in moduli):
            raise RequestError(f"{where}: moduli must be a list of numbers, e.g. [3, 5, 7]")
        return parse(None, ",".join(str(m) for m in moduli), name, ops_text)
    count = re.fullmatch(r"rns(\d+)", name)
    if count is None:
        raise RequestError(f"{where}: give moduli = [m0, m1, ...], or name the set rns<N> for N moduli "
                           "by Algorithm 3")
    return parse(count[1], None, None, ops_text)


def _own_name(label: str) -> str:
    """A name for a set of one's own moduli: no rns<N>, which names Algorithm 3's N moduli."""
    count = re.fullmatch(r"rns([0-9]+)", check_name(label, "--name"))
    if count:
        raise RequestError(f"--name: {shown(label)} names the set of --rns {count[1]}; give your moduli another name")
    return label


def parse(counts_text: str, moduli_text: str | None, label: str | None,
          ops_text: str | None) -> list[tuple[RnsSet, list[str]]]:
    """The request of `mpgen generate --rns N,... [--ops ...]` (sets by Algorithm 3, named
    rns<N>) or `--rns-moduli m0,m1,... --name NAME [--ops ...]`."""
    ops = _ops(ops_text)
    if moduli_text is not None:
        if label is None:
            raise RequestError("--rns-moduli: give the set a name with --name")
        moduli = check([_number(m, "--rns-moduli") for m in split_items("--rns-moduli", moduli_text)])
        return [(RnsSet(moduli, _own_name(label)), ops)]
    sets = []
    for item in dict.fromkeys(split_items("--rns", counts_text)):
        count = _number(item, "--rns")
        if not MIN_MODULI <= count <= MAX_MODULI:
            raise RequestError(f"--rns: {shown(item)} moduli; give {MIN_MODULI} to {MAX_MODULI}")
        sets.append((RnsSet(generate(count), f"rns{count}"), ops))
    return sets
