"""The group tier's gcd and modular inverse with p at run time (docs/group-tier.md): the
per-thread tier's rounds of Bernstein and Yang's divsteps (thread/gcd.py) over the group.

A round reads the low words of f and g (thread 0's, one broadcast) and every thread
computes the same matrix of 30 divsteps from them (thread/gcd.py's `matrix`: one list for
both tiers); then the whole numbers take it, (f, g) = (u f + v g, q f + r g) / 2^30, and
for modinv (d, e) likewise plus m p, m making the sum a multiple of 2^30 (libsecp256k1's
modinv32: d and e stay in (-2p, p)). modinv runs `rounds(bits)` rounds whatever the values;
gcd ends once g = 0 throughout the warp or block (further rounds would change nothing), its
time depending on the values (about 0.72 of the rounds for random operands at 4096 bits).

The signed numbers are two's complement over the group's limbs and one more word, the
sign word, which the top thread holds (0 in the others). A combination c1 X1 + c2 X2 over
the group runs with carries only upward: a negative c takes |c| times X's complement plus
|c| (-X = ~X + 1 over the whole width), the |c|s added in thread 0; each thread's part is
Q + 1 words, its high word passed to the thread above (ShiftUp), one carry scan a number;
then the division by 2^30 takes each thread's top word from the thread above (ShiftDown).

    gcd:    k = the trailing zeros of a | b (a stage a bit of k, from the top), f the odd
            one of a / 2^k, b / 2^k, g the other; after the rounds g = 0, gcd = |f| 2^k
    modinv: (f, g, d, e) = (p, a, 0, 1) with d a = f and e a = g (mod p); where f ends at
            +-1, a^-1 = +-d, brought into [0, p) by two more combinations"""
from __future__ import annotations

from collections.abc import Sequence

from ..ir import Function, Reg
from ..thread.common import all_ones_if_set, inverse_word, select
from ..thread.gcd import SHIFT, conditional_negate, matrix, negative, rounds
from .addsub import propagate_bit
from .bits import shift_constant, shift_variable
from .compare import compare
from .compose import Composer
from .division import zero_word
from .program import All, Broadcast, CarryScan, Program, Shape, ShiftDown, ShiftUp, ThreadStep
from .words import all_ones, either, moved, select_by_bit, zero_where

# A term of a combination: (the coefficient's index, the number's index).
Terms = Sequence[tuple[int, int]]


def set_bit(k: int) -> Function:
    """y = x[0] | x[1] << k: bit k of the shift count."""
    fn = Function(f"set_bit{k}", 2, 1)
    moved = fn.temp()
    fn.emit("shl", moved, Reg("x", 1), k)
    fn.emit("or", Reg("y", 0), Reg("x", 0), moved)
    fn.check()
    return fn


