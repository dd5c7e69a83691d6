"""Generalized Fermat prime fields p = r^k + 1 with a sparse radix r = 2^w + 2^u or
2^w - 2^u (after Mohajerani, "Fast Fourier Transforms over prime fields of large
characteristic and their implementation on GPUs"; its table 3.1): the request that names
one, its checks, and the constants of its arithmetic. An element is k digits in radix r
(the thesis' section 3.1), each digit one 64-bit word (r < 2^64), so that multiplying by a
power of r is a negacyclic shift of digits: r^k = -1."""
from __future__ import annotations

import ctypes
import ctypes.util
import re
from functools import lru_cache

from ..errors import RequestError, check_name, integer, shown
from . import lists
from .field import GfField

# Mohajerani's table 3.1, by k: (w, u, sign) of r = 2^w + sign 2^u.
TABLE_3_1 = {2: (63, 53, 1), 4: (64, 50, -1), 8: (63, 34, 1), 16: (62, 36, 1), 32: (62, 56, 1),
             64: (63, 40, -1), 128: (64, 28, -1)}
MIN_K, MAX_K = 2, 128
DIGIT_BITS = 64

_FORM = re.compile(r"\(2\^(\d+)([+-])2\^(\d+)\)\^(\d+)\+1")
FORM = "(2^w+2^u)^k+1 or (2^w-2^u)^k+1"


@lru_cache(maxsize=None)
def _gmp() -> ctypes.CDLL:
    path = ctypes.util.find_library("gmp")
    if path is None:
        raise RequestError("generalized Fermat fields: GMP (libgmp) is needed to check that p is prime, "
                           "and none was found")
    return ctypes.CDLL(path)


def is_prime(n: int) -> bool:
    """GMP's mpz_probab_prime_p with 30 rounds (Baillie-PSW and Miller-Rabin): a composite
    passes with probability below 4^-30."""
    gmp = _gmp()
    z = ctypes.create_string_buffer(32)  # an mpz_t: two ints and a pointer (16 bytes on LP64)
    gmp.__gmpz_init(z)
    try:
        gmp.__gmpz_set_str(z, f"{n:x}".encode(), 16)
        return gmp.__gmpz_probab_prime_p(z, 30) != 0
    finally:
        gmp.__gmpz_clear(z)


def field(w: int, u: int, sign: int, k: int, label: str) -> GfField:
    """The field of the given parameters, checked: one line saying what is wrong."""
    text = f"(2^{w}{'+' if sign > 0 else '-'}2^{u})^{k}+1"
    if not w > u >= 0:
        raise RequestError(f"--gf-prime: {text}: w must exceed u (r = 2^w {'+' if sign > 0 else '-'} 2^u > 0)")
    if w > DIGIT_BITS or (1 << w) + sign * (1 << u) >= 1 << DIGIT_BITS:  # (w first: 2^w of any w is not built)
        raise RequestError(f"--gf-prime: {text}: r must be below 2^{DIGIT_BITS} (a digit is one 64-bit word)")
    if k & (k - 1) or not MIN_K <= k <= MAX_K:
        raise RequestError(f"--gf-prime: {text}: k must be a power of two from {MIN_K} to {MAX_K}")
    gf = GfField(w, u, sign, k, label)
    if not is_prime(gf.p):
        raise RequestError(f"--gf-prime: {text} is not prime (GMP's mpz_probab_prime_p); Mohajerani's table 3.1 "
                           f"has {', '.join(preset(k).text for k in TABLE_3_1)}")
    return gf


def preset(k: int) -> GfField:
    """The prime of Mohajerani's table 3.1 with this k, named gf<k> (not checked: the table's
    primes are, and tests/python/test_gf.py checks them)."""
    w, u, sign = TABLE_3_1[k]
    return GfField(w, u, sign, k, f"gf{k}")


# name -> summary; mul_r<i> (0 < i < 2k) beside them. Each plans one list (lists.py).
OPERATIONS = {"add": "x + y mod p (Mohajerani's Algorithm 3.2)", "sub": "x - y mod p",
              "neg": "-x mod p (x r^k: the digits negated)",
              "mul": "x y mod p (Mohajerani's Algorithm 3.3: digit products, their columns split in radix r)",
              "from_binary": "x (an integer below p, 2k binary words) to its k digits in radix r",
              "to_binary": "the k digits in radix r to the integer below p (2k binary words)",
              "mul_r": "x r^a mod p, a (0 <= a < 2k) given at run time (a barrel shift of the digits)",
              "fft": "the FFT of K^e points, K = 2k (headers/gf_fft.cuh's Stockham passes; needs mul and mul_r), and "
                     "integer products through it (headers/gf_products.cuh; needs the conversions)"}
DEFAULT_OPS = ("add", "sub", "neg", "mul", "mul_r1", "mul_r", "from_binary", "to_binary", "fft")
_POWER = re.compile(r"mul_r([0-9]+)")  # (not \d: other scripts' digits name no C++ symbol)
_LISTED_POWER = re.compile(r"\Amul_r<([0-9]+)>\Z")  # as --list and the messages write it: mul_r<3> is mul_r3


def summary(name: str) -> str:
    power = _POWER.fullmatch(name)
    return OPERATIONS[name] if power is None else f"x r^{power[1]} mod p (a negacyclic shift of the digits)"


