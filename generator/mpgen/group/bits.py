"""The group tier's shifts. By a constant: each thread takes the limbs its result needs
from the two threads they lie in (Neighbours), then funnel-shifts them. By a run-time
amount s: the same exchange for each bit of s / 32 (a shift by 2^k limbs, kept or not by
a masked select), then the funnel by s mod 32; every exchange reads the same threads
whatever s is."""
from __future__ import annotations

from ..ir import Function, Reg
from ..size import LIMB_BITS, amount_bits
from .program import Neighbours, Program, Shape, ThreadStep, Top


def _funnel(name: str, q: int, left: bool, first: int, bits: int | None) -> Function:
    """y[i] from the 2 Q words x (a lower thread's Q limbs, then the next one's): for shl
    x[first + i] << bits | x[first + i - 1] >> (32 - bits), for shr x[first + i] >> bits |
    x[first + i + 1] << (32 - bits). bits None: x[2 Q] mod 32, a run-time amount."""
    fn = Function(name, 2 * q + (bits is None), q)
    x = [Reg("x", i) for i in range(2 * q)]
    if bits is None:
        bits = fn.temp()
        fn.emit("and", bits, Reg("x", 2 * q), LIMB_BITS - 1)
    for i in range(q):
        low, high = (x[first + i - 1], x[first + i]) if left else (x[first + i], x[first + i + 1])
        if bits == 0:
            fn.emit("mov", Reg("y", i), high if left else low)
        else:
            fn.emit("shf.l.clamp" if left else "shf.r.clamp", Reg("y", i), low, high, bits)
    fn.check()
    return fn


def shift_constant(direction: str, amount: int, shape: Shape) -> Program:
    """shl<K>: a << K, shr<K>: a >> K (mod 2^bits). Limb m of the result comes from limbs
    m -+ s and m -+ s -+ 1 of a (s = K / 32 whole limbs): for thread t, from threads
    t -+ d and t -+ d -+ 1 (d = s / Q), at places fixed by K."""
    shape.check()
    q = shape.limbs_per_thread
    limbs, bits = divmod(amount, LIMB_BITS)
    left = direction == "shl"
    offset, first = _placement(left, limbs, q)
    name = f"{direction}{amount}"
    steps = (Neighbours("a", offset, "window"),
             ThreadStep(_funnel(f"{name}_funnel", q, left, first, bits), ("window",), (("y", q),)),
             Top("y", None, None))
    return Program(name, shape, ("a",), (), steps, "y", None)


def _select(name: str, q: int, first: int, bit: int) -> Function:
    """y = the window's limbs from `first` (x[Q:3Q], as _funnel's) where bit `bit` of the
    amount x[3 Q] is set, else the value x[:Q]: v ^ ((v ^ moved) & mask), no branch."""
    fn = Function(name, 3 * q + 1, q)
    mask = fn.temp()
    fn.emit("shr", mask, Reg("x", 3 * q), bit)
    fn.emit("and", mask, mask, 1)
    fn.emit("sub", mask, 0, mask)
    for i in range(q):
        v, moved, d = Reg("x", i), Reg("x", q + first + i), Reg("y", i)
        fn.emit("xor", d, v, moved)
        fn.emit("and", d, d, mask)
        fn.emit("xor", d, d, v)
    fn.check()
    return fn


def _placement(left: bool, limbs: int, q: int) -> tuple[int, int]:
    """(the Neighbours offset, the first window word) that move a thread's limbs by
    `limbs`: shl reads threads t-d-1, t-d (a's limb m - s at window[Q + i - e]), shr
    threads t+d, t+d+1 (window[i + e]), with d, e = divmod(limbs, Q)."""
    d, e = divmod(limbs, q)
    return (-d - 1, q - e) if left else (d, e)


def shift_variable(direction: str, shape: Shape) -> Program:
    """shl: a << s mod 2^bits, shr: a >> s (s < 2^ceil(log2 bits); 0 once s >= bits), as
    the thread tier's: one exchange and select per bit of s / 32, then the funnel."""
    shape.check()
    q, left = shape.limbs_per_thread, direction == "shl"
    steps: list = []
    value = "a"
    for k in range(amount_bits(shape.bits) - 5):
        offset, first = _placement(left, 1 << k, q)
        steps += [Neighbours(value, offset, f"window{k}"),
                  ThreadStep(_select(f"{direction}_limbs{k}", q, first, 5 + k), (value, f"window{k}", "s"),
                             ((f"moved{k}", q),))]
        value = f"moved{k}"
    offset, first = _placement(left, 0, q)
    steps += [Neighbours(value, offset, "window"),
              ThreadStep(_funnel(f"{direction}_bits", q, left, first, None), ("window", "s"), (("y", q),)),
              Top("y", None, None)]
    return Program(direction, shape, ("a",), ("s",), tuple(steps), "y", None)
