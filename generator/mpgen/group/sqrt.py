"""The group tier's integer square root (docs/group-tier.md): digit by digit, a digit of Q
limbs (a thread's, radix beta = 2^(32 Q)) a step, as CGBN's core_sqrt_multi and
Zimmermann's basecase square root, every step the division's (group/division.py) with a
divisor that grows by the digit it finds, nothing branching on a:

    a' = a 4^k                      one of its top two bits set (the division's
                                    normalization stages give a's leading zeros)
    A = a' / 4, b = a' mod 4        so that A's root s has its top bit one below its
                                    T / 2 digits' top and D = 2 s is normalized
    s1 = floor(sqrt(A's top 2 digits)), R = those digits - s1^2
                                    in every thread, one list: the top two limbs' root,
                                    then the same steps a limb at a time (first_digit)
    D = 2 s1 at the top of the vector (thread T - 1), W = R beta^(T - 1) + (A's other
    digits) beta; then T/2 - 1 times, the slot the thread below D's lowest digit:
      e = floor(N / D) or one more  N = W moved up a thread (W's top limbs above the held
                                    width): the division's estimate, raised by 2^-30
      W = N - e (D + e at the slot) (D beta + e) e: one Q-by-Q product a thread, the
                                    excess up a thread, one borrow scan; the word above
                                    the held width goes negative where e is too big
      where that word is negative: e - 1, W + D + (2 e - 1) at the slot
                                    e exceeds the digit by at most 3 at the first step
                                    (D >= beta / 2), 2 at the others (D >= beta^2 / 2):
                                    as many masked rounds, one carry scan each
      D = D + 2 e at the slot       2 e's carry into the thread above, whose digit is
                                    even: no carry past it
    s = D / 2 (A's root), R = W / beta^(T/2) (A - s^2)
    floor(sqrt(a')) = 2 s + c       c = 1 where (2 s + 1)^2 <= 4 A + b: R + [b > 0] > s, so
                                    s < R, or s = R and b > 0
    floor(sqrt(a)) = that / 2^k     0 for a = 0; flag 1 where a' is a square (R = 0 and
                                    b = 0 for c = 0, R = s and b = 1 for c = 1) or a = 0

A step costs a thread one Q-by-Q product for its digit and one for the estimate, like the
division's; the reciprocal of D's top Q + 1 limbs is taken at the first step and once more
at the second (D's top limbs do not change after it).

Where the group spans blocks (data/group.toml's [sqrt] newton_from_bits), each of those
steps' scans crosses the blocks; there sqrt goes by Newton's inverse square root instead
(_inverse_root, _root_by_newton): a dozen steps of three products of the tier at the held
width from the first digit's root, then one product and one square."""
from __future__ import annotations

from ..ir import Function, Reg
from ..thread.columns import Columns
from ..thread.common import select
from ..thread.compare import all_ones_if_nonzero
from ..thread.division import estimate_digit, word_reciprocal
from ..thread.sqrt import top_root
from .addsub import add_or_sub
from .bits import shift_constant, shift_variable
from .compare import compare
from .compose import Composer
from .division import Division, block_reciprocal, estimate, held_shape, lowered_where_negative, multiply_subtract
from .montgomery import constants
from . import newton
from .ntt import auto_mul, auto_sqr
from .program import Broadcast, Program, Shape, ShiftDown, ShiftUp, ThreadStep
from .words import all_ones, copy, either, not_bit, select_by_bit, zero_where

# The masked add-backs a step: e's excess over the digit at the first step (D < beta), then.
FIRST_ROUNDS, ROUNDS = 3, 2


def shift_halves() -> Function:
    """x = a's leading zeros z; y = z mod 2 (a 2^z moved back to a 4^k), k = floor(z / 2)."""
    fn = Function("sqrt_shift_halves", 1, 2)
    fn.emit("and", Reg("y", 0), Reg("x", 0), 1)
    fn.emit("shr", Reg("y", 1), Reg("x", 0), 1)
    fn.check()
    return fn


def _twice(fn: Function, e: list[Reg]) -> tuple[list[Reg], Reg]:
    """2 e's low Q limbs and its carry bit."""
    q = len(e)
    low = fn.temps_list(q)
    fn.emit("shl", low[0], e[0], 1)
    for i in range(1, q):
        fn.emit("shf.l.clamp", low[i], e[i - 1], e[i], 1)
    carry = fn.temp()
    fn.emit("shr", carry, e[q - 1], 31)
    return low, carry