def check_ops(gf: GfField, names: list[str]) -> list[str]:
    """The operations named, checked against the field: add, sub, neg, mul_r<i>."""
    names = [_LISTED_POWER.sub(r"mul_r\1", name) for name in names]
    for name in names:
        power = _POWER.fullmatch(name)
        if name not in OPERATIONS and (power is None or not 0 < int(power[1]) < 2 * gf.k):
            raise RequestError(f"--ops: {shown(name)} is not an operation of {gf.label}; known: "
                               f"{', '.join(OPERATIONS)}, mul_r<i> for 0 < i < {2 * gf.k} (x r^i)")
        if lists.unavailable(gf, name):
            raise RequestError(f"--ops: {name} of {gf.label} {lists.unavailable(gf, name)}")
    return list(dict.fromkeys(names))


def default_ops(gf: GfField) -> list[str]:
    return [name for name in DEFAULT_OPS if not lists.unavailable(gf, name)]


def with_dependencies(names: list[str]) -> list[str]:
    """The operations to generate: the FFT runs mul and mul_r, and its integer products
    (headers/gf_products.cuh) the conversions."""
    return list(dict.fromkeys(names + (["mul", "mul_r", "from_binary", "to_binary"] if "fft" in names else [])))


def plan(gf: GfField, name: str):
    """The operation's instruction list; above k = 16, mul and the conversions are
    lists.Looped (loops over short lists); the FFT's own lists are gf/fft.py's Lists."""
    power = _POWER.fullmatch(name)
    if power is not None:
        return lists.mul_by_r_power(gf, int(power[1]), name)
    if name == "neg":
        return lists.mul_by_r_power(gf, gf.k, name)
    if gf.k > lists.QUADRATIC_MAX_K and name in ("mul", "from_binary", "to_binary"):
        return {"mul": lists.mul_rows, "from_binary": lists.from_binary_loop, "to_binary": lists.to_binary_loop}[name](gf)
    return getattr(lists, name)(gf)


def parse(ks_text: str | None, prime_text: str | None, label: str | None) -> list[GfField]:
    """The request of `--gf K,...` (table 3.1's primes, named gf<K>) or `--gf-prime
    '(2^w+2^u)^k+1' --name NAME`."""
    if prime_text is not None:
        form = _FORM.fullmatch(prime_text.replace(" ", ""))
        if form is None:
            raise RequestError(f"--gf-prime: {shown(prime_text)} is not of the form {FORM}")
        if label is None:
            raise RequestError("--gf-prime: give the field a name with --name")
        w, sign, u, k = int(form[1]), 1 if form[2] == "+" else -1, int(form[3]), int(form[4])
        return [_own_name(field(w, u, sign, k, check_name(label, "--name")))]
    fields = []
    for item in dict.fromkeys(i.strip() for i in (ks_text or "").split(",")):
        if not item.isdigit() or integer(item, 10) not in TABLE_3_1:
            raise RequestError(f"--gf: {shown(item)} is no k of Mohajerani's table 3.1; give "
                               f"{', '.join(map(str, TABLE_3_1))} (or --gf-prime {FORM!r})")
        fields.append(preset(integer(item, 10)))
    return fields


def _own_name(gf: GfField) -> GfField:
    """The field, where its name is no gf<k> of Mohajerani's table 3.1 for another prime."""
    k = re.fullmatch(r"gf([0-9]+)", gf.label)
    if k and int(k[1]) in TABLE_3_1 and preset(int(k[1])).p != gf.p:
        raise RequestError(f"--name: {shown(gf.label)} names Mohajerani's {gf.label}, {preset(int(k[1])).text}; give "
                           f"{gf.text} another name")
    return gf


SPEC_KEYS = ("prime", "ops")


def parse_spec_entry(name: str, options: dict) -> list[tuple[GfField, list[str]]]:
    """A spec's [gf] entry (request.parse_spec): gf<k> = {} is the prime of Mohajerani's table 3.1;
    any name with prime = "(2^w+2^u)^k+1" is one's own; ops as --ops, the defaults if none."""
    where = f"gf.{name}"
    ops = options.get("ops")
    if ops is not None and (not isinstance(ops, list) or not ops or not all(isinstance(o, str) for o in ops)):
        raise RequestError(f"{where}: ops must be a non-empty list of operation names")
    try:
        if "prime" in options:
            if not isinstance(options["prime"], str):
                raise RequestError(f"--gf-prime: give the prime as a string, e.g. \"(2^63+2^34)^8+1\"")
            fields = parse(None, options["prime"], name)
        else:
            preset_k = re.fullmatch(r"gf(\d+)", name)
            if preset_k is None:
                raise RequestError(f"--gf-prime: give prime = \"{FORM}\", or name the field gf<k> for the "
                                   "primes of Mohajerani's table 3.1")
            fields = parse(preset_k[1], None, None)
        return [(f, default_ops(f) if ops is None else check_ops(f, ops)) for f in fields]
    except RequestError as e:  # the command line's option names, as the spec's keys
        key = {"gf-prime": ".prime", "gf": "", "ops": ".ops"}
        raise RequestError(re.sub(r"^--(gf-prime|gf|ops):", lambda m: f"{where}{key[m[1]]}:", str(e))) from None
