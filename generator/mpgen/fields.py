"""Fields: a modulus fixed at generation time, and the constants its operations use."""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from .ir import mask
from .size import LIMB_BITS, Size, limbs_for
from .tomlcompat import tomllib

# Named moduli, each with its published source (see the file's header for the checks).
PRESETS: dict[str, dict] = tomllib.loads(
    (Path(__file__).parent / "data" / "fields.toml").read_text(encoding="utf-8"))


def to_words(value: int, count: int | None = None, word_bits: int = LIMB_BITS) -> list[int]:
    """value as words of word_bits, least significant first: `count` of them, or as many as
    it needs."""
    count = limbs_for(value.bit_length(), word_bits) if count is None else count
    return [(value >> word_bits * i) & mask(word_bits) for i in range(count)]


def is_probable_prime(n: int, rounds: int = 64) -> bool:
    """Miller-Rabin with `rounds` bases from a fixed seed: a composite passes with
    probability below 4^-rounds (the generator refuses composites for Fermat and roots)."""
    if n < 4:
        return n in (2, 3)
    if n % 2 == 0:
        return False
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    bases = random.Random(n)
    for _ in range(rounds):
        x = pow(bases.randrange(2, n - 1), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def find_preset(name: str) -> str | None:
    """The preset called `name`, ignoring case, '-' and '_' (P-256, p256, BLS12-381_fp)."""
    def key(text: str) -> str:
        return text.lower().replace("-", "").replace("_", "")
    return next((n for n in PRESETS if key(n) == key(name)), None)


def preset_curve(name: str, modulus: int) -> dict[str, str] | None:
    """The curve of the preset `name` (a, b, the point (x, y), (qx, qy) where given, and the
    group's order, in hex) where that preset has one and this modulus."""
    preset = PRESETS.get(name)
    if preset is None or int(preset["modulus"], 0) != modulus or "curve" not in preset:
        return None
    return {**preset["curve"], **({"order": preset["order"]} if "order" in preset else {})}


@dataclass(frozen=True)
class Field(Size):
    """Integers modulo `modulus`, held in limbs of a `bits`-bit size; `label` names the
    header and the namespace."""

    modulus: int = 0
    label: str = ""

    @property
    def name(self) -> str:
        return self.label

    @property
    def description(self) -> str:
        return f"integers modulo p = {self.modulus:#x} ({self.modulus.bit_length()} bits), " \
               f"as {self.bits}-bit numbers"

    def words(self, value: int) -> list[int]:
        """value as `limbs` words (of word_bits), least significant first."""
        return to_words(value, self.limbs, self.word_bits)

    @property
    def modulus_words(self) -> list[int]:
        return self.words(self.modulus)

    @property
    def spare_bit(self) -> bool:
        """2p < 2^(w limbs): a sum of two reduced values, or a Montgomery product before its
        final subtraction, fits in the limbs without a carry word."""
        return 2 * self.modulus < 1 << self.word_bits * self.limbs

    @property
    def radix_limb_bits(self) -> int:
        """The limbs R counts: 32 bits at the GPU's and the host's widths (the contract's),
        a toy width's own below that (ir.TOY_BITS)."""
        return min(self.word_bits, LIMB_BITS)

    @property
    def montgomery_radix(self) -> int:
        """R = 2^(32 n), n the 32-bit limbs: the Montgomery form's radix at every limb width
        (the contract's; 64-bit limbs hold 32 bits more where n is odd)."""
        return 1 << self.radix_limb_bits * limbs_for(self.bits, self.radix_limb_bits)

    @property
    def radix_shift(self) -> int:
        """The bits of the limbs above R: 0, or 32 for 64-bit limbs where n is odd (a
        Montgomery product then divides by 2^32 R, so one factor comes shifted by 32)."""
        return self.word_bits * self.limbs - self.radix_limb_bits * limbs_for(self.bits, self.radix_limb_bits)

    @property
    def minus_inverse(self) -> int:
        """-p^-1 mod 2^w: the word m = t * this clears the low word of t + m p."""
        return -pow(self.modulus, -1, 1 << self.word_bits) % (1 << self.word_bits)

    @property
    def pseudo_mersenne(self) -> tuple[int, int] | None:
        """(k, c) where p = 2^k - c with c below 2^64 and c (c + 2) < p: then two folds
        t = h 2^k + l -> l + h c bring a product below 2p."""
        k = self.modulus.bit_length()
        c = (1 << k) - self.modulus
        return (k, c) if 0 < c < 1 << 64 and c * (c + 2) < self.modulus else None

    @cached_property
    def solinas(self) -> tuple[dict[int, int], dict[int, dict[int, int]]] | None:
        """(digits, substitution) where p = 2^(w n) - c, w the limbs' bits, n the limbs, c = sum of
        digits[j] 2^(w j) with digits 1 and -1 (NIST P-224, P-256, P-384), and a product's
        high words need fewer terms than Montgomery's n^2 products: substitution[i][j] is
        the multiple of 2^(w j), j < n, that 2^(w i), i >= n, is congruent to, found by
        putting c for 2^(w n) until no high weight is left (FIPS 186-4 D.2's formulas,
        derived from p)."""
        n, w = self.limbs, self.word_bits
        if self.pseudo_mersenne or self.modulus.bit_length() != w * n:
            return None
        digits, c = {}, (1 << w * n) - self.modulus
        for j in range(n):
            word = c & mask(w)
            if word not in (0, 1, mask(w)):
                return None
            if word:
                digits[j] = 1 if word == 1 else -1
            c = (c - digits.get(j, 0)) >> w
        if c:  # the top word's digit was -1: c's digits need a word more
            return None
        substitution = {}
        for i in range(n, 2 * n):
            terms = {i: 1}
            while (high := max(terms)) >= n:
                times = terms.pop(high)
                for j, d in digits.items():
                    terms[high - n + j] = terms.get(high - n + j, 0) + times * d
            substitution[i] = {j: a for j, a in terms.items() if a}
        size = sum(abs(a) for row in substitution.values() for a in row.values())
        return (digits, substitution) if size < n * n else None

    @property
    def reduction(self) -> str:
        """How modmul and modsqr reduce, for the header."""
        if self.pseudo_mersenne:
            k, c = self.pseudo_mersenne
            return f"pseudo-Mersenne folding, p = 2^{k} - {c:#x}"
        if self.solinas:
            digits, substitution = self.solinas
            form = "".join(f" {'-' if d > 0 else '+'} " + (f"2^{self.word_bits * j}" if j else "1")
                           for j, d in sorted(digits.items(), reverse=True))
            terms = sum(abs(a) for row in substitution.values() for a in row.values())
            return (f"Solinas reduction, p = 2^{self.word_bits * self.limbs}{form}: the product's high "
                    f"words as {terms} signed terms on its low words")
        if self.modulus % 2 == 0:
            return "Barrett reduction (an even modulus: no Montgomery form)"
        if self.host_plans:
            return "Barrett reduction (at 64-bit limbs, faster than Montgomery's two products)"
        return "two Montgomery products (a b R^-1, then times R^2 R^-1)"

    @property
    def barrett_factor(self) -> int:
        """floor(4^k / p), k the modulus' width: Barrett's estimate of the quotient."""
        return (1 << 2 * self.modulus.bit_length()) // self.modulus

    @cached_property
    def prime(self) -> bool:
        return is_probable_prime(self.modulus)

    @property
    def two_adicity(self) -> int:
        """s where p - 1 = q 2^s, q odd (Tonelli-Shanks' loop count; 1 when p = 3 mod 4)."""
        p1 = self.modulus - 1
        return (p1 & -p1).bit_length() - 1

    @property
    def non_residue(self) -> int:
        """The least quadratic non-residue modulo an odd prime p (Euler's criterion)."""
        return next(z for z in range(2, self.modulus)
                    if pow(z, (self.modulus - 1) // 2, self.modulus) == self.modulus - 1)

    @property
    def radix_squared(self) -> int:
        """R^2 mod p: a Montgomery product by it takes a value into Montgomery form."""
        return self.montgomery_radix ** 2 % self.modulus


def default_label(modulus: int) -> str:
    """The header and namespace name of an unnamed modulus: its width and all its digits in
    hex up to 128 bits, else the first 64 bits of their SHA-256 (the whole of a 2048-bit
    modulus would pass a file name's 255 bytes). Two moduli share none (the low word alone
    named 0xffffffffffffffff and 0xfffffffeffffffff alike)."""
    digits = f"{modulus:x}"
    if modulus.bit_length() > 128:
        digits = hashlib.sha256(digits.encode()).hexdigest()[:16]
    return f"p{modulus.bit_length()}_{digits}"
