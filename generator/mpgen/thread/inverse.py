"""One step of the binary extended gcd, branch-free: the fields' modinv_gcd runs it 2 k
times (k the modulus' width) from the loops in headers/loops.cuh. (The integers' gcd and
modinv with p at run time take Bernstein and Yang's divsteps: gcd.py.)

The state is (u, v, A, C) with A a = u and C a = v (mod p), from (a, p, 1, 0). A step
subtracts the smaller of u, v from the larger where both are odd, then halves the even
one (and its coefficient, modulo p). Each step shortens u or v by a bit until u = 0; then
v = gcd(a, p), and C is a's inverse where v = 1.
"""
from __future__ import annotations

from ..fields import Field
from ..ir import Function, Reg
from .common import Operation, all_ones_if_borrow, all_ones_if_set, select
from .reduction import masked_modulus, shift_right, subtract_mod


def _masked_subtract(fn: Function, field: Field, a: list[Reg], b: list[Reg], mask: Reg,
                     modular: bool) -> list[Reg]:
    """a - (b & mask), modulo p if modular."""
    n = len(a)
    masked, d = fn.temps_list(n), fn.temps_list(n)
    for k in range(n):
        fn.emit("and", masked[k], b[k], mask)
    if modular:
        subtract_mod(fn, field, a, masked, d)
    else:
        fn.chain("sub", [(d[k], (a[k], masked[k])) for k in range(n)], carry_out=False)
    return d


def _half(fn: Function, field: Field, c: list[Reg]) -> list[Reg]:
    """c / 2 mod p: (c + p) / 2 for odd c (p is odd), c / 2 otherwise."""
    n = field.limbs
    odd = fn.temp()
    fn.emit("and", odd, c[0], 1)
    p_or_0, s, carry = masked_modulus(fn, field, all_ones_if_set(fn, odd)), fn.temps_list(n), fn.temp()
    fn.chain("add", [(s[k], (c[k], p_or_0[k])) for k in range(n)])
    fn.emit("addc", carry, 0, 0)
    return shift_right(fn, s + [carry], 1, n)


def binary_gcd_step(fn: Function, field: Field, x: list[list[Reg]], y: list[Reg]) -> None:
    u, v = x[:2]
    n = len(u)
    both_odd = fn.temp()
    fn.emit("and", both_odd, u[0], v[0])
    fn.emit("and", both_odd, both_odd, 1)
    both = all_ones_if_set(fn, both_odd)
    fn.chain("sub", [(fn.temp(), (u[k], v[k])) for k in range(n)])
    u_below_v = all_ones_if_borrow(fn)
    from_v, from_u = fn.temp(), fn.temp()
    fn.emit("and", from_v, both, u_below_v)  # v -= u, C -= A
    fn.emit("xor", from_u, both, from_v)  # u -= v, A -= C
    u1 = _masked_subtract(fn, field, u, v, from_u, modular=False)
    v1 = _masked_subtract(fn, field, v, u, from_v, modular=False)
    u_odd = fn.temp()
    fn.emit("and", u_odd, u1[0], 1)
    halve_v = all_ones_if_set(fn, u_odd)  # else halve u: one of them is even now
    value = fn.temps_list(n)
    for k in range(n):
        select(fn, value[k], halve_v, v1[k], u1[k])
    value = shift_right(fn, value, 1, n)
    out = [y[i * n:(i + 1) * n] for i in range(4)]
    for k in range(n):
        select(fn, out[0][k], halve_v, u1[k], value[k])
        select(fn, out[1][k], halve_v, value[k], v1[k])
    a, c = x[2:]
    a1 = _masked_subtract(fn, field, a, c, from_u, modular=True)
    c1 = _masked_subtract(fn, field, c, a, from_v, modular=True)
    coefficient = fn.temps_list(n)
    for k in range(n):
        select(fn, coefficient[k], halve_v, c1[k], a1[k])
    coefficient = _half(fn, field, coefficient)
    for k in range(n):
        select(fn, out[2][k], halve_v, a1[k], coefficient[k])
        select(fn, out[3][k], halve_v, coefficient[k], c1[k])


BINARY_GCD_STEP = Operation(
    "gcd_step", "one step of modinv_gcd's binary extended gcd on (u, v, A, C)",
    lambda f: (f.bits,) * 4, lambda f: 4 * f.limbs, binary_gcd_step)
