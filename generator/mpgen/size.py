"""Sizes: a width in bits and the options it is generated with (what a module is, and how it
runs), and the target its lists are planned for, which sets the limbs that hold it."""
from __future__ import annotations

from dataclasses import dataclass, replace

from . import tiers
from .tiers import THREAD, Tier, auto_tier

LIMB_BITS = 32
MIN_BITS = 32
MAX_BITS = tiers.GROUP_MAX_BITS
# The sizes generated/ holds and the runtime builds in: the curves' and fields' sizes. Larger
# ones (RSA's 1024 to 8192 bits, the group tier) compile at first use, on demand, and are
# cached: built in they took three quarters of the runtime's compile time.
DEFAULT_BITS = (64, 109, 128, 131, 163, 191, 239, 255, 256, 381, 384, 521)


def limbs_for(bits: int, word_bits: int = LIMB_BITS) -> int:
    return -(-bits // word_bits)


def amount_bits(bits: int) -> int:
    """Width of a run-time shift amount of a `bits`-bit integer: enough for 0..bits-1."""
    return max(1, (bits - 1).bit_length())


MUL_METHODS = ("auto", "schoolbook", "karatsuba", "ntt")  # ntt: the group tier's products by transform


@dataclass(frozen=True)
class Target:
    """What a list is planned and printed for."""

    word_bits: int  # the limbs' width
    # The host's plans (products by columns, Montgomery's by rows, modmul by Barrett), not
    # the GPU's (rows of even and odd columns): at any width, so that tests can run either
    # family's planners at a toy width (ir.TOY_BITS).
    host_plans: bool = False
    x86: bool = False  # products by rows, for the x86-64 assembly's two carry chains (printers/x86.py)


GPU = Target(LIMB_BITS)  # the GPU's PTX, and the host rendering that runs the same lists
HOST64 = Target(64, host_plans=True)  # the host's C++ at 64-bit limbs
X86_64 = Target(64, host_plans=True, x86=True)  # x86-64 assembly (BMI2, ADX) at 64-bit limbs


@dataclass(frozen=True)
class Size:
    """A width and the options it is generated with."""

    bits: int
    mul: str = "auto"  # how the products are planned: one of MUL_METHODS
    tier_name: str = "thread"  # how many threads hold one integer: thread or group
    threads: int = 0  # the group tier: the request's threads per integer (0: the table's)
    instances_per_block: int = 0  # and its instances per block (0: the table's)
    target: Target = GPU  # what its lists are planned for: a module's sizes are the GPU's

    def at(self, target: Target) -> Size:
        """This size with its lists planned for `target`."""
        return replace(self, target=target)

    @property
    def word_bits(self) -> int:
        return self.target.word_bits

    @property
    def host_plans(self) -> bool:
        return self.target.host_plans

    @property
    def x86(self) -> bool:
        return self.target.x86

    @property
    def tier(self) -> Tier:
        return self.tier_for("")

    def tier_for(self, op: str) -> Tier:
        """The geometry of operation `op` (the group tier's differs by operation)."""
        if self.tier_name == "thread":
            return THREAD
        return tiers.group(self.bits, self.limbs, self.threads, self.instances_per_block, op)

    @property
    def limbs(self) -> int:
        return limbs_for(self.bits, self.word_bits)

    @property
    def top_bits(self) -> int:
        """Bits used in the most significant limb (1..word_bits)."""
        return self.bits - self.word_bits * (self.limbs - 1)

    @property
    def name(self) -> str:
        """The module's name: its header, its namespace, its kernels' prefix; a tier other
        than the size's automatic one is part of it (u2048_group), and products by
        transform (u32768_ntt), so that one build may hold both kinds of a size."""
        suffix = "" if self.tier_name == auto_tier(self.bits) else f"_{self.tier_name}"
        return f"u{self.bits}{suffix}" + ("_ntt" if self.mul == "ntt" else "")

    @property
    def description(self) -> str:
        return f"{self.bits}-bit unsigned integers"