def combination(q: int, numbers: int, extra: int, coefficients: int, outputs: Sequence[Terms]) -> Function:
    """x = `numbers` signed numbers (Q limbs and the sign word each), `extra` nonnegative
    ones (Q limbs: p), `coefficients` signed words, then the masks first and top (all ones
    in thread 0, in the top thread); y = each output's Q low words, then each output's
    high word: this thread's part of the sum of c X over its terms, mod 2^(32 (Q + 1))."""
    name = "combination_" + "_".join("".join(f"{k}{n}" for k, n in terms) for terms in outputs)
    fn = Function(f"{name}_of{numbers}_{extra}_{coefficients}", numbers * (q + 1) + extra * q + coefficients + 2,
                  len(outputs) * (q + 1))
    words = numbers * (q + 1) + extra * q
    first, top = Reg("x", words + coefficients), Reg("x", words + coefficients + 1)
    signs, sizes = {}, {}
    for k in range(coefficients):
        c = Reg("x", words + k)
        signs[k] = negative(fn, c)
        sizes[k] = conditional_negate(fn, c, signs[k])
    for out, terms in enumerate(outputs):
        acc, plus = fn.temps_list(q + 1), fn.temp()  # plus: the |c| of each negative c (-X = ~X + 1)
        for n, (k, number) in enumerate(terms):
            s, size = signs[k], sizes[k]
            base = number * (q + 1) if number < numbers else numbers * (q + 1) + (number - numbers) * q
            x = fn.temps_list(q + 1)
            for i in range(q):
                fn.emit("xor", x[i], Reg("x", base + i), s)
            if number < numbers:
                fn.emit("xor", x[q], Reg("x", base + q), s)
                fn.emit("and", x[q], x[q], top)
            else:
                fn.emit("and", x[q], s, top)  # the complement of a sign word of 0
            if n == 0:
                for i in range(q + 1):
                    fn.emit("mul.lo", acc[i], size, x[i])
                fn.emit("and", plus, size, s)
            else:
                fn.chain("mad.lo", [(acc[i], (size, x[i], acc[i])) for i in range(q + 1)], carry_out=False)
                added = fn.temp()
                fn.emit("and", added, size, s)
                fn.emit("add", plus, plus, added)
            fn.chain("mad.hi", [(acc[i + 1], (size, x[i], acc[i + 1])) for i in range(q)], carry_out=False)
        fn.emit("and", plus, plus, first)
        fn.chain("add", [(acc[0], (acc[0], plus))] + [(acc[i], (acc[i], 0)) for i in range(1, q + 1)],
                 carry_out=False)
        for i in range(q):
            fn.emit("mov", Reg("y", out * q + i), acc[i])
        fn.emit("mov", Reg("y", len(outputs) * q + out), acc[q])
    fn.check()
    return fn


def absorb(q: int, k: int) -> Function:
    """x = k parts' low words (Q each), the high words of the thread below (k); y = their
    sums, then each sum's carry out (generate), then whether a carry in would pass it."""
    fn = Function(f"absorb{k}", k * q + k, k * q + 2 * k)
    for j in range(k):
        low, below = [Reg("x", j * q + i) for i in range(q)], Reg("x", k * q + j)
        s = [Reg("y", j * q + i) for i in range(q)]
        fn.chain("add", [(s[0], (low[0], below))] + [(s[i], (low[i], 0)) for i in range(1, q)])
        fn.emit("addc", Reg("y", k * q + j), 0, 0)
        propagate_bit(fn, s, False, Reg("y", k * q + k + j))
    fn.check()
    return fn


def settle(q: int, k: int) -> Function:
    """x = the sums (k Q), their carries in (k), the carries out of the top thread (k), the
    parts' high words (k), the mask top; y = the k numbers (Q limbs, then the sign word:
    the top thread's high word and carry out, 0 in the others), then their lowest words."""
    fn = Function(f"settle{k}", k * q + 3 * k + 1, k * (q + 1) + k)
    top = Reg("x", k * q + 3 * k)
    for j in range(k):
        s, carry = [Reg("x", j * q + i) for i in range(q)], Reg("x", k * q + j)
        out, high = Reg("x", k * q + k + j), Reg("x", k * q + 2 * k + j)
        y = [Reg("y", j * (q + 1) + i) for i in range(q + 1)]
        fn.chain("add", [(y[0], (s[0], carry))] + [(y[i], (s[i], 0)) for i in range(1, q)], carry_out=False)
        fn.emit("add", y[q], high, out)
        fn.emit("and", y[q], y[q], top)
        fn.emit("mov", Reg("y", k * (q + 1) + j), y[0])
    fn.check()
    return fn


def divide(q: int, k: int) -> Function:
    """x = k numbers (Q + 1 words), the lowest words of the thread above (k), the mask top;
    y = each number / 2^30 (exact): the top thread's limbs take the sign word from above."""
    fn = Function(f"divide_by_2_30_{k}", k * (q + 2) + 1, k * (q + 1))
    top = Reg("x", k * (q + 2))
    for j in range(k):
        n = [Reg("x", j * (q + 1) + i) for i in range(q + 1)]
        above, y = fn.temp(), [Reg("y", j * (q + 1) + i) for i in range(q + 1)]
        select(fn, above, top, n[q], Reg("x", k * (q + 1) + j))
        for i in range(q):
            fn.emit("shf.r.clamp", y[i], n[i], n[i + 1] if i + 1 < q else above, SHIFT)
        spread = fn.temp()  # the sign word's arithmetic shift: its sign into the top bits
        fn.emit("shl", spread, negative(fn, n[q]), 32 - SHIFT)
        fn.emit("shr", y[q], n[q], SHIFT)
        fn.emit("or", y[q], y[q], spread)
    fn.check()
    return fn


