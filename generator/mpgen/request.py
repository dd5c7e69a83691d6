"""A request (sizes and operations, as the user typed them) checked into what to plan."""
from __future__ import annotations

import re
from pathlib import Path

from .field import PRESETS, Field, default_label, find_preset
from .ops import MODULAR_OPERATIONS, OPERATIONS, Operation, defaults, find, fits, modular
from .size import DEFAULT_BITS, MAX_BITS, MIN_BITS, MUL_METHODS, Size
from .tomlcompat import tomllib

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


def check_mul(method: object, where: str) -> str:
    if method not in MUL_METHODS:
        raise RequestError(f"{where}: unknown multiplication method {method!r}; "
                           f"allowed: {', '.join(MUL_METHODS)}")
    return method


def check_bits(bits: object, where: str, mul: str = "auto") -> Size:
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
    return Size(bits, mul)


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


def parse_options(bits_text: str | None, ops_text: str | None, mul: str = "auto") -> Request:
    """The request of `mpgen generate --bits ... --ops ... --mul ...`."""
    check_mul(mul, "--mul")
    if bits_text is None:
        sizes = [Size(b, mul) for b in DEFAULT_BITS]
    else:
        sizes = sorted({check_bits(b, "--bits", mul) for b in _items("--bits", bits_text)},
                       key=lambda s: s.bits)
    names = None if ops_text is None else _items("--ops", ops_text)
    return [(s, defaults(s) if names is None else check_ops(names, s, "--ops")) for s in sizes]


LABEL = re.compile(r"[a-z_][a-z0-9_]*$")


def check_modulus(text: str, where: str, bits: int | None = None, label: str | None = None,
                  mul: str = "auto") -> Field:
    """The field of a modulus given as a number (0x... hex or decimal)."""
    allowed = f"give a modulus above 1 of at most {MAX_BITS} bits, as 0x... or decimal"
    try:
        modulus = int(text.replace("_", ""), 0)
    except ValueError:
        raise RequestError(f"{where}: {text!r} is not a number; {allowed}") from None
    if modulus <= 1:
        raise RequestError(f"{where}: the modulus must be above 1, not {modulus}; {allowed}")
    if modulus.bit_length() > MAX_BITS:
        raise RequestError(f"{where}: the modulus has {modulus.bit_length()} bits; {allowed}")
    if bits is not None and bits < modulus.bit_length():
        raise RequestError(f"{where}: the modulus has {modulus.bit_length()} bits, more than the "
                           f"{bits} declared; declare at least {modulus.bit_length()}")
    label = label or default_label(modulus)
    if not LABEL.match(label):
        raise RequestError(f"--name: {label!r} cannot name a header and a namespace; use "
                           "lower-case letters, digits and _, not starting with a digit")
    return Field(bits or max(modulus.bit_length(), MIN_BITS), mul, modulus, label)


KNOWN_MODULAR_OPS = f"known for a modulus: {', '.join(MODULAR_OPERATIONS)}"


def check_preset(name: str) -> tuple[str, str]:
    """The modulus (as text) and name of the preset `name`."""
    found = find_preset(name)
    if found is None:
        raise RequestError(f"--field: unknown field {name!r}; known: {', '.join(PRESETS)}")
    return PRESETS[found]["modulus"], found


def parse_field(modulus: str, bits_text: str | None, ops_text: str | None, label: str | None,
                mul: str = "auto") -> Request:
    """The request of `mpgen generate --modulus P [--bits N] [--name NAME] [--ops ...]`
    (or of --field NAME, with the preset's modulus and name)."""
    check_mul(mul, "--mul")
    bits = None
    if bits_text is not None:
        items = _items("--bits", bits_text)
        if len(items) != 1:
            raise RequestError(f"--bits: give one size with --modulus, not {bits_text!r}")
        bits = check_bits(items[0], "--bits").bits
    field = check_modulus(modulus, "--modulus", bits, label, mul)
    names = [n for n, op in MODULAR_OPERATIONS.items() if modular.available(op, field)] \
        if ops_text is None else _items("--ops", ops_text)
    for name in names:
        if name not in MODULAR_OPERATIONS:
            raise RequestError(f"--ops: unknown operation {name!r} for a modulus; {KNOWN_MODULAR_OPS}")
        why = modular.unavailable(MODULAR_OPERATIONS[name], field)
        if why:
            raise RequestError(f"--ops: {name} {why}")
    return [(field, [MODULAR_OPERATIONS[n] for n in dict.fromkeys(names)])]


