"""Tiers: how many threads hold one integer, and the launch geometry that follows.

Every operation belongs to one tier, and the tier is part of its identity (a 4096-bit
product of a warp and of a block are different operations). Only `thread` is planned
today; the cooperative tiers (a group of threads, a warp or a block per integer) add
their rows here and their planners in ops/.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tier:
    name: str
    threads_per_instance: int
    # Blocks of 128 threads: the large products hold 150+ registers per thread, and 128
    # leaves less of an SM's 64K registers unused than 256 (1024-bit mul from memory on
    # the H100: 0.67 -> 0.90 of the copy bandwidth, bench/NOTES.md).
    instances_per_block: int

    @property
    def block_threads(self) -> int:
        return self.threads_per_instance * self.instances_per_block

    def stage_stride(self, in_words: int, out_words: int) -> int:
        """Words between two instances' rows where the batch kernel stages the contiguous
        layout through shared memory (cuda/batch.cuh), 0 where it does not: an odd number,
        so that a warp reading one word of each row touches 32 banks; not where a block's
        rows would pass the 48 KB a launch may ask without opting in (2048-bit products)."""
        stride = max(in_words, out_words) | 1
        return stride if 4 * stride * self.block_threads <= LAUNCH_SHARED_BYTES else 0

    def launch(self, in_words: int, out_words: int) -> dict:
        """The launch geometry of an operation of this tier, as the manifest states it:
        a launch over the contiguous layout passes contiguous_shared_bytes of dynamic
        shared memory (without it the kernel runs unstaged), one over the interleaved
        layout none."""
        stride = self.stage_stride(in_words, out_words)
        return {"threads_per_instance": self.threads_per_instance,
                "instances_per_block": self.instances_per_block,
                "block_threads": self.block_threads,
                "stage_stride": stride,
                "contiguous_shared_bytes": 4 * stride * self.block_threads}


LAUNCH_SHARED_BYTES = 48 * 1024


THREAD = Tier("thread", threads_per_instance=1, instances_per_block=128)

TIERS: dict[str, Tier] = {t.name: t for t in (THREAD,)}
DEFAULT_TIER = THREAD.name
