"""The group tier's programs: one integer held by a group of T threads.

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
No step's data flow depends on the operands' values. The planners are beside this module,
one per operation family; printers/group.py prints a program for one thread of the GPU and
for the host; tiers.py gives the group's geometry.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..ir import MASK, Function, execute as execute_list
from ..ntt.transform import Convolver
from ..size import LIMB_BITS, Size, limbs_for
from ..tiers import MAX_BLOCK_THREADS, MAX_GROUP_THREADS as MAX_THREADS, MIN_GROUP_THREADS as MIN_THREADS


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
    def spanning(self) -> bool:
        """Whether the group spans several blocks (tiers.py): more threads than a block has."""
        return self.threads > MAX_BLOCK_THREADS

    @property
    def held_bits(self) -> int:
        return LIMB_BITS * self.threads * self.limbs_per_thread

    @staticmethod
    def of(size: Size, op: str = "") -> "Shape":
        tier = size.tier_for(op)
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
    above: str | None  # None where no flag is wanted
    flag: str | None
    bits: int = 0  # the width; 0: the program's (a composed program's calls give theirs)

    def width(self, shape: Shape) -> int:
        return self.bits or shape.bits


@dataclass(frozen=True)
class Neighbours:
    """`out` (2 W words) = `vector` (W words) of thread t + offset, then of thread t +
    offset + 1, zeros for threads outside the group: a shift's limbs from other threads."""
    vector: str
    offset: int
    out: str


@dataclass(frozen=True)
class All:
    """`out` (one word, in every thread) = 1 where bit 0 of `source` is set in every thread
    of the group, else 0 (one ballot within a warp; across warps, a word per warp)."""
    source: str
    out: str


@dataclass(frozen=True)
class Broadcast:
    """`out` (one word a limb, in every thread) = limbs `limbs` of `vector` read over the
    whole group (W words a thread: limb i in thread i // W): the top words that a
    schoolbook division's quotient digit is estimated from."""
    vector: str
    limbs: tuple[int, ...]
    out: str


@dataclass(frozen=True)
class ShiftUp:
    """`out` = `vector` (W words a thread) moved up `limbs` limbs (at most W) over the
    group: thread t's lowest are thread t - 1's top ones, thread 0's are `incoming` (that
    many words, the same in every thread; None: zeros), and the top thread's top ones drop
    out. out may be vector."""
    vector: str
    incoming: str | None
    out: str
    limbs: int = 1


@dataclass(frozen=True)
class ShiftDown:
    """`out` = `vector` (W words a thread) moved down `limbs` limbs (at most W) over the
    group: thread t's top ones are thread t + 1's lowest, the top thread's zeros, and
    thread 0's lowest drop out. out may be vector."""
    vector: str
    out: str
    limbs: int = 1


SCHEDULES = ("full", "low", "square")
EXCESS_WORDS = 2  # a product block's accumulator above its Q limbs (group/mul.py's rows)


def accumulator_words(q: int) -> int:
    return q + EXCESS_WORDS


@dataclass(frozen=True)
class ProductRows:
    """The quadratic product's loop, balanced (no thread idles in the triangle): `K`
    iterations, the same count in every thread, each adding row r (a's limbs [r Q, r Q +
    Q) times b's window [(c - r) Q - Q + 1, (c - r) Q + Q), zeros outside b) to the Q
    columns of product block c, accumulated as one number of Q + EXCESS_WORDS words. Each thread runs two segments, block c0 then c1
    (`segments` says which rows of which blocks for each schedule; `low` gets the first
    block's columns, `high` the second's):
    - "full" (a b whole): blocks t and T + t, K = T + 1;
    - "low" (the low half): block t, and rows of block T - 1 - t (threads t < T/2, whose
      blocks are short), K = T/2 + 1: `high` holds a partial sum that thread T - 1 - t adds;
    - "square" (a a, b = a): for block c only the rows r <= c/2, pairs of limbs i < j in
      full rows, and `finish[c % 2]` on the last row: the pairs i < j of that row, the
      columns doubled, the squares a_i^2 that fall in the block added. K = T/2 + 2.
    What a row reads depends on k and t alone, never on the values (on the GPU, from a
    and b staged in shared memory)."""
    fn: Function
    a: str
    b: str
    low: str
    high: str
    schedule: str = "full"
    finish: tuple[Function, Function] | None = None  # the square's last row: even, odd block

    @property
    def lists(self) -> tuple[Function, ...]:
        """The row's list, then the square's last-row lists."""
        return (self.fn,) + (self.finish or ())


