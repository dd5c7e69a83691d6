"""Sizes: a width in bits and the 32-bit limbs that hold it."""
from __future__ import annotations

from dataclasses import dataclass

from .tiers import DEFAULT_TIER, TIERS, Tier

LIMB_BITS = 32
MIN_BITS = 32
MAX_BITS = 2048
DEFAULT_BITS = (64, 109, 128, 131, 163, 191, 239, 255, 256, 381, 384, 521, 1024, 2048)


def limbs_for(bits: int) -> int:
    return -(-bits // LIMB_BITS)


MUL_METHODS = ("auto", "schoolbook", "karatsuba")


@dataclass(frozen=True)
class Size:
    """A width and the options it is generated with."""

    bits: int
    mul: str = "auto"  # how mul and sqr are planned: one of MUL_METHODS
    tier_name: str = DEFAULT_TIER  # how many threads hold one integer: one of TIERS

    @property
    def tier(self) -> Tier:
        return TIERS[self.tier_name]

    @property
    def limbs(self) -> int:
        return limbs_for(self.bits)

    @property
    def top_bits(self) -> int:
        """Bits used in the most significant limb (1..32)."""
        return self.bits - LIMB_BITS * (self.limbs - 1)

    @property
    def name(self) -> str:
        """The module's name: its header, its namespace, its kernels' prefix."""
        return f"u{self.bits}"

    @property
    def description(self) -> str:
        return f"{self.bits}-bit unsigned integers"
