"""The greatest common divisor and the modular inverse (runtime_modulus.py's modinv, p at
run time), one integer per thread, by Bernstein and Yang's constant-time divsteps ("Fast
constant-time gcd computation and modular inversion", 2019).

The state is delta and two signed integers f (odd) and g. A divstep is

    delta > 0 and g odd: (1 - delta, g, (g - f) / 2)
    g odd:               (1 + delta, f, (g + f) / 2)
    else:                (1 + delta, f, g / 2)

and after enough of them g = 0 and f = +-gcd(f, g). A round takes STEPS divsteps on the
low words of f and g alone (they decide the next STEPS steps), building the matrix
(u v; q r) with 2^STEPS (f', g') = (u f + v g, q f + r g), then applies it to the whole
integers: a few word-by-vector products where the binary gcd (inverse.py) subtracts and
shifts whole integers every bit. STEPS = 30 keeps |u| + |v| and |q| + |r| at most 2^30,
signed words; libsecp256k1's modinv32 has the same round (its divsteps_30). The loop
(headers/loops.cuh, divsteps) runs rounds(bits) rounds whatever the values: Bernstein and
Yang's theorem 11.2 bounds the divsteps that reach g = 0 from delta = 1 for f odd and
f^2 + 4 g^2 <= 5 2^(2 d), here d = bits.

modinv also carries d and e with d a = f and e a = g (mod p), from (0, 1) for (f, g) =
(p, a); each round they take the matrix too, divided by 2^30 modulo p (m p added first,
m = -(its low word) p^-1 mod 2^30, as Montgomery's reduction does), and kept in [0, p).
Where f ends at 1, a^-1 = d; at -1, p - d.

Signed integers take W = limbs + 1 words in two's complement: |f|, |g| never exceed their
start's largest, below 2^bits.
"""
from __future__ import annotations

from ..ir import Function, Operand, Reg
from ..size import Size
from .bits import shift_by, trailing_zeros
from .common import all_ones_if_set, binary, inverse_word, same_limbs, select
from .compare import is_zero_word, or_all
from .powers import LoopOperation

STEPS = 30
SHIFT = STEPS  # the matrix's scale: the round's product is divided by 2^30


