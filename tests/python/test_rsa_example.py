"""examples/rsa on the CPU with a small batch: an RSA-1024 key made by cryptography (its
two modules, 512 and 1024 bits, compile in a third of RSA-2048's time; the steps are the
same at every size), its signatures by mpgen (CRT) against cryptography's, its public-key
results against the encoded messages; and the key files it refuses, each with one line."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "rsa" / "rsa.py"


def run(tmp_path, *args):
    env = dict(os.environ, MPGEN_CACHE=str(tmp_path / "cache"))
    return subprocess.run([sys.executable, str(EXAMPLE), *map(str, args)], capture_output=True, text=True, env=env)


def pem(key, encryption=serialization.NoEncryption()) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)


def test_signatures_agree_with_cryptography(tmp_path):
    key = tmp_path / "key.pem"
    key.write_bytes(pem(rsa.generate_private_key(public_exponent=65537, key_size=1024)))
    r = run(tmp_path, key, "--count", 20, "--batch", 8, "--sample", 20, "--device", "cpu")  # 3 batches
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"RSA-1024 ({key}) on the cpu: 20 private-key operations ")
    assert r.stdout.endswith("20 signatures against cryptography's and 20 public-key results: all agree\n")


@pytest.mark.parametrize("content, message", [
    (None, "cannot read it (No such file or directory)"),
    (b"not a key\n", "not a PEM private key"),
    ("ec", "not an RSA key"),
    ("encrypted", "the key is encrypted; give it unencrypted"),
])
def test_bad_key_files_are_one_line(tmp_path, content, message):
    path = tmp_path / "key.pem"
    if content == "ec":
        content = pem(ec.generate_private_key(ec.SECP256R1()))
    elif content == "encrypted":
        content = pem(rsa.generate_private_key(public_exponent=65537, key_size=1024),
                      serialization.BestAvailableEncryption(b"secret"))
    if content is not None:
        path.write_bytes(content)
    r = run(tmp_path, path, "--device", "cpu")
    assert (r.returncode, r.stdout, r.stderr) == (2, "", f"rsa: {path}: {message}\n")


def test_the_group_tier_for_halves_it_cannot_hold_is_one_line(tmp_path):
    path = tmp_path / "key.pem"
    path.write_bytes(pem(rsa.generate_private_key(public_exponent=65537, key_size=1024)))
    r = run(tmp_path, path, "--tier", "group", "--device", "cpu")
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == "rsa: bits: 512 bits is below the group tier's 2048; the thread tier (tier=thread or auto) " \
                       "holds 32 to 2048\n"
