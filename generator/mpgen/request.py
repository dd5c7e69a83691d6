"""A request (sizes and operations, as the user typed them) checked into what to plan."""
from __future__ import annotations

import re
from pathlib import Path

from . import gf, rns
from .errors import RequestError, check_name, integer, shown, split_items
from .fields import PRESETS, Field, default_label, find_preset
from .group import PLANNERS as GROUP_PLANNERS, planner as group_planner, unavailable as group_unavailable
from .plan import Request, group_program
from .size import DEFAULT_BITS, MAX_BITS, MIN_BITS, MUL_METHODS, Size, limbs_for
from .thread import CONSTANT_SHIFT, DEFAULT_CONSTANT_SHIFTS, MODULAR_OPERATIONS, OPERATIONS, Operation, find, fits, \
    modular
from .thread.bits import constant_shift
from .tiers import DEFAULT_TIER, GROUP_MIN_BITS, THREAD_MAX_BITS, TIER_NAMES, auto_tier, group as group_geometry
from .tomlcompat import tomllib


KNOWN_OPS = f"known: {', '.join(OPERATIONS)}, shl<K>, shr<K>"


def defaults(size: Size) -> list[Operation]:
    """The operations a size gets where the request names none: its tier's (in the group tier
    those it can run at this size), and the default constant shifts that fit its width."""
    shifts = [op for op in (constant_shift(d, k) for d in ("shl", "shr") for k in DEFAULT_CONSTANT_SHIFTS)
              if fits(op, size)]
    if size.tier_name == "group":  # those whose geometry fits a block at this size
        return [OPERATIONS[name] for name in GROUP_PLANNERS if _fits_a_block(size, name)] + shifts
    return list(OPERATIONS.values()) + shifts


def _fits_a_block(size: Size, name: str) -> bool:
    try:
        group_program(size, name)
    except ValueError:  # its tables or exchanges take more shared memory than a block has
        return False
    return True


def check_mul(method: object, where: str) -> str:
    if method not in MUL_METHODS:
        raise RequestError(f"{where}: unknown multiplication method {method!r}; "
                           f"allowed: {', '.join(MUL_METHODS)}")
    return method


def check_tier(tier: object, where: str) -> str:
    if tier not in TIER_NAMES:
        raise RequestError(f"{where}: unknown tier {shown(str(tier))}; allowed: {', '.join(TIER_NAMES)} "
                           f"(auto: one integer per thread up to {THREAD_MAX_BITS} bits, per group above)")
    return tier


def check_geometry(value: object, where: str) -> int:
    """A request's threads per integer or instances per block: a whole number, 0 for the table's."""
    number = integer(value.strip(), 10) if isinstance(value, str) and value.strip().isdigit() else value
    if not isinstance(number, int) or isinstance(number, bool) or number < 0:
        raise RequestError(f"{where}: {shown(str(value))} is not a whole number; give a count "
                           "(0: the generator's choice)")
    return number


def check_threads(value: object, where: str) -> int | str:
    """A request's threads per integer: a whole number (0: the table's), or the name of a
    group operation, whose threads in the table every operation of the size then takes
    (so that one kernel may chain them: add and mul_lo on the products' threads)."""
    if not isinstance(value, str):
        return check_geometry(value, where)
    if group_planner(value.strip()) is not None:
        return value.strip()
    try:
        return check_geometry(value, where)
    except RequestError:
        raise RequestError(f"{where}: {shown(str(value))} is neither a whole number nor an operation of the "
                           f"group tier; give a count (0: the generator's choice) or an operation such as "
                           f"mul_lo") from None


