"""The integer square root, one per thread, branch-free, by one of two methods (the one
measured faster for the size):

- digit by digit in base 4 (a restoring square root), below NEWTON_FROM_LIMBS limbs. Each
  step takes the next two bits of a from the top: with root r and remainder e (a's bits so
  far = r^2 + e), e' = 4 e + the two bits, and where e' >= 4 r + 1 the root's next bit is 1
  and e' -= 4 r + 1. Both r and e stay below 2^(16 limbs + 2), so a step works on half the
  limbs plus one. The loop (headers/loops.cuh, square_root_floor) feeds the steps a's bits by
  its counter.
- Newton's iteration from there, at doubling precision, on the root's H = ceil(limbs / 2)
  limbs: a' = a 4^k with one of its top two bits set; s = floor(sqrt(T)) for T the top 2
  limbs of a' (digit by digit on two words), then for T the top 2h limbs at each level h
  (levels: 2, 4, ... H, each at most twice the last): s extended by all-ones limbs (above
  sqrt(T), by less than 2^(32 (h - h')) for the last level's h'), one round s <- min(s,
  floor((s + floor(T / s)) / 2)) (a division of T by s, its top bit set: division.py's
  steps, unshifted) leaves s - sqrt(T) below (2^(32 (h - h')))^2 / 2^(32 h) <= 1 (s >=
  2^(32 h - 1)), so s is the root or one more: its square against T decides. Then
  floor(sqrt(a)) = s >> k, and the flag from the last level's square. About 4/3 of one
  division and square at H limbs, whatever a is (headers/loops.cuh, square_root_newton).
"""
from __future__ import annotations

from ..ir import Function, Reg
from ..size import Size
from . import division
from .bits import leading_zeros, shift_by
from .compare import all_ones_if_nonzero
from .mul import square
from .common import all_ones_if_borrow, select, unary
from .powers import LoopOperation

NEWTON_FROM_LIMBS = 4  # Newton's iteration from 128 bits (measured faster there)


def state_limbs(size: Size) -> int:
    """The root's and the remainder's limbs: r < 2^(16 limbs), e <= 2 r."""
    return size.limbs // 2 + 1


def step(size: Size) -> Function:
    """x = r, e (state_limbs each), the next two bits of a (0..3); y = the next r, e."""
    m = state_limbs(size)
    fn = Function("sqrt_step", 2 * m + 1, 2 * m)
    r, e, pair = [Reg("x", i) for i in range(m)], [Reg("x", m + i) for i in range(m)], Reg("x", 2 * m)
    shifted, trial, difference = fn.temps_list(m), fn.temps_list(m), fn.temps_list(m)
    for k in range(m):  # 4 e + the pair, and 4 r + 1
        if k == 0:
            fn.emit("shl", shifted[0], e[0], 2)
            fn.emit("or", shifted[0], shifted[0], pair)
            fn.emit("shl", trial[0], r[0], 2)
            fn.emit("or", trial[0], trial[0], 1)
        else:
            fn.emit("shf.l.clamp", shifted[k], e[k - 1], e[k], 2)
            fn.emit("shf.l.clamp", trial[k], r[k - 1], r[k], 2)
    fn.chain("sub", [(difference[k], (shifted[k], trial[k])) for k in range(m)])
    below = all_ones_if_borrow(fn)  # the next bit is 0
    bit = fn.temp()
    fn.emit("add", bit, below, 1)
    for k in range(m):
        if k == 0:
            fn.emit("shl", Reg("y", 0), r[0], 1)
            fn.emit("or", Reg("y", 0), Reg("y", 0), bit)
        else:
            fn.emit("shf.l.clamp", Reg("y", k), r[k - 1], r[k], 1)
        select(fn, Reg("y", m + k), below, shifted[k], difference[k])
    fn.check()
    return fn


def root_limbs(size: Size) -> int:
    """H: the root's limbs (a < 2^(64 H), so floor(sqrt(a)) < 2^(32 H))."""
    return (size.limbs + 1) // 2


