"""The group tier's modular exponentiation with p at run time (CGBN's powm_odd;
docs/group-tier.md): one program that computes its own constants and then runs the
exponent's bits, every step a call of the tier's own programs (compose.py), nothing
branching on the values:

    -p^-1 mod R                     mont_minus_inverse (Newton, in a Repeat)
    R mod p, R^2 mod p              the remainders of R and of (R mod p) R by the division
                                    (group/division.py: the schoolbook, or Newton's
                                    reciprocal from [division] newton_from_bits), as the
                                    per-thread tier's; alone, this is mont_radix_squared
    a R mod p                       montmul(a, R^2)
    a^k R mod p, k < 2^w            a table of 2^w powers (2^w - 2 products)
    x = R; for each w bits of e from the top: x = x^(2^w) R^-(2^w - 1), then x a^k R R^-1
    with k those bits, the entry read by masks over the whole table: fixed windows
    a^e = x R^-1                    frommont

The two divisions cost about two products' multiplies and 2 T steps between threads (by
Newton's reciprocal about ten products each), small beside the 1.25 L Montgomery products
of the exponent (w = 4). The L doublings mod p they
replaced took 25 times the instructions and 35 times the steps between threads at 4096 bits
(510 K list instructions against 20.7 K), and CGBN's powm_odd workload ran 257 K/s with
them against 276.5 K with the divisions (512-bit exponent, mpgen-bench, H200, 2026-11-28)."""
from __future__ import annotations

from ..ir import Function, Reg
from ..size import LIMB_BITS
from ..thread.common import all_ones_if_borrow, complement as complement_mask
from .compose import Composer
from .division import radix_remainder
from .montgomery import frommont, integer_one, mont_minus_inverse, product, radix_shape
from .mul import check
from .program import Broadcast, Program, Shape, ShiftUp, ThreadStep
from .words import copy, moved, zero_where


# modexp's fixed windows: the powers a^0 .. a^(2^w - 1) R mod p in a table that every
# window reads whole, each entry kept by a mask (no address or branch depends on e).
WINDOW_BITS = 4
ENTRIES = 1 << WINDOW_BITS


def first_entries(q: int) -> Function:
    """The table's slots (Q words each) from a R and R: slot 0 a R, slot 1 R, the rest 0;
    each push moves them up a slot, so that the power a^k R ends in slot ENTRIES - 1 - k."""
    return moved("first_entries", 2 * q, list(range(2 * q)) + [None] * (ENTRIES - 2) * q)


def first_slot(q: int) -> Function:
    return moved("first_slot", ENTRIES * q, range(q))


def push_entry(q: int) -> Function:
    """x = the new power (Q words), the table: y = the table with the power in slot 0."""
    return moved("push_entry", (ENTRIES + 1) * q, range(ENTRIES * q))


def window_entry(q: int) -> Function:
    """x = the table, the exponent's word: y = the entry of its top WINDOW_BITS bits (every
    slot read, each masked by whether it is that entry), then the word moved up a window."""
    fn = Function("window_entry", ENTRIES * q + 1, q + 1)
    word = Reg("x", ENTRIES * q)
    window, difference = fn.temp(), fn.temp()
    fn.emit("shr", window, word, LIMB_BITS - WINDOW_BITS)
    for slot in range(ENTRIES):
        fn.emit("sub", difference, window, ENTRIES - 1 - slot)  # 0 exactly for this slot's entry
        fn.emit("sub.cc", fn.temp(), 0, difference)  # borrows unless it is 0
        mask = complement_mask(fn, all_ones_if_borrow(fn))
        for i in range(q):
            taken = Reg("x", slot * q + i)
            if slot == 0:
                fn.emit("and", Reg("y", i), taken, mask)
            else:
                kept = fn.temp()
                fn.emit("and", kept, taken, mask)
                fn.emit("or", Reg("y", i), Reg("y", i), kept)
    fn.emit("shl", Reg("y", q), word, WINDOW_BITS)
    fn.check()
    return fn


def even_flag() -> Function:
    """x = p's lowest word; y = 1 where p is even."""
    fn = Function("even_flag", 1, 1)
    low_bit = fn.temp()
    fn.emit("and", low_bit, Reg("x", 0), 1)
    fn.emit("xor", Reg("y", 0), low_bit, 1)
    fn.check()
    return fn


def radix_powers(c: Composer, p: str, unit: str, square: str) -> None:
    """unit = R mod p (1 in Montgomery form), square = R^2 mod p: the remainders of R and of
    (R mod p) R by the division (as the per-thread tier's), one copy of its steps run twice."""
    q = c.shape.limbs_per_thread
    integer_one(c, radix_shape(c.shape), square)

    def remainder(body: Composer) -> None:  # unit = the last power, square = it times R mod p
        body.step(ThreadStep(copy(q), (square,), ((unit, q),)))
        body.call(radix_remainder(c.shape), unit, p, into=square)
    c.repeat(2, remainder)


def mont_radix_squared(shape: Shape) -> Program:
    """R^2 mod p for odd p (what tomont multiplies by); flag 1 and 0 where p is even (p's
    lowest bit: no -p^-1 mod R is needed)."""
    q = check(shape)
    c = Composer(shape)
    c.step(Broadcast("p", (0,), "p_low"))
    c.step(ThreadStep(even_flag(), ("p_low",), (("even", 1),)))
    radix_powers(c, "p", "unit", "square")
    c.step(ThreadStep(zero_where(q), ("square", "even"), (("y", q),)))
    return Program("mont_radix_squared", shape, ("p",), (), tuple(c.steps), "y", "even")


def modexp(shape: Shape) -> Program:
    """a^e mod p for a < p, e below 2^bits, p odd; flag 1 and 0 where p is even."""
    q = check(shape)
    c = Composer(shape)
    inverse = c.call(mont_minus_inverse(shape), "p")
    np, even = inverse.result, inverse.flag
    radix_powers(c, "p", "power", "square")
    product(c, "a", "square", "p", np, "base")
    c.step(ThreadStep(first_entries(q), ("base", "power"), (("table", ENTRIES * q),)))

    def entry(body: Composer) -> None:  # slot 0 holds the highest power so far
        body.step(ThreadStep(first_slot(q), ("table",), (("highest", q),)))
        product(body, "highest", "base", "p", np, "next")
        body.step(ThreadStep(push_entry(q), ("next", "table"), (("table", ENTRIES * q),)))
    c.repeat(ENTRIES - 2, entry)
    c.step(ThreadStep(copy(q), ("e",), (("exponent", q),)))

    def window(body: Composer) -> None:
        body.repeat(WINDOW_BITS, lambda square: product(square, "power", None, "p", np, "power"))
        body.step(ThreadStep(window_entry(q), ("table", "bits"), (("entry", q), ("bits", 1))))
        product(body, "power", "entry", "p", np, "power")

    def limb(body: Composer) -> None:  # the exponent's top limb, then the windows of its word
        body.step(Broadcast("exponent", (shape.limbs - 1,), "bits"))
        body.step(ShiftUp("exponent", None, "exponent"))
        body.repeat(LIMB_BITS // WINDOW_BITS, window)
    c.repeat(shape.limbs, limb)
    c.call(frommont(shape), "power", "p", np, into="reduced")
    c.step(ThreadStep(zero_where(q), ("reduced", even), (("y", q),)))
    return Program("modexp", shape, ("a", "e", "p"), (), tuple(c.steps), "y", even)


PLANNERS = {"mont_radix_squared": mont_radix_squared, "modexp": modexp}