def rounds(bits: int) -> int:
    """Rounds of STEPS divsteps that take any f odd, g below 2^bits to g = 0 (theorem 11.2)."""
    divsteps = (49 * bits + 80) // 17 if bits < 46 else (49 * bits + 57) // 17
    return -(-divsteps // STEPS)


def negative(fn: Function, word: Operand) -> Reg:
    """All ones where the signed word is negative, else 0."""
    bit = fn.temp()
    fn.emit("shr", bit, word, 31)
    return all_ones_if_set(fn, bit)


def conditional_negate(fn: Function, value: Operand, mask: Reg) -> Reg:
    """-value where mask is all ones, else value: (value ^ mask) - mask."""
    t = fn.temp()
    fn.emit("xor", t, value, mask)
    fn.emit("sub", t, t, mask)
    return t


PART = 10  # divsteps a part of a round: entries of at most 2^10, two to a word
HALF = 16  # a packed word: u + v 2^16


def matrix(fn: Function, delta: Operand, f0: Operand, g0: Operand) -> tuple[Reg, list[Reg]]:
    """STEPS divsteps on f's and g's low words: the next delta and u, v, q, r (signed words).
    Each step as libsecp256k1's, over z = -delta: with c1 = (z < 0), c2 = (g odd), g += (c1 ?
    -f : f) if c2 (and (q, r) likewise from (u, v)); then where both hold z = -z and f += g
    (the new g: f becomes the old g, (u, v) likewise); z -= 1; g /= 2 while (u, v) doubles.
    The steps go in parts of PART, each part's rows (u, v) and (q, r) one word each, u + v
    2^16 (the same additions, negations and shifts serve both halves: 22 instructions a
    step, not 30), unpacked after the part and multiplied into the round's matrix."""
    z, f, g = fn.temp(), fn.temp(), fn.temp()
    fn.emit("sub", z, 0, delta)
    fn.emit("mov", f, f0)
    fn.emit("mov", g, g0)
    total: list[Reg] = []
    for _ in range(STEPS // PART):
        uv, qr = fn.temp(), fn.temp()
        fn.emit("mov", uv, 1)
        fn.emit("mov", qr, 1 << HALF)
        for _ in range(PART):
            c1 = negative(fn, z)  # delta > 0
            odd = fn.temp()
            fn.emit("and", odd, g, 1)
            c2 = all_ones_if_set(fn, odd)
            for into, source in ((g, f), (qr, uv)):
                term = conditional_negate(fn, source, c1)
                fn.emit("and", term, term, c2)
                fn.emit("add", into, into, term)
            swap = fn.temp()
            fn.emit("and", swap, c1, c2)
            fn.emit("xor", z, z, swap)  # (z ^ swap) - swap: -z where swapping
            fn.emit("sub", z, z, swap)
            fn.emit("sub", z, z, 1)
            for into, source in ((f, g), (uv, qr)):
                term = fn.temp()
                fn.emit("and", term, source, swap)
                fn.emit("add", into, into, term)
            fn.emit("shr", g, g, 1)  # g is even here: its top bit is not looked at again
            fn.emit("shl", uv, uv, 1)
        part = _unpacked(fn, uv) + _unpacked(fn, qr)
        total = part if not total else _matrix_product(fn, part, total)
    out = fn.temp()
    fn.emit("sub", out, 0, z)
    return out, total


def _sign_extended(fn: Function, half: Reg) -> Reg:
    """A 16-bit two's complement value (bits above 16 clear) as a signed word."""
    t = fn.temp()
    fn.emit("xor", t, half, 1 << (HALF - 1))
    fn.emit("sub", t, t, 1 << (HALF - 1))
    return t


def _unpacked(fn: Function, word: Reg) -> list[Reg]:
    """(low, high) of word = low + high 2^16, both signed and below 2^15 in size."""
    low, high = fn.temp(), fn.temp()
    fn.emit("and", low, word, (1 << HALF) - 1)
    low = _sign_extended(fn, low)
    fn.emit("sub", high, word, low)
    fn.emit("shr", high, high, HALF)
    return [low, _sign_extended(fn, high)]


def _matrix_product(fn: Function, later: list[Reg], earlier: list[Reg]) -> list[Reg]:
    """The matrix (u v; q r) of `later` times that of `earlier` (signed words, exact)."""
    (u2, v2, q2, r2), (u1, v1, q1, r1) = later, earlier
    out = []
    for a, b in ((u2, v2), (q2, r2)):
        for c, d in ((u1, q1), (v1, r1)):
            t = fn.temp()
            fn.emit("mul.lo", t, a, c)
            fn.emit("mad.lo", t, b, d, t)
            out.append(t)
    return out


def _combination(fn: Function, a: list[Operand], ma: Reg, b: list[Operand], mb: Reg,
                 signed: bool) -> list[Reg]:
    """a ma + b mb for signed words ma, mb and a, b of W words (two's complement where
    signed, else below 2^(32 W - 1)), in W + 1 words, two's complement: each product as
    the unsigned word times the value sign-extended, less the value moved up a word where
    the word is negative."""
    w = len(a)
    out = fn.temps_list(w + 1)
    for first, (value, m) in enumerate(((a, ma), (b, mb))):
        ext = list(value) + ([negative(fn, value[-1])] if signed else [0])
        # out (+)= m ext, lows then highs, each a carry chain over the words
        if first == 0:
            for i in range(w + 1):
                fn.emit("mul.lo", out[i], m, ext[i])
        else:
            fn.chain("mad.lo", [(out[i], (m, ext[i], out[i])) for i in range(w + 1)], carry_out=False)
        fn.chain("mad.hi", [(out[i], (m, ext[i - 1], out[i])) for i in range(1, w + 1)], carry_out=False)
        below_zero = negative(fn, m)
        moved = fn.temps_list(w)
        for i in range(w):
            fn.emit("and", moved[i], ext[i], below_zero)
        fn.chain("sub", [(out[i + 1], (out[i + 1], moved[i])) for i in range(w)], carry_out=False)
    return out


def _shifted(fn: Function, value: list[Reg], words: int, into: list[Reg] | None = None) -> list[Reg]:
    """value >> SHIFT (exact: its low bits are 0), the low `words` words."""
    out = into if into is not None else fn.temps_list(words)
    for i in range(words):
        fn.emit("shf.r.clamp", out[i], value[i], value[i + 1], SHIFT)
    return out


def _update_fg(fn: Function, f: list[Reg], g: list[Reg], entries: list[Reg], out_f: list[Reg],
               out_g: list[Reg]) -> None:
    u, v, q, r = entries
    w = len(f)
    _shifted(fn, _combination(fn, f, u, g, v, signed=True), w, out_f)
    _shifted(fn, _combination(fn, f, q, g, r, signed=True), w, out_g)


def _update_residue(fn: Function, d: list[Reg], e: list[Reg], mu: Reg, mv: Reg, p: list[Reg],
                    minus_inverse: Reg, out: list[Reg]) -> None:
    """out = (mu d + mv e) / 2^30 mod p in [0, p), for d, e in [0, p): the sum S (|S| <= 2^30 p)
    plus m p, m = -S p^-1 mod 2^30, is a multiple of 2^30 in [-2^30 p, 2^31 p); divided, in
    [-p, 2p): p added where negative, then taken off where still at least p."""
    n = len(p)
    s = _combination(fn, d + [0], mu, e + [0], mv, signed=False)  # n + 2 words
    m = fn.temp()
    fn.emit("mul.lo", m, s[0], minus_inverse)
    fn.emit("and", m, m, (1 << SHIFT) - 1)
    fn.chain_of([("mad.lo", s[i], (m, p[i], s[i])) for i in range(n)] +
                [("add", s[i], (s[i], 0)) for i in (n, n + 1)], carry_out=False)
    fn.chain_of([("mad.hi", s[i + 1], (m, p[i], s[i + 1])) for i in range(n)] + [("add", s[n + 1], (s[n + 1], 0))],
                carry_out=False)
    t = _shifted(fn, s, n + 1)  # in [-p, 2p): n words and a sign word
    below_zero = negative(fn, t[n])
    p_or_0 = fn.temps_list(n)
    for i in range(n):
        fn.emit("and", p_or_0[i], p[i], below_zero)
    added, less = fn.temps_list(n + 1), fn.temps_list(n + 1)
    fn.chain("add", [(added[i], (t[i], p_or_0[i])) for i in range(n)] + [(added[n], (t[n], below_zero))],
             carry_out=False)
    fn.chain("sub", [(less[i], (added[i], p[i])) for i in range(n)] + [(less[n], (added[n], 0))], carry_out=False)
    keep = negative(fn, less[n])  # added < p
    for i in range(n):
        select(fn, out[i], keep, added[i], less[i])


def gcd_round(size: Size) -> Function:
    """x = delta, f, g (W words each); y = the next delta, f, g after STEPS divsteps."""
    w = size.limbs + 1
    fn = Function("gcd_round", 1 + 2 * w, 1 + 2 * w)
    f, g = [Reg("x", 1 + i) for i in range(w)], [Reg("x", 1 + w + i) for i in range(w)]
    delta, entries = matrix(fn, Reg("x", 0), f[0], g[0])
    fn.emit("mov", Reg("y", 0), delta)
    _update_fg(fn, f, g, entries, [Reg("y", 1 + i) for i in range(w)], [Reg("y", 1 + w + i) for i in range(w)])
    fn.check()
    return fn


def _stages(size: Size) -> int:
    return (size.limbs - 1).bit_length()  # shifts by below `limbs` limbs (a nonzero value's zeros)


def gcd_start(size: Size) -> Function:
    """x = a, b; y = delta = 1, f, g (W words each), k: k the trailing zeros of a | b (the
    common power of two taken out), and f the odd one of a >> k, b >> k (a's where both
    are), g the other."""
    n, w = size.limbs, size.limbs + 1
    fn = Function("gcd_start", 2 * n, 2 + 2 * w)
    a, b = [Reg("x", i) for i in range(n)], [Reg("x", n + i) for i in range(n)]
    either, shift = fn.temps_list(n), Reg("y", 1 + 2 * w)
    for k in range(n):
        fn.emit("or", either[k], a[k], b[k])
    trailing_zeros(fn, shift, either)
    a1 = shift_by(fn, a, shift, _stages(size), left=False)
    b1 = shift_by(fn, b, shift, _stages(size), left=False)
    odd = fn.temp()
    fn.emit("and", odd, a1[0], 1)
    a_odd = all_ones_if_set(fn, odd)
    fn.emit("mov", Reg("y", 0), 1)
    for i in range(n):
        select(fn, Reg("y", 1 + i), a_odd, a1[i], b1[i])
        select(fn, Reg("y", 1 + w + i), a_odd, b1[i], a1[i])
    fn.emit("mov", Reg("y", n + 1), 0)
    fn.emit("mov", Reg("y", 1 + w + n), 0)
    fn.check()
    return fn


def _absolute(fn: Function, value: list[Reg]) -> list[Reg]:
    """|value| of a two's complement value: (value ^ s) - s, s its sign's mask."""
    sign = negative(fn, value[-1])
    flipped = fn.temps_list(len(value))
    for i, word in enumerate(value):
        fn.emit("xor", flipped[i], word, sign)
    out = fn.temps_list(len(value))
    fn.chain("sub", [(out[i], (flipped[i], sign)) for i in range(len(value))], carry_out=False)
    return out


def gcd_finish(size: Size) -> Function:
    """x = delta, f, g (g = 0), k; y = |f| << k."""
    n, w = size.limbs, size.limbs + 1
    fn = Function("gcd_finish", 2 + 2 * w, n)
    f = _absolute(fn, [Reg("x", 1 + i) for i in range(w)])[:n]
    shift_by(fn, f, Reg("x", 1 + 2 * w), _stages(size), left=True, out=[Reg("y", i) for i in range(n)])
    fn.check()
    return fn


def _modinv_state(size: Size) -> tuple[int, list[slice]]:
    """modinv's state, in words: delta, f, g (W words each), d, e, p, -p^-1 mod 2^32 (the
    round writes all but the last two): its length, and each part's slice."""
    n, w = size.limbs, size.limbs + 1
    lengths = [1, w, w, n, n, n, 1]
    ends = [sum(lengths[:k + 1]) for k in range(len(lengths))]
    return ends[-1], [slice(end - length, end) for end, length in zip(ends, lengths)]


def modinv_start(size: Size) -> Function:
    """x = a, p; y = delta = 1, f = p, g = a (W words each), d = 0, e = 1, p, -p^-1 mod 2^32."""
    n = size.limbs
    fn = Function("modinv_start", 2 * n, _modinv_state(size)[0])
    a, p = [Reg("x", i) for i in range(n)], [Reg("x", n + i) for i in range(n)]
    out = iter(Reg("y", i) for i in range(fn.out_words))
    for source in [1] + p + [0] + a + [0] + [0] * n + [1] + [0] * (n - 1) + p:
        fn.emit("mov", next(out), source)
    fn.emit("sub", next(out), 0, inverse_word(fn, p[0]))
    fn.check()
    return fn


def modinv_round(size: Size) -> Function:
    """x = delta, f, g (W words each), d, e, p, -p^-1 mod 2^32; y = the next delta, f, g, d, e."""
    words, parts = _modinv_state(size)
    fn = Function("modinv_round", words, parts[4].stop)
    x = [Reg("x", i) for i in range(fn.in_words)]
    y = [Reg("y", i) for i in range(fn.out_words)]
    (delta_in,), f, g, d, e, p, (minus_inverse,) = (x[part] for part in parts)
    delta, entries = matrix(fn, delta_in, f[0], g[0])
    fn.emit("mov", y[0], delta)
    _update_fg(fn, f, g, entries, y[parts[1]], y[parts[2]])
    u, v, q, r = entries
    _update_residue(fn, d, e, u, v, p, minus_inverse, y[parts[3]])
    _update_residue(fn, d, e, q, r, p, minus_inverse, y[parts[4]])
    fn.check()
    return fn


def modinv_finish(size: Size) -> Function:
    """x = the state (f = +-1 where a is invertible), p, -p^-1 mod 2^32; y = a^-1 mod p (d, or p - d
    where f = -1) and the flag: 1, and the result 0, where f is not +-1 or p is even."""
    n, w = size.limbs, size.limbs + 1
    words, parts = _modinv_state(size)
    fn = Function("modinv_finish", words, n + 1)
    x = [Reg("x", i) for i in range(fn.in_words)]
    f, d, p = x[parts[1]], x[parts[3]], x[parts[5]]
    low_one, low_minus, plus_one, minus_one = fn.temps_list(4)
    fn.emit("xor", low_one, f[0], 1)
    fn.emit("not", low_minus, f[0])
    rest_minus = fn.temps_list(w - 1)
    for i in range(1, w):
        fn.emit("not", rest_minus[i - 1], f[i])
    is_zero_word(fn, plus_one, or_all(fn, [low_one] + f[1:]))
    is_zero_word(fn, minus_one, or_all(fn, [low_minus] + rest_minus))
    ok = fn.temp()
    fn.emit("or", ok, plus_one, minus_one)
    fn.emit("and", ok, ok, p[0])
    fn.emit("and", ok, ok, 1)
    keep, negate = all_ones_if_set(fn, ok), all_ones_if_set(fn, minus_one)
    complement = fn.temps_list(n)
    fn.chain("sub", [(complement[i], (p[i], d[i])) for i in range(n)], carry_out=False)
    for i in range(n):
        value = fn.temp()
        select(fn, value, negate, complement[i], d[i])
        fn.emit("and", Reg("y", i), value, keep)
    fn.emit("xor", Reg("y", n), ok, 1)
    fn.check()
    return fn


def loop_call(start: str, round_: str, finish: str, size: Size) -> str:
    return f"::mpgen::loops::divsteps<{start}, {round_}, {finish}, {rounds(size.bits)}>(y, x);"


OPERATIONS = [
    LoopOperation("gcd", "the greatest common divisor of a and b (gcd(a, 0) = a; gcd(0, 0) = 0), the same "
                  "steps whatever the values (Bernstein and Yang's divsteps, in both tiers)", binary,
                  lambda s: loop_call("gcd_start", "gcd_round", "gcd_finish", s), lambda s: [], result=same_limbs,
                  steps=lambda s: [gcd_start(s), gcd_round(s), gcd_finish(s)]),
]