def levels(size: Size) -> list[int]:
    """The root's limbs at each level after the first (1 limb, the top 64 bits' root): each
    at most twice the one before, the last H (H = 1: one level, whose square gives the flag)."""
    found = [root_limbs(size)]
    while found[-1] > 1:
        found.append((found[-1] + 1) // 2)
    return found[::-1][1:] or [1]


def top_root(fn: Function, high: Reg, low: Reg) -> Reg:
    """floor(sqrt(high 2^32 + low)) (one word), digit by digit: 32 steps on one word of
    root and two of remainder (e <= 2 r < 2^33)."""
    root, rest_low, rest_high = fn.temp(), fn.temp(), fn.temp()
    for reg in (root, rest_low, rest_high):
        fn.emit("mov", reg, 0)
    for i in range(32):
        word, at = (high, 30 - 2 * i) if i < 16 else (low, 62 - 2 * i)
        pair, e_low, e_high, t_low, t_high, d_low, d_high = (fn.temp() for _ in range(7))
        fn.emit("shr", pair, word, at)
        fn.emit("and", pair, pair, 3)
        fn.emit("shf.l.clamp", e_high, rest_low, rest_high, 2)  # 4 e + the pair
        fn.emit("shl", e_low, rest_low, 2)
        fn.emit("or", e_low, e_low, pair)
        fn.emit("shl", t_low, root, 2)  # 4 r + 1
        fn.emit("or", t_low, t_low, 1)
        fn.emit("shr", t_high, root, 30)
        fn.emit("sub.cc", d_low, e_low, t_low)
        fn.emit("subc.cc", d_high, e_high, t_high)
        below = all_ones_if_borrow(fn)  # the root's next bit is 0
        next_low, next_high, bit, doubled = fn.temp(), fn.temp(), fn.temp(), fn.temp()
        select(fn, next_low, below, e_low, d_low)
        select(fn, next_high, below, e_high, d_high)
        fn.emit("add", bit, below, 1)
        fn.emit("shl", doubled, root, 1)
        fn.emit("or", doubled, doubled, bit)
        root, rest_low, rest_high = doubled, next_low, next_high
    return root


def newton_start(size: Size) -> Function:
    """x = a (limbs); y = a' = a 4^k (2H limbs; one of its top two bits set, 0 for a = 0),
    the root's H limbs (the top 64 bits' root in the top one, the others 0), k, and all
    ones where a != 0."""
    n, h = size.limbs, root_limbs(size)
    fn = Function("sqrt_newton_start", n, 3 * h + 2)
    a: list = [Reg("x", i) for i in range(n)]
    if 2 * h > n:
        zero = fn.temp()
        fn.emit("mov", zero, 0)
        a.append(zero)
    zeros, even, half = fn.temp(), fn.temp(), fn.temp()
    leading_zeros(fn, zeros, a)
    fn.emit("and", even, zeros, 0xFFFFFFFE)
    fn.emit("shr", half, even, 1)
    normal = shift_by(fn, a, even, (2 * h - 1).bit_length(), left=True)
    top = top_root(fn, normal[-1], normal[-2])
    nonzero = all_ones_if_nonzero(fn, a)
    for i, src in enumerate(normal + [0] * (h - 1) + [top, half, nonzero]):
        fn.emit("mov", Reg("y", i), src)
    fn.check()
    return fn


def newton_update(h: int) -> Function:
    """x = s (h limbs), q = floor(T / s) (h), the division's flag (1 where q does not fit h
    limbs: then q > s); y = min(s, floor((s + q) / 2)), s where flagged."""
    fn = Function(f"sqrt_newton_update_{h}", 2 * h + 1, h)
    s, q, flag = [Reg("x", i) for i in range(h)], [Reg("x", h + i) for i in range(h)], Reg("x", 2 * h)
    total, carry = fn.temps_list(h), fn.temp()
    fn.chain("add", [(total[i], (s[i], q[i])) for i in range(h)])
    fn.emit("addc", carry, 0, 0)
    mean = fn.temps_list(h)
    for i in range(h):
        fn.emit("shf.r.clamp", mean[i], total[i], total[i + 1] if i + 1 < h else carry, 1)
    fn.chain("sub", [(fn.temp(), (mean[i], s[i])) for i in range(h)])
    smaller, fits, take = all_ones_if_borrow(fn), fn.temp(), fn.temp()
    fn.emit("sub", fits, flag, 1)  # all ones where the quotient fits
    fn.emit("and", take, smaller, fits)
    for i in range(h):
        select(fn, Reg("y", i), take, mean[i], s[i])
    fn.check()
    return fn


def newton_check(h: int) -> Function:
    """x = s (h limbs, floor(sqrt(T)) or one more), T (2h); y = floor(sqrt(T)) (s - 1
    where s^2 > T), then 1 where T is a square (s^2 = T, or s^2 - T = 2 s - 1), else 0."""
    fn = Function(f"sqrt_newton_check_{h}", 3 * h, h + 1)
    s, t = [Reg("x", i) for i in range(h)], [Reg("x", h + i) for i in range(2 * h)]
    square_words = fn.temps_list(2 * h)
    square(fn, square_words, s, 2 * h)
    difference = fn.temps_list(2 * h)
    fn.chain("sub", [(difference[i], (square_words[i], t[i])) for i in range(2 * h)])
    below = all_ones_if_borrow(fn)  # s^2 < T: s is the root
    twice = fn.temps_list(h + 1)  # 2 s - 1
    fn.emit("shl", twice[0], s[0], 1)
    for i in range(1, h):
        fn.emit("shf.l.clamp", twice[i], s[i - 1], s[i], 1)
    fn.emit("shr", twice[h], s[h - 1], 31)
    fn.chain("sub", [(twice[i], (twice[i], 1 if i == 0 else 0)) for i in range(h + 1)], carry_out=False)
    nonzero, off_by_one = fn.temp(), fn.temp()
    fn.emit("mov", nonzero, 0)
    fn.emit("mov", off_by_one, 0)
    for i in range(2 * h):
        bits = fn.temp()
        fn.emit("or", nonzero, nonzero, difference[i])
        fn.emit("xor", bits, difference[i], twice[i] if i <= h else 0)
        fn.emit("or", off_by_one, off_by_one, bits)
    over, is_zero, is_odd_gap = fn.temp(), fn.temp(), fn.temp()
    fn.emit("sub.cc", fn.temp(), 0, nonzero)
    fn.emit("subc", over, 0, 0)  # all ones where s^2 != T
    fn.emit("not", is_zero, over)
    fn.emit("not", below, below)
    fn.emit("and", over, over, below)  # s^2 > T: one less
    fn.chain("add", [(Reg("y", i), (s[i], over)) for i in range(h)], carry_out=False)
    fn.emit("sub.cc", fn.temp(), 0, off_by_one)
    fn.emit("subc", is_odd_gap, 0, 0)
    fn.emit("add", is_odd_gap, is_odd_gap, 1)  # 1 where s^2 - T = 2 s - 1
    fn.emit("and", Reg("y", h), is_zero, 1)
    fn.emit("or", Reg("y", h), Reg("y", h), is_odd_gap)
    fn.check()
    return fn


def newton_root(size: Size) -> Function:
    """x = s = floor(sqrt(a')) (H), k, a's nonzero mask, whether a' is a square; y = s >> k
    (0 for a = 0), then the flag: 1 where a is a square (a = 0 too)."""
    n, h = size.limbs, root_limbs(size)
    fn = Function("sqrt_newton_root", h + 3, n + 1)
    s, half, nonzero, exact = [Reg("x", i) for i in range(h)], Reg("x", h), Reg("x", h + 1), Reg("x", h + 2)
    shifted = shift_by(fn, s, half, (h - 1).bit_length(), left=False)
    for i in range(n):
        if i < h:
            fn.emit("and", Reg("y", i), shifted[i], nonzero)
        else:
            fn.emit("mov", Reg("y", i), 0)
    zero = fn.temp()
    fn.emit("not", zero, nonzero)
    fn.emit("or", Reg("y", n), exact, zero)
    fn.emit("and", Reg("y", n), Reg("y", n), 1)
    fn.check()
    return fn


def newton(size: Size) -> bool:
    return size.limbs >= NEWTON_FROM_LIMBS


def _steps(size: Size) -> list[Function]:
    if not newton(size):
        return [step(size)]
    found = [newton_start(size), newton_root(size)]
    for h in levels(size):
        half = Size(32 * h)
        found += [division.normalize(half, f"sqrt_division_normalize_{h}", normal=True),
                  division.step(half, f"sqrt_division_step_{h}"), division.finish(half, f"sqrt_division_finish_{h}"),
                  newton_update(h), newton_check(h)]
    return found


def _call(size: Size) -> str:
    if not newton(size):
        return f"::mpgen::loops::square_root_floor<sqrt_step, limbs, bits, {state_limbs(size)}>(y, x);"
    steps, below = [], 1
    for h in levels(size):
        steps.append(f"::mpgen::loops::root_level<sqrt_division_normalize_{h}, sqrt_division_step_{h}, "
                     f"sqrt_division_finish_{h}, sqrt_newton_update_{h}, sqrt_newton_check_{h}, {below}, {h}>")
        below = h
    return (f"::mpgen::loops::square_root_newton<sqrt_newton_start, sqrt_newton_root, limbs, {root_limbs(size)}, "
            + ", ".join(steps) + ">(y, x);")


OPERATIONS = [
    LoopOperation("sqrt", "floor(sqrt(a)); flag 1 where a is an exact square: digit by digit (a step per bit "
                  f"of the root) below {32 * NEWTON_FROM_LIMBS} bits, from there Newton's iteration at doubling "
                  "precision (a division and a square a level), the same steps whatever a is", unary,
                  _call, lambda s: [], flag=True, steps=_steps),
]
