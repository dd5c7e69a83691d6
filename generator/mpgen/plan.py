"""Planning: a checked request becomes, per module, its operations each with its
instruction list (or, for a loop operation, the operations it calls): a size or a field
(Module: and the loop domain of a field), an RNS set (RnsModule: its residue lists, chunk
by chunk) or a generalized Fermat field (GfModule: its lists and the FFT's). Printers
take it from here."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from . import gf
from .fields import Field, preset_curve, to_words
from .gf import GfField, fft
from .group.ntt import transform_length
from .group import Convolution, ProductRows, Program, Repeat, Shape, ThreadStep, planner as group_planner, segments
from .group.program import exchange_shared_bytes, flat
from .ir import Function
from .ntt import auto_method
from .rns.lists import Chunk, chunks
from .rns.moduli import RnsSet
from .size import HOST64, X86_64, Size, limbs_for
from .thread import MODULAR_OPERATIONS, Operation, find, modular, runtime_modulus
from .thread.powers import LoopOperation, domain_one, domain_operations, in_domain, \
    montgomery_domain, root_exponent, root_of_unity, scans_table, window_bits
from .tiers import BLOCK_SHARED_BYTES, Tier, table_words

# What to generate: each size with its operations.
Request = list[tuple[Size, list[Operation]]]

# What a field's element type calls besides its loop domain's products.
ELEMENT_OPERATIONS = ("modadd", "modsub", "modneg")
# What a size's value type calls: its role in headers/value.cuh -> the operation.
VALUE_OPERATIONS = {"sum": "add", "difference": "sub", "product": "mul", "equal": "eq", "less": "lt",
                    "zero": "is_zero", "bit_and": "and", "bit_or": "or", "bit_xor": "xor",
                    "bit_not": "not", "left": "shl", "right": "shr"}


@dataclass
class PlannedOp:
    """One operation of one module: its shape, and its instruction list (the thread tier),
    or its group program (the group tier), or neither (a loop operation: C++ around
    generated operations, no list of its own)."""
    op: Operation | LoopOperation
    size: Size
    operand_bits: tuple[int, ...]
    result_limbs: int
    fn: Function | None
    program: Program | None = None
    fn64: Function | None = None  # the thread tier's list at 64-bit limbs, where the op has one (host64)
    fn_x86: Function | None = None  # and its plan for the x86-64 assembly (host64 on CPUs with ADX)

    @property
    def loop(self) -> bool:
        return self.fn is None and self.program is None

    @property
    def tier(self) -> Tier:
        """Its launch geometry (the group tier's: by operation)."""
        return self.size.tier_for(self.op.name)

    @property
    def shared_bytes(self) -> int:
        """The dynamic shared memory a block of its batch kernel takes: a group product's
        tables or its transforms' residues, one set per instance of the block."""
        return 0 if self.program is None else dynamic_shared_bytes(self.program, self.tier)

    @property
    def thread_lists(self) -> list[Function]:
        """The straight-line lists each thread runs: one, or a group program's steps."""
        if self.program is not None:
            return [fn for s in flat(self.program.steps) if isinstance(s, (ThreadStep, ProductRows))
                    for fn in (s.lists if isinstance(s, ProductRows) else (s.fn,))]
        return [] if self.fn is None else [self.fn]

    @property
    def instructions(self) -> int | None:
        """Per thread: the list's instructions, or the sum of a program's lists."""
        return None if self.loop else sum(len(fn.body) for fn in self.thread_lists)

    @property
    def operand_limbs(self) -> list[int]:
        return [limbs_for(b) for b in self.operand_bits]

    @property
    def in_words(self) -> int:
        return sum(self.operand_limbs)

    @property
    def out_words(self) -> int:
        return self.result_limbs + self.op.flag

    @property
    def below_modulus(self) -> list[bool]:
        """Per operand: whether it must be below the modulus (a field's, or the modulus
        operand's where p is given at run time)."""
        if isinstance(self.size, Field):
            mask = modular.below_modulus(self.op, self.size)
        elif self.op.modulus_operand is not None:
            mask = runtime_modulus.below_modulus(self.op)
        else:
            mask = 0
        return [bool(mask >> k & 1) for k in range(len(self.operand_bits))]

    @property
    def operand_roles(self) -> list[str]:
        """Per operand: "modulus" (p given at run time), "minus_inverse" (-p^-1 mod 2^32,
        beside it), "barrett_reciprocal" (barrett_modmul's v, beside it) or "value"."""
        roles = ["value"] * len(self.operand_bits)
        for at, role in ((self.op.modulus_operand, "modulus"), (self.op.minus_inverse_operand, "minus_inverse"),
                         (self.op.reciprocal_operand, "barrett_reciprocal")):
            if at is not None:
                roles[at] = role
        return roles

    @property
    def multiplies(self) -> int:
        """32-bit multiply halves (mul/mad .lo/.hi): what the multiply-add ceiling counts;
        a loop's are counted in the operations it calls; a group's product rows as often
        as its schedule runs them."""
        def count(fn: Function) -> int:
            return sum(i.opcode.mnemonic.startswith(("mul.", "mad")) for i in fn.body)
        if self.program is None:
            return sum(count(fn) for fn in self.thread_lists)
        threads = self.tier.threads_per_instance

        def total(steps) -> int:
            found = 0
            for step in steps:
                if isinstance(step, Repeat):
                    found += step.count * total(step.body)
                elif isinstance(step, ThreadStep):
                    found += threads * count(step.fn)
                elif isinstance(step, ProductRows):
                    for t in range(threads):
                        for segment in segments(step.schedule, threads, t):
                            if segment.rows:
                                last = step.finish[segment.block % 2] if step.finish else step.fn
                                found += (segment.rows - 1) * count(step.fn) + count(last)
            return found
        return total(self.program.steps)


@dataclass
class Module:
    """What one header holds: a size or a field with its planned operations."""
    size: Size
    ops: list[PlannedOp]

    @property
    def name(self) -> str:
        return self.size.name

    @property
    def element(self) -> bool:
        """Whether the header gets a field's element type (headers/element.cuh): where it holds
        the operations that the type calls."""
        names = {p.op.name for p in self.ops}
        return isinstance(self.size, Field) and names.issuperset(
            ELEMENT_OPERATIONS + tuple(domain_operations(self.size)))

    @property
    def value(self) -> dict[str, str] | None:
        """A size's value type (headers/value.cuh): each role with its operation's C++ name,
        where the header holds them all."""
        ops = {p.op.name: p.op.cpp_name for p in self.ops}
        if isinstance(self.size, Field) or not set(ops).issuperset(VALUE_OPERATIONS.values()):
            return None
        return {role: ops[name] for role, name in VALUE_OPERATIONS.items()}

    @property
    def curve(self) -> dict[str, str] | None:
        """The preset's curve, for a field made from a preset that has one."""
        return preset_curve(self.size.label, self.size.modulus) if isinstance(self.size, Field) else None

    @property
    def steps(self) -> list[Function]:
        """The straight-line lists the loops call besides operations, each once (none for
        an operation of the group tier: its program is its lists)."""
        named: dict[str, Function] = {}
        for p in self.ops:
            if p.loop and isinstance(p.op, LoopOperation) and p.op.steps:
                for fn in p.op.steps(self.size):
                    named.setdefault(fn.name, fn)
        return list(named.values())

    @property
    def domain(self) -> dict | None:
        if not isinstance(self.size, Field) or not self.element and not any(p.loop for p in self.ops):
            return None
        return loop_domain(self.size, {p.op.name for p in self.ops})


def with_needs(size: Size, ops: list) -> list:
    """ops, each loop operation preceded by the generated operations it calls."""
    named: dict[str, object] = {}
    for op in ops:
        if isinstance(op, LoopOperation):
            for name in op.needs(size):
                named.setdefault(name, MODULAR_OPERATIONS[name] if isinstance(size, Field) else find(name))
        named.setdefault(op.name, op)
    return list(named.values())


def dynamic_shared_bytes(program: Program, tier: Tier) -> int:
    """A block's dynamic shared memory, the most its products take in turn: the quadratic
    products' tables (table_words), the transforms' residues (each prime's N points, a
    padding word every 32)."""
    if tier.blocks_per_instance > 1:  # a spanning group's transforms work in global memory
        return 0
    words = [0]
    for step in flat(program.steps):
        if isinstance(step, ProductRows):
            words.append(table_words(tier.threads_per_instance, tier.limbs_per_thread))
        elif isinstance(step, Convolution):
            n = step.transform.length
            words.append(len(step.transform.primes) * (n + n // 32))
    return 4 * tier.instances_per_block * max(words)


@lru_cache(maxsize=None)
def group_program(size: Size, name: str) -> Program:
    """The operation's group program (planned once: the request's check and the plan share
    it); ValueError where its geometry cannot fit a block."""
    tier = size.tier_for(name)
    shape = Shape.of(size, name)
    method = auto_method(name, size.limbs, transform_length(shape)) if size.mul == "auto" else size.mul
    program = group_planner(name, method)(shape)
    if tier.blocks_per_instance > 1 and any(isinstance(step, ProductRows) for step in flat(program.steps)):
        raise ValueError(f"{name} multiplies by rows, whose tables hold the whole integer in one block, and a group "
                         f"of {tier.threads_per_instance} threads spans {tier.blocks_per_instance} blocks: there the "
                         f"products are by transform (mul, mul_lo, sqr) and what runs on them (the division, sqrt)")
    dynamic = dynamic_shared_bytes(program, tier)
    instances = f"{tier.instances_per_block} instance{'s' * (tier.instances_per_block != 1)}"
    if dynamic > BLOCK_SHARED_BYTES:
        raise ValueError(f"{instances} of {tier.threads_per_instance} threads of "
                         f"{tier.limbs_per_thread} limbs need {dynamic / 1024:.1f} KB of shared memory a block for "
                         f"{name}; a block has at most {BLOCK_SHARED_BYTES // 1024} KB: give fewer "
                         f"{'instances per block' if tier.instances_per_block > 1 else 'threads of more limbs'}")
    shared = exchange_shared_bytes(program, tier.instances_per_block)
    # 8 words a thread at a time (Handoff's 2 of 2 words): within a kernel's 48 KB of static
    assert shared <= 48 * 1024, f"{name}: {shared} bytes of static shared memory"
    if dynamic + shared > BLOCK_SHARED_BYTES:
        raise ValueError(f"{instances} of {tier.threads_per_instance} threads of "
                         f"{tier.limbs_per_thread} limbs need {(dynamic + shared) / 1024:.1f} KB of shared memory a "
                         f"block for {name} (the products' {dynamic / 1024:.1f} KB and the exchanges' "
                         f"{shared / 1024:.1f} KB); a block has at most {BLOCK_SHARED_BYTES // 1024} KB: give fewer "
                         f"threads or instances per block")
    return program


def plan(size: Size, ops: list) -> Module:
    if size.tier_name == "group":
        return Module(size, [PlannedOp(op, size, op.operand_bits(size), op.result_limbs(size), None,
                                       group_program(size, op.name)) for op in ops])
    planned = []
    for op in with_needs(size, ops):
        straight = not isinstance(op, LoopOperation)
        host64 = straight and 64 in op.word_bits
        planned.append(PlannedOp(op, size, op.operand_bits(size), op.result_limbs(size),
                                 op.plan(size) if straight else None,
                                 fn64=op.plan(size.at(HOST64)) if host64 else None,
                                 fn_x86=op.plan(size.at(X86_64)) if host64 and op.x86_plan(size) else None))
    return Module(size, planned)


def plan_request(request: Request) -> list[Module]:
    return [plan(size, ops) for size, ops in request]


def loop_domain(field: Field, names: set[str]) -> dict:
    """What the field header's loop_domain says: the products the loops call (where
    generated), and the constants they need, in the loops' form."""
    ops = domain_operations(field)
    domain = {"montgomery": montgomery_domain(field), "ops": ops, "window_bits": window_bits(field),
              "scans_table": scans_table(field),
              "products": names.issuperset(ops), "one": field.words(domain_one(field))}
    if field.modulus % 2 and field.prime:
        exponent = root_exponent(field)
        domain.update(fermat_exponent=field.modulus - 2, fermat_exponent_words=to_words(field.modulus - 2),
                      root_exponent_bits=max(1, exponent.bit_length()),
                      root_exponent_words=to_words(exponent, limbs_for(max(1, exponent.bit_length()))),
                      root_of_unity=field.words(in_domain(field, root_of_unity(field))))
    return domain


@dataclass
class RnsModule:
    """An RNS set's header: its operations over the residue lists of each chunk of moduli."""
    rns: RnsSet
    operations: list[str]
    chunks: list[Chunk]

    @property
    def name(self) -> str:
        return self.rns.label


def plan_rns(request: list[tuple[RnsSet, list[str]]]) -> list[RnsModule]:
    return [RnsModule(rns, operations, chunks(rns)) for rns, operations in request]


@dataclass
class GfModule:
    """A generalized Fermat field's header: each operation's list (with those it calls),
    and where the FFT is asked for, its lists, which share mul's and mul_r's."""
    field: GfField
    lists: list
    transform: fft.Lists | None

    @property
    def name(self) -> str:
        return self.field.label


def plan_gf(request: list[tuple[GfField, list[str]]]) -> list[GfModule]:
    modules = []
    for field, operations in request:
        lists = [gf.plan(field, name) for name in gf.with_dependencies(operations) if name != "fft"]
        transform = None
        if "fft" in operations:
            transform = fft.Lists(field)
            planned = {fn.name: fn for fn in lists}
            transform.mul, transform.mul_r = planned["mul"], planned["mul_r"]  # the same lists, planned once
        modules.append(GfModule(field, lists, transform))
    return modules