class _Numbers:
    """The steps of a gcd or modinv program: its masks, and combinations of signed numbers."""

    def __init__(self, shape: Shape):
        shape.check()
        self.shape, self.q = shape, shape.limbs_per_thread
        self.c = Composer(shape)
        self.c.step(ThreadStep(all_ones(), (), (("ones", 1),)))
        self.c.step(ShiftUp("ones", None, "below_first"))
        self.c.step(ShiftDown("ones", "below_top"))
        self.c.step(ThreadStep(_masks(), ("below_first", "below_top"), (("first", 1), ("top", 1))))

    def sign_limb(self, number: int, numbers: int) -> int:
        """The limb index (over the group) of a number's sign word, for Broadcast."""
        q = self.q
        return (self.shape.threads - 1) * numbers * (q + 1) + number * (q + 1) + q

    def combine(self, c: Composer, prefix: str, sources: tuple[str, ...], numbers: int, coefficients: str, count: int,
                outputs: Sequence[Terms], out: str, divided: bool) -> None:
        """out = the outputs' numbers (Q + 1 words each): sums of c X over their terms,
        divided by 2^30 where `divided`; sources = a vector of `numbers` numbers, then
        Q-limb nonnegative ones."""
        q, k = self.q, len(outputs)
        fn = combination(q, numbers, len(sources) - 1, count, outputs)
        c.step(ThreadStep(fn, sources + (coefficients, "first", "top"), ((f"{prefix}_part", k * q), (f"{prefix}_high", k))))
        c.step(ShiftUp(f"{prefix}_high", None, f"{prefix}_below", limbs=k))
        generate, propagate = [f"{prefix}_generate{j}" for j in range(k)], [f"{prefix}_propagate{j}" for j in range(k)]
        c.step(ThreadStep(absorb(q, k), (f"{prefix}_part", f"{prefix}_below"),
                          ((f"{prefix}_sum", k * q),) + tuple((g, 1) for g in generate + propagate)))
        carries, outs = [f"{prefix}_carry{j}" for j in range(k)], [f"{prefix}_out{j}" for j in range(k)]
        for j in range(k):
            c.step(CarryScan(generate[j], propagate[j], None, carries[j], outs[j]))
        settled = f"{prefix}_settled" if divided else out
        c.step(ThreadStep(settle(q, k), (f"{prefix}_sum", *carries, *outs, f"{prefix}_high", "top"),
                          ((settled, k * (q + 1)), (f"{prefix}_lowest", k))))
        if divided:
            c.step(ShiftDown(f"{prefix}_lowest", f"{prefix}_above", limbs=k))
            c.step(ThreadStep(divide(q, k), (settled, f"{prefix}_above", "top"), ((out, k * (q + 1)),)))

    def strip_twos(self, a: str, b: str) -> tuple[str, str, str]:
        """(a / 2^k, b / 2^k, k) for k the trailing zeros of a | b (all of its count's bits
        set where both are 0), a stage for each bit of k from the top."""
        shape, q, c = self.shape, self.q, self.c
        c.step(ThreadStep(either(q), (a, b), (("either", q),)))
        c.step(ThreadStep(zero_word(), (), (("shift", 1),)))
        values = {"a": a, "b": b, "either": "either"}
        for k in reversed(range((shape.bits - 1).bit_length())):
            amount = 1 << k
            low = c.call(shift_constant("shl", shape.bits - amount, shape), values["either"]).result
            empty = c.call(compare("is_zero", shape), low).result
            for name, value in values.items():
                shifted = c.call(shift_constant("shr", amount, shape), value).result
                c.step(ThreadStep(select_by_bit(q), (value, shifted, empty), ((f"{name}{k}", q),)))
                values[name] = f"{name}{k}"
            c.step(ThreadStep(set_bit(k), ("shift", empty), (("shift", 1),)))
        return values["a"], values["b"], "shift"