def check_bits(bits: object, where: str, mul: str = "auto", tier: str = DEFAULT_TIER,
               threads: int | str = 0, instances_per_block: int = 0) -> Size:
    allowed = f"sizes are whole numbers of bits from {MIN_BITS} to {MAX_BITS}"
    if isinstance(bits, str):
        text = bits
        digits = text.strip().lstrip("+-").lstrip("0")
        if text.isascii() and digits.isdigit() and len(digits) > len(str(MAX_BITS)):
            raise RequestError(f"{where}: {shown(text)} is above the maximum; {allowed}")
        bits = integer(text, 10)
        if bits is None:
            raise RequestError(f"{where}: {shown(text)} is not a number; {allowed}")
    if not isinstance(bits, int) or isinstance(bits, bool):
        raise RequestError(f"{where}: {shown(repr(bits))} is not a number; {allowed}")
    if bits < MIN_BITS or bits > MAX_BITS:
        raise RequestError(f"{where}: {bits} is out of range; {allowed}")
    tier = auto_tier(bits) if tier == "auto" else tier
    if tier == "thread" and bits > THREAD_MAX_BITS:
        raise RequestError(f"{where}: {bits} bits is above the thread tier's {THREAD_MAX_BITS}; "
                           f"the group tier (--tier group or auto) holds {GROUP_MIN_BITS} to {MAX_BITS}")
    if tier == "group" and bits < GROUP_MIN_BITS:
        raise RequestError(f"{where}: {bits} bits is below the group tier's {GROUP_MIN_BITS}; "
                           f"the thread tier (--tier thread or auto) holds {MIN_BITS} to {THREAD_MAX_BITS}")
    if tier == "thread" and mul == "ntt":
        raise RequestError(f"{where}: {bits} bits: products by transform (mul ntt) are the group tier's "
                           f"({GROUP_MIN_BITS} to {MAX_BITS} bits); the thread tier has schoolbook, karatsuba, auto")
    if tier == "thread" and (threads or instances_per_block):
        raise RequestError(f"{where}: threads and instances per block are the group tier's "
                           f"({GROUP_MIN_BITS} to {MAX_BITS} bits); the thread tier has one thread per integer")
    try:
        if isinstance(threads, str):
            threads = group_geometry(bits, limbs_for(bits), 0, instances_per_block, threads).threads_per_instance
        size = Size(bits, mul, tier, threads, instances_per_block)
        size.tier
    except ValueError as e:
        raise RequestError(f"{where}: {bits} bits in the group tier: {e}") from None
    return size


# A constant shift as --list writes it: shl<3> is shl3.
LISTED_SHIFT = re.compile(r"\A(shl|shr)<([0-9]+)>\Z")


def check_ops(names: list[str], size: Size, where: str) -> list[Operation]:
    ops = []
    for name in names:
        name = LISTED_SHIFT.sub(r"\1\2", name)
        shift = CONSTANT_SHIFT.match(name)
        if shift and len(shift[2]) > len(str(MAX_BITS)):
            raise RequestError(f"{where}: {shift[1]} by a {len(shift[2])}-digit amount is not below "
                               f"the {size.bits}-bit size; constant shifts go from 1 to bits-1")
        op = find(name)
        if op is None:
            raise RequestError(f"{where}: unknown operation {shown(name)}; {KNOWN_OPS}")
        why = group_unavailable(op.name) if size.tier_name == "group" else None
        if why:
            raise RequestError(f"{where}: {name} at {size.bits} bits {why}")
        if size.tier_name == "group":
            try:
                group_program(size, op.name)  # its own geometry (a product's tables, its exchanges) may not fit
            except ValueError as e:
                raise RequestError(f"{where}: {name} at {size.bits} bits in the group tier: {e}") from None
        if not fits(op, size):
            raise RequestError(f"{where}: {name} shifts by {name[3:]} bits, not below the "
                               f"{size.bits}-bit size; constant shifts go from 1 to bits-1")
        if op.name not in [o.name for o in ops]:
            ops.append(op)
    return ops


def parse_options(bits_text: str | None, ops_text: str | None, mul: str = "auto",
                  tier: str = DEFAULT_TIER, threads: int = 0, instances_per_block: int = 0) -> Request:
    """The request of `mpgen generate --bits ... --ops ... --mul ... --tier ... --threads ...
    --instances-per-block ...`."""
    check_mul(mul, "--mul")
    check_tier(tier, "--tier")
    threads = check_threads(threads, "--threads")
    instances_per_block = check_geometry(instances_per_block, "--instances-per-block")
    if bits_text is None:
        wanted = "group" if threads or instances_per_block else tier
        sizes = [check_bits(b, "--bits", mul, tier, threads, instances_per_block) for b in DEFAULT_BITS
                 if wanted == "auto" or auto_tier(b) == wanted]
    else:
        spelled = {}
        for item in split_items("--bits", bits_text):
            size = check_bits(item, "--bits", mul, tier, threads, instances_per_block)
            if size in spelled:
                raise RequestError(f"--bits: {shown(spelled[size])} and {shown(item)} both ask for "
                                   f"{size.bits} bits; give each size once")
            spelled[size] = item
        sizes = sorted(spelled, key=lambda s: s.bits)
    names = None if ops_text is None else split_items("--ops", ops_text)
    return [(s, defaults(s) if names is None else check_ops(names, s, "--ops")) for s in sizes]