def _limb_step(fn: Function, root: list[Reg], rest: list[Reg], high: Reg, low: Reg, reciprocal: Reg,
               rounds: int) -> tuple[list[Reg], list[Reg]]:
    """The square root's next limb e, digit by digit in radix 2^32: for s (i limbs, its top
    bit one below its top limb's) and R = (s's square's digits so far) - s^2 <= 2 s, with D =
    2 s (normalized; `reciprocal` of its top limb), e is Knuth's estimate of floor((R 2^32 +
    high) / D) (at most 2 above it, at most 2^32 - 1) and X = R 2^64 + high 2^32 + low -
    (D 2^32 + e) e; then `rounds` times where X < 0: e - 1, X + D 2^32 + 2 e + 1 (the new e).
    Returns (s 2^32 + e, X)."""
    i = len(root)
    d, _ = _twice(fn, root)  # 2 s (s below 2^(32 i - 1): no carry)
    window = [high] + rest  # R 2^32 + high
    e = estimate_digit(fn, window[i], window[i - 1], d[i - 1], reciprocal)
    columns = Columns(fn, i + 2)
    columns.add_row(e, [(0, e)] + [(1 + k, d[k]) for k in range(i)])  # (D 2^32 + e) e
    product = fn.temps_list(i + 2)
    columns.sum_into(product)
    x = fn.temps_list(i + 3)  # the difference and its sign word
    dividend = [low] + window  # R 2^64 + high 2^32 + low
    fn.chain("sub", [(x[k], (dividend[k], product[k])) for k in range(i + 2)])
    fn.emit("subc", x[i + 2], 0, 0)
    for _ in range(rounds):
        negative = x[i + 2]
        lowered = fn.temp()
        fn.emit("add", lowered, e, negative)
        e = lowered
        twice, carry = fn.temp(), fn.temp()  # 2 e + 1 (the new e): its low word and carry
        fn.emit("shl", twice, e, 1)
        fn.emit("or", twice, twice, 1)
        fn.emit("shr", carry, e, 31)
        addend = [twice] + [fn.temp() for _ in range(i)]
        fn.emit("add", addend[1], d[0], carry)  # D's low limb is even: no carry out of it
        for k in range(1, i):
            fn.emit("mov", addend[1 + k], d[k])
        masked = fn.temps_list(i + 1)
        for k in range(i + 1):
            fn.emit("and", masked[k], addend[k], negative)
        added = fn.temps_list(i + 3)
        fn.chain("add", [(added[k], (x[k], masked[k] if k <= i else 0)) for k in range(i + 3)], carry_out=False)
        x = added
    return [e] + root, x[:i + 1]


def first_digit(q: int) -> Function:
    """x = A's top 2 digits (2Q limbs, between beta^2 / 16 and beta^2 / 4); y = s1 = floor(
    sqrt(x)) (Q limbs), x - s1^2 (Q limbs: at most 2 s1 < beta). The top two limbs' root by
    thread/sqrt.py's top_root, then Q - 1 limbs digit by digit (_limb_step: Knuth's estimate
    exceeds the limb by at most 2 + 2 at the first, 2 + 1 after, D >= 2^63)."""
    fn = Function("sqrt_first_digit", 2 * q, 2 * q)
    x = [Reg("x", k) for k in range(2 * q)]
    r = top_root(fn, x[2 * q - 1], x[2 * q - 2])
    square_low, rest = fn.temp(), fn.temp()
    fn.emit("mul.lo", square_low, r, r)
    fn.emit("sub", rest, x[2 * q - 2], square_low)  # below 2^32: its low word
    root, remainder = [r], [rest]
    for i in range(1, q):
        if i <= 2:  # D's top limb: 2 r, then with s's second limb's top bit (fixed from there)
            top = fn.temp()
            if i == 1:
                fn.emit("shl", top, r, 1)
            else:
                fn.emit("shf.l.clamp", top, root[0], root[1], 1)
            reciprocal = word_reciprocal(fn, top)
        root, remainder = _limb_step(fn, root, remainder, x[2 * q - 2 * i - 1], x[2 * q - 2 * i - 2],
                                     reciprocal, 4 if i == 1 else 3)
    for k in range(q):
        fn.emit("mov", Reg("y", k), root[k])
        fn.emit("mov", Reg("y", q + k), remainder[k] if k < len(remainder) else 0)
    fn.check()
    return fn


