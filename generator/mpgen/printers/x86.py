"""The x86-64 printer: a 64-bit list as one inline assembly statement (GCC and Clang, AT&T
syntax) for CPUs with BMI2 and ADX, which the header picks at run time (base.cuh's
x86_adx) over the C++ (printers/host.py) of the operation's 64-bit list. It prints the
lists with two carry flags (products by rows, thread/rows.py: an operation's x86 plan,
Function.x86, or Montgomery's one list): their chains on CF and OF become adcx and adox,
interleaved; a product is one mulx; a subtraction's chain is sub and sbb (_Printer). The
list's words live in registers that _Registers allocates: a word no register holds stays in memory (x: the
inputs, y: the outputs, t: a slot of a buffer that also holds the constants x86 takes no
immediate for), and a register is freed by evicting the word read furthest ahead
(Belady), stored first where it changed.

`assembly` gives None for a list it cannot print (an opcode without a mapping here, or a
step that would clobber a flag whose carry is still to be read); the header then has the
C++ alone.
"""
from __future__ import annotations

import re

from ..ir import Function, Instr, Operand, Reg

POOL = ("rax", "rbx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15")
# rdx: mulx's implicit factor; the pointers x, y and the buffer (constants, then spills):
POINTERS = {"x": "rsi", "y": "rdi", "s": "rcx"}
NEVER = 1 << 60  # a word with no read ahead
# x86's immediates are 32 bits, sign-extended
_IMM32 = range(-(1 << 31), 1 << 31)


class Unprintable(Exception):
    """The list has a step this printer has no mapping for."""