def check_modulus(text: str, where: str, bits: int | None = None, label: str | None = None,
                  mul: str = "auto", tier: str = DEFAULT_TIER) -> Field:
    """The field of a modulus given as a number (0x... hex or decimal)."""
    allowed = f"give a modulus above 1 of at most {THREAD_MAX_BITS} bits, as 0x... or decimal"
    if tier == "group":
        raise RequestError(f"--tier: fields are planned for the thread tier only (moduli up to "
                           f"{THREAD_MAX_BITS} bits); give --tier thread or auto")
    digits = text.replace("_", "").strip().lower()
    if len(digits) > 4000 and digits.isascii() and digits.isdigit():  # past Python's limit on decimal conversions
        raise RequestError(f"{where}: {shown(text)} has more than {THREAD_MAX_BITS} bits; {allowed}")
    if (modulus := integer(digits)) is None:
        raise RequestError(f"{where}: {shown(text)} is not a number; {allowed}")
    if modulus <= 1:
        raise RequestError(f"{where}: the modulus must be above 1, not {modulus}; {allowed}")
    if modulus.bit_length() > THREAD_MAX_BITS:
        raise RequestError(f"{where}: the modulus has {modulus.bit_length()} bits; {allowed}")
    if bits is not None and bits > THREAD_MAX_BITS:
        raise RequestError(f"--bits: {bits} bits for a modulus; fields are planned up to {THREAD_MAX_BITS} "
                           "bits (the thread tier)")
    if bits is not None and bits < modulus.bit_length():
        raise RequestError(f"{where}: the modulus has {modulus.bit_length()} bits, more than the "
                           f"{bits} declared; declare at least {modulus.bit_length()}")
    label = default_label(modulus) if label is None else check_own_name(label, modulus)
    return Field(bits or max(modulus.bit_length(), MIN_BITS), mul, "thread", modulus=modulus, label=label)


def check_own_name(label: str, modulus: int) -> str:
    """A name given to a modulus: no preset's for another modulus (mpgen::secp256k1 working
    modulo 17 would mislead)."""
    check_name(label, "--name")
    preset = find_preset(label)
    if preset is not None and int(PRESETS[preset]["modulus"], 0) != modulus:
        raise RequestError(f"--name: {shown(label)} names the preset field {preset} (--field {preset}), "
                           "another modulus; give this one another name")
    return label


KNOWN_MODULAR_OPS = f"known for a modulus: {', '.join(MODULAR_OPERATIONS)}"


def check_preset(name: str) -> tuple[str, str]:
    """The modulus (as text) and name of the preset `name`."""
    found = find_preset(name)
    if found is None:
        raise RequestError(f"--field: unknown field {shown(name)}; known: {', '.join(PRESETS)}")
    return PRESETS[found]["modulus"], found


def parse_field(modulus: str, bits_text: str | None, ops_text: str | None, label: str | None,
                mul: str = "auto", tier: str = DEFAULT_TIER) -> Request:
    """The request of `mpgen generate --modulus P [--bits N] [--name NAME] [--ops ...]`
    (or of --field NAME, with the preset's modulus and name)."""
    check_mul(mul, "--mul")
    check_tier(tier, "--tier")
    bits = None
    if bits_text is not None:
        items = split_items("--bits", bits_text)
        if len(items) != 1:
            raise RequestError(f"--bits: give one size with --modulus, not {bits_text!r}")
        bits = check_bits(items[0], "--bits").bits
    field = check_modulus(modulus, "--modulus", bits, label, mul, tier)
    names = [n for n, op in MODULAR_OPERATIONS.items() if modular.available(op, field)] \
        if ops_text is None else split_items("--ops", ops_text)
    for name in names:
        if name not in MODULAR_OPERATIONS:
            raise RequestError(f"--ops: unknown operation {shown(name)} for a modulus; {KNOWN_MODULAR_OPS}")
        why = modular.unavailable(MODULAR_OPERATIONS[name], field)
        if why:
            raise RequestError(f"--ops: {name} {why}")
    return [(field, [MODULAR_OPERATIONS[n] for n in dict.fromkeys(names)])]


SPEC_KEYS = ("ops", "mul", "tier", "sizes", "fields", "rns", "gf")
SIZE_KEYS = ("ops", "mul", "tier", "threads", "instances_per_block")
FIELD_KEYS = ("modulus", "bits", "ops", "mul", "tier")


