"""A request (sizes and operations, as the user typed them) checked into what to plan."""
from __future__ import annotations

from .ops import Operation, defaults, find, fits
from .ops import OPERATIONS
from .size import DEFAULT_BITS, MAX_BITS, MIN_BITS, Size

# What to generate: each size with its operations.
Request = list[tuple[Size, list[Operation]]]


class RequestError(ValueError):
    """Bad input; the message is one line saying what is wrong and what is allowed."""


KNOWN_OPS = f"known: {', '.join(OPERATIONS)}, shl<K>, shr<K>"


def _items(option: str, text: str) -> list[str]:
    items = [t.strip() for t in text.split(",")]
    if not text.strip() or any(not t for t in items):
        raise RequestError(f"{option}: empty item in {text!r}; give a comma-separated list")
    return items


def check_bits(bits: object, where: str) -> Size:
    allowed = f"sizes are whole numbers of bits from {MIN_BITS} to {MAX_BITS}"
    if isinstance(bits, str):
        try:
            bits = int(bits, 10)
        except ValueError:
            raise RequestError(f"{where}: {bits!r} is not a number; {allowed}") from None
    if not isinstance(bits, int) or isinstance(bits, bool):
        raise RequestError(f"{where}: {bits!r} is not a number; {allowed}")
    if bits > MAX_BITS:
        raise RequestError(f"{where}: {bits} is above the per-thread maximum; {allowed} "
                           "(larger integers need the cooperative tiers)")
    if bits < MIN_BITS:
        raise RequestError(f"{where}: {bits} is out of range; {allowed}")
    return Size(bits)


def check_ops(names: list[str], size: Size, where: str) -> list[Operation]:
    ops = []
    for name in names:
        op = find(name)
        if op is None:
            raise RequestError(f"{where}: unknown operation {name!r}; {KNOWN_OPS}")
        if not fits(op, size):
            raise RequestError(f"{where}: {name} shifts by {name[3:]} bits, not below the "
                               f"{size.bits}-bit size; constant shifts go from 1 to bits-1")
        if op.name not in [o.name for o in ops]:
            ops.append(op)
    return ops


def parse_options(bits_text: str | None, ops_text: str | None) -> Request:
    """The request of `mpgen generate --bits ... --ops ...`."""
    if bits_text is None:
        sizes = [Size(b) for b in DEFAULT_BITS]
    else:
        sizes = sorted({check_bits(b, "--bits") for b in _items("--bits", bits_text)},
                       key=lambda s: s.bits)
    names = None if ops_text is None else _items("--ops", ops_text)
    return [(s, defaults(s) if names is None else check_ops(names, s, "--ops")) for s in sizes]