@dataclass(frozen=True)
class Segment:
    block: int
    first_row: int
    rows: int


def iterations(schedule: str, threads: int) -> int:
    return {"full": threads + 1, "low": threads // 2 + 1, "square": threads // 2 + 2}[schedule]


def segments(schedule: str, threads: int, t: int) -> tuple[Segment, Segment]:
    """Thread t's two segments of rows (headers/group.cuh's `rows_of` is the same formula):
    block c takes rows r with c - T <= r <= c (a window inside b); the first segment has
    fewer than K rows, the two together at most K."""
    if schedule == "full":
        return Segment(t, 0, t + 1), Segment(threads + t, t, threads - t)
    if schedule == "low":
        half = threads // 2
        if t < half:
            return Segment(t, 0, t + 1), Segment(threads - 1 - t, 0, half - t)
        return Segment(t, t + 1 - half, half), Segment(threads - 1 - t, 0, 0)
    return Segment(t, 0, t // 2 + 1), Segment(threads + t, t, (threads + t) // 2 - t + 1)


@dataclass(frozen=True)
class Convolution:
    """The NTT product's columns (group/ntt.py plans it; ntt/transform.py says the
    layout): for each prime, a's and b's digits (thread t's Q limbs, zeros up to N points)
    into the field, forward transforms, the pointwise product and the inverse transform,
    the residues kept in the group's shared memory; then `low` and `high` get blocks t and
    T + t of the product's coefficients, each summed at its places as Q + EXCESS_WORDS
    words (as ProductRows' accumulators). Thread t holds N / T points of a transform;
    b == a: a square, one forward transform a prime. `transform` (ntt.transform.Convolver)
    holds the length N, the lists, and their run on the host."""
    a: str
    b: str
    low: str
    high: str
    transform: Convolver

    @property
    def lists(self) -> tuple[Function, ...]:
        return self.transform.lists


@dataclass(frozen=True)
class Mirror:
    """`out` of thread t = `vector` of thread T - 1 - t: the low half's partial sums."""
    vector: str
    out: str


@dataclass(frozen=True)
class Handoff:
    """The words each block passes to the next block of the product, blocks in the order
    low 0 .. T-1, high 0 .. T-1: `low_in` of thread t = `low` of thread t - 1 (zeros in
    thread 0), `high_in` of thread t = `high` of thread t - 1 (thread 0: `low` of T - 1)."""
    low: str
    high: str
    low_in: str
    high_in: str


@dataclass(frozen=True)
class Repeat:
    """`body` run `count` times, a count fixed by the plan (never by the values): a loop on
    the GPU and the host, so that a Newton iteration or an exponent's bits take one copy of
    their steps. A vector the body reads before it writes carries from one run to the next.
    `until` (a one-word vector the body writes; None: none): the loop may end early, after
    a run that leaves bit 0 of it set in every thread of the warp or of the block (on the
    host: of the group), so that only a body that changes nothing once it is set may
    have one; the loop then branches on the values (gcd, not meant for secrets)."""
    count: int
    body: tuple["Step", ...]
    until: str | None = None


Step = Union[ThreadStep, CarryScan, Top, All, ProductRows, Convolution, Handoff, Neighbours, Mirror, Broadcast, ShiftUp,
             ShiftDown, Repeat]


def flat(steps) -> list:
    """The steps with each Repeat's body in its place (once): what the analyses walk."""
    found = []
    for step in steps:
        found += flat(step.body) if isinstance(step, Repeat) else [step]
    return found


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
    high: str | None = None  # the result's limbs from T Q up (a full product), split as `result`
    second: str | None = None  # a second number after the result's limbs (div_qr's remainder)
    halves: tuple[str, ...] = ()  # operands that are the high half of the one before them (div_qr_wide's a)

    @property
    def result_vectors(self) -> tuple[str, ...]:
        """The result's vectors: the result, then a full product's high half or the second."""
        return (self.result,) + tuple(v for v in (self.high, self.second) if v)

    def contract_operands(self) -> list[tuple[str, ...]]:
        """Each operand of the contract as its vectors (one, or a double-width one's two
        halves), then the one-word operands."""
        found: list[tuple[str, ...]] = []
        for name in self.operands:
            if name in self.halves:
                found[-1] += (name,)
            else:
                found.append((name,))
        return found + [(name,) for name in self.words]


def vectors(program: Program) -> dict[str, int]:
    """Every named vector the program keeps, with its words per thread."""
    q = program.shape.limbs_per_thread
    sizes = {name: q for name in program.operands} | {name: 1 for name in program.words}
    for step in flat(program.steps):
        if isinstance(step, ThreadStep):
            sizes.update(dict(step.writes))
        elif isinstance(step, CarryScan):
            sizes.update({step.carry: 1, step.out: 1})
        elif isinstance(step, All):
            sizes[step.out] = 1
        elif isinstance(step, (ProductRows, Convolution)):
            sizes.update({step.low: accumulator_words(q), step.high: accumulator_words(q)})
        elif isinstance(step, Handoff):
            sizes.update({step.low_in: sizes[step.low], step.high_in: sizes[step.high]})
        elif isinstance(step, Neighbours):
            sizes[step.out] = 2 * sizes[step.vector]
        elif isinstance(step, (Mirror, ShiftUp, ShiftDown)):
            sizes[step.out] = sizes[step.vector]
        elif isinstance(step, Broadcast):
            sizes[step.out] = len(step.limbs)
        elif step.flag:
            sizes[step.flag] = 1
    kept = read(program)
    dropped = {name for step in flat(program.steps) if isinstance(step, ThreadStep)
               for name, _ in step.writes if name not in kept} | \
        {step.flag for step in flat(program.steps) if isinstance(step, Top) and step.flag not in kept}
    return {name: words for name, words in sizes.items() if name not in dropped}


def read(program: Program) -> set[str]:
    """The vectors some step, the result or the flag reads: a thread step's other outputs,
    and a Top's flag or clearing that nothing reads, are dropped, so that no compiler warns
    of unused ones (a composed program calls add for its sum or for its carry alone)."""
    names = set(program.result_vectors) | ({program.flag} if program.flag else set()) | _until(program.steps)
    for step in flat(program.steps):
        if isinstance(step, ThreadStep):
            names.update(step.reads)
        elif isinstance(step, (ProductRows, Convolution)):
            names.update((step.a, step.b))
        elif isinstance(step, Handoff):
            names.update((step.low, step.high))
        elif isinstance(step, (Neighbours, Mirror, Broadcast, ShiftDown)):
            names.add(step.vector)
        elif isinstance(step, ShiftUp):
            names.update(n for n in (step.vector, step.incoming) if n)
        elif isinstance(step, CarryScan):
            names.update(n for n in (step.generate, step.propagate, step.carry_in) if n)
        elif isinstance(step, All):
            names.add(step.source)
    for step in flat(program.steps):  # a Top reads what its flag wanted by others needs
        if isinstance(step, Top) and step.flag in names:
            exact = step.width(program.shape) == program.shape.held_bits
            names.add(step.above if exact and step.above else step.vector)
    return names


def _until(steps) -> set[str]:
    """The vectors that end Repeats early."""
    found = set()
    for step in steps:
        if isinstance(step, Repeat):
            found |= _until(step.body) | ({step.until} if step.until else set())
    return found


def top_wanted(step: Top, program: Program, names: set[str]) -> tuple[bool, bool]:
    """(its flag, its clearing of the vector's top): whether another step reads each."""
    return step.flag is not None and step.flag in names, step.vector in names


EXCHANGE_CHUNK = 8  # words a thread an exchange moves at a time (headers/group.cuh's chunk)


def exchange_pool_words(program: Program, instances_per_block: int) -> int:
    """The words of the block's one array for the exchanges of whole vectors through shared
    memory (headers/group.cuh's on_device<T, Pool>::pool): the largest that one exchange
    takes, since each synchronizes the block before it writes, EXCHANGE_CHUNK words a
    thread at a time. Within a warp (T <= 32) shuffles need none, except Neighbours."""
    t, ipb, sizes = program.shape.threads, instances_per_block, vectors(program)
    words = [0]
    for step in flat(program.steps):
        if isinstance(step, Neighbours):
            words.append(ipb * t * min(sizes[step.vector], EXCHANGE_CHUNK))
        elif t <= 32:
            continue
        elif isinstance(step, Mirror):
            words.append(ipb * t * min(sizes[step.vector], EXCHANGE_CHUNK))
        elif isinstance(step, Handoff):
            words.append(ipb * 2 * t * min(sizes[step.low], EXCHANGE_CHUNK))
        elif isinstance(step, (ShiftUp, ShiftDown)):
            words.append(ipb * t * min(step.limbs, EXCHANGE_CHUNK))
    return max(words)


def exchange_shared_bytes(program: Program, instances_per_block: int) -> int:
    """The static shared memory of the program's exchanges in one block, as headers/group.cuh's
    on_device declares it: the pool (exchange_pool_words) and, across warps (T > 32), the
    carry scan's, the vote's and the broadcast's few words a warp (a spanning group's pool is
    in global memory: span_scratch_words)."""
    t = program.shape.threads
    arrays: dict[str, int] = {"pool": 0 if program.shape.spanning else exchange_pool_words(program, instances_per_block)}
    for step in flat(program.steps) if t > 32 else ():
        if isinstance(step, CarryScan):
            arrays["carry_scan"] = 2 * 32
        elif isinstance(step, All):
            arrays["all"] = 32
        elif isinstance(step, Top) and step.flag and step.width(program.shape) != program.shape.held_bits or \
                isinstance(step, Broadcast):
            arrays["broadcast"] = 32
    return 4 * sum(arrays.values())


SPAN_HEADER_WORDS = 2 + 2 * 32 + 32 + 1  # barrier; the carry scan's, the vote's bits a block; a broadcast


def span_scratch_words(program: Program) -> int:
    """A spanning group's words of global memory (headers/group.cuh's on_device::scratch, one
    set a group of the launch): its barrier and the block-level words of its scans, votes
    and broadcasts, the exchanges' pool, and the transforms' regions (each prime's N points,
    a padding word every 32), which a group within one block keeps in shared memory; last
    the transforms' twiddles, computed there (one length a program)."""
    transforms = [step.transform for step in flat(program.steps) if isinstance(step, Convolution)]
    regions = [len(t.primes) * (t.length + t.length // 32) for t in transforms]
    tables = {t.length: len(t.primes) for t in transforms}
    assert len(tables) <= 1, f"{program.name}: transforms of {sorted(tables)} points; the scratch holds one table"
    # the computed twiddles (headers/group.cuh's computed_twiddles, at the end): a flag, then
    # w^e R for e = 0 .. N/2, each prime's
    twiddles = sum(1 + primes * (length // 2 + 1) for length, primes in tables.items())
    return SPAN_HEADER_WORDS + exchange_pool_words(program, 1) + max(regions, default=0) + twiddles


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
    for names, value in zip(program.contract_operands(), operands):
        for k, name in enumerate(names):  # a double-width operand's halves at the size's limbs
            part = value >> LIMB_BITS * shape.limbs * k & (1 << LIMB_BITS * shape.limbs) - 1 if len(names) > 1 else value
            for t, vector in enumerate(split(shape, part)):
                state[t][name] = vector
    for name, value in zip(program.words, words):
        for thread in state:
            thread[name] = [value]
    _run(program.steps, shape, state)
    result = state[0][program.result][0] if program.scalar else \
        join(shape, [thread[program.result] for thread in state])
    if program.high:
        result += join(shape, [thread[program.high] for thread in state]) << shape.held_bits
    if program.second:
        result += join(shape, [thread[program.second] for thread in state]) << LIMB_BITS * shape.limbs
    return result, None if program.flag is None else state[0][program.flag][0]


def _run(steps, shape: Shape, state: list[dict[str, list[int]]]) -> None:
    for step in steps:
        if isinstance(step, Repeat):
            for _ in range(step.count):
                _run(step.body, shape, state)
                if step.until and all(thread[step.until][0] & 1 for thread in state):
                    break
        elif isinstance(step, ThreadStep):
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
        elif isinstance(step, ProductRows):
            _product_rows(step, shape, state)
        elif isinstance(step, Convolution):
            _convolution(step, shape, state)
        elif isinstance(step, Handoff):
            lows, highs = [t[step.low] for t in state], [t[step.high] for t in state]
            zeros = [0] * len(lows[0])
            for t, thread in enumerate(state):
                thread[step.low_in] = lows[t - 1] if t else zeros
                thread[step.high_in] = highs[t - 1] if t else lows[-1]
        elif isinstance(step, Mirror):
            vectors = [thread[step.vector] for thread in state]
            for t, thread in enumerate(state):
                thread[step.out] = vectors[shape.threads - 1 - t]
        elif isinstance(step, Neighbours):
            vectors = [thread[step.vector] for thread in state]
            zeros = [0] * len(vectors[0])

            def of(t: int) -> list[int]:
                return vectors[t] if 0 <= t < shape.threads else zeros
            for t, thread in enumerate(state):
                thread[step.out] = of(t + step.offset) + of(t + step.offset + 1)
        elif isinstance(step, Broadcast):
            words = [w for thread in state for w in thread[step.vector]]
            for thread in state:
                thread[step.out] = [words[i] for i in step.limbs]
        elif isinstance(step, (ShiftUp, ShiftDown)):
            words = [w for thread in state for w in thread[step.vector]]
            if isinstance(step, ShiftUp):
                incoming = state[0][step.incoming][:step.limbs] if step.incoming else [0] * step.limbs
                moved = incoming + words[:len(words) - step.limbs]
            else:
                moved = words[step.limbs:] + [0] * step.limbs
            width = len(words) // shape.threads
            for t, thread in enumerate(state):
                thread[step.out] = moved[t * width:(t + 1) * width]
        elif isinstance(step, All):
            every = int(all(thread[step.source][0] & 1 for thread in state))
            for thread in state:
                thread[step.out] = [every]
        else:
            value = join(shape, [thread[step.vector] for thread in state])
            bits = step.width(shape)
            flag = state[0][step.above][0] if step.above and bits == shape.held_bits else value >> bits & 1
            for t, vector in enumerate(split(shape, value & ((1 << bits) - 1))):
                state[t][step.vector] = vector
                if step.flag:
                    state[t][step.flag] = [flag]


def _product_rows(step: ProductRows, shape: Shape, state: list[dict[str, list[int]]]) -> None:
    t_count, q = shape.threads, shape.limbs_per_thread
    a = [w for thread in state for w in thread[step.a]]
    b = [w for thread in state for w in thread[step.b]]
    for t, thread in enumerate(state):
        first, second = segments(step.schedule, t_count, t)
        accumulator = [0] * accumulator_words(q)
        for k in range(iterations(step.schedule, t_count)):
            if k == first.rows:
                thread[step.low], accumulator = accumulator, [0] * accumulator_words(q)
            segment, row = (first, k) if k < first.rows else (second, k - first.rows)
            if row >= segment.rows:
                continue
            r, c = segment.first_row + row, segment.block
            start = (c - r) * q - q + 1
            window = [b[i] if 0 <= i < len(b) else 0 for i in range(start, start + 2 * q - 1)]
            fn = step.finish[c % 2] if step.finish and row == segment.rows - 1 else step.fn
            accumulator = execute_list(fn, accumulator + a[r * q:(r + 1) * q] + window)
        thread[step.high] = accumulator


def _convolution(step: Convolution, shape: Shape, state: list[dict[str, list[int]]]) -> None:
    t_count, q = shape.threads, shape.limbs_per_thread
    a = [w for thread in state for w in thread[step.a]]
    b = None if step.b == step.a else [w for thread in state for w in thread[step.b]]
    blocks = step.transform.blocks(a, b)
    zeros = [0] * accumulator_words(q)
    for t, thread in enumerate(state):
        thread[step.low] = blocks[t]
        thread[step.high] = blocks[t_count + t] if t_count + t < len(blocks) else zeros
