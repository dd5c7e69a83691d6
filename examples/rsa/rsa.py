"""Batch RSA through mpgen's Python API: private-key operations by the Chinese remainder
theorem (two half-size exponentiations, then Garner's recombination) and public-key
operations, on the GPU or the CPU; keys read from PEM files with `cryptography`, and a
sample of the signatures checked against that library's own (PKCS #1 v1.5, SHA-256).

    python examples/rsa/rsa.py key.pem [more.pem ...] [--count N] [--batch B] [--device auto|cpu|gpu]

Prints, per key, the private- and public-key operations per second over N messages, B at a
time (a progress line on a terminal between batches), from the batch's limb array to the
results' (on the GPU: the upload, every step, the download), then the rate end to end with
Python's conversions between integers and limbs. Every step of a batch is a batch of
mpgen's (the reductions by p and q, the recombination too), on the GPU on CuPy arrays that
stay there from the first step to the last: Python touches a message only to put its
integer into limbs and back.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib
import os
import sys
import time

import mpgen
import numpy as np
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

# DER of SHA-256's DigestInfo before the digest (RFC 8017, section 9.2, note 1)
SHA256_DIGEST_INFO = bytes.fromhex("3031300d060960864801650304020105000420")


# The group tier from 2048 bits, for the halves (RSA-4096 and up) and the modulus' own
# operations (the reductions by p and q, the recombination, the public key): the group tier's
# modexp ran 265 K full-width exponentiations a second against the per-thread tier's 207 K at
# 2048 bits, 1.28x (one H200, 2026-11-28, one call, test kernels from memory checked against
# GMP: docs/performance.md, "RSA"), and is constant time where the per-thread one is not
# (README, "Constant time"); the per-thread tier's 2048-bit module of the modulus' operations
# took nvcc 147 s to compile for sm_90, the group tier's 7 s (NVRTC compiles it on the first
# use: RSA-2048's first batch stalled for minutes on the H200). mpgen's own auto picks a tier
# per size, for products.
GROUP_FROM_BITS = 2048


class InputError(Exception):
    """A key file that cannot be used; the message says which and why."""


def encoded(message: bytes, n_bytes: int) -> int:
    """EMSA-PKCS1-v1_5 of SHA-256(message) for a modulus of n_bytes bytes, as an integer."""
    t = SHA256_DIGEST_INFO + hashlib.sha256(message).digest()
    return int.from_bytes(b"\x00\x01" + b"\xff" * (n_bytes - len(t) - 3) + b"\x00" + t, "big")


def load(path: str) -> rsa.RSAPrivateKey:
    try:
        data = open(path, "rb").read()
    except OSError as e:
        raise InputError(f"{path}: cannot read it ({e.strerror})") from None
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except TypeError:
        raise InputError(f"{path}: the key is encrypted; give it unencrypted") from None
    except (ValueError, UnsupportedAlgorithm):
        raise InputError(f"{path}: not a PEM private key") from None
    if not isinstance(key, rsa.RSAPrivateKey):
        raise InputError(f"{path}: not an RSA key")
    return key


def to_limbs(values: list[int], limbs: int) -> np.ndarray:
    """The (n, limbs) array of 32-bit limbs, least significant first, that mpgen takes."""
    data = b"".join(v.to_bytes(4 * limbs, "little") for v in values)
    return np.frombuffer(data, dtype="<u4").reshape(-1, limbs)


def to_ints(rows: np.ndarray) -> list[int]:
    return [int.from_bytes(row.tobytes(), "little") for row in np.ascontiguousarray(rows, dtype="<u4")]


def widened(xp, rows, limbs: int):
    """rows with zero limbs above them, `limbs` a row (xp: NumPy or CuPy, where rows are)."""
    out = xp.zeros((rows.shape[0], limbs), dtype=xp.uint32)
    out[:, :rows.shape[1]] = rows
    return out


class Key:
    """One key's numbers and the mpgen modules its operations run on: the halves' (p and
    q's width) and the modulus'."""

    def __init__(self, key: rsa.RSAPrivateKey, device: str, tier: str) -> None:
        numbers = key.private_numbers()
        self.key, self.n, self.e = key, numbers.public_numbers.n, numbers.public_numbers.e
        self.p, self.q, self.dp, self.dq, self.q_inverse = numbers.p, numbers.q, numbers.dmp1, numbers.dmq1, numbers.iqmp
        half = max(self.p.bit_length(), self.q.bit_length())
        if tier == "auto" and half >= GROUP_FROM_BITS:
            tier = "group"
        self.halves = mpgen.compile(half, ["modexp", "modmul", "rem", "add", "sub"], device=device, tier=tier)
        modulus_bits = self.n.bit_length()
        self.whole = mpgen.compile(modulus_bits, ["rem", "mad", "tomont", "montsqr", "montmul", "frommont"],
                                   device=device, tier="group" if modulus_bits >= GROUP_FROM_BITS else "auto")
        self.half_limbs, self.limbs = -(-half // 32), -(-modulus_bits // 32)
        self.radix_squared = pow(2, 64 * self.limbs, self.n)  # R^2 mod n, R = 2^(32 limbs): tomont's
        # the batch's arrays: CuPy's on the GPU, where every step's operands and results stay
        self.xp = importlib.import_module("cupy") if self.halves.device == "gpu" else np
        self.p_limbs = self.xp.asarray(to_limbs([self.p], self.half_limbs))

    def private(self, c):
        """c^d mod n for each row of c: m1 = c^dp mod p, m2 = c^dq mod q, then
        m = m2 + q ((m1 - m2) q^-1 mod p), each step a batch of mpgen's."""
        half, xp = self.half_limbs, self.xp
        m = []
        for prime, exponent in ((self.p, self.dp), (self.q, self.dq)):
            reduced, _ = self.whole.rem(c, prime)
            power, _ = self.halves.modexp(xp.ascontiguousarray(reduced[:, :half]), exponent, prime)
            m.append(power)
        m1, m2 = m
        m2_mod_p, _ = self.halves.rem(m2, self.p)  # m2 < q < 2p
        difference, borrow = self.halves.sub(m1, m2_mod_p)
        lifted, _ = self.halves.add(difference, xp.where(borrow[:, None] != 0, self.p_limbs, 0).astype(xp.uint32))
        h, _ = self.halves.modmul(self.q_inverse, lifted, self.p)
        return self.whole.mad(self.q, widened(xp, h, self.limbs), widened(xp, m2, self.limbs))[:, :self.limbs]

    def public(self, s):
        """s^e mod n for each row of s, in Montgomery form (n is odd): s R mod n, then e's bits
        from the top after the first, a square each and a product by s R where the bit is set
        (e is public and short: 65537 takes 16 squares and a product, where modexp would run
        all of n's bits), then out of the form. A Montgomery square costs a product and a
        reduction, where modmul's remainder is a division."""
        in_form = self.whole.tomont(s, self.radix_squared, self.n)
        m = in_form
        for bit in bin(self.e)[3:]:
            m = self.whole.montsqr(m, self.n)
            if bit == "1":
                m = self.whole.montmul(m, in_form, self.n)
        return self.whole.frommont(m, self.n)


def run_key(path: str, count: int, sample: int, device: str, batch: int, tier: str = "auto") -> bool:
    """Signs and verifies `count` random messages, `batch` at a time (a progress line on a
    terminal between batches); checks `sample` signatures against cryptography's."""
    key = Key(load(path), device, tier)
    n_bytes = (key.n.bit_length() + 7) // 8
    messages = [os.urandom(32) for _ in range(count)]
    em = [encoded(m, n_bytes) for m in messages]
    xp = key.xp

    def host(rows):  # the rows in the host's memory (from the GPU: a copy, after every step queued)
        return rows if xp is np else xp.asnumpy(rows)
    # a whole batch once, untimed: the first use compiles (NVRTC on the GPU), and the first launch
    # of a kernel on a whole batch takes longer than the next
    host(key.public(key.private(xp.asarray(to_limbs(em[:batch], key.limbs)))))
    signatures, recovered = [], []
    private_seconds = public_seconds = conversion_seconds = 0.0
    progress = sys.stderr.isatty() and count > batch
    for first in range(0, count, batch):
        start = time.perf_counter()
        rows = to_limbs(em[first:first + batch], key.limbs)
        converted = time.perf_counter()
        signed = key.private(xp.asarray(rows))
        signed_rows = host(signed)
        middle = time.perf_counter()
        recovered_rows = host(key.public(signed))
        end = time.perf_counter()
        signatures += to_ints(signed_rows)
        recovered += to_ints(recovered_rows)
        private_seconds += middle - converted
        public_seconds += end - middle
        conversion_seconds += converted - start + time.perf_counter() - end
        if progress:
            print(f"\rRSA-{key.n.bit_length()}: {len(signatures):,} of {count:,}, "
                  f"{len(signatures) / private_seconds:,.0f} private-key operations a second", end="", file=sys.stderr)
    if progress:
        print(file=sys.stderr)
    checked = messages[:sample]
    theirs = [int.from_bytes(key.key.sign(m, padding.PKCS1v15(), hashes.SHA256()), "big") for m in checked]
    wrong = sum(a != b for a, b in zip(signatures, theirs)) + sum(a != b for a, b in zip(recovered, em))
    print(f"RSA-{key.n.bit_length()} ({path}) on the {key.halves.device}: {count} private-key operations "
          f"{count / private_seconds:,.0f}/s, public-key {count / public_seconds:,.0f}/s (limb arrays in and out); "
          f"signed and verified end to end {count / (private_seconds + public_seconds + conversion_seconds):,.0f}/s "
          f"(Python's conversions {1e6 * conversion_seconds / count:.1f} us a message); "
          f"{len(checked)} signatures against cryptography's and {count} public-key results: "
          + ("all agree" if not wrong else f"{wrong} wrong"))
    return not wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Batch RSA through mpgen, checked against cryptography.")
    parser.add_argument("keys", nargs="+", help="PEM files of RSA private keys (unencrypted)")
    parser.add_argument("--count", type=int, default=1000, help="messages per key (default 1000)")
    parser.add_argument("--sample", type=int, default=16, help="signatures checked against cryptography's")
    parser.add_argument("--batch", type=int, default=65536, help="messages a batch (default 65536)")
    parser.add_argument("--device", choices=["auto", "cpu", "gpu"], default="auto")
    parser.add_argument("--tier", choices=["auto", "thread", "group"], default="auto",
                        help="the halves' tier (auto: group from 2048-bit halves, thread below; group: from 2048 "
                             "bits, whose modexp is constant time)")
    args = parser.parse_args(argv)
    if args.count < 1 or args.batch < 1 or args.sample < 0:
        parser.error("--count and --batch must be at least 1, --sample at least 0")
    try:
        return 0 if all([run_key(path, args.count, min(args.sample, args.count), args.device, args.batch, args.tier)
                         for path in args.keys]) else 1
    # (RuntimeError: --device gpu where no GPU can be used, mpgen's message saying why)
    except (InputError, mpgen.RequestError, mpgen.CompileError, RuntimeError) as e:
        print(f"rsa: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
