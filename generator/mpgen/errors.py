"""Bad requests: RequestError, and the checks of names and lists that every request parser
(request.py, gf/, rns/, the runtime) shares. A leaf: it imports only names.py, so that each
of those may import it."""
from __future__ import annotations

from .names import ALLOWED, name_problem


class RequestError(ValueError):
    """Bad input; the message is one line saying what is wrong and what is allowed."""


def shown(text: str, most: int = 40) -> str:
    """text for a message: cut where it is long (an operand of a megabyte, say)."""
    return repr(text) if len(text) <= most else f"{text[:most]!r}... ({len(text)} characters)"


def integer(text: str, base: int = 0) -> int | None:
    """text's integer (base 0: decimal, or 0x, 0o, 0b), None where it holds none. Only ASCII
    digits count: int() alone reads other scripts' digits too (Arabic-Indic \u0666\u0664 as 64)."""
    if not text.isascii():
        return None
    try:
        return int(text, base)
    except ValueError:
        return None


def split_items(option: str, text: str) -> list[str]:
    items = [t.strip() for t in text.split(",")]
    if not text.strip() or any(not t for t in items):
        raise RequestError(f"{option}: empty item in {text!r}; give a comma-separated list")
    return items


def check_name(label: str, where: str) -> str:
    why = name_problem(label)
    if why:
        raise RequestError(f"{where}: {shown(label)} {why} for a header and a namespace; use {ALLOWED}")
    return label