def parse_spec(path: Path) -> tuple[Request, list, list]:
    """The request of a TOML spec file, its RNS sets (rns.parse's) and its generalized
    Fermat fields (gf.parse's, with their operations):

        ops = ["add", "mul"]      # for every size that does not list its own; default: all
        mul = "auto"              # schoolbook | karatsuba | auto
        tier = "thread"           # one integer per thread (the only tier planned yet)
        [sizes]
        131 = {}
        256 = { ops = ["mul", "sqr"], mul = "karatsuba" }
        [fields]                  # moduli: a preset by its name, or any with its modulus
        secp256k1 = {}            # all modular operations (the top-level ops are for sizes)
        mine = { modulus = "0xffffffffffffffc5", ops = ["modmul"], bits = 64 }
        [rns]                     # RNS integers: rns<N> is N moduli by Algorithm 3,
        rns8 = {}                 # any other name gives its own moduli
        tiny = { moduli = [3, 5, 7], ops = ["add", "mul"] }
        [gf]                      # p = r^k + 1: gf<k> is Mohajerani's table 3.1,
        gf8 = { ops = ["mul", "fft"] }   # any other name gives its prime
        mine = { prime = "(2^63+2^34)^8+1" }

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
            if key not in allowed:  # the callers' fail() finds its line by the quoted key
                raise RequestError(f"unknown key {key!r} {where}; allowed: {', '.join(allowed)}")

    def op_names(value: object, where: str | None) -> list[str]:
        """The operations an entry (where; None: the top) lists."""
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            raise RequestError(f"{f'{where}: ' if where else ''}ops must be a non-empty list of operation names")
        return value

    try:
        checked_keys(spec, SPEC_KEYS, "at the top")
    except RequestError as e:
        raise fail(str(e), re.search(r"'([^']+)'", str(e))[1]) from None
    for table in ("sizes", "fields", "rns", "gf"):
        if not isinstance(spec.get(table, {}), dict):
            raise fail(f"{table} must be a table, e.g. [{table}]", table)
    if not any(spec.get(table) for table in ("sizes", "fields", "rns", "gf")):
        raise fail("no [sizes], [fields], [rns] or [gf] table: give one entry per size, modulus, RNS set "
                   "or prime field, e.g. 131 = {} under [sizes]", "sizes")
    try:
        default_ops = op_names(spec["ops"], None) if "ops" in spec else None
    except RequestError as e:
        raise fail(str(e), "ops") from None
    try:
        default_mul = check_mul(spec.get("mul", "auto"), "mul")
    except RequestError as e:
        raise fail(str(e), "mul") from None
    try:
        default_tier = check_tier(spec.get("tier", DEFAULT_TIER), "tier")
    except RequestError as e:
        raise fail(str(e), "tier") from None

    request = []
    spelled: dict[str, str] = {}  # module name -> the entry that asked for it

    def claim(module: str, entry: str, key: str) -> None:
        if module in spelled:
            raise fail(f"{spelled[module]} and {entry} both write {module}'s header "
                       f"mpgen_{module}.cuh; give one of them", key)
        spelled[module] = entry
    for key, options in spec.get("sizes", {}).items():
        try:
            if not isinstance(options, dict):
                raise RequestError(f"sizes.{key}: give a table of options, e.g. {key} = {{}}")
            checked_keys(options, SIZE_KEYS, f"in sizes.{key}")
            mul = check_mul(options.get("mul", default_mul), f"sizes.{key}.mul")
            tier = check_tier(options.get("tier", default_tier), f"sizes.{key}.tier")
            geometry = [check_threads(options.get("threads", 0), f"sizes.{key}.threads"),
                        check_geometry(options.get("instances_per_block", 0), f"sizes.{key}.instances_per_block")]
            size = check_bits(key, f"sizes.{key}", mul, tier, *geometry)
            names = op_names(options["ops"], f"sizes.{key}") if "ops" in options else default_ops
            ops = defaults(size) if names is None else check_ops(names, size, f"sizes.{key}")
        except RequestError as e:
            bad = re.search(r"'([^']+)'", str(e))
            raise fail(str(e), bad[1] if bad else key) from None
        claim(size.name, f"sizes.{key}", key)
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
            field = parse_field(modulus, None if bits is None else str(bits),
                                None if ops is None else ",".join(ops), label,
                                options.get("mul", default_mul), options.get("tier", default_tier))
        except RequestError as e:
            bad = re.search(r"'([^']+)'", str(e))
            raise fail(str(e), bad[1] if bad else name) from None
        claim(field[0][0].name, f"fields.{name}", name)
        request += field

    def entries(table: str, kind) -> list:
        """The [rns] or [gf] table's entries, each parsed by kind.parse_spec_entry."""
        parsed = []
        for name, options in spec.get(table, {}).items():
            try:
                if not isinstance(options, dict):
                    raise RequestError(f"{table}.{name}: give a table of options, e.g. {name} = {{}}")
                checked_keys(options, kind.SPEC_KEYS, f"in {table}.{name}")
                parsed += kind.parse_spec_entry(name, options)
            except RequestError as e:
                bad = re.search(r"'([^']+)'", str(e))
                raise fail(str(e), bad[1] if bad and _line_of(text, bad[1]) else name) from None
            claim(name, f"{table}.{name}", name)
        return parsed

    return request, entries("rns", rns), entries("gf", gf)


def _line_of(text: str, needle: str) -> int | None:
    """The first line that holds needle as a word, for error messages."""
    for number, line in enumerate(text.splitlines(), start=1):
        if re.search(rf"(?<![\w]){re.escape(needle)}(?![\w])", line.split("#")[0]):
            return number
    return None
