"""The group tier's gcd and modular inverse with p at run time (docs/group-tier.md): the per-thread
tier's binary (extended) gcd (thread/gcd.py, thread/inverse.py) over the group's vectors, 2 bits
steps in a Repeat whatever the values:

    gcd:    k = the trailing zeros of a | b (a stage a bit of k, from the top), (u, v) =
            (a, b) / 2^k, one of them odd; a step subtracts the smaller from the larger
            where both are odd, then halves the even one; after 2 bits steps one of them
            is 0, and (u | v) 2^k is the gcd
    modinv: the same steps on (u, v) = (a, p) with coefficients A a = u, C a = v (mod p)
            from (1, 0), each subtracted and halved mod p as its number is; where v = 1 at
            the end, C = a^-1 mod p

A step's tests read thread 0's low words; each thread's bit (thread 0's own, 1 in the
others) reaches every thread through All, one ballot. Both differences u - v and v - u are
taken (two scans side by side, u < v from the first's borrow) rather than comparing first."""
from __future__ import annotations

from ..ir import Function, Reg
from ..thread.common import all_ones_if_set, select
from .addsub import add_or_sub
from .bits import shift_constant, shift_variable
from .compare import compare
from .compose import Composer
from .division import set_bit, zero_word
from .montgomery import integer_one
from .powers import select_by_bit, zero_where
from .program import All, Program, Shape, ThreadStep
from .words import either


def low_bits(q: int) -> Function:
    """x = u, v, then the integer 1 (1 in thread 0's first word only), Q limbs each; y =
    u's low bit, then u's and v's low bits' and: thread 0's, 1 in the other threads (what
    All reads to give every thread thread 0's bit)."""
    fn = Function("gcd_low_bits", 3 * q, 2)
    others, both = fn.temp(), fn.temp()
    fn.emit("xor", others, Reg("x", 2 * q), 1)
    fn.emit("and", both, Reg("x", 0), Reg("x", q))
    for i, word in enumerate((Reg("x", 0), both)):
        fn.emit("and", Reg("y", i), word, 1)
        fn.emit("or", Reg("y", i), Reg("y", i), others)
    fn.check()
    return fn


def arrange(q: int) -> Function:
    """x = u, v, u - v, v - u (Q each), then both_odd, u_odd, u < v (a word each); y = the
    value to halve (u - v or v - u where both are odd, else the even one of u, v), then
    to_v (1 where v takes it)."""
    fn = Function("gcd_arrange", 4 * q + 3, q + 1)
    u, v, uv, vu = ([Reg("x", k * q + i) for i in range(q)] for k in range(4))
    both, u_odd, less = (Reg("x", 4 * q + k) for k in range(3))
    to_v = fn.temp()
    select(fn, to_v, all_ones_if_set(fn, both), less, u_odd)
    both_mask, v_mask = all_ones_if_set(fn, both), all_ones_if_set(fn, to_v)
    for i in range(q):
        plain, difference = fn.temp(), fn.temp()
        select(fn, plain, v_mask, v[i], u[i])
        select(fn, difference, v_mask, vu[i], uv[i])
        select(fn, Reg("y", i), both_mask, difference, plain)
    fn.emit("mov", Reg("y", q), to_v)
    fn.check()
    return fn


def place(q: int) -> Function:
    """x = u, v, the halved value (Q each), to_v; y = the next u, v."""
    fn = Function("gcd_place", 3 * q + 1, 2 * q)
    mask = all_ones_if_set(fn, Reg("x", 3 * q))
    for i in range(q):
        u, v, half = Reg("x", i), Reg("x", q + i), Reg("x", 2 * q + i)
        select(fn, Reg("y", i), mask, u, half)
        select(fn, Reg("y", q + i), mask, half, v)
    fn.check()
    return fn


def coefficient_pair(q: int) -> Function:
    """x = A, C (Q each), to_v, both_odd; y = the coefficient to change (C where to_v,
    else A), then the other where both are odd, else 0."""
    fn = Function("coefficient_pair", 2 * q + 2, 2 * q)
    v_mask, both_mask = all_ones_if_set(fn, Reg("x", 2 * q)), all_ones_if_set(fn, Reg("x", 2 * q + 1))
    for i in range(q):
        a, c, other = Reg("x", i), Reg("x", q + i), fn.temp()
        select(fn, Reg("y", i), v_mask, c, a)
        select(fn, other, v_mask, a, c)
        fn.emit("and", Reg("y", q + i), other, both_mask)
    fn.check()
    return fn


def masked(q: int) -> Function:
    """x = Q limbs, a bit; y = the limbs where the bit is set, else 0."""
    fn = Function("masked_by_bit", q + 1, q)
    mask = all_ones_if_set(fn, Reg("x", q))
    for i in range(q):
        fn.emit("and", Reg("y", i), Reg("x", i), mask)
    fn.check()
    return fn


def low_bit_source(q: int) -> Function:
    """x = Q limbs, then the integer 1's; y = their low bit in thread 0, 1 in the others."""
    fn = Function("low_bit_source", 2 * q, 1)
    fn.emit("xor", Reg("y", 0), Reg("x", q), 1)
    low = fn.temp()
    fn.emit("and", low, Reg("x", 0), 1)
    fn.emit("or", Reg("y", 0), Reg("y", 0), low)
    fn.check()
    return fn


