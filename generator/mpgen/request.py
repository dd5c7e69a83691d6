"""A request (sizes and operations, as the user typed them) checked into a plan's inputs."""
from __future__ import annotations

from .ops import OPERATIONS
from .size import DEFAULT_BITS, MAX_BITS, MIN_BITS, Size


class RequestError(ValueError):
    """Bad input; the message is one line saying what is wrong and what is allowed."""


def _items(option: str, text: str) -> list[str]:
    items = [t.strip() for t in text.split(",")]
    if not text.strip() or any(not t for t in items):
        raise RequestError(f"{option}: empty item in {text!r}; give a comma-separated list")
    return items


def parse_bits(text: str | None) -> list[Size]:
    if text is None:
        return [Size(b) for b in DEFAULT_BITS]
    allowed = f"sizes are whole numbers of bits from {MIN_BITS} to {MAX_BITS}"
    sizes = []
    for item in _items("--bits", text):
        try:
            bits = int(item, 10)
        except ValueError:
            raise RequestError(f"--bits: {item!r} is not a number; {allowed}") from None
        if not MIN_BITS <= bits <= MAX_BITS:
            raise RequestError(f"--bits: {bits} is out of range; {allowed}")
        if Size(bits) not in sizes:
            sizes.append(Size(bits))
    return sorted(sizes, key=lambda s: s.bits)


def parse_ops(text: str | None) -> list[str]:
    if text is None:
        return list(OPERATIONS)
    ops = []
    for item in _items("--ops", text):
        if item not in OPERATIONS:
            raise RequestError(f"--ops: unknown operation {item!r}; known: {', '.join(OPERATIONS)}")
        if item not in ops:
            ops.append(item)
    return [name for name in OPERATIONS if name in ops]
