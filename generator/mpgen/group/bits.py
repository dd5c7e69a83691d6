"""The group tier's shifts by a constant: each thread takes the limbs its result needs
from the two threads they lie in (Neighbours), then funnel-shifts them."""
from __future__ import annotations

from ..ir import Function, Reg
from ..size import LIMB_BITS
from .program import Neighbours, Program, Shape, ThreadStep, Top


def _funnel(name: str, q: int, left: bool, first: int, bits: int) -> Function:
    """y[i] from the 2 Q words x (a lower thread's Q limbs, then the next one's): for shl
    x[first + i] << bits | x[first + i - 1] >> (32 - bits), for shr x[first + i] >> bits |
    x[first + i + 1] << (32 - bits)."""
    fn = Function(name, 2 * q, q)
    x = [Reg("x", i) for i in range(2 * q)]
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
    d, e = divmod(limbs, q)
    left = direction == "shl"
    # shl: window = threads t-d-1, t-d: a's limb m - s is window[Q + i - e]
    # shr: window = threads t+d, t+d+1: a's limb m + s is window[i + e]
    offset, first = (-d - 1, q - e) if left else (d, e)
    name = f"{direction}{amount}"
    steps = (Neighbours("a", offset, "window"),
             ThreadStep(_funnel(f"{name}_funnel", q, left, first, bits), ("window",), (("y", q),)),
             Top("y", None, None))
    return Program(name, shape, ("a",), (), steps, "y", None)
