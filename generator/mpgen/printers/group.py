"""The group printer: a group program (group.py) as C++, twice from the one step list.

- `device`: the body of `thread(y, x)`, what one thread of the group runs on the GPU: x
  holds its Q limbs of each vector operand, then each one-word operand; y gets its Q
  limbs of the result, then the flag. Thread steps call their list's PTX rendering; group
  steps call headers/group.cuh's `on_device` (ballots, shuffles, shared memory).
- `host`: the body of `host(y, x)` over a whole instance (the operation's contract), every
  step run for each thread in turn: thread steps through their list's host rendering,
  group steps through `on_host` or the same expressions as on the device.
Each thread step's list prints once per header as a struct (`step`, by the
instruction-list printers), so that the GPU and the host run one list; the operations
name theirs.
"""
from __future__ import annotations

from ..group import All, Broadcast, CarryScan, Convolution, Handoff, Mirror, Neighbours, ProductRows, Program, Repeat, \
    ShiftDown, ShiftUp, ThreadStep, Top
from ..group.program import SCHEDULES, accumulator_words, exchange_pool_words, flat, read, span_scratch_words, \
    top_wanted, vectors
from ..ntt.transform import Convolver
from ..size import LIMB_BITS
from ..tiers import Tier
from . import host as host_printer, ptx


def lists(program: Program) -> list:
    """The program's straight-line lists, each once (a list may serve several steps; a
    composed program's calls may bring one name twice, which must then be one list)."""
    found: dict = {}
    for step in flat(program.steps):
        for fn in step.lists if isinstance(step, (ProductRows, Convolution)) else \
                (step.fn,) if isinstance(step, ThreadStep) else ():
            other = found.setdefault(fn.name, fn)
            if (other.in_words, other.out_words, other.body) != (fn.in_words, fn.out_words, fn.body):
                raise ValueError(f"{program.name}: two different lists are called {fn.name}")
    return list(found.values())


def _rows_template(step: ProductRows) -> str:
    """ProductRows' template arguments after the geometry: schedule, row lists."""
    return ", ".join([str(SCHEDULES.index(step.schedule))] + [fn.name for fn in step.lists])


def twiddles_name(length: int, device: bool) -> str:
    """The header's table of the twiddles of N-point transforms (templates/size.cuh.j2)."""
    return f"ntt_twiddles_{length}_{'device' if device else 'host'}"


def _transforms(programs: list[Program], spanning: bool) -> dict[int, Convolver]:
    """The transforms of the programs whose groups span blocks (or not), by length."""
    return {step.transform.length: step.transform for program in programs if program.shape.spanning == spanning
            for step in flat(program.steps) if isinstance(step, Convolution)}


def twiddle_tables(programs: list[Program]) -> dict[int, list[int]]:
    """The twiddle tables the programs' transforms read, by length, where the header holds
    them (a group within a block)."""
    return {n: transform.table for n, transform in _transforms(programs, False).items()}


def twiddle_roots(programs: list[Program]) -> dict[int, Convolver]:
    """The transforms whose twiddles are computed at first use (a group spanning blocks: 2^16
    points and more, whose tables would take megabytes of header), by length: their
    constants are each prime's R and w R (templates/size.cuh.j2's ntt_roots_N)."""
    return _transforms(programs, True)


def roots_name(length: int) -> str:
    return f"ntt_roots_{length}"


def _twiddles(step: Convolution, spanning: bool, on: str, device: bool) -> str:
    """The twiddles argument of a Convolution: the header's table (the device's or the
    host's), or (spanning) the table computed from the roots at first use, by `on`
    (on_device's or on_host's)."""
    n = step.transform.length
    if not spanning:
        return twiddles_name(n, device)
    return f"{on}::template computed_twiddles<{n}, {roots_name(n)}, {_primes(step)}>()"


def _primes(step: Convolution) -> str:
    return ", ".join(f"::mpgen::group::ntt_prime<{', '.join(fn.name for fn in p.all)}>" for p in step.transform.primes)


def _convolution_template(step: Convolution) -> str:
    """Convolution's template arguments after the geometry: square, the lists."""
    return f"{'true' if step.a == step.b else 'false'}, {step.transform.columns.name}, {_primes(step)}"