class _Gcd:
    """The steps of one gcd or modinv program over vectors of the size's width."""

    def __init__(self, shape: Shape):
        shape.check()
        self.shape, self.q = shape, shape.limbs_per_thread
        self.c = Composer(shape)
        integer_one(self.c, shape, "unit")

    def broadcast_low_bit(self, c: Composer, vector: str, into: str) -> None:
        """into = the vector's low bit, in every thread."""
        c.step(ThreadStep(low_bit_source(self.q), (vector, "unit"), ((f"{into}_source", 1),)))
        c.step(All(f"{into}_source", into))

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
                moved = c.call(shift_constant("shr", amount, shape), value).result
                c.step(ThreadStep(select_by_bit(q), (value, moved, empty), ((f"{name}{k}", q),)))
                values[name] = f"{name}{k}"
            c.step(ThreadStep(set_bit(k), ("shift", empty), (("shift", 1),)))
        return values["a"], values["b"], "shift"

    def step(self, c: Composer, coefficients: tuple[str, str, str, str] | None) -> None:
        """One binary gcd step on (u, v); with coefficients (A, C, p, p / 2), the extended
        one's: the changed coefficient minus the other where both are odd, mod p, then
        halved mod p ((x + p) / 2 = x / 2 + p / 2 + 1 for odd x)."""
        shape, q = self.shape, self.q
        c.step(ThreadStep(low_bits(q), ("u", "v", "unit"), (("u_odd_source", 1), ("both_odd_source", 1))))
        c.step(All("u_odd_source", "u_odd"))
        c.step(All("both_odd_source", "both_odd"))
        uv = c.call(add_or_sub("sub", shape, carry_in=False), "u", "v")
        vu = c.call(add_or_sub("sub", shape, carry_in=False), "v", "u")
        c.step(ThreadStep(arrange(q), ("u", "v", uv.result, vu.result, "both_odd", "u_odd", uv.flag),
                          (("moved", q), ("to_v", 1))))
        half = c.call(shift_constant("shr", 1, shape), "moved").result
        c.step(ThreadStep(place(q), ("u", "v", half, "to_v"), (("u", q), ("v", q))))
        if coefficients is None:
            return
        a, cc, p, p_half = coefficients
        c.step(ThreadStep(coefficient_pair(q), (a, cc, "to_v", "both_odd"), (("changed", q), ("subtracted", q))))
        difference = c.call(add_or_sub("sub", shape, carry_in=False), "changed", "subtracted")
        c.step(ThreadStep(masked(q), (p, difference.flag), (("p_if_borrow", q),)))
        reduced = c.call(add_or_sub("add", shape, carry_in=False), difference.result, "p_if_borrow").result
        self.broadcast_low_bit(c, reduced, "odd")
        c.step(ThreadStep(masked(q), (p_half, "odd"), (("half_p_if_odd", q),)))
        halved = c.call(shift_constant("shr", 1, shape), reduced).result
        c.call(add_or_sub("add", shape), halved, "half_p_if_odd", "odd", into="halved_coefficient")
        c.step(ThreadStep(place(q), (a, cc, "halved_coefficient", "to_v"), ((a, q), (cc, q))))


def gcd(shape: Shape) -> Program:
    """gcd(a, b), gcd(a, 0) = a, gcd(0, 0) = 0: the per-thread tier's contract."""
    g = _Gcd(shape)
    q, c = g.q, g.c
    u, v, shift = g.strip_twos("a", "b")
    c.step(ThreadStep(_pair(q), (u, v), (("u", q), ("v", q))))
    c.repeat(2 * shape.bits, lambda body: g.step(body, None))
    c.step(ThreadStep(either(q), ("u", "v"), (("odd_part", q),)))
    c.call(shift_variable("shl", shape), "odd_part", shift, into="y")
    return Program("gcd", shape, ("a", "b"), (), tuple(c.steps), "y", None)


def modinv(shape: Shape) -> Program:
    """a^-1 mod p for a < p, p odd: flag 1 and every result word 0 where gcd(a, p) > 1 or p
    is even (the per-thread tier's contract)."""
    g = _Gcd(shape)
    q, c = g.q, g.c
    c.step(ThreadStep(_pair(q), ("a", "p"), (("u", q), ("v", q))))
    c.step(ThreadStep(_pair(q), ("unit", "zero"), (("A", q), ("C", q))))
    c.call(shift_constant("shr", 1, shape), "p", into="p_half")
    c.repeat(2 * shape.bits, lambda body: g.step(body, ("A", "C", "p", "p_half")))
    one = c.call(compare("eq", shape), "v", "unit").result
    g.broadcast_low_bit(c, "p", "p_odd")
    c.step(ThreadStep(_both_bits(), (one, "p_odd"), (("no_inverse", 1),)))
    c.step(ThreadStep(zero_where(q), ("C", "no_inverse"), (("y", q),)))
    return Program("modinv", shape, ("a", "p"), (), tuple(c.steps), "y", "no_inverse")


def _pair(q: int) -> Function:
    """y = the two Q-limb vectors x, as they are (two named copies)."""
    fn = Function("copy_pair", 2 * q, 2 * q)
    for i in range(2 * q):
        fn.emit("mov", Reg("y", i), Reg("x", i))
    fn.check()
    return fn


def _both_bits() -> Function:
    """y = 1 - (x[0] and x[1]): the flag where one of the two conditions fails."""
    fn = Function("not_both", 2, 1)
    fn.emit("and", Reg("y", 0), Reg("x", 0), Reg("x", 1))
    fn.emit("xor", Reg("y", 0), Reg("y", 0), 1)
    fn.check()
    return fn


PLANNERS = {"gcd": gcd, "modinv": modinv}