def _masks() -> Function:
    """x = all ones shifted up a thread, and down a thread; y = the masks first and top."""
    fn = Function("first_and_top", 2, 2)
    fn.emit("not", Reg("y", 0), Reg("x", 0))
    fn.emit("not", Reg("y", 1), Reg("x", 1))
    fn.check()
    return fn


def gcd_start(q: int) -> Function:
    """x = u, v (Q each), u's low word; y = f, g (Q limbs and a sign word 0 each: f the odd
    one of u, v, u where both are), delta = 1."""
    fn = Function("gcd_start", 2 * q + 1, 2 * (q + 1) + 1)
    odd = fn.temp()
    fn.emit("and", odd, Reg("x", 2 * q), 1)
    u_odd = all_ones_if_set(fn, odd)
    for i in range(q):
        select(fn, Reg("y", i), u_odd, Reg("x", i), Reg("x", q + i))
        select(fn, Reg("y", q + 1 + i), u_odd, Reg("x", q + i), Reg("x", i))
    for word, value in ((q, 0), (2 * q + 1, 0), (2 * q + 2, 1)):
        fn.emit("mov", Reg("y", word), value)
    fn.check()
    return fn


def gcd_matrix() -> Function:
    """x = delta, f's and g's low words; y = the next delta, u, v, q, r."""
    fn = Function("divsteps_matrix", 3, 5)
    delta, entries = matrix(fn, Reg("x", 0), Reg("x", 1), Reg("x", 2))
    for i, word in enumerate([delta] + entries):
        fn.emit("mov", Reg("y", i), word)
    fn.check()
    return fn


def modinv_matrix() -> Function:
    """x = delta, the low words of f, g, d, e, the sign words of d and e, p^-1 mod 2^32;
    y = the next delta, u, v, q, r, then md, me: the multiples of p that d's and e's
    combinations take so that they divide by 2^30 (libsecp256k1's modinv32: p added where
    d or e is negative, then the low 30 bits made zero)."""
    fn = Function("divsteps_residues", 8, 7)
    x = [Reg("x", i) for i in range(8)]
    delta, entries = matrix(fn, x[0], x[1], x[2])
    u, v, q, r = entries
    sd, se = negative(fn, x[5]), negative(fn, x[6])
    found = []
    for a, b in ((u, v), (q, r)):
        m, t, low = fn.temp(), fn.temp(), fn.temp()
        fn.emit("and", m, a, sd)
        fn.emit("and", t, b, se)
        fn.emit("add", m, m, t)
        fn.emit("mul.lo", low, a, x[3])  # the combination's low word
        fn.emit("mul.lo", t, b, x[4])
        fn.emit("add", low, low, t)
        fn.emit("mul.lo", low, low, x[7])
        fn.emit("add", low, low, m)
        fn.emit("and", low, low, (1 << SHIFT) - 1)
        fn.emit("sub", m, m, low)
        found.append(m)
    for i, word in enumerate([delta] + entries + found):
        fn.emit("mov", Reg("y", i), word)
    fn.check()
    return fn


FG = ((0, 0), (1, 1)), ((2, 0), (3, 1))  # f' = u f + v g, g' = q f + r g