def start(q: int) -> Function:
    """x = s1 (Q), R (Q), A moved up a thread (Q), all ones below the top thread (a word);
    y = D (2 s1 in the top thread), W (R there, else A moved up), the top thread's mask."""
    fn = Function("sqrt_start", 3 * q + 1, 2 * q + 1)
    root, rest, moved_up = ([Reg("x", k * q + i) for i in range(q)] for k in range(3))
    top = fn.temp()
    fn.emit("not", top, Reg("x", 3 * q))
    twice, _ = _twice(fn, root)  # 2 s1 < beta
    for i in range(q):
        fn.emit("and", Reg("y", i), twice[i], top)
        select(fn, Reg("y", q + i), top, rest[i], moved_up[i])
    fn.emit("mov", Reg("y", 2 * q), top)
    fn.check()
    return fn


def digit(q: int) -> Function:
    """x = M (N's top Q + 2 limbs), V (Q + 1), D's Q limbs, the slot's mask, N's Q limbs;
    y = N - e (D + e at the slot) and the excess (the division's multiply_subtract), e:
    floor(N / D) or, rarely, one more (estimate raised), at most beta - 1."""
    fn = Function("sqrt_digit", 4 * q + 4, 3 * q)
    x = [Reg("x", i) for i in range(4 * q + 4)]
    m, v, d, slot, n = x[:q + 2], x[q + 2:2 * q + 3], x[2 * q + 3:3 * q + 3], x[3 * q + 3], x[3 * q + 4:]
    e = estimate(fn, m, v, raised=True)
    b = fn.temps_list(q)
    for i in range(q):
        select(fn, b[i], slot, e[i], d[i])
    multiply_subtract(fn, e, b, n, 0)
    for i in range(q):
        fn.emit("mov", Reg("y", 2 * q + i), e[i])
    fn.check()
    return fn


def _at_slot(fn: Function, y: int, d: list[Reg], slot: Reg, above_slot: Reg, low: list[Reg], carry: Reg,
             keep: Reg | None) -> None:
    """y[y:] = D + (low + carry beta) at the slot: low in the slot's thread, the carry or'd
    into the thread above's even digit; where `keep` is 0, 0."""
    q = len(d)
    lifted = fn.temp()
    fn.emit("and", lifted, carry, above_slot)
    for i in range(q):
        word, digit_word = fn.temp(), d[i]
        if i == 0:
            digit_word = fn.temp()
            fn.emit("or", digit_word, d[0], lifted)
        select(fn, word, slot, low[i], digit_word)
        if keep is None:
            fn.emit("mov", Reg("y", y + i), word)
        else:
            fn.emit("and", Reg("y", y + i), word, keep)


def add_back(q: int) -> Function:
    """x = D (Q), the slot's mask, the thread above's mask, e (Q), W's word above the held
    width; where that word is negative: y = D + (2 e - 1) at the slot, e - 1; else 0, e."""
    fn = Function("sqrt_add_back", 2 * q + 3, 2 * q)
    x = [Reg("x", i) for i in range(2 * q + 3)]
    d, slot, above_slot, e, above = x[:q], x[q], x[q + 1], x[q + 2:2 * q + 2], x[2 * q + 2]
    negative, lowered = lowered_where_negative(fn, e, above)
    low, carry = _twice(fn, lowered)
    fn.emit("or", low[0], low[0], 1)  # 2 (e - 1) + 1
    _at_slot(fn, 0, d, slot, above_slot, low, carry, negative)
    for i in range(q):
        fn.emit("mov", Reg("y", q + i), lowered[i])
    fn.check()
    return fn


def place(q: int) -> Function:
    """x = D (Q), the slot's mask, the thread above's mask, e (Q); y = D + 2 e at the slot."""
    fn = Function("sqrt_place", 2 * q + 2, q)
    x = [Reg("x", i) for i in range(2 * q + 2)]
    low, carry = _twice(fn, x[q + 2:])
    _at_slot(fn, 0, x[:q], x[q], x[q + 1], low, carry, None)
    fn.check()
    return fn


