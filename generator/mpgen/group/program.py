"""The cooperative level (issue 18): one integer held by a group of T threads.

Thread t holds limbs [t Q, (t + 1) Q) of the integer, least significant first, so that a
carry moves from thread t to thread t + 1; limbs above the width are zero. An operation
is a `Program`: steps over named vectors that every thread holds (Q words, or one), of
two levels:

- `ThreadStep`: every thread runs the same straight-line instruction list (ir.Function,
  the per-thread level that the per-thread tier prints) on its own vectors;
- group steps, which move words between threads: `CarryScan` (each thread's carry in from
  every thread's generate and propagate bits), `All` (whether a bit is set in every
  thread) and `Top` (the flag out of the exact width).

`execute` runs a program on the host as the GPU does (each thread's list, then the group
step over all threads, in the same formula), so that the tests check the plan itself.
No step's data flow depends on the operands' values. printers/group.py prints a program
for one thread of the GPU and for the host; tiers.py gives the group's geometry.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .ir import MASK, Function, Operand, Reg, execute as execute_list
from .size import LIMB_BITS, Size, limbs_for
from .tiers import MAX_GROUP_THREADS as MAX_THREADS, MIN_GROUP_THREADS as MIN_THREADS



@dataclass(frozen=True)
class Shape:
    """`bits` held by `threads` threads of `limbs_per_thread` limbs each (T and Q)."""
    bits: int
    threads: int
    limbs_per_thread: int

    @property
    def limbs(self) -> int:
        return limbs_for(self.bits)

    @property
    def held_bits(self) -> int:
        return LIMB_BITS * self.threads * self.limbs_per_thread

    @staticmethod
    def of(size: Size) -> "Shape":
        tier = size.tier
        return Shape(size.bits, tier.threads_per_instance, tier.limbs_per_thread)

    def check(self) -> None:
        t, q = self.threads, self.limbs_per_thread
        if t < MIN_THREADS or t > MAX_THREADS or t & (t - 1):
            raise ValueError(f"{t} threads: a group is a power of two from {MIN_THREADS} to {MAX_THREADS}")
        if q < 1 or t * q < self.limbs:
            raise ValueError(f"{t} threads of {q} limbs do not hold {self.limbs} limbs")


@dataclass(frozen=True)
class ThreadStep:
    """Every thread: x = its vectors `reads`, one after the other; y = fn(x), split into
    the vectors `writes` (name, words)."""
    fn: Function
    reads: tuple[str, ...]
    writes: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class CarryScan:
    """carry (one word, 0 or 1) in thread t = the carry into thread t's limbs: from thread
    t - 1's generate bit, or its propagate bit and its own carry in (the two never both
    set); thread 0's is the group's carry in (thread 0's word of `carry_in`, 0 without).
    `out` = the carry out of the top thread, in every thread. With G, P the T-bit words of
    the generate and propagate bits (a ballot each on the GPU), the carries are the bits
    of (P + 2 G + carry in) xor P: one addition instead of T serial steps (CGBN's trick)."""
    generate: str
    propagate: str
    carry_in: str | None
    carry: str
    out: str


@dataclass(frozen=True)
class Top:
    """`flag` (one word, in every thread; None: not wanted) = bit `bits` of `vector` (read
    over the whole group), or `above` where the group holds exactly `bits` bits: the carry
    or borrow out of the exact width; then `vector`'s bits from `bits` up are cleared."""
    vector: str
    above: str
    flag: str | None


@dataclass(frozen=True)
class All:
    """`out` (one word, in every thread) = 1 where bit 0 of `source` is set in every thread
    of the group, else 0 (one ballot within a warp; across warps, a word per warp)."""
    source: str
    out: str


Step = Union[ThreadStep, CarryScan, Top, All]


@dataclass(frozen=True)
class Program:
    name: str
    shape: Shape
    operands: tuple[str, ...]  # Q-word vectors split from the operands ("a", "b")
    words: tuple[str, ...]  # one-word operands, the same in every thread ("carry_in")
    steps: tuple[Step, ...]
    result: str
    flag: str | None
    scalar: bool = False  # the result is one word in every thread (a comparison), not split


def split(shape: Shape, value: int) -> list[list[int]]:
    """value's limbs, thread by thread."""
    q = shape.limbs_per_thread
    return [[(value >> LIMB_BITS * (t * q + i)) & MASK for i in range(q)] for t in range(shape.threads)]


def join(shape: Shape, vectors: list[list[int]]) -> int:
    words = [w for vector in vectors for w in vector]
    return sum(w << LIMB_BITS * i for i, w in enumerate(words))


def carries(generate: int, propagate: int, carry_in: int, threads: int) -> tuple[int, int]:
    """(the carries into threads 0 .. T-1 as a T-bit word, the carry out of the top)."""
    total = propagate + 2 * generate + carry_in
    return (total ^ propagate) & ((1 << threads) - 1), total >> threads & 1


def execute(program: Program, operands: list[int], words: list[int]) -> tuple[int, int | None]:
    """Runs the program on the host, thread by thread and step by step: (result, flag)."""
    shape = program.shape
    state: list[dict[str, list[int]]] = [{} for _ in range(shape.threads)]
    for name, value in zip(program.operands, operands):
        for t, vector in enumerate(split(shape, value)):
            state[t][name] = vector
    for name, value in zip(program.words, words):
        for thread in state:
            thread[name] = [value]
    for step in program.steps:
        if isinstance(step, ThreadStep):
            for thread in state:
                y = execute_list(step.fn, [w for name in step.reads for w in thread[name]])
                for name, count in step.writes:
                    thread[name], y = y[:count], y[count:]
        elif isinstance(step, CarryScan):
            def bits(name: str) -> int:
                return sum((thread[name][0] & 1) << t for t, thread in enumerate(state))
            carry_in = state[0][step.carry_in][0] & 1 if step.carry_in else 0
            into, out = carries(bits(step.generate), bits(step.propagate), carry_in, shape.threads)
            for t, thread in enumerate(state):
                thread[step.carry], thread[step.out] = [into >> t & 1], [out]
        elif isinstance(step, All):
            every = int(all(thread[step.source][0] & 1 for thread in state))
            for thread in state:
                thread[step.out] = [every]
        else:
            value = join(shape, [thread[step.vector] for thread in state])
            flag = state[0][step.above][0] if shape.bits == shape.held_bits else value >> shape.bits & 1
            for t, vector in enumerate(split(shape, value & ((1 << shape.bits) - 1))):
                state[t][step.vector] = vector
                if step.flag:
                    state[t][step.flag] = [flag]
    result = state[0][program.result][0] if program.scalar else \
        join(shape, [thread[program.result] for thread in state])
    return result, None if program.flag is None else state[0][program.flag][0]


def _part(name: str, q: int, subtract: bool, operands: int) -> Function:
    """Each thread's first step: d = a +- b over its Q limbs (b = 0 - a for neg), and its
    generate bit (the chain's carry or borrow out) and propagate bit (d all ones for a
    sum, all zeros for a difference: a carry or borrow in would pass through)."""
    fn = Function(name, operands * q, q + 2)
    a = [Reg("x", i) for i in range(q)]
    b = [Reg("x", q + i) for i in range(q)] if operands == 2 else a
    first: list[Operand] = a if operands == 2 else [0] * q
    d = [Reg("y", i) for i in range(q)]
    generate, propagate = Reg("y", q), Reg("y", q + 1)
    fn.chain("sub" if subtract else "add", [(d[i], (first[i], b[i])) for i in range(q)])
    fn.emit("subc" if subtract else "addc", generate, 0, 0)
    if subtract:
        fn.emit("and", generate, generate, 1)  # subc of 0 - 0 leaves 0 - borrow: all ones
    folded = fn.temp()
    fn.emit("mov", folded, d[0])
    for word in d[1:]:
        fn.emit("and" if not subtract else "or", folded, folded, word)
    if not subtract:
        fn.emit("not", folded, folded)  # 0 exactly where d is all ones
    # propagate = 1 where folded is 0: 0 - folded borrows unless folded is 0.
    borrow = fn.temp()
    fn.emit("sub.cc", fn.temp(), 0, folded)
    fn.emit("subc", borrow, 0, 0)
    fn.emit("add", propagate, borrow, 1)
    fn.check()
    return fn


def _finish(name: str, q: int, subtract: bool) -> Function:
    """Each thread's second step: y = d +- its carry in (the chain's own carry out is the
    next thread's carry in, which the scan already gave it)."""
    fn = Function(name, q + 1, q)
    d, c = [Reg("x", i) for i in range(q)], Reg("x", q)
    steps = [(Reg("y", 0), (d[0], c))] + [(Reg("y", i), (d[i], 0)) for i in range(1, q)]
    fn.chain("sub" if subtract else "add", steps, carry_out=False)
    fn.check()
    return fn


def add_or_sub(kind: str, shape: Shape) -> Program:
    """`add` (a + b + carry_in), `sub` (a - b - borrow_in) with the carry or borrow out of
    the exact width, or `neg` (0 - a mod 2^bits): three steps and the width's top."""
    shape.check()
    q, subtract = shape.limbs_per_thread, kind != "add"
    operands = ("a",) if kind == "neg" else ("a", "b")
    words = () if kind == "neg" else ("carry_in",)
    steps: tuple[Step, ...] = (
        ThreadStep(_part(f"{kind}_part", q, subtract, len(operands)), operands,
                   (("d", q), ("generate", 1), ("propagate", 1))),
        CarryScan("generate", "propagate", words[0] if words else None, "carry", "out"),
        ThreadStep(_finish(f"{kind}_finish", q, subtract), ("d", "carry"), (("y", q),)),
        Top("y", "out", None if kind == "neg" else "flag"),
    )
    return Program(kind, shape, operands, words, steps, "y", None if kind == "neg" else "flag")


def _cmp_finish(name: str) -> Function:
    """cmp's word from lt and eq (0 or 1 each): 0 where equal, else -1 where less, else 1."""
    fn = Function(name, 2, 1)
    less, equal = Reg("x", 0), Reg("x", 1)
    sign, unequal = fn.temp(), fn.temp()
    fn.emit("sub", sign, 0, less)  # all ones where less
    fn.emit("or", sign, sign, 1)  # -1 or 1
    fn.emit("sub", unequal, equal, 1)  # 0 where equal, else all ones
    fn.emit("and", Reg("y", 0), sign, unequal)
    fn.check()
    return fn


def compare(kind: str, shape: Shape) -> Program:
    """`eq`, `lt`, `cmp` (-1, 0, 1) of a and b, or `is_zero` of a, from sub's first step
    (neg's for is_zero): a thread's propagate bit says its limbs are equal (zero), and the
    borrow out of the scan says a < b. The one-word result lies in every thread."""
    shape.check()
    q = shape.limbs_per_thread
    operands = ("a",) if kind == "is_zero" else ("a", "b")
    part = ThreadStep(_part(f"{kind}_part", q, True, len(operands)), operands,
                      (("d", q), ("generate", 1), ("propagate", 1)))
    scan = CarryScan("generate", "propagate", None, "carry", "less")
    steps: tuple[Step, ...]
    if kind in ("eq", "is_zero"):
        steps = (part, All("propagate", "y"))
    elif kind == "lt":
        steps = (part, CarryScan("generate", "propagate", None, "carry", "y"))
    else:
        steps = (part, scan, All("propagate", "equal"),
                 ThreadStep(_cmp_finish("cmp_finish"), ("less", "equal"), (("y", 1),)))
    return Program(kind, shape, operands, (), steps, "y", None, scalar=True)


# The operations planned for the group tier; their contracts (operands, result, flag) are
# the per-thread tier's (ops/), so that every reader of the manifest treats them alike.
PLANNERS = {kind: (lambda shape, kind=kind: add_or_sub(kind, shape)) for kind in ("add", "sub", "neg")} | \
    {kind: (lambda shape, kind=kind: compare(kind, shape)) for kind in ("eq", "lt", "cmp", "is_zero")}
