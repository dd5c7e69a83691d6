"""Tiers: how many threads hold one integer, and the launch geometry that follows.

Every operation belongs to one tier, and the tier is part of its identity (a 4096-bit
sum of 32 threads and of 64 are different operations):
- `thread`: one integer per thread, 32 to 2,048 bits (the thread/ planners);
- `group`: one integer per group of T threads, each holding Q limbs, 2,048 to 2^24 bits
  (group/ plans it); its geometry comes from data/group.toml or the request. A group of
  more than a block's 1,024 threads spans B blocks (past 2^18 bits): its exchanges go
  through global memory, between barriers of its blocks, which a cooperative launch
  keeps resident together.
`auto` picks the thread tier up to 2,048 bits and the group tier above: at 2,048, where
both hold the size, the faster from measurements (data/group.toml's [auto]).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .tomlcompat import tomllib

LAUNCH_SHARED_BYTES = 48 * 1024  # what a launch gets without opting in to more
BLOCK_SHARED_BYTES = 227 * 1024  # the most a block may opt in to (sm_90: the H100)
THREAD_MAX_BITS = 2048
GROUP_MIN_BITS, GROUP_MAX_BITS = 2048, 1 << 24
MAX_BLOCK_THREADS = 1024
MAX_SPAN_BLOCKS = 32  # a spanning group's blocks: one ballot's bits in its carry scan
MIN_GROUP_THREADS, MAX_GROUP_THREADS = 8, MAX_BLOCK_THREADS * MAX_SPAN_BLOCKS
# A spanning group's kernel bounds its registers for two blocks of 512 threads an SM (64 a
# thread: the products take 64 anyway, add took 116 and keeps 0 spills at 64), and one launch
# runs at most that many blocks on 128 SMs at once (its scratch in global memory is sized
# for them), which an H100's or H200's 132 SMs hold; the launch takes as many as the GPU
# holds resident, up to these.
SPAN_BLOCKS_PER_SM = 2
SPAN_LAUNCH_BLOCKS = 128 * SPAN_BLOCKS_PER_SM
MAX_LIMBS_PER_THREAD = 64  # beyond, a thread's vectors no longer fit its registers


@dataclass(frozen=True)
class Tier:
    name: str
    threads_per_instance: int
    instances_per_block: int
    limbs_per_thread: int = 0  # the group tier's Q; 0 in the thread tier (a thread holds all)
    blocks_per_instance: int = 1  # B > 1: a group spanning blocks (instances_per_block is 1)

    @property
    def block_threads(self) -> int:
        return self.threads_per_instance * self.instances_per_block // self.blocks_per_instance

    @property
    def launch_groups(self) -> int:
        """A spanning group's kernel: the most groups one launch runs (1 otherwise)."""
        return max(1, SPAN_LAUNCH_BLOCKS // self.blocks_per_instance) if self.blocks_per_instance > 1 else 1

    def stage_stride(self, in_words: int, out_words: int) -> int:
        """Words between two instances' rows where the thread tier's batch kernel stages
        the contiguous layout through shared memory (headers/batch.cuh), 0 where it does
        not: an odd number, so that a warp reading one word of each row touches 32 banks;
        not where a block's rows would pass the 48 KB a launch may ask without opting in
        (2048-bit products), nor in the group tier (each thread loads its own limbs there:
        staging measured slower: 0.65 of the copy bandwidth against 1.0)."""
        if self.name != "thread":
            return 0
        stride = max(in_words, out_words) | 1
        return stride if 4 * stride * self.block_threads <= LAUNCH_SHARED_BYTES else 0

    def launch(self, in_words: int, out_words: int, shared_bytes: int = 0) -> dict:
        """The launch geometry of an operation of this tier, as the manifest states it:
        a launch over the interleaved layout passes shared_bytes of dynamic shared memory
        (a group product's tables; the launch opts in to it), one over the
        contiguous layout contiguous_shared_bytes: those and the thread tier's staging
        (without which the kernel runs unstaged). A spanning group's kernel (blocks_per_instance
        B > 1) is launched cooperatively, B blocks a group, at most launch_groups groups, and
        bounds its registers for min_blocks_per_sm blocks an SM (__launch_bounds__)."""
        stride = self.stage_stride(in_words, out_words)
        return {"threads_per_instance": self.threads_per_instance,
                "instances_per_block": self.instances_per_block,
                "block_threads": self.block_threads,
                "blocks_per_instance": self.blocks_per_instance,
                "launch_groups": self.launch_groups,
                "min_blocks_per_sm": SPAN_BLOCKS_PER_SM if self.blocks_per_instance > 1 else 1,
                "limbs_per_thread": self.limbs_per_thread,
                "stage_stride": stride,
                "shared_bytes": shared_bytes,
                "contiguous_shared_bytes": shared_bytes + 4 * stride * self.block_threads}


# Blocks of 128 threads: the large products hold 150+ registers per thread, and 128
# leaves less of an SM's 64K registers unused than 256 (1024-bit mul from memory on
# the H100: 0.67 -> 0.90 of the copy bandwidth).
THREAD = Tier("thread", threads_per_instance=1, instances_per_block=128)

TIER_NAMES = ("auto", "thread", "group")
DEFAULT_TIER = "auto"

GROUP_TABLE = tomllib.loads((Path(__file__).parent / "data" / "group.toml").read_text(encoding="utf-8"))


def table_words(threads: int, limbs_per_thread: int) -> int:
    """Words of one instance's product tables in the launch's dynamic shared memory
    (headers/group.cuh's product_rows: a's T Q limbs, then b's between Q - 1 zeros below and
    Q above)."""
    return 2 * threads * limbs_per_thread + 2 * limbs_per_thread


def auto_tier(bits: int) -> str:
    """`auto`'s tier: measured where both tiers hold the size (data/group.toml's [auto])."""
    return "thread" if bits <= GROUP_TABLE["auto"]["thread_up_to_bits"] else "group"


def group(bits: int, limbs: int, threads: int = 0, instances_per_block: int = 0, op: str = "") -> Tier:
    """The group tier's geometry for an integer of `limbs` limbs: from the table (the
    operation's rows, else the default ones), or the request's threads and instances per
    block (0: the table's); ValueError says what does not fit. Threads above the top limb may hold only zeros (65 limbs on 32 threads of
    3): they take part in every step, and the plan's results stay exact. A group of more
    than MAX_BLOCK_THREADS threads spans blocks of the row's block_threads, one instance each,
    as does one of more than block_threads where the row says `spans`."""
    section = next((s for s in GROUP_TABLE.values() if op in s.get("ops", ())), GROUP_TABLE["default"])
    rows = section["rows"]
    row = next((r for r in rows if bits <= r["max_bits"]), None)
    if row is None:
        raise ValueError(f"{op or 'the group tier'} holds up to {rows[-1]['max_bits']} bits")
    if not threads:
        threads = MIN_GROUP_THREADS
        while threads * row["limbs_per_thread"] < limbs and threads < MAX_GROUP_THREADS:
            threads *= 2
    if threads < MIN_GROUP_THREADS or threads > MAX_GROUP_THREADS or threads & (threads - 1):
        raise ValueError(f"{threads} threads: a group is a power of two from {MIN_GROUP_THREADS} "
                         f"to {MAX_GROUP_THREADS}")
    q = -(-limbs // threads)
    if q > MAX_LIMBS_PER_THREAD:
        raise ValueError(f"{threads} threads would hold {q} limbs each for {bits} bits; at most "
                         f"{MAX_LIMBS_PER_THREAD} fit a thread's registers: give more threads")
    if threads > MAX_BLOCK_THREADS or (row.get("spans") and threads > row["block_threads"]):
        block = min(row["block_threads"], MAX_BLOCK_THREADS)
        if threads // block > MAX_SPAN_BLOCKS:
            raise ValueError(f"{threads} threads would span {threads // block} blocks of {block}; a group spans at "
                             f"most {MAX_SPAN_BLOCKS}: give fewer threads")
        if instances_per_block > 1:
            raise ValueError(f"{threads} threads span {threads // block} blocks of {block}, one instance over them: "
                             f"not {instances_per_block} instances a block")
        return Tier("group", threads, 1, q, threads // block)
    ipb = instances_per_block or max(1, row["block_threads"] // threads)
    if threads * ipb > MAX_BLOCK_THREADS:
        raise ValueError(f"{ipb} instances of {threads} threads need {threads * ipb} threads a block; "
                         f"a block has at most {MAX_BLOCK_THREADS}")
    if section.get("tables") and 4 * ipb * table_words(threads, q) > BLOCK_SHARED_BYTES:
        raise ValueError(f"{ipb} instances of {threads} threads of {q} limbs need "
                         f"{4 * ipb * table_words(threads, q) // 1024} KB of product tables a block; a block "
                         f"has at most {BLOCK_SHARED_BYTES // 1024} KB: give fewer instances per block")
    return Tier("group", threads, ipb, q)