def _is_zero(fn: Function, word: Reg) -> Reg:
    """1 where word is 0, else 0."""
    flag = fn.temp()
    fn.emit("add", flag, all_ones_if_nonzero(fn, [word]), 1)
    return flag


def exactness() -> Function:
    """x = c, R = s, R = 0 (bits), a''s low word, a = 0 (bit); y = 1 where a' is a square
    (R = 0 and b = 0 for c = 0, R = s and b = 1 for c = 1) or a = 0."""
    fn = Function("sqrt_exact", 5, 1)
    c, equal, zero, low, empty = (Reg("x", i) for i in range(5))
    b, one, with_c, without_c = fn.temp(), fn.temp(), fn.temp(), fn.temp()
    fn.emit("and", b, low, 3)
    fn.emit("xor", one, b, 1)
    fn.emit("and", with_c, c, equal)
    fn.emit("and", with_c, with_c, _is_zero(fn, one))
    fn.emit("xor", without_c, c, 1)
    fn.emit("and", without_c, without_c, zero)
    fn.emit("and", without_c, without_c, _is_zero(fn, b))
    fn.emit("or", Reg("y", 0), with_c, without_c)
    fn.emit("or", Reg("y", 0), Reg("y", 0), empty)
    fn.check()
    return fn


def last_bit(q: int) -> Function:
    """x = 2 s (Q), s < R, s = R (bits), a''s low word, all ones above thread 0 (a word); y
    = 2 s + c, c: c = 1 where (2 s + 1)^2 <= 4 A + b, that is R + [b > 0] > s (2 s is even:
    c lands in thread 0's lowest bit)."""
    fn = Function("sqrt_last_bit", q + 4, q + 1)
    x = [Reg("x", i) for i in range(q + 4)]
    twice, smaller, equal, low, above_first = x[:q], x[q], x[q + 1], x[q + 2], x[q + 3]
    b, c, here = fn.temp(), fn.temp(), fn.temp()
    fn.emit("and", b, low, 3)
    fn.emit("xor", b, _is_zero(fn, b), 1)  # b > 0
    fn.emit("and", c, equal, b)
    fn.emit("or", c, c, smaller)
    fn.emit("not", here, above_first)
    fn.emit("and", here, here, c)
    fn.emit("or", Reg("y", 0), twice[0], here)
    for i in range(1, q):
        fn.emit("mov", Reg("y", i), twice[i])
    fn.emit("mov", Reg("y", q), c)
    fn.check()
    return fn


def by_newton(shape: Shape) -> bool:
    """Whether sqrt at this size goes by Newton's inverse square root, else digit by digit."""
    return newton.by_newton(shape, "sqrt")


def newton_steps(shape: Shape) -> int:
    """m: Newton's steps from Z0's 32 Q - 5 bits (see newton_start) to the H / 2 + 2 that
    leave s at most 1 short, each at least doubling them less one bit."""
    bits, needed, steps = 32 * shape.limbs_per_thread - 5, held_shape(shape).bits // 2 + 2, 0
    while bits < needed:
        bits, steps = 2 * bits - 1, steps + 1
    return steps


def newton_divisor(q: int) -> Function:
    """x = s1 (below beta / 2); y = D = 2 s1 (its top bit set)."""
    fn = Function("sqrt_newton_divisor", q, q)
    twice, _ = _twice(fn, [Reg("x", i) for i in range(q)])
    for i in range(q):
        fn.emit("mov", Reg("y", i), twice[i])
    fn.check()
    return fn


def newton_start(q: int) -> Function:
    """x = V = floor((beta^2 - 1) / D) - beta (D = 2 s1), all ones below the top thread; y =
    Z0's digit: floor((beta + V - 9) / 2) in the top thread, 0 below. beta z* lies in
    (beta^2 / (2 s1 + 2), beta^2 / D] and beta^2 / D - beta^2 / (2 s1 + 2) < 8 (s1 >=
    beta / 4): Z0 = that digit 2^(H - 32 Q) is below Z* = z* 2^(H - 1) by less than 11/2
    units of it, 32 Q - 5 bits."""
    fn = Function("sqrt_newton_start", q + 1, q)
    v, below_top = [Reg("x", i) for i in range(q)], Reg("x", q)
    lowered, borrow = fn.temps_list(q), fn.temp()
    fn.chain("sub", [(lowered[i], (v[i], 9 if i == 0 else 0)) for i in range(q)])
    fn.emit("subc", borrow, 0, 0)  # all ones where V < 9: beta + V - 9 below beta
    top = fn.temp()
    fn.emit("not", top, borrow)
    keep = fn.temp()
    fn.emit("not", keep, below_top)
    for i in range(q):
        halved = fn.temp()
        fn.emit("shf.r.clamp", halved, lowered[i], lowered[i + 1] if i + 1 < q else top, 1)
        fn.emit("and", Reg("y", i), halved, keep)
    fn.check()
    return fn


