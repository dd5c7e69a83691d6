"""Residue number system integers (seed 001): moduli sets (moduli.py), their residue
lists (lists.py), and the request that names them (`mpgen generate --rns` or
`--rns-moduli`). The header's printer is printers/rns.py; the arithmetic around the lists,
written once for host and device, is cuda/rns.cuh."""
from __future__ import annotations

from ..request import RequestError, check_name, shown, split_items
from .moduli import MAX_MODULI, MIN_MODULI, RnsSet, check, generate

# name -> (summary, operands, result words past an integer's (-1: one word in all), the
# call in cuda/rns.cuh that the header's struct makes): each operation's contract, once.
# A result integer is followed by its overflow flag.
OPERATIONS = {
    "add": ("x + y by the seed's Algorithm 2 (radix complement, no branch on the signs)", 2, 1,
            "y[words] = ::mpgen::rns::add_complement<set>(y, x, x.from(words));"),
    "add_branching": ("x + y by the seed's Algorithm 1 (a branch on the signs)", 2, 1,
                      "y[words] = ::mpgen::rns::add_branching<set>(y, x, x.from(words));"),
    "sub": ("x - y by Algorithm 2", 2, 1, "y[words] = ::mpgen::rns::add_complement<set>(y, x, x.from(words), 1);"),
    "mul": ("x y, residue by residue, the interval as (X / M) (Y / M) M", 2, 1,
            "y[words] = ::mpgen::rns::multiply<set>(y, x, x.from(words));"),
    "neg": ("-x", 1, 0, "::mpgen::rns::negate<set>(y, x);"),
    "evaluate": ("x with its interval evaluation made again from the residues alone (the CRT's fractions, "
                 "refined for small x)", 1, 0, "::mpgen::rns::reevaluate<set>(y, x);"),
    "sign": ("-1, 0 or 1 (-1 as 2^32 - 1)", 1, -1, "y[0] = ::mpgen::rns::sign_of<set>(x);"),
    "cmp": ("-1, 0 or 1 as x < y, x = y, x > y (-1 as 2^32 - 1)", 2, -1,
            "y[0] = ::mpgen::rns::compare<set>(x, x.from(words));"),
}
OPERATION_NAMES = tuple(OPERATIONS)


def _number(text: str, where: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise RequestError(f"{where}: {shown(text)} is not a number; give decimal or 0x hex") from None


def _ops(ops_text: str | None) -> list[str]:
    names = list(OPERATION_NAMES) if ops_text is None else split_items("--ops", ops_text)
    for name in names:
        if name not in OPERATION_NAMES:
            raise RequestError(f"--ops: {shown(name)} is not an operation of RNS integers; known: "
                               f"{', '.join(OPERATION_NAMES)}")
    return list(dict.fromkeys(names))


def parse(counts_text: str, moduli_text: str | None, label: str | None,
          ops_text: str | None) -> list[tuple[RnsSet, list[str]]]:
    """The request of `mpgen generate --rns N,... [--ops ...]` (sets by Algorithm 3, named
    rns<N>) or `--rns-moduli m0,m1,... --name NAME [--ops ...]`."""
    ops = _ops(ops_text)
    if moduli_text is not None:
        if label is None:
            raise RequestError("--rns-moduli: give the set a name with --name")
        moduli = check([_number(m, "--rns-moduli") for m in split_items("--rns-moduli", moduli_text)])
        return [(RnsSet(moduli, check_name(label, "--name")), ops)]
    sets = []
    for item in dict.fromkeys(split_items("--rns", counts_text)):
        count = _number(item, "--rns")
        if not MIN_MODULI <= count <= MAX_MODULI:
            raise RequestError(f"--rns: {shown(item)} moduli; give {MIN_MODULI} to {MAX_MODULI}")
        sets.append((RnsSet(generate(count), f"rns{count}"), ops))
    return sets