def gcd(shape: Shape) -> Program:
    """gcd(a, b), gcd(a, 0) = a, gcd(0, 0) = 0: the per-thread tier's contract. Its rounds
    end once g = 0 in every thread of the warp (or block): not constant time (modinv is)."""
    g = _Numbers(shape)
    q, c = g.q, g.c
    u, v, shift = g.strip_twos("a", "b")
    c.step(Broadcast(u, (0,), "u_low"))
    c.step(ThreadStep(gcd_start(q), (u, v, "u_low"), (("fg", 2 * (q + 1)), ("delta", 1))))

    def round_(body: Composer) -> None:
        body.step(Broadcast("fg", (0, q + 1), "low"))
        body.step(ThreadStep(gcd_matrix(), ("delta", "low"), (("delta", 1), ("matrix", 4))))
        g.combine(body, "round", ("fg",), 2, "matrix", 4, FG, "fg", divided=True)
        body.step(ThreadStep(g_is_zero(q), ("fg",), (("g_zero", 1),)))
    c.repeat(rounds(shape.bits), round_, until="g_zero")  # further rounds would change nothing
    c.step(Broadcast("fg", (g.sign_limb(0, 2),), "f_sign"))
    c.step(ThreadStep(_plus_or_minus_one(), ("f_sign",), (("sign", 1),)))
    g.combine(c, "absolute", ("fg",), 2, "sign", 1, (((0, 0),),), "absolute", divided=False)
    c.step(ThreadStep(moved("limbs", q + 1, range(q)), ("absolute",), (("odd_part", q),)))
    c.call(shift_variable("shl", shape), "odd_part", shift, into="y")
    return Program("gcd", shape, ("a", "b"), (), tuple(c.steps), "y", None)


def _plus_or_minus_one() -> Function:
    """x = a sign word; y = -1 where it is negative, else 1."""
    fn = Function("plus_or_minus_one", 1, 1)
    fn.emit("or", Reg("y", 0), negative(fn, Reg("x", 0)), 1)
    fn.check()
    return fn


def modinv_start(q: int) -> Function:
    """x = a, p (Q each), p's low word, the mask first; y = f = p, g = a, d = 0, e = 1 (Q
    limbs and a sign word 0 each), delta = 1, p^-1 mod 2^32."""
    fn = Function("modinv_start", 2 * q + 2, 4 * (q + 1) + 2)
    a, p = [Reg("x", i) for i in range(q)], [Reg("x", q + i) for i in range(q)]
    one = fn.temp()
    fn.emit("and", one, Reg("x", 2 * q + 1), 1)
    sources = p + [0] + a + [0] + [0] * (q + 1) + [one] + [0] * q + [1]
    for i, source in enumerate(sources):
        fn.emit("mov", Reg("y", i), source)
    fn.emit("mov", Reg("y", len(sources)), inverse_word(fn, Reg("x", 2 * q)))
    fn.check()
    return fn


def unit_parts(q: int) -> Function:
    """x = f (Q limbs and the sign word), the masks first and top; y = whether this
    thread's words are those of 1, and of -1 (bit 0 of each: All reads them)."""
    fn = Function("unit_parts", q + 3, 2)
    f, first, top = [Reg("x", i) for i in range(q + 1)], Reg("x", q + 1), Reg("x", q + 2)
    one_low, off_one, off_minus = fn.temp(), fn.temp(), fn.temps_list(q + 1)
    fn.emit("and", one_low, first, 1)
    fn.emit("xor", off_one, f[0], one_low)
    for i in range(q):
        fn.emit("not", off_minus[i], f[i])
    fn.emit("xor", off_minus[q], f[q], top)
    propagate_bit(fn, [off_one] + f[1:], True, Reg("y", 0))  # 1 where all of them are 0
    propagate_bit(fn, off_minus, True, Reg("y", 1))
    fn.check()
    return fn


def g_is_zero(q: int) -> Function:
    """x = f, g (Q limbs and the sign word each); y = 1 where this thread's words of g are 0."""
    fn = Function("g_is_zero", 2 * (q + 1), 1)
    propagate_bit(fn, [Reg("x", i) for i in range(q + 1, 2 * (q + 1))], True, Reg("y", 0))
    fn.check()
    return fn