def margin(q: int) -> Function:
    """x = all ones above thread 0; y = the group's integer 9 (Newton's step's margin)."""
    fn = Function("sqrt_newton_margin", 1, q)
    fn.emit("not", Reg("y", 0), Reg("x", 0))
    fn.emit("and", Reg("y", 0), Reg("y", 0), 9)
    for i in range(1, q):
        fn.emit("mov", Reg("y", i), 0)
    fn.check()
    return fn


def _inverse_root(d: Division, even: str) -> str:
    """Z (the vector's name) below Z* = 2^(H - 1) / sqrt(x), x = a' / 2^H, by less than 2^(H/2
    - 2): from Z0 (newton_start), m times Z + floor(floor(Z E / 2^H) / 2) - 9, E = 2^H -
    4 floor(a' floor(Z^2 / 2^H) / 2^H) (z + z (1 - x z^2) / 2 for Z = z 2^(H - 1)). E > 0
    while Z < Z*; the floors raise the step by less than 4 and lower it by at most 3/2, so
    with the margin Z stays below Z* (Newton's z' never passes z*) and its deficit goes
    from D to under 3 D^2 / 2^H + 11."""
    c, q, held = d.c, d.q, d.held
    square, times = auto_sqr(held), auto_mul(held)
    d.step(newton_divisor(q), ("first",), (("doubled_first", q),))
    d.step(block_reciprocal(q), ("doubled_first",), (("first_inverse", q),))
    d.step(newton_start(q), ("first_inverse", "below_top"), (("z", q),))
    c.step(ShiftUp("ones", None, "above_first"))
    d.step(margin(q), ("above_first",), (("margin", q),))

    def newton_step(body: Composer) -> None:
        scaled = body.call(times, even, body.call(square, "z").high).high
        error = body.call(add_or_sub("neg", held), body.call(shift_constant("shl", 2, held), scaled).result).result
        step = body.call(shift_constant("shr", 1, held), body.call(times, "z", error).high).result
        raised = body.call(add_or_sub("add", held, carry_in=False), "z", step).result
        body.call(add_or_sub("sub", held, carry_in=False), raised, "margin", into="z_next")
        body.step(ThreadStep(copy(q), ("z_next",), (("z", q),)))
    c.repeat(newton_steps(held), newton_step)
    return "z"