def _signed(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


def _load_immediate(reg: str, value: int) -> str:
    # mov, never xor: a zero must not clobber the flags between the steps of a chain
    return f"{'movq' if _signed(value) in _IMM32 else 'movabsq'} ${_signed(value)}, %%{reg}"


class _Registers:
    """Where each word of a list lives as it is printed: in a register of POOL (a register
    freed by evicting the word read furthest ahead, Belady's choice, stored first where it
    changed), at its home in memory (x, y, or a spill slot of the buffer), and what rdx,
    mulx's implicit factor, holds. Every move this takes goes to `emit`."""

    def __init__(self, fn: Function, emit) -> None:
        self.emit = emit
        self.slots: dict[Reg, int] = {}  # live t words' spill slots
        self.buffer = 0  # spill slots used at most
        self.reg_of: dict[Reg, str] = {}
        self.holder: dict[str, Reg | None] = {r: None for r in POOL}
        self.dirty: set[Reg] = set()  # in a register, newer than in memory
        self.rdx: Operand | None = None  # what rdx holds (mulx's factor)
        self.scratch: set[str] = set()  # registers holding a value of this step alone
        self._reads(fn)

    def _reads(self, fn: Function) -> None:
        """after[i][r]: the next instruction reading r's value as it is after instruction i."""
        end = len(fn.body)
        upcoming: dict[Reg, int] = {Reg("y", k): end for k in range(fn.out_words)}
        self.after: list[dict[Reg, int]] = [{} for _ in fn.body]
        for i in range(end - 1, -1, -1):
            ins = fn.body[i]
            regs = [s for s in ins.srcs if isinstance(s, Reg)] + [ins.dst]
            for r in regs:
                self.after[i][r] = upcoming.get(r, NEVER)
            upcoming[ins.dst] = NEVER
            for s in ins.srcs:
                if isinstance(s, Reg):
                    upcoming[s] = i
        self.next_read = dict(upcoming)  # each word's first read

    def read_no_more(self, i: int, r: Reg) -> bool:
        """Whether r's value after instruction i is never read (an output's always is)."""
        return self.after[i][r] == NEVER and r.bank != "y"

    def home(self, r: Reg) -> str:
        if r.bank == "t":
            if r not in self.slots:  # the first slot no live word holds
                taken = set(self.slots.values())
                self.slots[r] = next(k for k in range(len(taken) + 1) if k not in taken)
                self.buffer = max(self.buffer, self.slots[r] + 1)
            return f"SLOT{self.slots[r]}"  # placed after the constants, once all are known
        return f"{8 * r.index}(%%{POINTERS[r.bank]})"

    def place(self, r: Reg) -> str:
        """r as a source: its register, or its home."""
        return f"%%{self.reg_of[r]}" if r in self.reg_of else self.home(r)

    def allocate(self, lock=()) -> str:
        free = [r for r in POOL if self.holder[r] is None and r not in lock and r not in self.scratch]
        if free:
            return free[0]
        victims = [r for r in POOL if r not in lock and r not in self.scratch]
        if not victims:
            raise Unprintable("more registers than the pool in one step")
        victim = max(victims, key=lambda r: self.next_read.get(self.holder[r], NEVER))
        self.evict(victim)
        return victim

    def evict(self, reg: str) -> None:
        word = self.holder[reg]
        if word is not None:
            if word in self.dirty and self.next_read.get(word, NEVER) < NEVER:
                self.emit(f"movq %%{reg}, {self.home(word)}")
            self.dirty.discard(word)
            del self.reg_of[word]
        self.holder[reg] = None

    def load(self, r: Reg, lock=()) -> str:
        if r in self.reg_of:
            return self.reg_of[r]
        reg = self.allocate(lock)
        self.emit(f"movq {self.home(r)}, %%{reg}")
        self.bind(r, reg, dirty=False)
        return reg

    def bind(self, r: Reg, reg: str, dirty: bool = True) -> None:
        if dirty and self.rdx == r:  # a new value: rdx holds the old one
            self.rdx = None
        if r in self.reg_of and self.reg_of[r] != reg:
            self.holder[self.reg_of[r]] = None
        self.reg_of[r] = reg
        self.holder[reg] = r
        if dirty:
            self.dirty.add(r)
        else:
            self.dirty.discard(r)

    def locked(self, *operands: Operand) -> set[str]:
        return {self.reg_of[o] for o in operands if isinstance(o, Reg) and o in self.reg_of}

    def destination(self, i: int, d: Reg, a: Operand, lock: set[str]) -> str:
        """A register for d holding a (d = a op ...): a's own where a is d, or where a is read
        no more (renamed, no move); else a fresh one, a moved in (mov: the flags stay)."""
        if isinstance(a, Reg) and a == d:
            reg = self.load(a, lock)
            self.bind(d, reg)
            return reg
        if isinstance(a, Reg) and a in self.reg_of and self.read_no_more(i, a):
            reg = self.reg_of.pop(a)
            self.dirty.discard(a)
            self.bind(d, reg)
            return reg
        source = None if isinstance(a, int) else self.place(a)
        reg = self.allocate(lock | self.locked(a))
        self.emit(_load_immediate(reg, a) if isinstance(a, int) else f"movq {source}, %%{reg}")
        self.bind(d, reg)
        return reg

    def retire(self, i: int) -> None:
        """Moves the read positions past instruction i; frees registers of dead words."""
        for r, at in self.after[i].items():
            self.next_read[r] = at
            if at == NEVER:
                self.slots.pop(r, None)
                if r in self.reg_of:
                    self.dirty.discard(r)
                    self.holder[self.reg_of.pop(r)] = None

    def store_outputs(self, out_words: int) -> None:
        for k in range(out_words):
            y = Reg("y", k)
            if y in self.dirty:
                self.emit(f"movq %%{self.reg_of[y]}, {self.home(y)}")


class _Printer:
    """A list's steps as x86-64 instructions: each opcode's mapping and the carry flags'
    state (which chain's carry waits for its reader, which flag is known 0); the words'
    registers are `regs`' (_Registers)."""

    def __init__(self, fn: Function) -> None:
        self.fn, self.body = fn, fn.body
        self.lines: list[str] = []
        self.constants: list[int] = []
        self.regs = _Registers(fn, self.emit)
        self.live = {"cf": False, "of": False}  # a carry waiting for its reader
        self.zero = {"cf": False, "of": False}  # flags known to be 0

    def emit(self, text: str) -> None:
        self.lines.append(text)

    def constant(self, value: int) -> str:
        if value not in self.constants:
            self.constants.append(value)
        return f"{8 * self.constants.index(value)}(%%rcx)"

    def operand(self, o: Operand, immediate: bool = True) -> str:
        """o as a source: an immediate (where x86 takes one), its register, or memory."""
        if isinstance(o, int):
            return f"${_signed(o)}" if immediate and _signed(o) in _IMM32 else self.constant(o)
        return self.regs.place(o)

    # -- flags -------------------------------------------------------------------------------
    def clobber(self, what: str) -> None:
        """Before a step that sets the flags arbitrarily: no carry may be waiting."""
        if self.live["cf"] or self.live["of"]:
            raise Unprintable(f"{what} would clobber a live carry")
        self.zero = {"cf": False, "of": False}

    # -- steps -------------------------------------------------------------------------------
    def chain_step(self, i: int, ins: Instr) -> None:
        op, flag = ins.opcode, ins.flag
        kind = op.chain_kind
        if kind not in ("add", "sub"):
            raise Unprintable(op.mnemonic)
        a, b = ins.srcs
        if kind == "add":  # adcx or adox: each reads and writes its own flag alone
            if not op.carry_in:  # a chain starts: its flag to 0
                other = "of" if flag == "cf" else "cf"
                if self.live[other]:
                    if flag == "cf":
                        self.emit("clc")
                    elif not self.zero["of"]:
                        raise Unprintable("a chain on OF starts while one on CF is live")
                else:
                    self.emit("testq %%rax, %%rax")  # CF = OF = 0
                    self.zero = {"cf": True, "of": True}
            mnemonic = "adcxq" if flag == "cf" else "adoxq"
        else:  # sub, sbb: the borrow in CF, the other flags clobbered
            if flag != "cf" or self.live["of"]:
                raise Unprintable("a subtraction beside a live carry in OF")
            mnemonic = "sbbq" if op.carry_in else "subq"
        if kind == "add" and isinstance(b, Reg) and b in self.regs.reg_of and not (isinstance(a, Reg) and a in self.regs.reg_of) \
                and b != ins.dst and a != ins.dst:
            a, b = b, a  # the sum commutes: start from the operand already in a register
        if b == ins.dst and a != ins.dst:
            raise Unprintable("d = a + d")
        lock = self.regs.locked(a, b)
        source = self.operand(b, immediate=kind == "sub") if b != ins.dst else None
        reg = self.regs.destination(i, ins.dst, a, lock | self.regs.locked(b))
        if b == ins.dst:
            source = f"%%{reg}"
        self.emit(f"{mnemonic} {source}, %%{reg}")
        self.zero[flag] = False
        if kind == "sub":
            self.zero = {"cf": False, "of": False}
        self.live[flag] = op.carry_out

    def multiply(self, i: int, low: Instr | None, high: Instr | None) -> None:
        """mul.lo and/or mul.hi of the same factors: one mulx."""
        a, b = (low or high).srcs
        if isinstance(b, Reg) and b in self.regs.reg_of and not (isinstance(a, Reg) and a in self.regs.reg_of):
            a, b = b, a  # rdx takes the factor in a register, mulx reads the other from memory
        if self.regs.rdx != a:
            self.emit(f"movq {self.operand(a)}, %%rdx")
            self.regs.rdx = a
        lock = self.regs.locked(a, b)
        source = self.operand(b, immediate=False)
        if isinstance(b, Reg) and b in self.regs.reg_of:
            lock.add(self.regs.reg_of[b])
        regs = []
        for ins, at in ((low, i), (high, i + (low is not None))):
            reg = self.regs.allocate(lock)
            if ins is None or (self.regs.read_no_more(at, ins.dst)):
                self.regs.scratch.add(reg)  # a half nobody reads
            else:
                self.regs.bind(ins.dst, reg)
            lock.add(reg)
            regs.append(reg)
        self.emit(f"mulx {source}, %%{regs[0]}, %%{regs[1]}")

    def step(self, i: int, ins: Instr) -> int:
        """Prints instruction i (and i + 1 where they make one mulx: the halves of one product,
        neither written over a factor or the other); returns how many."""
        op, (d, srcs) = ins.opcode, (ins.dst, ins.srcs)
        dead = self.regs.read_no_more(i, d)
        if op.chain_kind:
            self.chain_step(i, ins)
        elif op.mnemonic in ("mul.lo", "mul.hi"):
            following = self.body[i + 1] if i + 1 < len(self.body) else None
            if op.mnemonic == "mul.lo" and following is not None and following.opcode.mnemonic == "mul.hi" \
                    and following.srcs == srcs and d not in srcs and following.dst != d:
                self.multiply(i, ins, following)
                return 2
            if dead:
                return 1
            self.multiply(i, ins if op.mnemonic == "mul.lo" else None, ins if op.mnemonic == "mul.hi" else None)
        elif dead:
            return 1  # a value nobody reads, and no flag
        elif op.mnemonic == "mov":
            self.regs.destination(i, d, srcs[0], self.regs.locked(*srcs))
        elif op.mnemonic == "not":
            reg = self.regs.destination(i, d, srcs[0], self.regs.locked(*srcs))
            self.emit(f"notq %%{reg}")
        elif op.mnemonic in ("add", "sub", "and", "or", "xor", "shl", "shr"):  # no carry in or out
            self.clobber(op.mnemonic)
            a, b = srcs
            if op.mnemonic in ("add", "and", "or", "xor") and isinstance(b, Reg) and b in self.regs.reg_of \
                    and not (isinstance(a, Reg) and a in self.regs.reg_of) and d not in (a, b):
                a, b = b, a  # commutes: start from the operand already in a register
            if b == d and a != d:
                raise Unprintable("d = a op d")
            if op.mnemonic in ("shl", "shr") and not (isinstance(b, int) and 0 < b < 64):
                raise Unprintable(f"{op.mnemonic} by a register")
            lock = self.regs.locked(a, b)
            source = self.operand(b) if b != d else None
            reg = self.regs.destination(i, d, a, lock)
            self.emit(f"{op.mnemonic}q {source or '%%' + reg}, %%{reg}")
        elif op.mnemonic in ("shf.l.clamp", "shf.r.clamp"):
            self.clobber(op.mnemonic)
            low, high, shift = srcs
            if not (isinstance(shift, int) and 0 < shift < 64):
                raise Unprintable(f"{op.mnemonic} by a register or by 0 or 64")
            kept, other = (high, low) if op.mnemonic == "shf.l.clamp" else (low, high)
            lock = self.regs.locked(*srcs)
            source = f"%%{self.regs.load(other, lock)}" if isinstance(other, Reg) else None
            if source is None:
                reg_other = self.regs.allocate(lock)
                self.emit(_load_immediate(reg_other, other))
                source = f"%%{reg_other}"
                lock.add(reg_other)
            else:
                lock.add(self.regs.reg_of[other])
            reg = self.regs.destination(i, d, kept, lock)
            self.emit(f"{'shld' if op.mnemonic == 'shf.l.clamp' else 'shrd'}q ${shift}, {source}, %%{reg}")
        else:
            raise Unprintable(op.mnemonic)
        return 1

    def run(self) -> list[str]:
        i = 0
        while i < len(self.body):
            count = self.step(i, self.body[i])
            for k in range(i, i + count):
                self.regs.retire(k)
            self.regs.scratch.clear()  # a step's scratch registers are free again
            i += count
        self.regs.store_outputs(self.fn.out_words)
        base = 8 * len(self.constants)
        return [re.sub(r"SLOT(\d+)", lambda m: f"{base + 8 * int(m.group(1))}(%%rcx)", line)
                for line in self.lines]


def assembly(fn: Function) -> list[str] | None:
    """The body of host64(y, x) for x86-64 with BMI2 and ADX, as lines of C++, or None. Only
    the lists with two carry chains print: for one chain g++ does as well (a 1024-bit mul
    86 against 94 ns, sqr 67 against 67, add 5.1 against 3.9 on the dev machine)."""
    if fn.word_bits != 64 or fn.flags != ["cf", "of"]:
        return None
    printer = _Printer(fn)
    try:
        text = printer.run()
    except Unprintable:
        return None
    words = len(printer.constants) + printer.regs.buffer
    lines = [f"uint64_t s[{max(words, 1)}];"]
    lines += [f"s[{k}] = {value:#x}ull;" for k, value in enumerate(printer.constants)]
    lines.append("asm volatile(")
    lines += [f'    "{t}\\n\\t"' for t in text]
    clobbers = ", ".join(f'"{r}"' for r in POOL + ("rdx",))
    lines.append(f'    : : "S"(x), "D"(y), "c"(s) : {clobbers}, "cc", "memory");')
    return lines


def host64(fn: Function | None, cpp: list[str]) -> list[str]:
    """host64's body: the assembly of `fn` (the operation's x86 plan, Function.x86; None where
    it has none) where it prints and the CPU runs it, else `cpp` (the C++ plan's list,
    printers/host.py)."""
    asm = None if fn is None else assembly(fn)
    if asm is None:
        return cpp
    return ["#ifdef MPGEN_X86_ASM", "if (::mpgen::x86_adx) {", *("  " + line for line in asm), "  return;",
            "}", "#endif", *cpp]