def sign_coefficients() -> Function:
    """x = whether f = -1, d's sign word; y = s, s where d < 0 (else 0): s d + s p [d < 0],
    s = -1 where f = -1, else 1."""
    fn = Function("sign_coefficients", 2, 2)
    s = fn.temp()
    fn.emit("or", s, all_ones_if_set(fn, Reg("x", 0)), 1)
    fn.emit("mov", Reg("y", 0), s)
    fn.emit("and", Reg("y", 1), s, negative(fn, Reg("x", 1)))
    fn.check()
    return fn


def add_if_negative() -> Function:
    """x = a sign word; y = 1, then 1 where it is negative (else 0)."""
    fn = Function("add_if_negative", 1, 2)
    fn.emit("mov", Reg("y", 0), 1)
    fn.emit("shr", Reg("y", 1), Reg("x", 0), 31)
    fn.check()
    return fn


def no_inverse() -> Function:
    """x = f is 1, f is -1, p's low word; y = 1 where neither, or p is even."""
    fn = Function("no_inverse", 3, 1)
    fn.emit("or", Reg("y", 0), Reg("x", 0), Reg("x", 1))
    fn.emit("and", Reg("y", 0), Reg("y", 0), Reg("x", 2))
    fn.emit("and", Reg("y", 0), Reg("y", 0), 1)
    fn.emit("xor", Reg("y", 0), Reg("y", 0), 1)
    fn.check()
    return fn


DE = ((0, 2), (1, 3), (4, 4)), ((2, 2), (3, 3), (5, 4))  # d' = u d + v e + md p, e' likewise


def modinv(shape: Shape) -> Program:
    """a^-1 mod p for a < p, p odd: flag 1 and every result word 0 where gcd(a, p) > 1 or p
    is even (the per-thread tier's contract)."""
    g = _Numbers(shape)
    q, c = g.q, g.c
    state = 4 * (q + 1)
    c.step(Broadcast("p", (0,), "p_low"))
    c.step(ThreadStep(modinv_start(q), ("a", "p", "p_low", "first"),
                      (("fgde", state), ("delta", 1), ("p_inverse", 1))))

    def round_(body: Composer) -> None:
        body.step(Broadcast("fgde", (0, q + 1, 2 * (q + 1), 3 * (q + 1), g.sign_limb(2, 4), g.sign_limb(3, 4)),
                            "low"))
        body.step(ThreadStep(modinv_matrix(), ("delta", "low", "p_inverse"), (("delta", 1), ("matrix", 6))))
        g.combine(body, "round", ("fgde", "p"), 4, "matrix", 6, FG + DE, "fgde", divided=True)
    c.repeat(rounds(shape.bits), round_)
    c.step(ThreadStep(moved("f", state, range(q + 1)), ("fgde",), (("f", q + 1),)))
    c.step(ThreadStep(unit_parts(q), ("f", "first", "top"), (("one_part", 1), ("minus_part", 1))))
    c.step(All("one_part", "is_one"))
    c.step(All("minus_part", "is_minus_one"))
    c.step(Broadcast("fgde", (g.sign_limb(2, 4),), "d_sign"))
    c.step(ThreadStep(sign_coefficients(), ("is_minus_one", "d_sign"), (("signs", 2),)))
    g.combine(c, "signed", ("fgde", "p"), 4, "signs", 2, (((0, 2), (1, 4)),), "signed", divided=False)
    c.step(Broadcast("signed", (g.sign_limb(0, 1),), "signed_sign"))
    c.step(ThreadStep(add_if_negative(), ("signed_sign",), (("lift", 2),)))
    g.combine(c, "lifted", ("signed", "p"), 1, "lift", 2, (((0, 0), (1, 1)),), "inverse", divided=False)
    c.step(ThreadStep(no_inverse(), ("is_one", "is_minus_one", "p_low"), (("no_inverse", 1),)))
    c.step(ThreadStep(moved("limbs", q + 1, range(q)), ("inverse",), (("inverse_limbs", q),)))
    c.step(ThreadStep(zero_where(q), ("inverse_limbs", "no_inverse"), (("y", q),)))
    return Program("modinv", shape, ("a", "p"), (), tuple(c.steps), "y", "no_inverse")


PLANNERS = {"gcd": gcd, "modinv": modinv}