def _root_by_newton(d: Division, even: str) -> tuple[str, str]:
    """(s, r) = floor(sqrt(a')) and a' - s^2: s0 = floor(a' Z / 2^(3H/2 - 1)), at most s and
    short of it by under 2 a' (Z* - Z) / 2^(3H/2) + 1 < 3/2; one round: where r > 2 s0,
    s0 + 1 and r - 2 s0 - 1."""
    q, held = d.q, d.held
    z = _inverse_root(d, even)
    scaled = d.call(auto_mul(held), even, z).high
    root = d.shifted("shr", held.bits // 2 - 1, scaled)
    r = d.call(add_or_sub("sub", held, carry_in=False), even, d.call(auto_sqr(held), root).result).result
    less = d.call(add_or_sub("sub", held), r, d.shifted("shl", 1, root), "one")
    d.step(not_bit(), (less.flag,), (("taken", 1),))
    raised = d.call(add_or_sub("add", held), root, "zero", "taken").result
    d.step(select_by_bit(q), (r, less.result, "taken"), (("rest", q),))
    return raised, "rest"


def _write_root(c: Composer, root: str, rest: str) -> tuple[str, str]:
    """y = floor(sqrt(a')) / 2^k (0 for a = 0); returns the flags a = 0 and rest = 0."""
    held = held_shape(c.shape)
    moved_back = c.call(shift_variable("shr", held), root, "half").result
    empty = c.call(compare("is_zero", held), "a").result
    c.step(ThreadStep(zero_where(held.limbs_per_thread), (moved_back, empty), (("y", held.limbs_per_thread),)))
    return empty, c.call(compare("is_zero", held), rest).result


def sqrt(shape: Shape) -> Program:
    """floor(sqrt(a)); flag 1 where a is an exact square."""
    shape.check()
    held, q = held_shape(shape), shape.limbs_per_thread
    limbs, half_width = held.limbs, held.bits // 2
    d = Division(shape)
    c = d.c
    c.step(ThreadStep(constants(q), (), (("zero", q), ("one", 1))))
    normal, _, _, zeros = d.normalize("a")
    c.step(ThreadStep(shift_halves(), (zeros,), (("odd", 1), ("half", 1))))
    halved = d.shifted("shr", 1, normal)
    c.step(ThreadStep(select_by_bit(q), (normal, halved, "odd"), (("even", q),)))
    quarter = d.shifted("shr", 2, "even")
    c.step(Broadcast(quarter, tuple(range(limbs - 2 * q, limbs)), "top"))
    c.step(ThreadStep(first_digit(q), ("top",), (("first", q), ("first_rest", q))))
    if by_newton(held):
        c.step(ThreadStep(all_ones(), (), (("ones", 1),)))
        c.step(ShiftDown("ones", "below_top"))
        root, rest = _root_by_newton(d, "even")
        empty, nothing = _write_root(c, root, rest)
        c.step(ThreadStep(either(1), (nothing, empty), (("exact", 1),)))
        return Program("sqrt", shape, ("a",), (), tuple(c.steps), "y", "exact")
    c.step(ShiftUp(quarter, None, "quarter_up", q))
    c.step(ThreadStep(all_ones(), (), (("ones", 1),)))
    c.step(ShiftDown("ones", "below_top"))
    c.step(ThreadStep(start(q), ("first", "first_rest", "quarter_up", "below_top"),
                      (("divisor", q), ("rest", q), ("above_slot", 1))))

    def step(body: Composer, reciprocal: str, rounds: int) -> None:
        body.step(ShiftDown("above_slot", "slot"))
        d.moved_up(body, None)
        body.step(ThreadStep(digit(q), ("window", reciprocal, "divisor", "slot", "moved"),
                             (("difference", q), ("excess", q), ("estimate", q))))
        d.settle(body)
        for _ in range(rounds):
            d.add_back(body, ThreadStep(add_back(q), ("divisor", "slot", "above_slot", "estimate", "above"),
                                        (("addend", q), ("estimate", q))))
        body.step(ThreadStep(place(q), ("divisor", "slot", "above_slot", "estimate"), (("divisor", q),)))
        body.step(ShiftDown("above_slot", "above_slot"))

    def reciprocal(name: str) -> None:
        c.step(Broadcast("divisor", tuple(range(limbs - q - 1, limbs)), name + "_top"))
        c.step(ThreadStep(block_reciprocal(q + 1), (name + "_top",), ((name, q + 1),)))

    reciprocal("first_reciprocal")
    step(c, "first_reciprocal", FIRST_ROUNDS)
    reciprocal("reciprocal")
    c.repeat(held.threads // 2 - 2, lambda body: step(body, "reciprocal", ROUNDS))
    root = d.shifted("shr", half_width + 1, "divisor")
    twice = d.shifted("shr", half_width, "divisor")
    rest = d.shifted("shr", half_width, "rest")
    c.step(Broadcast("even", (0,), "lowest"))
    smaller = c.call(compare("lt", held), root, rest).result
    equal = c.call(compare("eq", held), rest, root).result
    c.step(ShiftUp("ones", None, "above_first"))
    c.step(ThreadStep(last_bit(q), (twice, smaller, equal, "lowest", "above_first"), (("doubled", q), ("c", 1))))
    empty, nothing = _write_root(c, "doubled", rest)
    c.step(ThreadStep(exactness(), ("c", equal, nothing, "lowest", empty), (("exact", 1),)))
    return Program("sqrt", shape, ("a",), (), tuple(c.steps), "y", "exact")


PLANNERS = {"sqrt": sqrt}