def step(fn) -> dict:
    """A thread step's list with its two renderings."""
    return {"name": fn.name, "in_words": fn.in_words, "out_words": fn.out_words,
            "instructions": len(fn.body), "ptx": ptx.function(fn), "host": host_printer.function(fn)}


def result_parts(program: Program) -> int:
    """The result's vectors: one, or a full product's two halves, or two numbers."""
    return len(program.result_vectors)


def result_part_limbs(program: Program) -> int:
    """Where the result's second vector starts: a full product's high half at T Q limbs, a
    second number (div_qr's remainder) at the size's limbs."""
    shape = program.shape
    return shape.threads * shape.limbs_per_thread if program.high or not program.second else shape.limbs


def operand_parts(program: Program) -> list[int]:
    """The vectors each operand of the contract is loaded into (2: a double-width one)."""
    return [len(names) for names in program.contract_operands()]


def thread_words(program: Program) -> tuple[int, int]:
    """(x, y) words of one thread: its operands' words, its result's and the flag."""
    q = program.shape.limbs_per_thread
    return q * len(program.operands) + len(program.words), q * result_parts(program) + (program.flag is not None)


def _top(step: Top, program: Program, rank: str, view, on: str | None) -> list[str]:
    """The Top step for the thread `rank`, its vectors seen through view(name): the flag
    (broadcast from its holder by `on`, or left in the holder alone on the host, whose
    caller spreads it), then the bits from the width up cleared; each where read."""
    shape, q, bits = program.shape, program.shape.limbs_per_thread, step.width(program.shape)
    wanted, cleared = top_wanted(step, program, read(program))  # neg's Top only clears
    if bits == shape.held_bits:  # the width's carry is the group's carry out
        return [f"{view(step.flag)}[0] = {view(step.above)}[0];"] if wanted else []
    if not wanted and not cleared:
        return []
    vector = view(step.vector)
    holder, k = divmod(bits // LIMB_BITS, q)
    own = f"{vector}[{k}] >> {bits % LIMB_BITS} & 1"
    flag = view(step.flag) if wanted else ""
    lines = [f"{flag}[0] = {on}::broadcast({own}, {holder});" if on else
             f"{flag}[0] = {rank} == {holder} ? {own} : 0;"] if wanted else []
    return lines + [f"for (unsigned i = 0; i < {q}; ++i) {vector}[i] &= ::mpgen::group::width_mask("
                    f"{rank} * {q} + i, {bits});"] * cleared


def _copy(dst: str, src: str, count: int) -> str:
    return f"for (unsigned i = 0; i < {count}; ++i) {dst}[i] = {src}[i];"


def _thread_step(step: ThreadStep, sizes: dict[str, int]) -> list[str]:
    """`{ in = reads; device(out, in); writes = out; }`: one thread's step."""
    lines = [f"uint32_t in[{max(1, step.fn.in_words)}], out[{step.fn.out_words}];"]  # constants read nothing
    first = 0
    for name in step.reads:
        lines.append(_copy(f"(in + {first})", var(name), sizes[name]))
        first += sizes[name]
    lines.append(f"{step.fn.name}::device(out, in);")
    first = 0
    for name, count in step.writes:
        if name in sizes:
            lines.append(_copy(var(name), f"(out + {first})", count))
        first += count
    return ["{"] + ["  " + line for line in lines] + ["}"]


def var(name: str) -> str:
    """A vector's C++ name (apart from the functions' x and y)."""
    return f"v_{name}"


class _Steps:
    """A program's steps as lines of C++: one method a step kind, named in _KINDS, which
    each rendering (the device's, the host's) writes its way; a Repeat's loop is the same
    for both, and the top tests (Top) are the rest."""

    def __init__(self, program: Program):
        self.program, self.sizes = program, vectors(program)
        self.threads, self.q = program.shape.threads, program.shape.limbs_per_thread

    def emit(self, steps: tuple, depth: int = 0) -> list[str]:
        lines: list[str] = []
        for step in steps:
            if isinstance(step, Repeat):
                loop = f"repeat{depth}"
                done = [f"  if ({self.every(step)}) break;"] if step.until else []
                lines += [f"for (unsigned {loop} = 0; {loop} < {step.count}; ++{loop}) {{"] + \
                    ["  " + line for line in self.emit(step.body, depth + 1)] + done + ["}"]
            else:
                lines += getattr(self, _KINDS.get(type(step), "top"))(step)
        return lines


_KINDS = {ThreadStep: "thread_step", CarryScan: "carry_scan", All: "all", ProductRows: "product_rows",
          Convolution: "convolution", Handoff: "handoff", Mirror: "mirror", Neighbours: "neighbours",
          Broadcast: "broadcast", ShiftUp: "shift_up", ShiftDown: "shift_down"}


class _DeviceSteps(_Steps):
    """What one thread of the group runs: group steps through headers/group.cuh's on_device."""

    def __init__(self, program: Program, tier: Tier):
        super().__init__(program)
        self.per_block = tier.instances_per_block
        geometry = [self.threads, exchange_pool_words(program, self.per_block)]
        if tier.blocks_per_instance > 1:  # the group's blocks' threads, its scratch, the launch's groups
            geometry += [tier.block_threads, span_scratch_words(program), tier.launch_groups]
        self.on = f"::mpgen::group::on_device<{', '.join(map(str, geometry))}>"

    def thread_step(self, step: ThreadStep) -> list[str]:
        return _thread_step(step, self.sizes)

    def every(self, step: Repeat) -> str:
        """Whether a Repeat may end: its `until` set in every thread of the warp, or of the
        block where a step of its body may synchronize the block (T > 32: every exchange;
        within a warp, those through shared memory)."""
        within_warp = self.threads <= 32 and not any(
            isinstance(s, (Neighbours, ProductRows, Convolution)) for s in flat(step.body))
        return f"{self.on}::template every<{'false' if within_warp else 'true'}>({var(step.until)}[0])"

    def carry_scan(self, step: CarryScan) -> list[str]:
        carry_in = f"{var(step.carry_in)}[0]" if step.carry_in else "0"
        return [f"{self.on}::carry_scan({var(step.generate)}[0], {var(step.propagate)}[0], {carry_in}, "
                f"{var(step.carry)}[0], {var(step.out)}[0]);"]

    def all(self, step: All) -> list[str]:
        return [f"{var(step.out)}[0] = {self.on}::all({var(step.source)}[0]);"]

    def product_rows(self, step: ProductRows) -> list[str]:
        return [f"{self.on}::template product_rows<{self.q}, {accumulator_words(self.q)}, {self.per_block}, "
                f"{_rows_template(step)}>("
                f"{var(step.a)}, {var(step.b)}, {var(step.low)}, {var(step.high)});"]

    def convolution(self, step: Convolution) -> list[str]:
        return [f"{self.on}::template convolution<{self.q}, {accumulator_words(self.q)}, {self.per_block}, "
                f"{step.transform.length}, {_convolution_template(step)}>({var(step.a)}, {var(step.b)}, "
                f"{var(step.low)}, {var(step.high)}, {_twiddles(step, self.program.shape.spanning, self.on, True)});"]

    def handoff(self, step: Handoff) -> list[str]:
        return [f"{self.on}::template handoff<{self.sizes[step.low]}, {self.per_block}>({var(step.low)}, "
                f"{var(step.high)}, {var(step.low_in)}, {var(step.high_in)});"]

    def mirror(self, step: Mirror) -> list[str]:
        return [f"{self.on}::template mirror<{self.sizes[step.vector]}, {self.per_block}>({var(step.vector)}, "
                f"{var(step.out)});"]

    def neighbours(self, step: Neighbours) -> list[str]:
        return [f"{self.on}::template neighbours<{self.sizes[step.vector]}, {self.per_block}>("
                f"{var(step.vector)}, {step.offset}, {var(step.out)});"]

    def broadcast(self, step: Broadcast) -> list[str]:
        w = self.sizes[step.vector]
        return [f"{var(step.out)}[{i}] = {self.on}::broadcast({var(step.vector)}[{limb % w}], {limb // w});"
                for i, limb in enumerate(step.limbs)]

    def shift_up(self, step: ShiftUp) -> list[str]:
        incoming = var(step.incoming) if step.incoming else "nullptr"
        return [f"{self.on}::template shift_up<{self.sizes[step.vector]}, {step.limbs}, {self.per_block}>("
                f"{var(step.vector)}, {incoming}, {var(step.out)});"]

    def shift_down(self, step: ShiftDown) -> list[str]:
        return [f"{self.on}::template shift_down<{self.sizes[step.vector]}, {step.limbs}, {self.per_block}>("
                f"{var(step.vector)}, {var(step.out)});"]

    def top(self, step: Top) -> list[str]:
        lines = _top(step, self.program, "rank", var, self.on)
        if any("rank" in line for line in lines):  # a scope of its own: a program may have several
            lines = ["{", f"  const unsigned rank = {self.on}::rank();"] + ["  " + line for line in lines] + ["}"]
        return lines


class _HostSteps(_Steps):
    """A whole instance on the host: each step for every thread in turn, group steps through
    headers/group.cuh's on_host (vectors of all threads one after the other)."""

    def view(self, name: str) -> str:
        return f"(&{var(name)}[t * {self.sizes[name]}])"

    def every(self, step: Repeat) -> str:
        return f"::mpgen::group::on_host::every({self.threads}, {var(step.until)})"

    def each_thread(self, line: str) -> str:
        return f"for (unsigned t = 0; t < {self.threads}; ++t) {line}"

    def thread_step(self, step: ThreadStep) -> list[str]:
        """on_host::thread_step: the parts read into the list's x, then those its y is
        written to, each {vector, stride, words} (a null vector: words nothing keeps)."""
        reads = [(var(name), self.sizes[name], self.sizes[name]) for name in step.reads]
        writes = [(var(name), self.sizes[name], count) if name in self.sizes else ("nullptr", 0, count)
                  for name, count in step.writes]
        assert sum(w for *_, w in reads) == step.fn.in_words and sum(w for *_, w in writes) == step.fn.out_words

        def parts(listed: list) -> str:
            return "{" + ", ".join(f"{{{vector}, {stride}, {words}}}" for vector, stride, words in listed) + "}"
        return [f"::mpgen::group::on_host::thread_step({self.threads}, &{step.fn.name}::host, {parts(reads)}, "
                f"{parts(writes)});"]

    def carry_scan(self, step: CarryScan) -> list[str]:
        carry_in = f"{var(step.carry_in)}[0]" if step.carry_in else "0"
        return [f"::mpgen::group::on_host::carry_scan({self.threads}, {var(step.generate)}, "
                f"{var(step.propagate)}, {carry_in}, {var(step.carry)}, "
                f"{var(step.out)});"]

    def all(self, step: All) -> list[str]:
        return [f"::mpgen::group::on_host::all({self.threads}, {var(step.source)}, {var(step.out)});"]

    def product_rows(self, step: ProductRows) -> list[str]:
        return [f"::mpgen::group::on_host::product_rows<{_rows_template(step)}>({self.threads}, "
                f"{self.q}, {accumulator_words(self.q)}, {var(step.a)}, {var(step.b)}, "
                f"{var(step.low)}, {var(step.high)});"]

    def convolution(self, step: Convolution) -> list[str]:
        return [f"::mpgen::group::on_host::convolution<{_convolution_template(step)}>({self.threads}, {self.q}, "
                f"{accumulator_words(self.q)}, {step.transform.length}, {var(step.a)}, "
                f"{var(step.b)}, {var(step.low)}, {var(step.high)}, "
                f"{_twiddles(step, self.program.shape.spanning, '::mpgen::group::on_host', False)});"]

    def handoff(self, step: Handoff) -> list[str]:
        return [f"::mpgen::group::on_host::handoff({self.threads}, {self.sizes[step.low]}, {var(step.low)}, "
                f"{var(step.high)}, {var(step.low_in)}, {var(step.high_in)});"]

    def mirror(self, step: Mirror) -> list[str]:
        return [f"::mpgen::group::on_host::mirror({self.threads}, {self.sizes[step.vector]}, "
                f"{var(step.vector)}, {var(step.out)});"]

    def neighbours(self, step: Neighbours) -> list[str]:
        return [f"::mpgen::group::on_host::neighbours({self.threads}, {self.sizes[step.vector]}, "
                f"{var(step.vector)}, {step.offset}, {var(step.out)});"]

    def broadcast(self, step: Broadcast) -> list[str]:
        words = len(step.limbs)
        return [self.each_thread(f"{var(step.out)}[t * {words} + {i}] = {var(step.vector)}[{limb}];")
                for i, limb in enumerate(step.limbs)]

    def shift_up(self, step: ShiftUp) -> list[str]:
        incoming = var(step.incoming) if step.incoming else "nullptr"
        return [f"::mpgen::group::on_host::shift_up({self.threads * self.sizes[step.vector]}, {step.limbs}, "
                f"{var(step.vector)}, {incoming}, {var(step.out)});"]

    def shift_down(self, step: ShiftDown) -> list[str]:
        return [f"::mpgen::group::on_host::shift_down({self.threads * self.sizes[step.vector]}, {step.limbs}, "
                f"{var(step.vector)}, {var(step.out)});"]

    def top(self, step: Top) -> list[str]:
        lines = [self.each_thread(line) for line in _top(step, self.program, "t", self.view, None)]
        if top_wanted(step, self.program, read(self.program))[0]:
            flag = var(step.flag)
            lines.append(self.each_thread(f"{flag}[t] = {flag}[{_holder(step, self.program)}];"))
        return lines


def device(program: Program, tier: Tier) -> list[str]:
    """y: the thread's Q words of the result (a one-word result in y[0]; a full product's
    two halves: Q words each), then the flag."""
    steps = _DeviceSteps(program, tier)
    sizes, q = steps.sizes, steps.q
    lines = [f"uint32_t {', '.join(f'{var(n)}[{w}]' for n, w in sizes.items())};"]
    first = 0
    for name in program.operands + program.words:
        lines.append(_copy(var(name), f"(x + {first})", sizes[name]))
        first += sizes[name]
    lines += steps.emit(program.steps)
    for k, name in enumerate(program.result_vectors):
        lines.append(_copy(f"(y + {k * q})", var(name), sizes[name]))
    if program.flag is not None:
        lines.append(f"y[{q * result_parts(program)}] = {var(program.flag)}[0];")
    return lines


def host(program: Program, operand_limbs: list[int], result_limbs: int) -> list[str]:
    """Vectors of all T threads one after the other (thread t's words at t * words)."""
    steps = _HostSteps(program)
    sizes, t = steps.sizes, steps.threads
    offsets = [0]
    for w in sizes.values():
        offsets.append(offsets[-1] + t * w)
    lines = [f"std::vector<uint32_t> words({offsets[-1]});",  # one allocation, zeros
             f"uint32_t {', '.join(f'* const {var(n)} = &words[{at}]' for n, at in zip(sizes, offsets))};"]
    first = 0
    for names, limbs in zip(program.contract_operands(), operand_limbs):
        for k, name in enumerate(names):
            if sizes[name] == 1:
                lines.append(f"for (unsigned t = 0; t < {t}; ++t) {var(name)}[t] = x[{first}];")
            else:
                part = limbs // len(names)
                lines.append(_copy(var(name), f"(x + {first + k * part})", part))
        first += limbs
    lines += steps.emit(program.steps)
    stride = result_part_limbs(program)
    lines.append(_copy("y", var(program.result), min(result_limbs, stride)))
    for name in program.result_vectors[1:]:
        if result_limbs > stride:
            lines.append(_copy(f"(y + {stride})", var(name), result_limbs - stride))
    if program.flag is not None:
        lines.append(f"y[{result_limbs}] = {var(program.flag)}[0];")
    return lines


def _holder(step: Top, program: Program) -> int:
    """The thread that holds the bit above the width (0 where the group holds exactly it)."""
    shape, bits = program.shape, step.width(program.shape)
    return 0 if bits == shape.held_bits else bits // LIMB_BITS // shape.limbs_per_thread
