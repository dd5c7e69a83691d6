"""A generalized Fermat field p = r^k + 1, r = 2^w + sign 2^u, and its elements as digits in
radix r: what the lists (lists.py, fft.py) and the request (the package's __init__) share."""
from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class GfField:
    """p = r^k + 1, r = 2^w + sign 2^u; `label` names the header."""

    w: int
    u: int
    sign: int  # 1 or -1
    k: int
    label: str

    @property
    def r(self) -> int:
        return (1 << self.w) + self.sign * (1 << self.u)

    @cached_property
    def p(self) -> int:
        return self.r ** self.k + 1

    @property
    def text(self) -> str:
        return f"(2^{self.w}{'+' if self.sign > 0 else '-'}2^{self.u})^{self.k}+1"

    @property
    def two_adicity(self) -> int:
        """e, the largest with 2^e dividing p - 1 = r^k: FFTs of length up to 2^e exist.
        r = 2^u (2^(w-u) +- 1) with the bracket odd, so e = k u."""
        return self.k * self.u

    def root_of_unity(self, n: int) -> int:
        """The primitive n-th root of unity w with w^(n / 2k) = r (the thesis' Algorithm 3.1),
        for n a power of two from 2k to 2^two_adicity: an FFT of length n whose
        butterflies by w^(i n / 2k) are shifts of digits."""
        if n & (n - 1) or not 2 * self.k <= n <= 1 << self.two_adicity:
            raise ValueError(f"{n} is not a power of two from {2 * self.k} to 2^{self.two_adicity}")
        p, q = self.p, (self.p - 1) // n
        rng = random.Random(n)
        while True:  # g = a^q is a primitive n-th root where g^(n/2) = -1
            g = pow(rng.randrange(2, p - 1), q, p)
            if pow(g, n // 2, p) == p - 1:
                break
        alpha = pow(g, n // (2 * self.k), p)  # a primitive 2k-th root: r^j for an odd j
        beta, j = alpha, 1
        while beta != self.r:
            beta, j = beta * alpha % p, j + 1
        return pow(g, j, p)

    def digits(self, x: int) -> list[int]:
        """x (0 <= x < p) in radix r, least significant digit first: k digits below r, or
        (0, ..., 0, r) for x = r^k = p - 1 (the thesis' representation, section 3.1)."""
        if x == self.p - 1:
            return [0] * (self.k - 1) + [self.r]
        out = []
        for _ in range(self.k):
            x, d = divmod(x, self.r)
            out.append(d)
        return out

    def value(self, digits: list[int]) -> int:
        return sum(d * self.r ** i for i, d in enumerate(digits)) % self.p

    def words(self, x: int) -> list[int]:
        """x (0 <= x < p) as an element's 2k words: its digits, two words each."""
        return [w for d in self.digits(x) for w in (d & 0xFFFFFFFF, d >> 32)]

    def value_of_words(self, words: list[int]) -> int:
        return self.value([words[2 * i] | words[2 * i + 1] << 32 for i in range(self.k)])