SPEC_KEYS = ("ops", "mul", "sizes", "fields")
SIZE_KEYS = ("ops", "mul")
FIELD_KEYS = ("modulus", "bits", "ops", "mul")


def parse_spec(path: Path) -> Request:
    """The request of a TOML spec file:

        ops = ["add", "mul"]      # for every size that does not list its own; default: all
        mul = "auto"              # schoolbook | karatsuba | auto
        [sizes]
        131 = {}
        256 = { ops = ["mul", "sqr"], mul = "karatsuba" }
        [fields]                  # moduli: a preset by its name, or any with its modulus
        secp256k1 = {}            # all modular operations (the top-level ops are for sizes)
        mine = { modulus = "0xffffffffffffffc5", ops = ["modmul"], bits = 64 }

    Errors name the file and the line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RequestError(f"--spec: cannot read {str(path)!r}: "
                           f"{getattr(e, 'strerror', None) or e}") from None

    def fail(message: str, needle: str | None = None) -> RequestError:
        line = _line_of(text, needle) if needle else None
        return RequestError(f"{path}{f':{line}' if line else ''}: {message}")

    try:
        spec = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        found = re.search(r"line (\d+)", str(e))
        line = found[1] if found else len(text.splitlines()) or 1  # "at end of document"
        raise RequestError(f"{path}:{line}: not valid TOML: {str(e).split(' (at')[0]}") from None

    def checked_keys(table: dict, allowed: tuple[str, ...], where: str) -> None:
        for key in table:
            if key not in allowed:
                raise fail(f"unknown key {key!r} {where}; allowed: {', '.join(allowed)}", key)

    def op_names(value: object, where: str) -> list[str]:
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            raise fail(f"{where}: ops must be a non-empty list of operation names", "ops")
        return value

    checked_keys(spec, SPEC_KEYS, "at the top")
    for table in ("sizes", "fields"):
        if not isinstance(spec.get(table, {}), dict):
            raise fail(f"{table} must be a table, e.g. [{table}]", table)
    if not spec.get("sizes") and not spec.get("fields"):
        raise fail("no [sizes] or [fields] table: give one entry per size or modulus, e.g. "
                   "131 = {} under [sizes]", "sizes")
    default_ops = op_names(spec["ops"], "ops") if "ops" in spec else None
    try:
        default_mul = check_mul(spec.get("mul", "auto"), "mul")
    except RequestError as e:
        raise fail(str(e), "mul") from None

    request = []
    for key, options in spec.get("sizes", {}).items():
        try:
            if not isinstance(options, dict):
                raise RequestError(f"sizes.{key}: give a table of options, e.g. {key} = {{}}")
            checked_keys(options, SIZE_KEYS, f"in sizes.{key}")
            mul = check_mul(options.get("mul", default_mul), f"sizes.{key}.mul")
            size = check_bits(key, f"sizes.{key}", mul)
            names = op_names(options["ops"], f"sizes.{key}") if "ops" in options else default_ops
            ops = defaults(size) if names is None else check_ops(names, size, f"sizes.{key}")
        except RequestError as e:
            bad = re.search(r"'([^']+)'", str(e))
            raise fail(str(e), bad[1] if bad else key) from None
        request.append((size, ops))
    request.sort(key=lambda r: r[0].bits)

    for name, options in spec.get("fields", {}).items():
        try:
            if not isinstance(options, dict):
                raise RequestError(f"fields.{name}: give a table of options, e.g. {name} = {{}}")
            checked_keys(options, FIELD_KEYS, f"in fields.{name}")
            modulus, label = (str(options["modulus"]), name) if "modulus" in options else \
                check_preset(name)
            ops = op_names(options["ops"], f"fields.{name}") if "ops" in options else None
            bits = options.get("bits")
            request += parse_field(modulus, None if bits is None else str(bits),
                                   None if ops is None else ",".join(ops), label,
                                   options.get("mul", default_mul))
        except RequestError as e:
            bad = re.search(r"'([^']+)'", str(e))
            raise fail(str(e), bad[1] if bad else name) from None
    return request


def _line_of(text: str, needle: str) -> int | None:
    """The first line that holds needle as a word, for error messages."""
    for number, line in enumerate(text.splitlines(), start=1):
        if re.search(rf"(?<![\w]){re.escape(needle)}(?![\w])", line.split("#")[0]):
            return number
    return None
